package afd

import (
	"fmt"
	"strings"
	"testing"

	"sortie/rules/hex"
	"sortie/rules/ruleset"
)

// groundState is a state with one ground unit and the given road hexes.
func groundState(u GroundUnit, turn int, roads ...hex.Hex) *State {
	return &State{Turn: turn, Roads: roads, Ground: []GroundUnit{u}}
}

// movesOver plays the ground phase of impulses 1 to 12 and lists, per impulse, what the unit did:
// "I:(q,r)/F" after each impulse in which its hex or facing changed.
func movesOver(st *State) string {
	var out []string
	for imp := 1; imp <= 12; imp++ {
		before := st.Ground[0]
		moveGround(st, imp)
		if u := st.Ground[0]; u.Hex != before.Hex || u.Facing != before.Facing {
			out = append(out, fmt.Sprintf("%d:%v/%d", imp, u.Hex, u.Facing))
		}
	}
	return strings.Join(out, " ")
}

func line(from hex.Hex, d hex.Dir, n int) []hex.Hex {
	var out []hex.Hex
	h := from
	for i := 0; i < n; i++ {
		h = h.Neighbor(d)
		out = append(out, h)
	}
	return out
}

// TestTrucksOnARoad: on a road a truck has two movement points a turn, one in impulse 4 and one in
// impulse 9; entering a hex costs one and turning 60° costs one (seed 001 V.A.1).
func TestTrucksOnARoad(t *testing.T) {
	road := append([]hex.Hex{{}}, line(hex.Hex{}, 0, 4)...)
	st := groundState(GroundUnit{Callsign: "T", Kind: Truck, Facing: 0, Route: line(hex.Hex{}, 0, 4)}, 1, road...)
	if got := movesOver(st); got != "4:(0,-1)/0 9:(0,-2)/0" {
		t.Errorf("a truck on a road: %s", got)
	}
	// Facing the wrong way: the first point turns it 60°, the second too, then it drives on next turn.
	st = groundState(GroundUnit{Callsign: "T", Kind: Truck, Facing: 4, Route: line(hex.Hex{}, 0, 2)}, 1, road...)
	if got := movesOver(st); got != "4:(0,0)/2 9:(0,0)/0" {
		t.Errorf("a truck turning on a road: %s", got)
	}
}

// TestTrucksOffTheRoad: off a road a truck has one movement point a turn, in impulse 7 (seed 001 V.A.2).
func TestTrucksOffTheRoad(t *testing.T) {
	st := groundState(GroundUnit{Callsign: "T", Kind: Truck, Facing: 0, Route: line(hex.Hex{}, 0, 3)}, 1)
	if got := movesOver(st); got != "7:(0,-1)/0" {
		t.Errorf("a truck off the road: %s", got)
	}
}

// TestTanks: a tank has one movement point in impulse 7 on a road, off the road only on even turns,
// and turns one hexside free in impulse 7 whether or not it moves (seed 001 V.B).
func TestTanks(t *testing.T) {
	for _, c := range []struct {
		what   string
		facing hex.Dir
		turn   int
		roads  []hex.Hex
		want   string
	}{
		{"a tank on a road", 0, 1, []hex.Hex{{}}, "7:(0,-1)/0"},
		{"off the road on an odd turn a tank does not move", 0, 1, nil, ""},
		{"off the road on an even turn a tank moves", 0, 2, nil, "7:(0,-1)/0"},
		// Facing 60° off its route: the free turn, then the move, in impulse 7.
		{"a tank's free turn comes with its move", 2, 2, nil, "7:(0,-1)/0"},
		// Odd turn off the road: it still turns.
		{"a tank turns even when it may not move", 2, 3, nil, "7:(0,0)/0"},
	} {
		st := groundState(GroundUnit{Callsign: "K", Kind: Tank, Facing: c.facing, Route: line(hex.Hex{}, 0, 3)}, c.turn, c.roads...)
		if got := movesOver(st); got != c.want {
			t.Errorf("%s: %s", c.what, got)
		}
	}
}

// TestShips: ships move in impulse 7, forward first and then the turn (seed 001 V.C), as far as their
// speed and turn rate (the scenario's) allow.
func TestShips(t *testing.T) {
	route := append(line(hex.Hex{}, 0, 2), line(hex.Hex{}.Neighbor(0).Neighbor(0), 2, 3)...)
	st := groundState(GroundUnit{Callsign: "S", Kind: Ship, Facing: 0, Speed: 3, TurnRate: 1, Route: route}, 1)
	if got := movesOver(st); got != "7:(0,-2)/2" {
		t.Errorf("a ship runs its straight, then turns: %s", got)
	}
	st2 := groundState(st.Ground[0], 2)
	if got := movesOver(st2); got != "7:(3,-5)/2" {
		t.Errorf("the next turn it steams on: %s", got)
	}
}

