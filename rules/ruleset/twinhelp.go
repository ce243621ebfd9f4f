package ruleset

import (
	"sort"

	"sortie/rules/dice"
)

// Helpers for rulesets whose units share the shape of Swarm's squadrons and Thunderbolt & Lightning's
// units: an initiative roll each, events that carry their dice.

// InitiativeOrder sorts units in place into the order they act: the lowest initiative roll first
// (first, by name), a tie broken by the lower tie-break roll (tie, by name; none rolled counts as 0),
// and a tie left after that by name.
func InitiativeOrder[U any](units []*U, name func(*U) string, first, tie map[string]int) {
	sort.SliceStable(units, func(i, j int) bool {
		a, b := name(units[i]), name(units[j])
		if first[a] != first[b] {
			return first[a] < first[b]
		}
		if tie[a] != tie[b] {
			return tie[a] < tie[b]
		}
		return a < b
	})
}

// Rolls lists, in order, the dice of events (each event's rolls as rolls gives them): the rolls a side
// is shown beside the events it may see.
func Rolls[E any](events []E, rolls func(*E) []dice.Roll) []dice.Roll {
	var out []dice.Roll
	for i := range events {
		out = append(out, rolls(&events[i])...)
	}
	return out
}
