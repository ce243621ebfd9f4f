package picture

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"sortie/rules/hex"
)

var sampleDir = flag.String("sample", "", "write sample pictures (PNG and SVG of the test scenes) to this folder")

// TestSample draws the test scenes and checks each PNG decodes to the frame's size; with -sample DIR it
// also writes them out to be looked at.
func TestSample(t *testing.T) {
	for _, c := range []struct {
		name string
		s    func() hex.Scene
	}{{"everything", everything}, {"dogfight", dogfight}, {"board", board}, {"side20", func() hex.Scene { return side20(true) }}, {"crowd", func() hex.Scene { return crowd(100, 30, 10) }}} {
		s := c.s()
		b, err := PNG(s)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v, %d bytes", c.name, img.Bounds().Size(), len(b))
		sv, err := SVG(s)
		if err != nil {
			t.Fatal(err)
		}
		if *sampleDir != "" {
			os.WriteFile(filepath.Join(*sampleDir, "pic-"+c.name+".png"), b, 0o644)
			os.WriteFile(filepath.Join(*sampleDir, "pic-"+c.name+".svg"), sv, 0o644)
		}
	}
}
