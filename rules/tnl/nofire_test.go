package tnl

import (
	"fmt"
	"strings"
	"testing"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset/rulesettest"
)

// pair is a Spitfire (RED1, unit RED) and a Bf 109 (EMIL1, unit JAGD) flying north at the same speed,
// so that where EMIL1 stands from RED1 at the start is where it stands in both combat phases; a second
// Spitfire (RED2, unit BLUE) flies far to the west unless a case moves it.
const pair = rafLuftwaffe + `name: pair
turns: 4
%s
aircraft:
  - {callsign: RED1, type: spitfire-i, unit: RED, side: RAF, player: ann, hex: [0, 6], facing: 0, level: M, speed: 6}
  - {callsign: RED2, type: spitfire-i, unit: BLUE, side: RAF, player: ann, hex: [%d, %d], facing: 0, level: M, speed: 6}
  - {callsign: EMIL1, type: bf-109e, unit: JAGD, side: Luftwaffe, player: ben, hex: [%d, %d], facing: 0, level: %s, speed: 6}
`

// tnlHexAt is the hex dist hexes from (0,6) at a clock position from an aircraft facing north there.
func tnlHexAt(t *testing.T, clock, dist int) hexmap.Hex {
	t.Helper()
	return rulesettest.AtClock(t, hexmap.Hex{Q: 0, R: 6}, 0, clock, dist)
}

// tnlNoFireLines are the why-not lines a side reads of a turn, joined.
func tnlNoFireLines(st *State, side string, evs []Event) string {
	return rulesettest.Lines(EventsFor(st, side, evs), func(e Event) (string, bool) { return e.Text, e.Kind == EvNoFire })
}

// TestFireOrderThatDoesNotFireSaysWhy: every way a T&L fire order can fire no dice in a turn is
// answered in the firing side's report with the reason, as things stood in combat phase 2, the last it
// could fire in; the enemy reads none of it.
func TestFireOrderThatDoesNotFireSaysWhy(t *testing.T) {
	cases := []struct {
		name        string
		head        string // scenario lines: visibility
		clock, dist int
		level       string
		red2        hexmap.Hex // RED2's hex; far west when zero
		orders      map[string]string
		prepare     func(st *State)
		src         dice.Source
		want        string
		notWant     string
	}{
		// Seed 003, "Altitude levels": combat only between aircraft at the same level.
		{name: "another level", clock: 12, dist: 2, level: "L", orders: map[string]string{"RED": "6 / 6 FIRE EMIL1"},
			want: "RED1 did not fire: EMIL1 was at Low and RED1 at Medium, and aircraft fight only at the same level"},
		// Docs/tnl.md (Sortie's reading of seed 003): fixed guns bear from 11 to 1 o'clock; a Spitfire has
		// no flexible mount.
		{name: "outside the forward arc", clock: 4, dist: 2, level: "M", orders: map[string]string{"RED": "6 / 6 FIRE EMIL1"},
			want: "RED1 did not fire: EMIL1 was 2 hexes away at 4 o'clock, outside RED1's forward arc (11 to 1 o'clock), and it has no flexible guns"},
		// Seed 003, "Combat": a die needs the range plus one; at 9 hexes, 10.
		{name: "too far for any die", clock: 12, dist: 9, level: "M", orders: map[string]string{"RED": "6 / 6 FIRE EMIL1"},
			want: "RED1 did not fire: EMIL1 was 9 hexes away at 12 o'clock, where none of RED1's dice could hit"},
		// Docs/tnl.md: visibility limits who sees whom; an enemy beyond it is not in sight, and the line
		// says nothing of where it was.
		{name: "not in sight", head: "visibility: 3", clock: 12, dist: 5, level: "M", orders: map[string]string{"RED": "6 / 6 FIRE EMIL1"},
			want: "RED1 did not fire: EMIL1 was not in sight of RED1 (visibility 3 hexes)", notWant: "o'clock"},
		// FIRE ANY with an enemy near that no die reaches: the nearest is named.
		{name: "FIRE ANY, nothing bears", clock: 6, dist: 3, level: "M", orders: map[string]string{"RED": "6 / 6 FIRE ANY"},
			want: "RED1 did not fire: no enemy it could fire at; the nearest, EMIL1, was 3 hexes away at 6 o'clock, outside RED1's forward arc"},
		// Seed 003, "Effects of Hits": RED1, one hit from destroyed (and so slowed by 2), is shot down in combat phase 1 by
		// EMIL1 astern; its order to fire in phase 2 never comes.
		{name: "destroyed before it fired", clock: 6, dist: 2, level: "M",
			orders:  map[string]string{"RED": "6 / 5 FIRE 2", "JAGD": "6 / 6 FIRE RED1"},
			prepare: func(st *State) { st.Plane("RED1").Hits = 1 }, src: &firstSaveFails{},
			want: "RED1 did not fire: it was destroyed in combat phase 1 before it fired"},
		// Seed 003, "Effects of Hits": the target RED1 waited for is destroyed in phase 1 by RED2.
		{name: "target destroyed earlier in the turn", clock: 12, dist: 3, level: "M", red2: tnlHexAt(t, 12, 1),
			orders:  map[string]string{"RED": "6 / 6 FIRE EMIL1 2", "BLUE": "6 / 6 FIRE EMIL1", "JAGD": "5 / 5 HOLD"},
			prepare: func(st *State) { st.Plane("EMIL1").Hits = 1 }, src: &firstSaveFails{},
			want: "RED1 did not fire: EMIL1 had been destroyed"},
		// No line is owed: HOLD fires nothing on purpose.
		{name: "HOLD", clock: 4, dist: 2, level: "M", orders: map[string]string{"RED": "6 / 6 HOLD"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at := tnlHexAt(t, c.clock, c.dist)
			r2 := c.red2
			if r2 == (hexmap.Hex{}) {
				r2 = hexmap.Hex{Q: -40, R: 6}
			}
			g := newTestGame(t, fmt.Sprintf(pair, c.head, r2.Q, r2.R, at.Q, at.R, c.level))
			if c.prepare != nil {
				c.prepare(g.st)
			}
			src := c.src
			if src == nil {
				src = dice.NewKeyed(dice.SeedFromUint64(5))
			}
			orders := map[string]string{"JAGD": "6 / 6 HOLD", "BLUE": "6 / 6 HOLD"}
			for k, v := range c.orders {
				orders[k] = v
			}
			next, evs, err := Resolve(g.d, g.st, orders, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if e.Kind == EvIllegalOrder {
					t.Fatalf("the case is wrong: %s %+v", e.Text, e.Problems)
				}
				if e.Kind == EvFire && e.Unit == "RED1" {
					t.Fatalf("the case is wrong: RED1 fired: %s", e.Text)
				}
			}
			got := tnlNoFireLines(next, "RAF", evs)
			rulesettest.WhyNot(t, "RAF", got, c.want, c.notWant)
			if l := tnlNoFireLines(next, "Luftwaffe", evs); strings.Contains(l, "RED") {
				t.Errorf("the Luftwaffe reads the RAF's fire orders: %q", l)
			}
		})
	}
}

