package hex

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestASCIIMap(t *testing.T) {
	if ASCII(nil, nil) != "" {
		t.Error("no marks, no map")
	}
	got := ASCII([]Mark{
		{Hex{0, 0}, 'A', "RED1"},
		{Hex{1, 0}, '1', "KURT"},
		{Hex{1, 0}, '2', "OTTO"},
	}, nil)
	lines := strings.Split(got, "\n")
	if lines[0] != "north is up; columns q -2 to 3" {
		t.Errorf("header %q", lines[0])
	}
	if !strings.Contains(got, "A RED1 (0,0); 1 KURT (1,0); 2 OTTO (1,0); * = 1, 2 in (1,0)\n") {
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
	marks = append(marks, Mark{Hex{-40, 30}, '1', "FAR"})
	got := ASCII(marks, nil)
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

// checkMapTrue checks that every symbol on an ASCII map means what its legend says: each unit symbol is
// drawn in the character of the hex its entry gives (or that character is a '*' whose entry names it),
// each '*' has an entry naming two or more symbols, each '~' is explained, and nothing else is drawn.
func checkMapTrue(t *testing.T, got string, units int) {
	t.Helper()
	i := strings.Index(got, "\n")
	header, rest := got[:i], got[i+1:]
	var grid []string
	lines := strings.Split(strings.TrimSuffix(rest, "\n"), "\n")
	for len(lines) > 0 && strings.Trim(lines[0], ".~*+x?@$%&=0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwyz ") == "" {
		grid, lines = append(grid, lines[0]), lines[1:]
	}
	legend := strings.Split(strings.ReplaceAll(strings.Join(lines, " "), ";  ", "; "), "; ")
	var minQ, maxQ, scale int
	scale = 1
	if _, err := fmt.Sscanf(header, "north is up; columns q %d to %d", &minQ, &maxQ); err != nil {
		t.Fatalf("header %q: %v", header, err)
	}
	if strings.Contains(header, "each character is") {
		fmt.Sscanf(header[strings.Index(header, "each character is")+len("each character is "):], "%d", &scale)
	}
	explained := map[byte]bool{'.': true, ' ': true}
	drawn := map[byte]int{}
	for _, l := range grid {
		for k := range len(l) {
			drawn[l[k]]++
		}
	}
	entries := 0
	for _, e := range legend {
		e = strings.TrimSuffix(strings.TrimSpace(e), ";")
		switch {
		case strings.HasPrefix(e, "* = "):
			if strings.Count(e, ",") < 1 {
				t.Errorf("the crowd entry %q names fewer than two", e)
			}
			if scale > 1 && !strings.HasSuffix(e, "in one character") {
				t.Errorf("%q: at %d×%d hexes a character is not one hex:\n%s", e, scale, scale, got)
			}
			explained['*'] = true
		case e == "~ cloud":
			explained['~'] = true
		default:
			entries++
			explained[e[0]] = true
			if drawn[e[0]] == 0 && drawn['*'] == 0 {
				t.Errorf("legend entry %q: its symbol is not on the map:\n%s", e, got)
			}
		}
	}
	if entries != units {
		t.Errorf("%d unit entries in the legend, want %d:\n%s", entries, units, got)
	}
	for c := range drawn {
		if !explained[c] {
			t.Errorf("%q on the map is not in the legend:\n%s", c, got)
		}
	}
}

// A scene's map: every unit in play, whatever the count, with its own legend entry; the clouds, with
// theirs; '*' explained by what it holds, at either scale.
func TestSceneASCII(t *testing.T) {
	s := Scene{Clouds: []Hex{{4, 4}, {5, 4}}}
	for i := range 12 {
		s.Units = append(s.Units, SceneUnit{Hex: Hex{i, 0}, Kind: Aircraft, Side: Enemy, Label: fmt.Sprintf("HE%d", i+1)})
	}
	s.Units = append(s.Units,
		SceneUnit{Hex: Hex{0, 2}, Kind: Aircraft, Side: Own, Label: "RED1"},
		SceneUnit{Hex: Hex{0, 2}, Kind: Ship, Side: Enemy, Label: "KAGA"},
		SceneUnit{Hex: Hex{1, 2}, Kind: Aircraft, Side: Own, Label: "RED2", Out: true})
	got := s.ASCII()
	checkMapTrue(t, got, 14)
	for _, want := range []string{"1 HE1 (0,0)", "9 HE9 (8,0)", "a HE10 (9,0)", "c HE12 (11,0)", "A RED1 (0,2)", "x KAGA ship (0,2)", "* = A, x in (0,2)", "~ cloud"} {
		if !strings.Contains(got, want) {
			t.Errorf("the map lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "RED2") {
		t.Errorf("a unit out of play is on the map:\n%s", got)
	}
	// Spread wide, the map is coarser: a '*' then holds units of different hexes, and says so.
	s.Units = append(s.Units, SceneUnit{Hex: Hex{80, 0}, Kind: Aircraft, Side: Own, Label: "FAR"})
	got = s.ASCII()
	if !strings.Contains(got, "each character is") {
		t.Fatalf("not coarser:\n%s", got)
	}
	checkMapTrue(t, got, 15)
	if !strings.Contains(got, "in one character") {
		t.Errorf("no crowd of one character:\n%s", got)
	}
}
