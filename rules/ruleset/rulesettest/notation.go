package rulesettest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"sortie/parser"
)

// Diagnosed checks what a notation's parser said of any text in, as a fuzz target does: no more
// diagnostics than the text can explain, and each inside the text (or at column 0, the whole text, or
// just past its end), with a code, a message and a severity. It returns the text's length in runes.
func Diagnosed(t *testing.T, in string, ds []parser.Diagnostic) int {
	t.Helper()
	n := utf8.RuneCountInString(in)
	if len(ds) > 2*n+5 {
		t.Errorf("%q: %d diagnostics for %d runes", in, len(ds), n)
	}
	for _, d := range ds {
		if d.Col < 0 || d.Col > n+1 {
			t.Errorf("%q: diagnostic %q at col %d, outside 0..%d", in, d.Code, d.Col, n+1)
		}
		if d.Code == "" || d.Message == "" {
			t.Errorf("%q: diagnostic without code or message: %+v", in, d)
		}
		if d.Severity != parser.SeverityError && d.Severity != parser.SeverityWarning {
			t.Errorf("%q: diagnostic %q has severity %d", in, d.Code, d.Severity)
		}
	}
	return n
}

// ReadsBack checks, for a fuzz target, an order o that in read as without an error: its canonical text
// reads back without any diagnostic to an equal order that prints the same (a fixed point).
func ReadsBack[O interface {
	String() string
	Equal(O) bool
}](t *testing.T, in string, o O, parse func(string) (O, []parser.Diagnostic)) {
	t.Helper()
	s := o.String()
	back, ds := parse(s)
	if len(ds) > 0 {
		t.Fatalf("%q: canonical %q draws %v", in, s, ds)
	}
	if !back.Equal(o) {
		t.Fatalf("%q: canonical %q reads as %+v, want %+v", in, s, back, o)
	}
	if s2 := back.String(); s2 != s {
		t.Fatalf("%q: canonical form is no fixed point: %q then %q", in, s, s2)
	}
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
