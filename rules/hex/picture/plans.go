package picture

import (
	"image/color"
	"math"

	"sortie/rules/hex"
)

// A plot being tried on the plotting board (hex.ScenePlan) is drawn over everything else on the map: a
// dashed line in the own side's colour through the centres of the hexes it would pass, a dot in each
// hex between its first and its last, and in its end hex a hollow arrow pointing along the facing it
// would end with (a hollow ring when that facing is not given), with its label beside it. A plot with
// errors is drawn as far as it reads, dotted instead of dashed, in the warning colour, and its label
// says it has errors, so it is told apart without its colour. The labels of the map are placed off the
// plots' lines and ends, and the plots are drawn after them, so nothing on the map hides a plot. A
// report's picture has no plots and is drawn as it always was.

// The plots' colours: a legal plot in the own side's colour, one with errors in the warning colour; each
// with a darker shade for its label. The palette is full, and a colour added to it would change the bytes
// of every report's picture, so the warning colour is the vermillion it holds already (the enemy's), told
// apart from an enemy by the dotted line, the hollow arrow and the words under the label.
var (
	planInk      = sides[hex.Own].main
	planLabelInk = sides[hex.Own].dark
	warnInk      = sides[hex.Enemy].main
	warnLabelInk = sides[hex.Enemy].dark
)

// The plots' dash patterns, in widths of the line (their ends are round, which adds a width to each
// dash): dashes for a legal plot, dots for one with errors.
var (
	planDashes = []float64{2.2, 2.4}
	warnDashes = []float64{0.2, 2}
)

// planErrorNote is the line under the label of a plot with errors.
const planErrorNote = "plot has errors"

// plan is a plot as placed on the map, in pixels.
type plan struct {
	label string
	legal bool
	line  []pt    // the dashed line, from its first hex to short of the end symbol; nil for a plot of one hex
	dots  []pt    // the centres of the hexes between the first and the last
	end   pt      // the centre of the end hex
	deg   float64 // the facing at the end, clockwise from north
	faced bool
	k     float64 // the end symbol's size
	w     float64 // the line's width
}

// reach is how far the end symbol reaches from the end hex's centre.
func (pl *plan) reach() float64 { return 0.75 * pl.k }

// box is the end symbol's box, as the layout records it and labels keep off it.
func (pl *plan) box() box {
	r := pl.reach()
	return box{pl.end.X - r, pl.end.Y - r, pl.end.X + r, pl.end.Y + r}
}

func (pl *plan) colours() (line, text color.RGBA) {
	if pl.legal {
		return planInk, planLabelInk
	}
	return warnInk, warnLabelInk
}

// placePlans lays out the scene's plots: each path from hex centre to hex centre, the hexes a unit
// stays in for several steps taken once. A plot with no hex is not drawn. The line leaves its first hex
// at the edge of the counters there, so it does not cross the unit it is for.
func placePlans(f *frame, s *hex.Scene, groups []*group) []*plan {
	if len(s.Plans) == 0 {
		return nil
	}
	reach := map[hex.Hex]float64{}
	for _, g := range groups {
		reach[g.h] = g.reach
	}
	w := clamp(0.1*f.side, 2.2, 3.4)
	k := 1.05 * f.unitRadius()
	var out []*plan
	for i := range s.Plans {
		sp := &s.Plans[i]
		hs := hex.AppendTrack(nil, sp.Path...)
		if len(hs) == 0 {
			continue
		}
		pts := make([]pt, len(hs))
		for j, h := range hs {
			x, y := f.centre(h)
			pts[j] = pt{X: x, Y: y}
		}
		pl := &plan{
			label: clean(sp.Label, 24), legal: sp.Legal, end: pts[len(pts)-1],
			deg: float64(sp.Facing.Degrees()), faced: sp.Faced, k: k, w: w,
		}
		if len(pts) > 2 {
			pl.dots = pts[1 : len(pts)-1]
		}
		if len(pts) > 1 {
			line := append([]pt(nil), pts...)
			// Leave the first hex at its counters' edge, and stop short of the end symbol.
			if d := line[1].Sub(line[0]); d.Length() > 0 {
				start := min(reach[hs[0]], 0.4*d.Length())
				line[0] = line[0].Add(d.Mul(start / d.Length()))
			}
			n := len(line)
			if d := line[n-1].Sub(line[n-2]); d.Length() > 0 {
				stop := min(pl.reach()+1, 0.45*d.Length())
				line[n-1] = line[n-1].Sub(d.Mul(stop / d.Length()))
			}
			pl.line = line
		}
		out = append(out, pl)
	}
	return out
}

