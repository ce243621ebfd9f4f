package swarm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// The opening lines of the test scenarios: the ruleset, then two sides with a player each, ann and ben.
const (
	annBen       = "ruleset: swarm\nsides: [A, B]\nplayers: [{id: ann, side: A}, {id: ben, side: B}]\n"
	rafLuftwaffe = "ruleset: swarm\nsides: [RAF, Luftwaffe]\nplayers: [{id: ann, side: RAF}, {id: ben, side: Luftwaffe}]\n"
)

// scenario writes a two-sided scenario (RAF: alice, Luftwaffe: bob) with the given squadron lines.
func scenario(visibility int, extra string, squadrons ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ruleset: swarm\nname: test\nvisibility: %d\nturns: 10\nsides: [RAF, Luftwaffe]\n", visibility)
	b.WriteString("players:\n  - {id: alice, name: Alice, side: RAF}\n  - {id: bob, name: Bob, side: Luftwaffe}\nsquadrons:\n")
	for _, s := range squadrons {
		b.WriteString("  - " + s + "\n")
	}
	b.WriteString(extra)
	return b.String()
}

func newGame(t testing.TB, text string) *game {
	t.Helper()
	return rulesettest.NewGame[*game](t, Ruleset{}, text, "test.yaml")
}

// reportOrders is the order block every player's report offers (each squadron's ready-made line), each
// line through edit when edit is not nil.
func reportOrders(g ruleset.Game, edit func(cs, o string) string) map[string]string {
	orders := map[string]string{}
	for _, p := range g.Players() {
		for _, l := range g.Report(p.ID, nil).OrderLines {
			cs, o, _ := strings.Cut(l, ": ")
			if edit != nil {
				o = edit(cs, o)
			}
			orders[cs] = o
		}
	}
	return orders
}

// play resolves one round with scripted dice, checks that exactly the dice given were thrown, and returns
// the new game and its events.
func play(t *testing.T, g *game, orders map[string]string, rolls ...int) (*game, []Event) {
	t.Helper()
	d := dice.NewScripted(rolls...)
	next, log, err := g.Resolve(orders, d)
	if err != nil {
		t.Fatal(err)
	}
	if d.Err() != nil || d.Remaining() != 0 {
		t.Fatalf("dice: %v, %d left over; thrown: %v", d.Err(), d.Remaining(), d.Log())
	}
	var events []Event
	if err := json.Unmarshal(log.Events, &events); err != nil {
		t.Fatal(err)
	}
	return next.(*game), events
}

func find(events []Event, kind, unit string) *Event {
	for i := range events {
		if events[i].Kind == kind && (unit == "" || events[i].Unit == unit) {
			return &events[i]
		}
	}
	return nil
}

const (
	spitA = "{callsign: AAA, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 30, tack: 1 S M}"
	// BBB flies ahead of AAA on the same line: after AAA's segment it is two hexes ahead, in its field.
	emilB = "{callsign: BBB, type: bf-109e, side: Luftwaffe, player: bob, hex: [2, -4], facing: 30, tack: 1 S M}"
)

