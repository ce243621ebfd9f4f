package tnl

import (
	"testing"

	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/tnl/notation"
)

// BenchmarkCheckOrder is one order checked as the mail intake checks it (rulesettest.BenchCheckOrder):
// every unit's default order of the battle-of-britain scenario in turn, beside notation.Parse of the
// same lines alone.
func BenchmarkCheckOrder(b *testing.B) {
	g := rulesettest.Bundled[*game](b, Ruleset{}, "battle-of-britain")
	rulesettest.BenchCheckOrder(b, "check", g, rulesettest.DefaultOrders(g), func(s string) { notation.Parse(s) })
}

// BenchmarkPlan is one order tried on the plotting board (Plan: the check with the track and the reach),
// every unit's default order of the battle-of-britain scenario in turn, beside CheckOrder of the same orders
// alone ("raw check").
func BenchmarkPlan(b *testing.B) {
	g := rulesettest.Bundled[*game](b, Ruleset{}, "battle-of-britain")
	rulesettest.BenchPlan(b, g, rulesettest.DefaultOrders(g))
}
