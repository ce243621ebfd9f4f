package afd

import (
	"strings"
	"testing"

	"sortie/rules/dice"
)

// edgeDuel has A's only plane three hexes from the north edge, flying north at speed 3, and B's flying
// inside the map.
const edgeDuel = annBen + `name: edge duel
options: {fog_of_war: true}
map: {min_q: -10, max_q: 10, min_row: -7, max_row: 12}
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, -5], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [-6, 4], facing: 3, alt: 10000, speed: 3.0}
turns: 5
`

// TestEndReasonNamesTheSideThatLeft: seed 000 with the house map edges (docs/rulings.md, other rulings: a
// plane beyond a scenario's edge disengages): when A's only plane flies off the map, the game ends, and
// the reason both players read says that A has nothing left in play because RED1 left the map; it never
// says "no enemy is left in the air", which is false for A (B's plane still flies).
func TestEndReasonNamesTheSideThatLeft(t *testing.T) {
	st := newTestGame(t, edgeDuel)
	next, _, err := Resolve(testEnv(t), st, orders(t, "RED1: 3", "BLUE1: 3"), dice.NewScripted())
	if err != nil {
		t.Fatal(err)
	}
	if p := next.Plane("RED1"); p.Status != Disengaged {
		t.Fatalf("RED1 must have flown off the map: %+v at %v", p.Status, p.Flight.Hex)
	}
	if !next.Over || next.Outcome == nil {
		t.Fatal("with only B in play the game is over")
	}
	if want := "A has nothing left in play (RED1 left the map)"; next.Outcome.Reason != want {
		t.Errorf("reason %q, want %q", next.Outcome.Reason, want)
	}
	if strings.Contains(next.Outcome.Reason, "no enemy") {
		t.Errorf("B still flies: %q", next.Outcome.Reason)
	}
}
