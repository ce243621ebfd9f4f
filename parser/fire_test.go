package parser

import (
	"fmt"
	"testing"
)

// TestParseFireAfterHold: every word after HOLD is reported, as every stray word after a FIRE target is,
// up to a second FIRE or HOLD, which is reported once as a second fire order.
func TestParseFireAfterHold(t *testing.T) {
	type diag struct {
		code string
		col  int
	}
	cases := []struct {
		in   string
		want []diag
	}{
		{"HOLD", nil},
		{"HOLD.", nil},
		{"HOLD NOW", []diag{{CodeFireAfterEnd, 6}}},
		{"HOLD FIRE ANY", []diag{{CodeFireTwice, 6}}},
		{"HOLD NOW PLEASE", []diag{{CodeFireAfterEnd, 6}, {CodeFireAfterEnd, 10}}},
		{"HOLD NOW FIRE ANY", []diag{{CodeFireAfterEnd, 6}, {CodeFireTwice, 10}}},
		{"HOLD HOLD NOW", []diag{{CodeFireTwice, 6}}},
	}
	for _, c := range cases {
		f, ds := ParseFire(c.in, 1)
		if f.Mode != FireHold {
			t.Errorf("%q: mode %v, want HOLD", c.in, f.Mode)
		}
		var got []diag
		for _, d := range ds {
			if d.Severity != SeverityError {
				t.Errorf("%q: %s at %d is not an error", c.in, d.Code, d.Col)
			}
			got = append(got, diag{d.Code, d.Col})
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: diagnostics %v, want %v", c.in, got, c.want)
		}
	}
}

// TestParseFireAt: "FIRE AT KURT" read AT as the target and then refused KURT ("after the target come
// only GUNS … and MAX …"). It is read as FIRE KURT, with a note saying so; a unit called AT is still a
// target when nothing follows it.
func TestParseFireAt(t *testing.T) {
	for _, c := range []struct {
		text, want string
		notes      int
	}{
		{"FIRE AT KURT", "FIRE KURT", 1},
		{"fire at kurt max 3", "FIRE KURT MAX 3", 1},
		{"FIRE AT ANY", "FIRE ANY", 1},
		{"FIRE AT", "FIRE AT", 0},
		{"FIRE AT GUNS nose", "FIRE AT GUNS nose", 0},
	} {
		f, ds := ParseFire(c.text, 1)
		if HasErrors(ds) || f.String() != c.want || len(ds) != c.notes {
			t.Errorf("%q: read %q, diagnostics %v; want %q with %d note(s)", c.text, f.String(), ds, c.want, c.notes)
		}
		for _, d := range ds {
			if d.Severity != SeverityWarning || d.Col != 6 {
				t.Errorf("%q: %+v", c.text, d)
			}
		}
	}
}
