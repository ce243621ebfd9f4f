package picture

import (
	"fmt"
	"strings"
	"testing"
)

// The caption wraps at the picture's width, keeps words whole, and says how many lines it left for the
// report when there are too many.
func TestCaptionWrapsAndStops(t *testing.T) {
	p := newPen(mustFonts(t))
	long := strings.Repeat("word ", 60)
	lines := captionLines(p, []string{"short", long}, 640)
	if len(lines) < 3 || lines[0] != "• short" || !strings.HasPrefix(lines[1], "• word") || !strings.HasPrefix(lines[2], "  word") {
		t.Fatalf("wrapped: %q", lines)
	}
	for _, l := range lines {
		if p.measure(l, captionSize) > 640-2*captionPad {
			t.Errorf("line wider than the picture: %q", l)
		}
		if strings.HasSuffix(l, " wor") || strings.HasPrefix(strings.TrimLeft(l, "• "), "ord") {
			t.Errorf("a word was cut: %q", l)
		}
	}
	var many []string
	for i := range 40 {
		many = append(many, fmt.Sprintf("event %d", i))
	}
	lines = captionLines(p, many, 1200)
	if len(lines) != captionMax || lines[captionMax-1] != fmt.Sprintf("… and %d more in the report", 40-(captionMax-1)) {
		t.Errorf("40 events gave %d lines ending %q", len(lines), lines[len(lines)-1])
	}
	if got := captionLines(p, nil, 800); got != nil {
		t.Errorf("no caption gave %q", got)
	}
}

// A caption grows the picture by its strip and its text is in the SVG.
func TestCaptionIsDrawn(t *testing.T) {
	s := everything()
	s.Caption = nil
	plain, err := SVG(s)
	if err != nil {
		t.Fatal(err)
	}
	s.Caption = []string{"RED1 fired at HANS: 2 hits"}
	with, err := SVG(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "fired at HANS") || !strings.Contains(string(with), "fired at HANS") {
		t.Errorf("the caption's text is not in the SVG exactly when the scene has it")
	}
}

func mustFonts(t *testing.T) fontSet {
	t.Helper()
	fs, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	return fs
}
