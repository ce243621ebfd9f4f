package picture

import (
	"image/color"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tdewolff/canvas"
)

// pen draws on a canvas in pixels with y growing downwards, the way the frame computes positions, and
// keeps the runes each font drew so the SVG can embed just those glyphs.
type pen struct {
	ctx   *canvas.Context
	fonts fontSet
	used  [2]map[rune]bool // runes drawn in the regular [0] and bold [1] font
}

// newPen returns a pen that can shape and measure text; attach gives it a canvas to draw on.
func newPen(fs fontSet) *pen {
	return &pen{fonts: fs, used: [2]map[rune]bool{{}, {}}}
}

func (p *pen) attach(c *canvas.Canvas) {
	p.ctx = canvas.NewContext(c)
	p.ctx.SetCoordSystem(canvas.CartesianIV)
}

// fill fills path with c.
func (p *pen) fill(path *canvas.Path, c color.RGBA) {
	if path == nil || path.Empty() {
		return
	}
	p.ctx.SetFillColor(c)
	p.ctx.SetStrokeColor(canvas.Transparent)
	p.ctx.DrawPath(0, 0, path)
}

// stroke draws path's outline with width w, dashed when dashes are given.
func (p *pen) stroke(path *canvas.Path, c color.RGBA, w float64, dashes ...float64) {
	p.strokeCap(path, c, w, canvas.ButtCap, dashes...)
}

func (p *pen) strokeCap(path *canvas.Path, c color.RGBA, w float64, cap canvas.Capper, dashes ...float64) {
	p.strokeWith(path, c, w, cap, canvas.RoundJoin, dashes...)
}

// strokeJoin strokes with butt caps and the given joins: miter joins for lines that turn by whole
// hexsides cost less than round ones.
func (p *pen) strokeJoin(path *canvas.Path, c color.RGBA, w float64, join canvas.Joiner) {
	p.strokeWith(path, c, w, canvas.ButtCap, join)
}

func (p *pen) strokeWith(path *canvas.Path, c color.RGBA, w float64, cap canvas.Capper, join canvas.Joiner, dashes ...float64) {
	if path.Empty() {
		return
	}
	p.ctx.SetFillColor(canvas.Transparent)
	p.ctx.SetStrokeColor(c)
	p.ctx.SetStrokeWidth(w)
	p.ctx.SetStrokeCapper(cap)
	p.ctx.SetStrokeJoiner(join)
	p.ctx.SetDashes(0, dashes...)
	p.ctx.DrawPath(0, 0, path)
	p.ctx.SetDashes(0)
}

// fillStroke fills path and outlines it.
func (p *pen) fillStroke(path *canvas.Path, fill, line color.RGBA, w float64) {
	if path.Empty() {
		return
	}
	p.ctx.SetFillColor(fill)
	p.ctx.SetStrokeColor(line)
	p.ctx.SetStrokeWidth(w)
	p.ctx.SetStrokeCapper(canvas.ButtCap)
	p.ctx.SetStrokeJoiner(canvas.RoundJoin)
	p.ctx.DrawPath(0, 0, path)
}

// span is one line of text ready to draw: shaped once, measured, drawn later.
type span struct {
	s     string
	t     *canvas.Text
	width float64
	size  float64
}

// text shapes s in the given size (pixels) and weight.
func (p *pen) text(s string, size float64, bold bool, c color.RGBA) span {
	f, k := p.fonts.regular, 0
	if bold {
		f, k = p.fonts.bold, 1
	}
	for _, r := range s {
		p.used[k][r] = true
	}
	t := canvas.NewTextLine(f.Face(size*ptPerPx, c), s, canvas.Left)
	return span{s: s, t: t, width: t.Width, size: size}
}

// measure is the width of s in the regular face at size, without marking its glyphs as used.
func (p *pen) measure(s string, size float64) float64 {
	return canvas.NewTextLine(p.fonts.regular.Face(size*ptPerPx, ink), s, canvas.Left).Width
}

