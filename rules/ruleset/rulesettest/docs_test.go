package rulesettest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sortie/parser"
)

// DocBlocks finds the examples of the kinds asked for, numbered by their opening fence, and passes over
// the others; an example left open runs to the document's end and fails the test, since the rest of the
// document would show as its code.
func TestDocBlocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guide.md")
	doc := "# Guide\n```tnl\ninput: 6 / 6\n```\n```swarm\nx\n```\n  ```flak  \ninput: HOLD\ncol: 3\n```\n```tnl\nopen"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &docRecorder{TB: t}
	got := DocBlocks(r, path, "tnl", "flak")
	if len(r.failures) != 1 || !strings.Contains(r.failures[0], ":12: the tnl example is never closed") {
		t.Errorf("the open example at line 12: failures %q", r.failures)
	}
	want := []DocBlock{
		{Kind: "tnl", Line: 2, Lines: []string{"input: 6 / 6"}},
		{Kind: "flak", Line: 8, Lines: []string{"input: HOLD", "col: 3"}},
		{Kind: "tnl", Line: 12, Lines: []string{"open"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// docRecorder is a testing.TB that keeps the failures it is told of instead of failing.
type docRecorder struct {
	testing.TB
	failures []string
}

func (r *docRecorder) Helper() {}
func (r *docRecorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

// An example's promised diagnostics are read from its lines (an order block's with their line), and each
// is looked for in what the parser gave, one given diagnostic a promise; the errors must be exactly the
// promised ones, a warning more is allowed.
func TestDocDiags(t *testing.T) {
	var want []DocDiag
	for _, kv := range [][2]string{{"error", "no-block at 0"}, {"col", "3"}, {"warning", "quote"}, {"suggest", "TR"}} {
		if !ReadDocDiag(t, "x.md:1", &want, kv[0], kv[1]) {
			t.Fatalf("%s: not read", kv[0])
		}
	}
	if ReadDocDiag(t, "x.md:1", &want, "input", "2 TR") || len(want) != 2 || *want[0].Line != 0 || *want[0].Col != 3 || want[1].Line != nil || *want[1].Suggest != "TR" {
		t.Fatalf("read %+v", want)
	}
	block := []parser.LineDiagnostic{
		{Line: 0, Diagnostic: parser.Diagnostic{Code: "no-block", Col: 3, Severity: parser.SeverityError}},
		{Line: 2, Diagnostic: parser.Diagnostic{Code: "quote", Severity: parser.SeverityWarning, Suggestion: "TR"}},
		{Line: 3, Diagnostic: parser.Diagnostic{Code: "other", Severity: parser.SeverityWarning}},
	}
	r := &docRecorder{TB: t}
	if n := CheckDocDiags(r, "x.md:1", want, block); n != 1 || len(r.failures) != 0 {
		t.Errorf("as promised: %d errors, %q", n, r.failures)
	}
	plain := []parser.Diagnostic{{Code: "no-block", Col: 4, Severity: parser.SeverityError}, {Code: "late", Severity: parser.SeverityError}}
	r = &docRecorder{TB: t}
	CheckDocDiags(r, "x.md:1", want, plain)
	if len(r.failures) != 3 { // the error at another column, the missing warning, one error too many
		t.Errorf("three faults, got %q", r.failures)
	}
}
