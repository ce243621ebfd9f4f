package rulesettest

import (
	"encoding/json"
	"testing"

	"sortie/rules/ruleset"
)

// FireCheck has the kit check that no fire order goes unanswered: after every round, each unit whose
// order the ruleset says is owed an answer has made an attack, or has a line in the log saying why it
// did not. Every ruleset answers at least an order naming its target; which FIRE ANY orders are owed
// (an enemy near, say) is the ruleset's rule.
type FireCheck struct {
	// Owed gives, for one unit's order in a round resolved from prev into next, the names whose
	// events must answer it (a Thunderbolt & Lightning unit's aircraft; usually the unit itself); nil
	// when nothing is owed (HOLD, FIRE ANY with no enemy near, a round that does not end the turn).
	Owed func(prev, next ruleset.Game, unit, order string) []string
	// Shots are the event kinds of an attack made; NoFire the kind of a line saying why one was not.
	Shots  []string
	NoFire string
}

// answered reads which units a log's events show attacking or saying why they did not: the "unit" or
// "plane" field of each event of those kinds.
func (c *FireCheck) answered(log *ruleset.Log) (map[string]bool, error) {
	var events []struct {
		Kind  string `json:"kind"`
		Unit  string `json:"unit"`
		Plane string `json:"plane"`
	}
	out := map[string]bool{}
	if len(log.Events) == 0 || string(log.Events) == "null" {
		return out, nil
	}
	if err := json.Unmarshal(log.Events, &events); err != nil {
		return nil, err
	}
	for _, e := range events {
		if e.Kind != c.NoFire && !contains(c.Shots, e.Kind) {
			continue
		}
		if e.Unit != "" {
			out[e.Unit] = true
		}
		if e.Plane != "" {
			out[e.Plane] = true
		}
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkFire checks a round's orders against its log (FireCheck); it returns how many answers it
// checked, so that the kit can tell a check that never ran.
func checkFire(t *testing.T, c *FireCheck, prev, next ruleset.Game, orders map[string]string, log *ruleset.Log) int {
	t.Helper()
	got, err := c.answered(log)
	if err != nil {
		t.Errorf("round %d: reading the log's events: %v", prev.Round(), err)
		return 0
	}
	n := 0
	for _, unit := range sortedOrderKeys(orders) {
		for _, name := range c.Owed(prev, next, unit, orders[unit]) {
			n++
			if !got[name] {
				t.Errorf("round %d: %s's order %q: %s neither attacked nor was told why not", prev.Round(), unit, orders[unit], name)
			}
		}
	}
	return n
}

func sortedOrderKeys(m map[string]string) []string {
	b := make(map[string][]byte, len(m))
	for k := range m {
		b[k] = nil
	}
	return sortedKeys(b)
}
