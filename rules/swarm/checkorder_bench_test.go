package swarm

import (
	"testing"

	"sortie/rules/ruleset"
	"sortie/rules/swarm/notation"
)

// BenchmarkCheckOrder is one order checked as the mail intake checks it, through the ruleset
// (Game.CheckOrder): every unit's default order of the kanalkampf-1940 scenario in turn. The "raw" figures
// beside it, in the same run, are notation.ParseSwarmOrder of the same lines alone and the copying of the same
// output strings (the canonical text and each forecast line) into fresh strings.
func BenchmarkCheckOrder(b *testing.B) {
	scn, err := BundledScenarioFile("kanalkampf-1940")
	if err != nil {
		b.Fatal(err)
	}
	g, err := Ruleset{}.NewGame(scn, nil, "kanalkampf-1940.yaml")
	if err != nil {
		b.Fatal(err)
	}
	type order struct{ player, unit, text string }
	var orders []order
	for _, p := range g.Players() {
		for _, u := range g.Units(p.ID) {
			orders = append(orders, order{p.ID, u, g.DefaultOrder(u)})
		}
	}
	outs := make([]ruleset.OrderCheck, len(orders))
	for i, o := range orders {
		if outs[i] = g.CheckOrder(o.player, o.unit, o.text); !outs[i].OK() || len(outs[i].Preview) == 0 {
			b.Fatalf("%+v: %+v", o, outs[i])
		}
	}
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			o := orders[n%len(orders)]
			n++
			if c := g.CheckOrder(o.player, o.unit, o.text); !c.OK() {
				b.Fatal(c.Errors)
			}
		}
	})
	b.Run("raw parse", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			o := orders[n%len(orders)]
			n++
			notation.ParseSwarmOrder(o.text)
		}
	})
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
		}
	})
}
