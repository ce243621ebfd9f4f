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

// The PNG rasterizes the pen's recording in order with golang.org/x/image/vector, a band of rows at a
// time: each band is drawn onto one small RGBA image, reused from band to band, and mapped onto the
// palette before the next is drawn. A picture of a hundred units is over a million pixels; drawn whole,
// its RGBA image (4.5 MB) was allocated, zeroed and faulted in afresh for every picture, which cost more
// than the palette mapping. Each shape is rasterized on a rasterizer the size of its bounds within the
// band (so a shape costs its own area, not the picture's), each glyph from a mask made once a picture
// for each glyph, size and quarter pixel.

// bandRows is how many rows of the picture are drawn at a time: a 1,200-pixel-wide band of 64 rows is
// 300 KB.
const bandRows = 64

// rasterizer draws a pen's recording onto the band being drawn.
type rasterizer struct {
	img    *image.RGBA // the band: its Rect is where it lies in the picture
	z      vector.Rasterizer
	cover  image.Alpha // a shape's coverage, reused from shape to shape
	fonts  fontSet
	buf    sfnt.Buffer
	glyphs map[glyphKey]*glyphMask
	picked []int // the shapes of an operation that reach the band being drawn, by index
	// turned and cut hold a shape being cut to the band's rows (fill).
	turned, cut []pt
}

// paletted draws the recording on a w×h picture on the palette, in the Painter's buffers: the picture is
// the Painter's until its next.
func (pt *Painter) paletted(p *pen, w, h int) *image.Paletted {
	pt.pix = grown(pt.pix, w*h)
	out := &image.Paletted{Pix: pt.pix, Stride: w, Rect: image.Rect(0, 0, w, h), Palette: palette()}
	if pt.colours == nil {
		pt.colours = new(colourMap)
	}
	pt.drawBands(p, w, h, bandRows, func(band *image.RGBA) {
		for y := band.Rect.Min.Y; y < band.Rect.Max.Y; y++ {
			pt.colours.mapRow(band, y, out.Pix[y*out.Stride:y*out.Stride+w])
		}
	})
	return out
}

// grown is b with length n, reallocated only when its capacity is short. What it held is left in it.
func grown(b []uint8, n int) []uint8 {
	if cap(b) < n {
		return make([]uint8, n)
	}
	return b[:n]
}

// drawBands draws the recording on a w×h picture rows rows at a time, handing each band to done once it
// is drawn; the band's pixels are reused for the next. Where nothing is drawn a pixel is black.
func (pt *Painter) drawBands(p *pen, w, h, rows int, done func(band *image.RGBA)) {
	ops := shapesOf(p)
	r := &rasterizer{fonts: p.fonts, glyphs: map[glyphKey]*glyphMask{}}
	r.cover.Pix = pt.cover
	pt.band = grown(pt.band, 4*w*min(rows, h))
	for y0 := 0; y0 < h; y0 += rows {
		y1 := min(y0+rows, h)
		band := pt.band[:4*w*(y1-y0)]
		clear(band)
		r.img = &image.RGBA{Pix: band, Stride: 4 * w, Rect: image.Rect(0, y0, w, y1)}
		for i := range ops {
			r.op(&ops[i])
		}
		done(r.img)
	}
	pt.cover = r.cover.Pix[:0]
}

// shaped is an operation of the recording made ready to draw in bands: the shapes it fills (and those
// of its outline), with their bounds and which way each turns.
type shaped struct {
	o          *op
	fill, line shapeSet
	rect       image.Rectangle // a fill on whole pixels (pixelRect), drawn without a rasterizer
	isRect     bool
}

// shapeSet is shapes to fill with one colour, with the bounds of each and which way it turns.
type shapeSet struct {
	shapes [][]pt
	bounds []bounds
}

// bounds is a shape's extent in pixels, and whether its points are to be taken last to first for it to
// turn the way every shape is given to the rasterizer.
type bounds struct {
	x0, y0, x1, y1 float64
	reversed       bool
}

// shapesOf works out, once a picture, the shapes every operation of the recording fills.
func shapesOf(p *pen) []shaped {
	out := make([]shaped, len(p.ops))
	for i := range p.ops {
		o := &p.ops[i]
		s := &out[i]
		s.o = o
		switch o.kind {
		case opFill:
			if b, ok := pixelRect(o.p); ok {
				s.rect, s.isRect = b, true
				break
			}
			s.fill = newShapeSet(polys(o.p))
		case opStroke:
			s.line = newShapeSet(outline(o.p, o.width, o.cap, o.join, o.dashes))
		case opFillStroke:
			s.fill = newShapeSet(polys(o.p))
			s.line = newShapeSet(outline(o.p, o.width, o.cap, o.join, nil))
		}
	}
	return out
}

// newShapeSet measures shapes and notes which turn the other way, so that fill can give every shape to
// the rasterizer turning the same way: where shapes of one set overlap, their coverage then adds up
// instead of cancelling out.
func newShapeSet(shapes [][]pt) shapeSet {
	set := shapeSet{shapes: shapes, bounds: make([]bounds, len(shapes))}
	for k, s := range shapes {
		b := bounds{x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1)}
		area := 0.0
		for i, q := range s {
			n := s[(i+1)%len(s)]
			area += q.X*n.Y - n.X*q.Y
			b.x0, b.y0, b.x1, b.y1 = min(b.x0, q.X), min(b.y0, q.Y), max(b.x1, q.X), max(b.y1, q.Y)
		}
		b.reversed = area < 0
		set.bounds[k] = b
	}
	return set
}

