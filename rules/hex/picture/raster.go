package picture

import (
	"image"
	"image/color"
	imgdraw "image/draw"
	"math"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// The PNG rasterizes the pen's recording in order with golang.org/x/image/vector straight onto the
// picture's pixels on the palette, one byte a pixel: no RGBA image of the picture is ever made. Each set of
// shapes is rasterized on a rasterizer the size of its bounds (so a shape costs its own area, not the
// picture's), a band of rows at a time, and laid on the picture through its coverage: the colour's index
// where the coverage is full, where it is partial the nearest palette colour to the blend of the colour
// with the pixel's. Each glyph is laid the same way, from a mask made once a picture for each glyph, size
// and quarter pixel. The shapes of one operation live only while it is drawn.

// bandRows is how many rows of a set of shapes are rasterized at a time: the rasterizer keeps four bytes
// a pixel of its canvas, which a band keeps small however far the shapes reach.
const bandRows = 64

// rasterizer draws a pen's recording onto the picture.
type rasterizer struct {
	dst    *image.Paletted
	pal    *paletteData
	rows   int // how many rows are rasterized at a time: bandRows, or what a test tries
	z      vector.Rasterizer
	cover  image.Alpha // a shape's coverage, reused from shape to shape
	fonts  fontSet
	buf    sfnt.Buffer
	glyphs map[glyphKey]*glyphMask
	shapes [][]pt   // a stroke's shapes (outline), reused from stroke to stroke
	room   []pt     // their points
	bounds []bounds // the bounds of the shapes being filled
	picked []int    // the shapes being filled that reach the band being drawn, by index
	// turned and cut hold a shape being cut to a band's rows (fill).
	turned, cut []pt
}

// paletted draws the recording on a w×h picture on the palette, in the Painter's buffers: the picture is
// the Painter's until its next. Where nothing is drawn a pixel is black.
func (pt *Painter) paletted(p *pen, w, h int) *image.Paletted {
	pt.pix = grown(pt.pix, w*h)
	out := &image.Paletted{Pix: pt.pix, Stride: w, Rect: image.Rect(0, 0, w, h), Palette: palette()}
	r := newRasterizer(out, thePalette(), bandRows, p.fonts)
	r.cover.Pix = pt.cover
	r.draw(p.ops)
	pt.cover = r.cover.Pix[:0]
	return out
}

// newRasterizer returns a rasterizer drawing onto dst, whose colours are pal's, a band of rows rows at a
// time.
func newRasterizer(dst *image.Paletted, pal *paletteData, rows int, fonts fontSet) *rasterizer {
	return &rasterizer{dst: dst, pal: pal, rows: rows, fonts: fonts, glyphs: map[glyphKey]*glyphMask{}}
}

// draw paints the picture black, then draws ops on it in order.
func (r *rasterizer) draw(ops []op) {
	if pix := r.dst.Pix; len(pix) > 0 {
		pix[0] = r.pal.nearest(color.RGBA{A: 0xFF})
		for n := 1; n < len(pix); n *= 2 {
			copy(pix[n:], pix[:n])
		}
	}
	for i := range ops {
		r.op(&ops[i])
	}
}

// grown is b with length n, reallocated only when its capacity is short. What it held is left in it.
func grown(b []uint8, n int) []uint8 {
	if cap(b) < n {
		return make([]uint8, n)
	}
	return b[:n]
}

// bounds is a shape's extent in pixels, and whether its points are to be taken last to first for it to
// turn the way every shape is given to the rasterizer.
type bounds struct {
	x0, y0, x1, y1 float64
	reversed       bool
}

func (r *rasterizer) op(o *op) {
	switch o.kind {
	case opFill:
		if b, ok := pixelRect(o.p); ok {
			r.fillRect(b, o.fill)
			return
		}
		r.fill(polys(o.p), o.fill)
	case opStroke:
		r.fill(r.outline(o, o.dashes), o.line)
	case opFillStroke:
		r.fill(polys(o.p), o.fill)
		r.fill(r.outline(o, nil), o.line)
	case opText:
		r.text(o)
	}
}

// outline returns the shapes of o's stroke, dashed by dashes, in the rasterizer's buffers: they hold
// until the next stroke.
func (r *rasterizer) outline(o *op, dashes []float64) [][]pt {
	r.shapes, r.room = outline(r.shapes[:0], r.room[:0], o.p, o.width, o.cap, o.join, dashes)
	return r.shapes
}

// pixelRect reports whether p is one rectangle on whole pixels (the paper, the bars, a label's ground),
// which needs no rasterizer, and returns it.
func pixelRect(p *path) (image.Rectangle, bool) {
	if len(p.subs) != 1 || len(p.subs[0].pts) != 4 {
		return image.Rectangle{}, false
	}
	q := p.subs[0].pts
	for _, v := range q {
		if v.X != math.Trunc(v.X) || v.Y != math.Trunc(v.Y) || math.Abs(v.X) > 1e6 || math.Abs(v.Y) > 1e6 {
			return image.Rectangle{}, false
		}
	}
	if !(q[0].Y == q[1].Y && q[1].X == q[2].X && q[2].Y == q[3].Y && q[3].X == q[0].X) &&
		!(q[0].X == q[1].X && q[1].Y == q[2].Y && q[2].X == q[3].X && q[3].Y == q[0].Y) {
		return image.Rectangle{}, false
	}
	return image.Rect(int(q[0].X), int(q[0].Y), int(q[2].X), int(q[2].Y)).Canon(), true
}

// fillRect paints a rectangle on whole pixels in c.
func (r *rasterizer) fillRect(b image.Rectangle, c color.RGBA) {
	b = b.Intersect(r.dst.Rect)
	if b.Empty() {
		return
	}
	ci := r.pal.nearest(c)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := r.dst.Pix[r.dst.PixOffset(b.Min.X, y):][:b.Dx()]
		for x := range row {
			row[x] = ci
		}
	}
}

