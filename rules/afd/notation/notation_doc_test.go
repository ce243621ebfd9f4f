package notation

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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
	diags     []rulesettest.DocDiag
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

// keyValue reads an example's line, "key: value" (the one space after the colon is not the value's).
func keyValue(t *testing.T, where, l string) (key, val string) {
	t.Helper()
	key, val, ok := strings.Cut(l, ":")
	if !ok {
		t.Fatalf("%s: want \"key: value\", got %q", where, l)
	}
	return key, strings.TrimPrefix(val, " ")
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
		if rulesettest.ReadDocDiag(t, where, &ex.diags, key, val) {
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
			wantErrors := rulesettest.CheckDocDiags(t, where, ex.diags, ds)
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

// TestImpulseNotationDoc checks every ```impulse example of docs/notation.md against the impulse order
// parser.
func TestImpulseNotationDoc(t *testing.T) {
	for _, ex := range docBlocks(t, "../../../docs/notation.md", "impulse", 8) {
		o, ds := ParseImpulseOrder(ex.input)
		where := fmt.Sprintf("notation.md:%d: %q", ex.line, ex.input)
		wantErrors := rulesettest.CheckDocDiags(t, where, ex.diags, ds)
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

// The extractor must skip blocks other than ```plot, such as the lead engineer's ```move examples.
func TestPlotBlocksSkipsOthers(t *testing.T) {
	doc := "x\n```move\ninput: nonsense\n```\n```plot\ninput: 2 TR\nmps: 3\n```\n```\nplain\n```\n"
	got := plotBlocks(t, writeDoc(t, doc))
	if len(got) != 1 || got[0].input != "2 TR" || *got[0].mps != 3 {
		t.Fatalf("plotBlocks = %+v", got)
	}
}
