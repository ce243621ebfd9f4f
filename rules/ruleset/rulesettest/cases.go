package rulesettest

import (
	"os"
	"strconv"
	"testing"
)

// Cases is how many random cases a randomised test (the rulesets' differential tests) runs: the count
// SORTIE_DIFF_N gives when it is set, else underRace under the race detector (several times slower) and
// normal without it. A count that is not a positive number fails the test rather than running none.
func Cases(t testing.TB, normal, underRace int) int {
	t.Helper()
	if s := os.Getenv("SORTIE_DIFF_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("SORTIE_DIFF_N=%q: want a positive count", s)
		}
		return n
	}
	if raceDetector {
		return underRace
	}
	return normal
}
