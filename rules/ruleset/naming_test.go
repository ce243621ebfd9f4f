package ruleset

import "testing"

// Every surface names a round through the report (Title, NextTitle, Played), so a subject, a report's
// text, its order block and the end of the game cannot count differently.
func TestRoundNames(t *testing.T) {
	cases := []struct {
		name                string
		r                   Report
		title, next, played string
	}{
		{"a turn", Report{Round: 3, NextRound: 4}, "turn 3", "turn 4", "turn 3"},
		{"a round of several turns", Report{Round: 1, LastTurn: 3, NextRound: 4}, "turns 1-3", "turn 4", "turn 3"},
		{"a round of one turn that says so", Report{Round: 4, LastTurn: 4, NextRound: 5}, "turn 4", "turn 5", "turn 4"},
		{"a round that is not a turn", Report{Noun: "round", Round: 3, NextRound: 4, When: "turn 1, impulse 6", LastTurn: 1},
			"round 3 (turn 1, impulse 6)", "round 4", "turn 1, impulse 6"},
		{"the opening", Report{NextRound: 1}, "the opening positions", "turn 1", "the opening positions"},
	}
	for _, c := range cases {
		if got := c.r.Title(); got != c.title {
			t.Errorf("%s: Title %q, want %q", c.name, got, c.title)
		}
		if got := c.r.NextTitle(); got != c.next {
			t.Errorf("%s: NextTitle %q, want %q", c.name, got, c.next)
		}
		if got := c.r.Played(); got != c.played {
			t.Errorf("%s: Played %q, want %q", c.name, got, c.played)
		}
	}
	if got := (Report{Noun: "round", NextRound: 4}).BlockWord(); got != "ROUND" {
		t.Errorf("the order block's word for a round: %q", got)
	}
	if got := (Report{NextRound: 4}).BlockWord(); got != "TURN" {
		t.Errorf("the order block's word for a turn: %q", got)
	}
}
