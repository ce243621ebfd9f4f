package swarm

import (
	"testing"

	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/swarm/notation"
)

// BenchmarkCheckOrder is one order checked as the mail intake checks it (rulesettest.BenchCheckOrder):
// every unit's default order of the kanalkampf-1940 scenario in turn, beside notation.ParseSwarmOrder of
// the same lines alone.
func BenchmarkCheckOrder(b *testing.B) {
	g := rulesettest.Bundled[*game](b, Ruleset{}, "kanalkampf-1940")
	rulesettest.BenchCheckOrder(b, "check", g, rulesettest.DefaultOrders(g), func(s string) { notation.ParseSwarmOrder(s) })
}

// BenchmarkPlan is one order tried on the plotting board (Plan: the check with the track and the reach),
// every unit's default order of the kanalkampf-1940 scenario in turn, beside CheckOrder of the same orders
// alone ("raw check").
func BenchmarkPlan(b *testing.B) {
	g := rulesettest.Bundled[*game](b, Ruleset{}, "kanalkampf-1940")
	orders := rulesettest.DefaultOrders(g)
	b.Run("plan", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			o := orders[n%len(orders)]
			n++
			if p := g.Plan(o.Player, o.Unit, o.Text); len(p.Path) == 0 {
				b.Fatal(p.Check)
			}
		}
	})
	b.Run("raw check", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			o := orders[n%len(orders)]
			n++
			if c := g.CheckOrder(o.Player, o.Unit, o.Text); !c.OK() {
				b.Fatal(c.Errors)
			}
		}
	})
}
