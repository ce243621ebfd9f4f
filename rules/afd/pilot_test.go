package afd

import (
	"math/rand/v2"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// pilotDuel is the pilots' tournament fight: two Bf 109 Es a side at 8,000 ft.
const pilotDuel = `
ruleset: afd
name: duel
sides: [North, South]
players: [{id: n, side: North}, {id: s, side: South}]
aircraft:
  - {callsign: N1, type: bf-109e, side: North, player: n, hex: [-12, 4], facing: 2, alt: 8000, speed: 6.0, bank: N}
  - {callsign: N2, type: bf-109e, side: North, player: n, hex: [-12, 5], facing: 2, alt: 8000, speed: 6.0, bank: N}
  - {callsign: S1, type: bf-109e, side: South, player: s, hex: [12, -8], facing: 10, alt: 8000, speed: 6.0, bank: N}
  - {callsign: S2, type: bf-109e, side: South, player: s, hex: [12, -7], facing: 10, alt: 8000, speed: 6.0, bank: N}
turns: 40
victory:
  - {side: North, kind: destroy, aircraft: [S1, S2]}
  - {side: South, kind: destroy, aircraft: [N1, N2]}
`

// The duel's two sides fly converging courses (60° and 300°) that cross ahead of both; the computer pilot
// plays each side in half the games, so neither start favours it.

func randomPilot(g *game, player string, seed uint64) map[string]string {
	rng := rand.New(rand.NewPCG(seed, uint64(g.st.Turn)))
	out := map[string]string{}
	for i := range g.st.Planes {
		p := &g.st.Planes[i]
		if p.Player != player || !p.InPlay() {
			continue
		}
		card, _ := g.env.Cards.Get(p.Type)
		if c := PilotCandidates(card, p); len(c) > 0 {
			out[p.Callsign] = c[rng.IntN(len(c))].String()
		}
	}
	return out
}

func pilotGame(t testing.TB, scn string) *game {
	t.Helper()
	env, err := DefaultEnv()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Ruleset{Env: env}.NewGame([]byte(scn), nil, "duel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g.(*game)
}

// duelMatch plays the duel, North first, scored by duelScore.
func duelMatch() rulesettest.Match[*game] {
	return rulesettest.Match[*game]{
		New:     func(t testing.TB) *game { return pilotGame(t, pilotDuel) },
		Players: [2]string{"n", "s"},
		Rounds:  50,
		Score:   duelScore,
	}
}

// duelScore is North's score in a finished duel: 1 a win, ½ a draw, by damage boxes filled when no
// plane fell.
func duelScore(g *game) float64 {
	if w := g.st.Outcome.Winner; w != "draw" {
		if w == "North" {
			return 1
		}
		return 0
	}
	// Nobody fell: the side that filled more damage boxes on the enemy wins.
	boxes := map[string]int{}
	for _, p := range g.st.Planes {
		for _, d := range p.Damage {
			boxes[p.Side] += d
		}
	}
	return rulesettest.Ahead(boxes["South"], boxes["North"])
}

// The pilot's orders pass the rules every turn of a whole duel (Match.Play fails on an illegal one), on
// either side.
func TestPilotFliesLegalOrders(t *testing.T) {
	duelMatch().Play(t, rulesettest.Computer[*game], randomPilot, 1)
	duelMatch().Play(t, rulesettest.Straight[*game], rulesettest.Computer[*game], 2)
}

func TestPilotBeatsStraightAndLevel(t *testing.T) {
	duelMatch().MustBeat(t, rulesettest.Computer[*game], rulesettest.StraightAndLevel[*game](), 8)
}

// BenchmarkPilotTournament: the Air Force pilot against random-legal and straight-and-level pilots,
// half the games on each side (docs/bots.md).
func BenchmarkPilotTournament(b *testing.B) {
	duelMatch().BenchTournament(b, rulesettest.Computer[*game], rulesettest.Opponents(randomPilot), 100)
}

// BenchmarkPilotOrder times the pilot's orders for one aircraft.
func BenchmarkPilotOrder(b *testing.B) {
	rulesettest.BenchPilotOrder(b, pilotGame(b, pilotDuel), "n", 2, "ms/aircraft")
}

// The pilot reads the side's view alone: an enemy the side has not spotted changes nothing it writes.
func TestPilotSeesOnlyTheView(t *testing.T) {
	g1 := pilotGame(t, pilotDuel)
	g2 := pilotGame(t, strings.Replace(pilotDuel, "turns: 20", "turns: 20\n", 1)+"")
	g2.st.Planes = append(g2.st.Planes, g2.st.Planes[len(g2.st.Planes)-1])
	ghost := &g2.st.Planes[len(g2.st.Planes)-1]
	ghost.Callsign, ghost.Flight.Hex = "ZGHOST", ghost.Flight.Hex.Add(ghost.Flight.Hex) // never spotted
	rulesettest.SameOrders(t, g1, g2, "n", 2, "an unspotted enemy")
	var _ ruleset.Piloted = g1
}

// In the impulse game the pilot writes the next manoeuvre of each aircraft waiting for one, legal by the
// receipt's own check, round after round.
func TestImpulsePilotFliesLegalOrders(t *testing.T) {
	b, err := BundledScenarioFile("kent-impulse-1940")
	if err != nil {
		t.Fatal(err)
	}
	g := pilotGame(t, string(b))
	for round := 0; round < 12 && !g.st.Over; round++ {
		orders := map[string]string{}
		for _, pl := range g.st.Players {
			for unit, text := range g.PilotOrders(pl.ID) {
				if c := g.CheckOrder(pl.ID, unit, text); !c.OK() {
					t.Fatalf("round %d: %s: %s %+v", round, unit, text, c.Errors)
				}
				orders[unit] = text
			}
		}
		next, _, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(uint64(round))))
		if err != nil {
			t.Fatal(err)
		}
		g = next.(*game)
	}
}