// draw puts the span's baseline start at (x, y), rounded to whole pixels: text drawn at the same
// fraction of a pixel looks the same everywhere, sharper, and compresses better.
func (p *pen) draw(sp span, x, y float64) {
	p.ctx.DrawText(math.Round(x), math.Round(y), sp.t)
}

// clean makes a label safe to draw on one line: valid UTF-8, no control characters, at most max runes
// (cut with an ellipsis).
func clean(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > max {
		rs := []rune(s)
		s = strings.TrimSpace(string(rs[:max-1])) + "…"
	}
	return s
}

// Shapes, in pixels.

// polygon returns the closed polygon through pts.
func polygon(pts ...canvas.Point) *canvas.Path {
	p := &canvas.Path{}
	for i, q := range pts {
		if i == 0 {
			p.MoveTo(q.X, q.Y)
		} else {
			p.LineTo(q.X, q.Y)
		}
	}
	p.Close()
	return p
}

// polyline returns the open line through pts.
func polyline(pts ...canvas.Point) *canvas.Path {
	p := &canvas.Path{}
	for i, q := range pts {
		if i == 0 {
			p.MoveTo(q.X, q.Y)
		} else {
			p.LineTo(q.X, q.Y)
		}
	}
	return p
}

// hexagon adds a flat-topped hexagon of side s and half-height h centred on (x, y) to path.
func hexagon(path *canvas.Path, x, y, s, h float64) {
	path.MoveTo(x+s, y)
	path.LineTo(x+s/2, y+h)
	path.LineTo(x-s/2, y+h)
	path.LineTo(x-s, y)
	path.LineTo(x-s/2, y-h)
	path.LineTo(x+s/2, y-h)
	path.Close()
}

// circle returns a circle of radius r around (x, y).
func circle(x, y, r float64) *canvas.Path {
	return canvas.Circle(r).Translate(x, y)
}

// rect returns the rectangle with top-left corner (x, y).
func rect(x, y, w, h float64) *canvas.Path {
	return canvas.Rectangle(w, h).Translate(x, y)
}

// roundRect returns a rectangle with rounded corners.
func roundRect(x, y, w, h, r float64) *canvas.Path {
	return canvas.RoundedRectangle(w, h, r).Translate(x, y)
}

// shape places a shape drawn around the origin with its nose up (-y): scaled by k, turned by deg
// clockwise, moved to (x, y).
func shape(pts []canvas.Point, x, y, k, deg float64) []canvas.Point {
	sin, cos := math.Sincos(deg * math.Pi / 180)
	out := make([]canvas.Point, len(pts))
	for i, q := range pts {
		out[i] = canvas.Point{X: x + k*(q.X*cos-q.Y*sin), Y: y + k*(q.X*sin+q.Y*cos)}
	}
	return out
}

// mirrored completes a shape given as its right half from nose to tail, adding the left half back.
func mirrored(right ...canvas.Point) []canvas.Point {
	out := append([]canvas.Point(nil), right...)
	for i := len(right) - 1; i >= 0; i-- {
		if right[i].X != 0 {
			out = append(out, canvas.Point{X: -right[i].X, Y: right[i].Y})
		}
	}
	return out
}

// bearing returns the unit vector of a bearing in degrees clockwise from north, in screen coordinates.
func bearing(deg float64) (dx, dy float64) {
	s, c := math.Sincos(deg * math.Pi / 180)
	return s, -c
}

// box is a rectangle in pixels.
type box struct{ x0, y0, x1, y1 float64 }

func (b box) overlap(o box) float64 {
	w := min(b.x1, o.x1) - max(b.x0, o.x0)
	h := min(b.y1, o.y1) - max(b.y0, o.y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

func (b box) area() float64 { return (b.x1 - b.x0) * (b.y1 - b.y0) }
