package afd

import (
	"testing"

	"sortie/rules/afd/notation"
	"sortie/rules/ruleset/rulesettest"
)

// BenchmarkCheckOrder is one order checked as the mail intake checks it (rulesettest.BenchCheckOrder):
// the line read, the plot flown, the canonical text and the forecast written, for order lines as
// players mail them to the channel-1940 game's two Spitfires ("plain"), beside notation.ParseOrder of
// the same lines alone; and manoeuvres of the kent-impulse-1940 game ("impulse").
func BenchmarkCheckOrder(b *testing.B) {
	rs := Ruleset{Env: testEnv(b)}
	rulesettest.BenchCheckOrder(b, "plain", rulesettest.Bundled[*game](b, rs, "channel-1940"), []rulesettest.Order{
		{Player: "alice", Unit: "RED1", Text: "6 FIRE KURT"},
		{Player: "alice", Unit: "RED2", Text: "1 TL 4"},
		{Player: "alice", Unit: "RED1", Text: "3 TR 2 FIRE KURT"},
		{Player: "alice", Unit: "RED2", Text: "2 TL 3 HOLD"},
	}, func(s string) { notation.ParseOrder(s) })
	rulesettest.BenchCheckOrder(b, "impulse", rulesettest.Bundled[*game](b, rs, "kent-impulse-1940"), []rulesettest.Order{
		{Player: "alice", Unit: "RED1", Text: "` ` TR"},
		{Player: "alice", Unit: "RED1", Text: "1"},
		{Player: "alice", Unit: "RED1", Text: "` TL FIRE ANY"},
	}, nil)
}

// BenchmarkPlan is the plotting board's plan of an order (game.Plan: the check, the track and the
// reach from the side's view) beside the receipt's check of the same order alone, on the channel-1940
// game with the enemy in sight.
func BenchmarkPlan(b *testing.B) {
	g := rulesettest.Bundled[*game](b, Ruleset{Env: testEnv(b)}, "channel-1940")
	for _, side := range []string{"RAF", "Luftwaffe"} {
		if g.st.Sight[side] == nil {
			g.st.Sight[side] = map[string]Sighting{}
		}
	}
	for _, p := range g.st.Planes {
		for side := range g.st.Sight {
			if p.Side != side {
				g.st.Sight[side][p.Callsign] = Sighting{Spotted: true}
			}
		}
	}
	const order = "3 TR 2 FIRE ANY"
	// Each reports the processor time it took (cpu-ns/op) beside the wall clock's ns/op.
	b.Run("check", func(b *testing.B) {
		start := processCPU()
		for b.Loop() {
			g.CheckOrder("alice", "RED1", order)
		}
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	})
	b.Run("plan", func(b *testing.B) {
		start := processCPU()
		for b.Loop() {
			g.Plan("alice", "RED1", order)
		}
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	})
}
