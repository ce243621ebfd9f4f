package swarm

import (
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/swarm/notation"
)

// swarmSecrets is what a side has not seen: the enemy squadrons it had in sight neither before nor
// after the round (their callsigns and names), and every roll whose label names one of them.
func swarmSecrets(prev, g ruleset.Game, log *ruleset.Log, side string) []rulesettest.Secret {
	before, st := rulesettest.RoundStates(prev, g, func(g ruleset.Game) *State { return g.(*game).st })
	// A squadron that fought one of the side's own this round is known to it too, in sight or not.
	fought := map[string]bool{}
	for _, e := range rulesettest.LoggedEvents[Event](log) {
		if e.Kind != EvFire {
			continue
		}
		if e.Side == side {
			fought[e.Target] = true
		}
		if e.TargetSide == side {
			fought[e.Unit] = true
		}
	}
	seen := func(cs string) bool {
		return fought[cs] || st.Sight[side][cs] || (before != nil && before.Sight[side][cs])
	}
	var out []rulesettest.Secret
	hidden := map[string]bool{}
	for _, q := range st.Squadrons {
		if q.Side == side || seen(q.Callsign) {
			continue
		}
		hidden[q.Callsign] = true
		out = append(out, rulesettest.Secret{Text: q.Callsign, What: "the unseen enemy squadron"})
		if q.Name != "" {
			out = append(out, rulesettest.Secret{Text: q.Name, What: "the name of unseen " + q.Callsign})
		}
	}
	return append(out, rulesettest.RollSecrets(log, hidden)...)
}

// The conformance kit on Swarm: the bundled scenario played to its end, and plays that reach every
// event kind.
func TestConformance(t *testing.T) {
	rs := Ruleset{}
	rulesettest.Run(t, rs, rulesettest.BundledScenarios(t, rs), rulesettest.Oracle{
		Secrets:    swarmSecrets,
		EventKinds: EventKinds,
		Plays:      swarmPlays,
		Twins:      swarmTwins(),
		View:       swarmView,
		Rounds:     10,
		Fire:       &rulesettest.FireCheck{Shots: []string{EvFire}, NoFire: EvNoFire, Owed: swarmFireOwed},
	})
}

// swarmFireOwed: a squadron in play, not flying on a plotted course, whose legal order names its
// target is owed an attack or a line saying why not (seed 004, "Targeting and Firepower").
func swarmFireOwed(prev, _ ruleset.Game, unit, order string) []string {
	g := prev.(*game)
	q := g.st.Squadron(unit)
	if q == nil || !q.InPlay() || len(q.Queue) > 0 {
		return nil
	}
	o, ds := notation.ParseSwarmOrder(order)
	if parser.HasErrors(ds) || len(CheckOrder(g.d, g.st, q, o).Errors) > 0 || o.Turns[0].Fire.Mode != parser.FireTarget {
		return nil
	}
	return []string{unit}
}

func FuzzConformanceCheckOrder(f *testing.F) { rulesettest.FuzzBundledCheckOrder(f, Ruleset{}) }

var swarmPlays = []rulesettest.Play{}

// clashGame: two RAF squadrons meet a Dornier Staffel in clear sky (no cloud cover), over a target.
const clashGame = rafLuftwaffe + `name: clash
turns: 6
squadrons:
  - {callsign: TIGER, name: Tigers, type: spitfire-i, side: RAF, player: ann, hex: [0, 0], facing: 150, tack: 2 S M}
  - {callsign: LION, name: Lions, type: hurricane-i, side: RAF, player: ann, hex: [1, 0], facing: 150, tack: 2 S M}
  - {callsign: ADLER, name: Adler, type: do-17z, side: Luftwaffe, player: ben, hex: [3, 3], facing: 330, tack: 1 S M, filled: 5}
targets:
  - {name: DOCK, side: RAF, hex: [2, 2], strength: 2}
`

// cloudGame: the same squadrons far apart under cloud cover, plotting courses until they sight each
// other.
const cloudGame = rafLuftwaffe + `name: cloud
visibility: 3
turns: 8
squadrons:
  - {callsign: TIGER, name: Tigers, type: spitfire-i, side: RAF, player: ann, hex: [0, 0], facing: 150, tack: 2 S M}
  - {callsign: ADLER, name: Adler, type: do-17z, side: Luftwaffe, player: ben, hex: [8, 8], facing: 330, tack: 1 S M}
  - {callsign: FALKE, name: Falken, type: bf-109e, side: Luftwaffe, player: ben, hex: [30, 30], facing: 330, tack: 2 S M}
`

func init() {
	swarmPlays = []rulesettest.Play{
		{Name: "clash", Scenario: []byte(clashGame), Dice: rulesettest.FixedDice(true), Rounds: []map[string]string{
			{"TIGER": "9 S M 9", "ADLER": "1 S M 1 BOMB"}, {}, nil, nil, nil, nil,
		}},
		// Named targets, one behind: every one is attacked or told why not.
		{Name: "clash at named targets", Scenario: []byte(clashGame), Rounds: []map[string]string{
			{"TIGER": "2 S M 2 FIRE ADLER", "LION": "2 S M 2 FIRE ADLER", "ADLER": "1 S M 1 FIRE LION"}, {"TIGER": "2 S M 2 FIRE ADLER", "ADLER": "1 S M 1 FIRE TIGER"}, nil,
		}},
		{Name: "clash on turning dice", Scenario: []byte(clashGame), Dice: rulesettest.CyclingDice, Rounds: []map[string]string{
			nil, nil, nil, nil,
		}},
		{Name: "cloud", Scenario: []byte(cloudGame), Rounds: []map[string]string{
			{"TIGER": strings.Repeat("2 S M 2; ", 5) + "2 S M 2", "ADLER": strings.Repeat("1 S M 1; ", 5) + "1 S M 1"}, {}, {}, {}, {}, {},
		}},
	}
}
