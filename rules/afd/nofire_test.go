package afd

import (
	"cmp"
	"fmt"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/hex"
	"sortie/rules/ruleset/rulesettest"
)

// fireRange is a Spitfire (RED1, side A) and a Bf 109 (KURT, side B), both flying north at speed 3, so
// that where KURT stands from RED1 at the start is where it stands when the guns fire. KURT's place and
// height, RED1's height and the fog are filled in by each case.
const fireRange = annBen + `name: fire range
options: {fog_of_war: %v}
aircraft:
  - {callsign: RED1, type: %s, side: A, player: ann, hex: [0, 4], facing: 0, alt: %d, speed: 3.0}
  - {callsign: KURT, type: bf-109e, side: B, player: ben, hex: [%d, %d], facing: 0, alt: %d, speed: 3.0}
turns: 5
`

// hexAt is the hex dist hexes from (0,4) at a clock position from a plane facing north there.
func hexAt(t *testing.T, clock, dist int) hex.Hex {
	t.Helper()
	return rulesettest.AtClock(t, hex.Hex{Q: 0, R: 4}, 0, clock, dist)
}

// noFireLines are the why-not lines a side reads of a turn, joined.
func noFireLines(st *State, side string, events []Event) string {
	return rulesettest.Lines(EventsFor(st, side, events), func(e Event) (string, bool) { return e.Text, e.Kind == EvNoFire })
}

