package tables

import "testing"

// docs/rulings.md, "Spotting and fog of war" (a house rule): sighting by range and height difference, beyond
// the table impossible; the house table's band edges.
func TestSpotNeedBandEdges(t *testing.T) {
	tb := house(t)
	for _, c := range []struct {
		rng, dh  int
		need     int
		possible bool
	}{
		{0, 0, 0, true}, {2, -20000, 0, true}, {2, 20000, 0, true}, // 0-2 hexes: always seen
		{3, 0, 0, true}, {5, 1000, 0, true}, {5, 1001, 0, true}, {5, 3000, 0, true}, {5, 3001, 3, true},
		{5, -1000, 0, true}, {5, -1001, 3, true}, {5, -3000, 3, true}, {5, -3001, 4, true},
		{6, 0, 3, true}, {10, 0, 3, true}, {11, 0, 5, true}, {15, 0, 5, true},
		{16, 0, 7, true}, {25, 0, 7, true}, {26, 0, 9, true}, {40, 0, 9, true},
		{40, -3001, 12, true}, {40, 3001, 11, true}, {26, 2000, 10, true}, {26, -2000, 11, true},
		{41, 0, 0, false}, {100, 0, 0, false}, {-1, 0, 0, false},
	} {
		need, ok := tb.SpotNeed(c.rng, c.dh)
		if need != c.need || ok != c.possible {
			t.Errorf("SpotNeed(%d hexes, %+d ft) = %d, %v; want %d, %v", c.rng, c.dh, need, ok, c.need, c.possible)
		}
	}
	for dh, name := range map[int]string{-3001: "more than 3,000 ft below", -3000: "1,000-3,000 ft below",
		-1000: "within 1,000 ft", 1000: "within 1,000 ft", 1001: "1,000-3,000 ft above", 3001: "more than 3,000 ft above"} {
		if got := tb.SpotHeightBand(dh); got != name {
			t.Errorf("SpotHeightBand(%+d) = %q; want %q", dh, got, name)
		}
	}
}

func TestIdentifyNeedBandEdges(t *testing.T) {
	tb := house(t)
	for _, c := range []struct {
		rng, need int
		possible  bool
	}{{0, 0, true}, {2, 0, true}, {3, 4, true}, {5, 4, true}, {6, 7, true}, {10, 7, true}, {11, 10, true},
		{15, 10, true}, {16, 12, true}, {25, 12, true}, {26, 0, false}, {-1, 0, false}} {
		need, ok := tb.IdentifyNeed(c.rng)
		if need != c.need || ok != c.possible {
			t.Errorf("IdentifyNeed(%d) = %d, %v; want %d, %v", c.rng, need, ok, c.need, c.possible)
		}
	}
}

// docs/rulings.md, "Spotting and fog of war": the classic errata's modifiers; 0 is automatic.
func TestSpotted(t *testing.T) {
	if ModSpotterInverted != -2 || ModTowardAltitude != 1 || ModAwayAltitude != -1 {
		t.Fatal("the errata's modifiers are inverted -2, toward +1, away -1")
	}
	for _, c := range []struct {
		need, roll, mod int
		want            bool
	}{{0, 2, -5, true}, {7, 7, 0, true}, {7, 6, 0, false}, {7, 6, ModTowardAltitude, true},
		{7, 8, ModSpotterInverted, false}, {13, 12, ModTowardAltitude, true}, {13, 12, 0, false}} {
		if got := Spotted(c.need, c.roll, c.mod); got != c.want {
			t.Errorf("Spotted(need %d, roll %d, mod %+d) = %v; want %v", c.need, c.roll, c.mod, got, c.want)
		}
	}
}

// docs/rulings.md, "Other rulings": a house bail-out roll, none below 500 ft
// member, 2-6, -1 below 1,000 ft.
func TestBailOutNeedBandEdges(t *testing.T) {
	tb := house(t)
	for _, c := range []struct {
		alt, need int
		possible  bool
	}{{0, 0, false}, {499, 0, false}, {500, 3, true}, {999, 3, true}, {1000, 2, true}, {30000, 2, true}, {-100, 0, false}} {
		need, ok := tb.BailOutNeed(c.alt)
		if need != c.need || ok != c.possible {
			t.Errorf("BailOutNeed(%d ft) = %d, %v; want %d, %v", c.alt, need, ok, c.need, c.possible)
		}
	}
}
