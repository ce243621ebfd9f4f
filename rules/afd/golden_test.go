package afd

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"testing"

	"sortie/internal/golden"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	"sortie/rules/hex"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGoldenFourPlaneTurns resolves the bundled four-plane scenario for three turns with fixed orders and
// seed and compares every event and the final state with the golden file (go test -update rewrites it;
// review the diff).
func TestGoldenFourPlaneTurns(t *testing.T) {
	env := testEnv(t)
	s, err := BundledScenario("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewGame(s, env.Cards)
	if err != nil {
		t.Fatal(err)
	}
	turns := [][]string{
		{"RED1: 6 FIRE KURT", "RED2: 1 TL 4 FIRE ANY", "KURT: 5 FIRE ANY", "HANS: 1 1 1 1 1 1"},
		{"RED1: 2 TL 3", "RED2: 3 TR 2", "KURT: 4 TL", "HANS: 2 TR 2 TR 1"},
		{"RED1: 6", "RED2: 1 1 1 1 1 1", "KURT: 5 HOLD", "HANS: 3 TR 3"},
	}
	type turnRecord struct {
		Turn   int     `json:"turn"`
		Events []Event `json:"events"`
		Hash   string  `json:"hash"`
	}
	var record []turnRecord
	seed := dice.SeedFromUint64(1940)
	for i, lines := range turns {
		var events []Event
		st, events, err = Resolve(env, st, orders(t, lines...), dice.NewSeeded(seed.Stream(fmt.Sprintf("turn-%d", i+1))))
		if err != nil {
			t.Fatal(err)
		}
		record = append(record, turnRecord{Turn: i + 1, Events: events, Hash: st.Hash()})
	}
	got, err := json.MarshalIndent(struct {
		Turns []turnRecord `json:"turns"`
		State *State       `json:"state"`
	}{record, st}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.File(t, "testdata/channel-three-turns.golden.json", got, *update, "go test ./rules/afd -run Golden -update")
}

// benchGame places n planes of two sides as pairs on a square lattice 20 hexes apart, the two of a pair
// facing each other 3 hexes apart: every plane has an enemy in gun range and a dozen or so planes within
// sight, whatever n is, so the cost per aircraft shows how the work grows with n.
func benchGame(n int) (*State, map[string]notation.Order) {
	st := &State{Ruleset: "afd", Scenario: "bench", Turn: 1, TurnLimit: 99, Options: Options{FogOfWar: true},
		Sides: []string{"A", "B"}, Players: []Player{{ID: "a", Side: "A"}, {ID: "b", Side: "B"}},
		Sight: map[string]map[string]Sighting{"A": {}, "B": {}}}
	orders := map[string]notation.Order{}
	straight, _ := notation.ParseOrder("5 FIRE ANY")
	turn, _ := notation.ParseOrder("2 TR 2 FIRE ANY")
	types := []string{"spitfire-i", "bf-109e"}
	for i := 0; i < n; i++ {
		side := i % 2
		cs := fmt.Sprintf("P%04d", i)
		side2 := int(math.Ceil(math.Sqrt(float64(n) / 2)))
		pair := i / 2
		q, r := (pair%side2)*20, (pair/side2)*20+side*3
		p := Plane{Callsign: cs, Type: types[side], Side: st.Sides[side], Player: st.Players[side].ID, Pilot: "regular", Status: Flying,
			Flight: Flight{Hex: hex.Hex{Q: q, R: r}, Facing: hex.Dir(side * 6), Speed: 50, Alt: 10000, Straight: Plenty},
			Damage: make([]int, 7), Ammo: Ammo{{"wing-l", 10}, {"wing-r", 10}}, Crew: 1}
		if side == 1 {
			p.Damage = make([]int, 8)
			p.Ammo = Ammo{}
		}
		st.Planes = append(st.Planes, p)
		if i%3 == 0 {
			orders[cs] = turn
		} else {
			orders[cs] = straight
		}
	}
	return st, orders
}

// benchDenseGame is benchGame's planes in dense combat: one square lattice 6 hexes apart, the sides
// alternating like the squares of a chessboard and every plane heading north at the same height, so each
// has an enemy 6 hexes ahead in its guns' reach, and up to 126 others within sight: their number grows
// with n until the lattice is wider than the sight range, unlike benchGame's.
func benchDenseGame(n int) (*State, map[string]notation.Order) {
	st, orders := benchGame(n)
	types := []string{"spitfire-i", "bf-109e"}
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	for i := range st.Planes {
		p := &st.Planes[i]
		row, col := i/cols, i%cols
		side := (row + col) % 2
		p.Side, p.Player, p.Type = st.Sides[side], st.Players[side].ID, types[side]
		p.Flight.Hex, p.Flight.Facing = hex.Hex{Q: col * 6, R: row * 6}, 0
	}
	return st, orders
}

func benchmarkResolve(b *testing.B, n int, layout func(int) (*State, map[string]notation.Order)) {
	env := testEnv(b)
	st, orders := layout(n)
	// Fill damage boxes and ammunition from the cards.
	for i := range st.Planes {
		c, _ := env.Cards.Get(st.Planes[i].Type)
		st.Planes[i].Damage = make([]int, len(c.Systems))
		st.Planes[i].Ammo = Ammo{}
		for _, g := range c.Guns {
			st.Planes[i].Ammo.Set(g.ID, g.Ammo)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Resolve(env, st, orders, dice.NewSeeded(dice.SeedFromUint64(1))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/aircraft")
}

// The lattice of pairs (benchGame): the same neighbours per plane at every size.
func BenchmarkResolveTurn10(b *testing.B)   { benchmarkResolve(b, 10, benchGame) }
func BenchmarkResolveTurn100(b *testing.B)  { benchmarkResolve(b, 100, benchGame) }
func BenchmarkResolveTurn1000(b *testing.B) { benchmarkResolve(b, 1000, benchGame) }

// Dense combat (benchDenseGame): more planes in sight and in gun range as n grows.
func BenchmarkResolveTurnDense10(b *testing.B)   { benchmarkResolve(b, 10, benchDenseGame) }
func BenchmarkResolveTurnDense100(b *testing.B)  { benchmarkResolve(b, 100, benchDenseGame) }
func BenchmarkResolveTurnDense1000(b *testing.B) { benchmarkResolve(b, 1000, benchDenseGame) }
