package picture

import (
	"image/color"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"

	"sortie/rules/hex"
)

// The colours. Sides and line kinds take their hues from the Okabe–Ito palette, which stays apart under
// the common forms of colour blindness; every side and kind also differs by shape, so no colour has to
// be told apart alone.
var (
	paper     = rgb(0xF4, 0xF1, 0xE8) // the map
	gridLine  = rgb(0xCF, 0xC7, 0xB4) // hexsides
	coordInk  = rgb(0x9A, 0x92, 0x80) // hex coordinates
	offMap    = rgb(0xDD, 0xD6, 0xC6) // hexes off the playing area
	mapEdge   = rgb(0x7A, 0x71, 0x5E) // the playing area's border
	cloudFill = rgb(0xC8, 0xD0, 0xD6) // cloud hexes
	cloudPuff = rgb(0xE4, 0xE8, 0xEB) // the puffs drawn in a cloud hex
	ink       = rgb(0x22, 0x22, 0x22) // text, outlines
	noteInk   = rgb(0x4A, 0x4A, 0x4A) // notes under a label
	outInk    = rgb(0x8E, 0x8A, 0x80) // labels of units out of play
	white     = rgb(0xFF, 0xFF, 0xFF)
	titleBg   = rgb(0x26, 0x31, 0x3B) // the title bar
	legendBg  = rgb(0xFB, 0xFA, 0xF6) // the legend strip
	legendInk = rgb(0x3A, 0x3A, 0x3A)
	labelBg   = rgb(0xFB, 0xF9, 0xF3) // behind labels
	yellow    = rgb(0xF0, 0xE4, 0x42)
	orange    = rgb(0xE6, 0x9F, 0x00)
)

// sideColours are the colours of one allegiance: main for symbols, dark for labels, tint for the inside
// of a counter, track for the path flown.
type sideColours struct {
	main, dark, tint, track color.RGBA
}

var sides = [...]sideColours{
	hex.Own:      side(rgb(0x00, 0x72, 0xB2), rgb(0x00, 0x55, 0x88)), // blue
	hex.Friendly: side(rgb(0x56, 0xB4, 0xE9), rgb(0x1F, 0x6E, 0x9C)), // sky blue
	hex.Enemy:    side(rgb(0xD5, 0x5E, 0x00), rgb(0xA8, 0x45, 0x00)), // vermillion
}

func side(main, dark color.RGBA) sideColours {
	return sideColours{main: main, dark: dark, tint: mix(main, white, 0.78), track: mix(main, paper, 0.35)}
}

// faded returns the colours of a unit out of play: washed towards the paper.
func (c sideColours) faded() sideColours {
	return sideColours{main: fade(c.main), dark: fade(c.dark), tint: fade(c.tint), track: fade(c.track)}
}

func fade(c color.RGBA) color.RGBA { return mix(c, paper, 0.62) }

// coloursOf returns the colours a unit is drawn in. An allegiance out of range is drawn as an enemy.
func coloursOf(a hex.Allegiance, out bool) sideColours {
	c := sides[hex.Enemy]
	if a >= 0 && int(a) < len(sides) {
		c = sides[a]
	}
	if out {
		return c.faded()
	}
	return c
}

// lineColours by LineKind.
var lineColours = [...]color.RGBA{
	hex.Fire:     rgb(0xCC, 0x79, 0xA7), // reddish purple
	hex.FlakFire: orange,
	hex.Bombing:  ink,
	hex.Torpedo:  rgb(0x00, 0x9E, 0x73), // bluish green
}

func lineColour(k hex.LineKind) color.RGBA {
	if k >= 0 && int(k) < len(lineColours) {
		return lineColours[k]
	}
	return ink
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xFF} }

// mix returns a blended t of the way from a to b (both opaque).
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xFF}
}

// The type sizes in pixels. Labels keep their size whatever the scale, so a zoomed-out map stays
// readable.
const (
	titleSize  = 15.0
	labelSize  = 12.0
	noteSize   = 10.5
	markSize   = 9.5
	legendSize = 11.0
)

// fontSet is the embedded Go fonts (BSD licence, golang.org/x/image/font/gofont), so a picture looks the
// same on every machine: parsed once, read by every picture at once (each with a buffer of its own).
type fontSet struct {
	regular, bold *sfnt.Font
}

// face returns the regular or the bold font.
func (fs fontSet) face(bold bool) *sfnt.Font {
	if bold {
		return fs.bold
	}
	return fs.regular
}

// fontFiles are the fonts' files, regular and bold, and the families the SVG names them by.
var fontFiles = [2]struct {
	ttf    []byte
	family string
}{{goregular.TTF, "GoRegular"}, {gobold.TTF, "Go-Bold"}}

var loadFonts = sync.OnceValues(func() (fontSet, error) {
	var fs fontSet
	var err error
	if fs.regular, err = sfnt.Parse(fontFiles[0].ttf); err != nil {
		return fs, err
	}
	fs.bold, err = sfnt.Parse(fontFiles[1].ttf)
	return fs, err
})
