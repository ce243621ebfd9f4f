package rulesettest

import (
	"strings"

	"sortie/rules/ruleset"
)

// RollSecrets is the oracle's secrets a round's dice hold for a side: every roll in log whose label
// names, as one of its words, a unit in hidden (the units the side has not seen). A nil log holds none.
func RollSecrets(log *ruleset.Log, hidden map[string]bool) []Secret {
	if log == nil {
		return nil
	}
	var out []Secret
	for _, d := range log.Dice {
		for _, w := range strings.Fields(d.Label) {
			if hidden[w] {
				out = append(out, Secret{Text: d.Label, What: "a roll of unseen " + w})
				break
			}
		}
	}
	return out
}
