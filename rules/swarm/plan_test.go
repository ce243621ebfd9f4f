package swarm

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// The plotting board's plan of a Swarm order (ruleset.Planner): the squadron's track over every turn it
// plots, and what it could attack where the plot ends, by the turn's own rules of fire.

const planScenario = annBen + `name: board
visibility: %d
turns: 20
squadrons:
  - {callsign: Q1, type: %s, side: A, player: ann, hex: [0, 0], facing: 30, tack: %s}
  - {callsign: E1, type: bf-109e, side: B, player: ben, hex: [0, -30], facing: 210, tack: 2 S M}
  - {callsign: E2, type: bf-109e, side: B, player: ben, hex: [30, -30], facing: 210, tack: 2 S M}
targets:
  - {name: DEPOT, side: B, hex: [1, -2], strength: 4}
  - {name: DOCKS, side: A, hex: [-1, 2], strength: 4}
`

func planGame(t *testing.T, visibility int, typ, tack string) *game {
	t.Helper()
	return newGame(t, fmt.Sprintf(planScenario, visibility, typ, tack))
}

// reachOf is the plan of the order for Q1 with E1 moved off from where the track ends, at band, in the
// side's sight.
func reachOf(t *testing.T, g *game, order string, off hexmap.Hex, band string) (ruleset.Plan, []string) {
	t.Helper()
	p := g.Plan("ann", "Q1", order)
	if len(p.Path) == 0 {
		t.Fatalf("%q: no track: %+v", order, p.Check)
	}
	end := p.Path[len(p.Path)-1]
	e := g.st.Squadron("E1")
	e.Pos.Hex, e.Tack.Band = hexmap.Hex{Q: end.Q + off.Q, R: end.R + off.R}, band
	g.st.Sight["A"]["E1"] = true
	p = g.Plan("ann", "Q1", order)
	if !p.Check.OK() {
		t.Fatalf("%q: %+v", order, p.Check.Errors)
	}
	return p, p.Reach
}

// Facing 030, the field of fire is straight up the map: (0, -n) is n hexes dead ahead, (0, n) behind.
func ahead(n int) hexmap.Hex  { return hexmap.Hex{R: -n} }
func behind(n int) hexmap.Hex { return hexmap.Hex{R: n} }

func wantReach(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: the reach says %q, want %q", what, got, want)
	}
}

const noneInReach = "Q1: no enemy squadron in reach from where this plot ends"

// The reach of a squadron's guns from where its plot ends, one case a line:
//   - seed 004, "Targeting and Firepower": a squadron fires at enemies in its own altitude band, in the
//     sixty degrees ahead, each die scoring when it reaches the distance; the house range ends at 6
//     hexes (data/house.yaml, max_range); the band the plot ends in is the one that counts;
//   - seed 004, "Rear firing aircraft": a rear gunner makes one 1D6 attack at the rear or side arcs,
//     beside the squadron's own attack ahead; its firepower falls with its losses ("The Swarm Control
//     Sheet");
//   - seed 004, "Cloud Cover": a squadron sees, and so fires, within the scenario's visibility, even at
//     an enemy its side sees from elsewhere (contact: the squadron has sighted the enemy).
func TestBoardReachOfGuns(t *testing.T) {
	const (
		fighter = "2 S M 2 FIRE ANY"
		bomber  = "1 S M 1 FIRE ANY"
	)
	for _, c := range []struct {
		what       string
		visibility int
		typ, tack  string
		contact    bool
		order      string
		off        hexmap.Hex
		band       string
		want       string
	}{
		// Targeting and Firepower.
		{"2 hexes ahead", 0, "bf-109e", "2 S M", false, fighter, ahead(2), "M", "Q1 could attack E1 where it was last seen: 2 hexes away in its field of fire, 3D6 each scoring on 2 or more"},
		{"2 hexes ahead at High", 0, "bf-109e", "2 S M", false, fighter, ahead(2), "H", noneInReach},
		{"2 hexes behind", 0, "bf-109e", "2 S M", false, fighter, behind(2), "M", noneInReach},
		{"6 hexes ahead", 0, "bf-109e", "2 S M", false, fighter, ahead(6), "M", "Q1 could attack E1 where it was last seen: 6 hexes away in its field of fire, 3D6 each scoring on 6 or more"},
		{"7 hexes ahead", 0, "bf-109e", "2 S M", false, fighter, ahead(7), "M", noneInReach},
		{"2 hexes ahead after climbing to High", 0, "bf-109e", "2 S M", false, "2 S H 2 FIRE ANY", ahead(2), "H", "Q1 could attack E1 where it was last seen: 2 hexes away in its field of fire, 3D6 each scoring on 2 or more"},
		// Rear firing aircraft.
		{"a bomber with an enemy behind", 0, "do-17z", "1 S M", false, bomber, behind(2), "M", "Q1's rear gunner could attack E1 where it was last seen: 2 hexes away at 5 o'clock, 1D6 scoring on 2 or more"},
		{"a bomber with an enemy ahead", 0, "do-17z", "1 S M", false, bomber, ahead(1), "M", "Q1 could attack E1 where it was last seen: 1 hex away in its field of fire, 2D6 each scoring on 1 or more"},
		// Cloud Cover.
		{"4 hexes ahead with visibility 3", 3, "bf-109e", "2 S M", true, fighter, ahead(4), "M", noneInReach},
		{"3 hexes ahead with visibility 3", 3, "bf-109e", "2 S M", true, fighter, ahead(3), "M", "Q1 could attack E1 where it was last seen: 3 hexes away in its field of fire, 3D6 each scoring on 3 or more"},
	} {
		g := planGame(t, c.visibility, c.typ, c.tack)
		if c.contact {
			g.st.Squadron("Q1").Contact = true
		}
		_, r := reachOf(t, g, c.order, c.off, c.band)
		wantReach(t, c.what, r, c.want)
	}
}