// Each die of the firepower is a separate attack that scores if it equals or beats the range; the target
// saves each scoring attack with 1D6 against the chart's need at that range; a failed save fills one pip.
func TestSwarmFireDiceSavesAndPips(t *testing.T) {
	for _, c := range []struct {
		name    string
		target  string
		rolls   []int
		scored  int
		filled  int
		saveMod int
	}{
		// AAA moves first (1 < 6) to (1,-2); BBB is then 2 hexes ahead: 3D6 at range 2, need 5 to save.
		{"two score, one save fails", emilB, []int{1, 6, 2, 1, 6, 4, 5}, 2, 1, 0},
		{"none scores", emilB, []int{1, 6, 1, 1, 1}, 0, 0, 0},
		{"all score, all fail", emilB, []int{1, 6, 2, 3, 6, 1, 2, 4}, 3, 3, 0},
		// A durable Hurricane adds 1: a 4 now saves.
		{"durable +1", strings.Replace(emilB, "bf-109e", "hurricane-i", 1), []int{1, 6, 2, 1, 6, 4, 5}, 2, 0, 1},
		// Ace pilots add 1 on the house pilot table, green pilots take 1 off.
		{"ace +1", strings.Replace(emilB, "}", ", pilots: ace}", 1), []int{1, 6, 2, 1, 6, 4, 5}, 2, 0, 1},
		{"green -1", strings.Replace(emilB, "}", ", pilots: green}", 1), []int{1, 6, 2, 1, 6, 4, 5}, 2, 2, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, scenario(0, "", spitA, c.target))
			next, events := play(t, g, map[string]string{"AAA": "1 S M 1 FIRE ANY", "BBB": "1 S M 1 FIRE ANY"}, c.rolls...)
			f := find(events, EvFire, "AAA")
			if f == nil {
				t.Fatalf("AAA did not fire: %v", events)
			}
			if f.Fire.Range != 2 || f.Fire.Firepower != 3 || f.Fire.Scored != c.scored || f.Fire.Filled != c.filled ||
				f.Fire.SaveNeed != 5 || f.Fire.SaveMod != c.saveMod || len(f.Fire.Saves) != c.scored {
				t.Errorf("fire: %+v", f.Fire)
			}
			if b := next.st.Squadron("BBB"); b.Filled != c.filled {
				t.Errorf("BBB has %d pips filled, want %d", b.Filled, c.filled)
			}
			if find(events, EvFire, "BBB") != nil {
				t.Errorf("BBB fired at a squadron behind it")
			}
		})
	}
}

// Fire goes only at squadrons in the same altitude band.
func TestSwarmFireSameBandOnly(t *testing.T) {
	g := newGame(t, scenario(0, "", spitA, strings.Replace(emilB, "1 S M", "1 S H", 1)))
	_, events := play(t, g, map[string]string{"AAA": "1 S M 1", "BBB": "1 S H 1"}, 1, 6)
	if find(events, EvFire, "") != nil {
		t.Errorf("a squadron fired across altitude bands: %v", events)
	}
	// The band that counts is this turn's plotted one: BBB climbs to High now, out of AAA's band.
	g = newGame(t, scenario(0, "", spitA, emilB))
	_, events = play(t, g, map[string]string{"AAA": "1 S M 1", "BBB": "1 S H 1"}, 1, 6)
	if find(events, EvFire, "") != nil {
		t.Errorf("fired at a squadron that plotted another band this turn")
	}
}

