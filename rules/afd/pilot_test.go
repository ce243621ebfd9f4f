package afd

import (
	"fmt"
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

type pilotFunc func(g *game, player string, seed uint64) map[string]string

func computerPilot(g *game, player string, _ uint64) map[string]string { return g.PilotOrders(player) }

func straightPilot(*game, string, uint64) map[string]string { return nil }

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

// playDuel plays the duel and returns North's score: 1 a win, ½ a draw, by damage boxes filled when
// no plane fell.
func playDuel(t testing.TB, north, south pilotFunc, seed uint64) float64 {
	g := pilotGame(t, pilotDuel)
	for turn := 0; turn < 50 && !g.st.Over; turn++ {
		orders := map[string]string{}
		for k, v := range north(g, "n", seed) {
			orders[k] = v
		}
		for k, v := range south(g, "s", seed+7) {
			orders[k] = v
		}
		for unit, text := range orders {
			if c := g.CheckOrder(g.st.Plane(unit).Player, unit, text); !c.OK() {
				t.Fatalf("turn %d: a pilot's order for %s is illegal: %s %+v", g.st.Turn, unit, text, c.Errors)
			}
		}
		next, _, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(seed*1000+uint64(g.st.Turn))))
		if err != nil {
			t.Fatal(err)
		}
		g = next.(*game)
	}
	return duelScore(g)
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
	switch {
	case boxes["South"] > boxes["North"]:
		return 1
	case boxes["South"] < boxes["North"]:
		return 0
	}
	return 0.5
}

func pilotTournament(t testing.TB, other pilotFunc, games int) (mean, half float64) {
	return tournamentOf(t, playDuel, other, games)
}

// tournamentOf plays games games of the computer pilot against another with play, half on each side
// (rulesettest.Tournament).
func tournamentOf(t testing.TB, play func(testing.TB, pilotFunc, pilotFunc, uint64) float64, other pilotFunc, games int) (mean, half float64) {
	return rulesettest.Tournament(games, func(seed uint64, first bool) float64 {
		if first {
			return play(t, computerPilot, other, seed)
		}
		return play(t, other, computerPilot, seed)
	})
}

// The pilot's orders pass the rules every turn of a whole duel (playDuel fails on an illegal one), on
// either side.
func TestPilotFliesLegalOrders(t *testing.T) {
	playDuel(t, computerPilot, randomPilot, 1)
	playDuel(t, straightPilot, computerPilot, 2)
}

func TestPilotBeatsStraightAndLevel(t *testing.T) {
	mean, half := pilotTournament(t, straightPilot, 8)
	t.Logf("computer pilot against straight and level: %.2f ± %.2f", mean, half)
	if mean-half <= 0.5 {
		t.Errorf("the pilot must beat straight and level: %.2f ± %.2f", mean, half)
	}
}

// BenchmarkPilotTournament: the Air Force pilot against random-legal and straight-and-level pilots,
// half the games on each side (docs/bots.md).
func BenchmarkPilotTournament(b *testing.B) {
	for _, m := range []struct {
		name  string
		other pilotFunc
	}{{"random-legal", randomPilot}, {"straight-and-level", straightPilot}} {
		b.Run(m.name, func(b *testing.B) {
			var mean, half float64
			for b.Loop() {
				mean, half = pilotTournament(b, m.other, 100)
			}
			b.ReportMetric(mean*100, "win%")
			b.ReportMetric((mean-half)*100, "win%-low")
			b.ReportMetric((mean+half)*100, "win%-high")
		})
	}
}

// BenchmarkPilotOrder times the pilot's orders for one aircraft.
func BenchmarkPilotOrder(b *testing.B) {
	g := pilotGame(b, pilotDuel)
	for b.Loop() {
		g.PilotOrders("n")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2/1e6, "ms/aircraft")
}

// The pilot reads the side's view alone: an enemy the side has not spotted changes nothing it writes.
func TestPilotSeesOnlyTheView(t *testing.T) {
	g1 := pilotGame(t, pilotDuel)
	g2 := pilotGame(t, strings.Replace(pilotDuel, "turns: 20", "turns: 20\n", 1)+"")
	g2.st.Planes = append(g2.st.Planes, g2.st.Planes[len(g2.st.Planes)-1])
	ghost := &g2.st.Planes[len(g2.st.Planes)-1]
	ghost.Callsign, ghost.Flight.Hex = "ZGHOST", ghost.Flight.Hex.Add(ghost.Flight.Hex) // never spotted
	if a, b := g1.PilotOrders("n"), g2.PilotOrders("n"); fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 2 {
		t.Errorf("an unspotted enemy changed the pilot's orders:\n%v\n%v", a, b)
	}
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

// playImpulseDuel plays the impulse duel round by round (each stop of the engine) and scores it as
// playDuel does.
func playImpulseDuel(t testing.TB, north, south pilotFunc, seed uint64) float64 {
	g := pilotGame(t, impulsePilotDuel)
	for round := 0; round < 3000 && !g.st.Over; round++ {
		orders := map[string]string{}
		for k, v := range north(g, "n", seed) {
			orders[k] = v
		}
		for k, v := range south(g, "s", seed+7) {
			orders[k] = v
		}
		for unit, text := range orders {
			if c := g.CheckOrder(g.st.Plane(unit).Player, unit, text); !c.OK() {
				t.Fatalf("round %d: a pilot's order for %s is illegal: %s %+v", round, unit, text, c.Errors)
			}
		}
		next, _, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(seed*100000+uint64(round))))
		if err != nil {
			t.Fatal(err)
		}
		g = next.(*game)
	}
	return duelScore(g)
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
	for _, m := range []struct {
		name  string
		other pilotFunc
	}{{"random-legal", random}, {"straight-and-level", straightPilot}} {
		b.Run(m.name, func(b *testing.B) {
			var mean, half float64
			for b.Loop() {
				mean, half = tournamentOf(b, playImpulseDuel, m.other, 100)
			}
			b.ReportMetric(mean*100, "win%")
			b.ReportMetric((mean-half)*100, "win%-low")
			b.ReportMetric((mean+half)*100, "win%-high")
		})
	}
}

// BenchmarkImpulsePilotOrder times the impulse pilot's next manoeuvre for one aircraft.
func BenchmarkImpulsePilotOrder(b *testing.B) {
	g := pilotGame(b, impulsePilotDuel)
	for b.Loop() {
		g.PilotOrders("n")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2/1e6, "ms/aircraft")
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