// polys is a path's subpaths as closed shapes to fill.
func polys(p *path) [][]pt {
	out := make([][]pt, 0, len(p.subs))
	for _, s := range p.subs {
		if len(s.pts) > 2 {
			out = append(out, s.pts)
		}
	}
	return out
}

// fill paints the union of shapes in c. Each shape is given to the rasterizer turning the same way, so
// where shapes overlap their coverage adds up, capped at full, instead of cancelling out: each pixel is
// painted once. The shapes are rasterized a band of rows at a time, the bands lying at whole multiples of
// r.rows; a shape that does not reach a band's rows adds nothing to them and is left out of it.
func (r *rasterizer) fill(shapes [][]pt, c color.RGBA) {
	r.bounds = r.bounds[:0]
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, s := range shapes {
		b := bounds{x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1)}
		area := 0.0
		for i, q := range s {
			n := s[(i+1)%len(s)]
			area += q.X*n.Y - n.X*q.Y
			b.x0, b.y0, b.x1, b.y1 = min(b.x0, q.X), min(b.y0, q.Y), max(b.x1, q.X), max(b.y1, q.Y)
		}
		b.reversed = area < 0
		r.bounds = append(r.bounds, b)
		y0, y1 = min(y0, b.y0), max(y1, b.y1)
	}
	pic := r.dst.Rect
	if y0 > y1 {
		return
	}
	top, bottom := max(int(math.Floor(y0))-1, pic.Min.Y), min(int(math.Ceil(y1))+2, pic.Max.Y)
	if top >= bottom {
		return
	}
	ci := r.pal.nearest(c)
	for at := top - top%r.rows; at < bottom; at += r.rows {
		r.fillBand(shapes, image.Rect(pic.Min.X, at, pic.Max.X, min(at+r.rows, pic.Max.Y)), c, ci)
	}
}

