package tnl

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/tnl/notation"
)

// duel is a mirrored fight for the pilots' tournament: two pairs of Spitfires a side, head on.
const duel = `
ruleset: tnl
name: duel
turns: 8
sides: [North, South]
players: [{id: n, side: North}, {id: s, side: South}]
aircraft:
  - {callsign: N1, type: spitfire-i, unit: NA, side: North, player: n, hex: [-2, -12], facing: 180, level: M, speed: 7}
  - {callsign: N2, type: spitfire-i, unit: NA, side: North, player: n, hex: [-1, -12], facing: 180, level: M, speed: 7}
  - {callsign: N3, type: spitfire-i, unit: NB, side: North, player: n, hex: [2, -12], facing: 180, level: M, speed: 7}
  - {callsign: N4, type: spitfire-i, unit: NB, side: North, player: n, hex: [3, -12], facing: 180, level: M, speed: 7}
  - {callsign: S1, type: spitfire-i, unit: SA, side: South, player: s, hex: [-2, 12], facing: 0, level: M, speed: 7}
  - {callsign: S2, type: spitfire-i, unit: SA, side: South, player: s, hex: [-1, 12], facing: 0, level: M, speed: 7}
  - {callsign: S3, type: spitfire-i, unit: SB, side: South, player: s, hex: [2, 12], facing: 0, level: M, speed: 7}
  - {callsign: S4, type: spitfire-i, unit: SB, side: South, player: s, hex: [3, 12], facing: 0, level: M, speed: 7}
victory:
  - {side: North, kind: destroy, aircraft: [S1, S2, S3, S4]}
  - {side: South, kind: destroy, aircraft: [N1, N2, N3, N4]}
`

// pilotFunc writes a player's orders for a turn.
type pilotFunc func(g *game, player string, seed uint64) map[string]string

func computerPilot(g *game, player string, _ uint64) map[string]string { return g.PilotOrders(player) }

// straightPilot sends nothing: every unit flies straight and level (the default order).
func straightPilot(*game, string, uint64) map[string]string { return nil }

// randomPilot flies a plan drawn at random from those the computer pilot would consider legal.
func randomPilot(g *game, player string, seed uint64) map[string]string {
	v := ViewOf(g.st, g.st.SideOf(player))
	rng := rand.New(rand.NewPCG(seed, uint64(g.st.Turn)))
	out := map[string]string{}
	for i := range v.Units {
		u := &v.Units[i]
		if u.Player != player {
			continue
		}
		if c := Candidates(g.d, &v, u); len(c) > 0 {
			out[u.Name] = notation.Order{Segments: []notation.Segment{c[rng.IntN(len(c))]}}.String()
		}
	}
	return out
}

// playMatch plays the duel with north and south pilots and returns North's score: 1 a win, ½ a draw.
func playMatch(t testing.TB, north, south pilotFunc, seed uint64) float64 {
	gm, err := Ruleset{}.NewGame([]byte(duel), nil, "duel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*game)
	for turn := 0; turn < 20 && !g.st.Over; turn++ {
		orders := map[string]string{}
		for k, v := range north(g, "n", seed) {
			orders[k] = v
		}
		for k, v := range south(g, "s", seed+7) {
			orders[k] = v
		}
		for unit, text := range orders {
			if c := g.CheckOrder(g.st.UnitNamed(unit).Player, unit, text); !c.OK() {
				t.Fatalf("turn %d: a pilot's order for %s is illegal: %s %+v", g.st.Turn, unit, text, c.Errors)
			}
		}
		next, _, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(seed*1000+uint64(g.st.Turn))))
		if err != nil {
			t.Fatal(err)
		}
		g = next.(*game)
	}
	switch g.st.Outcome.Winner {
	case "North":
		return 1
	case "South":
		return 0
	}
	return 0.5
}