// impulsePilotDuel is the duel flown as the Delta-T impulse game (seed 001).
var impulsePilotDuel = strings.Replace(pilotDuel, "ruleset: afd\n", "ruleset: afd\noptions: {impulse: true}\n", 1)

// impulseDuelMatch plays the impulse duel round by round (each stop of the engine) and scores it as
// the duel is scored.
func impulseDuelMatch() rulesettest.Match[*game] {
	m := duelMatch()
	m.New = func(t testing.TB) *game { return pilotGame(t, impulsePilotDuel) }
	m.Rounds = 3000
	m.Seed = func(seed uint64, round int, _ *game) uint64 { return seed*100000 + uint64(round) }
	return m
}

// BenchmarkImpulsePilotTournament: the impulse pilot against pilots that fly the forwards manoeuvre
// (straight and level) and a random legal manoeuvre, half the games on each side.
func BenchmarkImpulsePilotTournament(b *testing.B) {
	random := func(g *game, player string, seed uint64) map[string]string {
		rng := rand.New(rand.NewPCG(seed, uint64(g.st.Turn*100+g.st.Clock.Impulse)))
		out := map[string]string{}
		for i := range g.st.Planes {
			p := &g.st.Planes[i]
			if p.Player == player && p.InPlay() && p.NeedsOrders() {
				out[p.Callsign] = impulseManoeuvres[rng.IntN(len(impulseManoeuvres))] + " FIRE ANY"
				if !g.CheckOrder(player, p.Callsign, out[p.Callsign]).OK() {
					out[p.Callsign] = ForwardsOrder + " FIRE ANY"
				}
			}
		}
		return out
	}
	impulseDuelMatch().BenchTournament(b, rulesettest.Computer[*game], rulesettest.Opponents[*game](random), 100)
}

// BenchmarkImpulsePilotOrder times the impulse pilot's next manoeuvre for one aircraft.
func BenchmarkImpulsePilotOrder(b *testing.B) {
	rulesettest.BenchPilotOrder(b, pilotGame(b, impulsePilotDuel), "n", 2, "ms/aircraft")
}

// The impulse pilot reads where a manoeuvre ends from the receipt's forecast: the forecast's lines must
// keep the form it reads.
func TestImpulsePilotReadsTheForecast(t *testing.T) {
	g := pilotGame(t, impulsePilotDuel)
	c := g.CheckOrder("n", "N1", "` ` ` TR FIRE ANY")
	found := false
	for _, line := range c.Preview {
		found = found || previewEndRE.MatchString(line)
	}
	if !c.OK() || !found {
		t.Errorf("no forecast line the pilot can read: %+v", c)
	}
}
