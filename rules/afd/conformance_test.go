package afd

import (
	"fmt"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// afdSecrets is what a side has not seen: the enemy planes it had spotted neither before nor after the
// round, the hexes they stood in (unless the side's own planes stood in or flew through them, or a
// spotted enemy is there), and every roll thrown for an enemy plane.
func afdSecrets(prev, g ruleset.Game, log *ruleset.Log, side string) []rulesettest.Secret {
	before, st := rulesettest.RoundStates(prev, g, func(g ruleset.Game) *State { return g.(*game).st })
	known := map[string]bool{}
	mark := func(q, r int) { known[fmt.Sprintf("(%d,%d)", q, r)] = true }
	for _, s := range []*State{before, st} {
		if s == nil {
			continue
		}
		for _, p := range s.Planes {
			if p.Side == side || s.Sight[side][p.Callsign].Spotted {
				mark(p.Flight.Hex.Q, p.Flight.Hex.R)
			}
		}
		for i := range s.Ground {
			if u := &s.Ground[i]; groundSeen(s, side, u) {
				mark(u.Hex.Q, u.Hex.R)
			}
		}
	}
	for _, e := range rulesettest.LoggedEvents[Event](log) {
		if e.Side == side && e.Move != nil {
			for _, h := range e.Move.Path {
				mark(h.Q, h.R)
			}
			mark(e.Move.From.Q, e.Move.From.R)
			mark(e.Move.To.Q, e.Move.To.R)
		}
	}
	var out []rulesettest.Secret
	seen := func(cs string) bool {
		return st.Sight[side][cs].Spotted || (before != nil && before.Sight[side][cs].Spotted)
	}
	for _, s := range []*State{before, st} {
		if s == nil {
			continue
		}
		for _, p := range s.Planes {
			if p.Side == side || seen(p.Callsign) {
				continue
			}
			out = append(out, rulesettest.Secret{Text: p.Callsign, What: "the unseen enemy plane"})
			if pos := fmt.Sprintf("(%d,%d)", p.Flight.Hex.Q, p.Flight.Hex.R); !known[pos] {
				out = append(out, rulesettest.Secret{Text: pos, What: "the hex of unseen " + p.Callsign, Position: true})
			}
		}
	}
	// Enemy trucks, tanks and ships the side's aircraft have not seen, before or after the round.
	for _, s := range []*State{before, st} {
		if s == nil {
			continue
		}
		for i := range s.Ground {
			u := &s.Ground[i]
			if u.Side == side || groundSeen(st, side, st.groundUnit(u.Callsign)) || before != nil && groundSeen(before, side, before.groundUnit(u.Callsign)) {
				continue
			}
			out = append(out, rulesettest.Secret{Text: u.Callsign, What: "the unseen enemy " + u.Kind})
			if pos := fmt.Sprintf("(%d,%d)", u.Hex.Q, u.Hex.R); !known[pos] {
				out = append(out, rulesettest.Secret{Text: pos, What: "the hex of unseen " + u.Callsign, Position: true})
			}
		}
	}
	if log != nil {
		for _, d := range log.Dice {
			f := strings.Fields(d.Label) // "turn N CALLSIGN ..."
			if len(f) > 2 {
				if p := st.Plane(f[2]); p != nil && p.Side != side {
					out = append(out, rulesettest.Secret{Text: d.Label, What: "the enemy's roll"})
				}
				if u := st.groundUnit(f[2]); u != nil && u.Side != side {
					out = append(out, rulesettest.Secret{Text: d.Label, What: "the enemy ground unit's roll"})
				}
			}
		}
	}
	return out
}

func TestConformance(t *testing.T) {
	rs := Ruleset{Env: testEnv(t)}
	rulesettest.Run(t, rs, rulesettest.BundledScenarios(t, rs), rulesettest.Oracle{
		Secrets:    afdSecrets,
		EventKinds: EventKinds,
		Plays:      afdPlays,
		Twins:      afdTwins(),
		View:       afdView,
		// A plane below its lowest flying speed must dive 300 ft; from under 300 ft that takes it into
		// the ground whatever its player writes.
		Doomed: func(g ruleset.Game, unit string) bool {
			p := g.(*game).st.Plane(unit)
			return p != nil && p.Flight.Alt < 300
		},
		Fire: &rulesettest.FireCheck{Shots: []string{EvFire}, NoFire: EvNoFire, Owed: afdFireOwed},
	})
}

func FuzzConformanceCheckOrder(f *testing.F) {
	b, err := BundledScenarioFile("channel-1940")
	if err != nil {
		f.Fatal(err)
	}
	rulesettest.FuzzCheckOrder(f, Ruleset{Env: testEnv(f)}, b)
}

// meleeGame is a close fight on a small map for the kit's plays: fighters head on within gun range, a
// loaded bomber, a plane about to fly off the map and one a few hundred feet above the ground.
const meleeGame = annBen + `name: melee
options: {fog_of_war: true}
map: {min_q: -12, max_q: 12, min_row: -12, max_row: 12}
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, 5], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: RED2, type: spitfire-i, side: A, player: ann, hex: [1, 5], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: RED3, type: hurricane-i, side: A, player: ann, hex: [-1, 5], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: LOW, type: hurricane-i, side: A, player: ann, hex: [-8, 8], facing: 6, alt: 200, speed: 1.0}
  - {callsign: EDGE, type: hurricane-i, side: A, player: ann, hex: [10, -10], facing: 0, alt: 10000, speed: 6.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [0, -3], facing: 6, alt: 10000, speed: 3.0}
  - {callsign: BLUE2, type: bf-109e, side: B, player: ben, hex: [1, -3], facing: 6, alt: 10000, speed: 3.0}
  - {callsign: BOMBER, type: he-111h, side: B, player: ben, hex: [-1, -1], facing: 6, alt: 10000, speed: 4.0, loaded: true}
turns: 3
`

// huntGame: three fighters sit behind a bomber and fire at it turn after turn, until its engines and
// guns are hit and their own ammunition runs out.
const huntGame = annBen + `name: hunt
options: {fog_of_war: true}
map: {min_q: -30, max_q: 30, min_row: -60, max_row: 30}
aircraft:
  - {callsign: RED1, type: hurricane-i, side: A, player: ann, hex: [0, 1], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: RED2, type: hurricane-i, side: A, player: ann, hex: [1, 1], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: RED3, type: hurricane-i, side: A, player: ann, hex: [-1, 1], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: BOMBER, type: he-111h, side: B, player: ben, hex: [0, -1], facing: 0, alt: 10000, speed: 3.0}
turns: 14
`

// convoyGame: side A's trucks drive a road and a tank follows off it, under its fighter; side B's ship
// steams far out of A's sight, and B's fighter is far from A's trucks (seed 001 V).
const convoyGame = annBen + `name: convoy
options: {fog_of_war: true}
roads: [[0, 0], [0, -1], [0, -2], [0, -3], [0, -4], [0, -5]]
ground:
  - {callsign: TRUCK1, kind: truck, side: A, hex: [0, 0], facing: 0, route: [[0, -1], [0, -2], [0, -3], [0, -4], [0, -5]]}
  - {callsign: TANK1, kind: tank, side: A, hex: [1, 0], facing: 2, route: [[1, -1], [1, -2]]}
  - {callsign: SHIP1, kind: ship, side: B, hex: [40, 0], facing: 0, speed: 2, turn_rate: 1, defence: 7, route: [[40, -1], [40, -2], [40, -3], [41, -4], [42, -5]]}
aircraft:
  - {callsign: RED1, type: hurricane-i, side: A, player: ann, hex: [0, 2], facing: 0, alt: 3000, speed: 3.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [40, 3], facing: 0, alt: 6000, speed: 3.0}
  - {callsign: BOMBER, type: he-111h, side: B, player: ben, hex: [0, 1], facing: 0, alt: 3000, speed: 3.0, loaded: true}
turns: 4
`

// torpedoGame: ann's Avenger, low and slow, two hexes from ben's anchored destroyer after its first
// move, drops its torpedo; the torpedo reaches the ship's hex in turn 2 (seeds 001 V.D, 002).
const torpedoGame = annBen + `name: torpedo
options: {fog_of_war: true}
ground:
  - {callsign: DD1, kind: ship, side: B, hex: [0, -1], facing: 2, speed: 1, turn_rate: 1, defence: 7, size: small}
aircraft:
  - {callsign: AVENGER, type: tbf-1, side: A, player: ann, hex: [0, 3], facing: 0, alt: 400, speed: 2.0, loaded: true}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [30, 30], facing: 0, alt: 6000, speed: 3.0}
turns: 3
`

// flakGame: ann's fighters fly over ben's flak-defended bridge, low and high, and past his destroyer;
// the unit FLAK2 is ordered by ben, the others fire on their own (seed 002, flak).
const flakGame = annBen + `name: flak
options: {fog_of_war: true}
ground:
  - {callsign: BRIDGE, kind: bridge, side: B, hex: [0, -4]}
  - {callsign: FLAK1, kind: gun, side: B, hex: [1, -4], flak: {light: 4x20mm}}
  - {callsign: FLAK2, kind: gun, side: B, hex: [-1, -3], player: ben, flak: {heavy_mm: 88, heavy_guns: 6, ammunition: 3}}
  - {callsign: DD1, kind: ship, side: B, hex: [3, -6], facing: 0, speed: 1, turn_rate: 1, defence: 7, flak: {class: destroyer, light: 8x20mm 6x40mm, heavy_mm: 127, heavy_guns: 5}}
aircraft:
  - {callsign: LOW1, type: hurricane-i, side: A, player: ann, hex: [0, 1], facing: 0, alt: 1000, speed: 3.0}
  - {callsign: HIGH1, type: hurricane-i, side: A, player: ann, hex: [-1, 1], facing: 0, alt: 9000, speed: 3.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [30, 30], facing: 0, alt: 6000, speed: 3.0}
turns: 3
`

// airfieldConformance: an impulse game with a Wildcat on an airfield, engine stopped, and a Hellcat on a
// carrier's deck, engine running, against a Zero far off.
const airfieldConformance = annBen + `name: airfield
options: {fog_of_war: true, impulse: true}
ground:
  - {callsign: CV1, kind: ship, side: A, hex: [10, 0], facing: 0, speed: 2, turn_rate: 0, defence: 20, route: [[10, -1], [10, -2], [10, -3], [10, -4], [10, -5]]}
aircraft:
  - {callsign: WILD, type: f4f-4, side: A, player: ann, hex: [0, 0], facing: 0, alt: 0, speed: 0, on_ground: true}
  - {callsign: CAT, type: f6f-3, side: A, player: ann, hex: [10, 0], facing: 0, alt: 0, speed: 0, on_ground: true, engine_running: true, carrier: CV1}
  - {callsign: BLUE1, type: a6m2, side: B, player: ben, hex: [30, 30], facing: 0, alt: 6000, speed: 4.0}
turns: 6
`

var huntOrders = map[string]string{"RED1": "3 FIRE BOMBER", "RED2": "3 FIRE BOMBER", "RED3": "3 FIRE BOMBER", "BOMBER": "3"}

var afdPlays = []rulesettest.Play{
	{Name: "hunt that misses until the guns are empty", Scenario: []byte(huntGame), Dice: rulesettest.FixedDice(false), Rounds: []map[string]string{
		huntOrders, huntOrders, huntOrders, huntOrders, huntOrders, huntOrders,
		huntOrders, huntOrders, huntOrders, huntOrders, huntOrders, huntOrders,
	}},
	{Name: "hunt", Scenario: []byte(huntGame), Dice: rulesettest.CyclingDice, Rounds: []map[string]string{
		huntOrders, huntOrders, huntOrders, huntOrders, huntOrders, huntOrders, huntOrders, huntOrders, huntOrders, huntOrders,
	}},
	{Name: "melee", Scenario: []byte(meleeGame), Rounds: []map[string]string{
		{"RED1": "3 FIRE ANY", "RED2": "3 FIRE ANY", "RED3": "3 FIRE ANY", "EDGE": "6", "BLUE1": "3 FIRE ANY", "BLUE2": "9", "BOMBER": "4 BOMB"},
		{}, {},
	}},
	{Name: "melee with every die high", Scenario: []byte(meleeGame), Dice: rulesettest.FixedDice(true), Rounds: []map[string]string{
		{"RED1": "3 FIRE ANY", "RED2": "3 FIRE ANY", "RED3": "3 FIRE ANY", "BLUE1": "3 FIRE ANY", "BLUE2": "3 FIRE ANY"}, {}, {},
	}},
	{Name: "melee with dice turning over", Scenario: []byte(meleeGame), Dice: rulesettest.CyclingDice, Rounds: []map[string]string{
		{"RED1": "3 FIRE ANY", "RED2": "3 FIRE ANY", "RED3": "3 FIRE ANY", "BLUE1": "3 FIRE ANY", "BLUE2": "3 FIRE ANY"}, {}, {},
	}},
	{Name: "melee with every die low", Scenario: []byte(meleeGame), Dice: rulesettest.FixedDice(false), Rounds: []map[string]string{
		{"RED1": "3 FIRE ANY", "RED2": "3 FIRE ANY", "RED3": "3 FIRE ANY", "BLUE1": "3 FIRE ANY", "BLUE2": "3 FIRE ANY"}, {}, {},
	}},
	{Name: "flak", Scenario: []byte(flakGame), Dice: rulesettest.FixedDice(true), Rounds: []map[string]string{{"LOW1": "3", "HIGH1": "3", "FLAK2": "AIM -1,-1 9000"}, {"LOW1": "3", "HIGH1": "3"}, {"FLAK2": "HOLD"}}},
	{Name: "flak with dice turning over", Scenario: []byte(flakGame), Dice: rulesettest.CyclingDice, Rounds: []map[string]string{{"LOW1": "3", "HIGH1": "3"}, {"LOW1": "3", "HIGH1": "3"}, {}}},
	// Planes on the ground (seed 001 IV): WILD starts its engine and rolls; CAT takes off from a deck.
	{Name: "airfield", Scenario: []byte(airfieldConformance), Dice: rulesettest.CyclingDice, Rounds: []map[string]string{
		{"WILD": "IDLE", "CAT": "P", "BLUE1": "1"}, {"WILD": "R2", "CAT": "` +1", "BLUE1": "1"}, {"WILD": "IDLE", "BLUE1": "1"}, {"WILD": "IDLE", "BLUE1": "1"},
	}},
	{Name: "convoy", Scenario: []byte(convoyGame), Rounds: []map[string]string{{}, {}, {}}},
	{Name: "torpedo", Scenario: []byte(torpedoGame), Dice: rulesettest.FixedDice(true), Rounds: []map[string]string{{"AVENGER": "2 BOMB"}, {}}},
	// The Heinkel ends turn 1 over the road where the trucks have driven: level bombing (seed 002).
	{Name: "convoy bombed", Scenario: []byte(convoyGame), Dice: rulesettest.FixedDice(true), Rounds: []map[string]string{{"BOMBER": "3 BOMB"}, {}}},
	{Name: "fog and clouds", Scenario: []byte(fogGame), Rounds: []map[string]string{
		{"RED1": "5 FIRE ANY", "BLUE1": "5 FIRE ANY", "BLUE2": "5"},
		{"RED1": "5 FIRE ANY", "BLUE1": "5 FIRE ANY", "BLUE2": "5"},
		{"RED1": "5 FIRE ANY", "BLUE1": "5 FIRE ANY"},
		{"RED1": "TL 4", "BLUE1": "5 FIRE ANY", "BLUE2": "5"},
	}},
}

// FuzzConformanceCheckOrderImpulse fuzzes order checking in the bundled impulse game (seed 001).
func FuzzConformanceCheckOrderImpulse(f *testing.F) {
	b, err := BundledScenarioFile("kent-impulse-1940")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"` ` TR; 1", "` +1 P ` -2 K TL", "HR; HR", "` 12900 TR 100", "V", "1;1;1;1;1;1;1;1;1;1;1;1"} {
		f.Add(s)
	}
	rulesettest.FuzzCheckOrder(f, Ruleset{Env: testEnv(f)}, b)
}

// afdFireOwed: a plane in play whose order names its target is owed a burst or a line saying why not
// (docs/rulings.md: the standing fire order). An impulse game answers at the end of its turn, which its
// rounds seldom reach, and is checked by its own tests instead.
func afdFireOwed(prev, _ ruleset.Game, unit, order string) []string {
	st := prev.(*game).st
	if st.Options.Impulse {
		return nil
	}
	p := st.Plane(unit)
	o, ds := notation.ParseOrder(order)
	if p == nil || !p.InPlay() || parser.HasErrors(ds) || o.Fire.Mode != parser.FireTarget {
		return nil
	}
	return []string{unit}
}
