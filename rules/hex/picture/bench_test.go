package picture

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/tdewolff/canvas"
	"github.com/tdewolff/canvas/renderers/rasterizer"
	"github.com/tdewolff/canvas/renderers/svg"
)

// The benchmarks draw the 100-unit scene (tracks, 30 lines, 10 marks) and, beside each, a raw cost of the
// same kind of work on a picture of the same size: what the library and the encoder take anyway, without
// the scene.

func BenchmarkPNG100(b *testing.B) {
	s := crowd(100, 30, 10)
	var n int
	for b.Loop() {
		out, err := PNG(s)
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}

func BenchmarkSVG100(b *testing.B) {
	s := crowd(100, 30, 10)
	var n int
	for b.Loop() {
		out, err := SVG(s)
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}

// size100 is the 100-unit picture's size.
func size100(b *testing.B) (w, h float64) {
	s := crowd(100, 30, 10)
	c, _, _, err := draw(&s)
	if err != nil {
		b.Fatal(err)
	}
	return c.Size()
}

// BenchmarkRawPNGEncode encodes the 100-unit picture's own pixels as image/png does by default (RGBA,
// default compression): what a PNG of that picture costs without the palette.
func BenchmarkRawPNGEncode(b *testing.B) {
	s := crowd(100, 30, 10)
	c, _, _, err := draw(&s)
	if err != nil {
		b.Fatal(err)
	}
	img := rasterizer.Draw(c, canvas.DPMM(1), canvas.DefaultColorSpace)
	var n int
	for b.Loop() {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		n = buf.Len()
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkRawRasterize has the library draw the hex grid of the 100-unit picture on a canvas of its size,
// the way the picture draws it: the cost of the map with nothing on it.
func BenchmarkRawRasterize(b *testing.B) {
	w, h := size100(b)
	s := crowd(100, 30, 10)
	f := layout(&s, func(float64) float64 { return 0 })
	cells := f.cells()
	for b.Loop() {
		c := canvas.New(w, h)
		ctx := canvas.NewContext(c)
		ctx.SetFillColor(paper)
		ctx.DrawPath(0, 0, canvas.Rectangle(w, h))
		ctx.SetFillColor(canvas.Transparent)
		ctx.SetStrokeColor(gridLine)
		ctx.SetStrokeJoiner(canvas.MiterJoin)
		for _, col := range gridColumns(&f, cells) {
			ctx.DrawPath(0, 0, col)
		}
		rasterizer.Draw(c, canvas.DPMM(1), canvas.DefaultColorSpace)
	}
	b.ReportMetric(float64(len(cells)), "hexes")
}

// BenchmarkRawSVGGrid writes the same grid through the library's SVG renderer: the map with nothing on it
// as SVG.
func BenchmarkRawSVGGrid(b *testing.B) {
	w, h := size100(b)
	s := crowd(100, 30, 10)
	f := layout(&s, func(float64) float64 { return 0 })
	cells := f.cells()
	for b.Loop() {
		c := canvas.New(w, h)
		ctx := canvas.NewContext(c)
		ctx.SetFillColor(paper)
		ctx.DrawPath(0, 0, canvas.Rectangle(w, h))
		ctx.SetFillColor(canvas.Transparent)
		ctx.SetStrokeColor(gridLine)
		ctx.SetStrokeJoiner(canvas.MiterJoin)
		for _, col := range gridColumns(&f, cells) {
			ctx.DrawPath(0, 0, col)
		}
		var buf bytes.Buffer
		r := svg.New(&buf, w, h, &svg.Options{SizeUnits: "px"})
		c.RenderTo(r)
		if err := r.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPNGDogfight draws a small report's picture (a few aircraft, tracks, fire and a caption): the
// common case, what a two-player turn draws twice in its transaction.
func BenchmarkPNGDogfight(b *testing.B) {
	s := dogfight()
	s.Caption = []string{"RED1 fired at KURT: 2 hits", "KURT was shot down", "parachutes seen from KURT"}
	var n int
	for b.Loop() {
		out, err := PNG(s)
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes")
}
