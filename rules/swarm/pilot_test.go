package swarm

import (
	"math/rand/v2"
	"strings"
	"testing"

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

// meleeMatch plays the melee, North first; the side that filled more of the enemy's pips wins
// (destroying a squadron fills all of its).
func meleeMatch() rulesettest.Match[*game] {
	return rulesettest.Match[*game]{
		New:     func(t testing.TB) *game { return rulesettest.NewGame[*game](t, Ruleset{}, melee, "melee.yaml") },
		Players: [2]string{"n", "s"},
		Rounds:  20,
		Score: func(g *game) float64 {
			filled := map[string]int{}
			for _, q := range g.st.Squadrons {
				filled[q.Side] += q.Filled
			}
			return rulesettest.Ahead(filled["South"], filled["North"])
		},
	}
}

func TestPilotBeatsStraightAndLevel(t *testing.T) {
	meleeMatch().MustBeat(t, rulesettest.Computer[*game], rulesettest.StraightAndLevel[*game](), 12)
}

// BenchmarkPilotTournament: the Swarm pilot against random-legal and straight-and-level pilots, 200 games
// each, half on each side (docs/bots.md).
func BenchmarkPilotTournament(b *testing.B) {
	meleeMatch().BenchTournament(b, rulesettest.Computer[*game], rulesettest.Opponents(randomPilot), 200)
}

// BenchmarkPilotOrder times the pilot's order for one squadron.
func BenchmarkPilotOrder(b *testing.B) {
	rulesettest.BenchPilotOrder(b, newGame(b, melee), "n", 2, "ms/squadron")
}

// The pilot reads the side's view alone: an enemy squadron out of sight changes nothing.
func TestPilotSeesOnlyTheView(t *testing.T) {
	base := strings.Replace(melee, "turns: 8", "turns: 8\nvisibility: 20", 1)
	g1 := newGame(t, base)
	g2 := newGame(t, strings.Replace(base, "victory:", "  - {callsign: GHOST, type: bf-109e, side: South, player: s, hex: [60, 60], facing: 330, tack: 2 S M}\nvictory:", 1))
	rulesettest.SameOrders(t, g1, g2, "n", 2, "an unseen enemy")
	var _ ruleset.Piloted = g1
}
