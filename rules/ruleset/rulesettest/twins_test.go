package rulesettest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// ghostRuleset is a game just big enough to test the twins check: north's N sees south's S only
// within three cells; S has a speed north never sees, and a leaky report tells it.
type ghostRuleset struct{ leak bool }

type ghostState struct {
	N, S, Speed, Round int
}

type ghostGame struct {
	st   ghostState
	leak bool
}

func (r ghostRuleset) Name() string             { return "ghost" }
func (r ghostRuleset) Version() (string, error) { return "1", nil }
func (r ghostRuleset) NewGame(b []byte, _ fs.FS, _ string) (ruleset.Game, error) {
	var st ghostState
	if _, err := fmt.Sscanf(string(b), "%d %d %d", &st.N, &st.S, &st.Speed); err != nil {
		return nil, err
	}
	st.Round = 1
	return &ghostGame{st: st, leak: r.leak}, nil
}
func (r ghostRuleset) Load(b []byte) (ruleset.Game, error) {
	g := &ghostGame{leak: r.leak}
	return g, json.Unmarshal(b, &g.st)
}

func (g *ghostGame) Save() ([]byte, error)        { return json.Marshal(g.st) }
func (g *ghostGame) Hash() string                 { return "" }
func (g *ghostGame) Name() string                 { return "ghost" }
func (g *ghostGame) Round() int                   { return g.st.Round }
func (g *ghostGame) RoundLimit() int              { return 0 }
func (g *ghostGame) Over() (bool, string)         { return false, "" }
func (g *ghostGame) DefaultOrder(string) string   { return "" }
func (g *ghostGame) Units(player string) []string { return []string{strings.ToUpper(player)} }
func (g *ghostGame) Players() []ruleset.Player {
	return []ruleset.Player{{ID: "n", Side: "north"}, {ID: "s", Side: "south"}}
}
func (g *ghostGame) CheckOrder(_, _, text string) ruleset.OrderCheck {
	return ruleset.OrderCheck{Canonical: text}
}
func (g *ghostGame) Resolve(map[string]string, dice.Source) (ruleset.Game, *ruleset.Log, error) {
	st := g.st
	st.S -= st.Speed
	st.Round++
	return &ghostGame{st: st, leak: g.leak}, &ruleset.Log{Round: g.st.Round}, nil
}
func (g *ghostGame) Report(player string, _ *ruleset.Log) ruleset.Report {
	r := ruleset.Report{Side: "north", Round: g.st.Round - 1, NextRound: g.st.Round}
	if player == "s" {
		r.Side = "south"
		return r
	}
	if g.st.S-g.st.N <= 3 {
		c := ruleset.Unit{Name: "S", Summary: fmt.Sprintf("cell %d", g.st.S)}
		if g.leak {
			c.Detail = []string{fmt.Sprintf("came %d cells", g.st.Speed)}
		}
		r.Contacts = append(r.Contacts, c)
	}
	return r
}

// recorder is a failer that keeps what failed; Fatalf stops the play (playTwins' caller recovers).
type recorder struct{ errs []string }

type fatal struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(fatal{})
}

func runTwins(rs ruleset.Ruleset, tw Twins) (errs []string) {
	r := &recorder{}
	defer func() {
		if p := recover(); p != nil && p != (fatal{}) {
			panic(p)
		}
		errs = r.errs
	}()
	playTwins(r, rs, tw, Oracle{Seed: 1})
	return nil
}

// The twins check fails a ruleset whose report tells a side what it could not see (here how far an
// enemy came before it was in sight, as the Air Force view did: issue "Fog and faults", defect 1), passes
// one that does not, and refuses twins that never differ.
func TestTwinsFindWhatASideCouldNotSee(t *testing.T) {
	tw := Twins{Name: "S came 6 or 4 cells", Side: "north",
		A: Play{Scenario: []byte("0 8 6"), Rounds: make([]map[string]string, 1)},
		B: Play{Scenario: []byte("0 6 4"), Rounds: make([]map[string]string, 1)}}
	if errs := runTwins(ghostRuleset{leak: true}, tw); len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), "came 6 cells") {
		t.Errorf("a report telling how far an unseen enemy came passed the twins check: %q", errs)
	}
	if errs := runTwins(ghostRuleset{}, tw); len(errs) != 0 {
		t.Errorf("a report telling only what north saw failed the twins check: %q", errs)
	}
	same := Twins{Name: "one game", Side: "north", A: tw.A, B: tw.A}
	if errs := runTwins(ghostRuleset{}, same); len(errs) == 0 || !strings.Contains(errs[0], "never differ") {
		t.Errorf("twins that are one game passed: %q", errs)
	}
}
