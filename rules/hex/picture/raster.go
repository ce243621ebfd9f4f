package picture

import (
	"image"
	"image/color"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tdewolff/canvas"
	"github.com/tdewolff/canvas/renderers/rasterizer"
	"github.com/tdewolff/canvas/text"
	"github.com/tdewolff/font"
)

// The PNG is rasterized in horizontal bands, one for each processor, each band by the library's own
// rasterizer on an image of its own, and mapped onto the palette as soon as it is drawn. Every band is
// given the whole drawing in the picture's own coordinates, moved up by a whole number of pixels, so an
// edge's coverage in a band is the coverage the whole image would give it; what lies wholly outside a band
// is passed over before it is stroked or its glyphs are looked up. More bands than processors cost more
// than they save: a band's image runs from the picture's top, and the paths across its top are drawn
// there too.

// bandRows is the least height of a band: below it, walking the drawing once a band costs more than the
// rows save.
const bandRows = 48

// rasterize draws c at one pixel a unit and maps it onto the palette.
func rasterize(c *canvas.Canvas) *image.Paletted {
	procs := runtime.GOMAXPROCS(0)
	return rasterizeBands(c, procs, procs)
}

// rasterizeBands draws c in at most bands bands on workers goroutines; the pixels do not depend on either.
func rasterizeBands(c *canvas.Canvas, bands, workers int) *image.Paletted {
	w, h := int(c.W+0.5), int(c.H+0.5)
	out := image.NewPaletted(image.Rect(0, 0, w, h), palette())
	n := min(bands, h/bandRows)
	if n <= 1 {
		img := image.NewRGBA(out.Rect)
		r := &bandRenderer{
			ras:   rasterizer.FromImage(img, canvas.DPMM(1), canvas.DefaultColorSpace),
			shift: canvas.Identity,
			lo:    0,
			hi:    float64(h),
		}
		c.RenderTo(r)
		r.ras.Close()
		mapRows(img, out, 0, h)
		return out
	}
	var next atomic.Int32
	shared := &strokes{m: map[strokeKey]*strokeEntry{}}
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				y0, y1 := k*h/n, (k+1)*h/n
				// The library's scanner takes a row above the image's top for its top row, so a band is drawn
				// on an image of its own from the picture's top down to the band's foot, with only what
				// reaches the band's rows.
				scratch := image.NewRGBA(image.Rect(0, 0, w, y1))
				r := &bandRenderer{
					ras: rasterizer.FromImage(scratch, canvas.DPMM(1), canvas.DefaultColorSpace),
					// Canvas y grows upwards: row y of the image is at height h-y, and the rasterizer
					// counts heights from the foot of its image.
					shift:   canvas.Identity.Translate(0, float64(y1-h)),
					lo:      float64(h - y1),
					hi:      float64(h - y0),
					strokes: shared,
				}
				c.RenderTo(r)
				r.ras.Close()
				mapRows(scratch, out, y0, y1)
			}
		}()
	}
	wg.Wait()
	return out
}

// bandRenderer passes to a band's rasterizer what may show in its rows [lo, hi) of canvas height.
type bandRenderer struct {
	ras    *rasterizer.Rasterizer
	shift  canvas.Matrix
	lo, hi float64

	outlines map[glyphKey]*canvas.Path // glyph outlines at the origin
	strokes  *strokes                  // outlines of stroked paths, shared with the other bands
}

func (r *bandRenderer) Size() (float64, float64) { return r.ras.Size() }

// misses reports whether b, widened by margin, lies wholly above or below the band. Anti-aliasing reaches
// a pixel beyond an edge; the margins are generous.
func (r *bandRenderer) misses(b canvas.Rect, margin float64) bool {
	return b.Y1+margin+2 < r.lo || b.Y0-margin-2 > r.hi
}

func (r *bandRenderer) RenderPath(path *canvas.Path, style canvas.Style, m canvas.Matrix) {
	margin := 0.0
	if style.HasStroke() {
		// A stroke reaches half its width beyond the path, a miter join a few widths at most.
		scale := math.Abs(m[0][0]) + math.Abs(m[0][1]) + math.Abs(m[1][0]) + math.Abs(m[1][1])
		margin = 4 * style.StrokeWidth * scale
	}
	if r.misses(path.FastBounds().Transform(m), margin) {
		return
	}
	if r.strokes == nil || !style.HasStroke() || len(style.Dashes) > 0 {
		r.ras.RenderPath(path, style, r.shift.Mul(m))
		return
	}
	// The rasterizer strokes a path, then fills the outline: the outline is worked out once for all the
	// bands a path crosses, and filled in each.
	if style.HasFill() {
		fill := style
		fill.StrokeWidth = 0
		r.ras.RenderPath(path, fill, r.shift.Mul(m))
	}
	outline := r.strokes.outline(path, style)
	style.Fill, style.StrokeWidth = style.Stroke, 0
	r.ras.RenderPath(outline, style, r.shift.Mul(m))
}

// strokes keeps the outlines of the stroked paths of one picture, shared by its bands.
type strokes struct {
	mu sync.Mutex
	m  map[strokeKey]*strokeEntry
}

type strokeKey struct {
	path  *canvas.Path
	width float64
	cap   canvas.Capper
	join  canvas.Joiner
}

