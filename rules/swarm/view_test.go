package swarm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset/rulesettest"
)

// enemyLeak says what an event shown to side tells beyond what that side may know about enemy squadrons:
// their moves, tacks, plotted courses, firepower and pips, and dice thrown for them.
func enemyLeak(st *State, side string, e Event) string {
	enemy := func(cs string) bool {
		q := st.Squadron(cs)
		return q != nil && q.Side != side
	}
	for _, d := range e.Dice {
		owner := strings.Fields(d.Label)[2] // "turn N CALLSIGN ..."
		// An attacker sees its target's evasive saves, as at the table: they are the result of its attack.
		if e.Kind == EvFire && e.Side == side && strings.Contains(d.Label, "evasive save") {
			continue
		}
		if enemy(owner) {
			return "a die thrown for enemy squadron " + owner + ": " + d.Label
		}
	}
	if e.Unit == "" || !enemy(e.Unit) {
		return ""
	}
	switch {
	case e.Move != nil:
		return "an enemy's movement"
	case len(e.Problems) > 0:
		return "an enemy's order"
	case e.Initiative != nil && (e.Initiative.Roll != 0 || e.Initiative.Tie != 0):
		return "an enemy's initiative roll"
	case e.Fire != nil && (len(e.Fire.Attacks) > 0 || e.Fire.Firepower != 0):
		return "an enemy's firepower"
	case e.Bomb != nil && (len(e.Bomb.Rolls) > 0 || e.Bomb.Need != 0):
		return "an enemy's strength through its bomb rolls"
	case e.Cancelled != 0:
		return "an enemy's plotted course"
	}
	q := st.Squadron(e.Unit)
	t, _ := testDataNoT().Type(q.Type)
	for _, s := range []string{q.Type, t.Name, "D6 ", "pips left", "course"} {
		if strings.Contains(e.Text, s) {
			return fmt.Sprintf("%q in %q", s, e.Text)
		}
	}
	return ""
}

func testDataNoT() *Data {
	d, err := DefaultData()
	if err != nil {
		panic(err)
	}
	return d
}