// fillBand paints the shapes' coverage within band.
func (r *rasterizer) fillBand(shapes [][]pt, band image.Rectangle, c color.RGBA, ci uint8) {
	top, bottom := float64(band.Min.Y), float64(band.Max.Y)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	r.picked = r.picked[:0]
	for i, b := range r.bounds {
		if b.y1 < top-1 || b.y0 > bottom+1 {
			continue
		}
		r.picked = append(r.picked, i)
		x0, y0, x1, y1 = min(x0, b.x0), min(y0, b.y0), max(x1, b.x1), max(y1, b.y1)
	}
	if x0 > x1 {
		return
	}
	// The shapes' bounds in whole pixels, inside the band; the rasterizer clips what lies beyond.
	b := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1).Intersect(band)
	if b.Empty() {
		return
	}
	r.z.Reset(b.Dx(), b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	for _, k := range r.picked {
		s := shapes[k]
		if bk := r.bounds[k]; bk.reversed || bk.y0 < top-1 || bk.y1 > bottom+1 {
			// A shape reaching beyond the band is cut to its rows and the one either side, which leaves
			// their coverage as it was: the rasterizer works in fixed point on a canvas as small as a band
			// and goes wrong on points far outside it.
			r.turned = r.turned[:0]
			for i := range s {
				if bk.reversed {
					r.turned = append(r.turned, s[len(s)-1-i])
				} else {
					r.turned = append(r.turned, s[i])
				}
			}
			r.cut = clipAt(r.cut[:0], r.turned, top-1, 1)
			r.turned = clipAt(r.turned[:0], r.cut, bottom+1, -1)
			s = r.turned
			if len(s) < 3 {
				continue
			}
		}
		for i, q := range s {
			x, y := float32(q.X-ox), float32(q.Y-oy)
			if i == 0 {
				r.z.MoveTo(x, y)
			} else {
				r.z.LineTo(x, y)
			}
		}
		r.z.ClosePath()
	}
	r.cover.Pix, r.cover.Stride, r.cover.Rect = grown(r.cover.Pix, b.Dx()*b.Dy()), b.Dx(), image.Rect(0, 0, b.Dx(), b.Dy())
	r.z.DrawOp = imgdraw.Src
	r.z.Draw(&r.cover, r.cover.Rect, image.Opaque, image.Point{})
	r.paint(b, &r.cover, image.Point{}, c, ci)
}

// clipAt keeps the part of the closed shape s on one side of the row y = at, the side below it (y at
// least at) when side is 1, above it when -1, and appends it to out, turning the same way.
func clipAt(out, s []pt, at, side float64) []pt {
	for i, b := range s {
		a := s[(i+len(s)-1)%len(s)]
		aIn, bIn := side*(a.Y-at) >= 0, side*(b.Y-at) >= 0
		if aIn != bIn {
			t := (at - a.Y) / (b.Y - a.Y)
			out = append(out, pt{a.X + t*(b.X-a.X), at})
		}
		if bIn {
			out = append(out, b)
		}
	}
	return out
}

// paint lays c (palette index ci) over the picture's rectangle to through the coverage mask from mp on:
// untouched where the mask is empty, ci where it is full, between them the palette colour nearest to the
// blend of c with the pixel's colour.
func (r *rasterizer) paint(to image.Rectangle, mask *image.Alpha, mp image.Point, c color.RGBA, ci uint8) {
	w := to.Dx()
	cr, cg, cb := uint32(c.R), uint32(c.G), uint32(c.B)
	for y := range to.Dy() {
		m := mask.Pix[mask.PixOffset(mp.X, mp.Y+y):][:w]
		row := r.dst.Pix[r.dst.PixOffset(to.Min.X, to.Min.Y+y):][:w]
		for x, a := range m {
			switch a {
			case 0:
				continue
			case 0xFF:
				row[x] = ci
			default:
				q := &r.pal.rgb[row[x]]
				k, l := uint32(a), 0xFF-uint32(a)
				red := (cr*k + uint32(q[0])*l + 127) / 255
				green := (cg*k + uint32(q[1])*l + 127) / 255
				blue := (cb*k + uint32(q[2])*l + 127) / 255
				row[x] = r.pal.blend(red, green, blue)
			}
		}
	}
}

