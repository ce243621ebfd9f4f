package picture

import (
	"bytes"
	"image"
	"image/png"
)

// A picture is written by image/png as a paletted image at its fastest compression. It was once written
// by a PNG writer of our own that compressed bands of rows on every core; image/png at BestSpeed took
// less processor time and less time on the clock for the 100-unit picture, at 15 % more bytes
// (docs/performance.md, Map pictures; BenchmarkEncodePNG). A daemon draws a turn's pictures side by side
// anyway (adjudicator.Service.DrawPictures), so one picture need not use every core.
//
// A Painter that drew before draws the 100-unit picture in about two thirds of the time a fresh one
// takes, allocating 2.2 MB against 4.5 (BenchmarkPNG100Painter against BenchmarkPNG100;
// docs/performance.md, Early on 2026-11-29).

// Painter draws PNG pictures and keeps, for its next picture, the large buffers one needs: the picture's
// pixels on the palette, a shape's coverage and image/png's compressor (some 2.4 MB for a 100-unit
// picture, which a fresh picture allocates, zeroes and faults in). Nothing a picture leaves in them
// reaches the next: every pixel is painted black before the drawing starts, a coverage is written whole
// each time it is filled, and image/png resets its compressor. The daemon keeps one a core for drawing
// rounds' pictures (adjudicator.Service.DrawPictures), so a picture reuses the buffers of the one drawn
// before it.
//
// A Painter is not safe for use by several goroutines at once; its zero value is ready.
type Painter struct {
	pix     []uint8 // the picture on the palette, one byte a pixel
	cover   []uint8 // a shape's coverage
	encoder kept    // image/png's compressor
}

// kept keeps image/png's compressor from one picture to the next (a png.EncoderBufferPool of one).
type kept struct{ b *png.EncoderBuffer }

func (k *kept) Get() *png.EncoderBuffer  { return k.b }
func (k *kept) Put(b *png.EncoderBuffer) { k.b = b }

// encode writes the picture's paletted pixels as a PNG.
func (pt *Painter) encode(img *image.Paletted) ([]byte, error) {
	var buf bytes.Buffer
	// Room for what a busy picture compresses to, about a byte for every nine pixels, so the buffer is
	// seldom copied as it grows.
	buf.Grow(len(img.Pix) / 8)
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pt.encoder}).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
