package picture

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The caption strip under the map: what happened this round as the side was told it (Scene.Caption), so
// a player can follow a game from its pictures alone.
const (
	captionSize  = 12.5 // pixels
	captionLineH = 17.0
	captionPad   = 10.0
	// captionMax is the most lines the strip shows; the rest is in the report's text, and the last line
	// says how many more there are.
	captionMax = 16
)

// captionLines wraps the caption to a picture w pixels wide: words kept whole where they fit, at most
// captionMax lines. Widths come from the average advance of the caption font, measured once, so the
// wrapping costs no shaping per word.
func captionLines(p *pen, caption []string, w float64) []string {
	if len(caption) == 0 {
		return nil
	}
	probe := "The quick brown fox jumps over the lazy dog, 0123456789 (12,-3) hits"
	avg := p.measure(probe, captionSize) / float64(utf8.RuneCountInString(probe))
	cols := max(20, int((w-2*captionPad-12)/avg))
	var out []string
	limit := w - 2*captionPad
	for i, c := range caption {
		text := clean(c, 400)
		wrapped := wrap(text, cols)
		// The average can be beaten by a line of wide letters: narrow that caption until it fits.
		for n := cols - 1; n >= 10 && tooWide(p, wrapped, limit); n-- {
			wrapped = wrap(text, n)
		}
		for j, l := range wrapped {
			if j == 0 {
				l = "• " + l
			} else {
				l = "  " + l
			}
			if len(out) == captionMax-1 && (j < len(wrapped)-1 || i < len(caption)-1) {
				out = append(out, fmt.Sprintf("… and %d more in the report", len(caption)-i))
				return out
			}
			out = append(out, l)
		}
	}
	return out
}

// tooWide says whether a wrapped line, with its bullet or indent, is wider than limit pixels.
func tooWide(p *pen, lines []string, limit float64) bool {
	for _, l := range lines {
		if p.measure("• "+l, captionSize) > limit {
			return true
		}
	}
	return false
}

// wrap breaks s into lines of at most cols runes at spaces (a word longer than a line is cut).
func wrap(s string, cols int) []string {
	var out []string
	for utf8.RuneCountInString(s) > cols {
		rs := []rune(s)
		cut := strings.LastIndex(string(rs[:cols+1]), " ")
		if cut <= 0 {
			out = append(out, string(rs[:cols]))
			s = string(rs[cols:])
			continue
		}
		out = append(out, s[:cut])
		s = strings.TrimLeft(s[cut:], " ")
	}
	if s != "" || len(out) == 0 {
		out = append(out, s)
	}
	return out
}

func captionHeight(lines []string) float64 {
	if len(lines) == 0 {
		return 0
	}
	return float64(len(lines))*captionLineH + 2*captionPad - 4
}

// drawCaption writes the caption's lines in the strip that starts at y.
func drawCaption(p *pen, f *frame, lines []string, y float64, lay *Layout) {
	if len(lines) == 0 {
		return
	}
	p.fill(rect(0, y, f.W, captionHeight(lines)), legendBg)
	p.fill(rect(0, y, f.W, 1), gridLine)
	y += captionPad + captionSize - 2
	for _, l := range lines {
		t := p.text(l, captionSize, false, ink)
		p.draw(t, captionPad, y)
		lay.add(CaptionLine, l, textBox(t, captionPad, y))
		y += captionLineH
	}
}
