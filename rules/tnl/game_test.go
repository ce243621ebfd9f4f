package tnl

import (
	"strings"
	"testing"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// sixes throws a 6 every time.
type sixes struct{ log []dice.Roll }

func (s *sixes) Roll(label string, sides int) int {
	s.log = append(s.log, dice.Roll{Label: label, Sides: sides, Value: sides})
	return sides
}
func (s *sixes) Log() []dice.Roll { return s.log }

// firstSaveFails throws 6s, but a 1 for the first saving roll.
type firstSaveFails struct {
	sixes
	failed bool
}

func (s *firstSaveFails) Roll(label string, sides int) int {
	if strings.Contains(label, "saving roll") && !s.failed {
		s.failed = true
		s.log = append(s.log, dice.Roll{Label: label, Sides: sides, Value: 1})
		return 1
	}
	return s.sixes.Roll(label, sides)
}

func eventsOf(evs []Event, kind string) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

const shipsOnly = usnIJN + `name: strike
turns: 4
aircraft:
  - {callsign: SBD1, type: sbd-3, unit: BOMBING, side: USN, player: ann, hex: [0, 5], facing: 0, level: M, speed: 4}
  - {callsign: TBF1, type: tbf-1, unit: TORPS, side: USN, player: ann, hex: [3, 8], facing: 0, level: VL, speed: 4}
  - {callsign: TBF2, type: tbf-1, unit: TORPS2, side: USN, player: ann, hex: [-5, 10], facing: 0, level: VL, speed: 4}
  - {callsign: ZEKE, type: a6m2, side: IJN, player: ben, hex: [0, -60], facing: 180, level: H, speed: 6}
ships:
  - {callsign: KAGA, side: IJN, hex: [0, 0], facing: 0, points: 80}
victory:
  - {side: USN, kind: sink, ship: KAGA, points: 5}
`

// Seed 003 "Dive Bombing" and "Torpedo Bombing": a dive begun at Medium releases at Low needing 5 for
// 25 points with a 1000 lb bomb; torpedoes from 5 hexes need 3, stern side on -2, +1 for the ship
// attacked from both sides; 30 points each; the carrier's 80 points sink it.
func TestShipAttacksInTheGame(t *testing.T) {
	g := newTestGame(t, shipsOnly)
	next, evs, _ := Resolve(g.d, g.st, map[string]string{"BOMBING": "DIVE 3 / 3 BOMB KAGA", "TORPS": "3 / 3 TORPEDO KAGA", "TORPS2": "3 / 3 TORPEDO KAGA"}, &sixes{})
	bombs := eventsOf(evs, EvBomb)
	if len(bombs) != 1 || !strings.Contains(bombs[0].Text, "from Low: needs 5, modifier +0, rolled 6: a hit, 25 damage points") {
		t.Errorf("the dive bomb: %+v", bombs)
	}
	torps := eventsOf(evs, EvTorpedo)
	if len(torps) != 2 {
		t.Fatalf("two torpedoes: %+v", torps)
	}
	for _, e := range torps {
		if !strings.Contains(e.Text, "from 5 hexes (stern side on): needs 3, modifier -1, rolled 6: a hit, 30 damage points") {
			t.Errorf("a torpedo from each side: %s", e.Text)
		}
	}
	for _, e := range append(bombs, torps...) {
		if !e.Hit {
			t.Errorf("a hit is marked as one for the map picture: %+v", e)
		}
	}
	// Each hit's points add to the ship's damage, and the last line says the sum: 25 + 30 + 30 of its 80.
	if d := next.GroundNamed("KAGA").Damage; d != 85 || !strings.HasSuffix(torps[1].Text, "(85 of 80)") {
		t.Errorf("KAGA's damage %d, the last torpedo's line %q", d, torps[1].Text)
	}
	// The attackers' side sees each attack on its picture as a solid line from the aircraft to the ship.
	side := next.Plane("SBD1").Side
	player := ""
	for _, p := range next.Players {
		if p.Side == side {
			player = p.ID
		}
	}
	sc := sceneOf(ViewOf(next, side), player, EventsFor(next, side, evs))
	hits := 0
	for _, l := range sc.Lines {
		if (l.Kind == hexmap.Bombing || l.Kind == hexmap.Torpedo) && l.Hit && l.To == next.GroundNamed("KAGA").Hex {
			hits++
		}
	}
	if hits != 3 {
		t.Errorf("the attackers' picture shows %d hitting attacks on KAGA, want 3: %+v", hits, sc.Lines)
	}
	if k := next.GroundNamed("KAGA"); !k.Sunk() || len(eventsOf(evs, EvSunk)) != 1 {
		t.Errorf("85 points sink the 80-point carrier: %+v", k)
	}
	if a := next.Plane("SBD1"); a.Loaded || next.Plane("TBF1").Loaded {
		t.Error("bombs and torpedoes are gone once dropped")
	}
	// One torpedo alone gets no +1, and a bomber that did not dive from Medium cannot bomb.
	_, evs, _ = Resolve(g.d, g.st, map[string]string{"TORPS": "3 / 3 TORPEDO KAGA"}, &sixes{})
	if torps := eventsOf(evs, EvTorpedo); len(torps) != 1 || !strings.Contains(torps[0].Text, "modifier -2") {
		t.Errorf("a torpedo from one side: %+v", torps)
	}
	c := CheckOrder(g.d, g.st, g.st.UnitNamed("BOMBING"), plotOrder(t, "3 / 3 BOMB KAGA"))
	if len(c.Errors) == 0 || c.Errors[0].Code != "dive-run" {
		t.Errorf("BOMB without a dive: %+v", c.Errors)
	}
	c = CheckOrder(g.d, g.st, g.st.UnitNamed("TORPS"), plotOrder(t, "CLIMB 2 / 2 TORPEDO KAGA"))
	if len(c.Errors) == 0 {
		t.Errorf("a torpedo while climbing: %+v", c)
	}
}

// Seed 003 "Anti Aircraft Guns": heavy guns reach Medium with a blue die a gun, once a turn; medium guns
// reach only Low; AA hits on 6; a hit gets a saving roll at the blue -3.
func TestAAInTheGame(t *testing.T) {
	g := newTestGame(t, annBen+`name: flak
turns: 3
aircraft:
  - {callsign: HIGHER, type: he-111h, side: A, player: ann, hex: [0, 3], facing: 0, level: M, speed: 5}
  - {callsign: GUARD, type: hurricane-i, side: B, player: ben, hex: [30, 30], facing: 0, level: H, speed: 6}
sites:
  - {callsign: FLAK, side: B, hex: [0, 0], aa: {heavy: 2, medium: 4}}
`)
	next, evs, _ := Resolve(g.d, g.st, map[string]string{"HIGHER": "5 / 5 HOLD"}, &sixes{})
	aa := eventsOf(evs, EvAA)
	if len(aa) != 1 || aa[0].Phase != 1 || !strings.Contains(aa[0].Text, "FLAK's heavy AA") || aa[0].Shot.Groups[0].Colour != Blue || len(aa[0].Shot.Groups[0].Rolls) != 2 {
		t.Fatalf("the heavy guns fire once, two blue dice, and the medium guns not at Medium: %+v", aa)
	}
	if s := aa[0].Shot.Saves; len(s) != 2 || s[0].Mod != -3 || s[0].Saved {
		t.Errorf("a 6 less 3 fails the He 111's 4+: %+v", s)
	}
	if next.Plane("HIGHER").Hits != 2 {
		t.Errorf("two hits: %d", next.Plane("HIGHER").Hits)
	}
}

// Seed 003 "Skill List" 5 (jinx, Sortie's reading): once a turn the first enemy die that hits the pilot
// is rolled again. Seed 003 "Effects of Hits": a hit in combat phase 1 slows phase 2.
func TestJinxAndDamageBetweenPhases(t *testing.T) {
	g := newTestGame(t, dogfight)
	_, evs, _ := Resolve(g.d, g.st, map[string]string{"RED": "6 / 6 FIRE ANY", "JAGD": "6 / 6 FIRE ANY"}, &firstSaveFails{})
	rerolls := 0
	for _, e := range eventsOf(evs, EvFire) {
		for _, d := range e.Dice {
			if strings.Contains(d.Label, "(jinx)") {
				rerolls++
				if e.Target != "RED1" {
					t.Errorf("only RED1 has the skill: %s", d.Label)
				}
			}
		}
	}
	if rerolls != 1 {
		t.Errorf("one re-roll a turn: %d", rerolls)
	}
	slowed := false
	for _, e := range eventsOf(evs, EvIllegalOrder) {
		slowed = slowed || e.Phase == 2 && strings.Contains(e.Text, "cannot fly its phase 2 plot")
	}
	if !slowed {
		t.Error("an aircraft hit in phase 1 cannot fly 6 in phase 2 and flies straight on slower")
	}
}

// FIRE 2 waits for combat phase 2; HOLD never fires; each aircraft fires once a turn (seed 003 "Turn
// Sequence").
func TestFireOrders(t *testing.T) {
	g := newTestGame(t, dogfight)
	_, evs, _ := Resolve(g.d, g.st, map[string]string{"RED": "6 / 6 FIRE 2", "JAGD": "6 / 6 HOLD"}, &sixes{})
	fired := map[string]int{}
	for _, e := range eventsOf(evs, EvFire) {
		if e.Side == "Luftwaffe" {
			t.Errorf("JAGD holds fire: %s", e.Text)
		}
		if e.Phase != 2 {
			t.Errorf("RED waits for phase 2: %s", e.Text)
		}
		fired[e.Unit]++
	}
	for cs, n := range fired {
		if n != 1 {
			t.Errorf("%s fired %d times", cs, n)
		}
	}
}

// A tie-break caused by an enemy unit's equal roll is not shown (it would tell of the enemy's roll).
func TestInitiativeTieIsPrivate(t *testing.T) {
	g := newTestGame(t, dogfight)
	src := &sixes{}
	next, evs, _ := Resolve(g.d, g.st, nil, src)
	if len(eventsOf(evs, EvInitiative)[0].Dice) != 4 {
		t.Fatal("both units rolled 12 and broke the tie")
	}
	for _, e := range EventsFor(next, "RAF", evs) {
		if e.Kind == EvInitiative && (strings.Contains(e.Text, "tie") || len(e.Dice) != 2) {
			t.Errorf("RAF is told of a tie with an enemy: %+v", e)
		}
	}
}

func plotOrder(t *testing.T, text string) notationOrder {
	t.Helper()
	o, ds := parseOrder(text)
	if len(ds) > 0 {
		for _, d := range ds {
			if d.Severity == 0 {
				t.Fatalf("%q: %v", text, ds)
			}
		}
	}
	return o
}

// The demo pilot turns a fighter unit towards the enemy it sees off its nose, and leaves bombers be.
func TestDemoPilotTurnsTowardsTheEnemy(t *testing.T) {
	report := `YOUR UNITS
  SPIT1    spitfire-i: unit SPITS: hex (0,0) facing 000, Medium, speed 7; top speed 8 hexes in phase 1 and 7 in phase 2, FS 2, firepower 4 white, SR 5+, hits 0 of 2
  HE1      he-111h: unit HEINKELS: hex (5,0) facing 000, Medium, speed 5; top speed 6 hexes in phase 1 and 5 in phase 2, FS 3, firepower none, SR 4+, hits 0 of 4
ENEMY UNITS IN SIGHT
  EMIL1    bf-109e: Messerschmitt Bf 109 E-3: hex (6,0) facing 000, Medium
           from SPIT1: 6 hexes at 3 o'clock, same level
           from HE1: 1 hexes at 3 o'clock, same level
`
	block := "GAME g TURN 2\nSPITS: 7 / 7 FIRE ANY\nHEINKELS: 5 / 5 FIRE ANY\nEND"
	got := (Ruleset{}).DemoOrders(report, block)
	if !strings.Contains(got, "SPITS: 2 TR 2 TR 3 / 7 FIRE ANY") || !strings.Contains(got, "HEINKELS: 5 / 5 FIRE ANY") {
		t.Errorf("the demo pilot's block:\n%s", got)
	}
	if (Ruleset{}).DemoOrders(report, "GAME g TURN 2\nEND") != "" {
		t.Error("nothing to order: nothing sent")
	}
}
