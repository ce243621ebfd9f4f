package picture

import (
	"image/color"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// pen records the drawing as a list of operations in pixels, y growing downwards, the way the frame
// computes positions: PNG rasterizes the list and SVG writes it, so the two show one drawing. It keeps the
// runes each font drew so the SVG can embed just those glyphs.
type pen struct {
	fonts fontSet
	ops   []op
	used  [2]map[rune]bool // runes drawn in the regular [0] and bold [1] font
	buf   sfnt.Buffer
	adv   map[advKey]float64 // glyph advances in pixels, by font, glyph and size
}

type advKey struct {
	bold bool
	id   sfnt.GlyphIndex
	size fixed.Int26_6
}

// The kinds of operation.
type opKind uint8

const (
	opFill opKind = iota
	opStroke
	opFillStroke
	opText
)

// capStyle is how a stroked line ends; joinStyle how it turns a corner.
type (
	capStyle  uint8
	joinStyle uint8
)

const (
	buttCap capStyle = iota
	roundCap
)

const (
	roundJoin joinStyle = iota
	miterJoin
)

// op is one operation of the drawing: a path filled, stroked or both, or a line of text with its
// baseline starting at (x, y), whole pixels.
type op struct {
	kind       opKind
	p          *path
	fill, line color.RGBA
	width      float64
	cap        capStyle
	join       joinStyle
	dashes     []float64
	text       span
	x, y       float64
}

// newPen returns a pen that can shape, measure and record.
func newPen(fs fontSet) *pen {
	return &pen{fonts: fs, used: [2]map[rune]bool{{}, {}}, adv: map[advKey]float64{}}
}

// fill fills path with c.
func (p *pen) fill(path *path, c color.RGBA) {
	if path == nil || path.Empty() {
		return
	}
	p.ops = append(p.ops, op{kind: opFill, p: path, fill: c})
}

// stroke draws path's outline with width w, dashed when dashes are given (in widths of the line: a
// thicker line has longer dashes).
func (p *pen) stroke(path *path, c color.RGBA, w float64, dashes ...float64) {
	p.strokeCap(path, c, w, buttCap, dashes...)
}

func (p *pen) strokeCap(path *path, c color.RGBA, w float64, cap capStyle, dashes ...float64) {
	p.strokeWith(path, c, w, cap, roundJoin, dashes...)
}

// strokeJoin strokes with butt caps and the given joins: miter joins keep a hex's corners sharp.
func (p *pen) strokeJoin(path *path, c color.RGBA, w float64, join joinStyle) {
	p.strokeWith(path, c, w, buttCap, join)
}

func (p *pen) strokeWith(path *path, c color.RGBA, w float64, cap capStyle, join joinStyle, dashes ...float64) {
	if path.Empty() {
		return
	}
	var d []float64
	for _, v := range dashes {
		d = append(d, v*w)
	}
	p.ops = append(p.ops, op{kind: opStroke, p: path, line: c, width: w, cap: cap, join: join, dashes: d})
}

// fillStroke fills path and outlines it.
func (p *pen) fillStroke(path *path, fill, line color.RGBA, w float64) {
	if path.Empty() {
		return
	}
	p.ops = append(p.ops, op{kind: opFillStroke, p: path, fill: fill, line: line, width: w, cap: buttCap, join: roundJoin})
}

// span is one line of text ready to draw: its glyphs placed, measured, drawn later.
type span struct {
	s      string
	width  float64
	size   float64
	bold   bool
	colour color.RGBA
	glyphs []glyph
}

// glyph is a glyph of a span and how far from the span's start it is drawn, in pixels.
type glyph struct {
	id sfnt.GlyphIndex
	x  float64
}

// ppem is a type size in pixels as the font package takes it.
func ppem(size float64) fixed.Int26_6 { return fixed.Int26_6(math.Round(size * 64)) }

// layoutText places the glyphs of s at size, each after the advance of the one before (the Go fonts have
// no kerning).
func (p *pen) layoutText(s string, size float64, bold bool) ([]glyph, float64) {
	f := p.fonts.face(bold)
	em := ppem(size)
	gs := make([]glyph, 0, len(s))
	x := 0.0
	for _, r := range s {
		id, err := f.GlyphIndex(&p.buf, r)
		if err != nil {
			id = 0
		}
		gs = append(gs, glyph{id: id, x: x})
		k := advKey{bold, id, em}
		a, ok := p.adv[k]
		if !ok {
			adv, err := f.GlyphAdvance(&p.buf, id, em, font.HintingNone)
			if err == nil {
				a = float64(adv) / 64
			}
			p.adv[k] = a
		}
		x += a
	}
	return gs, x
}

// text lays out s in the given size (pixels) and weight.
func (p *pen) text(s string, size float64, bold bool, c color.RGBA) span {
	k := 0
	if bold {
		k = 1
	}
	for _, r := range s {
		p.used[k][r] = true
	}
	gs, w := p.layoutText(s, size, bold)
	return span{s: s, width: w, size: size, bold: bold, colour: c, glyphs: gs}
}

// measure is the width of s in the regular face at size, without marking its glyphs as used.
func (p *pen) measure(s string, size float64) float64 {
	_, w := p.layoutText(s, size, false)
	return w
}

// draw puts the span's baseline start at (x, y), rounded to whole pixels: text drawn at the same
// fraction of a pixel looks the same everywhere, sharper, and compresses better.
func (p *pen) draw(sp span, x, y float64) {
	p.ops = append(p.ops, op{kind: opText, text: sp, x: math.Round(x), y: math.Round(y)})
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
func polygon(pts ...pt) *path {
	p := polyline(pts...)
	p.Close()
	return p
}

// polyline returns the open line through pts.
func polyline(pts ...pt) *path {
	p := &path{}
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
func hexagon(path *path, x, y, s, h float64) {
	path.MoveTo(x+s, y)
	path.LineTo(x+s/2, y+h)
	path.LineTo(x-s/2, y+h)
	path.LineTo(x-s, y)
	path.LineTo(x-s/2, y-h)
	path.LineTo(x+s/2, y-h)
	path.Close()
}

// circle returns a circle of radius r around (x, y).
func circle(x, y, r float64) *path {
	p := &path{}
	p.addCircle(x, y, r)
	return p
}

// rect returns the rectangle with top-left corner (x, y).
func rect(x, y, w, h float64) *path {
	return polygon(pt{x, y}, pt{x + w, y}, pt{x + w, y + h}, pt{x, y + h})
}

// roundRect returns a rectangle with rounded corners.
func roundRect(x, y, w, h, r float64) *path {
	p := &path{}
	p.MoveTo(x+r, y)
	p.LineTo(x+w-r, y)
	p.arcTo(x+w-r, y+r, r, r, -math.Pi/2, 0)
	p.LineTo(x+w, y+h-r)
	p.arcTo(x+w-r, y+h-r, r, r, 0, math.Pi/2)
	p.LineTo(x+r, y+h)
	p.arcTo(x+r, y+h-r, r, r, math.Pi/2, math.Pi)
	p.LineTo(x, y+r)
	p.arcTo(x+r, y+r, r, r, math.Pi, 3*math.Pi/2)
	p.Close()
	return p
}

// shape places a shape drawn around the origin with its nose up (-y): scaled by k, turned by deg
// clockwise, moved to (x, y).
func shape(pts []pt, x, y, k, deg float64) []pt {
	sin, cos := math.Sincos(deg * math.Pi / 180)
	out := make([]pt, len(pts))
	for i, q := range pts {
		out[i] = pt{X: x + k*(q.X*cos-q.Y*sin), Y: y + k*(q.X*sin+q.Y*cos)}
	}
	return out
}

// mirrored completes a shape given as its right half from nose to tail, adding the left half back.
func mirrored(right ...pt) []pt {
	out := append([]pt(nil), right...)
	for i := len(right) - 1; i >= 0; i-- {
		if right[i].X != 0 {
			out = append(out, pt{X: -right[i].X, Y: right[i].Y})
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
