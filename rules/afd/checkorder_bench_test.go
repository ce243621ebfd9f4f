package afd

import (
	"testing"

	"sortie/rules/afd/notation"
	"sortie/rules/ruleset"
)

// checkOrderBench are order lines as players mail them to the channel-1940 game's two Spitfires.
var checkOrderBench = []struct{ unit, text string }{
	{"RED1", "6 FIRE KURT"},
	{"RED2", "1 TL 4"},
	{"RED1", "3 TR 2 FIRE KURT"},
	{"RED2", "2 TL 3 HOLD"},
}

func benchGameFrom(b *testing.B, scenario string) ruleset.Game {
	b.Helper()
	scn, err := BundledScenarioFile(scenario)
	if err != nil {
		b.Fatal(err)
	}
	g, err := Ruleset{Env: testEnv(b)}.NewGame(scn, nil, scenario+".yaml")
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkCheckOrder is one order checked as the mail intake checks it, through the ruleset
// (Game.CheckOrder): the line read, the plot flown, the canonical text and the forecast written. The
// "raw" figures beside it, in the same run, are notation.ParseOrder of the same lines alone and the
// copying of the same output strings (the canonical text and each forecast line) into fresh strings.
func BenchmarkCheckOrder(b *testing.B) {
	g := benchGameFrom(b, "channel-1940")
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			o := checkOrderBench[n%len(checkOrderBench)]
			n++
			if c := g.CheckOrder("alice", o.unit, o.text); !c.OK() || len(c.Preview) == 0 {
				b.Fatal(c.Errors)
			}
		}
	})
	b.Run("raw ParseOrder", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			o := checkOrderBench[n%len(checkOrderBench)]
			n++
			if _, ds := notation.ParseOrder(o.text); len(ds) > 1 {
				b.Fatal(ds)
			}
		}
	})
	outs := make([]ruleset.OrderCheck, len(checkOrderBench))
	for i, o := range checkOrderBench {
		outs[i] = g.CheckOrder("alice", o.unit, o.text)
	}
	b.Run("raw copy output", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			c := outs[n%len(outs)]
			n++
			cp := ruleset.OrderCheck{Canonical: string([]byte(c.Canonical)), Preview: make([]string, len(c.Preview))}
			for i, l := range c.Preview {
				cp.Preview[i] = string([]byte(l))
			}
			if len(cp.Preview) == 0 {
				b.Fatal("no preview")
			}
		}
	})
	ig := benchGameFrom(b, "kent-impulse-1940")
	b.Run("impulse", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		texts := []string{"` ` TR", "1", "` TL FIRE ANY"}
		for b.Loop() {
			t := texts[n%len(texts)]
			n++
			if c := ig.CheckOrder("alice", "RED1", t); !c.OK() || len(c.Preview) == 0 {
				b.Fatal(c.Errors, c.Preview)
			}
		}
	})
}
