package tables

import (
	"strings"
	"testing"
)

// Seed 000, "Hit location and final hit result D10 rolls": tables for 1-4 hits against 1E and ME
// targets, a D10 row each, cells of system letters with * on a critical system.
func TestHouseHitLocationShape(t *testing.T) {
	tb := house(t)
	for _, me := range []bool{false, true} {
		class := Class1E
		if me {
			class = ClassME
		}
		cells, starred, twoToFour := 0, 0, 0
		has := map[byte]int{} // cells holding each letter
		letters := map[byte]int{}
		total := 0
		for hits := 1; hits <= 4; hits++ {
			for d := 1; d <= 10; d++ {
				loc, err := tb.Location(me, hits, d)
				if err != nil {
					t.Fatal(err)
				}
				if len(loc.Letters) != hits {
					t.Errorf("%s %d hits D10 %d: %q has %d letters", class, hits, d, loc, len(loc.Letters))
				}
				if loc.Critical >= 0 && !strings.ContainsRune(CriticalLetters, rune(loc.Letters[loc.Critical])) {
					t.Errorf("%s %d hits D10 %d: %q stars a system that cannot crit", class, hits, d, loc)
				}
				cells++
				if hits >= 2 {
					twoToFour++
					if loc.Critical >= 0 {
						starred++
					}
				}
				seen := map[byte]bool{}
				for i := 0; i < len(loc.Letters); i++ {
					letters[loc.Letters[i]]++
					total++
					if !seen[loc.Letters[i]] {
						has[loc.Letters[i]]++
						seen[loc.Letters[i]] = true
					}
				}
			}
		}
		// House guidance (docs/tables.md): a star in about a third of the 2-4-hit cells.
		if starred < 8 || starred > 12 {
			t.Errorf("%s: %d of %d 2-4-hit cells starred; want about a third", class, starred, twoToFour)
		}
		// C, L and G in 10-20% of cells; E too on single-engine targets, more on multi-engine ones.
		for _, l := range []byte("CLG") {
			if has[l] < 4 || has[l] > 8 {
				t.Errorf("%s: %c in %d of %d cells; want 10-20%%", class, l, has[l], cells)
			}
		}
		if !me && (has['E'] < 4 || has['E'] > 8) {
			t.Errorf("1E: E in %d of %d cells; want 10-20%%", has['E'], cells)
		}
		fw := letters['F'] + letters['W']
		if !me && fw*10 < total*7 {
			t.Errorf("1E: F and W are %d of %d letters; want mostly F and W", fw, total)
		}
	}
	// Multi-engine targets take more wing and engine hits.
	share := func(me bool) float64 {
		we, n := 0, 0
		for hits := 1; hits <= 4; hits++ {
			for d := 1; d <= 10; d++ {
				loc, _ := tb.Location(me, hits, d)
				we += strings.Count(loc.Letters, "W") + strings.Count(loc.Letters, "E")
				n += len(loc.Letters)
			}
		}
		return float64(we) / float64(n)
	}
	if share(true) <= share(false) {
		t.Errorf("W+E share: ME %.2f, 1E %.2f; ME should take more", share(true), share(false))
	}
}

func TestLocationArguments(t *testing.T) {
	tb := house(t)
	ten, _ := tb.Location(false, 2, 10)
	zero, err := tb.Location(false, 2, 0)
	if err != nil || zero != ten {
		t.Errorf("a D10 of 0 must read as 10: %v, %v vs %v", zero, err, ten)
	}
	for _, bad := range [][2]int{{0, 5}, {5, 5}, {2, 11}, {2, -1}} {
		if _, err := tb.Location(true, bad[0], bad[1]); err == nil {
			t.Errorf("Location(ME, %d hits, D10 %d) must be an error", bad[0], bad[1])
		}
	}
	for d := 1; d <= 10; d++ {
		want := "R"
		if d%2 == 1 {
			want = "L"
		}
		if Side(d) != want {
			t.Errorf("Side(%d) = %s; want %s (seed 000: odd left, even right)", d, Side(d), want)
		}
	}
	if Side(0) != "R" {
		t.Error("Side(0): a rolled 0 is 10, even, so right")
	}
}

func TestParseLocation(t *testing.T) {
	for _, c := range []struct {
		cell    string
		hits    int
		letters string
		crit    int
		faults  int
	}{
		{"WFEE*", 4, "WFEE", 3, 0},
		{"C*W", 2, "CW", 0, 0},
		{"F", 1, "F", -1, 0},
		{"L*", 1, "L", 0, 0},
		{"FW*", 2, "FW", 1, 1},   // W cannot crit
		{"*FW", 2, "FW", -1, 1},  // a star with nothing before it
		{"E*C*", 2, "EC", 0, 1},  // two stars
		{"FWX", 3, "FW", -1, 2},  // X is no system, and then 2 letters for 3 hits
		{"FWE", 2, "FWE", -1, 1}, // too many letters
		{"fw", 2, "", -1, 3},     // lower case is not a system letter
	} {
		loc, faults := parseLocation(c.cell, c.hits)
		if loc.Letters != c.letters || loc.Critical != c.crit || len(faults) != c.faults {
			t.Errorf("parseLocation(%q, %d) = %q, %d, %q; want %q, %d, %d faults", c.cell, c.hits, loc.Letters, loc.Critical, faults, c.letters, c.crit, c.faults)
		}
	}
}
