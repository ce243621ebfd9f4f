package tnl

import (
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/tnl/notation"
)

// tnlSecrets is what a side has not seen: the enemy aircraft it had in sight neither before nor after
// the turn and did not fight, their units' names when no aircraft of the unit was seen, and every roll
// whose label names one of them.
func tnlSecrets(prev, g ruleset.Game, log *ruleset.Log, side string) []rulesettest.Secret {
	before, st := rulesettest.RoundStates(prev, g, func(g ruleset.Game) *State { return g.(*game).st })
	fought := map[string]bool{}
	for _, e := range rulesettest.LoggedEvents[Event](log) {
		if (e.Kind == EvFire) && e.Side == side && e.Shot != nil && e.Shot.Suffered > 0 {
			fought[e.Target] = true
		}
	}
	seen := func(cs string) bool {
		return fought[cs] || st.Sight[side][cs] || before != nil && before.Sight[side][cs]
	}
	var out []rulesettest.Secret
	hidden := map[string]bool{}
	unitSeen := map[string]bool{}
	for _, a := range st.Aircraft {
		if a.Side != side && seen(a.Callsign) {
			unitSeen[a.Unit] = true
		}
	}
	for _, a := range st.Aircraft {
		if a.Side == side || seen(a.Callsign) {
			continue
		}
		hidden[a.Callsign] = true
		out = append(out, rulesettest.Secret{Text: a.Callsign, What: "the unseen enemy aircraft"})
		if !unitSeen[a.Unit] && a.Unit != a.Callsign {
			out = append(out, rulesettest.Secret{Text: a.Unit, What: "the unit of unseen " + a.Callsign})
		}
	}
	return append(out, rulesettest.RollSecrets(log, hidden)...)
}

// The conformance kit on Thunderbolt & Lightning: the bundled scenario played on default orders, and
// plays that reach every event kind.
func TestConformance(t *testing.T) {
	rs := Ruleset{}
	rulesettest.Run(t, rs, rulesettest.BundledScenarios(t, rs), rulesettest.Oracle{
		Secrets:    tnlSecrets,
		EventKinds: EventKinds,
		Plays:      tnlPlays,
		Twins:      tnlTwins(),
		View:       tnlView,
		Rounds:     8,
		Fire:       &rulesettest.FireCheck{Shots: []string{EvFire}, NoFire: EvNoFire, Owed: tnlFireOwed},
	})
}

// tnlFireOwed: each aircraft in play of a unit whose legal order names its target is owed dice thrown
// or a line saying why not (seed 003, "Combat"; the standing fire order, docs/tnl.md).
func tnlFireOwed(prev, _ ruleset.Game, unit, order string) []string {
	g := prev.(*game)
	u := g.st.UnitNamed(unit)
	if u == nil {
		return nil
	}
	o, ds := notation.Parse(order)
	if parser.HasErrors(ds) || len(CheckOrder(g.d, g.st, u, o).Errors) > 0 || o.Unit().Fire.Mode != notation.FireTarget {
		return nil
	}
	var out []string
	for _, a := range g.st.Flying(u) {
		out = append(out, a.Callsign)
	}
	return out
}

func FuzzConformanceCheckOrder(f *testing.F) { rulesettest.FuzzBundledCheckOrder(f, Ruleset{}) }

// dogfight: two pairs meet head on at the same level, close enough to fire in phase 1.
const dogfight = rafLuftwaffe + `name: dogfight
turns: 4
aircraft:
  - {callsign: RED1, type: spitfire-i, unit: RED, side: RAF, player: ann, hex: [0, 6], facing: 0, level: M, speed: 6, training: multi-ace, skills: [aim, lucky, jinx]}
  - {callsign: RED2, type: spitfire-i, unit: RED, side: RAF, player: ann, hex: [1, 6], facing: 0, level: M, speed: 6}
  - {callsign: JAGD1, type: bf-109e, unit: JAGD, side: Luftwaffe, player: ben, hex: [0, -6], facing: 180, level: M, speed: 6, training: ace, skills: [deadly, agile]}
  - {callsign: JAGD2, type: bf-109e, unit: JAGD, side: Luftwaffe, player: ben, hex: [1, -7], facing: 180, level: M, speed: 6}
`

