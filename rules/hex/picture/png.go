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

// encodePNG writes the picture's paletted pixels as a PNG.
func encodePNG(img *image.Paletted) ([]byte, error) {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
