package notation

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset/rulesettest"
)

// docExample is one ```plot block of docs/notation.md:
//
//	input: TEXT          the plot (required; the rest of the line after "input:" and one space)
//	canonical: TEXT      Plot.String() (only for plots without errors)
//	mps: N               Plot.MPs()
//	error: CODE          a diagnostic that must be present; when any error is listed, the errors
//	warning: CODE        must be exactly the listed ones. Warnings not listed are allowed.
//	suggest: TEXT        the Suggestion of the error/warning line just above
//	col: N               the Col of the error/warning line just above
type docExample struct {
	line      int // line of the opening fence, for messages
	input     string
	hasInput  bool
	canonical *string
	mps       *int
	diags     []docDiag
}

// docDiag is a diagnostic an example lists: its code and severity, on which line of an order block
// (-1: any; a plot has one line), and at which column and with which suggestion when it says.
type docDiag struct {
	code     string
	severity parser.Severity
	line     int
	col      *int
	suggest  *string
}

// readDiag reads an example's line that lists a diagnostic into diags: "error: CODE [at N]" and
// "warning: CODE [at N]" add one, on line N of the block if given; "col: N" and "suggest: TEXT" say
// more of the one added last. It says whether key was one of these.
func readDiag(t *testing.T, where, key, val string, diags *[]docDiag) bool {
	t.Helper()
	last := func() *docDiag {
		if len(*diags) == 0 {
			t.Fatalf("%s: %s: must follow an error: or warning: line", where, key)
		}
		return &(*diags)[len(*diags)-1]
	}
	switch key {
	case "error", "warning":
		sev := parser.SeverityError
		if key == "warning" {
			sev = parser.SeverityWarning
		}
		code, at, hasAt := strings.Cut(strings.TrimSpace(val), " at ")
		d := docDiag{code: code, severity: sev, line: -1}
		if hasAt {
			n, err := strconv.Atoi(strings.TrimSpace(at))
			if err != nil {
				t.Fatalf("%s: %s: at: %v", where, key, err)
			}
			d.line = n
		}
		*diags = append(*diags, d)
	case "col":
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			t.Fatalf("%s: col: %v", where, err)
		}
		last().col = &n
	case "suggest":
		last().suggest = &val
	default:
		return false
	}
	return true
}

// plotBlocks extracts the fenced blocks whose info string is "plot"; other blocks (```move, ```go ...)
// are skipped.
func plotBlocks(t *testing.T, doc string) []docExample { t.Helper(); return docBlocks(t, doc, "plot") }

// docBlocks extracts the fenced blocks whose info string is kind ("plot", or "impulse" for impulse
// orders, whose "impulses:" line counts the impulses the manoeuvres take).
func docBlocks(t *testing.T, doc, kind string) []docExample {
	t.Helper()
	var out []docExample
	for _, f := range rulesettest.Fences(t, "notation.md", doc) {
		if f.Kind == kind {
			out = append(out, parseDocExample(t, f.Line, f.Lines))
		}
	}
	return out
}

func parseDocExample(t *testing.T, line int, body []string) docExample {
	t.Helper()
	ex := docExample{line: line}
	for k, l := range body {
		where := fmt.Sprintf("notation.md:%d", line+1+k)
		key, val, ok := strings.Cut(l, ":")
		if !ok {
			t.Fatalf("%s: want \"key: value\", got %q", where, l)
		}
		val = strings.TrimPrefix(val, " ")
		if readDiag(t, where, key, val, &ex.diags) {
			continue
		}
		switch key {
		case "input":
			if ex.hasInput {
				t.Fatalf("%s: two inputs in one block; give one example per block", where)
			}
			ex.input, ex.hasInput = val, true
		case "canonical":
			ex.canonical = &val
		case "mps", "impulses":
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				t.Fatalf("%s: mps: %v", where, err)
			}
			ex.mps = &n
		default:
			t.Fatalf("%s: unknown key %q", where, key)
		}
	}
	if !ex.hasInput {
		t.Fatalf("notation.md:%d: plot block without input:", line)
	}
	return ex
}