// TestFireOrderThatDoesNotFireSaysWhy: every way a plain turn's fire order can fire nothing is answered
// in the firing side's report with the reason (the players' report: FIRE KURT with KURT 3 hexes off at
// 11 o'clock never fired and nothing said why). Each case cites the rule that stops the guns.
func TestFireOrderThatDoesNotFireSaysWhy(t *testing.T) {
	cases := []struct {
		name          string
		redType       string // spitfire-i when empty
		fog           bool
		redAlt        int
		clock, dist   int
		kurtAlt       int
		order         string
		prepare       func(t *testing.T, st *State)
		want          string // in A's report; "" for no line at all
		mustNotReveal string
	}{
		// Seed 000, "Main combat rule changes": the fixed guns' cone is one file wide at 1-2 hexes and
		// three at 3-5; 11 o'clock at 3 hexes is outside it.
		{name: "outside the cone", redAlt: 10000, clock: 11, dist: 3, kurtAlt: 10000, order: "RED1: 3 FIRE KURT",
			want: "RED1 did not fire at KURT: KURT was 3 hexes away at 11 o'clock: outside the cone of its fixed guns"},
		// Seed 000, "Main combat rule changes": the most any gun reaches is 8 hexes.
		{name: "out of range", redAlt: 10000, clock: 12, dist: 10, kurtAlt: 10000, order: "RED1: 3 FIRE KURT",
			want: "RED1 did not fire at KURT: KURT was 10 hexes away at 12 o'clock: range 10 counting the height difference, and no gun reaches beyond 8"},
		// Seed 000, "Firing vertical attitude": +1 range for each full 500 ft of height difference.
		{name: "out of range by height", redAlt: 10000, clock: 12, dist: 7, kurtAlt: 11000, order: "RED1: 3 FIRE KURT",
			want: "KURT was 7 hexes away at 12 o'clock, 1,000 ft higher: range 9 counting the height difference"},
		// docs/rulings.md: the fire order may set a maximum range.
		{name: "beyond MAX", redAlt: 10000, clock: 12, dist: 4, kurtAlt: 10000, order: "RED1: 3 FIRE KURT MAX 2",
			want: "RED1 did not fire at KURT: KURT was 4 hexes away at 12 o'clock: range 4, beyond the MAX 2 of its fire order"},
		// Seed 000, "Firing vertical attitude": a level firer needs the height difference within 300 ft a
		// hex of range.
		{name: "too steep flying level", redAlt: 10000, clock: 12, dist: 1, kurtAlt: 10400, order: "RED1: 3 FIRE KURT",
			want: "KURT was 1 hex away at 12 o'clock, 400 ft higher: flying level, its fixed guns reach no more than 300 ft of height a hex of range"},
		// Seed 000, "Firing vertical attitude": a climbing plane does not fire at a lower one.
		{name: "climbing at a lower plane", redAlt: 10000, clock: 12, dist: 4, kurtAlt: 9000, order: "RED1: 3 +100 FIRE KURT",
			want: "its fixed guns cannot fire down at a lower plane while it climbs"},
		// Seed 000, "Firing vertical attitude": a diving plane does not fire at a higher one.
		{name: "diving at a higher plane", redAlt: 10000, clock: 12, dist: 4, kurtAlt: 10000, order: "RED1: 3 -300 FIRE KURT",
			want: "its fixed guns cannot fire up at a higher plane while it dives"},
		// Seed 000, "Main combat rule changes": the cone begins in the hex ahead, not the plane's own.
		{name: "same hex", redAlt: 10000, clock: 12, dist: 0, kurtAlt: 10000, order: "RED1: 3 FIRE KURT",
			want: "RED1 did not fire at KURT: KURT was in the same hex, where no gun can bear"},
		// docs/rulings.md: each gun position fires a burst of its ammunition; none left, no fire.
		{name: "out of ammunition", redAlt: 10000, clock: 12, dist: 3, kurtAlt: 10000, order: "RED1: 3 FIRE KURT",
			prepare: func(t *testing.T, st *State) {
				for i := range st.Plane("RED1").Ammo {
					st.Plane("RED1").Ammo[i].Bursts = 0
				}
			},
			want: "RED1 did not fire at KURT: KURT was 3 hexes away at 12 o'clock: its guns are out of ammunition"},
		// docs/rulings.md: the fire order may name the positions that fire; those are empty.
		{name: "the named guns are empty", redAlt: 10000, clock: 12, dist: 3, kurtAlt: 10000, order: "RED1: 3 FIRE KURT GUNS wing-l",
			prepare: func(t *testing.T, st *State) { st.Plane("RED1").Ammo.Set("wing-l", 0) },
			want:    "RED1 did not fire at KURT: KURT was 3 hexes away at 12 o'clock: the guns its order names (wing-l) are out of ammunition"},
		// docs/rulings.md, damage: a gun position whose boxes are full is knocked out.
		{name: "guns knocked out", redAlt: 10000, clock: 12, dist: 3, kurtAlt: 10000, order: "RED1: 3 FIRE KURT",
			prepare: func(t *testing.T, st *State) {
				p := st.Plane("RED1")
				c := card(t, "spitfire-i")
				for i, s := range c.Systems {
					if s.Guns != "" {
						p.Damage[i] = s.Boxes
					}
				}
			},
			want: "its guns have been knocked out"},
		// docs/rulings.md, spotting and fog of war: a plane fires only at an enemy its side has spotted;
		// the line says it was not seen and nothing of where it was.
		{name: "not in sight", fog: true, redAlt: 10000, clock: 6, dist: 12, kurtAlt: 30000, order: "RED1: 3 FIRE KURT",
			want: "RED1 did not fire at KURT: KURT was not an enemy plane in sight", mustNotReveal: "o'clock"},
		{name: "no such plane", redAlt: 10000, clock: 12, dist: 3, kurtAlt: 10000, order: "RED1: 3 FIRE NOBODY",
			want: "RED1 did not fire at NOBODY: NOBODY was not an enemy plane in sight"},
		// Seed 000, "Flex gun limitations": a flexible position fires only into the clock positions it
		// covers, and only as far as its range (6 hexes for a rifle-calibre gun, docs/rulings.md).
		{name: "no flexible gun covers it", redType: "ju-87b", redAlt: 10000, clock: 3, dist: 3, kurtAlt: 10000, order: "RED1: 3 FIRE KURT",
			want: "KURT was 3 hexes away at 3 o'clock: outside the cone of its fixed guns; none of its flexible guns covers that clock position"},
		{name: "beyond the flexible guns' reach", redType: "ju-87b", redAlt: 10000, clock: 6, dist: 7, kurtAlt: 10000, order: "RED1: 3 FIRE KURT",
			want: "KURT was 7 hexes away at 6 o'clock: outside the cone of its fixed guns; beyond the reach of its flexible guns (range 7)"},
		// FIRE ANY with an enemy in sight within 8 hexes that no gun bears on: the nearest is named.
		{name: "FIRE ANY, nothing bears", redAlt: 10000, clock: 5, dist: 3, kurtAlt: 10000, order: "RED1: 3 FIRE ANY",
			want: "RED1 did not fire: no enemy in sight was in reach of its guns; the nearest, KURT, was 3 hexes away at 5 o'clock: outside the cone of its fixed guns"},
		// Nothing is owed: HOLD fires nothing on purpose, FIRE ANY had nothing in reach to fire at.
		{name: "HOLD", redAlt: 10000, clock: 11, dist: 3, kurtAlt: 10000, order: "RED1: 3 HOLD"},
		{name: "FIRE ANY, no enemy within 8 hexes", redAlt: 10000, clock: 12, dist: 12, kurtAlt: 10000, order: "RED1: 3 FIRE ANY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at := hex.Hex{Q: 0, R: 4}
			if c.dist > 0 {
				at = hexAt(t, c.clock, c.dist)
			}
			st := newTestGame(t, fmt.Sprintf(fireRange, c.fog, cmp.Or(c.redType, "spitfire-i"), c.redAlt, at.Q, at.R, c.kurtAlt))
			if c.prepare != nil {
				c.prepare(t, st)
			}
			next, events, err := Resolve(testEnv(t), st, orders(t, c.order, "KURT: 3 HOLD"), dice.NewSeeded(dice.SeedFromUint64(1)))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range events {
				if e.Kind == EvFire && e.Plane == "RED1" {
					t.Fatalf("the case is wrong: RED1 fired: %s", e.Text)
				}
			}
			got := noFireLines(next, "A", events)
			rulesettest.WhyNot(t, "A", got, c.want, c.mustNotReveal)
			if b := noFireLines(next, "B", events); strings.Contains(b, "RED1") {
				t.Errorf("B reads A's fire order: %q", b)
			}
		})
	}
}

