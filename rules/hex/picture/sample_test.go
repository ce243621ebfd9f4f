package picture

import (
	"flag"
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
		b := mustPNG(t, s)
		t.Logf("%s: %v, %d bytes", c.name, decode(t, b).Bounds().Size(), len(b))
		sv := []byte(mustSVG(t, s))
		if *sampleDir != "" {
			os.WriteFile(filepath.Join(*sampleDir, "pic-"+c.name+".png"), b, 0o644)
			os.WriteFile(filepath.Join(*sampleDir, "pic-"+c.name+".svg"), sv, 0o644)
		}
	}
}
