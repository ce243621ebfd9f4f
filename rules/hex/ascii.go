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

// ASCII draws the hexes around the marks, each hex one character ('.' when empty), odd columns half a
// row lower, north up, with two hexes of margin; a map wider than 40 columns or taller than 20 rows is
// cut to that size around the first mark. Two marks in one hex show as '*'. Below the map, the legend
// gives each mark's label and hex (or "(off this map)"), then "(* = <crowd> in the hex)", crowd being
// e.g. "more than one aircraft". No marks draw no map: "".
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
	// Keep the map readable: at most 40 columns and 20 rows, centred on the first mark.
	if maxQ-minQ > 40 || maxRow-minRow > 20 {
		minQ, maxQ, minRow, maxRow = first.Q-20, first.Q+20, Row(first)-10, Row(first)+10
	}
	width, height := (maxQ-minQ+1)*2, (maxRow-minRow+1)*2
	grid := make([][]byte, height)
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
	var legend []string
	for _, m := range marks {
		row := Row(m.Hex)
		if m.Hex.Q < minQ || m.Hex.Q > maxQ || row < minRow || row > maxRow {
			legend = append(legend, m.Label+" (off this map)")
			continue
		}
		if x, y := at(m.Hex.Q, row); y < height {
			if grid[y][x] != '.' {
				grid[y][x] = '*' // two in one hex
			} else {
				grid[y][x] = m.Sym
			}
		}
		legend = append(legend, fmt.Sprintf("%s %s", m.Label, m.Hex))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "north is up; columns q %d to %d\n", minQ, maxQ)
	for _, line := range grid {
		b.WriteString(strings.TrimRight(string(line), " "))
		b.WriteByte('\n')
	}
	b.WriteString(strings.Join(legend, "; "))
	fmt.Fprintf(&b, "  (* = %s in the hex)\n", crowd)
	return b.String()
}
