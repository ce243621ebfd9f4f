package tables

import (
	"fmt"
	"strings"
)

// Column is a range column of the gunnery charts (seed 000, "Main combat rule changes": ranges 1-2,
// 3, 4, 5-6 and 7-8 hexes, the range adjusted for altitude).
type Column int

// The five range columns, closest first.
const (
	Col12 Column = iota // ranges 1-2
	Col3                // range 3
	Col4                // range 4
	Col56               // ranges 5-6
	Col78               // ranges 7-8
	numColumns
)

var columnNames = [numColumns]string{"1-2", "3", "4", "5-6", "7-8"}

// String is the column's printed heading, e.g. "5-6".
func (c Column) String() string {
	if c < 0 || c >= numColumns {
		return fmt.Sprintf("Column(%d)", int(c))
	}
	return columnNames[c]
}

// MaxRange is the longest range any gun fires at (seed 000: "the maximum range for all firing is 8
// hexes"). Weapons rated range 3 in the original stop at 6; that limit belongs to the gun, not the
// chart, so the engine enforces it.
const MaxRange = 8

// ColumnFor returns the column for an altitude-adjusted range in hexes. Ranges 1 to 8 have a column;
// range 0 (the same hex, within 500 ft) reads as the closest column, 1-2. Anything else is out of range.
func ColumnFor(rangeHexes int) (Column, bool) {
	switch {
	case rangeHexes < 0 || rangeHexes > MaxRange:
		return 0, false
	case rangeHexes <= 2:
		return Col12, true
	case rangeHexes == 3:
		return Col3, true
	case rangeHexes == 4:
		return Col4, true
	case rangeHexes <= 6:
		return Col56, true
	default:
		return Col78, true
	}
}

// hitValues are the hit counts a chart cell may hold (seed 000, "Main combat rule changes" and "Hit
// location": 1 to 4, then 6, 8 and 10 to 16 in steps of two, the larger ones read as blocks of 4 and a
// 2), with 0 for a miss.
var hitValues = []int{0, 1, 2, 3, 4, 6, 8, 10, 12, 14, 16}

func isHitValue(n int) bool {
	for _, v := range hitValues {
		if v == n {
			return true
		}
	}
	return false
}

// Chart is one gunnery chart: for each row (the modified 2D6) from First to Last, the hits in each
// range column. A Chart is read-only.
type Chart struct {
	key   string
	first int
	rows  [][numColumns]int // rows[i] is row first+i
}

// Key is the chart's weapon mix, e.g. "8x30M".
func (c *Chart) Key() string { return c.key }

// First is the chart's first row; a lower modified roll reads this row.
func (c *Chart) First() int { return c.first }

// Last is the chart's last row; a higher modified roll reads this row.
func (c *Chart) Last() int { return c.first + len(c.rows) - 1 }

// Row clamps a modified roll to the chart's rows: below the first row reads the first, above the last
// reads the last. The house charts run from row -1 to row 15, which covers every roll the house DRMs
// can make (2 - 3 = -1 to 12 + 1 = 13) with room to spare for a moderator's DRMs.
func (c *Chart) Row(row int) int { return min(max(row, c.First()), c.Last()) }

// Hits is the cell for a column and a modified roll (clamped with Row). An unknown column gives 0.
func (c *Chart) Hits(col Column, row int) int {
	if col < 0 || col >= numColumns {
		return 0
	}
	return c.rows[c.Row(row)-c.first][col]
}

// Max is the best cell of the chart over every row and column.
func (c *Chart) Max() int {
	m := 0
	for _, r := range c.rows {
		for _, h := range r {
			m = max(m, h)
		}
	}
	return m
}

// Chart returns the gunnery chart with the given key (one of MixKeys).
func (t *Tables) Chart(key string) (*Chart, bool) {
	c, ok := t.gunnery[key]
	return c, ok
}

// MaxHits is the best cell of the chart, or 0 for an unknown chart. Seed 000 ("Hit location") rolls
// the hit-location D10s together with the 2D6 only when the shot could score 6 hits or more on its best
// roll: the engine asks MaxHits(chart) >= 6.
func (t *Tables) MaxHits(chart string) int {
	c, ok := t.gunnery[chart]
	if !ok {
		return 0
	}
	return c.Max()
}

// Hits is the number of hits for a chart, a column and a modified roll (2D6 plus the deflection DRM),
// the roll clamped to the chart's rows.
func (t *Tables) Hits(chart string, col Column, row int) (int, error) {
	c, ok := t.gunnery[chart]
	if !ok {
		return 0, fmt.Errorf("no gunnery chart %q (want one of %s)", chart, strings.Join(mixKeys, ", "))
	}
	if col < 0 || col >= numColumns {
		return 0, fmt.Errorf("no range column %d", int(col))
	}
	return c.Hits(col, row), nil
}

// Shot is one reading of a gunnery chart, with everything a receipt shows.
type Shot struct {
	Chart  string // the chart, e.g. "8x30M"
	Range  int    // the altitude-adjusted range in hexes
	Column Column
	Roll   int // the raw 2D6, 2..12
	DRM    int // the deflection DRM
	Row    int // Roll + DRM
	Read   int // the row read: Row clamped to the chart's rows
	Hits   int
}

// Fire reads a chart for a shot: the column from the range, the row from the raw 2D6 and the DRM
// (seed 000, "Main combat rule changes"). The red and white dice are added together; the red one alone
// matters for criticals, which the engine applies.
func (t *Tables) Fire(chart string, rangeHexes, roll2d6, drm int) (Shot, error) {
	c, ok := t.gunnery[chart]
	if !ok {
		return Shot{}, fmt.Errorf("no gunnery chart %q (want one of %s)", chart, strings.Join(mixKeys, ", "))
	}
	col, ok := ColumnFor(rangeHexes)
	if !ok {
		return Shot{}, fmt.Errorf("range %d is beyond the charts (0 to %d hexes)", rangeHexes, MaxRange)
	}
	if roll2d6 < 2 || roll2d6 > 12 {
		return Shot{}, fmt.Errorf("a 2D6 roll is 2 to 12, got %d", roll2d6)
	}
	row := roll2d6 + drm
	return Shot{Chart: chart, Range: rangeHexes, Column: col, Roll: roll2d6, DRM: drm, Row: row,
		Read: c.Row(row), Hits: c.Hits(col, row)}, nil
}
