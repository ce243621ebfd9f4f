package tables

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite data/gunnery.yaml and the generated blocks of docs/tables.md")

const gunneryFile = "data/gunnery.yaml"

// The shipped charts are the house formula's output, byte for byte, so the data file and the formula in
// docs/tables.md cannot drift apart. -update rewrites the file.
func TestGunneryFileIsGenerated(t *testing.T) {
	want := houseGunneryYAML()
	got, err := os.ReadFile(gunneryFile)
	if err == nil && string(got) == string(want) {
		return
	}
	if *update {
		if err := os.WriteFile(gunneryFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not the generator's output (%v); run go test ./rules/afd/tables -run TestGunneryFileIsGenerated -update", gunneryFile, err)
}

// Seed 000, "Main combat rule changes": columns for ranges 1-2, 3, 4, 5-6 and 7-8, 8 hexes at most.
func TestColumnFor(t *testing.T) {
	want := map[int]string{0: "1-2", 1: "1-2", 2: "1-2", 3: "3", 4: "4", 5: "5-6", 6: "5-6", 7: "7-8", 8: "7-8"}
	for r := -1; r <= 9; r++ {
		col, ok := ColumnFor(r)
		w, has := want[r]
		if ok != has || ok && col.String() != w {
			t.Errorf("ColumnFor(%d) = %s, %v; want %q, %v", r, col, ok, w, has)
		}
	}
}

// The rows clamp: a roll below the first row reads the first, above the last the last (house charts:
// -1 to 15).
func TestRowsClamp(t *testing.T) {
	tb := house(t)
	c, _ := tb.Chart("4x30C")
	if c.First() != -1 || c.Last() != 15 {
		t.Fatalf("house rows %d..%d; want -1..15", c.First(), c.Last())
	}
	for _, r := range []struct{ row, read int }{{-9, -1}, {-1, -1}, {0, 0}, {15, 15}, {16, 15}, {40, 15}} {
		if got := c.Row(r.row); got != r.read {
			t.Errorf("Row(%d) = %d; want %d", r.row, got, r.read)
		}
		if c.Hits(Col12, r.row) != c.Hits(Col12, r.read) {
			t.Errorf("row %d must read row %d", r.row, r.read)
		}
	}
	s, err := tb.Fire("4x30C", 1, 12, 9)
	if err != nil || s.Row != 21 || s.Read != 15 || s.Hits != 16 {
		t.Errorf("Fire(4x30C, 1, 12, +9) = %+v, %v; want row 21 read as 15, 16 hits", s, err)
	}
	for _, bad := range []struct {
		chart          string
		rng, roll, drm int
	}{{"6x30M", 3, 7, 0}, {"8x30M", 9, 7, 0}, {"8x30M", -1, 7, 0}, {"8x30M", 3, 1, 0}, {"8x30M", 3, 13, 0}} {
		if _, err := tb.Fire(bad.chart, bad.rng, bad.roll, bad.drm); err == nil {
			t.Errorf("Fire(%+v) must be an error", bad)
		}
	}
	if _, err := tb.Hits("8x30M", Column(5), 9); err == nil {
		t.Error("Hits with column 5 must be an error")
	}
	if h, err := tb.Hits("8x30M", Col3, 9); err != nil || h != 4 {
		t.Errorf("Hits(8x30M, 3, 9) = %d, %v; want 4", h, err)
	}
}

// The house formula (docs/tables.md, "Gunnery charts") and what it promises.
func TestHouseFormula(t *testing.T) {
	tb := house(t)
	// Seed 000's example as the formula computes it: e = 8 × 0.75 × 3 / 4 = 4.5 → 4.
	if got := houseHits([]int{8, 0, 0, 0, 0}, Col3, 9); got != 4 {
		t.Errorf("houseHits(8x30M, 3, 9) = %d; want 4", got)
	}
	for _, k := range MixKeys() {
		c, _ := tb.Chart(k)
		for r := c.First(); r <= c.Last(); r++ {
			for col := Col12; col < numColumns; col++ {
				h := c.Hits(col, r)
				if !isHitValue(h) {
					t.Errorf("%s row %d column %s: %d is not an allowed count", k, r, col, h)
				}
				if r <= HouseRowZero && h != 0 {
					t.Errorf("%s row %d: %d hits; rows up to %d miss", k, r, h, HouseRowZero)
				}
				if h > HouseColumnCap[col] {
					t.Errorf("%s row %d column %s: %d hits, above the cap %d", k, r, col, h, HouseColumnCap[col])
				}
				if h == 16 && col != Col12 {
					t.Errorf("%s row %d column %s: 16 hits away from range 1-2", k, r, col)
				}
				if col > Col12 && h > c.Hits(col-1, r) {
					t.Errorf("%s row %d: more hits at %s than at %s", k, r, col, col-1)
				}
				if r > c.First() && h < c.Hits(col, r-1) {
					t.Errorf("%s column %s: fewer hits on row %d than on row %d", k, col, r, r-1)
				}
			}
		}
	}
	// A lone rifle-calibre gun still hits now and then at close range, on rolls the house DRMs reach
	// (2D6 12 + 1 = 13 at most), and never at 7-8.
	one, _ := tb.Chart("1x30M")
	if one.Hits(Col12, 10) != 1 || one.Hits(Col3, 12) != 1 || one.Hits(Col78, 15) != 0 {
		t.Errorf("1x30M: %d at 1-2 row 10, %d at 3 row 12, %d at 7-8 row 15; want 1, 1, 0",
			one.Hits(Col12, 10), one.Hits(Col3, 12), one.Hits(Col78, 15))
	}
	// Only the heaviest chart reaches 16 on a roll the house DRMs allow, and only on its best rolls.
	for _, k := range MixKeys() {
		c, _ := tb.Chart(k)
		for r := -1; r <= 13; r++ {
			if c.Hits(Col12, r) == 16 && (k != "4x30C" || r < 12) {
				t.Errorf("%s row %d: 16 hits; only 4x30C on rows 12-13 should", k, r)
			}
		}
	}
	// Heavy machine guns keep their punch at range better than rifle-calibre guns of the same firepower.
	mg, hmg := func() (*Chart, *Chart) { a, _ := tb.Chart("8x30M"); b, _ := tb.Chart("4x50M"); return a, b }()
	if mg.Hits(Col12, 11) != hmg.Hits(Col12, 11) || hmg.Hits(Col78, 13) <= mg.Hits(Col78, 13) {
		t.Error("8x30M and 4x50M (both firepower 8) must match at 1-2 and differ at 7-8, the .50s ahead")
	}
}