// twoInReach has two enemies for RED1, the later callsign listed first; their hexes and heights are
// filled in.
const twoInReach = annBen + `name: two in reach
options: {fog_of_war: false}
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, 4], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: ZED, type: bf-109e, side: B, player: ben, hex: [%d, %d], facing: 0, alt: %d, speed: 3.0}
  - {callsign: ADA, type: bf-109e, side: B, player: ben, hex: [%d, %d], facing: 0, alt: %d, speed: 3.0}
turns: 5
`

// TestFireAnyNamesTheNearestAsTheFirePhaseWould: a FIRE ANY that fired nothing names the nearest enemy
// in sight, by the fire phase's own order of candidates (compareCandidates): the least range counting
// the height difference, then the first callsign, whatever the order the planes are listed in.
func TestFireAnyNamesTheNearestAsTheFirePhaseWould(t *testing.T) {
	for _, c := range []struct {
		name           string
		zedAlt, adaAlt int
		nearest        string
	}{
		{"equal ranges: the first callsign", 10000, 10000, "ADA"},
		{"ADA 3,000 ft above, ZED level: ZED is nearer", 10000, 13000, "ZED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			zed, ada := hexAt(t, 5, 3), hexAt(t, 7, 3)
			st := newTestGame(t, fmt.Sprintf(twoInReach, zed.Q, zed.R, c.zedAlt, ada.Q, ada.R, c.adaAlt))
			next, events, err := Resolve(testEnv(t), st, orders(t, "RED1: 3 FIRE ANY", "ZED: 3 HOLD", "ADA: 3 HOLD"), dice.NewSeeded(dice.SeedFromUint64(1)))
			if err != nil {
				t.Fatal(err)
			}
			got := noFireLines(next, "A", events)
			if want := "the nearest, " + c.nearest + ","; !strings.Contains(got, want) {
				t.Errorf("got %q, want it to name %s", got, c.nearest)
			}
		})
	}
}

// TestGroundAttackTakesTheFixedGunsAndSaysSo (seed 002, "Fighters and Bombing"): a pilot who fires
// rockets fires no fixed guns at planes that turn, and his side is told so.
func TestGroundAttackTakesTheFixedGunsAndSaysSo(t *testing.T) {
	next, events := strikeTurn(t, strikeRange, "3 ROCKET AT TRUCK2 FIRE BLUE1", map[string]int{"turn 1 P47 rockets: d10": 4})
	got := noFireLines(next, "A", events)
	if want := "P47 did not fire at BLUE1: BLUE1 was 6 hexes away at 12 o'clock: its fixed guns do not fire the turn it attacks the ground"; !strings.Contains(got, want) {
		t.Errorf("A reads %q, want %q", got, want)
	}
}

// TestPlaneGoneBeforeFireSaysWhy: a plane that leaves the map in its move fires nothing (docs/rulings.md:
// leaving the map is disengaging), and so does one whose target left it; both are told.
func TestPlaneGoneBeforeFireSaysWhy(t *testing.T) {
	st := newTestGame(t, edgeDuel)
	o := orders(t, "RED1: 3 FIRE BLUE1", "BLUE1: 3 FIRE RED1")
	next, events, err := Resolve(testEnv(t), st, o, dice.NewScripted())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := noFireLines(next, "A", events), "RED1 did not fire: it had left the map"; !strings.Contains(got, want) {
		t.Errorf("A reads %q, want %q", got, want)
	}
	// B never saw RED1 (fog, far apart): its line says so and no more.
	if got, want := noFireLines(next, "B", events), "BLUE1 did not fire at RED1: RED1 was not an enemy plane in sight"; !strings.Contains(got, want) {
		t.Errorf("B reads %q, want %q", got, want)
	}
}

// TestGroundAttackOfAPlaneGoneSaysWhy (seed 002, rocket attacks: made after movement, from where the
// plot ends): a plane that flew off the map makes no rocket attack, and its side is told why.
func TestGroundAttackOfAPlaneGoneSaysWhy(t *testing.T) {
	scn := strings.Replace(strikeRange, "turns: 3\n", "turns: 3\nmap: {min_q: -10, max_q: 10, min_row: 2, max_row: 12}\n", 1)
	scn = strings.Replace(scn, "hex: [0, -2], facing: 0", "hex: [0, 8], facing: 0", 1)
	next, events := strikeTurn(t, scn, "3 ROCKET AT TRUCK2", nil)
	if next.Plane("P47").Status != Disengaged {
		t.Fatalf("the case is wrong: P47 is %s", next.Plane("P47").Status)
	}
	var got string
	for _, e := range EventsFor(next, "A", events) {
		got += e.Text + "\n"
	}
	if want := "P47 made no rocket attack: it had left the map"; !strings.Contains(got, want) {
		t.Errorf("A reads %q, want %q", got, want)
	}
}