// glyphKey names a glyph's mask: its font, size, glyph and the quarter pixel its origin falls on.
type glyphKey struct {
	bold    bool
	size    fixed.Int26_6
	id      sfnt.GlyphIndex
	quarter int
}

// glyphMask is a glyph's coverage and where its top left lies from the glyph's origin.
type glyphMask struct {
	mask   *image.Alpha
	dx, dy int
}

// text draws a line of text, each glyph at its place rounded to a quarter pixel, on its baseline.
func (r *rasterizer) text(o *op) {
	sp := &o.text
	ci := r.pal.nearest(sp.colour)
	em := ppem(sp.size)
	for _, g := range sp.glyphs {
		x := o.x + g.x
		whole := math.Floor(x)
		q := int(math.Round((x - whole) * 4))
		if q == 4 {
			whole, q = whole+1, 0
		}
		m := r.glyph(glyphKey{sp.bold, em, g.id, q})
		if m == nil {
			continue
		}
		at := image.Pt(int(whole)+m.dx, int(o.y)+m.dy)
		clip := m.mask.Rect.Add(at).Intersect(r.dst.Rect)
		if clip.Empty() {
			continue
		}
		r.paint(clip, m.mask, clip.Min.Sub(at), sp.colour, ci)
	}
}

// glyph returns a glyph's mask, made the first time it is asked for; nil for a glyph with no outline.
func (r *rasterizer) glyph(k glyphKey) *glyphMask {
	if m, ok := r.glyphs[k]; ok {
		return m
	}
	var m *glyphMask
	defer func() { r.glyphs[k] = m }()
	segs, err := r.fonts.face(k.bold).LoadGlyph(&r.buf, k.id, k.size, nil)
	if err != nil || len(segs) == 0 {
		return nil
	}
	// The outline's bounds, in pixels from the origin (y down), the origin at a quarter pixel.
	off := float32(k.quarter) / 4
	x0, y0, x1, y1 := float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))
	for _, s := range segs {
		for _, a := range s.Args[:segArgs(s.Op)] {
			x, y := float32(a.X)/64+off, float32(a.Y)/64
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
	}
	ix0, iy0 := int(math.Floor(float64(x0))), int(math.Floor(float64(y0)))
	ix1, iy1 := int(math.Ceil(float64(x1))), int(math.Ceil(float64(y1)))
	if ix1 <= ix0 || iy1 <= iy0 {
		return nil
	}
	z := &r.z // not in use: glyphs are made between fills
	z.Reset(ix1-ix0, iy1-iy0)
	fx, fy := off-float32(ix0), -float32(iy0)
	pt := func(a fixed.Point26_6) (float32, float32) { return float32(a.X)/64 + fx, float32(a.Y)/64 + fy }
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			z.ClosePath()
			z.MoveTo(pt(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			z.LineTo(pt(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			bx, by := pt(s.Args[0])
			cx, cy := pt(s.Args[1])
			z.QuadTo(bx, by, cx, cy)
		case sfnt.SegmentOpCubeTo:
			bx, by := pt(s.Args[0])
			cx, cy := pt(s.Args[1])
			dx, dy := pt(s.Args[2])
			z.CubeTo(bx, by, cx, cy, dx, dy)
		}
	}
	z.ClosePath()
	mask := image.NewAlpha(image.Rect(0, 0, ix1-ix0, iy1-iy0))
	z.Draw(mask, mask.Rect, image.Opaque, image.Point{})
	m = &glyphMask{mask: mask, dx: ix0, dy: iy0}
	return m
}

// segArgs is how many points a segment of an outline holds.
func segArgs(op sfnt.SegmentOp) int {
	switch op {
	case sfnt.SegmentOpQuadTo:
		return 2
	case sfnt.SegmentOpCubeTo:
		return 3
	}
	return 1
}
