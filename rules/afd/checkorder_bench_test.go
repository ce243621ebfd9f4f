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