// TestEventsForEveryKind walks every event kind with every detail filled in, as the side it is about,
// the side it was done to, and a third side, and checks each sees what its rule says and no more.
func TestSwarmEventsForEveryKind(t *testing.T) {
	g := newGame(t, strings.Replace(scenario(0, "targets:\n  - {name: DOCKS, side: RAF, hex: [9, 9], strength: 3}\n", spitA, emilB), "sides: [RAF, Luftwaffe]", "sides: [RAF, Luftwaffe, Neutral]", 1))
	st := g.st
	st.Sight = map[string]map[string]bool{"RAF": {}, "Luftwaffe": {}, "Neutral": {}}
	st.Turn = 3
	roll := func(label string) []dice.Roll { return []dice.Roll{{Label: label, Sides: 6, Value: 4}} }
	full := map[string]Event{
		EvInitiative:   {Kind: EvInitiative, Unit: "BBB", Side: "Luftwaffe", Initiative: &InitiativeDetail{Roll: 4, Tie: 2, Order: 1}, Dice: roll("turn 2 initiative BBB")},
		EvMove:         {Kind: EvMove, Unit: "BBB", Side: "Luftwaffe", Move: &MoveDetail{Order: "2 S M 2 FIRE ANY"}, Text: "BBB flew 2 S M 2"},
		EvCourse:       {Kind: EvCourse, Unit: "BBB", Side: "Luftwaffe", Text: "BBB flies on along its plotted course"},
		EvNMR:          {Kind: EvNMR, Unit: "BBB", Side: "Luftwaffe", Player: "bob", Text: "no order came for BBB: it flies straight on (1 S M 1)"},
		EvIllegalOrder: {Kind: EvIllegalOrder, Unit: "BBB", Side: "Luftwaffe", Problems: []Problem{{Code: "tack-move", Message: "x"}}, Text: "the order for BBB breaks a rule"},
		EvContact:      {Kind: EvContact, Unit: "BBB", Side: "Luftwaffe", Cancelled: 2, Text: "BBB has the enemy in sight: the rest of its plotted course (2 turns) is cancelled"},
		EvSpotted:      {Kind: EvSpotted, Unit: "AAA", Side: "Luftwaffe", Text: "AAA came in sight"},
		EvLostSight:    {Kind: EvLostSight, Unit: "AAA", Side: "Luftwaffe", Text: "AAA was lost to sight"},
		EvFire: {Kind: EvFire, Unit: "BBB", Side: "Luftwaffe", Target: "AAA", TargetSide: "RAF", Text: "BBB attacked AAA at range 2: 3D6 6 6 1, 2 scored",
			Fire: &FireDetail{Range: 2, Firepower: 3, Attacks: []int{6, 6, 1}, Scored: 2, SaveNeed: 5, Saves: []int{1, 6}, Filled: 1},
			Dice: append(append(roll("turn 2 BBB attack on AAA, die 1 of 3"), roll("turn 2 BBB attack on AAA, die 2 of 3")...), roll("turn 2 AAA evasive save 1 of 2")...)},
		EvBomb: {Kind: EvBomb, Unit: "BBB", Side: "Luftwaffe", Target: "DOCKS", TargetSide: "RAF", Text: "BBB bombed DOCKS from High: 4 D6",
			Bomb: &BombDetail{Band: "H", Need: 6, Rolls: []int{6, 1, 2, 3}, Hits: 1, Damage: 1}, Dice: roll("turn 2 BBB bombed DOCKS, die 1 of 4 (need 6)")},
		EvDestroyed: {Kind: EvDestroyed, Unit: "BBB", Side: "Luftwaffe", Target: "AAA", TargetSide: "RAF", Text: "BBB is no longer combat effective"},
		EvGameOver:  {Kind: EvGameOver, Outcome: &Outcome{Winner: "RAF"}, Text: "the game is over"},
		// Why a fire order made no attack: the ordering side's own, told to no other.
		EvNoFire: {Kind: EvNoFire, Unit: "BBB", Side: "Luftwaffe", Target: "AAA", Text: "BBB did not attack: AAA was not an enemy squadron in sight"},
	}
	if len(full) != len(EventKinds) {
		t.Fatalf("the test covers %d kinds of %d", len(full), len(EventKinds))
	}
	for _, kind := range EventKinds {
		e, ok := full[kind]
		if !ok {
			t.Fatalf("kind %s is not covered", kind)
		}
		e.Turn = 2
		for _, seen := range []bool{false, true} {
			st.Sight["RAF"]["BBB"] = seen
			st.Sight["Neutral"]["BBB"] = seen
			for _, side := range []string{"Luftwaffe", "RAF", "Neutral"} {
				got := EventsFor(st, side, []Event{e})
				if side == e.Side || kind == EvGameOver {
					if len(got) != 1 {
						t.Errorf("%s: the side it is about gets %d events", kind, len(got))
					}
					continue
				}
				for _, x := range got {
					if why := enemyLeak(st, side, x); why != "" {
						t.Errorf("%s shown to %s (enemy in sight %v) tells %s", kind, side, seen, why)
					}
				}
				// What each other side must get.
				want := 0
				switch kind {
				case EvNMR:
					want = 1
				case EvFire, EvBomb:
					if side == "RAF" {
						want = 1
					}
				case EvDestroyed:
					if side == "RAF" || seen {
						want = 1
					}
				}
				if len(got) != want {
					t.Errorf("%s shown to %s (in sight %v): %d events, want %d: %+v", kind, side, seen, len(got), want, got)
				}
			}
		}
	}
	// A side's own initiative: its rolls, never its place in the whole order (which would count unseen
	// squadrons); an enemy's initiative is never shown.
	e := full[EvInitiative]
	e.Turn = 2
	st.Sight["RAF"]["BBB"] = true
	if got := EventsFor(st, "RAF", []Event{e}); len(got) != 0 {
		t.Errorf("an enemy's initiative: %+v", got)
	}
	if got := EventsFor(st, e.Side, []Event{e}); len(got) != 1 || got[0].Initiative.Order != 0 {
		t.Errorf("a side's own initiative must not give its place in the order: %+v", got)
	}
	// The attacked side gets its own saves, not the attack dice; the shooter is named only in sight.
	st.Sight["RAF"]["BBB"] = false
	fe := full[EvFire]
	fe.Turn = 2
	got := EventsFor(st, "RAF", []Event{fe})
	if len(got) != 1 || got[0].Unit != "" || !strings.Contains(got[0].Text, "an unseen enemy") || len(got[0].Dice) != 1 || got[0].Fire.Scored != 2 {
		t.Errorf("fire seen from the target's side: %+v", got)
	}
	// A kind nobody wrote a rule for is shown to nobody.
	if got := EventsFor(st, "Luftwaffe", []Event{{Kind: "new-kind", Side: "Luftwaffe"}}); len(got) != 0 {
		t.Errorf("an unknown kind is shown")
	}
}

