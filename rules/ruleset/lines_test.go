package ruleset

import (
	"slices"
	"strconv"
	"testing"
)

func TestLinesAreSubstringsOfOneString(t *testing.T) {
	var l Lines
	if l.Strings() != nil {
		t.Fatal("no line ended: Strings must be nil")
	}
	l.Grow(3, 8)
	l.B = append(l.B, "first"...)
	l.End()
	l.End() // an empty line
	l.B = strconv.AppendInt(append(l.B, "n="...), -42, 10)
	l.End()
	l.B = append(l.B, "not ended"...)
	got := l.Strings()
	if want := []string{"first", "", "n=-42"}; !slices.Equal(got, want) {
		t.Fatalf("Strings = %q, want %q", got, want)
	}
	// One string holds them all: the string and the slice are all Strings allocates, however many lines.
	if n := testing.AllocsPerRun(10, func() { l.Strings() }); n != 2 {
		t.Errorf("Strings made %v allocations, want 2", n)
	}
	// The buffer may be written on: the lines handed out stay as they are.
	l.B[0] = 'F'
	if got[0] != "first" {
		t.Errorf("a line changed with the buffer: %q", got[0])
	}
}

// An order check's first line is its canonical order and the others its forecast; an order with no
// forecast line has none (nil, not an empty list).
func TestLinesCheck(t *testing.T) {
	var l Lines
	l.B = append(l.B, "3 TR 1"...)
	l.End()
	var c OrderCheck
	l.Check(&c)
	if c.Canonical != "3 TR 1" || c.Preview != nil {
		t.Errorf("one line: canonical %q, preview %#v", c.Canonical, c.Preview)
	}
	l.B = append(l.B, "ends in hex (0,1)"...)
	l.End()
	l.Check(&c)
	if want := []string{"ends in hex (0,1)"}; c.Canonical != "3 TR 1" || !slices.Equal(c.Preview, want) {
		t.Errorf("two lines: canonical %q, preview %q", c.Canonical, c.Preview)
	}
}