// TestGroundSeenWithinRange: a side sees its own ground units always and an enemy's within
// GroundSightRange of one of its aircraft in play (house rule, docs/rulings.md: ground units).
func TestGroundSeenWithinRange(t *testing.T) {
	st := &State{Planes: []Plane{{Callsign: "A1", Side: "A", Status: Flying, Flight: Flight{Hex: hex.Hex{}}}},
		Ground: []GroundUnit{{Callsign: "NEAR", Side: "B", Hex: hex.Hex{Q: GroundSightRange}}, {Callsign: "FAR", Side: "B", Hex: hex.Hex{Q: GroundSightRange + 1}}, {Callsign: "MINE", Side: "A", Hex: hex.Hex{Q: 50}}}}
	for i, want := range []bool{true, false, true} {
		if got := groundSeen(st, "A", &st.Ground[i]); got != want {
			t.Errorf("%s seen by A: %v", st.Ground[i].Callsign, got)
		}
	}
	v := ViewOf(st, "A")
	if len(v.Ground) != 2 || v.Ground[0].Callsign != "NEAR" || v.Ground[0].Route != nil {
		t.Errorf("A's view of the ground: %+v", v.Ground)
	}
}

// TestGroundScenarioChecked: a scenario's ground units are checked, each problem with its line.
func TestGroundScenarioChecked(t *testing.T) {
	bad := impulseDuel + `roads: [[0, 0]]
ground:
  - {callsign: T1, kind: lorry, side: A, hex: [0, 0], facing: 1, route: [[0, -2]]}
  - {callsign: RED1, kind: ship, side: C, hex: [0, 0], facing: 0, speed: 9, defence: 7}
  - {callsign: K1, kind: tank, side: A, hex: [0, 0], facing: 0, speed: 2}
`
	s, err := ParseScenario([]byte(bad), "bad.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewGame(s, testEnv(t).Cards)
	for _, want := range []string{"kind is truck, tank, ship", "faces a hexside", "is not next to", "given twice", "side \"C\"", "speed is 1 to 6", "only ships are given a speed"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the scenario's ground problems must include %q: %v", want, err)
		}
	}
}

// TestGroundInReports: a side's report lists its ground units and the enemy's it sees in a section of
// their own, never among its aircraft, and nothing of ground units out of its sight.
func TestGroundInReports(t *testing.T) {
	g, err := Ruleset{Env: testEnv(t)}.NewGame([]byte(convoyGame), nil, "convoy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ann, ben := g.Report("ann", nil), g.Report("ben", nil)
	names := func(us []ruleset.Unit) string {
		var s []string
		for _, u := range us {
			s = append(s, u.Name+"="+u.Type)
		}
		return strings.Join(s, " ")
	}
	if got := names(ann.Ground); got != "TRUCK1=truck, yours TANK1=tank, yours" {
		t.Errorf("ann's ground section: %s", got)
	}
	if strings.Contains(names(ann.Own), "TRUCK1") || strings.Contains(names(ann.Contacts), "SHIP1") {
		t.Errorf("ground units among aircraft: own %s, contacts %s", names(ann.Own), names(ann.Contacts))
	}
	if got := names(ben.Ground); got != "TRUCK1=truck, enemy TANK1=tank, enemy SHIP1=ship, yours" {
		t.Errorf("ben's Heinkel sees ann's column, and ben his own ship: %s", got)
	}
	// An enemy column's route is not seen; where it lies from each of the player's aircraft is.
	if d := strings.Join(ben.Ground[0].Detail, "; "); strings.Contains(d, "route") || !strings.Contains(d, "seen from BOMBER: 1 hexes at 12 o'clock") {
		t.Errorf("ben's view of TRUCK1: %v", d)
	}
}

// TestShipsInEvenTurns (seed 002, torpedo attacks): a ship the scenario marks even_turns moves only in
// even-numbered turns.
func TestShipsInEvenTurns(t *testing.T) {
	u := GroundUnit{Callsign: "S", Kind: Ship, Facing: 0, Speed: 1, TurnRate: 0, EvenTurns: true, Route: line(hex.Hex{}, 0, 4)}
	if got := movesOver(groundState(u, 1)); got != "" {
		t.Errorf("turn 1: %s", got)
	}
	if got := movesOver(groundState(u, 2)); got != "7:(0,-1)/0" {
		t.Errorf("turn 2: %s", got)
	}
}
