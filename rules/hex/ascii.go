package hex

import (
	"fmt"
	"strings"
)

// Row is the map row of a hex (offset coordinates for flat-topped hexes): odd columns stand half a row
// lower, so a hex's row is its r plus half its q, rounded towards the even column.
func Row(h Hex) int { return h.R + (h.Q-(h.Q&1))/2 }

// Mark is one thing an ASCII map shows: the character drawn in its hex and its entry in the legend.
type Mark struct {
	Hex   Hex
	Sym   byte
	Label string
}

// MapColumns is the widest line an ASCII map writes: with a report's two-space indent it stays within
// the 72 columns any mail program shows.
const MapColumns = 70

// maxMapCols and maxMapRows bound the grid: two characters a hex column, two lines a hex row.
const (
	maxMapCols = MapColumns / 2
	maxMapRows = 20
)

// ASCII draws the hexes around the marks, north up, with two hexes of margin: every mark is on it. Each
// hex is one character ('.' when empty), odd columns half a row lower. When the marks spread wider than
// 35 hex columns or taller than 20 rows, each character stands for a square of s×s hexes, s as small as
// lets every mark in (the header says so). Two marks in one character show as '*'. Below the map, the
// legend gives each mark's label and hex, wrapped at MapColumns, then "(* = <crowd> in the hex)", crowd
// being e.g. "more than one aircraft". No marks draw no map: "".
func ASCII(marks []Mark, crowd string) string {
	if len(marks) == 0 {
		return ""
	}
	first := marks[0].Hex
	minQ, maxQ, minRow, maxRow := first.Q, first.Q, Row(first), Row(first)
	for _, m := range marks {
		minQ, maxQ = min(minQ, m.Hex.Q), max(maxQ, m.Hex.Q)
		minRow, maxRow = min(minRow, Row(m.Hex)), max(maxRow, Row(m.Hex))
	}
	minQ, maxQ, minRow, maxRow = minQ-2, maxQ+2, minRow-2, maxRow+2
	cols, rows := maxQ-minQ+1, maxRow-minRow+1
	scale := max(1, (cols+maxMapCols-1)/maxMapCols, (rows+maxMapRows-1)/maxMapRows)
	var b strings.Builder
	var grid [][]byte
	if scale == 1 {
		width, height := cols*2, rows*2
		grid = make([][]byte, height)
		for y := range grid {
			grid[y] = []byte(strings.Repeat(" ", width))
		}
		at := func(q, row int) (int, int) { return (q - minQ) * 2, (row-minRow)*2 + (q & 1) }
		for q := minQ; q <= maxQ; q++ {
			for row := minRow; row <= maxRow; row++ {
				if x, y := at(q, row); y < height {
					grid[y][x] = '.'
				}
			}
		}
		for _, m := range marks {
			if x, y := at(m.Hex.Q, Row(m.Hex)); y < height {
				if grid[y][x] != '.' {
					grid[y][x] = '*' // two in one hex
				} else {
					grid[y][x] = m.Sym
				}
			}
		}
		fmt.Fprintf(&b, "north is up; columns q %d to %d\n", minQ, maxQ)
	} else {
		width, height := (cols+scale-1)/scale, (rows+scale-1)/scale
		grid = make([][]byte, height)
		for y := range grid {
			grid[y] = []byte(strings.TrimRight(strings.Repeat(". ", width), " "))
		}
		for _, m := range marks {
			x, y := (m.Hex.Q-minQ)/scale*2, (Row(m.Hex)-minRow)/scale
			if grid[y][x] != '.' {
				grid[y][x] = '*'
			} else {
				grid[y][x] = m.Sym
			}
		}
		fmt.Fprintf(&b, "north is up; columns q %d to %d; each character is %d×%d hexes\n", minQ, maxQ, scale, scale)
	}
	for _, line := range grid {
		b.WriteString(strings.TrimRight(string(line), " "))
		b.WriteByte('\n')
	}
	var legend []string
	for _, m := range marks {
		legend = append(legend, fmt.Sprintf("%s %s", m.Label, m.Hex))
	}
	legend = append(legend, fmt.Sprintf("(* = %s in the hex)", crowd))
	line := ""
	for i, item := range legend {
		sep := "; "
		if i == len(legend)-1 {
			sep = "  "
		}
		switch {
		case line == "":
			line = item
		case len(line)+len(sep)+len(item) > MapColumns:
			b.WriteString(line)
			b.WriteString(strings.TrimRight(sep, " "))
			b.WriteByte('\n')
			line = item
		default:
			line += sep + item
		}
	}
	b.WriteString(line)
	b.WriteByte('\n')
	return b.String()
}
