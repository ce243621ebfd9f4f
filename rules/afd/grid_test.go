package afd

import (
	"math/rand/v2"
	"slices"
	"testing"

	hexmap "sortie/rules/hex"
)

// The grid finds every plane within reach and no other, however the planes are spread: bunched, on a
// lattice, or a few of them far away (which files them in larger cells); anyNear finds one if there is
// one.
func TestGridFindsEveryPlaneInReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spread := range []int{3, 40, 400, 100000} {
		for _, n := range []int{0, 1, 7, 300} {
			hexes := make([]hexmap.Hex, n)
			for i := range hexes {
				hexes[i] = hexmap.Hex{Q: rng.IntN(2*spread+1) - spread, R: rng.IntN(2*spread+1) - spread}
			}
			for _, r := range []int{MaxFireRange, MaxSpotRange} {
				g := newGrid(hexes, r)
				for k := 0; k < 50; k++ {
					h := hexmap.Hex{Q: rng.IntN(2*spread+1) - spread, R: rng.IntN(2*spread+1) - spread}
					if k < n {
						h = hexes[k]
					}
					var got, want []int
					g.near(h, r, hexes, func(i int) { got = append(got, i) })
					for i, x := range hexes {
						if hexmap.Distance(h, x) <= r {
							want = append(want, i)
						}
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("spread %d, %d planes, radius %d, at %v: found %v, want %v", spread, n, r, h, got, want)
					}
					third := func(i int) bool { return i%3 == 2 }
					if g.anyNear(h, r, hexes, third) != slices.ContainsFunc(want, third) {
						t.Fatalf("spread %d, %d planes, radius %d, at %v: anyNear is wrong", spread, n, r, h)
					}
				}
			}
		}
	}
}
