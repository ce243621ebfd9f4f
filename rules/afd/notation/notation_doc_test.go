package notation

import (
	"fmt"
	"os"
	"path/filepath"
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

// keyValue reads an example's line, "key: value" (the one space after the colon is not the value's).
func keyValue(t *testing.T, where, l string) (key, val string) {
	t.Helper()
	key, val, ok := strings.Cut(l, ":")
	if !ok {
		t.Fatalf("%s: want \"key: value\", got %q", where, l)
	}
	return key, strings.TrimPrefix(val, " ")
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

// plotBlocks extracts the fenced blocks of the guide at path whose info string is "plot"; other blocks
// (```move, ```go ...) are skipped.
func plotBlocks(t *testing.T, path string) []docExample {
	t.Helper()
	return docBlocks(t, path, "plot", 1)
}

// docBlocks extracts the fenced blocks of the guide at path whose info string is kind ("plot", or
// "impulse" for impulse orders, whose "impulses:" line counts the impulses the manoeuvres take); fewer
// than least fail t.
func docBlocks(t *testing.T, path, kind string, least int) []docExample {
	t.Helper()
	var out []docExample
	for _, b := range rulesettest.DocBlocks(t, path, kind) {
		out = append(out, parseDocExample(t, b.Line, b.Lines))
	}
	if len(out) < least {
		t.Fatalf("%s has %d ```%s examples, fewer than %d", path, len(out), kind, least)
	}
	return out
}

// writeDoc writes a guide of the text for an extractor's test, and gives its path.
func writeDoc(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "guide.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func parseDocExample(t *testing.T, line int, body []string) docExample {
	t.Helper()
	ex := docExample{line: line}
	for k, l := range body {
		where := fmt.Sprintf("notation.md:%d", line+1+k)
		key, val := keyValue(t, where, l)
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
	for _, ex := range plotBlocks(t, "../../../docs/notation.md") {
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

// checkDocDiags checks a plot's or impulse order's diagnostics against those its example lists
// (checkDiags), and returns how many errors the example lists.
func checkDocDiags(t *testing.T, where string, ex docExample, ds []parser.Diagnostic) int {
	t.Helper()
	lds := make([]parser.LineDiagnostic, len(ds))
	for i, d := range ds {
		lds[i].Diagnostic = d
	}
	return checkDiags(t, where, ex.diags, lds)
}

// checkDiags checks the diagnostics read (ds) against those an example lists (diags): each listed one
// is read, on its line when it gives one, with its column and suggestion when it gives them; and there
// are as many errors as it lists. It returns how many errors the example lists.
func checkDiags(t *testing.T, where string, diags []docDiag, ds []parser.LineDiagnostic) int {
	t.Helper()
	used := make([]bool, len(ds))
	wantErrors := 0
	for _, w := range diags {
		if w.severity == parser.SeverityError {
			wantErrors++
		}
		found := false
		for k, d := range ds {
			if used[k] || d.Code != w.code || d.Severity != w.severity || w.line >= 0 && d.Line != w.line ||
				w.col != nil && d.Col != *w.col || w.suggest != nil && d.Suggestion != *w.suggest {
				continue
			}
			used[k], found = true, true
			break
		}
		if !found {
			t.Errorf("%s: no %s %s at line %d (col %v, suggest %s) among\n%s", where, w.severity, w.code, w.line,
				derefInt(w.col), deref(w.suggest), dumpLine(ds))
		}
	}
	gotErrors := 0
	for _, d := range ds {
		if d.Severity == parser.SeverityError {
			gotErrors++
		}
	}
	if gotErrors != wantErrors {
		t.Errorf("%s: %d errors, the example lists %d:\n%s", where, gotErrors, wantErrors, dumpLine(ds))
	}
	return wantErrors
}

// TestImpulseNotationDoc checks every ```impulse example of docs/notation.md against the impulse order
// parser.
func TestImpulseNotationDoc(t *testing.T) {
	for _, ex := range docBlocks(t, "../../../docs/notation.md", "impulse", 8) {
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
	got := plotBlocks(t, writeDoc(t, doc))
	if len(got) != 1 || got[0].input != "2 TR" || *got[0].mps != 3 {
		t.Fatalf("plotBlocks = %+v", got)
	}
}