func TestNotationDoc(t *testing.T) {
	data, err := os.ReadFile("../../../docs/notation.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := plotBlocks(t, string(data))
	if len(examples) == 0 {
		t.Fatal("docs/notation.md has no ```plot examples")
	}
	for _, ex := range examples {
		t.Run(fmt.Sprintf("line%d", ex.line), func(t *testing.T) {
			p, ds := ParsePlot(ex.input)
			where := fmt.Sprintf("notation.md:%d: %q", ex.line, ex.input)
			wantErrors := checkDocDiags(t, where, ex, ds)
			if ex.canonical != nil || ex.mps != nil {
				if wantErrors > 0 {
					t.Fatalf("%s: an example with errors cannot give canonical: or mps:", where)
				}
			}
			if ex.canonical != nil && p.String() != *ex.canonical {
				t.Errorf("%s: canonical %q, the example says %q", where, p.String(), *ex.canonical)
			}
			if ex.mps != nil && p.MPs() != *ex.mps {
				t.Errorf("%s: %d MPs, the example says %d", where, p.MPs(), *ex.mps)
			}
		})
	}
}

// checkDocDiags checks an example's diagnostics against the parser's, and returns how many errors the
// example lists.
func checkDocDiags(t *testing.T, where string, ex docExample, ds []parser.Diagnostic) int {
	t.Helper()
	wantErrors := 0
	used := make([]bool, len(ds))
	for _, w := range ex.diags {
		if w.severity == parser.SeverityError {
			wantErrors++
		}
		found := false
		for k, d := range ds {
			if used[k] || d.Code != w.code || d.Severity != w.severity ||
				w.suggest != nil && d.Suggestion != *w.suggest || w.col != nil && d.Col != *w.col {
				continue
			}
			used[k], found = true, true
			break
		}
		if !found {
			t.Errorf("%s: no %s %s (suggest %v) among\n%s", where, w.severity, w.code,
				deref(w.suggest), dump(ds))
		}
	}
	gotErrors := 0
	for _, d := range ds {
		if d.Severity == parser.SeverityError {
			gotErrors++
		}
	}
	if gotErrors != wantErrors {
		t.Errorf("%s: %d errors, the example lists %d:\n%s", where, gotErrors, wantErrors, dump(ds))
	}
	return wantErrors
}

// TestImpulseNotationDoc checks every ```impulse example of docs/notation.md against the impulse order
// parser.
func TestImpulseNotationDoc(t *testing.T) {
	data, err := os.ReadFile("../../../docs/notation.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := docBlocks(t, string(data), "impulse")
	if len(examples) < 8 {
		t.Fatalf("docs/notation.md has %d ```impulse examples", len(examples))
	}
	for _, ex := range examples {
		o, ds := ParseImpulseOrder(ex.input)
		where := fmt.Sprintf("notation.md:%d: %q", ex.line, ex.input)
		wantErrors := checkDocDiags(t, where, ex, ds)
		if (ex.canonical != nil || ex.mps != nil) && wantErrors > 0 {
			t.Fatalf("%s: an example with errors cannot give canonical: or impulses:", where)
		}
		if ex.canonical != nil && o.String() != *ex.canonical {
			t.Errorf("%s: canonical %q, the example says %q", where, o.String(), *ex.canonical)
		}
		if ex.mps != nil {
			n := 0
			for _, m := range o.Manoeuvres {
				n += m.Impulses()
			}
			if n != *ex.mps {
				t.Errorf("%s: %d impulses, the example says %d", where, n, *ex.mps)
			}
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "(any)"
	}
	return strconv.Quote(*s)
}

// The extractor must skip blocks other than ```plot, such as the lead engineer's ```move examples.
func TestPlotBlocksSkipsOthers(t *testing.T) {
	doc := "x\n```move\ninput: nonsense\n```\n```plot\ninput: 2 TR\nmps: 3\n```\n```\nplain\n```\n"
	got := plotBlocks(t, doc)
	if len(got) != 1 || got[0].input != "2 TR" || *got[0].mps != 3 {
		t.Fatalf("plotBlocks = %+v", got)
	}
}
