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
)

// The PNG is rasterized in horizontal bands, a few for each processor, each band by the library's own
// rasterizer on the rows of the one image it owns, and mapped onto the palette as soon as it is drawn.
// Every band is given the whole drawing in the picture's own coordinates, moved up by a whole number of
// pixels, so an edge's coverage in a band is the coverage the whole image would give it; what lies wholly
// outside a band is passed over before it is stroked or its glyphs are looked up. The bands split what
// costs most in one pass: the rasterizer clears and walks every row of the image for every path it draws.

// bandRows is the least height of a band: below it, walking the drawing once a band costs more than the
// rows save.
const bandRows = 48

// rasterize draws c at one pixel a unit and maps it onto the palette.
func rasterize(c *canvas.Canvas) *image.Paletted {
	procs := runtime.GOMAXPROCS(0)
	return rasterizeBands(c, 2*procs, procs)
}

// rasterizeBands draws c in at most bands bands on workers goroutines; the pixels do not depend on either.
func rasterizeBands(c *canvas.Canvas, bands, workers int) *image.Paletted {
	w, h := int(c.W+0.5), int(c.H+0.5)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	out := image.NewPaletted(img.Bounds(), palette())
	n := min(bands, h/bandRows)
	if n <= 1 {
		ras := rasterizer.FromImage(img, canvas.DPMM(1), canvas.DefaultColorSpace)
		c.RenderTo(ras)
		ras.Close()
		newMapper().band(img, out, 0, h)
		return out
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMapper()
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
					shift: canvas.Identity.Translate(0, float64(y1-h)),
					lo:    float64(h - y1),
					hi:    float64(h - y0),
				}
				c.RenderTo(r)
				r.ras.Close()
				m.band(scratch, out, y0, y1)
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
	r.ras.RenderPath(path, style, r.shift.Mul(m))
}

// RenderText sends the glyphs back through RenderPath with the picture's own matrix, so they are aligned
// on the pixel grid as the whole image aligns them, and shifted with everything else.
func (r *bandRenderer) RenderText(text *canvas.Text, m canvas.Matrix) {
	b := text.Bounds()
	if r.misses(b.Transform(m), b.Y1-b.Y0) {
		return
	}
	text.RenderAsPath(r, m, canvas.DPMM(1))
}

func (r *bandRenderer) RenderImage(img image.Image, m canvas.Matrix) {
	r.ras.RenderImage(img, r.shift.Mul(m))
}

// mapper maps opaque RGBA pixels onto the palette. Runs of one colour cost a comparison; other colours
// go through a small direct-mapped cache before the search.
type mapper struct {
	cache []mapEntry
}

type mapEntry struct {
	key uint32
	idx uint8
	ok  bool
}

func newMapper() *mapper {
	palette()
	return &mapper{cache: make([]mapEntry, 1<<15)} // a picture has a few thousand colours; few collide
}

// band maps rows [y0, y1) of img into out.
func (mp *mapper) band(img *image.RGBA, out *image.Paletted, y0, y1 int) {
	var last uint32 = 1 // no opaque pixel packs to 1
	var lastIdx uint8
	w := img.Rect.Dx()
	for y := y0; y < y1; y++ {
		src := img.Pix[y*img.Stride : y*img.Stride+4*w]
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		for x := range dst {
			p := src[4*x : 4*x+4 : 4*x+4]
			key := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
			if key != last {
				e := &mp.cache[(key*2654435761)>>17]
				if !e.ok || e.key != key {
					*e = mapEntry{key: key, idx: nearest(color.RGBA{uint8(key), uint8(key >> 8), uint8(key >> 16), 0xFF}), ok: true}
				}
				last, lastIdx = key, e.idx
			}
			dst[x] = lastIdx
		}
	}
}
