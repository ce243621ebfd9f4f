package rulesettest

import (
	"fmt"
	"testing"

	"sortie/parser"
)

// ReadsBack fails t when the order parse reads from in without an error does not read back from its
// canonical text (its String) without an error and the same order (same says when two are).
func ReadsBack[O fmt.Stringer](t testing.TB, in string, parse func(string) (O, []parser.Diagnostic), same func(a, b O) bool) {
	t.Helper()
	o, ds := parse(in)
	if parser.HasErrors(ds) {
		return
	}
	back, ds2 := parse(o.String())
	if parser.HasErrors(ds2) || !same(back, o) {
		t.Errorf("%q: its canonical %q reads back as %q %v", in, o.String(), back.String(), ds2)
	}
}
