package rulesettest

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
)

// DocBlock is a fenced example in one of the project's documents: its kind (the word after the opening
// ```), the line number of its opening fence, and the lines between the fences.
type DocBlock struct {
	Kind  string
	Line  int
	Lines []string
}

// DocBlocks are the fenced examples of the given kinds in the document at path, in order; a document
// that cannot be read fails the test. An example runs to its closing fence or to the document's end.
func DocBlocks(t testing.TB, path string, kinds ...string) []DocBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []DocBlock
	for i := 0; i < len(lines); i++ {
		kind, fence := strings.CutPrefix(strings.TrimSpace(lines[i]), "```")
		if !fence || !slices.Contains(kinds, kind) {
			continue
		}
		b := DocBlock{Kind: kind, Line: i + 1}
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			b.Lines = append(b.Lines, lines[i])
		}
		out = append(out, b)
	}
	return out
}

// DocDiag is a diagnostic a documented example promises: its code and severity, and, when the example
// gives them, the line of an order block it is on (0: the whole mail), its column and its suggestion.
type DocDiag struct {
	Code     string
	Severity parser.Severity
	Line     *int
	Col      *int
	Suggest  *string
}

// ReadDocDiag reads one "key: value" line of an example into diags when it describes a diagnostic:
// "error: CODE" or "warning: CODE" starts one ("CODE at N" on line N of an order block), suggest: and
// col: give the one above its suggestion and column. It reports whether key was one of these; a fault
// in one fails t, naming the line (where).
func ReadDocDiag(t testing.TB, where string, diags *[]DocDiag, key, val string) bool {
	t.Helper()
	switch key {
	case "error", "warning":
		sev := parser.SeverityError
		if key == "warning" {
			sev = parser.SeverityWarning
		}
		code, at, hasAt := strings.Cut(strings.TrimSpace(val), " at ")
		d := DocDiag{Code: code, Severity: sev}
		if hasAt {
			n, err := strconv.Atoi(strings.TrimSpace(at))
			if err != nil {
				t.Fatalf("%s: %s: at: %v", where, key, err)
			}
			d.Line = &n
		}
		*diags = append(*diags, d)
		return true
	case "suggest", "col":
		if len(*diags) == 0 {
			t.Fatalf("%s: %s: must follow an error: or warning: line", where, key)
		}
		last := &(*diags)[len(*diags)-1]
		if key == "suggest" {
			last.Suggest = &val
			return true
		}
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			t.Fatalf("%s: col: %v", where, err)
		}
		last.Col = &n
		return true
	}
	return false
}

// CheckDocDiags checks the diagnostics ds a parser gave an example (where) against the ones it promises:
// each promised one is there (one given diagnostic answers one promise), and the errors are exactly the
// promised ones (warnings not promised are allowed). It returns how many errors were promised.
func CheckDocDiags[D parser.Diagnostic | parser.LineDiagnostic](t testing.TB, where string, want []DocDiag, ds []D) int {
	t.Helper()
	given := make([]parser.LineDiagnostic, len(ds))
	var dump strings.Builder
	for i, d := range ds {
		switch d := any(d).(type) {
		case parser.Diagnostic:
			given[i].Diagnostic = d
		case parser.LineDiagnostic:
			given[i] = d
		}
		fmt.Fprintf(&dump, "  [%s] %s\n", given[i].Code, any(d).(error).Error())
	}
	wantErrors := 0
	used := make([]bool, len(ds))
	for _, w := range want {
		if w.Severity == parser.SeverityError {
			wantErrors++
		}
		found := false
		for k, d := range given {
			if used[k] || d.Code != w.Code || d.Severity != w.Severity || w.Line != nil && d.Line != *w.Line ||
				w.Col != nil && d.Col != *w.Col || w.Suggest != nil && d.Suggestion != *w.Suggest {
				continue
			}
			used[k], found = true, true
			break
		}
		if !found {
			t.Errorf("%s: no %s %s (line %s, col %s, suggest %s) among\n%s", where, w.Severity, w.Code,
				docAny(w.Line, strconv.Itoa), docAny(w.Col, strconv.Itoa), docAny(w.Suggest, strconv.Quote), dump.String())
		}
	}
	gotErrors := 0
	for _, d := range given {
		if d.Severity == parser.SeverityError {
			gotErrors++
		}
	}
	if gotErrors != wantErrors {
		t.Errorf("%s: %d errors, the example lists %d:\n%s", where, gotErrors, wantErrors, dump.String())
	}
	return wantErrors
}

// docAny is a promised detail as a failure's message says it: "(any)" when the example leaves it open.
func docAny[T any](v *T, text func(T) string) string {
	if v == nil {
		return "(any)"
	}
	return text(*v)
}
