package afd

import (
	"bytes"
	"strings"
	"testing"
)

// TestCalcMoveCountsReadAsEnglish: the calculator's summary line counts hexes and manoeuvres in words a
// player reads ("1 manoeuvre", not "1 manoeuvres").
func TestCalcMoveCountsReadAsEnglish(t *testing.T) {
	var out bytes.Buffer
	err := calcMove([]string{"--aircraft", "p-40c", "--speed", "6.4", "--alt", "8000", "--bank", "RB", "--plot", "2 TR 3 +1"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "6 hexes moved, 1 manoeuvre\n") {
		t.Errorf("summary line:\n%s", out.String())
	}
	out.Reset()
	if err := calcMove([]string{"--aircraft", "p-40c", "--speed", "6.4", "--alt", "8000", "--bank", "RB", "--plot", "TR 2 TR 2"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "6 hexes moved, 2 manoeuvres\n") {
		t.Errorf("summary line:\n%s", out.String())
	}
}
