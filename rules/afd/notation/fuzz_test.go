package notation

import (
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset/rulesettest"
)

// FuzzParsePlot checks, for any text: no panic; every diagnostic is positioned inside the text (or at
// column 0) and says something; and when there is no error, the canonical form parses back, without
// any diagnostic, to an equal plot and prints the same (a fixed point). Crashers found by
// `go test -fuzz` are kept under testdata/fuzz/FuzzParsePlot and run as ordinary tests.
func FuzzParsePlot(f *testing.F) {
	for _, in := range roundTripInputs() {
		f.Add(in)
	}
	for _, tt := range diagTests {
		f.Add(tt.in)
	}
	for _, in := range worstCases() {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, ds := ParsePlot(in)
		n := rulesettest.Diagnosed(t, in, ds)
		for _, e := range p.Elements {
			if e.Col < 1 || e.Col > n {
				t.Errorf("element %s at col %d, outside 1..%d", e.Token(), e.Col, n)
			}
		}
		for k, c := range p.FlagCols {
			if c < 1 || c > n {
				t.Errorf("flag %s at col %d, outside 1..%d", k, c, n)
			}
		}
		if parser.HasErrors(ds) {
			return
		}
		rulesettest.ReadsBack(t, in, p, ParsePlot)
	})
}
