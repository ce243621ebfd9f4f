package afd

import (
	"testing"

	"sortie/rules/afd/notation"
	"sortie/rules/dice"
)

// benchImpulseGame is benchGame's lattice as an impulse game: every plane (speed 5, active in impulses
// 3 5 8 10 12) has its whole turn queued, the same path as the plain game's orders (` ` TR; 1; 1 for a
// third of them, forwards manoeuvres for the rest), so one run of the engine is one full turn of twelve
// impulses and stops at its end.
func benchImpulseGame(b testing.TB, n int) (*State, map[string]notation.ImpulseOrder) {
	env := testEnv(b)
	st, _ := benchGame(n)
	st.Options.Impulse = true
	for i := range st.Planes {
		c, _ := env.Cards.Get(st.Planes[i].Type)
		st.Planes[i].Damage = make([]int, len(c.Systems))
		for _, g := range c.Guns {
			st.Planes[i].Ammo.Set(g.ID, g.Ammo)
		}
	}
	impulseState(st)
	orders := map[string]notation.ImpulseOrder{}
	turn, ds := notation.ParseImpulseOrder("` ` TR; 1; 1 FIRE ANY")
	straight, ds2 := notation.ParseImpulseOrder("1; 1; 1; 1; 1 FIRE ANY")
	if len(ds)+len(ds2) > 0 {
		b.Fatal(ds, ds2)
	}
	for i, p := range st.Planes {
		if i%3 == 0 {
			orders[p.Callsign] = turn
		} else {
			orders[p.Callsign] = straight
		}
	}
	return st, orders
}

// BenchmarkImpulseTurn100 is one full impulse turn (twelve impulses, every phase) of 100 aircraft with
// queued orders; BenchmarkResolveTurn100 beside it is the plain game's turn of the same aircraft.
func BenchmarkImpulseTurn100(b *testing.B) {
	env := testEnv(b)
	st, orders := benchImpulseGame(b, 100)
	next, _, err := ResolveImpulse(env, st, orders, dice.NewSeeded(dice.SeedFromUint64(1)))
	if err != nil || next.Turn != 2 || next.Clock.Impulse != 1 {
		b.Fatalf("one run must be one whole turn: turn %d impulse %d, %v", next.Turn, next.Clock.Impulse, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := ResolveImpulse(env, st, orders, dice.NewSeeded(dice.SeedFromUint64(1))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/100, "µs/aircraft")
}