// Squadrons move one at a time, lowest initiative first; ties roll again, then go by callsign. Losses
// count at once: a squadron destroyed before its activation neither moves nor fires.
func TestSwarmInitiativeOrderAndLossesAtOnce(t *testing.T) {
	// BBB rolls lower and moves first to (3,-6); AAA then moves to (1,-2) and fires at range 4.
	g := newGame(t, scenario(0, "", spitA, emilB))
	next, events := play(t, g, map[string]string{"AAA": "1 S M 1", "BBB": "1 S M 1"}, 5, 2, 4, 3, 6, 6, 6)
	ia, ib := find(events, EvInitiative, "AAA"), find(events, EvInitiative, "BBB")
	if ia.Initiative.Order != 2 || ib.Initiative.Order != 1 {
		t.Errorf("initiative: AAA %+v, BBB %+v", ia.Initiative, ib.Initiative)
	}
	if f := find(events, EvFire, "AAA"); f == nil || f.Fire.Range != 4 || f.Fire.Scored != 2 {
		t.Errorf("AAA must fire after BBB moved, at range 4: %+v", f)
	}
	_ = next
	// A tie: both roll 3, then AAA 5 and BBB 2 on the tie-break: BBB first.
	g = newGame(t, scenario(0, "", spitA, emilB))
	_, events = play(t, g, map[string]string{"AAA": "1 S M 1 HOLD", "BBB": "1 S M 1 HOLD"}, 3, 3, 5, 2)
	if ib := find(events, EvInitiative, "BBB"); ib.Initiative.Order != 1 || ib.Initiative.Tie != 2 {
		t.Errorf("tie-break: %+v", ib.Initiative)
	}
	// A second tie goes by callsign.
	g = newGame(t, scenario(0, "", spitA, emilB))
	_, events = play(t, g, map[string]string{"AAA": "1 S M 1 HOLD", "BBB": "1 S M 1 HOLD"}, 3, 3, 4, 4)
	if ia := find(events, EvInitiative, "AAA"); ia.Initiative.Order != 1 {
		t.Errorf("second tie: %+v", ia.Initiative)
	}
	// BBB has one pip left; AAA moves first and its attack destroys BBB, which then neither moves nor
	// fires (it would have turned to fire back).
	g = newGame(t, scenario(0, "", spitA, strings.Replace(emilB, "}", ", filled: 5}", 1)))
	next, events = play(t, g, map[string]string{"AAA": "1 S M 1", "BBB": "1 R M 1 R"}, 1, 6, 2, 2, 2, 1)
	b := next.st.Squadron("BBB")
	if b.Status != Destroyed || b.Pos.Hex != (hexmap.Hex{Q: 2, R: -4}) || find(events, EvMove, "BBB") != nil || find(events, EvFire, "BBB") != nil {
		t.Errorf("BBB destroyed before its activation: %+v, events %v", b, events)
	}
	if e := find(events, EvDestroyed, "BBB"); e == nil || e.Target != "AAA" {
		t.Errorf("no destroyed event: %v", events)
	}
	// The game ends when one side has nothing left, and the reason, read by both sides, names that side
	// and how its squadron left play (every pip filled: destroyed, seed 004).
	if over, result := next.Over(); !over || !strings.HasSuffix(result, ": Luftwaffe has nothing left in play (BBB destroyed)") {
		t.Errorf("the game must end when one side has nothing left, and say which: %v %q", over, result)
	}
}

// FIRE <callsign> fires only at that squadron; HOLD does not fire; FIRE ANY takes the closest.
func TestSwarmFireOrders(t *testing.T) {
	third := "{callsign: CCC, type: bf-109e, side: Luftwaffe, player: bob, hex: [1, -5], facing: 30, tack: 1 S M}"
	g := newGame(t, scenario(0, "", spitA, emilB, third))
	// Initiative AAA 1, BBB 5, CCC 6. After AAA's move BBB is 2 hexes ahead, CCC 3 hexes ahead.
	_, events := play(t, g, map[string]string{"AAA": "1 S M 1 FIRE CCC", "BBB": "1 S M 1 HOLD", "CCC": "1 S M 1 HOLD"}, 1, 5, 6, 1, 1, 1)
	if f := find(events, EvFire, "AAA"); f == nil || f.Target != "CCC" || f.Fire.Range != 3 {
		t.Errorf("FIRE CCC: %+v", f)
	}
	_, events = play(t, g, map[string]string{"AAA": "1 S M 1 FIRE ANY", "BBB": "1 S M 1 HOLD", "CCC": "1 S M 1 HOLD"}, 1, 5, 6, 1, 1, 1)
	if f := find(events, EvFire, "AAA"); f == nil || f.Target != "BBB" {
		t.Errorf("FIRE ANY takes the closest: %+v", f)
	}
	_, events = play(t, g, map[string]string{"AAA": "1 S M 1 HOLD", "BBB": "1 S M 1 HOLD", "CCC": "1 S M 1 HOLD"}, 1, 5, 6)
	if find(events, EvFire, "") != nil {
		t.Errorf("HOLD fired")
	}
	// A missing order flies straight on and fires at will; the report names the player.
	next, events := play(t, g, map[string]string{"BBB": "1 S M 1 HOLD", "CCC": "1 S M 1 HOLD"}, 1, 5, 6, 1, 1, 1)
	if e := find(events, EvNMR, "AAA"); e == nil || e.Player != "alice" || find(events, EvFire, "AAA") == nil {
		t.Errorf("NMR: %v", events)
	}
	if next.st.Squadron("AAA").Tack != (Tack{1, "S", "M"}) {
		t.Errorf("the default keeps speed and band")
	}
}