type strokeEntry struct {
	once sync.Once
	p    *canvas.Path
}

// outline is the outline the rasterizer strokes path into at one pixel a unit.
func (s *strokes) outline(path *canvas.Path, style canvas.Style) *canvas.Path {
	k := strokeKey{path, style.StrokeWidth, style.StrokeCapper, style.StrokeJoiner}
	s.mu.Lock()
	e := s.m[k]
	if e == nil {
		e = &strokeEntry{}
		s.m[k] = e
	}
	s.mu.Unlock()
	e.once.Do(func() {
		e.p = path.Stroke(style.StrokeWidth, style.StrokeCapper, style.StrokeJoiner, canvas.PixelTolerance)
	})
	return e.p
}

// RenderText draws the glyphs as the library does, through RenderPath with the picture's own matrix (so
// they are aligned on the pixel grid as the whole image aligns them, and shifted with everything else),
// but reads each glyph's outline from the font once a band: a map's coordinates are a handful of digits
// over and over.
func (r *bandRenderer) RenderText(t *canvas.Text, m canvas.Matrix) {
	b := t.Bounds()
	if r.misses(b.Transform(m), b.Y1-b.Y0) {
		return
	}
	if t.WritingMode != canvas.HorizontalTB {
		t.RenderAsPath(r, m, canvas.DPMM(1))
		return
	}
	t.WalkDecorations(func(paint canvas.Paint, p *canvas.Path) {
		style := canvas.DefaultStyle
		style.Fill = paint
		r.RenderPath(p, style, m)
	})
	t.WalkLines(func(y float64, spans []canvas.TextSpan) {
		for _, span := range spans {
			x, y := span.X, y
			if !span.IsText() {
				for _, obj := range span.Objects {
					obj.RenderViewTo(r, m.Mul(obj.View(x, y, span.Face)))
				}
				continue
			}
			style := canvas.DefaultStyle
			style.Fill = span.Face.Fill
			p := r.glyphs(span.Face, span.Glyphs)
			if span.Face.Hinting != font.NoHinting && span.Rotation == text.NoRotation {
				_, dy := m.Pos()
				dy += y
				y += float64(int(dy+0.5)) - dy
			}
			r.RenderPath(p, style, m.Translate(x, y).Rotate(float64(span.Rotation)))
		}
	})
}

type glyphKey struct {
	font *canvas.Font
	id   uint16
	ppem uint16
	f    float64
}

// glyphs is the outline of a run of glyphs, as FontFace's own path of them: each glyph's outline at the
// origin, moved to its place (x + f·gx is the same number either way round).
func (r *bandRenderer) glyphs(face *canvas.FontFace, gs []text.Glyph) *canvas.Path {
	if r.outlines == nil {
		r.outlines = map[glyphKey]*canvas.Path{}
	}
	ppem := face.PPEM(canvas.DPMM(1))
	f := face.MmPerEm
	x, y := face.XOffset, face.YOffset
	p := &canvas.Path{}
	for _, g := range gs {
		k := glyphKey{face.Font, g.ID, ppem, f}
		q, ok := r.outlines[k]
		if !ok {
			q = &canvas.Path{}
			if err := face.Font.GlyphPath(q, g.ID, ppem, 0, 0, f, font.NoHinting); err != nil {
				panic(err) // as the library's own rendering of text does
			}
			r.outlines[k] = q
		}
		p = p.Append(q.Copy().Translate(f*float64(x+g.XOffset), f*float64(y+g.YOffset)))
		x += g.XAdvance
		y += g.YAdvance
	}
	return p
}

func (r *bandRenderer) RenderImage(img image.Image, m canvas.Matrix) {
	r.ras.RenderImage(img, r.shift.Mul(m))
}

// colourCache remembers, for every picture drawn, which palette colour a pixel's colour maps to: the
// anti-aliased blends recur from picture to picture. It is direct-mapped; an entry holds the colour's
// 24 bits, its index and a bit saying it is set, and is read and written whole, so any number of pictures
// may share it. What it holds does not change a picture: nearest is a function of the colour.
var colourCache [1 << 16]atomic.Uint64

func mapColour(rgb uint32) uint8 {
	e := &colourCache[(rgb*2654435761)>>16]
	if v := e.Load(); v>>32 == uint64(rgb)|1<<24 {
		return uint8(v)
	}
	i := nearest(color.RGBA{uint8(rgb), uint8(rgb >> 8), uint8(rgb >> 16), 0xFF})
	e.Store((uint64(rgb)|1<<24)<<32 | uint64(i))
	return i
}

// mapRows maps rows [y0, y1) of the opaque img into out. Runs of one colour cost a comparison.
func mapRows(img *image.RGBA, out *image.Paletted, y0, y1 int) {
	palette()
	last := uint32(1 << 31) // no colour has that bit
	var lastIdx uint8
	w := img.Rect.Dx()
	for y := y0; y < y1; y++ {
		src := img.Pix[y*img.Stride : y*img.Stride+4*w]
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		for x := range dst {
			p := src[4*x : 4*x+3 : 4*x+3]
			rgb := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16
			if rgb != last {
				last, lastIdx = rgb, mapColour(rgb)
			}
			dst[x] = lastIdx
		}
	}
}
