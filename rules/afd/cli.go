package afd

import "sortie/rules/ruleset"

// CalcCommands are the Air Force calculator's subcommands (ruleset.Calculator): `sortie calc NAME`.
func (Ruleset) CalcCommands() []ruleset.Command {
	return []ruleset.Command{
		{Name: "move", Synopsis: "fly a plot and show it hex by hex (sortie calc move --help)", Run: calcMove},
		{Name: "fire", Synopsis: "one burst read off the tables, and its damage (--help)", Run: calcFire},
		{Name: "damage", Synopsis: "a hit-location result applied to a fresh aircraft (--help)", Run: calcDamage},
		{Name: "bomb", Synopsis: "a bombing or rocket attack on the standard bombing table, seed 002 (--help)", Run: calcBomb},
		{Name: "target", Synopsis: "the damage an attack does to a ground target, seed 002 (--help)", Run: calcTarget},
		{Name: "flak", Synopsis: "a light, heavy or naval flak unit's attack value, seed 002 (--help)", Run: calcFlak},
		{Name: "flak-hit", Synopsis: "a flak attack on an aircraft with given dice: the hits it makes (--help)", Run: calcFlakHit},
		{Name: "torpedo", Synopsis: "a torpedo drop and its hit, seed 002 (--help)", Run: calcTorpedo},
		{Name: "impulses", Synopsis: "the impulses a plane of a given speed moves in, Delta-T (--help)", Run: calcImpulses},
	}
}

// Commands are the Air Force ruleset's own top-level commands (ruleset.Tools).
func (Ruleset) Commands() []ruleset.Command {
	return []ruleset.Command{
		{Name: "aircraft", Synopsis: "list the aircraft types, or show one's card: bands, speeds, turn modes, guns (aircraft list | aircraft show KEY [--json])", Run: cmdAircraft},
	}
}

// UnitNoun names the ruleset's units in mails (ruleset.Vocabulary).
func (Ruleset) UnitNoun() (string, string) { return "aircraft", "aircraft" }
