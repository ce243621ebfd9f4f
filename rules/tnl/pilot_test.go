package tnl

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sortie/parser"
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

// duelMatch plays the duel, North first, scored by the winner the rules declare.
func duelMatch() rulesettest.Match[*game] {
	return rulesettest.Match[*game]{
		New:     func(t testing.TB) *game { return newTestGame(t, duel) },
		Players: [2]string{"n", "s"},
		Rounds:  20,
		Score: func(g *game) float64 {
			won := map[string]int{g.st.Outcome.Winner: 1}
			return rulesettest.Ahead(won["North"], won["South"])
		},
	}
}

// The pilot's orders are always legal, and it beats flying straight and level.
func TestPilotBeatsStraightAndLevel(t *testing.T) {
	duelMatch().MustBeat(t, rulesettest.Computer[*game], rulesettest.StraightAndLevel[*game](), 12)
}

// BenchmarkPilotTournament is the pilots' tournament of docs/bots.md: the computer pilot against a pilot
// that picks a random legal plan and against straight and level, 100 games each, half on each side.
func BenchmarkPilotTournament(b *testing.B) {
	duelMatch().BenchTournament(b, rulesettest.Computer[*game], rulesettest.Opponents(randomPilot), 100)
}

// BenchmarkPilotOrder times the computer pilot's order for one unit of two aircraft in the duel.
func BenchmarkPilotOrder(b *testing.B) {
	rulesettest.BenchPilotOrder(b, newTestGame(b, duel), "n", 4, "ms/aircraft") // two units
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
