package swarm

import "sortie/rules/ruleset"

// CalcCommands are the Swarm calculator's subcommands (ruleset.Calculator): `sortie calc NAME --ruleset
// swarm`.
func (Ruleset) CalcCommands() []ruleset.Command {
	return []ruleset.Command{
		{Name: "move", Synopsis: "fly one squadron's plot and show it segment by segment (--help)", Run: calcSwarmMove},
		{Name: "fire", Synopsis: "one squadron's attack and the target's evasive saves (--help)", Run: calcSwarmFire},
	}
}

// UnitNoun names the ruleset's units in mails (ruleset.Vocabulary).
func (Ruleset) UnitNoun() (string, string) { return "squadron", "squadrons" }
