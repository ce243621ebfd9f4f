package hex

import (
	"strings"
	"testing"
)

func TestASCIIMap(t *testing.T) {
	if ASCII(nil, "x") != "" {
		t.Error("no marks, no map")
	}
	got := ASCII([]Mark{
		{Hex{0, 0}, 'A', "A RED1"},
		{Hex{1, 0}, '1', "1 KURT"},
		{Hex{1, 0}, '2', "2 OTTO"},
		{Hex{90, 0}, '3', "3 FAR"},
	}, "more than one aircraft")
	lines := strings.Split(got, "\n")
	// The far mark makes the map too wide, so it is cut around the first mark: q -20 to 20.
	if lines[0] != "north is up; columns q -20 to 20" {
		t.Errorf("header %q", lines[0])
	}
	if !strings.Contains(got, "A RED1 (0,0); 1 KURT (1,0); 2 OTTO (1,0); 3 FAR (off this map)  (* = more than one aircraft in the hex)\n") {
		t.Errorf("legend:\n%s", got)
	}
	// Hex (0,0) is row 0, column 20 of the cut map (two characters a column); (1,0) is an odd column,
	// half a row lower, and holds two marks.
	row0 := lines[1+2*10]
	row0odd := lines[1+2*10+1]
	if row0[40] != 'A' || row0odd[42] != '*' {
		t.Errorf("marks misplaced:\n%s", got)
	}
	if Row(Hex{3, -1}) != 0 || Row(Hex{2, 0}) != 1 || Row(Hex{-1, 0}) != -1 {
		t.Error("Row")
	}
}