// A rear gunner makes one extra 1D6 attack into the rear and side arcs, after all movement.
func TestSwarmRearGunner(t *testing.T) {
	dornier := "{callsign: DDD, type: do-17z, side: Luftwaffe, player: bob, hex: [2, -4], facing: 30, tack: 1 S M}"
	g := newGame(t, scenario(0, "", spitA, dornier))
	// DDD rolls 1 and moves first, to (3,-6), with nobody ahead. AAA moves to (1,-2) and attacks DDD at
	// range 4: 1 1 1, nothing scores. Only now, after all movement, DDD's gunner attacks AAA, 4 hexes
	// behind (from AAA's start it would have been 6): die 4 scores, AAA's save 2 (need 3) fails.
	next, events := play(t, g, map[string]string{"AAA": "1 S M 1", "DDD": "1 S M 1"}, 6, 1, 1, 1, 1, 4, 2)
	f := find(events, EvFire, "DDD")
	if f == nil || !f.Fire.Rear || f.Fire.Firepower != 1 || f.Fire.Range != 4 || f.Fire.Filled != 1 {
		t.Fatalf("rear gunner: %+v", f)
	}
	moved := false
	for _, e := range events {
		moved = moved || e.Kind == EvMove && e.Unit == "AAA"
		if e.Kind == EvFire && e.Unit == "DDD" && !moved {
			t.Errorf("the rear gunner fired before every squadron had moved")
		}
	}
	if next.st.Squadron("AAA").Filled != 1 {
		t.Errorf("AAA's pips: %d", next.st.Squadron("AAA").Filled)
	}
	// HOLD holds the gunner too; a fighter has no rear gunner.
	_, events = play(t, g, map[string]string{"AAA": "1 S M 1", "DDD": "1 S M 1 HOLD"}, 6, 1, 1, 1, 1)
	if find(events, EvFire, "DDD") != nil {
		t.Errorf("HOLD must hold the rear gunner")
	}
	g = newGame(t, scenario(0, "", spitA, emilB))
	_, events = play(t, g, map[string]string{"AAA": "1 S M 1", "BBB": "1 S M 1"}, 6, 1, 1, 1, 1)
	if find(events, EvFire, "BBB") != nil {
		t.Errorf("a fighter fired backwards")
	}
}

