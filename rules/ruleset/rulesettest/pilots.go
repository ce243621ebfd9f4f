package rulesettest

import (
	"fmt"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// Pilot writes one player's orders for the round g asks for; seed varies a pilot that draws at random.
// No orders for a unit leaves it its default order.
type Pilot[G ruleset.Game] func(g G, player string, seed uint64) map[string]string

// Computer is the ruleset's own computer pilot (ruleset.Piloted) as a Pilot.
func Computer[G interface {
	ruleset.Game
	ruleset.Piloted
}](g G, player string, _ uint64) map[string]string {
	return g.PilotOrders(player)
}

// Straight writes no orders: every unit flies its default order (straight and level).
func Straight[G ruleset.Game](G, string, uint64) map[string]string { return nil }

// Opponent is a pilot the computer pilot is measured against, by name.
type Opponent[G ruleset.Game] struct {
	Name  string
	Pilot Pilot[G]
}

// Match is the fight of a pilots' tournament (docs/bots.md): a game of two players, each a side.
type Match[G ruleset.Game] struct {
	New     func(testing.TB) G // the game at its start
	Players [2]string          // the first and the second side's player
	Rounds  int                // the rounds played at most
	// Seed is the seed of the dice of round i of the game played with seed; nil: seed×1000 plus the
	// game's round.
	Seed func(seed uint64, i int, g G) uint64
	// Score is the first side's score when the game stops: 1 a win, ½ a draw, 0 a loss.
	Score func(g G) float64
}

// Play plays the match with first and second pilots, the second's seed 7 above the first's, and
// returns the first side's score. An order a pilot writes that the rules refuse fails t.
func (m Match[G]) Play(t testing.TB, first, second Pilot[G], seed uint64) float64 {
	t.Helper()
	g := m.New(t)
	for i := 0; i < m.Rounds; i++ {
		if over, _ := g.Over(); over {
			break
		}
		orders := map[string]string{}
		for k, pilot := range [2]Pilot[G]{first, second} {
			player := m.Players[k]
			for unit, text := range pilot(g, player, seed+7*uint64(k)) {
				if c := g.CheckOrder(player, unit, text); !c.OK() {
					t.Fatalf("round %d: a pilot's order for %s is illegal: %s %+v", g.Round(), unit, text, c.Errors)
				}
				orders[unit] = text
			}
		}
		s := seed*1000 + uint64(g.Round())
		if m.Seed != nil {
			s = m.Seed(seed, i, g)
		}
		next, _, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(s)))
		if err != nil {
			t.Fatal(err)
		}
		g = next.(G)
	}
	return m.Score(g)
}

// Tournament plays games games of pilot against other, half on each side (Tournament), and returns
// pilot's mean score and the half-width of its 95 % confidence interval.
func (m Match[G]) Tournament(t testing.TB, pilot, other Pilot[G], games int) (mean, half float64) {
	return Tournament(games, func(seed uint64, first bool) float64 {
		if first {
			return m.Play(t, pilot, other, seed)
		}
		return m.Play(t, other, pilot, seed)
	})
}

// MustBeat fails t unless pilot beats other over games games: the low end of its score's 95 %
// confidence interval above one half.
func (m Match[G]) MustBeat(t *testing.T, pilot Pilot[G], other Opponent[G], games int) {
	t.Helper()
	mean, half := m.Tournament(t, pilot, other.Pilot, games)
	t.Logf("computer pilot against %s: %.2f ± %.2f", other.Name, mean, half)
	if mean-half <= 0.5 {
		t.Errorf("the pilot must beat %s: %.2f ± %.2f", other.Name, mean, half)
	}
}

// StraightAndLevel is the opponent that flies every unit straight and level (Straight).
func StraightAndLevel[G ruleset.Game]() Opponent[G] {
	return Opponent[G]{Name: "straight and level", Pilot: Straight[G]}
}

// SameOrders fails t unless the computer pilot writes the same orders for player in both games, for n
// units: the games differ only by what the side cannot see (what), and the pilot reads the side's view
// alone.
func SameOrders(t *testing.T, g1, g2 ruleset.Piloted, player string, n int, what string) {
	t.Helper()
	if a, b := g1.PilotOrders(player), g2.PilotOrders(player); fmt.Sprint(a) != fmt.Sprint(b) || len(a) != n {
		t.Errorf("%s changed the pilot's orders:\n%v\n%v", what, a, b)
	}
}

// BenchTournament is the pilots' tournament of docs/bots.md: pilot against each opponent, games games
// each, half on each side, its win rate reported with the ends of its 95 % confidence interval.
func (m Match[G]) BenchTournament(b *testing.B, pilot Pilot[G], others []Opponent[G], games int) {
	for _, o := range others {
		b.Run(o.Name, func(b *testing.B) {
			var mean, half float64
			for b.Loop() {
				mean, half = m.Tournament(b, pilot, o.Pilot, games)
			}
			b.ReportMetric(mean*100, "win%")
			b.ReportMetric((mean-half)*100, "win%-low")
			b.ReportMetric((mean+half)*100, "win%-high")
		})
	}
}

// BenchPilotOrder times the computer pilot's orders for player in g, reported per unit as metric
// ("ms/aircraft") with units the number of units the player orders.
func BenchPilotOrder(b *testing.B, g ruleset.Piloted, player string, units int, metric string) {
	for b.Loop() {
		g.PilotOrders(player)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(units)/1e6, metric)
}

// Opponents are the pilots of docs/bots.md's tournament: random, a pilot that picks a random legal
// plan, and straight and level.
func Opponents[G ruleset.Game](random Pilot[G]) []Opponent[G] {
	return []Opponent[G]{{Name: "random-legal", Pilot: random}, {Name: "straight-and-level", Pilot: Straight[G]}}
}

// Ahead is a first side's score by a count of which more is better for it: 1 when first is greater, 0
// when less, ½ when they are equal.
func Ahead(first, second int) float64 {
	switch {
	case first > second:
		return 1
	case first < second:
		return 0
	}
	return 0.5
}
