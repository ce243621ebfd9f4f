package rulesettest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"testing"

	"sortie/rules/ruleset"
)

// Order is one order line as a player mails it: whose, for which unit, and the text.
type Order struct{ Player, Unit, Text string }

// DefaultOrders is every unit's default order in g's round, player by player.
func DefaultOrders(g ruleset.Game) []Order {
	var out []Order
	for _, p := range g.Players() {
		for _, u := range g.Units(p.ID) {
			out = append(out, Order{p.ID, u, g.DefaultOrder(u)})
		}
	}
	return out
}

// BenchCheckOrder is one order checked as the mail intake checks it, through the ruleset
// (Game.CheckOrder), the orders taken in turn, run as name; every order must pass and have a forecast.
// When parse is not nil, the "raw" figures beside it in the same run are parse of the same lines alone
// ("raw parse") and the copying of the same output strings (the canonical text and each forecast line)
// into fresh strings ("raw copy output").
func BenchCheckOrder(b *testing.B, name string, g ruleset.Game, orders []Order, parse func(string)) {
	outs := make([]ruleset.OrderCheck, len(orders))
	for i, o := range orders {
		if outs[i] = g.CheckOrder(o.Player, o.Unit, o.Text); !outs[i].OK() || len(outs[i].Preview) == 0 {
			b.Fatalf("%+v: %+v", o, outs[i])
		}
	}
	benchOrders(b, name, orders, func(b *testing.B, o Order) {
		if c := g.CheckOrder(o.Player, o.Unit, o.Text); !c.OK() || len(c.Preview) == 0 {
			b.Fatal(c.Errors, c.Preview)
		}
	})
	if parse == nil {
		return
	}
	benchOrders(b, "raw parse", orders, func(_ *testing.B, o Order) { parse(o.Text) })
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

// BenchPlan is one order tried on the plotting board (Plan: the check with the track and the reach), the
// orders taken in turn, beside CheckOrder of the same orders alone ("raw check"); every plan must have a
// track and every check pass.
func BenchPlan(b *testing.B, g interface {
	ruleset.Game
	ruleset.Planner
}, orders []Order) {
	benchOrders(b, "plan", orders, func(b *testing.B, o Order) {
		if p := g.Plan(o.Player, o.Unit, o.Text); len(p.Path) == 0 {
			b.Fatal(p.Check)
		}
	})
	benchOrders(b, "raw check", orders, func(b *testing.B, o Order) {
		if c := g.CheckOrder(o.Player, o.Unit, o.Text); !c.OK() {
			b.Fatal(c.Errors)
		}
	})
}

// benchOrders runs name as a sub-benchmark of b that hands do the orders in turn (with the
// sub-benchmark, to fail), counting allocations.
func benchOrders(b *testing.B, name string, orders []Order, do func(*testing.B, Order)) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			do(b, orders[n%len(orders)])
			n++
		}
	})
}

// NewGame is rs's game of a scenario, as the ruleset's own game type G; a scenario rs refuses fails t.
func NewGame[G ruleset.Game](t testing.TB, rs ruleset.Ruleset, scenario, source string) G {
	t.Helper()
	g, err := rs.NewGame([]byte(scenario), nil, source)
	if err != nil {
		t.Fatal(err)
	}
	return g.(G)
}

// Bundled is rs's game of its bundled scenario name (ruleset.Bundled), as G.
func Bundled[G ruleset.Game](t testing.TB, rs interface {
	ruleset.Ruleset
	ruleset.Bundled
}, name string) G {
	t.Helper()
	data, err := fs.ReadFile(rs.Scenarios(), name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return NewGame[G](t, rs, string(data), name+".yaml")
}

// CalcJSON runs a calculator command (ruleset.Command's Run) in-process with args, which ask for JSON,
// and reads its answer into a T; legal reads the answer's verdict. A usage error is returned as it
// came; an answer that is not JSON, or a verdict the exit status contradicts, fails t.
func CalcJSON[T any](t testing.TB, run func([]string, io.Writer) error, args []string, legal func(T) bool) (T, error) {
	t.Helper()
	var buf bytes.Buffer
	var out T
	err := run(args, &buf)
	if err != nil && !errors.Is(err, ruleset.ErrIllegal) {
		return out, err
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("calc %q: %v\n%s", args, err, buf.String())
	}
	if (err == nil) != legal(out) {
		t.Fatalf("calc %q: exit %v but legal=%v", args, err, legal(out))
	}
	return out, nil
}
