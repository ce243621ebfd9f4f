package picture

import (
	"bytes"
	"image/png"
	"testing"
)

// BenchmarkEncodePNG weighs the picture's PNG writer (Painter.encode: the paletted pixels written by
// image/png at its fastest) against the same at image/png's default compression: the level is chosen by
// this measurement (docs/performance.md, Map pictures).
func BenchmarkEncodePNG(b *testing.B) {
	s := crowd(100, 30, 10)
	p, lay, err := draw(&s)
	if err != nil {
		b.Fatal(err)
	}
	img := new(Painter).paletted(p, int(lay.W), int(lay.H))
	encoders := []struct {
		name   string
		encode func() ([]byte, error)
	}{
		{"fastest", func() ([]byte, error) { return new(Painter).encode(img) }},
		{"default", func() ([]byte, error) {
			var buf bytes.Buffer
			err := png.Encode(&buf, img)
			return buf.Bytes(), err
		}},
	}
	for _, e := range encoders {
		b.Run(e.name, func(b *testing.B) {
			var n int
			cpu0, ok := processorTime()
			for b.Loop() {
				out, err := e.encode()
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			if cpu1, _ := processorTime(); ok {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

// BenchmarkBuildPalette builds the palette and the candidate lists nearest searches (fillNear), which a
// process does once, when it draws its first PNG.
func BenchmarkBuildPalette(b *testing.B) {
	for b.Loop() {
		buildPalette()
	}
}
