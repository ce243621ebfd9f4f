package picture

import (
	"math"
	"strings"
)

// The label block of a hex: each unit's label in bold, in its side's colour, with its notes on one line
// beneath. Blocks go beside their counters where they cover the least of the other labels, counters and
// badges, looked for in a fixed order so the result never varies.

const (
	labelPadX  = 3.0
	labelPadY  = 2.0
	labelLineH = 14.0
	noteLineH  = 12.5
	labelGap   = 4.0
)

// block is a label block ready to draw.
type block struct {
	lines []span
	lineH []float64
	w, h  float64
	at    box
}

func labelBlock(p *pen, g *group) *block {
	b := &block{}
	for _, u := range g.units {
		c := coloursOf(u.Side, false).dark
		nc := noteInk
		if u.Out {
			c, nc = outInk, outInk
		}
		if l := clean(u.Label, 24); l != "" {
			b.add(p.text(l, labelSize, true, c), labelLineH)
		}
		var notes []string
		for _, n := range u.Notes {
			if n = clean(n, 24); n != "" {
				notes = append(notes, n)
			}
		}
		if len(notes) > 0 {
			b.add(p.text(clean(strings.Join(notes, " · "), 48), noteSize, false, nc), noteLineH)
		}
	}
	if len(b.lines) == 0 {
		return nil
	}
	b.w = math.Ceil(b.w + 2*labelPadX)
	b.h = math.Ceil(b.h + 2*labelPadY)
	return b
}

func (b *block) add(s span, h float64) {
	b.lines = append(b.lines, s)
	b.lineH = append(b.lineH, h)
	b.w = max(b.w, s.width)
	b.h += h
}

// candidates are where a block may go around a cluster at (x, y) reaching r: right, left, below, above,
// then the corners.
func candidates(x, y, r, w, h float64) []box {
	at := func(x0, y0 float64) box {
		x0, y0 = math.Round(x0), math.Round(y0)
		return box{x0, y0, x0 + w, y0 + h}
	}
	return []box{
		at(x+r+labelGap, y-h/2),
		at(x-r-labelGap-w, y-h/2),
		at(x-w/2, y+r+labelGap),
		at(x-w/2, y-r-labelGap-h),
		at(x+r/2, y+0.6*r+labelGap),
		at(x+r/2, y-0.6*r-labelGap-h),
		at(x-r/2-w, y+0.6*r+labelGap),
		at(x-r/2-w, y-0.6*r-labelGap-h),
	}
}

// placer keeps what is already on the map and scores a place for a new block by what it would cover.
type placer struct {
	area     box
	counters []box // counters and badges: covering them hides the map
	labels   []box // blocks already placed
}

func (pl *placer) cost(b box, order int) float64 {
	c := 0.0
	for _, o := range pl.labels {
		c += 3 * b.overlap(o)
	}
	for _, o := range pl.counters {
		c += 2 * b.overlap(o)
	}
	c += 5 * (b.area() - b.overlap(pl.area)) // off the map
	return c + 0.01*float64(order)
}

func (pl *placer) place(cands []box) box {
	best, bestCost := cands[0], pl.cost(cands[0], 0)
	for i, c := range cands[1:] {
		if k := pl.cost(c, i+1); k < bestCost {
			best, bestCost = c, k
		}
	}
	pl.labels = append(pl.labels, best)
	return best
}

// drawLabels places and draws the units' label blocks, then the marks' labels.
func drawLabels(p *pen, f *frame, groups []*group, marks []mark) {
	pl := &placer{area: box{2, f.top + 2, f.W - 2, f.bottom - 2}}
	for _, g := range groups {
		for i := range g.units {
			r := frameReach(g.units[i].Side, g.r)
			pl.counters = append(pl.counters, box{g.at[i].X - r, g.at[i].Y - r, g.at[i].X + r, g.at[i].Y + r})
		}
	}
	for _, m := range marks {
		pl.counters = append(pl.counters, box{m.x - m.r, m.y - m.r, m.x + m.r, m.y + m.r})
	}
	for _, g := range groups {
		b := labelBlock(p, g)
		if b == nil {
			continue
		}
		x, y := f.centre(g.h)
		b.at = pl.place(candidates(math.Round(x), math.Round(y), g.reach, b.w, b.h))
		drawBlock(p, b)
	}
	for _, m := range marks {
		if m.label == "" {
			continue
		}
		t := p.text(m.label, markSize, false, ink)
		b := &block{}
		b.add(t, 11.5)
		b.w = math.Ceil(b.w + 2*labelPadX)
		b.h = math.Ceil(b.h + 2*labelPadY)
		b.at = pl.place(candidates(math.Round(m.x), math.Round(m.y), math.Round(m.r), b.w, b.h))
		drawBlock(p, b)
	}
}

func drawBlock(p *pen, b *block) {
	p.fill(rect(b.at.x0, b.at.y0, b.w, b.h), labelBg)
	y := b.at.y0 + labelPadY
	for i, l := range b.lines {
		// The baseline sits at about four fifths of the line.
		p.draw(l, b.at.x0+labelPadX, y+0.8*b.lineH[i])
		y += b.lineH[i]
	}
}
