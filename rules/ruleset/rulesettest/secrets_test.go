package rulesettest

import (
	"slices"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// RollSecrets: a roll is a secret when a word of its label is an unseen unit, once however many it
// names; a roll of seen units is not, nor is a unit's name inside another word.
func TestRollSecrets(t *testing.T) {
	log := &ruleset.Log{Dice: []dice.Roll{
		{Label: "turn 1 RED1 fires at JAGD1"}, {Label: "turn 1 JAGD1 fires at JAGD2"}, {Label: "turn 1 JAGD12 save"},
	}}
	got := RollSecrets(log, map[string]bool{"JAGD1": true, "JAGD2": true})
	want := []Secret{{Text: "turn 1 RED1 fires at JAGD1", What: "a roll of unseen JAGD1"}, {Text: "turn 1 JAGD1 fires at JAGD2", What: "a roll of unseen JAGD1"}}
	if !slices.Equal(got, want) {
		t.Errorf("secrets %+v, want %+v", got, want)
	}
	if got := RollSecrets(nil, map[string]bool{"JAGD1": true}); got != nil {
		t.Errorf("a round with no log: %+v", got)
	}
}

// Codes reads the Code of any problem type, sorted.
func TestCodesOfAnyProblemType(t *testing.T) {
	if got := Codes([]ruleset.Problem{{Code: "b"}, {Code: "a"}}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Problem: %v", got)
	}
	if got := Codes([]ruleset.CalcProblem{{Code: "z"}, {Code: "z"}}); !slices.Equal(got, []string{"z", "z"}) {
		t.Errorf("CalcProblem: %v", got)
	}
	if got := Codes([]ruleset.Problem(nil)); got == nil || len(got) != 0 {
		t.Errorf("none: %#v", got)
	}
}
