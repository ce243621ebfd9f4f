package picture

import "math"

// The drawing's own geometry: points, and paths of straight segments in pixels (y grows downwards).
// Curves are kept as what they are (a circle stays a circle, so the SVG can say so) and flattened into
// segments fine enough for the PNG, a tenth of a pixel from the true curve at most.

// pt is a point in pixels.
type pt struct{ X, Y float64 }

func (a pt) Add(b pt) pt             { return pt{a.X + b.X, a.Y + b.Y} }
func (a pt) Sub(b pt) pt             { return pt{a.X - b.X, a.Y - b.Y} }
func (a pt) Mul(k float64) pt        { return pt{a.X * k, a.Y * k} }
func (a pt) Div(k float64) pt        { return pt{a.X / k, a.Y / k} }
func (a pt) Length() float64         { return math.Hypot(a.X, a.Y) }
func (a pt) eq(b pt) bool            { return a.X == b.X && a.Y == b.Y }
func (a pt) cross(b pt) float64      { return a.X*b.Y - a.Y*b.X }
func (a pt) dot(b pt) float64        { return a.X*b.X + a.Y*b.Y }
func (a pt) lerp(b pt, t float64) pt { return pt{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t} }

// subpath is one run of a path: its points, whether it closes, and, for a circle, its centre and radius
// (its points then are the circle flattened).
type subpath struct {
	pts    []pt
	closed bool
	circle *[3]float64
}

// path is a list of subpaths.
type path struct{ subs []subpath }

func (p *path) MoveTo(x, y float64) {
	p.subs = append(p.subs, subpath{pts: []pt{{x, y}}})
}

func (p *path) LineTo(x, y float64) {
	if len(p.subs) == 0 || p.subs[len(p.subs)-1].closed {
		p.MoveTo(x, y)
		return
	}
	s := &p.subs[len(p.subs)-1]
	s.pts = append(s.pts, pt{x, y})
}

// Close closes the current subpath.
func (p *path) Close() {
	if len(p.subs) > 0 {
		p.subs[len(p.subs)-1].closed = true
	}
}

// Empty reports whether the path draws nothing.
func (p *path) Empty() bool {
	for _, s := range p.subs {
		if len(s.pts) > 1 {
			return false
		}
	}
	return true
}

// Append returns p followed by the others' subpaths.
func (p *path) Append(others ...*path) *path {
	out := &path{subs: append([]subpath(nil), p.subs...)}
	for _, o := range others {
		out.subs = append(out.subs, o.subs...)
	}
	return out
}

// segments returns how many segments a curve of radius r needs to keep within a tenth of a pixel of it,
// for a whole turn.
func segments(r float64) int {
	const tol = 0.1
	if r <= tol {
		return 8
	}
	n := int(math.Ceil(math.Pi / math.Acos(1-tol/r)))
	return max(8, n+n%2)
}

// addCircle adds a circle of radius r around (x, y), clockwise on screen.
func (p *path) addCircle(x, y, r float64) {
	p.subs = append(p.subs, subpath{pts: disc(pt{x, y}, r), closed: true, circle: &[3]float64{x, y, r}})
}

// appendCircle appends the points of a circle of radius r around (x, y), clockwise on screen, to dst.
func appendCircle(dst []pt, x, y, r float64) []pt {
	n := segments(r)
	for k := range n {
		s, c := math.Sincos(2 * math.Pi * float64(k) / float64(n))
		dst = append(dst, pt{x + r*c, y + r*s})
	}
	return dst
}

// arcTo continues the current subpath along the ellipse of radii rx, ry centred on (cx, cy), from angle
// a0 to a1 (radians, clockwise on screen from east).
func (p *path) arcTo(cx, cy, rx, ry, a0, a1 float64) {
	n := max(2, int(math.Ceil(float64(segments(max(rx, ry)))*math.Abs(a1-a0)/(2*math.Pi))))
	for k := 1; k <= n; k++ {
		s, c := math.Sincos(a0 + (a1-a0)*float64(k)/float64(n))
		p.LineTo(cx+rx*c, cy+ry*s)
	}
}
