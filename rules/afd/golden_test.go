package afd

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"testing"
	"unsafe"

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
	env, st := bundledState(t, "channel-1940")
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
		var err error
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
	armed(b, env, st)
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

// benchmarkOutput is the raw cost beside benchmarkResolve: the same turn's output (the new state, the
// events with their details and texts, the dice log with its labels) copied, with no rules run. It is
// the least a turn can allocate and take while it returns a fresh state, events and dice of these
// types, packed as the turn packs them (texts and labels in blocks, each phase's details in one
// block, the events' dice pointing into the log).
func benchmarkOutput(b *testing.B, n int, layout func(int) (*State, map[string]notation.Order)) {
	env := testEnv(b)
	st, orders := layout(n)
	armed(b, env, st)
	d := dice.NewSeeded(dice.SeedFromUint64(1))
	ns, events, err := Resolve(env, st, orders, d)
	if err != nil {
		b.Fatal(err)
	}
	rolls := d.Log()
	for _, e := range events {
		if len(e.Dice) > 0 {
			if k := rollIndex(rolls, e.Dice); k < 0 || k+len(e.Dice) > len(rolls) || &rolls[k] != &e.Dice[0] {
				b.Fatalf("the dice of %+v are not in the turn's log", e)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		copyOutput(ns, events, rolls)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/aircraft")
}

func BenchmarkResolveTurnOutput10(b *testing.B)        { benchmarkOutput(b, 10, benchGame) }
func BenchmarkResolveTurnOutput100(b *testing.B)       { benchmarkOutput(b, 100, benchGame) }
func BenchmarkResolveTurnOutput1000(b *testing.B)      { benchmarkOutput(b, 1000, benchGame) }
func BenchmarkResolveTurnDenseOutput10(b *testing.B)   { benchmarkOutput(b, 10, benchDenseGame) }
func BenchmarkResolveTurnDenseOutput100(b *testing.B)  { benchmarkOutput(b, 100, benchDenseGame) }
func BenchmarkResolveTurnDenseOutput1000(b *testing.B) { benchmarkOutput(b, 1000, benchDenseGame) }

// rollIndex is where in the log an event's dice are: they point into it.
func rollIndex(log, rolls []dice.Roll) int {
	return int((uintptr(unsafe.Pointer(&rolls[0])) - uintptr(unsafe.Pointer(&log[0]))) / unsafe.Sizeof(log[0]))
}

// copyOutput deep-copies a turn's output: the state, the dice log (labels in a text arena) and the
// events (texts in the arena, dice pointing into the copied log, details and their lists in blocks).
func copyOutput(ns *State, events []Event, rolls []dice.Roll) (*State, []Event, []dice.Roll) {
	st := ns.Clone()
	var text textArena
	str := func(s string) string { return text.string(unsafe.Slice(unsafe.StringData(s), len(s))) }
	log := make([]dice.Roll, len(rolls))
	for i, r := range rolls {
		log[i] = dice.Roll{Label: str(r.Label), Sides: r.Sides, Value: r.Value}
	}
	nMove, nFire, nHit, nHex, nLoc, nSys, nEff := 0, 0, 0, 0, 0, 0, 0
	for _, e := range events {
		if e.Move != nil {
			nMove++
			nHex += len(e.Move.Path)
		}
		if e.Fire != nil {
			nFire++
			nLoc += len(e.Fire.Locations)
		}
		if e.Hit != nil {
			nHit++
			nSys += len(e.Hit.Systems)
			nEff += len(e.Hit.Effects)
		}
	}
	moves, fires, hits := make([]MoveDetail, 0, nMove), make([]FireDetail, 0, nFire), make([]HitDetail, 0, nHit)
	hexes, locs := make([]hex.Hex, 0, nHex), make([]string, 0, nLoc)
	systems, effects := make([]SystemHit, 0, nSys), make([]string, 0, nEff)
	out := make([]Event, len(events))
	for i, e := range events {
		e.Text = str(e.Text)
		if len(e.Dice) > 0 {
			k := rollIndex(rolls, e.Dice)
			e.Dice = log[k : k+len(e.Dice) : k+len(e.Dice)]
		}
		if m := e.Move; m != nil {
			c := *m
			c.Plot = str(m.Plot)
			hexes = append(hexes, m.Path...)
			c.Path = hexes[len(hexes)-len(m.Path):]
			moves = append(moves, c)
			e.Move = &moves[len(moves)-1]
		}
		if f := e.Fire; f != nil {
			c := *f
			for _, l := range f.Locations {
				locs = append(locs, str(l))
			}
			c.Locations = locs[len(locs)-len(f.Locations):]
			fires = append(fires, c)
			e.Fire = &fires[len(fires)-1]
		}
		if h := e.Hit; h != nil {
			c := *h
			systems = append(systems, h.Systems...)
			c.Systems = systems[len(systems)-len(h.Systems):]
			for _, x := range h.Effects {
				effects = append(effects, str(x))
			}
			c.Effects = effects[len(effects)-len(h.Effects):]
			hits = append(hits, c)
			e.Hit = &hits[len(hits)-1]
		}
		if x := e.Extra; x != nil {
			c := *x
			e.Extra = &c
		}
		out[i] = e
	}
	return st, out, log
}
