//go:build race

package adjudicator

// raceEnabled is true under the race detector, which slows the drawing of the reports' pictures about
// tenfold: the slowest fog tests then play fewer games.
const raceEnabled = true
