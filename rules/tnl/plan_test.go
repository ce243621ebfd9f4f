package tnl

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// The plotting board's plan of a Thunderbolt & Lightning order (ruleset.Planner): the lead aircraft's
// track and what each aircraft's guns could reach where the plot ends, by the combat's own rules.

const planScenario = annBen + `name: board
turns: 8
visibility: %d
aircraft:
  - {callsign: A1, type: %s, unit: U1, side: A, player: ann, hex: [0, 0], facing: 0, level: M%s}
  - {callsign: A2, type: spitfire-i, unit: U1, side: A, player: ann, hex: [1, 0], facing: 0, level: M, speed: 6}
  - {callsign: B1, type: bf-109e, side: B, player: ben, hex: [0, -40], facing: 180, level: M}
  - {callsign: B2, type: bf-109e, side: B, player: ben, hex: [40, -40], facing: 180, level: M}
`

func planGame(t *testing.T, visibility int, typ, extra string) *game {
	t.Helper()
	return newTestGame(t, fmt.Sprintf(planScenario, visibility, typ, extra))
}

// reachOf is the plan of the order for U1, with B1 moved to the hex off from where the lead's track ends
// (in the side's sight), and the reach lines about A1.
func reachOf(t *testing.T, g *game, order string, off hexmap.Hex, level Level) (ruleset.Plan, []string) {
	t.Helper()
	p := g.Plan("ann", "U1", order)
	if len(p.Path) == 0 {
		t.Fatalf("%q: no track: %+v", order, p.Check)
	}
	end := p.Path[len(p.Path)-1]
	b := g.st.Plane("B1")
	b.Hex, b.Level = hexmap.Hex{Q: end.Q + off.Q, R: end.R + off.R}, level
	g.st.Sight["A"]["B1"] = true
	p = g.Plan("ann", "U1", order)
	var mine []string
	for _, l := range p.Reach {
		if strings.HasPrefix(l, "A1") {
			mine = append(mine, l)
		}
	}
	return p, mine
}

func ahead(n int) hexmap.Hex  { return hexmap.Hex{R: -n} } // facing 000 is north: -r
func behind(n int) hexmap.Hex { return hexmap.Hex{R: n} }

func wantReach(t *testing.T, what string, got []string, want string) {
	t.Helper()
	if len(got) != 1 || got[0] != want {
		t.Errorf("%s: the reach says %q, want %q", what, got, want)
	}
}

const noneInReach = "A1: no enemy aircraft in reach from where this plot ends"

// Seed 003, "Combat": a die hits on the range plus one, so a trained pilot's guns reach 5 hexes (a 6),
// not 6; the +1 to hit skill ("Skill List" 1) reaches one hex further.
func TestBoardReachIsTheRangeOfTheDice(t *testing.T) {
	g := planGame(t, 0, "spitfire-i", ", speed: 6")
	_, r := reachOf(t, g, "6 / 6 FIRE ANY", ahead(5), Medium)
	wantReach(t, "5 hexes ahead", r, "A1 could fire at B1 where it was last seen: 5 hexes away at 12 o'clock, 4 white dice needing 6 or more")
	_, r = reachOf(t, g, "6 / 6 FIRE ANY", ahead(6), Medium)
	wantReach(t, "6 hexes ahead", r, noneInReach)
	g = planGame(t, 0, "spitfire-i", ", speed: 6, training: veteran, skills: [aim]")
	_, r = reachOf(t, g, "6 / 6 FIRE ANY", ahead(6), Medium)
	wantReach(t, "6 hexes ahead with the +1 to hit skill", r, "A1 could fire at B1 where it was last seen: 6 hexes away at 12 o'clock, 4 white dice needing 6 or more")
}

