package golden

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// PNG compares a PNG image a test made with the one in the file at path; with update set it writes got
// to the file first. An image whose size or pixels differ fails the test, which then writes the image it
// got and a diff image (the expected image faded, every differing pixel in magenta) to a new folder
// under the system's temporary folder, and names both files. The same pixels in other bytes fail too: a
// golden PNG pins the bytes sent, and a change of encoding is worth a look.
func PNG(t testing.TB, path string, got []byte, update bool, fix string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, fix)
	}
	if bytes.Equal(wantBytes, got) {
		return
	}
	want, err := png.Decode(bytes.NewReader(wantBytes))
	if err != nil {
		t.Fatalf("%s: %v (%s rewrites it)", path, err, fix)
	}
	gotImg, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("the image made is not a PNG: %v", err)
	}
	diff, n := DiffImage(want, gotImg)
	if n == 0 {
		t.Errorf("the image has the pixels of %s but other bytes (%d against %d; %s rewrites it)", path, len(got), len(wantBytes), fix)
		return
	}
	dir, err := os.MkdirTemp("", "golden-png-")
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(path)
	gotPath, diffPath := filepath.Join(dir, "got-"+base), filepath.Join(dir, "diff-"+base)
	var buf bytes.Buffer
	if err := png.Encode(&buf, diff); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gotPath, got, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(diffPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Errorf("the image differs from %s (%s rewrites it; look first): %d pixels differ, sizes %v and %v\n  got:  %s\n  diff: %s",
		path, fix, n, want.Bounds().Size(), gotImg.Bounds().Size(), gotPath, diffPath)
}

// Magenta marks differing pixels in a diff image.
var Magenta = color.RGBA{0xFF, 0x00, 0xFF, 0xFF}

// DiffImage returns an image of want's and got's union of sizes (both taken from their origin) showing
// want faded towards white, with every pixel that differs, or lies in one image only, in Magenta, and the
// number of such pixels.
func DiffImage(want, got image.Image) (*image.RGBA, int) {
	wb, gb := want.Bounds(), got.Bounds()
	w, h := max(wb.Dx(), gb.Dx()), max(wb.Dy(), gb.Dy())
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	n := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			inW := x < wb.Dx() && y < wb.Dy()
			inG := x < gb.Dx() && y < gb.Dy()
			if inW && inG {
				a := color.RGBAModel.Convert(want.At(wb.Min.X+x, wb.Min.Y+y)).(color.RGBA)
				b := color.RGBAModel.Convert(got.At(gb.Min.X+x, gb.Min.Y+y)).(color.RGBA)
				if a == b {
					out.SetRGBA(x, y, fadeWhite(a))
					continue
				}
			}
			out.SetRGBA(x, y, Magenta)
			n++
		}
	}
	return out, n
}

// fadeWhite composes c over white and keeps a quarter of it, so magenta stands out on it.
func fadeWhite(c color.RGBA) color.RGBA {
	f := func(v uint8) uint8 {
		over := int(v) + 255 - int(c.A) // premultiplied c over white
		return uint8(255 - (255-over)/4)
	}
	return color.RGBA{f(c.R), f(c.G), f(c.B), 0xFF}
}