// tournament plays games games of the computer pilot against another, half on each side
// (rulesettest.Tournament).
func tournament(t testing.TB, other pilotFunc, games int) (mean, half float64) {
	return rulesettest.Tournament(games, func(seed uint64, first bool) float64 {
		if first {
			return playMatch(t, computerPilot, other, seed)
		}
		return playMatch(t, other, computerPilot, seed)
	})
}

// The pilot's orders are always legal, and it beats flying straight and level.
func TestPilotBeatsStraightAndLevel(t *testing.T) {
	mean, half := tournament(t, straightPilot, 12)
	t.Logf("computer pilot against straight and level: %.2f ± %.2f", mean, half)
	if mean-half <= 0.5 {
		t.Errorf("the pilot must beat straight and level: %.2f ± %.2f", mean, half)
	}
}

// BenchmarkPilotTournament is the pilots' tournament of docs/bots.md: the computer pilot against a pilot
// that picks a random legal plan and against straight and level, 100 games each, half on each side.
func BenchmarkPilotTournament(b *testing.B) {
	for _, m := range []struct {
		name  string
		other pilotFunc
	}{{"random-legal", randomPilot}, {"straight-and-level", straightPilot}} {
		b.Run(m.name, func(b *testing.B) {
			var mean, half float64
			for b.Loop() {
				mean, half = tournament(b, m.other, 100)
			}
			b.ReportMetric(mean*100, "win%")
			b.ReportMetric((mean-half)*100, "win%-low")
			b.ReportMetric((mean+half)*100, "win%-high")
		})
	}
}

// BenchmarkPilotOrder times the computer pilot's order for one unit of two aircraft in the duel.
func BenchmarkPilotOrder(b *testing.B) {
	gm, _ := Ruleset{}.NewGame([]byte(duel), nil, "duel.yaml")
	g := gm.(*game)
	for b.Loop() {
		g.PilotOrders("n") // two units
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4/1e6, "ms/aircraft")
}

// The pilot reads the side's view alone: an enemy aircraft the side cannot see changes nothing it does,
// and what it does is a function of the view (the same view, the same orders).
func TestPilotSeesOnlyTheView(t *testing.T) {
	hidden := strings.Replace(duel, "turns: 8", "turns: 8\nvisibility: 30", 1) +
		"" // the duel with limited visibility
	base := newTestGame(t, hidden)
	withGhost := newTestGame(t, strings.Replace(hidden, "victory:", "  - {callsign: GHOST, type: bf-109e, side: South, player: s, hex: [60, 60], facing: 0, level: M, speed: 7}\nvictory:", 1))
	a, b := base.PilotOrders("n"), withGhost.PilotOrders("n")
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("an unseen enemy changed the pilot's orders:\n%v\n%v", a, b)
	}
	if v1, v2 := ViewOf(base.st, "North"), ViewOf(withGhost.st, "North"); fmt.Sprint(Pilot(base.d, v1, "n")) != fmt.Sprint(Pilot(withGhost.d, v2, "n")) {
		t.Error("the same view must give the same orders")
	}
	// The orders parse and pass the rules.
	for unit, text := range a {
		if _, ds := notation.Parse(text); parser.HasErrors(ds) {
			t.Errorf("%s: %s %v", unit, text, ds)
		}
	}
	var _ ruleset.Piloted = base
}

// A pilot carrying a torpedo or bombs attacks an enemy ship when its plan brings it into position
// (seed 003, "Attacking Ships").
func TestPilotAttacksShips(t *testing.T) {
	g := newTestGame(t, shipsOnly)
	orders := g.PilotOrders("ann")
	if !strings.Contains(orders["TORPS"], "TORPEDO KAGA") || !strings.Contains(orders["BOMBING"], "BOMB KAGA") || !strings.HasPrefix(orders["BOMBING"], "DIVE") {
		t.Errorf("the pilot goes for the carrier: %v", orders)
	}
	for unit, text := range orders {
		if c := g.CheckOrder("ann", unit, text); !c.OK() {
			t.Errorf("%s: %s %+v", unit, text, c.Errors)
		}
	}
}
