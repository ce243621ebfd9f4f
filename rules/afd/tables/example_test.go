package tables_test

import (
	"fmt"

	"sortie/rules/afd/tables"
)

// Seed 000's worked example ("Hit location and final hit result D10 rolls"): a Spitfire's 8x30M at an
// He-111 from dead astern at range 3; red 5, white 3; D10 5.
func Example() {
	tb, err := tables.Default()
	if err != nil {
		panic(err)
	}
	chart, _ := tables.ChartFor("4x30M+4x30M")
	drm := tb.DRM(6, true)
	shot, _ := tb.Fire(chart, 3, 5+3, drm)
	fmt.Printf("%s, range %d (column %s), 2D6 %d %+d = row %d: %d hits\n", shot.Chart, shot.Range, shot.Column, shot.Roll, shot.DRM, shot.Row, shot.Hits)
	fmt.Println("extra D10s with the 2D6:", tb.MaxHits(chart) >= 6)
	for _, block := range tables.SplitHits(shot.Hits) {
		loc, _ := tb.Location(true, block, 5)
		fmt.Printf("block of %d, D10 5: %s, critical on %c, %s side\n", block, loc, loc.Letters[loc.Critical], tables.Side(5))
	}
	fmt.Println(tb.Label)
	// Output:
	// 8x30M, range 3 (column 3), 2D6 8 +1 = row 9: 4 hits
	// extra D10s with the 2D6: true
	// block of 4, D10 5: WFEE*, critical on E, L side
	// Sortie house tables 1
}

func ExampleChartFor() {
	for _, mix := range []string{"2x30M+2x20C", "2x20C+2x30M", "4x30M+2x50M", "6x30M"} {
		key, exact := tables.ChartFor(mix)
		fmt.Println(mix, "->", key, exact)
	}
	// Output:
	// 2x30M+2x20C -> 2x30M+2x20C true
	// 2x20C+2x30M -> 2x30M+2x20C true
	// 4x30M+2x50M -> 8x30M false
	// 6x30M -> 2x30M+1x20C false
}

func ExampleSplitHits() {
	for _, n := range []int{4, 6, 10, 16} {
		fmt.Println(n, tables.SplitHits(n))
	}
	// Output:
	// 4 [4]
	// 6 [4 2]
	// 10 [4 4 2]
	// 16 [4 4 4 4]
}

func ExampleTables_SpotNeed() {
	tb, _ := tables.Default()
	need, ok := tb.SpotNeed(12, -2000) // 12 hexes away, 2,000 ft below the spotter
	fmt.Println(need, ok, tables.Spotted(need, 6, tables.ModTowardAltitude))
	_, ok = tb.SpotNeed(45, 0)
	fmt.Println(ok)
	// Output:
	// 7 true true
	// false
}