// Bombing (seed 004 addendum): one D6 per unfilled pip on a bomber, 6 from High, 5+ from Medium, 4+ from
// Low; a squadron that is no bomber attacks a ground target from Low only, one D6 per die of firepower.
func TestSwarmBombing(t *testing.T) {
	far := "{callsign: ZZZ, type: spitfire-i, side: RAF, player: alice, hex: [-20, 0], facing: 330, tack: 1 S H}"
	target := "targets:\n  - {name: DOCKS, side: RAF, hex: [1, -2], strength: 3}\nvictory:\n  - {side: Luftwaffe, kind: bomb, target: DOCKS, points: 5}\n"
	for _, c := range []struct {
		band  string
		rolls []int
		hits  int
	}{
		{"H", []int{6, 5, 5, 6, 4, 3}, 2}, // 4 unfilled pips (2 filled): 6 needed
		{"M", []int{6, 5, 5, 6, 4, 3}, 3},
		{"L", []int{6, 5, 5, 6, 4, 3}, 3}, // strength 3: damage stops there
	} {
		heinkel := fmt.Sprintf("{callsign: HHH, type: he-111h, side: Luftwaffe, player: bob, hex: [0, 0], facing: 30, tack: 1 S %s, filled: 2}", c.band)
		g := newGame(t, scenario(0, target, far, heinkel))
		next, events := play(t, g, map[string]string{"HHH": fmt.Sprintf("1 S %s 1 BOMB HOLD", c.band), "ZZZ": "1 S H 1 HOLD"},
			append([]int{2, 1}, c.rolls[:4]...)...)
		e := find(events, EvBomb, "HHH")
		if e == nil || e.Bomb.Need != map[string]int{"H": 6, "M": 5, "L": 4}[c.band] || len(e.Bomb.Rolls) != 4 || e.Bomb.Damage != min(c.hits, 3) {
			t.Errorf("band %s: %+v", c.band, e)
			continue
		}
		if !next.st.Squadron("HHH").Bombed {
			t.Errorf("the bomber has dropped its load")
		}
		if chk := next.CheckOrder("bob", "HHH", fmt.Sprintf("1 S %s 1 BOMB", c.band)); chk.OK() {
			t.Errorf("a bomber bombs once")
		}
	}
	// A fighter over the target at Low: one D6 per firepower die, 4+.
	emil := "{callsign: EEE, type: bf-109e, side: Luftwaffe, player: bob, hex: [0, 0], facing: 30, tack: 1 S L}"
	g := newGame(t, scenario(0, target, far, emil))
	if chk := g.CheckOrder("bob", "EEE", "1 S M 1 BOMB"); chk.OK() || chk.Errors[0].Code != "strafe-low" {
		t.Errorf("a fighter bombing from Medium: %+v", chk.Errors)
	}
	next, events := play(t, g, map[string]string{"EEE": "1 S L 1 BOMB HOLD", "ZZZ": "1 S H 1 HOLD"}, 2, 1, 4, 3, 6)
	if e := find(events, EvBomb, "EEE"); e == nil || e.Bomb.Hits != 2 || len(e.Bomb.Rolls) != 3 {
		t.Errorf("strafing: %+v", e)
	}
	if next.st.Target("DOCKS").Damage != 2 {
		t.Errorf("target damage: %+v", next.st.Targets)
	}
}

