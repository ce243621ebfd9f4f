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
