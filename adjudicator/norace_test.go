//go:build !race

package adjudicator

const raceEnabled = false
