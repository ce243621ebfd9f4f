//go:build race

package rulesettest

// raceDetector is true in a build with the race detector (go test -race).
const raceDetector = true