// Seed 003, "Altitude": combat only between aircraft at the same level, and the level the plot ends at
// is the one that counts (a CLIMB reaches it at the end of phase 1).
func TestBoardReachIsAtTheSameLevel(t *testing.T) {
	g := planGame(t, 0, "spitfire-i", ", speed: 6")
	_, r := reachOf(t, g, "6 / 6 FIRE ANY", ahead(2), High)
	wantReach(t, "an enemy a level up", r, noneInReach)
	sh, _ := g.d.Sheet("spitfire-i")
	a := g.st.Plane("A1")
	lo, _ := SpeedRange(sh, a, 0, a.Speed, false)
	lo2, _ := SpeedRange(sh, a, 1, lo, false)
	climb := fmt.Sprintf("CLIMB %d / %d FIRE ANY", lo+sh.Climb[0], lo2+sh.Climb[1])
	p, r := reachOf(t, g, climb, ahead(2), High)
	if !p.Check.OK() {
		t.Fatalf("%q: %+v", climb, p.Check.Errors)
	}
	wantReach(t, "after climbing to its level", r, "A1 could fire at B1 where it was last seen: 2 hexes away at 12 o'clock, 4 white dice needing 3 or more")
}

// The fixed guns fire ahead (11 to 1 o'clock: Sortie's reading of seed 003, docs/tnl.md), flexible
// mounts all round, a single machine gun on a pivot mount at -1 (seed 003, "Single Pivot Mount MG Firing
// -1").
func TestBoardReachIsTheArcOfTheGuns(t *testing.T) {
	g := planGame(t, 0, "spitfire-i", ", speed: 6")
	_, r := reachOf(t, g, "6 / 6 FIRE ANY", behind(2), Medium)
	wantReach(t, "a fighter with an enemy behind", r, noneInReach)
	g = planGame(t, 0, "he-111h", ", speed: 4")
	_, r = reachOf(t, g, g.DefaultOrder("U1"), behind(2), Medium)
	wantReach(t, "a bomber with an enemy behind", r,
		"A1 could fire at B1 where it was last seen: 2 hexes away at 6 o'clock, 1 red die needing 3 or more, 3 white dice on a pivot mount needing 4 or more")
}

// The visibility of the scenario (docs/tnl.md, Fog of war): an aircraft fires at nothing beyond it, even
// an enemy its side sees from elsewhere.
func TestBoardReachIsWithinTheVisibility(t *testing.T) {
	g := planGame(t, 4, "spitfire-i", ", speed: 6")
	_, r := reachOf(t, g, "6 / 6 FIRE ANY", ahead(5), Medium)
	wantReach(t, "5 hexes ahead with visibility 4", r, noneInReach)
	_, r = reachOf(t, g, "6 / 6 FIRE ANY", ahead(4), Medium)
	wantReach(t, "4 hexes ahead with visibility 4", r, "A1 could fire at B1 where it was last seen: 4 hexes away at 12 o'clock, 4 white dice needing 5 or more")
}

// Fog of war (invariant 4): the reach is of the enemy as the side saw it; an enemy it has not seen is
// not in it, and the plan is the plan of a game without that enemy.
func TestBoardReachIsTheSidesView(t *testing.T) {
	g := planGame(t, 0, "spitfire-i", ", speed: 6")
	p, r := reachOf(t, g, "6 / 6 FIRE ANY", ahead(2), Medium)
	if len(r) != 1 || !strings.Contains(r[0], "B1") {
		t.Fatalf("an enemy in sight 2 hexes ahead is not in reach: %q", r)
	}
	g.st.Sight["A"]["B1"] = false
	unseen := g.Plan("ann", "U1", "6 / 6 FIRE ANY")
	if strings.Contains(strings.Join(unseen.Reach, "\n"), "B1") {
		t.Errorf("an enemy the side has not seen is in reach: %q", unseen.Reach)
	}
	st := g.st.Clone()
	st.Aircraft = slices.DeleteFunc(st.Aircraft, func(a Aircraft) bool { return a.Callsign == "B1" })
	without := (&game{d: g.d, st: st}).Plan("ann", "U1", "6 / 6 FIRE ANY")
	if !reflect.DeepEqual(unseen, without) {
		t.Errorf("the plan with an unseen enemy differs from the plan without it:\n%+v\n%+v", unseen, without)
	}
	if reflect.DeepEqual(p.Reach, unseen.Reach) {
		t.Errorf("the reach did not change when the enemy went out of sight: %q", p.Reach)
	}
}

