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
	rulesettest.BenchPlan(b, g, rulesettest.DefaultOrders(g))
}