// Fog of war (invariant 4): the reach is of the enemy as the side saw it; an enemy it has not seen is
// not in it, and the plan is the plan of a game without that enemy.
func TestBoardReachIsTheSidesView(t *testing.T) {
	g := planGame(t, 0, "bf-109e", "2 S M")
	seen, _ := reachOf(t, g, "2 S M 2 FIRE ANY", ahead(2), "M")
	g.st.Sight["A"]["E1"] = false
	unseen := g.Plan("ann", "Q1", "2 S M 2 FIRE ANY")
	if strings.Contains(strings.Join(unseen.Reach, "\n"), "E1") || reflect.DeepEqual(seen.Reach, unseen.Reach) {
		t.Errorf("an enemy the side has not seen: the reach %q (in sight: %q)", unseen.Reach, seen.Reach)
	}
	st := g.st.Clone()
	st.Squadrons = slices.DeleteFunc(st.Squadrons, func(q Squadron) bool { return q.Callsign == "E1" })
	if without := (&game{d: g.d, st: st}).Plan("ann", "Q1", "2 S M 2 FIRE ANY"); !reflect.DeepEqual(unseen, without) {
		t.Errorf("the plan with an unseen enemy differs from the plan without it:\n%+v\n%+v", unseen, without)
	}
}

// Seed 004, "Addendum: Bombing and low level attacks": BOMB attacks the ground target under the turn's
// path, the first not yet destroyed, whichever side's it is; a HOLD is said before the reach of the guns.
func TestBoardReachOfBombs(t *testing.T) {
	g := planGame(t, 0, "do-17z", "1 S M")
	e := g.st.Squadron("E1")
	e.Pos.Hex = hexmap.Hex{Q: 30, R: 30}
	p := g.Plan("ann", "Q1", "1 S M 1 BOMB HOLD")
	wantReach(t, "over DEPOT", p.Reach, "Q1 would attack DEPOT under its path", "Q1 holds its fire this turn (HOLD)", noneInReach)
	g.st.Squadron("Q1").Pos.Facing = 7 // 210: down the map, over DOCKS
	p = g.Plan("ann", "Q1", "1 S M 1 BOMB FIRE ANY")
	wantReach(t, "over DOCKS", p.Reach, "Q1 would attack DOCKS under its path, a target of your own side", noneInReach)
	g.st.Squadron("Q1").Pos.Facing = 3
	p = g.Plan("ann", "Q1", "1 S M 1 BOMB FIRE ANY")
	wantReach(t, "over nothing", p.Reach, "Q1 finds no ground target under its path: BOMB would do nothing", noneInReach)
	g.st.Targets[0].Damage = g.st.Targets[0].Strength
	g.st.Squadron("Q1").Pos.Facing = 1
	p = g.Plan("ann", "Q1", "1 S M 1 BOMB FIRE ANY")
	wantReach(t, "over DEPOT destroyed", p.Reach, "Q1 finds no ground target under its path: BOMB would do nothing", noneInReach)
}

// Seed 004, "Cloud Cover": a squadron without the enemy in sight plots a course of several turns; the
// board's track is all of it, turn after turn, as the preview lists it, and ends facing as it ends.
func TestBoardTrackOfACourse(t *testing.T) {
	g := planGame(t, 3, "bf-109e", "2 S M")
	q := g.st.Squadron("Q1")
	if q.Contact {
		t.Fatal("Q1 has the enemy in sight at 30 hexes with visibility 3")
	}
	p := g.Plan("ann", "Q1", "2 S M 2; 2 S M 2; 2 R M 1 R 1 HOLD")
	want := []hexmap.Hex{{Q: 0, R: 0}, {Q: 1, R: -2}, {Q: 2, R: -4}, {Q: 3, R: -6}, {Q: 4, R: -8}, {Q: 5, R: -10}, {Q: 7, R: -11}}
	if !p.Check.OK() || !reflect.DeepEqual(p.Path, want) || !p.Faced || p.Facing != 3 || len(p.Check.Preview) != 3 {
		t.Errorf("a course of three turns: %+v\ntrack %v facing %s, want %v facing 090", p.Check, p.Path, p.Facing, want)
	}
	if !slices.Contains(p.Reach, "Q1 holds its fire on the last turn of this plot (HOLD)") {
		t.Errorf("a course ending in HOLD: the reach %q", p.Reach)
	}
}

// Seed 004, "Moving Aircraft": the board flies an order that breaks a rule as far as it reads, so the
// player sees where it goes wrong.
func TestBoardTrackOfAnOrderThatBreaksARule(t *testing.T) {
	g := planGame(t, 0, "bf-109e", "2 S M")
	p := g.Plan("ann", "Q1", "2 S M 1 R 1 FIRE ANY")
	if p.Check.OK() || p.Check.Errors[0].Code != "straight-turn" {
		t.Fatalf("a facing change on an S tack: %+v", p.Check.Errors)
	}
	want := []hexmap.Hex{{Q: 0, R: 0}, {Q: 1, R: -2}, {Q: 3, R: -3}}
	if !reflect.DeepEqual(p.Path, want) || p.Facing != 3 {
		t.Errorf("the track %v facing %s, want %v facing 090", p.Path, p.Facing, want)
	}
	if p := g.Plan("ann", "Q1", "2 S M 1 X"); len(p.Path) != 0 || p.Check.OK() {
		t.Errorf("an order that does not read has a track: %+v", p)
	}
	if p := g.Plan("ben", "Q1", "2 S M 2"); len(p.Path) != 0 || len(p.Reach) != 0 || p.Check.OK() {
		t.Errorf("another player's squadron has a plan: %+v", p)
	}
}
