package golden

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func encode(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func square(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// DiffImage counts and marks exactly the differing pixels, and those in one image only, over a faded copy
// of the expected image.
func TestDiffImage(t *testing.T) {
	grey := color.RGBA{0x80, 0x80, 0x80, 0xFF}
	a := square(4, 3, grey)
	b := square(4, 3, grey)
	b.SetRGBA(2, 1, color.RGBA{0, 0, 0, 0xFF})
	d, n := DiffImage(a, b)
	if n != 1 || d.RGBAAt(2, 1) != Magenta || d.RGBAAt(0, 0) == Magenta || d.RGBAAt(0, 0) == grey {
		t.Errorf("n = %d, marked %v, unmarked %v", n, d.RGBAAt(2, 1), d.RGBAAt(0, 0))
	}
	if _, n := DiffImage(a, a); n != 0 {
		t.Errorf("an image differs from itself in %d pixels", n)
	}
	d, n = DiffImage(a, square(5, 3, grey))
	if n != 3 || d.Bounds().Dx() != 5 || d.RGBAAt(4, 2) != Magenta {
		t.Errorf("a column more: n = %d, size %v", n, d.Bounds())
	}
}

// PNG passes the same bytes, fails other pixels leaving the image and the diff where it says, fails the
// same pixels in other bytes, and rewrites the file with update.
func TestPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.png")
	grey := color.RGBA{0x80, 0x80, 0x80, 0xFF}
	want := encode(t, square(8, 8, grey))
	os.WriteFile(path, want, 0o644)

	rec := &recorder{TB: t}
	PNG(rec, path, want, false, "go test -update")
	if rec.failed {
		t.Errorf("the same bytes failed: %s", rec.msg)
	}

	other := square(8, 8, grey)
	other.SetRGBA(3, 3, color.RGBA{0xFF, 0xFF, 0xFF, 0xFF})
	rec = &recorder{TB: t}
	PNG(rec, path, encode(t, other), false, "go test -update")
	m := regexp.MustCompile(`got:  (\S+)\n  diff: (\S+)`).FindStringSubmatch(rec.msg)
	if !rec.failed || m == nil || !bytes.Contains([]byte(rec.msg), []byte("1 pixels differ")) {
		t.Fatalf("failed %v, message:\n%s", rec.failed, rec.msg)
	}
	defer os.RemoveAll(filepath.Dir(m[1]))
	for _, p := range m[1:] {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != 8 {
			t.Errorf("%s: %v, %v", p, err, img)
		}
	}

	// The same pixels, paletted: other bytes.
	pal := image.NewPaletted(image.Rect(0, 0, 8, 8), color.Palette{grey})
	rec = &recorder{TB: t}
	PNG(rec, path, encode(t, pal), false, "go test -update")
	if !rec.failed || !bytes.Contains([]byte(rec.msg), []byte("other bytes")) {
		t.Errorf("failed %v, message:\n%s", rec.failed, rec.msg)
	}

	rec = &recorder{TB: t}
	PNG(rec, path, encode(t, other), true, "go test -update")
	if b, _ := os.ReadFile(path); rec.failed || !bytes.Equal(b, encode(t, other)) {
		t.Errorf("update: failed %v", rec.failed)
	}
}
