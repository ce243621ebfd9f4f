package notation

import (
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset/rulesettest"
)

func TestParseOrder(t *testing.T) {
	cases := []struct {
		in   string
		want string
		def  bool
	}{
		{"2R 1 TR STEEP P", "2 TR 1 TR STEEP P FIRE ANY", true},
		{"5 FIRE ANY", "5 FIRE ANY", false},
		{"5 fire red-2", "5 FIRE RED-2", false},
		{"5 FIRE Red2 GUNS nose,tail MAX 4", "5 FIRE RED2 GUNS nose,tail MAX 4", false},
		{"5 FIRE ANY guns wing-l wing-r", "5 FIRE ANY GUNS wing-l,wing-r", false},
		{"1 TR 1 TR HOLD", "1 TR 1 TR HOLD", false},
		{"3 FIRE ANY MAX 3.", "3 FIRE ANY MAX 3", false},
	}
	for _, c := range cases {
		if o, ok := readsAs(t, ParseOrder, c.in, c.want); ok && o.Fire.Default != c.def {
			t.Errorf("%q: default %v", c.in, o.Fire.Default)
		}
	}
}

// readsAs reads in with parse: it must read without an error as the canonical want, which must read
// back the same (rulesettest.ReadsBack). ok says it read.
func readsAs[O interface {
	String() string
	Equal(O) bool
}](t *testing.T, parse func(string) (O, []parser.Diagnostic), in, want string) (o O, ok bool) {
	t.Helper()
	o, ds := parse(in)
	if parser.HasErrors(ds) {
		t.Errorf("%q: %v", in, ds)
		return o, false
	}
	if got := o.String(); got != want {
		t.Errorf("%q: canonical %q, want %q", in, got, want)
	}
	rulesettest.ReadsBack(t, in, o, parse)
	return o, true
}

func TestParseOrderErrors(t *testing.T) {
	cases := []struct {
		in   string
		code string
		col  int
	}{
		{"5 FIRE", parser.CodeFireTarget, 3},
		{"5 FIRE MAX 3", parser.CodeFireTarget, 8},
		{"5 FIRE ANY MAX 9", parser.CodeFireRange, 16},
		{"5 FIRE ANY MAX", parser.CodeFireRange, 12},
		{"5 FIRE ANY GUNS", parser.CodeFireSyntax, 12},
		{"5 HOLD FIRE ANY", parser.CodeFireTwice, 8},
		{"5 HOLD NOW", parser.CodeFireAfterEnd, 8},
		{"5 FIRE ANY FIRE RED1", parser.CodeFireTwice, 12},
		{"5 FIRE ANY please", parser.CodeFireSyntax, 12},
		{"5 FIRE ANY; MAX 2", parser.CodeFireSyntax, 11},
		{"5 FIRE THISCALLSIGNISWAYTOOLONGTOBEREAL", parser.CodeFireTarget, 8},
	}
	for _, c := range cases {
		_, ds := ParseOrder(c.in)
		found := false
		for _, d := range ds {
			if d.Code == c.code && d.Col == c.col && d.Severity == parser.SeverityError {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want %s at col %d, got %v", c.in, c.code, c.col, ds)
		}
	}
	// A plot error and a fire error are both reported, with columns in the whole line.
	_, ds := ParseOrder("1 TRTR FIRE ANY MAX 0")
	if len(ds) < 2 {
		t.Errorf("both faults must be reported: %v", ds)
	}
}

func FuzzParseOrder(f *testing.F) {
	for _, s := range []string{"2R 1 TR STEEP P FIRE ANY", "5 HOLD", "5 FIRE red-1 GUNS a,b MAX 3", "FIRE", "HOLDFIRE 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if o, ds := ParseOrder(s); !parser.HasErrors(ds) {
			rulesettest.ReadsBack(t, s, o, ParseOrder)
		}
	})
}

func TestParseOrderLine(t *testing.T) {
	cs, o, ds := ParseOrderLine("red1: 1 TRTR 2")
	if cs != "RED1" || !parser.HasErrors(ds) || ds[0].Col != 9 {
		t.Fatalf("%q %v %v", cs, o, ds)
	}
	cs, o, ds = ParseOrderLine("Kurt : 5 HOLD")
	if cs != "KURT" || parser.HasErrors(ds) || o.Fire.Mode != parser.FireHold || o.Plot.Elements[0].Col != 8 {
		t.Fatalf("%q %+v %v", cs, o, ds)
	}
	if _, _, ds := ParseOrderLine("no colon here"); !parser.HasErrors(ds) || ds[0].Code != parser.CodeOrderLine {
		t.Fatalf("%v", ds)
	}
	if _, _, ds := ParseOrderLine("red one: 5"); !parser.HasErrors(ds) {
		t.Fatalf("a callsign with a space must be refused: %v", ds)
	}
}
