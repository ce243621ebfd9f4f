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

// placer keeps what is already on the map and finds each new block a place: beside its counters where
// that covers nothing, else the nearest free spot further out (drawn with a leader line back to them),
// looked for in a fixed order so the result never varies. Only a map too full for any free spot puts a
// block where it covers least.
type placer struct {
	area     box       // the map, less a pixel all round
	counters []box     // counters, badges, edge markers and plots' ends: covering them hides the map
	lines    []segment // the plots' lines
	labels   []box     // blocks already placed
}

func (pl *placer) free(b box) bool {
	if b.x0 < pl.area.x0 || b.y0 < pl.area.y0 || b.x1 > pl.area.x1 || b.y1 > pl.area.y1 {
		return false
	}
	for _, o := range pl.labels {
		if b.overlap(o) > 0 {
			return false
		}
	}
	for _, o := range pl.counters {
		if b.overlap(o) > 0 {
			return false
		}
	}
	for _, s := range pl.lines {
		if s.hits(b) {
			return false
		}
	}
	return true
}

func (pl *placer) cost(b box, order int) float64 {
	c := 0.0
	for _, o := range pl.labels {
		c += 3 * b.overlap(o)
	}
	for _, o := range pl.counters {
		c += 2 * b.overlap(o)
	}
	for _, s := range pl.lines {
		if s.hits(b) {
			c += 40 * s.hw
		}
	}
	c += 5 * (b.area() - b.overlap(pl.area)) // off the map
	return c + 0.01*float64(order)
}

// leaderStep and leaderReach bound the search for a free spot: rings leaderStep pixels apart, out to
// leaderReach from the counters.
const (
	leaderStep  = 6.0
	leaderReach = 900.0
)

// place finds a block of w×h a spot near a cluster at (x, y) reaching r, records it and says whether it
// went further out than the spots beside the cluster (and so needs a leader line).
func (pl *placer) place(x, y, r, w, h float64) (box, bool) {
	cands := candidates(x, y, r, w, h)
	for _, c := range cands {
		if pl.free(c) {
			pl.labels = append(pl.labels, c)
			return c, false
		}
	}
	at := func(cx, cy float64) box {
		x0, y0 := math.Round(cx-w/2), math.Round(cy-h/2)
		return box{x0, y0, x0 + w, y0 + h}
	}
	for d := leaderStep; d <= leaderReach; d += leaderStep {
		// Sixteen ways round, then more as the ring grows, so the spots stay about a block's height
		// apart; east first, clockwise.
		n := max(16, int(2*math.Pi*d/12))
		for k := range n {
			dx, dy := bearing(90 + 360*float64(k)/float64(n))
			c := at(x+dx*(r+d+w/2), y+dy*(r+d+h/2))
			if pl.free(c) {
				pl.labels = append(pl.labels, c)
				return c, true
			}
		}
	}
	best, bestCost := cands[0], pl.cost(cands[0], 0)
	for i, c := range cands[1:] {
		if k := pl.cost(c, i+1); k < bestCost {
			best, bestCost = c, k
		}
	}
	pl.labels = append(pl.labels, best)
	return best, false
}

// placed is a block with the point its leader line starts from, when it has one.
type placed struct {
	b      *block
	leader bool
	from   pt
	r      float64 // how far the counters reach from it
}

// drawLabels places the units' label blocks, then the marks' labels, then the far units', then the
// plots', all off the plots' lines and ends, and draws their leader lines and then the blocks, so no
// line crosses a block.
func drawLabels(p *pen, f *frame, groups []*group, marks []mark, edges []*edgeMarker, plans []*plan, lay *Layout) {
	pl := &placer{area: box{1, f.top + 1, f.W - 1, f.bottom - 1}}
	for _, g := range groups {
		for i := range g.units {
			r := frameReach(g.units[i].Side, g.r)
			pl.counters = append(pl.counters, box{g.at[i].X - r, g.at[i].Y - r, g.at[i].X + r, g.at[i].Y + r})
		}
	}
	for _, m := range marks {
		pl.counters = append(pl.counters, box{m.x - m.r, m.y - m.r, m.x + m.r, m.y + m.r})
	}
	for _, e := range edges {
		pl.counters = append(pl.counters, box{e.x - e.r, e.y - e.r, e.x + e.r, e.y + e.r})
	}
	segs, ends := planObstacles(plans)
	pl.lines = segs
	pl.counters = append(pl.counters, ends...)
	var all []placed
	put := func(b *block, x, y, r float64) {
		x, y, r = math.Round(x), math.Round(y), math.Round(r)
		var lead bool
		b.at, lead = pl.place(x, y, r, b.w, b.h)
		all = append(all, placed{b: b, leader: lead, from: pt{X: x, Y: y}, r: r})
	}
	for _, g := range groups {
		if b := labelBlock(p, g); b != nil {
			x, y := f.centre(g.h)
			put(b, x, y, g.reach)
		}
	}
	for _, m := range marks {
		if m.label == "" {
			continue
		}
		b := &block{}
		b.add(p.text(m.label, markSize, false, ink), 11.5)
		b.w = math.Ceil(b.w + 2*labelPadX)
		b.h = math.Ceil(b.h + 2*labelPadY)
		put(b, m.x, m.y, m.r)
	}
	for _, e := range edges {
		b := &block{}
		c := coloursOf(e.u.Side, false).dark
		if e.u.Out {
			c = outInk
		}
		b.add(p.text(clean(e.u.Label, 24), labelSize, true, c), labelLineH)
		if e.notes != "" {
			b.add(p.text(e.notes, noteSize, false, noteInk), noteLineH)
		}
		b.w = math.Ceil(b.w + 2*labelPadX)
		b.h = math.Ceil(b.h + 2*labelPadY)
		put(b, e.x, e.y, e.r)
	}
	for _, pn := range plans {
		if b := planLabel(p, pn); b != nil {
			put(b, pn.end.X, pn.end.Y, pn.reach())
		}
	}
	for _, a := range all {
		if !a.leader {
			continue
		}
		// From the edge of the counters to the block's nearest point.
		to := pt{X: clamp(a.from.X, a.b.at.x0, a.b.at.x1), Y: clamp(a.from.Y, a.b.at.y0, a.b.at.y1)}
		d := to.Sub(a.from)
		if n := d.Length(); n > a.r+2 {
			p.stroke(polyline(a.from.Add(d.Mul((a.r+1)/n)), to), noteInk, 1)
		}
	}
	for _, a := range all {
		drawBlock(p, a.b)
		lay.add(Label, a.b.text(), a.b.at)
	}
}

// text is a block's words, a line a line.
func (b *block) text() string {
	var out []string
	for _, l := range b.lines {
		out = append(out, l.s)
	}
	return strings.Join(out, "\n")
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
