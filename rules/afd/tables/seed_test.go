package tables

import (
	"slices"
	"testing"
)

// The tests in this file hold the house tables to what seed 000 (the Air Force / Dauntless 30-degree rules)
// says in "Main combat rule changes" and "Hit location and final hit result D10 rolls".

func house(t *testing.T) *Tables {
	t.Helper()
	tb, err := Default()
	if err != nil {
		t.Fatalf("loading the house tables: %v", err)
	}
	return tb
}

// Seed 000, "Hit location and final hit result D10 rolls", worked example: a Spitfire (8x30M) fires at
// an He-111 from astern at range 3, +1 DRM for no deflection; raw 2D6 8 (red 5, white 3) reads row 9 of
// the range-3 column: 4 hits. D10 5 on the 4-hits-vs-ME table gives WFEE*, the * on the E; the red 5
// adds one E hit; the D10 is odd, so it is the left engine.
func TestSeed000WorkedExample(t *testing.T) {
	tb := house(t)
	drm := tb.DRM(6, true)
	if drm != 1 {
		t.Fatalf("DRM from 6 o'clock vs ME = %+d; seed 000 gives +1 for no deflection", drm)
	}
	shot, err := tb.Fire("8x30M", 3, 5+3, drm)
	if err != nil {
		t.Fatal(err)
	}
	if shot.Column != Col3 || shot.Row != 9 || shot.Read != 9 || shot.Hits != 4 {
		t.Fatalf("8x30M at range 3, 2D6 8 %+d: %+v; seed 000 reads row 9 of the range-3 column, 4 hits", drm, shot)
	}
	if got := SplitHits(shot.Hits); !slices.Equal(got, []int{4}) {
		t.Fatalf("SplitHits(4) = %v; want one block of 4", got)
	}
	loc, err := tb.Location(true, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	if loc.String() != "WFEE*" || loc.Letters != "WFEE" || loc.Critical != 3 {
		t.Fatalf("ME, 4 hits, D10 5 = %q (letters %q, critical %d); seed 000 gives WFEE*, the star on the last E", loc, loc.Letters, loc.Critical)
	}
	if Side(5) != "L" {
		t.Errorf("Side(5) = %s; seed 000: an odd D10 hits the left engine", Side(5))
	}
	// Red 5 adds one hit to the starred system (shots of 2 hits or more): W F E E + E.
	if shot.Hits < 2 {
		t.Fatal("the example's shot must be able to crit")
	}
	final := loc.Letters + string(loc.Letters[loc.Critical])
	if final != "WFEEE" {
		t.Errorf("with the red 5 the hits are %s; seed 000 gives WFEEE", final)
	}
}

// Seed 000, "Hit location and final hit result D10 rolls": 6 is 4+2, 8 two 4s, 10-16 blocks of 4 with
// a 2 left over for 10 and 14; 1-4 are one block.
func TestSeed000SplitHits(t *testing.T) {
	want := map[int][]int{
		1: {1}, 2: {2}, 3: {3}, 4: {4},
		5: {4, 1}, 6: {4, 2}, 7: {4, 3}, 8: {4, 4},
		9: {4, 4, 1}, 10: {4, 4, 2}, 11: {4, 4, 3}, 12: {4, 4, 4},
		13: {4, 4, 4, 1}, 14: {4, 4, 4, 2}, 15: {4, 4, 4, 3}, 16: {4, 4, 4, 4},
	}
	for n := 1; n <= 16; n++ {
		got := SplitHits(n)
		if !slices.Equal(got, want[n]) {
			t.Errorf("SplitHits(%d) = %v; want %v", n, got, want[n])
		}
		sum := 0
		for _, b := range got {
			sum += b
		}
		if sum != n {
			t.Errorf("SplitHits(%d) loses hits: %v", n, got)
		}
	}
	for _, n := range []int{0, -3} {
		if got := SplitHits(n); len(got) != 0 {
			t.Errorf("SplitHits(%d) = %v; want no blocks", n, got)
		}
	}
	// Seed 000: at most 2 D10 go with the 2D6; 10-16 hits need 1-2 more.
	for _, c := range []struct{ hits, blocks int }{{6, 2}, {8, 2}, {10, 3}, {12, 3}, {14, 4}, {16, 4}} {
		if got := len(SplitHits(c.hits)); got != c.blocks {
			t.Errorf("%d hits: %d D10 rolls; want %d", c.hits, got, c.blocks)
		}
	}
}

// Seed 000, "Main combat rule changes", deflection DRMs: 5-7 o'clock is no deflection, 4 and 8 medium,
// 9 through 3 (the front half) high; the 5-7 row is the same for 1E and ME; ME targets get better DRMs
// at deflection; +1 for no deflection against ME.
func TestSeed000DRMByClock(t *testing.T) {
	tb := house(t)
	wantRow := map[int]string{1: RowHigh, 2: RowHigh, 3: RowHigh, 4: RowMedium, 5: RowNoDeflection, 6: RowNoDeflection,
		7: RowNoDeflection, 8: RowMedium, 9: RowHigh, 10: RowHigh, 11: RowHigh, 12: RowHigh}
	house1E := map[string]int{RowNoDeflection: 1, RowMedium: -1, RowHigh: -3}
	houseME := map[string]int{RowNoDeflection: 1, RowMedium: 0, RowHigh: -2}
	for clock := 1; clock <= 12; clock++ {
		row := DeflectionRow(clock)
		if row != wantRow[clock] {
			t.Errorf("DeflectionRow(%d) = %s; want %s", clock, row, wantRow[clock])
		}
		if got := tb.DRM(clock, false); got != house1E[row] {
			t.Errorf("DRM(%d, 1E) = %+d; want %+d", clock, got, house1E[row])
		}
		if got := tb.DRM(clock, true); got != houseME[row] {
			t.Errorf("DRM(%d, ME) = %+d; want %+d", clock, got, houseME[row])
		}
		if row == RowNoDeflection && tb.DRM(clock, false) != tb.DRM(clock, true) {
			t.Errorf("clock %d: the 5-7 row differs between 1E and ME", clock)
		}
		if row != RowNoDeflection && tb.DRM(clock, true) <= tb.DRM(clock, false) {
			t.Errorf("clock %d: ME %+d is not better than 1E %+d at deflection", clock, tb.DRM(clock, true), tb.DRM(clock, false))
		}
	}
	if DeflectionRow(0) != RowHigh || DeflectionRow(18) != RowNoDeflection || DeflectionRow(-4) != RowMedium {
		t.Error("clock positions outside 1..12 must fold onto the clock")
	}
	for _, row := range DeflectionRows() {
		for _, me := range []bool{false, true} {
			got, err := tb.DRMRow(row, me)
			want := house1E[row]
			if me {
				want = houseME[row]
			}
			if err != nil || got != want {
				t.Errorf("DRMRow(%s, %v) = %+d, %v; want %+d", row, me, got, err, want)
			}
		}
	}
	if _, err := tb.DRMRow("6", true); err == nil {
		t.Error(`DRMRow("6") must be an error: the rows are 5-7, 4/8 and 9-3`)
	}
}

// Seed 000, "Hit location and final hit result D10 rolls": the D10s go with the 2D6 only when the shot
// could score 6 hits or more on its best roll, so MaxHits must be right for every chart.
func TestSeed000MaxHits(t *testing.T) {
	tb := house(t)
	want := map[string]int{
		"1x30M": 2, "2x30M": 4, "2x50M": 8, "4x30M": 8, "3x50M": 8, "8x30M": 10, "4x50M": 10,
		"2x30M+1x20C": 8, "6x50M": 14, "2x30M+2x20C": 12, "2x50M+1x20C": 10, "8x50M": 16,
		"4x30M+2x20C": 14, "2x50M+2x20C": 14, "4x50M+1x20C": 14, "4x20C": 16, "2x30M+4x20C": 16,
		"2x50M+1x30C": 12, "4x50M+1x37C": 14, "4x30C": 16,
	}
	for _, k := range MixKeys() {
		c, ok := tb.Chart(k)
		if !ok {
			t.Fatalf("no chart %s", k)
		}
		best := 0
		for col := Col12; col < numColumns; col++ {
			for r := c.First(); r <= c.Last(); r++ {
				best = max(best, c.Hits(col, r))
			}
		}
		if got := tb.MaxHits(k); got != best || got != want[k] {
			t.Errorf("MaxHits(%s) = %d; the chart's best cell is %d, want %d", k, got, best, want[k])
		}
	}
	if got := tb.MaxHits("6x30M"); got != 0 {
		t.Errorf("MaxHits of an unknown chart = %d; want 0", got)
	}
	// The flexible guns' usual charts (seed 000: "the first 3 fire tables") never need the extra D10s
	// at once, the heavy charts do.
	if tb.MaxHits("2x30M") >= 6 || tb.MaxHits("4x30C") < 6 {
		t.Error("MaxHits must tell the 2x30M chart (no extra D10) from the 4x30C chart (extra D10)")
	}
}

// Seed 000, "Main combat rule changes": 20 charts, one per weapon mix ;
// a mix not among them fires on the nearest chart by house firepower, ties to the lower.
func TestChartFor(t *testing.T) {
	if len(MixKeys()) != 20 {
		t.Fatalf("%d mix keys; seed 000 has 20 charts", len(MixKeys()))
	}
	for _, k := range MixKeys() {
		if got, exact := ChartFor(k); got != k || !exact {
			t.Errorf("ChartFor(%s) = %s, %v; want itself, exact", k, got, exact)
		}
	}
	for _, c := range []struct {
		mix, want string
		exact     bool
	}{
		{"2x20C+2x30M", "2x30M+2x20C", true}, // any order
		{"4x30M+4x30M", "8x30M", true},       // kinds add up
		{"2X30m + 1x20c", "2x30M+1x20C", true},
		{"1x50M", "2x30M", false},             // 2: exactly 2x30M's firepower
		{"3x30M", "2x30M", false},             // 3: 2x30M (2) and 2x50M (4) tie, the lower wins
		{"6x30M", "2x30M+1x20C", false},       // 6: 3x50M and 2x30M+1x20C; fewer guns changed
		{"2x20C", "2x50M+1x20C", false},       // 8: nearest in guns among the three 8s
		{"4x30M+2x50M", "8x30M", false},       // 8 (P-40C): the three 8s differ equally; the first
		{"4x50M+2x20C", "8x50M", false},       // 16: 8x50M and 4x20C equally near; the first
		{"3x50M+2x20C", "4x50M+1x37C", false}, // 14: between 13 and 16, the nearest
		{"8x20C", "4x30C", false},             // 32: beyond the biggest chart
		{"1x30C", "3x50M", false},             // 6: 3x50M and 2x30M+1x20C differ equally; the first
	} {
		got, exact := ChartFor(c.mix)
		if got != c.want || exact != c.exact {
			t.Errorf("ChartFor(%q) = %s, %v; want %s, %v", c.mix, got, exact, c.want, c.exact)
		}
	}
	for _, bad := range []string{"", "8x", "x30M", "0x30M", "2x40M", "eight guns"} {
		if got, exact := ChartFor(bad); got != "" || exact {
			t.Errorf("ChartFor(%q) = %q, %v; want \"\", false", bad, got, exact)
		}
	}
}
