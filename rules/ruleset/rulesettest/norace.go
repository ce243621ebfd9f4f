//go:build !race

package rulesettest

// raceDetector: see race.go.
const raceDetector = false
