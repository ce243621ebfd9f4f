package picture

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"image"
	"image/png"
	"runtime"
	"testing"

	"sortie/rules/hex"
)

// toPaletted maps an opaque RGBA image onto the palette in one pass, as the encoder's bands do.
func toPaletted(img *image.RGBA) *image.Paletted {
	out := image.NewPaletted(img.Rect, palette())
	for y := range img.Rect.Dy() {
		mapRow(img, y, out.Pix[y*out.Stride:y*out.Stride+img.Rect.Dx()])
	}
	return out
}

// The PNG, compressed in bands on every core, is one valid stream (image/png reads it, checksums and
// all) holding exactly the drawing's pixels, and its bytes are the same on one core as on many.
func TestPNGBandsOnAnyCores(t *testing.T) {
	busy := crowd(100, 30, 10)
	busy.Caption = []string{"RED1 fired at KURT: 2 hits", "KURT was shot down"}
	for _, c := range []struct {
		name string
		s    hex.Scene
	}{
		{"everything", everything()},
		{"empty", hex.Scene{Title: "Kent 1940 · turn 1 · RAF"}},
		{"dogfight", dogfight()},
		{"crowd", busy},
		{"far", far(40)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, lay, err := draw(&c.s)
			if err != nil {
				t.Fatal(err)
			}
			want := toPaletted(drawRGBA(p, int(lay.W), int(lay.H)))
			var first []byte
			for _, procs := range []int{1, 2, 3, 8} {
				old := runtime.GOMAXPROCS(procs)
				b := mustPNG(t, c.s)
				runtime.GOMAXPROCS(old)
				if first == nil {
					first = b
				} else if !bytes.Equal(b, first) {
					t.Errorf("on %d cores the PNG's bytes differ from those on one", procs)
				}
				got, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatalf("on %d cores: %v", procs, err)
				}
				pi, ok := got.(*image.Paletted)
				if !ok || pi.Rect != want.Rect || !bytes.Equal(pi.Pix, want.Pix) || fmt.Sprint(pi.Palette) != fmt.Sprint(want.Palette) {
					t.Errorf("on %d cores the PNG does not hold the drawing's pixels", procs)
				}
			}
		})
	}
}

// Two checksums combined are the checksum of the data joined, whatever the lengths.
func TestAdler32Combine(t *testing.T) {
	data := bytes.Repeat([]byte("hexes and fire lines "), 9000)
	for _, cut := range []int{0, 1, 65520, 65521, 65522, 100000, len(data)} {
		a, b := data[:cut], data[cut:]
		if got, want := adler32Combine(adler(a), adler(b), len(b)), adler(data); got != want {
			t.Errorf("cut at %d: %#x, want %#x", cut, got, want)
		}
	}
}

func adler(b []byte) uint32 { return adler32.Checksum(b) }
