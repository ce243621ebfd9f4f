package swarm

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// melee is a mirrored fight for the pilots' tournament: two Spitfire squadrons a side, in sight.
const melee = `
ruleset: swarm
name: melee
turns: 8
sides: [North, South]
players: [{id: n, side: North}, {id: s, side: South}]
squadrons:
  - {callsign: NA, type: spitfire-i, side: North, player: n, hex: [0, 0], facing: 150, tack: 2 S M}
  - {callsign: NB, type: spitfire-i, side: North, player: n, hex: [1, -1], facing: 150, tack: 2 S M}
  - {callsign: SA, type: spitfire-i, side: South, player: s, hex: [8, 8], facing: 330, tack: 2 S M}
  - {callsign: SB, type: spitfire-i, side: South, player: s, hex: [7, 9], facing: 330, tack: 2 S M}
victory:
  - {side: North, kind: destroy, squadrons: [SA, SB]}
  - {side: South, kind: destroy, squadrons: [NA, NB]}
`

type pilotFunc func(g *game, player string, seed uint64) map[string]string

func computerPilot(g *game, player string, _ uint64) map[string]string { return g.PilotOrders(player) }

func straightPilot(*game, string, uint64) map[string]string { return nil }

func randomPilot(g *game, player string, seed uint64) map[string]string {
	v := ViewOf(g.st, g.st.SideOf(player))
	rng := rand.New(rand.NewPCG(seed, uint64(g.st.Turn)))
	out := map[string]string{}
	for i := range v.Own {
		q := &v.Own[i]
		if q.Player != player || !q.InPlay() || len(q.Queue) > 0 || !q.Contact {
			continue
		}
		if c := Candidates(g.d, &v, q); len(c) > 0 {
			out[q.Callsign] = turnText(c[rng.IntN(len(c))])
		}
	}
	return out
}

// playMatch plays the melee with north and south pilots and returns North's score: 1 a win, ½ a draw.
func playMatch(t testing.TB, north, south pilotFunc, seed uint64) float64 {
	gm, err := Ruleset{}.NewGame([]byte(melee), nil, "melee.yaml")
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
			if c := g.CheckOrder(g.st.Squadron(unit).Player, unit, text); !c.OK() {
				t.Fatalf("turn %d: a pilot's order for %s is illegal: %s %+v", g.st.Turn, unit, text, c.Errors)
			}
		}
		next, _, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(seed*1000+uint64(g.st.Turn))))
		if err != nil {
			t.Fatal(err)
		}
		g = next.(*game)
	}
	// The side that filled more of the enemy's pips wins (destroying a squadron fills all of its).
	filled := map[string]int{}
	for _, q := range g.st.Squadrons {
		filled[q.Side] += q.Filled
	}
	switch {
	case filled["South"] > filled["North"]:
		return 1
	case filled["South"] < filled["North"]:
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

func TestPilotBeatsStraightAndLevel(t *testing.T) {
	mean, half := tournament(t, straightPilot, 12)
	t.Logf("computer pilot against straight and level: %.2f ± %.2f", mean, half)
	if mean-half <= 0.5 {
		t.Errorf("the pilot must beat straight and level: %.2f ± %.2f", mean, half)
	}
}

// BenchmarkPilotTournament: the Swarm pilot against random-legal and straight-and-level pilots, 200 games
// each, half on each side (docs/bots.md).
func BenchmarkPilotTournament(b *testing.B) {
	for _, m := range []struct {
		name  string
		other pilotFunc
	}{{"random-legal", randomPilot}, {"straight-and-level", straightPilot}} {
		b.Run(m.name, func(b *testing.B) {
			var mean, half float64
			for b.Loop() {
				mean, half = tournament(b, m.other, 200)
			}
			b.ReportMetric(mean*100, "win%")
			b.ReportMetric((mean-half)*100, "win%-low")
			b.ReportMetric((mean+half)*100, "win%-high")
		})
	}
}

// BenchmarkPilotOrder times the pilot's order for one squadron.
func BenchmarkPilotOrder(b *testing.B) {
	gm, _ := Ruleset{}.NewGame([]byte(melee), nil, "melee.yaml")
	g := gm.(*game)
	for b.Loop() {
		g.PilotOrders("n")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2/1e6, "ms/squadron")
}

// The pilot reads the side's view alone: an enemy squadron out of sight changes nothing.
func TestPilotSeesOnlyTheView(t *testing.T) {
	base := strings.Replace(melee, "turns: 8", "turns: 8\nvisibility: 20", 1)
	g1 := newPilotGame(t, base)
	g2 := newPilotGame(t, strings.Replace(base, "victory:", "  - {callsign: GHOST, type: bf-109e, side: South, player: s, hex: [60, 60], facing: 330, tack: 2 S M}\nvictory:", 1))
	if a, b := g1.PilotOrders("n"), g2.PilotOrders("n"); fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 2 {
		t.Errorf("an unseen enemy changed the pilot's orders:\n%v\n%v", a, b)
	}
	var _ ruleset.Piloted = g1
}

func newPilotGame(t *testing.T, scn string) *game {
	t.Helper()
	g, err := Ruleset{}.NewGame([]byte(scn), nil, "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g.(*game)
}
