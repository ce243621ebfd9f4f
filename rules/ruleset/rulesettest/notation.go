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