// An aircraft without guns is told so, not that nothing is in reach; a HOLD is said first.
func TestBoardReachSaysWhyNot(t *testing.T) {
	g := planGame(t, 0, "spitfire-i", ", speed: 6")
	_, r := reachOf(t, g, "6 / 6 HOLD", ahead(2), Medium)
	if len(r) != 2 || r[0] != "A1 holds its fire this turn (HOLD)" || !strings.HasPrefix(r[1], "A1 could fire at B1") {
		t.Errorf("a HOLD with an enemy in reach: %q", r)
	}
	sh, _ := g.d.Sheet("spitfire-i")
	unarmed := *sh
	unarmed.Fixed, unarmed.Flexible = Dice{}, nil
	d := &Data{sheets: map[string]*Sheet{}, keys: g.d.keys, sum: g.d.sum}
	for k, v := range g.d.sheets {
		d.sheets[k] = v
	}
	d.sheets["spitfire-i"] = &unarmed
	g.d = d
	_, r = reachOf(t, g, "6 / 6 FIRE ANY", ahead(2), Medium)
	wantReach(t, "an aircraft without guns", r, "A1 has no guns: the Supermarine Spitfire Mk I cannot fire at aircraft")
}

// Seed 003, "Movement": the board flies a plot that breaks a rule as far as it reads, so the player sees
// where it goes wrong: the track of the unit's lead aircraft, hex by hex, through both phases.
func TestBoardTrackOfAPlotThatBreaksARule(t *testing.T) {
	g := planGame(t, 0, "spitfire-i", ", speed: 6")
	p := g.Plan("ann", "U1", "4 TL TL / 4 FIRE ANY")
	if p.Check.OK() || p.Check.Errors[0].Code != "fly-straight" {
		t.Fatalf("two turns in one hex with fly-straight 2: %+v", p.Check.Errors)
	}
	want := []hexmap.Hex{{Q: 0, R: 0}, {Q: 0, R: -1}, {Q: 0, R: -2}, {Q: 0, R: -3}, {Q: 0, R: -4}, {Q: -1, R: -3}, {Q: -2, R: -2}, {Q: -3, R: -1}, {Q: -4, R: 0}}
	if !reflect.DeepEqual(p.Path, want) || !p.Faced || p.Facing != 8 {
		t.Errorf("the track %v facing %s (faced %v), want %v facing 240", p.Path, p.Facing, p.Faced, want)
	}
	if p := g.Plan("ann", "U1", "4 X / 4"); len(p.Path) != 0 || p.Check.OK() {
		t.Errorf("an order that does not read has a track: %+v", p)
	}
	if p := g.Plan("ben", "U1", "6 / 6"); len(p.Path) != 0 || len(p.Reach) != 0 || p.Check.OK() {
		t.Errorf("another player's unit has a plan: %+v", p)
	}
}

const shipScenario = annBen + `name: board ships
turns: 8
aircraft:
  - {callsign: A1, type: %s, unit: U1, side: A, player: ann, hex: [0, 0], facing: 0, level: %s, load: %s}
ships:
  - {callsign: KAGA, side: B, hex: [0, -60], facing: 0, speed: 2, points: 100}
`

