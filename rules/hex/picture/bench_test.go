package picture

import (
	"bytes"
	"compress/zlib"
	"image"
	imgdraw "image/draw"
	"image/png"
	"testing"

	"sortie/rules/hex"
)

// The benchmarks draw the 100-unit scene (tracks, 30 lines, 10 marks) and, beside each, a raw cost of the
// same kind of work on a picture of the same size: what the library and the encoder take anyway, without
// the scene.

// benchDraw times draw on s and reports the size of what it draws and the processor time a picture
// takes (cpu-ns/op: the process's user and system time, all cores, which a busy machine disturbs less
// than the clock).
func benchDraw(b *testing.B, draw func(hex.Scene) ([]byte, error), s hex.Scene) {
	var n int
	cpu0, ok0 := processorTime()
	for b.Loop() {
		out, err := draw(s)
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	if cpu1, ok1 := processorTime(); ok0 && ok1 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkPNG100 draws the 100-unit picture with a fresh Painter each time, as a picture drawn alone
// is; BenchmarkPNG100Painter with one Painter, as a core draws a round's pictures one after another
// (adjudicator.Service.DrawPictures).
func BenchmarkPNG100(b *testing.B) {
	benchDraw(b, PNG, crowd(100, 30, 10))
}

func BenchmarkPNG100Painter(b *testing.B) {
	var painter Painter
	benchDraw(b, painter.PNG, crowd(100, 30, 10))
}

func BenchmarkSVG100(b *testing.B) {
	benchDraw(b, SVG, crowd(100, 30, 10))
}

// crowdPixels draws the 100-unit picture's pixels on the palette, and the same as RGBA.
func crowdPixels(b *testing.B) (*image.RGBA, *image.Paletted) {
	s := crowd(100, 30, 10)
	p, lay, err := draw(&s)
	if err != nil {
		b.Fatal(err)
	}
	img := new(Painter).paletted(p, int(lay.W), int(lay.H))
	whole := image.NewRGBA(img.Rect)
	imgdraw.Draw(whole, whole.Rect, img, image.Point{}, imgdraw.Src)
	return whole, img
}

// BenchmarkRawDeflate compresses the 100-unit picture's own paletted pixels, a filter byte a row, as one
// zlib stream at the level the picture uses (the fastest): the encoder's floor, without the drawing.
func BenchmarkRawDeflate(b *testing.B) {
	_, img := crowdPixels(b)
	w := img.Rect.Dx()
	raw := make([]byte, (w+1)*img.Rect.Dy())
	for y := range img.Rect.Dy() {
		copy(raw[y*(w+1)+1:(y+1)*(w+1)], img.Pix[y*img.Stride:])
	}
	var n int
	for b.Loop() {
		var buf bytes.Buffer
		z, err := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
		if err != nil {
			b.Fatal(err)
		}
		z.Write(raw)
		z.Close()
		n = buf.Len()
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkRawPNGEncode encodes the 100-unit picture's pixels as image/png does by default (RGBA,
// default compression): what a PNG of that picture costs without the palette.
func BenchmarkRawPNGEncode(b *testing.B) {
	img, _ := crowdPixels(b)
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

// BenchmarkPNGDogfight draws a small report's picture (a few aircraft, tracks, fire and a caption): the
// common case, what a two-player turn draws twice in its transaction.
func BenchmarkPNGDogfight(b *testing.B) {
	s := dogfight()
	s.Caption = []string{"RED1 fired at KURT: 2 hits", "KURT was shot down", "parachutes seen from KURT"}
	benchDraw(b, PNG, s)
}

// BenchmarkPlans draws the plotting board's picture, a side of 20 aircraft with a plot of 6 to 12 hexes
// tried for each (side20), beside the same picture with no plots (raw: the report's picture alone), as
// PNG and as SVG. Beside ns/op it reports the processor time a picture takes (cpu-ns/op: the process's
// user and system time over all cores, where the platform tells it), which a shared machine's load
// inflates less than the wall time, and the picture's size in pixels (the plots widen the map).
func BenchmarkPlans(b *testing.B) {
	for _, format := range []struct {
		name string
		draw func(hex.Scene) ([]byte, error)
	}{{"PNG", PNG}, {"SVG", SVG}} {
		for _, plans := range []bool{false, true} {
			name := format.name + "/raw"
			if plans {
				name = format.name + "/plans"
			}
			b.Run(name, func(b *testing.B) {
				s := side20(plans)
				lay, err := LayoutOf(s)
				if err != nil {
					b.Fatal(err)
				}
				benchDraw(b, format.draw, s) // with its processor time
				b.ReportMetric(lay.W*lay.H, "pixels")
			})
		}
	}
}
