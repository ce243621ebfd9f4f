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
