package tables

import (
	"strings"
	"testing"
)

// ChartFor reads hand-typed mixes: it never panics, and what it names is always one of the 20 charts.
func FuzzChartFor(f *testing.F) {
	for _, s := range []string{"8x30M", "2x20C+2x30M", "4x30M+2x50M", "", "x", "9999999999x30M", "1x37c+1X30C", "+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, mix string) {
		key, exact := ChartFor(mix)
		if key == "" {
			if exact {
				t.Fatal("exact with no chart")
			}
			return
		}
		if !isMixKey(key) {
			t.Fatalf("ChartFor(%q) = %q, not a chart", mix, key)
		}
		if exact {
			a, _ := Firepower(mix)
			b, _ := Firepower(key)
			if a != b {
				t.Fatalf("ChartFor(%q) exact on %s with firepower %d vs %d", mix, key, a, b)
			}
		}
	})
}

// A moderator's file never panics the loader, and a file that loads answers every lookup.
func FuzzParse(f *testing.F) {
	f.Add([]byte("deflection:\n  \"5-7\": {1E: 1, ME: 1}\n  \"4/8\": {1E: -1, ME: 0}\n  \"9-3\": {1E: -3, ME: -2}\n"))
	f.Add([]byte("bail_out: {need: 2, penalty_below_ft: 1000, penalty: -1, none_below_ft: 500}\n"))
	f.Add([]byte("spotting:\n  heights:\n    - {name: all}\n  ranges:\n    - {from: 0, to: 3, need: [0]}\n"))
	f.Add([]byte("hit_location:\n  ME:\n    1: [W]\n"))
	f.Add([]byte(strings.Repeat("label: x\n", 2)))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Parse(map[string][]byte{"fuzz.yaml": data})
		if err != nil {
			return
		}
		for _, k := range MixKeys() {
			tb.MaxHits(k)
			for col := Col12; col < numColumns; col++ {
				if _, err := tb.Hits(k, col, 7); err != nil {
					t.Fatal(err)
				}
			}
		}
		for c := 1; c <= 12; c++ {
			tb.DRM(c, c%2 == 0)
		}
		for h := 1; h <= 4; h++ {
			if _, err := tb.Location(true, h, 10); err != nil {
				t.Fatal(err)
			}
		}
		tb.SpotNeed(5, 2000)
		tb.IdentifyNeed(5)
		tb.BailOutNeed(800)
	})
}
