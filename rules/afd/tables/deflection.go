package tables

import "fmt"

// The rows of the deflection DRM table (seed 000, "Main combat rule changes", deflection DRMs): the
// shooter's clock position seen from the target, 12 being straight ahead of the target.
const (
	RowNoDeflection = "5-7" // from dead astern or 30° either side of it: 5, 6 or 7 o'clock
	RowMedium       = "4/8" // 60° aft of the beam: 4 or 8 o'clock
	RowHigh         = "9-3" // the whole front half: 9 through 12 to 3 o'clock, beam shots to head-on
)

var deflectionRows = []string{RowNoDeflection, RowMedium, RowHigh}

// DeflectionRows returns the names of the DRM table's rows, least deflection first.
func DeflectionRows() []string { return append([]string(nil), deflectionRows...) }

func deflectionIndex(row string) int {
	for i, r := range deflectionRows {
		if r == row {
			return i
		}
	}
	return -1
}

// Target classes of the DRM and hit-location tables (seed 000: "1E" single-engine, "ME" two, three or
// four engines).
const (
	Class1E = "1E"
	ClassME = "ME"
)

var classes = []string{Class1E, ClassME}

func classIndex(multiEngine bool) int {
	if multiEngine {
		return 1
	}
	return 0
}

// normClock folds any whole number onto a clock position 1..12 (0 is 12, 13 is 1).
func normClock(clock int) int {
	c := clock % 12
	if c <= 0 {
		c += 12
	}
	return c
}

// DeflectionRow names the DRM row for a fixed gun's shot from the given clock position, the shooter's
// position seen from the target with 12 straight ahead of the target and 6 dead astern: 5, 6 and 7 are
// RowNoDeflection, 4 and 8 RowMedium, and 9, 10, 11, 12, 1, 2 and 3 RowHigh (seed 000, "Main combat
// rule changes"). Clock positions outside 1..12 are folded onto the clock (0 is 12).
func DeflectionRow(clock int) string {
	switch normClock(clock) {
	case 5, 6, 7:
		return RowNoDeflection
	case 4, 8:
		return RowMedium
	default:
		return RowHigh
	}
}

// DRM is the deflection DRM for a shot from the given clock position (as DeflectionRow) at a
// single-engine or multi-engine target.
func (t *Tables) DRM(clock int, multiEngine bool) int {
	return t.deflection[deflectionIndex(DeflectionRow(clock))][classIndex(multiEngine)]
}

// DRMRow is the DRM of a named row. Flexible guns choose their row by their own test (seed 000: the
// target's heading against the gun's line of fire), and then read the table here.
func (t *Tables) DRMRow(row string, multiEngine bool) (int, error) {
	i := deflectionIndex(row)
	if i < 0 {
		return 0, fmt.Errorf("no deflection row %q (want %q, %q or %q)", row, RowNoDeflection, RowMedium, RowHigh)
	}
	return t.deflection[i][classIndex(multiEngine)], nil
}
