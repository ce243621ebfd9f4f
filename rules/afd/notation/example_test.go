package notation_test

import (
	"fmt"

	"sortie/parser"
	"sortie/rules/afd/notation"
)

// A plot in the classic notation: the worked example of docs/rulings.md. "2R" is two straight hexes and a
// bare R, which Sortie accepts as TR and says so.
func ExampleParsePlot() {
	p, ds := notation.ParsePlot("2R 1 TR STEEP P")
	fmt.Println(p)
	fmt.Println("movement points:", p.MPs())
	fmt.Println("errors:", parser.HasErrors(ds))
	for _, d := range ds {
		fmt.Println(d)
	}
	// Output:
	// 2 TR 1 TR STEEP P
	// movement points: 5
	// errors: false
	// col 2: warning: "R" was read as TR, a turn right (did you mean TR?)
}

// Every fault in a plot is reported at once, each with its column and, where one is likely, the text the
// player probably meant.
func ExampleParsePlot_mistakes() {
	_, ds := notation.ParsePlot("1 TRTR S R +150 SRTR")
	fmt.Println("errors:", parser.HasErrors(ds))
	for _, d := range ds {
		fmt.Printf("col %d %s: %q\n", d.Col, d.Code, d.Suggestion)
	}
	// Output:
	// errors: true
	// col 3 glued-letters: "TR TR"
	// col 8 split-token: "SR"
	// col 12 alt-multiple: "+100 or +200"
	// col 17 skid-direction: "SRTL"
}

// Flags and adjustments may stand anywhere on the line; the canonical form puts them after the
// movement, with the altitude figure in feet.
func ExampleParsePlot_flags() {
	p, _ := notation.ParsePlot("SD 1 V 2 -20 K2")
	fmt.Println(p)
	fmt.Println("steep:", p.Steep, "alt:", p.Alt, "brake:", p.Brake, "SD written at col", p.Col("STEEP"))
	// Output:
	// 1 V 2 STEEP KK -2000
	// steep: true alt: -2000 brake: 2 SD written at col 1
}

// A diagnostic is an error value whose text gives the column and the suggestion.
func ExampleDiagnostic_Error() {
	_, ds := notation.ParsePlot("2 VR")
	fmt.Println(ds[0].Error())
	// Output:
	// col 3: "VR": an Immelmann is written VRR or VLL (seed 000 rule (6)), and V alone is a half loop (did you mean VRR?)
}
