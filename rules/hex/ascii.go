package hex

import (
	"fmt"
	"strings"
)

// Row is the map row of a hex (offset coordinates for flat-topped hexes): odd columns stand half a row
// lower, so a hex's row is its r plus half its q, rounded towards the even column.
func Row(h Hex) int { return h.R + (h.Q-(h.Q&1))/2 }

// Mark is one thing an ASCII map shows: the character drawn in its hex and its entry in the legend, which
// names it (the legend adds the symbol before and the hex after).
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

// The symbols a scene's ASCII map gives its units: the side's own and friendly aircraft and squadrons
// are capital letters, enemy ones digits; when either runs out, both go on with the spare symbols, and
// past those every further unit is '?' (each still has its own legend entry, with its hex). Ground
// units are '+' (the side's own) and 'x' (the enemy's). '*' and '~' are the map's own: several units in
// one character, and cloud.
const (
	ownSymbols   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	enemySymbols = "123456789"
	spareSymbols = "abcdefghijklmnopqrstuvwyz@$%&="
	cloudSymbol  = '~'
	crowdSymbol  = '*'
)

// ASCII draws the scene as a plain-text map (see the function ASCII): every unit in play with a symbol
// of its own and a legend entry (own and friendly aircraft and squadrons by letter, enemies by digit,
// ground units by '+' and 'x'), and the clouds among them. Units out of play are left off, as are the
// scene's tracks, lines and marks, which the report's text tells.
func (s *Scene) ASCII() string {
	var marks []Mark
	own, enemy, spare := 0, 0, 0
	next := func(pool string, used *int) byte {
		if *used < len(pool) {
			*used++
			return pool[*used-1]
		}
		if spare < len(spareSymbols) {
			spare++
			return spareSymbols[spare-1]
		}
		return '?'
	}
	for _, u := range s.Units {
		if u.Out {
			continue
		}
		var sym byte
		label := u.Label
		switch {
		case u.Kind != Aircraft && u.Kind != Squadron:
			sym = '+'
			if u.Side == Enemy {
				sym = 'x'
			}
			label += " " + groundName(u.Kind)
		case u.Side == Enemy:
			sym = next(enemySymbols, &enemy)
		default:
			sym = next(ownSymbols, &own)
		}
		marks = append(marks, Mark{Hex: u.Hex, Sym: sym, Label: label})
	}
	return ASCII(marks, s.Clouds)
}

// groundName is the legend's word for a kind of ground unit.
func groundName(k UnitKind) string {
	switch k {
	case Ground:
		return "vehicle"
	case Ship:
		return "ship"
	case Flak:
		return "flak gun"
	default:
		return "target"
	}
}

// ASCII draws the hexes around the marks and clouds, north up, with two hexes of margin: every mark and
// cloud is on it (a ruleset gives the clouds near its units, not a whole sky). Each
// hex is one character ('.' when empty, '~' when cloud), odd columns half a row lower. When the marks
// spread wider than 35 hex columns or taller than 20 rows, each character stands for a square of s×s
// hexes, s as small as lets every mark in (the header says so). Several marks in one character show as
// '*'. Below the map, the legend gives every mark, "<symbol> <label> <hex>", then what each '*' holds
// ("* = A, 2 in (1,0)", or "in one character" on a coarser map) and, when a cloud is drawn, the cloud's
// symbol; wrapped at MapColumns. No marks draw no map: "".
func ASCII(marks []Mark, clouds []Hex) string {
	if len(marks) == 0 {
		return ""
	}
	first := marks[0].Hex
	minQ, maxQ, minRow, maxRow := first.Q, first.Q, Row(first), Row(first)
	for _, m := range marks {
		minQ, maxQ = min(minQ, m.Hex.Q), max(maxQ, m.Hex.Q)
		minRow, maxRow = min(minRow, Row(m.Hex)), max(maxRow, Row(m.Hex))
	}
	for _, c := range clouds {
		minQ, maxQ = min(minQ, c.Q), max(maxQ, c.Q)
		minRow, maxRow = min(minRow, Row(c)), max(maxRow, Row(c))
	}
	minQ, maxQ, minRow, maxRow = minQ-2, maxQ+2, minRow-2, maxRow+2
	cols, rows := maxQ-minQ+1, maxRow-minRow+1
	scale := max(1, (cols+maxMapCols-1)/maxMapCols, (rows+maxMapRows-1)/maxMapRows)
	var b strings.Builder
	var grid [][]byte
	// at is the character of a hex, or false when the hex lies outside the map.
	var at func(h Hex) (x, y int, ok bool)
	if scale == 1 {
		width, height := cols*2, rows*2
		grid = make([][]byte, height)
		for y := range grid {
			grid[y] = []byte(strings.Repeat(" ", width))
		}
		at = func(h Hex) (int, int, bool) {
			row := Row(h)
			x, y := (h.Q-minQ)*2, (row-minRow)*2+(h.Q&1)
			return x, y, h.Q >= minQ && h.Q <= maxQ && row >= minRow && row <= maxRow && y < height
		}
		for q := minQ; q <= maxQ; q++ {
			for row := minRow; row <= maxRow; row++ {
				if x, y, ok := at(Hex{Q: q, R: row - (q-(q&1))/2}); ok {
					grid[y][x] = '.'
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
		at = func(h Hex) (int, int, bool) {
			row := Row(h)
			ok := h.Q >= minQ && h.Q <= maxQ && row >= minRow && row <= maxRow
			return (h.Q - minQ) / scale * 2, (row - minRow) / scale, ok
		}
		fmt.Fprintf(&b, "north is up; columns q %d to %d; each character is %d×%d hexes\n", minQ, maxQ, scale, scale)
	}
	// What each character holds, in the marks' order, so a crowd's legend entry can name its members
	// (and, on a map of one hex a character, their hex).
	type spot struct{ x, y int }
	held := map[spot][]byte{}
	hexOf := map[spot]Hex{}
	var crowds []spot
	for _, m := range marks {
		x, y, _ := at(m.Hex)
		k := spot{x, y}
		held[k] = append(held[k], m.Sym)
		hexOf[k] = m.Hex
		switch len(held[k]) {
		case 1:
			grid[y][x] = m.Sym
		case 2:
			grid[y][x] = crowdSymbol
			crowds = append(crowds, k)
		}
	}
	clouded := false
	for _, c := range clouds {
		if x, y, ok := at(c); ok && grid[y][x] == '.' {
			grid[y][x] = cloudSymbol
			clouded = true
		}
	}
	for _, line := range grid {
		b.WriteString(strings.TrimRight(string(line), " "))
		b.WriteByte('\n')
	}
	var legend []string
	for _, m := range marks {
		legend = append(legend, fmt.Sprintf("%c %s %s", m.Sym, m.Label, m.Hex))
	}
	for _, k := range crowds {
		where := "one character"
		if scale == 1 {
			where = hexOf[k].String()
		}
		syms := held[k]
		names := make([]string, len(syms))
		for i, s := range syms {
			names[i] = string(s)
		}
		legend = append(legend, fmt.Sprintf("%c = %s in %s", crowdSymbol, strings.Join(names, ", "), where))
	}
	if clouded {
		legend = append(legend, fmt.Sprintf("%c cloud", cloudSymbol))
	}
	line := ""
	for _, item := range legend {
		switch {
		case line == "":
			line = item
		case len(line)+2+len(item) > MapColumns:
			b.WriteString(line)
			b.WriteString(";\n")
			line = item
		default:
			line += "; " + item
		}
	}
	b.WriteString(line)
	b.WriteByte('\n')
	return b.String()
}
