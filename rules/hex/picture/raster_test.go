package picture

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tdewolff/canvas"
	"github.com/tdewolff/canvas/renderers/rasterizer"

	"sortie/rules/hex"
)

// Drawn in bands, on any number of goroutines, a picture has every pixel the library's single pass gives
// it.
func TestBandsMatchOnePass(t *testing.T) {
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
		c := c
		cv, _, _, err := draw(&c.s)
		if err != nil {
			t.Fatal(err)
		}
		want := toPaletted(rasterizer.Draw(cv, canvas.DPMM(1), canvas.DefaultColorSpace))
		for _, n := range [][2]int{{1, 1}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {4, 2}, {7, 3}, {16, 4}} {
			t.Run(fmt.Sprintf("%s/%dbands/%dworkers", c.name, n[0], n[1]), func(t *testing.T) {
				got := rasterizeBands(cv, n[0], n[1])
				if got.Rect != want.Rect {
					t.Fatalf("size %v, one pass gives %v", got.Rect, want.Rect)
				}
				if !bytes.Equal(got.Pix, want.Pix) {
					for i := range got.Pix {
						if got.Pix[i] != want.Pix[i] {
							t.Errorf("pixel (%d, %d) is %v, one pass gives %v", i%got.Stride, i/got.Stride,
								got.Palette[got.Pix[i]], want.Palette[want.Pix[i]])
						}
					}
				}
			})
		}
	}
}
