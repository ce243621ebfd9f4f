package picture

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"slices"
	"testing"

	"sortie/rules/hex"
)

// rasterScenes are the scenes the raster's tests draw: every kind of thing, an empty map, a small
// fight, the plotting board, a crowd with a caption, and units far apart.
func rasterScenes() []struct {
	name string
	s    hex.Scene
} {
	busy := crowd(100, 30, 10)
	busy.Caption = []string{"RED1 fired at KURT: 2 hits", "KURT was shot down"}
	return []struct {
		name string
		s    hex.Scene
	}{
		{"everything", everything()},
		{"empty", hex.Scene{Title: "Kent 1940 · turn 1 · RAF"}},
		{"dogfight", dogfight()},
		{"board", board()},
		{"crowd", busy},
		{"far", far(40)},
	}
}

// coverage draws the recording's shapes (every fill and stroke but the rectangles on whole pixels, which
// are not rasterized, and no text, which is not cut into bands) in white on black, on a palette of the
// 256 greys, rasterizing rows rows at a time: each pixel's grey is the shapes' coverage there, to the
// blend's cells.
func coverage(p *pen, w, h, rows int, greys *paletteData) *image.Paletted {
	var ops []op
	for _, o := range p.ops {
		if o.kind == opText {
			continue
		}
		if _, ok := pixelRect(o.p); o.kind == opFill && ok {
			continue
		}
		o.fill, o.line = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}, color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
		ops = append(ops, o)
	}
	img := &image.Paletted{Pix: make([]uint8, w*h), Stride: w, Rect: image.Rect(0, 0, w, h), Palette: greys.colours}
	newRasterizer(img, greys, rows, p.fonts).draw(ops)
	return img
}

// Rasterizing in bands gives the coverage rasterizing whole does: a shape that crosses from one band to
// the next, a track along many bands are not cut or doubled where the bands meet. The two differ only in
// how the rasterizer rounds an edge's coverage on a smaller canvas (it works in fixed point on a small
// one, in floating point on a large one), by a few levels of 255 on edge pixels and up to 14 along a few
// long diagonals. Each grey is looked up by cells of 8 levels, and where shapes overlap each is laid over
// the grey the last one left, so those differences grow: up to 32 in these scenes, on at most 2 % of the
// pixels. A shape left out of a band, cut at the wrong row, or a band not drawn differs by 124 to 255
// (each of those breaks makes this test fail), and so did shapes given whole to a band's rasterizer when
// they reached far beyond it (up to 90 along a long track, before they were cut to the band's rows).
func TestBandsDoNotShow(t *testing.T) {
	var greys []color.RGBA
	for g := range 256 {
		greys = append(greys, color.RGBA{uint8(g), uint8(g), uint8(g), 0xFF})
	}
	pal := newPalette(greys)
	for _, c := range rasterScenes() {
		t.Run(c.name, func(t *testing.T) {
			p, lay, err := draw(&c.s)
			if err != nil {
				t.Fatal(err)
			}
			w, h := int(lay.W), int(lay.H)
			whole := coverage(p, w, h, h, pal)
			for _, rows := range []int{bandRows, 7, 1} {
				banded := coverage(p, w, h, rows, pal)
				worst, differ := 0, 0
				for i := range whole.Pix {
					d := absDiff(whole.Pix[i], banded.Pix[i])
					if d > 0 {
						differ++
					}
					worst = max(worst, d)
				}
				t.Logf("bands of %d rows: %d of %d pixels differ, by at most %d", rows, differ, len(whole.Pix), worst)
				if worst > 48 || differ > len(whole.Pix)*3/100 {
					t.Errorf("bands of %d rows: %d pixels differ from the whole picture's, by up to %d", rows, differ, worst)
				}
			}
		})
	}
}

func absDiff(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }

// The PNG is a valid paletted image (image/png reads it back) holding exactly the drawing's pixels on
// the picture's palette.
func TestPNGHoldsTheDrawing(t *testing.T) {
	for _, c := range rasterScenes() {
		t.Run(c.name, func(t *testing.T) {
			p, lay, err := draw(&c.s)
			if err != nil {
				t.Fatal(err)
			}
			want := new(Painter).paletted(p, int(lay.W), int(lay.H))
			got, err := png.Decode(bytes.NewReader(mustPNG(t, c.s)))
			if err != nil {
				t.Fatal(err)
			}
			pi, ok := got.(*image.Paletted)
			if !ok || pi.Rect != want.Rect || !bytes.Equal(pi.Pix, want.Pix) || fmt.Sprint(pi.Palette) != fmt.Sprint(want.Palette) {
				t.Error("the PNG does not hold the drawing's pixels")
			}
		})
	}
}

