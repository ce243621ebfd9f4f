package picture

import (
	"math"
	"slices"
)

// A stroke is drawn as the union of simple shapes, all turning the same way: a rectangle along each
// segment, a disc or a miter wedge at each corner, a disc at each round end. The rasterizer adds up
// coverage and caps it at full, so where the shapes overlap the stroke is painted once. That is all a
// picture of hexes, tracks and fire lines needs, and it costs a few shapes a segment.

// miterLimit is the longest miter, in half widths, before a corner is bevelled (as SVG's default).
const miterLimit = 4.0

// outline appends to out the shapes that make up the stroke of p, their points appended to room, and
// returns both: a caller that is done with the shapes can hand both back, emptied, for the next stroke.
func outline(out [][]pt, room []pt, p *path, w float64, cap capStyle, join joinStyle, dashes []float64) ([][]pt, []pt) {
	hw := w / 2
	for _, s := range p.subs {
		pts := dedupe(s.pts)
		closed := s.closed && len(pts) > 2
		if closed && pts[0].eq(pts[len(pts)-1]) {
			pts = pts[:len(pts)-1]
		}
		if len(dashes) > 0 {
			if closed {
				pts = append(pts, pts[0])
			}
			for _, d := range dash(pts, dashes) {
				out, room = strokeRun(out, room, d, false, hw, cap, join)
			}
			continue
		}
		out, room = strokeRun(out, room, pts, closed, hw, cap, join)
	}
	return out, room
}

// dedupe drops points that repeat the one before. Without any, it returns pts itself, clipped, so that
// appending to what it returns never writes into the path.
func dedupe(pts []pt) []pt {
	i := 1
	for i < len(pts) && !pts[i].eq(pts[i-1]) {
		i++
	}
	if i >= len(pts) {
		return slices.Clip(pts)
	}
	out := append(make([]pt, 0, len(pts)-1), pts[:i]...)
	for _, q := range pts[i:] {
		if !out[len(out)-1].eq(q) {
			out = append(out, q)
		}
	}
	return out
}

// strokeRun adds the shapes of one run of points, their points appended to room. A shape is a slice of
// room, clipped: should room grow later, the shapes taken before keep their points where they were.
func strokeRun(out [][]pt, room []pt, pts []pt, closed bool, hw float64, cap capStyle, join joinStyle) ([][]pt, []pt) {
	take := func(q ...pt) []pt {
		at := len(room)
		room = append(room, q...)
		return room[at:len(room):len(room)]
	}
	takeDisc := func(c pt) []pt {
		at := len(room)
		room = appendCircle(room, c.X, c.Y, hw)
		return room[at:len(room):len(room)]
	}
	if len(pts) == 1 {
		if cap == roundCap {
			out = append(out, takeDisc(pts[0]))
		}
		return out, room
	}
	n := len(pts) - 1
	if closed {
		n = len(pts)
	}
	// The rectangles, the corners' wedges or discs and the ends' discs take their points from one array:
	// four a segment, and four or a disc's points a corner and an end.
	perCorner, perEnd := 4, 0
	if join == roundJoin {
		perCorner = segments(hw)
	}
	if cap == roundCap && !closed {
		perEnd = segments(hw)
	}
	room = slices.Grow(room, (4+perCorner)*n+2*perEnd)
	out = slices.Grow(out, 2*n+2)
	dir := func(i int) pt { // the direction of segment i
		a, b := pts[i], pts[(i+1)%len(pts)]
		d := b.Sub(a)
		return d.Div(d.Length())
	}
	for i := range n {
		a, b := pts[i], pts[(i+1)%len(pts)]
		d := dir(i)
		nv := pt{-d.Y, d.X}.Mul(hw)
		out = append(out, take(a.Add(nv), b.Add(nv), b.Sub(nv), a.Sub(nv)))
	}
	// The corners: between segments i-1 and i, at point i.
	first, last := 1, n-1
	if closed {
		first, last = 0, n-1
	}
	for i := first; i <= last; i++ {
		v := pts[i]
		d1, d2 := dir((i-1+n)%n), dir(i)
		if !closed {
			d1 = dir(i - 1)
		}
		if join == roundJoin {
			out = append(out, takeDisc(v))
			continue
		}
		cr := d1.cross(d2)
		if math.Abs(cr) < 1e-9 && d1.dot(d2) > 0 {
			continue
		}
		s := 1.0
		if cr > 0 {
			s = -1
		}
		n1, n2 := pt{-d1.Y, d1.X}.Mul(s*hw), pt{-d2.Y, d2.X}.Mul(s*hw)
		if c := 1 + d1.dot(d2); c > 1e-9 {
			m := n1.Add(n2).Div(c)
			if m.Length() <= miterLimit*hw {
				out = append(out, take(v, v.Add(n1), v.Add(m), v.Add(n2)))
				continue
			}
		}
		out = append(out, take(v, v.Add(n1), v.Add(n2)))
	}
	if cap == roundCap && !closed {
		out = append(out, takeDisc(pts[0]), takeDisc(pts[len(pts)-1]))
	}
	return out, room
}

// disc is a circle of radius r around c, as points.
func disc(c pt, r float64) []pt {
	return appendCircle(make([]pt, 0, segments(r)), c.X, c.Y, r)
}

// dash cuts a run of points into the dashes of the pattern (on, off, on, …), from its start.
func dash(pts []pt, pattern []float64) [][]pt {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if total <= 0 {
		return [][]pt{pts}
	}
	var out [][]pt
	var cur []pt
	k, left, on := 0, pattern[0], true
	if on {
		cur = []pt{pts[0]}
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		seg := b.Sub(a).Length()
		pos := 0.0
		for seg-pos > left {
			pos += left
			q := a.lerp(b, pos/seg)
			if on {
				out = append(out, append(cur, q))
				cur = nil
			} else {
				cur = []pt{q}
			}
			on = !on
			k = (k + 1) % len(pattern)
			left = pattern[k]
		}
		left -= seg - pos
		if on {
			cur = append(cur, b)
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}
