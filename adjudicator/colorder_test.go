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

// TestClearSaysWhatItWithdrew: "CLEAR RED2" answered "0 order(s) withdrawn" although it withdrew the
// RED2 order written above it in the same block.
func TestClearSaysWhatItWithdrew(t *testing.T) {
	f := newFixture(t, 0)
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 6\nCLEAR RED2\nEND")
	rec := f.last("alice@players.test").Body
	if strings.Contains(rec, "0 order(s) withdrawn") || !strings.Contains(rec, "CLEAR RED2: no order was on file to withdraw; also withdraws the order written above it on line 2") {
		t.Errorf("CLEAR after an order in the same block:\n%s", rec)
	}
	f.mail("alice@players.test", "a2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	f.mail("alice@players.test", "a3", "GAME g1 TURN 1 SECRET lark-swift-0001\nCLEAR\nEND")
	if rec := f.last("alice@players.test").Body; !strings.Contains(rec, "CLEAR: 2 orders on file withdrawn") {
		t.Errorf("CLEAR of two orders on file:\n%s", rec)
	}
}
