package rulesettest

import (
	"math"
	"testing"
)

func TestMeanInterval(t *testing.T) {
	if m, h := MeanInterval([]float64{1, 1, 1, 1}); m != 1 || h != 0 {
		t.Errorf("all wins: %v ± %v", m, h)
	}
	// Scores 1, 0, 1, 0: mean ½, sample sd √(1/3), half-width 1.96·sd/2.
	m, h := MeanInterval([]float64{1, 0, 1, 0})
	if m != 0.5 || math.Abs(h-1.96*math.Sqrt(1.0/3)/2) > 1e-12 {
		t.Errorf("alternating: %v ± %v", m, h)
	}
}

// Tournament puts the computer pilot on the first side in even games and turns the other games' scores
// round.
func TestTournamentAlternatesSides(t *testing.T) {
	var firsts []bool
	m, _ := Tournament(4, func(seed uint64, first bool) float64 {
		firsts = append(firsts, first)
		if first {
			return 1 // the first side (the computer pilot) wins
		}
		return 0 // the first side (the other pilot) loses: a win for the computer pilot
	})
	if m != 1 || len(firsts) != 4 || !firsts[0] || firsts[1] || !firsts[2] || firsts[3] {
		t.Errorf("mean %v, sides %v", m, firsts)
	}
}
