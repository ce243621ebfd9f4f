package rulesettest

import (
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