// drawPlans draws the plots placed, in the scene's order, later ones on top.
func drawPlans(p *pen, plans []*plan) {
	for _, pl := range plans {
		c, _ := pl.colours()
		dashes := planDashes
		if !pl.legal {
			dashes = warnDashes
		}
		if pl.line != nil {
			p.strokeCap(polyline(pl.line...), c, pl.w, roundCap, dashes...)
		}
		if len(pl.dots) > 0 {
			dots := &path{}
			for _, q := range pl.dots {
				dots.addCircle(q.X, q.Y, 0.85*pl.w)
			}
			p.fill(dots, c)
		}
		drawPlanEnd(p, c, pl.end.X, pl.end.Y, pl.k, pl.deg, pl.faced, pl.w)
	}
}

// drawPlanEnd draws a plot's end symbol of size k centred on (x, y): a hollow arrow pointing deg
// clockwise from north, or a hollow ring when the facing is not known, outlined in c over a white halo so
// it shows on a counter of its own colour.
func drawPlanEnd(p *pen, c color.RGBA, x, y, k, deg float64, faced bool, w float64) {
	lw := clamp(0.75*w, 1.8, 2.6)
	var sym *path
	if faced {
		dx, dy := bearing(deg)
		tip := pt{X: x + dx*0.62*k, Y: y + dy*0.62*k}
		sym = polygon(shape(arrowShape, tip.X, tip.Y, k, deg)...)
	} else {
		sym = circle(x, y, 0.5*k)
	}
	p.strokeWith(sym, white, lw+2.4, buttCap, roundJoin)
	p.strokeWith(sym, c, lw, buttCap, roundJoin)
}

// planObstacles are what labels keep off: the plots' lines, as segments with the half width to keep
// clear of, and their end symbols' boxes.
func planObstacles(plans []*plan) (segs []segment, ends []box) {
	for _, pl := range plans {
		for i := 1; i < len(pl.line); i++ {
			segs = append(segs, segment{pl.line[i-1], pl.line[i], pl.w/2 + 1})
		}
		ends = append(ends, pl.box())
	}
	return segs, ends
}

// segment is a straight piece of a line of some half width.
type segment struct {
	a, b pt
	hw   float64
}

// hits reports whether the segment, with its width, crosses the box.
func (s segment) hits(b box) bool {
	b = box{b.x0 - s.hw, b.y0 - s.hw, b.x1 + s.hw, b.y1 + s.hw}
	// Liang–Barsky: clip the segment to the box.
	d := s.b.Sub(s.a)
	t0, t1 := 0.0, 1.0
	for _, c := range [4][2]float64{{-d.X, s.a.X - b.x0}, {d.X, b.x1 - s.a.X}, {-d.Y, s.a.Y - b.y0}, {d.Y, b.y1 - s.a.Y}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// planLabel is a plot's label block: its label in bold, and for a plot with errors a line saying so.
func planLabel(p *pen, pl *plan) *block {
	_, c := pl.colours()
	b := &block{}
	if pl.label != "" {
		b.add(p.text(pl.label, labelSize, true, c), labelLineH)
	}
	if !pl.legal {
		b.add(p.text(planErrorNote, noteSize, false, noteInk), noteLineH)
	}
	if len(b.lines) == 0 {
		return nil
	}
	b.w = math.Ceil(b.w + 2*labelPadX)
	b.h = math.Ceil(b.h + 2*labelPadY)
	return b
}
