package rulesettest

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sortie/rules/hex"
	"sortie/rules/ruleset"
)

// Codes are the codes of a list of problems, sorted, whatever type the problems are (ruleset.Problem,
// ruleset.CalcProblem, a ruleset's own): each is read from its Code field. A type without one is the
// test's own mistake and panics.
func Codes[P any](ps []P) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, reflect.ValueOf(p).FieldByName("Code").String())
	}
	slices.Sort(out)
	return out
}

// Events are the events of a round's log, read into the ruleset's own event type; a log that does not
// read fails the test.
func Events[E any](t testing.TB, log *ruleset.Log) []E {
	t.Helper()
	var events []E
	if err := json.Unmarshal(log.Events, &events); err != nil {
		t.Fatal(err)
	}
	return events
}

// Lines are the texts of the events keep picks, a line each, in order.
func Lines[E any](events []E, keep func(E) (text string, ok bool)) string {
	var b strings.Builder
	for _, e := range events {
		if text, ok := keep(e); ok {
			b.WriteString(text + "\n")
		}
	}
	return b.String()
}

// AtClock is the hex dist hexes from `from` at a clock position, for a unit there facing facing; a hex
// that cannot be said so fails the test.
func AtClock(t testing.TB, from hex.Hex, facing hex.Dir, clock, dist int) hex.Hex {
	t.Helper()
	h, ok := hex.AtClock(from, facing, clock, dist)
	if !ok {
		t.Fatalf("no hex %d away at %d o'clock", dist, clock)
	}
	return h
}

// WhyNot checks the lines side read of why its orders did what they did not (got): want is among them,
// or, when want is "", there are none; and none tells of notWant, which fog of war hides from it.
func WhyNot(t testing.TB, side, got, want, notWant string) {
	t.Helper()
	switch {
	case want == "" && got != "":
		t.Errorf("no line is owed, got %q", got)
	case !strings.Contains(got, want):
		t.Errorf("%s reads %q, want %q", side, got, want)
	case notWant != "" && strings.Contains(got, notWant):
		t.Errorf("fog: %q tells %s of an enemy it never saw", got, side)
	}
}

// RoundStates are the states a Secrets oracle compares: before the round (nil when prev is, at the
// game's start) and after it; state reads a game's.
func RoundStates[S any](prev, g ruleset.Game, state func(ruleset.Game) *S) (before, after *S) {
	if prev != nil {
		before = state(prev)
	}
	return before, state(g)
}

// LoggedEvents are the events of a round's log in the ruleset's own type, as a Secrets oracle reads
// them: none when there is no log or it does not read (the kit's own checks answer for that).
func LoggedEvents[E any](log *ruleset.Log) []E {
	var events []E
	if log == nil || json.Unmarshal(log.Events, &events) != nil {
		return nil
	}
	return events
}

// Forecast is an order check a test pins: the unit, the order as written, and the canonical order and
// forecast its check must give.
type Forecast struct {
	Unit, Text, Canonical string
	Preview               []string
}

// CheckForecasts checks player's order check in g of each case: the canonical order and forecast as
// pinned, and the forecast line for line the oracle's (the same flight written out independently);
// when mustPass, every order must pass its check too.
func CheckForecasts(t *testing.T, g ruleset.Game, player string, mustPass bool, cases []Forecast, oracle func(Forecast) []string) {
	t.Helper()
	for _, c := range cases {
		chk := g.CheckOrder(player, c.Unit, c.Text)
		if mustPass && !chk.OK() || chk.Canonical != c.Canonical || !slices.Equal(chk.Preview, c.Preview) {
			t.Errorf("%s %q (%v):\n got %q\n%s\nwant %q\n%s", c.Unit, c.Text, chk.Errors, chk.Canonical,
				strings.Join(chk.Preview, "\n"), c.Canonical, strings.Join(c.Preview, "\n"))
		}
		if want := oracle(c); !slices.Equal(chk.Preview, want) {
			t.Errorf("%s %q: the forecast differs from the oracle's:\n%s\nwant\n%s", c.Unit, c.Text,
				strings.Join(chk.Preview, "\n"), strings.Join(want, "\n"))
		}
	}
}
