package adjudicator

import (
	"strings"
	"testing"
)

// TestErrorsOfALineInColumnOrder: a line's problems came as the block parser found them, then as the
// rules did, so a receipt could tell column 12 before column 7. They are told in column order, the
// whole line's first, in the order found where the column is the same.
func TestErrorsOfALineInColumnOrder(t *testing.T) {
	if got := inColumnOrder([]positioned{{12, "c"}, {0, "whole"}, {7, "a"}, {7, "b"}}); strings.Join(got, ",") != "whole,a,b,c" {
		t.Errorf("inColumnOrder: %v", got)
	}
	if got := inColumnOrder(nil); got != nil {
		t.Errorf("no problems: %v", got)
	}
}