// TestReportsLeakNothing plays the bundled scenario with many seeds, bombers bombing where they can, and
// checks every report of every round against the state: each side's events tell nothing about enemy
// squadrons beyond their sighting, and the enemy section lists exactly the squadrons in sight.
func TestSwarmReportsLeakNothing(t *testing.T) {
	kinds := map[string]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		g := rulesettest.Bundled[*game](t, Ruleset{}, DefaultScenario)
		// Steer the Luftwaffe over the convoy: the Dorniers bomb whenever they plot a turn.
		for round := 0; round < 15; round++ {
			if over, _ := g.Over(); over {
				break
			}
			orders := reportOrders(g, func(cs, o string) string {
				if cs == "ADLER" && !g.st.Squadron(cs).Bombed {
					o = strings.ReplaceAll(o, " FIRE ANY", " BOMB FIRE ANY")
				}
				if turns := strings.Split(o, "; "); seed%2 == 0 && len(turns) > 1 {
					o = strings.Repeat(turns[0]+"; ", MaxCourse-1) + turns[0] // the longest course
				}
				if seed%3 == 1 && cs == "TIGER" && g.st.Squadron(cs).Contact {
					o = "2 R M 1 R 1" // some turning, for variety
				}
				return o
			})
			next, log, err := g.Resolve(orders, dice.NewSeeded(dice.SeedFromUint64(seed).Stream(fmt.Sprint(round))))
			if err != nil {
				t.Fatal(err)
			}
			g = next.(*game)
			var events []Event
			json.Unmarshal(log.Events, &events)
			for _, e := range events {
				kinds[e.Kind] = true
			}
			for _, side := range g.st.Sides {
				for _, e := range EventsFor(g.st, side, events) {
					if why := enemyLeak(g.st, side, e); why != "" {
						t.Fatalf("seed %d round %d: %s is told %s", seed, round, side, why)
					}
				}
			}
			for _, p := range []string{"alice", "bob"} {
				side := g.st.SideOf(p)
				rep := g.Report(p, log)
				want := map[string]bool{}
				for _, q := range g.st.Squadrons {
					if q.Side != side && q.InPlay() && g.st.Sight[side][q.Callsign] {
						want[q.Callsign] = true
					}
				}
				for _, c := range rep.Contacts {
					q := g.st.Squadron(c.Name)
					if !want[c.Name] || c.Summary != fmt.Sprintf("hex %s facing %s, %s", q.Pos.Hex, q.Pos.Facing, bandName(q.Tack.Band)) {
						t.Fatalf("seed %d: %s's report shows %+v", seed, side, c)
					}
					delete(want, c.Name)
				}
				if len(want) > 0 {
					t.Fatalf("seed %d: %s's report misses %v", seed, side, want)
				}
				for _, l := range rep.OrderLines {
					cs, o, _ := strings.Cut(l, ": ")
					if chk := g.CheckOrder(p, cs, o); !chk.OK() {
						t.Fatalf("seed %d: the ready-made line %q is refused: %v", seed, l, chk.Errors)
					}
				}
			}
		}
	}
	for _, k := range []string{EvInitiative, EvMove, EvCourse, EvFire, EvContact, EvSpotted, EvLostSight, EvGameOver, EvBomb} {
		if !kinds[k] {
			t.Errorf("no game produced a %s event; the test does not reach it", k)
		}
	}
}

// TestInitiativeTieWithAnEnemyIsHidden: a squadron that tied only with an enemy squadron rolled a
// tie-break; its side must not learn that from its report (an unseen enemy rolled the same, and more
// hidden squadrons make more ties). A tie between the side's own squadrons is shown in full.
func TestInitiativeTieWithAnEnemyIsHidden(t *testing.T) {
	g := newGame(t, scenario(0, "", spitA, emilB))
	st := g.st
	ev := func(unit, side string, roll, tie int) Event {
		e := Event{Turn: 2, Kind: EvInitiative, Unit: unit, Side: side, Initiative: &InitiativeDetail{Roll: roll, Tie: tie},
			Dice: []dice.Roll{{Label: "turn 2 initiative " + unit, Sides: 6, Value: roll}}, Text: fmt.Sprintf("%s rolled initiative %d, tie-break %d", unit, roll, tie)}
		if tie != 0 {
			e.Dice = append(e.Dice, dice.Roll{Label: "turn 2 initiative tie-break " + unit, Sides: 6, Value: tie})
		}
		return e
	}
	// AAA tied with the enemy BBB only.
	got := EventsFor(st, "RAF", []Event{ev("AAA", "RAF", 3, 5), ev("BBB", "Luftwaffe", 3, 2)})
	if len(got) != 1 || got[0].Initiative.Tie != 0 || len(got[0].Dice) != 1 || strings.Contains(got[0].Text, "tie") {
		t.Errorf("a tie with an enemy shows: %+v", got)
	}
	// AAA and CCC, both RAF, tied: their tie-breaks are the side's own business.
	got = EventsFor(st, "RAF", []Event{ev("AAA", "RAF", 3, 5), ev("CCC", "RAF", 3, 1), ev("BBB", "Luftwaffe", 3, 2)})
	if len(got) != 2 || got[0].Initiative.Tie != 5 || len(got[1].Dice) != 2 || !strings.Contains(got[1].Text, "tie-break 1") {
		t.Errorf("a tie between own squadrons: %+v", got)
	}
}
