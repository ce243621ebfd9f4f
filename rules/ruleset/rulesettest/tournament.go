package rulesettest

import "math"

// Tournament plays games games of a computer pilot against another pilot, on alternate sides, and
// returns the computer pilot's mean score (a win 1, a draw ½) and the half-width of its 95 % confidence
// interval (1.96 standard errors). play(seed, first) plays one game with dice from seed, the computer
// pilot on the first side when first is true, and returns the first side's score.
func Tournament(games int, play func(seed uint64, first bool) float64) (mean, half float64) {
	scores := make([]float64, 0, games)
	for i := 0; i < games; i++ {
		seed := uint64(i + 1)
		if i%2 == 0 {
			scores = append(scores, play(seed, true))
		} else {
			scores = append(scores, 1-play(seed, false))
		}
	}
	return MeanInterval(scores)
}

// MeanInterval is the mean of scores and the half-width of its 95 % confidence interval.
func MeanInterval(scores []float64) (mean, half float64) {
	if len(scores) == 0 {
		return 0, 0
	}
	for _, s := range scores {
		mean += s
	}
	mean /= float64(len(scores))
	if len(scores) < 2 {
		return mean, 0
	}
	var ss float64
	for _, s := range scores {
		ss += (s - mean) * (s - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/float64(len(scores)-1)) / math.Sqrt(float64(len(scores)))
}