// Scenarios may start squadrons below full strength: filled pips, or the firepower shortcut.
func TestSwarmBelowFullStrength(t *testing.T) {
	g := newGame(t, scenario(0, "",
		"{callsign: AAA, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 30, tack: 1 S M, firepower: 2D6}",
		"{callsign: BBB, type: bf-109e, side: Luftwaffe, player: bob, hex: [9, 9], facing: 30, tack: 1 S M, filled: 5}"))
	a, b := g.st.Squadron("AAA"), g.st.Squadron("BBB")
	ta, tb := typeOf(t, "spitfire-i"), typeOf(t, "bf-109e")
	if a.Filled != 2 || ta.Firepower(a.Filled) != 2 || b.Filled != 5 || tb.Firepower(b.Filled) != 1 {
		t.Errorf("AAA %d filled, BBB %d filled", a.Filled, b.Filled)
	}
	// The report says what the filled pips mean to the player (seed 004: firepower falls row by row, and
	// a squadron with every pip filled is out of the fight), not just "pips 2 of 6 filled".
	if rep := g.Report("alice", nil); !strings.Contains(rep.Own[0].Summary, "firepower 2D6, damage pips 2 of 6 filled (at 4 its firepower falls to 1D6; at 6 it is out of the fight)") {
		t.Errorf("report: %q", rep.Own[0].Summary)
	}
	if rep := g.Report("bob", nil); !strings.Contains(rep.Own[0].Summary, "firepower 1D6, damage pips 5 of 6 filled (at 6 it is out of the fight)") {
		t.Errorf("report: %q", rep.Own[0].Summary)
	}
	for _, bad := range []string{
		"{callsign: AAA, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 30, tack: 1 S M, filled: 6}",
		"{callsign: AAA, type: do-17z, side: RAF, player: alice, hex: [0, 0], facing: 30, tack: 1 S M, firepower: 3D6}",
		"{callsign: AAA, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 30, tack: 1 S M, firepower: 4D6}",
	} {
		if _, err := (Ruleset{}).NewGame([]byte(scenario(0, "", bad, emilB)), nil, "x.yaml"); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// A scenario's faults are all listed, each with its line.
func TestSwarmScenarioErrors(t *testing.T) {
	text := scenario(-1, "victory:\n  - {side: Nobody, kind: win}\n",
		"{callsign: AAA, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 0, tack: 3 S M}",
		"{callsign: aaa, type: zeppelin, side: RAF, player: bob, hex: [0, 0], facing: 30, tack: 2 X M, pilots: hero}")
	_, err := Ruleset{}.NewGame([]byte(text), nil, "bad.yaml")
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"line 3: visibility", "line 10: AAA: facing", "speed 3 is crossed off", "line 11: callsign", "zeppelin",
		"plays Luftwaffe", "tack \"2 X M\"", "pilots are", "unknown side", "victory kind"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if _, err := (Ruleset{}).NewGame([]byte(strings.Replace(scenario(0, "", spitA, emilB), "turns: 10", "turns: 10\nweather: fine", 1)), nil, "x.yaml"); err == nil {
		t.Errorf("an unknown key is accepted")
	}
}

// Cloud cover: without eye contact a squadron plots 3 to 6 turns at once; they are flown turn by turn,
// the round goes on by itself while every squadron has turns queued, Units asks only for squadrons
// without a queue, and contact cancels what is left.
func TestSwarmCloudCover(t *testing.T) {
	a := "{callsign: AAA, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 150, tack: 1 S M}"
	b := "{callsign: BBB, type: bf-109e, side: Luftwaffe, player: bob, hex: [12, 12], facing: 330, tack: 1 S M}"
	g := newGame(t, scenario(3, "", a, b))
	if g.st.Squadron("AAA").Contact {
		t.Fatal("24 hexes apart with visibility 3 is no contact")
	}
	if chk := g.CheckOrder("alice", "AAA", "1 S M 1"); chk.OK() || chk.Errors[0].Code != "course-length" {
		t.Errorf("one turn without contact: %+v", chk.Errors)
	}
	if chk := g.CheckOrder("alice", "AAA", "1 S M 1; 1 S M 1"); chk.OK() {
		t.Errorf("two turns without contact")
	}
	chk := g.CheckOrder("alice", "AAA", "1 S M 1; 2 S M 2; 2 S M 2; 2 S M 2")
	if !chk.OK() || len(chk.Preview) != 4 {
		t.Fatalf("a four-turn course: %+v", chk)
	}
	if chk := g.CheckOrder("alice", "AAA", "1 S M 1; 3 S M 3; 2 S M 2"); chk.OK() {
		t.Errorf("each turn's tack must be one step from the one before")
	}
	if rep := g.Report("alice", nil); len(rep.OrderLines) != 1 || strings.Count(rep.OrderLines[0], ";") != MinCourse-1 {
		t.Errorf("the ready-made line must be a course of %d turns: %v", MinCourse, rep.OrderLines)
	} else if c := g.CheckOrder("alice", "AAA", strings.TrimPrefix(rep.OrderLines[0], "AAA: ")); !c.OK() {
		t.Errorf("the ready-made line is refused: %v", c.Errors)
	}
	// AAA flies a 4-turn course, BBB a 3-turn course. They close 4 hexes a turn at speed 1... AAA speeds
	// up to 2 from turn 2. Turn 1: 24 -> 20 hexes; turn 2: 20 -> 14; turn 3: 14 -> 8; turn 4: BBB has no
	// more turns plotted, so the round stops after turn 3 and asks bob for BBB only.
	orders := map[string]string{"AAA": "1 S M 1; 2 S M 2; 2 S M 2; 2 S M 2", "BBB": "1 S M 1; 1 S M 1; 1 S M 1"}
	d := dice.NewSeeded(dice.SeedFromUint64(7))
	ng, log, err := g.Resolve(orders, d)
	if err != nil {
		t.Fatal(err)
	}
	next := ng.(*game)
	if next.Round() != 4 || log.Round != 1 {
		t.Fatalf("the round must play turns 1-3 and stop: round %d", next.Round())
	}
	if u := next.Units("alice"); len(u) != 0 {
		t.Errorf("AAA still has a turn queued, yet Units asks for %v", u)
	}
	if u := next.Units("bob"); len(u) != 1 || u[0] != "BBB" {
		t.Errorf("bob's units: %v", u)
	}
	if chk := next.CheckOrder("alice", "AAA", "2 S M 2"); chk.OK() || chk.Errors[0].Code != "on-course" {
		t.Errorf("an order for a squadron on its course: %+v", chk.Errors)
	}
	if q := next.st.Squadron("AAA"); len(q.Queue) != 1 || q.Pos.Hex != (hexmap.Hex{Q: 5, R: 5}) {
		t.Errorf("AAA after three turns: %+v", q)
	}
	rep := next.Report("alice", log)
	if !strings.Contains(strings.Join(rep.Events, "\n"), "turn 3: ") || len(rep.OrderLines) != 0 {
		t.Errorf("a report of several turns numbers them and asks nothing of alice: %v %v", rep.Events, rep.OrderLines)
	}
	// Turn 4: AAA's last queued turn takes it to (7,7), BBB to (8,8): contact. BBB has no queue; AAA's
	// queue is empty after this turn anyway. Give AAA a longer course first to see the cancellation.
	next.st.Squadron("AAA").Queue = []string{"2 S M 2 HOLD", "2 S M 2 HOLD", "2 S M 2 HOLD"}
	n2, log2, err := next.Resolve(map[string]string{"BBB": "1 S M 1 HOLD; 1 S M 1 HOLD; 1 S M 1 HOLD"}, dice.NewSeeded(dice.SeedFromUint64(8)))
	if err != nil {
		t.Fatal(err)
	}
	var events []Event
	json.Unmarshal(log2.Events, &events)
	c := find(events, EvContact, "AAA")
	if c == nil || c.Cancelled != 2 {
		t.Fatalf("contact must cancel AAA's two remaining turns: %v", events)
	}
	after := n2.(*game)
	if u := after.Units("alice"); len(u) != 1 || after.Round() != 5 || !after.st.Squadron("AAA").Contact {
		t.Errorf("after contact Units asks for AAA again: %v, round %d", u, after.Round())
	}
	if chk := after.CheckOrder("alice", "AAA", "2 S M 2; 2 S M 2; 2 S M 2"); chk.OK() || chk.Errors[0].Code != "one-turn" {
		t.Errorf("with the enemy in sight one turn at a time: %+v", chk.Errors)
	}
	if rep := after.Report("alice", log2); !strings.Contains(strings.Join(rep.Events, "\n"), "cancelled") {
		t.Errorf("the report must say the course was cancelled: %v", rep.Events)
	}
}

// Spotting: a side sees the enemy squadrons within visibility of any of its own; the report shows them
// with position, facing and band only.
func TestSwarmSpottingAndReport(t *testing.T) {
	a := "{callsign: AAA, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 150, tack: 1 S M}"
	a2 := "{callsign: AAB, type: spitfire-i, side: RAF, player: alice, hex: [-6, 0], facing: 150, tack: 1 S M}"
	b := "{callsign: BBB, type: he-111h, side: Luftwaffe, player: bob, hex: [2, 2], facing: 330, tack: 1 S L, filled: 3}"
	g := newGame(t, scenario(5, "", a, a2, b))
	if !g.st.Sight["RAF"]["BBB"] || !g.st.Sight["Luftwaffe"]["AAA"] || g.st.Sight["Luftwaffe"]["AAB"] {
		t.Fatalf("sight: %v", g.st.Sight)
	}
	if !g.st.Squadron("AAA").Contact || g.st.Squadron("AAB").Contact {
		t.Errorf("contact is per squadron")
	}
	rep := g.Report("alice", nil)
	if len(rep.Contacts) != 1 || rep.Contacts[0].Summary != "hex (2,2) facing 330, Low" || rep.Contacts[0].Type != "squadron" {
		t.Fatalf("contacts: %+v", rep.Contacts)
	}
	all, _ := json.Marshal(rep.Contacts)
	for _, secret := range []string{"he-111h", "Heinkel", "pips", "tack", "1 S L", "firepower", "bomber", "durable"} {
		if strings.Contains(string(all), secret) {
			t.Errorf("the enemy section tells %q: %s", secret, all)
		}
	}
	rep = g.Report("bob", nil)
	if len(rep.Contacts) != 1 || rep.Contacts[0].Name != "AAA" {
		t.Errorf("bob sees only AAA: %+v", rep.Contacts)
	}
	if !strings.Contains(rep.Own[0].Summary, "pips 3 of 6 filled") || !strings.Contains(rep.Own[0].Summary, "tack 1 S L") {
		t.Errorf("own squadrons in full: %+v", rep.Own)
	}
}

// Resolve is deterministic, never changes its input, and a saved game loads to the same hash.
func TestSwarmDeterminismAndSaveLoad(t *testing.T) {
	g0 := rulesettest.Bundled[*game](t, Ruleset{}, DefaultScenario)
	run := func() (string, []byte) {
		var g ruleset.Game = g0
		var logs []byte
		for i := 0; i < 12; i++ {
			if over, _ := g.Over(); over {
				break
			}
			orders := reportOrders(g, nil)
			before := g.Hash()
			next, log, err := g.Resolve(orders, dice.NewSeeded(dice.SeedFromUint64(uint64(i)).Stream("x")))
			if err != nil {
				t.Fatal(err)
			}
			if g.Hash() != before {
				t.Fatal("Resolve changed its input")
			}
			logs = append(logs, log.Events...)
			b, _ := next.Save()
			loaded, err := Ruleset{}.Load(b)
			if err != nil || loaded.Hash() != next.Hash() {
				t.Fatalf("load: %v", err)
			}
			g = loaded
		}
		if over, _ := g.Over(); !over {
			t.Errorf("the bundled scenario did not end")
		}
		return g.Hash(), logs
	}
	h1, l1 := run()
	h2, l2 := run()
	if h1 != h2 || string(l1) != string(l2) {
		t.Errorf("two runs differ")
	}
	if _, err := (Ruleset{}).Load([]byte(`{"ruleset":"afd"}`)); err == nil {
		t.Errorf("an afd state loads as swarm")
	}
	if v, err := (Ruleset{}).Version(); err != nil || !strings.HasPrefix(v, "swarm@sha256:") {
		t.Errorf("version %q %v", v, err)
	}
}

// Withdraw takes a dropped player's squadrons out, and the game ends when a side has nothing left.
func TestSwarmWithdraw(t *testing.T) {
	g := newGame(t, scenario(0, "", spitA, emilB))
	w, err := ruleset.Game(g).(ruleset.Withdrawer).Withdraw("bob")
	if err != nil {
		t.Fatal(err)
	}
	if over, _ := w.Over(); !over || len(w.Units("bob")) != 0 {
		t.Errorf("withdrawn: over %v, units %v", over, w.Units("bob"))
	}
}