// straightPlot is a legal plot straight ahead for the unit's aircraft A1, diving or climbing (alt
// "DIVE", "CLIMB" or "") at the slowest speeds it may fly, then attack and fire.
func straightPlot(t *testing.T, g *game, alt, attack string) string {
	t.Helper()
	a := g.st.Plane("A1")
	sh, _ := g.d.Sheet(a.Type)
	mod := [2]int{}
	switch alt {
	case "DIVE":
		mod = sh.Dive
	case "CLIMB":
		mod = sh.Climb
	}
	lo, _ := SpeedRange(sh, a, 0, a.Speed, false)
	lo2, _ := SpeedRange(sh, a, 1, lo, false)
	order := strings.TrimSpace(fmt.Sprintf("%s %d / %d %s FIRE ANY", alt, lo+mod[0], lo2+mod[1], attack))
	if c := g.CheckOrder("ann", "U1", order); !c.OK() {
		t.Fatalf("%q: %+v", order, c.Errors)
	}
	return order
}

// shipReachOf plans the order with the ship KAGA placed so that after its move (2 hexes ahead, north,
// seed 003's ships move straight on: one hex in each movement phase) it is off from where the plot ends.
func shipReachOf(t *testing.T, g *game, order string, off hexmap.Hex) string {
	t.Helper()
	p := g.Plan("ann", "U1", order)
	end := p.Path[len(p.Path)-1]
	g.st.GroundNamed("KAGA").Hex = hexmap.Hex{Q: end.Q + off.Q, R: end.R + off.R + 2}
	p = g.Plan("ann", "U1", order)
	if len(p.Reach) == 0 || !strings.Contains(p.Reach[0], "KAGA") {
		t.Fatalf("%q: the reach says nothing of the attack: %q", order, p.Reach)
	}
	return p.Reach[0]
}

// Seed 003, "Torpedo Bombing": a torpedo goes from Very Low, 5 to 20 hexes from the ship (6 or more at
// 17 to 20, 5 at 13 to 16, 4 at 9 to 12, 3 at 5 to 8), at the ship where it will be after its move.
func TestBoardReachOfATorpedo(t *testing.T) {
	g := newTestGame(t, fmt.Sprintf(shipScenario, "tbf-1", "VL", "torpedo"))
	order := straightPlot(t, g, "", "TORPEDO KAGA")
	if r := shipReachOf(t, g, order, hexmap.Hex{Q: 8, R: -4}); !strings.HasPrefix(r, "A1 could launch at KAGA where the ship will be after its move: 8 hexes away at Very Low, needing 3 or more") {
		t.Errorf("8 hexes from the ship: %q", r)
	}
	if r := shipReachOf(t, g, order, hexmap.Hex{Q: 13, R: -4}); !strings.HasPrefix(r, "A1 could launch at KAGA where the ship will be after its move: 13 hexes away at Very Low, needing 5 or more") {
		t.Errorf("13 hexes from the ship: %q", r)
	}
	if r := shipReachOf(t, g, order, hexmap.Hex{Q: 3, R: -1}); !strings.HasPrefix(r, "A1 could not launch at KAGA") {
		t.Errorf("3 hexes from the ship: %q", r)
	}
}

// Seed 003, "Dive Bombing": a dive begun at Medium, the bomb released at Low (5 or more) or Very Low
// (4 or more), over the ship or beside it (Sortie's reading, docs/tnl.md).
func TestBoardReachOfADiveBomb(t *testing.T) {
	g := newTestGame(t, fmt.Sprintf(shipScenario, "sbd-3", "M", "1000lb"))
	order := straightPlot(t, g, "DIVE", "BOMB KAGA")
	if r := shipReachOf(t, g, order, hexmap.Hex{Q: 1, R: 0}); r != "A1 could dive-bomb KAGA where the ship will be after its move: 1 hex away at Low, needing 5 or more before the modifiers" {
		t.Errorf("beside the ship at Low: %q", r)
	}
	if r := shipReachOf(t, g, order, hexmap.Hex{Q: 2, R: 0}); !strings.HasPrefix(r, "A1 could not dive-bomb KAGA where the ship will be after its move: it would be 2 hexes away at Low") {
		t.Errorf("2 hexes from the ship: %q", r)
	}
}