// A Painter that drew other pictures before draws each as a fresh one does, byte for byte: a larger
// picture before a smaller (its pixels and bands left in the buffers), a smaller before a larger, the
// same twice.
func TestPainterLeavesNothingBehind(t *testing.T) {
	busy := crowd(100, 30, 10)
	scenes := []hex.Scene{busy, dogfight(), everything(), hex.Scene{Title: "Kent 1940 · turn 1 · RAF"}, board(), far(40), busy, dogfight()}
	var painter Painter
	for i, s := range scenes {
		got, err := painter.PNG(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := mustPNG(t, s); !bytes.Equal(got, want) {
			t.Errorf("picture %d (%s), drawn after %d others by one Painter, differs from the same drawn afresh", i, s.Title, i)
		}
	}
}

// The embedded fonts' binary search fields (the table directory's and the character map's) agree with
// their counts, as OpenType sets them: a browser's font checker refuses a font where they do not, and
// the SVG's text then falls back to another, wider font that overflows its label boxes.
func TestSubsetSearchFields(t *testing.T) {
	css := mustSVG(t, everything())
	m := regexp.MustCompile(`base64,([A-Za-z0-9+/=]+)`).FindAllStringSubmatch(css, -1)
	if len(m) != 2 {
		t.Fatalf("%d embedded fonts", len(m))
	}
	// search returns the fields for n entries of size bytes each.
	search := func(n, size int) (rng, sel, shift uint16) {
		p, e := 1, 0
		for p*2 <= n {
			p, e = p*2, e+1
		}
		return uint16(p * size), uint16(e), uint16(n*size - p*size)
	}
	be := binary.BigEndian
	for _, f := range m {
		b, err := base64.StdEncoding.DecodeString(f[1])
		if err != nil {
			t.Fatal(err)
		}
		n := int(be.Uint16(b[4:]))
		if r, s, sh := search(n, 16); be.Uint16(b[6:]) != r || be.Uint16(b[8:]) != s || be.Uint16(b[10:]) != sh {
			t.Errorf("table directory of %d tables: search fields %v, want %d %d %d", n, b[6:12], r, s, sh)
		}
		tables, err := readTables(b)
		if err != nil {
			t.Fatal(err)
		}
		cm := tables["cmap"]
		sub := cm[be.Uint32(cm[8:]):]
		if be.Uint16(sub) != 4 {
			t.Fatalf("character map format %d", be.Uint16(sub))
		}
		segs := int(be.Uint16(sub[6:])) / 2
		if r, s, sh := search(segs, 2); be.Uint16(sub[8:]) != r || be.Uint16(sub[10:]) != s || be.Uint16(sub[12:]) != sh {
			t.Errorf("character map of %d segments: search fields %v, want %d %d %d", segs, sub[8:14], r, s, sh)
		}
	}
}

// TestDedupe: points repeating the one before go, the order stays, and what dedupe returns can be
// appended to without writing into the path's points.
func TestDedupe(t *testing.T) {
	a, b, c := pt{1, 2}, pt{3, 4}, pt{5, 6}
	for _, tc := range []struct{ in, want []pt }{
		{nil, nil},
		{[]pt{a}, []pt{a}},
		{[]pt{a, b, c}, []pt{a, b, c}},
		{[]pt{a, a, b, b, b, c, a}, []pt{a, b, c, a}},
		{[]pt{a, b, b}, []pt{a, b}},
		{[]pt{a, a}, []pt{a}},
	} {
		in := append(make([]pt, 0, len(tc.in)+4), tc.in...)
		got := dedupe(in)
		if !slices.Equal(got, tc.want) {
			t.Errorf("dedupe(%v) = %v, want %v", tc.in, got, tc.want)
		}
		_ = append(got, pt{9, 9})
		if spare := in[:cap(in)][len(in):]; slices.Contains(spare, pt{9, 9}) {
			t.Errorf("dedupe(%v): appending to its result wrote into the path's points", tc.in)
		}
	}
}