// TestShipAttackNotMadeSaysWhy (seed 003, "Attacking Ships"): attacks go in one after the other at the
// end of movement phase 2; an attacker whose ship has already sunk makes none, and is told why.
func TestShipAttackNotMadeSaysWhy(t *testing.T) {
	g := newTestGame(t, strings.Replace(shipsOnly, "points: 80}", "points: 50}", 1))
	next, evs, _ := Resolve(g.d, g.st, map[string]string{"BOMBING": "DIVE 3 / 3 BOMB KAGA", "TORPS": "3 / 3 TORPEDO KAGA", "TORPS2": "3 / 3 TORPEDO KAGA"}, &sixes{})
	got := tnlNoFireLines(next, "USN", evs)
	if !strings.Contains(got, "made no attack on KAGA: KAGA had sunk before the attack") {
		t.Errorf("USN reads %q", got)
	}
}

// TestShipAttackOfAnAircraftDestroyedFirstSaysWhy (seed 003, "Anti Aircraft Guns" and "Attacking
// Ships"): the carrier's heavy guns destroy the Avenger in combat phase 1, before the attacks go in at
// the end of movement phase 2; its side is told why its torpedo attack was not made.
func TestShipAttackOfAnAircraftDestroyedFirstSaysWhy(t *testing.T) {
	g := newTestGame(t, usnIJN+`name: last run
turns: 4
aircraft:
  - {callsign: TBF1, type: tbf-1, unit: TORPS, side: USN, player: ann, hex: [0, 14], facing: 0, level: VL, speed: 4}
  - {callsign: ZEKE, type: a6m2, side: IJN, player: ben, hex: [0, -60], facing: 180, level: H, speed: 6}
ships:
  - {callsign: KAGA, side: IJN, hex: [0, 0], facing: 0, points: 80, aa: {heavy: 2}}
`)
	g.st.Plane("TBF1").Hits = sheet(t, "tbf-1").Hits - 1
	next, evs, _ := Resolve(g.d, g.st, map[string]string{"TORPS": "3 / 3 TORPEDO KAGA"}, &firstSaveFails{})
	if next.Plane("TBF1").InPlay() {
		t.Fatal("the case is wrong: TBF1 survived")
	}
	if got, want := tnlNoFireLines(next, "USN", evs), "TBF1 made no attack on KAGA: it was destroyed before it could attack"; !strings.Contains(got, want) {
		t.Errorf("USN reads %q, want %q", got, want)
	}
}