// fleet: torpedo and dive bombers go for a carrier with a destroyer, under fog of war, a Zero and an
// Avenger far from everything.
const fleet = usnIJN + `name: fleet
turns: 4
visibility: 12
options: {loaded_modifiers: true}
aircraft:
  - {callsign: SBD1, type: sbd-3, unit: BOMBING, side: USN, player: ann, hex: [0, 5], facing: 0, level: M, speed: 4}
  - {callsign: TBF1, type: tbf-1, unit: TORPS, side: USN, player: ann, hex: [3, 8], facing: 0, level: VL, speed: 4}
  - {callsign: TBF2, type: tbf-1, unit: TORPS2, side: USN, player: ann, hex: [-5, 10], facing: 0, level: VL, speed: 4}
  - {callsign: LONELY, type: tbf-1, side: USN, player: ann, hex: [40, 40], facing: 0, level: VL, speed: 4}
  - {callsign: ZEKE, type: a6m2, unit: SHOTAI, side: IJN, player: ben, hex: [0, -30], facing: 180, level: VL, speed: 6}
  - {callsign: FAR, type: a6m2, side: IJN, player: ben, hex: [-60, -60], facing: 180, level: H, speed: 6}
ships:
  - {callsign: KAGA, name: Kaga, side: IJN, hex: [0, 0], facing: 0, speed: 0, points: 80, aa: {heavy: 2}}
  - {callsign: DD1, side: IJN, hex: [20, -20], facing: 0, speed: 2, points: 30, aa: {light: 4}, radar: true}
victory:
  - {side: USN, kind: sink, ship: KAGA, points: 5}
  - {side: IJN, kind: destroy, aircraft: [SBD1, TBF1], points: 1}
`

var tnlPlays []rulesettest.Play

func init() {
	tnlPlays = []rulesettest.Play{
		{Name: "dogfight", Scenario: []byte(dogfight), Rounds: []map[string]string{
			{"RED": "6 / 6 FIRE ANY", "JAGD": "6 / 6 FIRE ANY"}, {"RED": "3 TL 3 / 6"}, {"RED": "RL 4 / 6 FIRE 2"}, nil,
		}},
		// Named targets, some out of reach: every one fires or is told why not.
		{Name: "dogfight at named targets", Scenario: []byte(dogfight), Rounds: []map[string]string{
			{"RED": "6 / 6 FIRE JAGD2", "JAGD": "6 / 6 FIRE RED1"}, {"RED": "3 TL 3 / 6 FIRE JAGD1", "JAGD": "6 / 6 FIRE RED2"},
		}},
		{Name: "dogfight on high dice", Scenario: []byte(dogfight), Dice: rulesettest.FixedDice(true), Rounds: []map[string]string{
			{"RED": "6 / 6 FIRE ANY", "JAGD": "6 / 6 FIRE ANY"}, nil, nil, nil,
		}},
		{Name: "dogfight on low dice", Scenario: []byte(dogfight), Dice: rulesettest.FixedDice(false), Rounds: []map[string]string{
			{"RED": "6 / 6 FIRE ANY", "JAGD": "6 / 6 FIRE ANY"}, {"RED": "9 TL 9 / 9"}, nil,
		}},
		{Name: "fleet", Scenario: []byte(fleet), Dice: rulesettest.FixedDice(true), Rounds: []map[string]string{
			{"BOMBING": "DIVE 3 / 3 BOMB KAGA", "TORPS": "3 / 3 TORPEDO KAGA", "TORPS2": "3 / 3 TORPEDO KAGA"}, nil, nil, nil,
		}},
		{Name: "fleet on turning dice", Scenario: []byte(fleet), Dice: rulesettest.CyclingDice, Rounds: []map[string]string{
			{"BOMBING": "DIVE 3 / 3 BOMB KAGA", "TORPS": "3 / 3 TORPEDO KAGA"}, nil, nil, nil,
		}},
	}
}
