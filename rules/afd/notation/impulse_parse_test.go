package notation

import (
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset/rulesettest"
)

// Impulse orders (seed 001 X.F: the impulse log's notations; docs/notation.md: impulse orders).
var impulseValid = []struct{ in, canon string }{
	{"1", "1 FIRE ANY"},                                               // the forwards manoeuvre (X.E.1, X.F.1.b)
	{"` ` TR", "` ` TR FIRE ANY"},                                     // straight boxes then the turn (X.F.1.a)
	{"``TR", "` ` TR FIRE ANY"},                                       // glued backticks are one box each
	{"' ' TR", "` ` TR FIRE ANY"},                                     // apostrophes read as backticks, with a warning
	{"` ` TR -1", "` ` TR -1 FIRE ANY"},                               // the turn's impulse loses 100 ft
	{"` 12900 ` 12800 TR 12700", "` 12900 ` 12800 TR 12700 FIRE ANY"}, // absolute altitudes (X.F.2)
	{"` +1 P ` TR", "` +1 P ` TR FIRE ANY"},                           // a climb and a power factor in one impulse (X.C)
	{"` K TL", "` K TL FIRE ANY"},                                     // a brake factor
	{"` ` RB", "` ` RB FIRE ANY"},                                     // a bank change in the impulse of the last straight (X.F.1.d)
	{"HR", "HR FIRE ANY"},                                             // a half roll fills two impulses
	{"` ` TR; 1; ` SL FIRE ANY", "` ` TR; 1; ` SL FIRE ANY"},          // a queue
	{"1;1 HOLD", "1; 1 HOLD"},
	{"tr", "TR FIRE ANY"},
	{"1 K3", "1 K3 FIRE ANY"}, // a factor's count glued to it is no box (found by the fuzzer)
	{"` P2 TR", "` PP TR FIRE ANY"},
	{"1 BOMB", "1 BOMB FIRE ANY"}, // bombs released in the impulse (seed 001 VIII)
	{"1 FIRE BLUE1 GUNS wing-l MAX 4", "1 FIRE BLUE1 GUNS wing-l MAX 4"},
}

func TestImpulseOrdersRead(t *testing.T) {
	for _, c := range impulseValid {
		readsAs(t, ParseImpulseOrder, c.in, c.canon)
	}
	o, _ := ParseImpulseOrder("HR -1")
	if m := o.Manoeuvres[0]; len(m.Boxes) != 2 || !m.Boxes[1].Cont || m.Boxes[0].Alt != -100 || m.Impulses() != 2 {
		t.Errorf("a half roll is two boxes, its altitude on the first: %+v", m.Boxes)
	}
	o, _ = ParseImpulseOrder("` 12900 ` TR")
	if b := o.Manoeuvres[0].Boxes[0]; !b.AltAbs || b.Alt != 12900 || b.AltCol != 3 {
		t.Errorf("absolute altitude: %+v", b)
	}
	if o, _ := ParseImpulseOrder("1"); !o.Manoeuvres[0].Boxes[0].Forwards {
		t.Error("1 is the forwards manoeuvre")
	}
	if _, ds := ParseImpulseOrder("' TR"); len(ds) != 1 || ds[0].Code != CodeImpulseQuoteMark || ds[0].Severity != parser.SeverityWarning {
		t.Errorf("an apostrophe is read with a warning: %v", ds)
	}
}

func TestImpulseOrderFaults(t *testing.T) {
	cases := []struct {
		in   string
		code string
		col  int
	}{
		{"3 TR", CodeImpulseRun, 1},
		{"` 1 TR", CodeImpulseForwards, 3},
		{"` `", CodeImpulseOpen, 1},
		{"` TR ` TL", CodeImpulseAfterEnd, 6},
		{"1 1", CodeImpulseAfterEnd, 3},
		{"` TR;;1", CodeImpulseEmpty, 5},
		{"` TR;", CodeImpulseEmpty, 5},
		{"FIRE ANY", CodeImpulseEmpty, 0},
		{"` STEEP TR", CodeImpulseFlag, 3},
		{"` VERT TR", CodeImpulseFlag, 3},
		{"` 12950 TR", CodeImpulseAltitude, 3},
		{"` 12900 +1 TR", CodeImpulseTwoAlts, 9},
		{"+1 ` TR", CodeImpulseNoBox, 1},
		{"` TRTR", CodeGluedLetters, 3},
		{"` TX", parser.CodeUnknownToken, 3},
	}
	for _, c := range cases {
		_, ds := ParseImpulseOrder(c.in)
		found := false
		for _, d := range ds {
			found = found || (d.Code == c.code && d.Col == c.col && d.Severity == parser.SeverityError)
		}
		if !found {
			t.Errorf("%q: want %s at column %d, got %v", c.in, c.code, c.col, ds)
		}
	}
	long := strings.Repeat("1; ", MaxQueued+1) + "1"
	if _, ds := ParseImpulseOrder(long); !hasCode(ds, CodeImpulseTooMany) {
		t.Errorf("too many queued: %v", ds)
	}
	if _, ds := ParseImpulseOrder(strings.Repeat("` ", 400) + "TR"); !hasCode(ds, parser.CodeTooLong) {
		t.Errorf("too long: %v", ds)
	}
}

func hasCode(ds []parser.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

func TestImpulseOrderLineColumns(t *testing.T) {
	cs, o, ds := ParseImpulseOrderLine("RED1: ` ` TR -1 FIRE ANY")
	if cs != "RED1" || parser.HasErrors(ds) {
		t.Fatalf("%q %v", cs, ds)
	}
	m := o.Manoeuvres[0]
	if m.Boxes[0].Col != 7 || m.Boxes[2].Col != 11 || m.Boxes[2].AltCol != 14 || m.Col != 7 {
		t.Errorf("columns: %+v", m)
	}
	_, _, ds = ParseImpulseOrderLine("RED1: 3 TR")
	if len(ds) == 0 || ds[0].Col != 7 {
		t.Errorf("a fault's column counts from the line: %v", ds)
	}
}

func FuzzParseImpulseOrder(f *testing.F) {
	for _, c := range impulseValid {
		f.Add(c.in)
	}
	for _, s := range []string{"3 TR", "` 1 TR", "` TR;;1", "+1 ` TR", "` 12950 TR", "‘ ’ TR", "HR HR; V", "1;", ";", "`\x00TR", "` ` TR -1 P FIRE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		o, ds := ParseImpulseOrder(in)
		rulesettest.Diagnosed(t, in, ds)
		if parser.HasErrors(ds) {
			return
		}
		rulesettest.ReadsBack(t, in, o, ParseImpulseOrder)
	})
}

// TestOrdersDocImpulseBlocks: the impulse order blocks of docs/orders.md read without a fault.
func TestOrdersDocImpulseBlocks(t *testing.T) {
	blocks := rulesettest.DocBlocks(t, "../../../docs/orders.md", "impulseblock")
	if len(blocks) == 0 {
		t.Fatal("docs/orders.md has no ```impulseblock example")
	}
	for _, b := range blocks {
		text := strings.Join(b.Lines, "\n")
		block, ds := parser.ParseBlock(text)
		if parser.BlockRefused(ds) || len(block.Orders) == 0 {
			t.Errorf("the block does not read:\n%s\n%v", text, ds)
		}
		for _, o := range block.Orders {
			if _, ds := ParseImpulseOrder(o.Text); parser.HasErrors(ds) {
				t.Errorf("%s: %q: %v", o.Callsign, o.Text, ds)
			}
		}
	}
}
