package hex

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestASCIIMap(t *testing.T) {
	if ASCII(nil, "x") != "" {
		t.Error("no marks, no map")
	}
	got := ASCII([]Mark{
		{Hex{0, 0}, 'A', "A RED1"},
		{Hex{1, 0}, '1', "1 KURT"},
		{Hex{1, 0}, '2', "2 OTTO"},
	}, "more than one aircraft")
	lines := strings.Split(got, "\n")
	if lines[0] != "north is up; columns q -2 to 3" {
		t.Errorf("header %q", lines[0])
	}
	if !strings.Contains(got, "A RED1 (0,0); 1 KURT (1,0); 2 OTTO (1,0)\n(* = more than one aircraft in the hex)\n") {
		t.Errorf("legend:\n%s", got)
	}
	// Hex (0,0) is row 0, column 2 of the map (two characters a column, two hexes of margin); (1,0) is an
	// odd column, half a row lower, and holds two marks.
	row0, row0odd := lines[1+2*2], lines[1+2*2+1]
	if row0[4] != 'A' || row0odd[6] != '*' {
		t.Errorf("marks misplaced:\n%s", got)
	}
	if Row(Hex{3, -1}) != 0 || Row(Hex{2, 0}) != 1 || Row(Hex{-1, 0}) != -1 {
		t.Error("Row")
	}
}

// A map frames every mark however far apart, in at most 72 columns, coarser when it must.
func TestASCIIMapFramesEverything(t *testing.T) {
	var marks []Mark
	for i := 0; i < 12; i++ {
		marks = append(marks, Mark{Hex{i * 9, -i * 7}, byte('A' + i), "AIRCRAFT-" + string(rune('A'+i))})
	}
	marks = append(marks, Mark{Hex{-40, 30}, '1', "1 FAR"})
	got := ASCII(marks, "more than one aircraft")
	for _, l := range strings.Split(got, "\n") {
		if n := utf8.RuneCountInString(l); n > MapColumns {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	if strings.Contains(got, "off this map") || !strings.Contains(got, "each character is") {
		t.Errorf("every mark is framed, at a coarser scale:\n%s", got)
	}
	body := got[:strings.Index(got, "AIRCRAFT-A")]
	for _, m := range marks {
		if !strings.ContainsRune(body, rune(m.Sym)) && !strings.Contains(body, "*") {
			t.Errorf("mark %c is not drawn:\n%s", m.Sym, got)
		}
	}
	if !strings.Contains(body, "1") || !strings.Contains(body, "A") || !strings.Contains(body, "L") {
		t.Errorf("the far marks are drawn:\n%s", got)
	}
}