func (r *rasterizer) op(s *shaped) {
	o := s.o
	switch o.kind {
	case opFill:
		if s.isRect {
			r.fillRect(s.rect, o.fill)
			return
		}
		r.fill(&s.fill, o.fill)
	case opStroke:
		r.fill(&s.line, o.line)
	case opFillStroke:
		r.fill(&s.fill, o.fill)
		r.fill(&s.line, o.line)
	case opText:
		r.text(o)
	}
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
	b = b.Intersect(r.img.Rect)
	if b.Empty() {
		return
	}
	row := r.img.Pix[r.img.PixOffset(b.Min.X, b.Min.Y):][:4*b.Dx()]
	for x := range b.Dx() {
		row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, 0xFF
	}
	for y := b.Min.Y + 1; y < b.Max.Y; y++ {
		copy(r.img.Pix[r.img.PixOffset(b.Min.X, y):], row)
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

// fill paints the union of the set's shapes in c, as far as they reach the band. The shapes all turn the
// same way (newShapeSet), so where they overlap the coverage adds up and is capped at full: each pixel
// is painted once. A shape that does not reach the band's rows adds nothing to them and is left out.
func (r *rasterizer) fill(set *shapeSet, c color.RGBA) {
	band := r.img.Rect
	top, bottom := float64(band.Min.Y), float64(band.Max.Y)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	r.picked = r.picked[:0]
	for i, b := range set.bounds {
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
		s := set.shapes[k]
		if bk := set.bounds[k]; bk.reversed || bk.y0 < top-1 || bk.y1 > bottom+1 {
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
	paint(r.img, b.Min, &r.cover, c)
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

// paint lays c over img through the coverage mask placed at at: untouched where the mask is empty,
// c where it is full, a blend between.
func paint(img *image.RGBA, at image.Point, mask *image.Alpha, c color.RGBA) {
	w, h := mask.Rect.Dx(), mask.Rect.Dy()
	cr, cg, cb := uint32(c.R), uint32(c.G), uint32(c.B)
	for y := range h {
		m := mask.Pix[y*mask.Stride : y*mask.Stride+w]
		row := img.Pix[img.PixOffset(at.X, at.Y+y):]
		for x, a := range m {
			switch a {
			case 0:
				continue
			case 0xFF:
				p := row[4*x : 4*x+4 : 4*x+4]
				p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 0xFF
			default:
				p := row[4*x : 4*x+4 : 4*x+4]
				k, l := uint32(a), 0xFF-uint32(a)
				p[0] = uint8((cr*k + uint32(p[0])*l + 127) / 255)
				p[1] = uint8((cg*k + uint32(p[1])*l + 127) / 255)
				p[2] = uint8((cb*k + uint32(p[2])*l + 127) / 255)
				p[3] = 0xFF
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
	// A glyph reaches at most two sizes above its baseline and one below: a line further from the band
	// draws nothing in it.
	if o.y+sp.size < float64(r.img.Rect.Min.Y) || o.y-2*sp.size > float64(r.img.Rect.Max.Y) {
		return
	}
	c := image.NewUniform(sp.colour)
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
		dst := m.mask.Rect.Add(at)
		clip := dst.Intersect(r.img.Rect)
		if clip.Empty() {
			continue
		}
		imgdraw.DrawMask(r.img, clip, c, image.Point{}, m.mask, clip.Min.Sub(at), imgdraw.Over)
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
	z := vector.NewRasterizer(ix1-ix0, iy1-iy0)
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

// colourMap maps a pixel's colour to its palette index, remembering the anti-aliased blends it has met:
// the same few recur all over a picture. It is direct-mapped; an entry holds the colour's 24 bits, its
// index and a bit saying it is set. A Painter keeps one from picture to picture: what it holds does not
// change a picture, since nearest is a function of the colour.
type colourMap [1 << 14]uint64

func (m *colourMap) index(rgb uint32) uint8 {
	e := &m[(rgb*2654435761)>>18]
	if v := *e; v>>32 == uint64(rgb)|1<<24 {
		return uint8(v)
	}
	i := nearest(color.RGBA{uint8(rgb), uint8(rgb >> 8), uint8(rgb >> 16), 0xFF})
	*e = (uint64(rgb)|1<<24)<<32 | uint64(i)
	return i
}

// mapRow maps row y of the opaque img (in the picture's rows: a band's Rect says where it lies) onto
// the palette into dst. Runs of one colour cost a comparison.
func (m *colourMap) mapRow(img *image.RGBA, y int, dst []uint8) {
	last := uint32(1 << 31) // no colour has that bit
	var lastIdx uint8
	at := img.PixOffset(img.Rect.Min.X, y)
	src := img.Pix[at : at+4*len(dst)]
	for x := range dst {
		p := src[4*x : 4*x+3 : 4*x+3]
		rgb := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16
		if rgb != last {
			last, lastIdx = rgb, m.index(rgb)
		}
		dst[x] = lastIdx
	}
}
