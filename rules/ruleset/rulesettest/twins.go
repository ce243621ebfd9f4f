package rulesettest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// Twins are two plays of one game that differ only in what one side could not see: an enemy that came
// from farther or nearer while out of sight, flew faster or slower, carried its bombs or had dropped
// them, or was not there at all. The kit plays both with the same keyed dice (as the adjudicator
// throws them, so a side's rolls never shift with its hidden enemies' rolls) and, before the first
// round and after each, requires that Side is told the very same things in both: which of its players
// are mailed and for which units, every report of its players (text, map, dice), its map picture, the check of every one of its units' default orders, the
// computer pilot's orders for each of its players (ruleset.Piloted) and, when the oracle can read it,
// the side's view itself (Oracle.View). Fog of war is then more than names and hexes left out: nothing
// a side receives, and nothing its pilot decides, may depend on what its pilots could not see.
//
// A and B must differ somewhere (their saved states, before or after some round), or the twins prove
// nothing. Their rounds are played as Play's rounds are: a nil round gives every unit its default order.
type Twins struct {
	Name string
	Side string
	A, B Play
}

// checkTwins plays each pair of twins and compares what their Side is told, round by round.
func checkTwins(t *testing.T, rs ruleset.Ruleset, o Oracle) {
	t.Helper()
	for _, tw := range o.Twins {
		t.Run("unseen "+tw.Name, func(t *testing.T) { playTwins(t, rs, tw, o) })
	}
}

// failer is what playTwins needs of a test: a *testing.T, or the kit's own test's recorder.
type failer interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

func playTwins(t failer, rs ruleset.Ruleset, tw Twins, o Oracle) {
	t.Helper()
	a, err := rs.NewGame(tw.A.Scenario, nil, "a.yaml")
	if err != nil {
		t.Fatalf("NewGame of twin A: %v", err)
	}
	b, err := rs.NewGame(tw.B.Scenario, nil, "b.yaml")
	if err != nil {
		t.Fatalf("NewGame of twin B: %v", err)
	}
	if len(tw.A.Rounds) != len(tw.B.Rounds) {
		t.Fatalf("twin A plays %d rounds, twin B %d", len(tw.A.Rounds), len(tw.B.Rounds))
	}
	players := sidePlayers(a, tw.Side)
	if len(players) == 0 {
		t.Fatalf("no player of twin A plays side %q", tw.Side)
	}
	differ := false
	compare := func(when string, log1, log2 *ruleset.Log) {
		t.Helper()
		sa, _ := a.Save()
		sb, _ := b.Save()
		differ = differ || !bytes.Equal(sa, sb)
		ta, tb := toldTo(t, a, tw.Side, log1, o), toldTo(t, b, tw.Side, log2, o)
		for _, k := range sortedTold(ta, tb) {
			if ta[k] != tb[k] {
				t.Errorf("%s: side %s is told different things in two games that differ only in what it could not see: %s\n--- A ---\n%s\n--- B ---\n%s",
					when, tw.Side, k, clip(firstDiff(ta[k], tb[k])), clip(firstDiff(tb[k], ta[k])))
			}
		}
	}
	compare("before the first round", nil, nil)
	seed := dice.SeedFromUint64(o.Seed)
	for i := range tw.A.Rounds {
		if over, _ := a.Over(); over {
			break
		}
		throw := func(p Play) dice.Source {
			if p.Dice != nil {
				return p.Dice(i + 1)
			}
			return dice.NewKeyed(seed.Stream(fmt.Sprintf("round %d", i+1)))
		}
		na, la, err := a.Resolve(roundOrders(a, tw.A.Rounds[i]), throw(tw.A))
		if err != nil {
			t.Fatalf("round %d of twin A: %v", i+1, err)
		}
		nb, lb, err := b.Resolve(roundOrders(b, tw.B.Rounds[i]), throw(tw.B))
		if err != nil {
			t.Fatalf("round %d of twin B: %v", i+1, err)
		}
		a, b = na, nb
		compare(fmt.Sprintf("after round %d", i+1), la, lb)
	}
	if !differ {
		t.Errorf("twins %q never differ: they are one game, and prove nothing", tw.Name)
	}
}

// roundOrders is a play's round of orders, or every unit's default order for a nil round.
func roundOrders(g ruleset.Game, given map[string]string) map[string]string {
	orders := map[string]string{}
	for u, text := range given {
		orders[u] = text
	}
	if given == nil {
		for _, p := range g.Players() {
			for _, u := range g.Units(p.ID) {
				orders[u] = g.DefaultOrder(u)
			}
		}
	}
	return orders
}

func sidePlayers(g ruleset.Game, side string) []ruleset.Player {
	var out []ruleset.Player
	for _, p := range g.Players() {
		if p.Side == side {
			out = append(out, p)
		}
	}
	return out
}

// toldTo is everything a side receives from g after the round in log, and its pilot's orders, by what
// it is.
func toldTo(t failer, g ruleset.Game, side string, log *ruleset.Log, o Oracle) map[string]string {
	t.Helper()
	out := map[string]string{}
	put := func(k string, v any) {
		b, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Fatalf("%s does not marshal: %v", k, err)
		}
		out[k] = string(b)
	}
	if o.View != nil {
		put("the side's view", o.View(g, side))
	}
	for _, p := range sidePlayers(g, side) {
		put(p.ID+"'s units to order", ruleset.OrderableUnits(g, p.ID))
		put("whether "+p.ID+" is mailed", ruleset.ReportsTo(g, p.ID))
		r := g.Report(p.ID, log)
		put(p.ID+"'s report", r)
		if sc := r.Picture(); sc != nil {
			put(p.ID+"'s map picture", sc)
		}
		if pl, ok := g.(ruleset.Piloted); ok {
			put(p.ID+"'s computer pilot's orders", pl.PilotOrders(p.ID))
		}
		for _, u := range ruleset.OrderableUnits(g, p.ID) {
			put(fmt.Sprintf("the check of %s's default order for %s", p.ID, u), g.CheckOrder(p.ID, u, g.DefaultOrder(u)))
			if pl, ok := g.(ruleset.Planner); ok {
				// The plotting board: the plan of the default order (its track and reach) and the
				// notation help beside the unit's plot field.
				put(fmt.Sprintf("the board's plan of %s's default order for %s", p.ID, u), pl.Plan(p.ID, u, g.DefaultOrder(u)))
				put(fmt.Sprintf("the board's help for %s's %s", p.ID, u), pl.PlotHelp(p.ID, u))
			}
		}
	}
	return out
}

func sortedTold(a, b map[string]string) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// firstDiff is s from a few lines before its first line that differs from other.
func firstDiff(s, other string) string {
	sl, ol := strings.Split(s, "\n"), strings.Split(other, "\n")
	i := 0
	for i < len(sl) && i < len(ol) && sl[i] == ol[i] {
		i++
	}
	return strings.Join(sl[max(i-3, 0):min(i+6, len(sl))], "\n")
}
