package ruleset

import (
	"reflect"
	"testing"

	"sortie/rules/dice"
)

type twinUnit struct{ name string }

// InitiativeOrder: the lowest roll first, a tie by the lower tie-break roll, then by name.
func TestInitiativeOrder(t *testing.T) {
	units := []*twinUnit{{name: "D"}, {name: "C"}, {name: "B"}, {name: "A"}}
	first := map[string]int{"A": 7, "B": 4, "C": 4, "D": 4}
	tie := map[string]int{"B": 9, "C": 2, "D": 2}
	InitiativeOrder(units, func(u *twinUnit) string { return u.name }, first, tie)
	var got []string
	for _, u := range units {
		got = append(got, u.name)
	}
	if want := []string{"C", "D", "B", "A"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// Rolls lists the events' dice in order.
func TestRolls(t *testing.T) {
	events := [][]dice.Roll{{{Label: "a"}}, nil, {{Label: "b"}, {Label: "c"}}}
	got := Rolls(events, func(e *[]dice.Roll) []dice.Roll { return *e })
	if len(got) != 3 || got[0].Label != "a" || got[2].Label != "c" {
		t.Errorf("Rolls: %+v", got)
	}
}
