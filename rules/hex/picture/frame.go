package picture

import (
	"math"

	"sortie/rules/hex"
)

// The framing rules, in pixels. The hex side shrinks as the spread of a scene grows, from maxSide down to
// minSide, to keep the picture near targetW×targetH; past that the picture grows instead, up to capW×capH,
// and only a spread too wide even for that shrinks the hexes below minSide.
const (
	maxSide = 36.0
	minSide = 16.0
	targetW = 1200.0
	targetH = 1300.0
	capW    = 2800.0
	capH    = 2800.0
	minW    = 640.0 // narrowest picture with a map, so the title and legend fit
	margin  = 44.0  // map paper around the outermost hexes drawn on
	titleH  = 32.0

	emptyW, emptyH = 480.0, 120.0
)

const sqrt3 = 1.7320508075688772

// frame is the transform from hexes to pixels and the picture's layout: a title bar at the top, the map
// below it, the legend strip at the bottom.
//
// The hexes are snapped to the pixel grid: the side is a whole even number of pixels and the height a
// whole even number too (√3 times the side, rounded: the hexes are regular to within a pixel), and the
// centres sit on half pixels. Every hex then covers the same pixels as every other, moved by whole
// pixels, so one-pixel grid lines are crisp and the PNG compressor finds the grid repeating.
type frame struct {
	W, H   float64 // the picture in pixels (whole numbers)
	side   float64 // a hex's side length in pixels
	hh     float64 // half a hex's height (flat side to flat side) in pixels
	ox, oy float64 // the pixel of hex (0,0)'s centre
	top    float64 // the map's first pixel row (below the title bar)
	bottom float64 // the map's last pixel row (above the legend)
	empty  bool    // nothing to draw: the picture only says so
}

// centre returns the pixel at the centre of h.
func (f *frame) centre(h hex.Hex) (x, y float64) {
	return f.ox + 1.5*f.side*float64(h.Q), f.oy + 2*f.hh*(float64(h.R)+float64(h.Q)/2)
}

// hexAt returns the hex whose centre is nearest to pixel (x, y).
func (f *frame) hexAt(x, y float64) hex.Hex {
	fq := (x - f.ox) / (1.5 * f.side)
	fr := (y-f.oy)/(2*f.hh) - fq/2
	return hex.Round(fq, fr)
}

// unitRadius is the radius of a unit's symbol.
func (f *frame) unitRadius() float64 { return clamp(0.42*f.side, 7, 15) }

// layout frames a scene: every hex of s.Hexes() lies inside the map with margin to spare. legendH is
// the legend strip's height for a picture width, known only once the width is.
func layout(s *hex.Scene, legendH func(w float64) float64) frame {
	hs := s.Hexes()
	if len(hs) == 0 {
		return frame{W: emptyW, H: emptyH, side: maxSide, hh: maxSide * sqrt3 / 2, top: titleH, bottom: emptyH, empty: true}
	}
	// Extents in columns (x = 1.5·q) and in rows (y = r + q/2), from centre to centre.
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, h := range hs {
		x, y := 1.5*float64(h.Q), float64(h.R)+float64(h.Q)/2
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	// A flat-topped hex reaches one side either way and half its height up and down.
	spanW, spanH := maxX-minX+2, (maxY-minY+1)*sqrt3

	side := min((targetW-2*margin)/spanW, (targetH-2*margin)/spanH)
	side = clamp(side, minSide, maxSide)
	side = min(side, (capW-2*margin)/spanW, (capH-2*margin)/spanH)
	hh := side * sqrt3 / 2
	if side >= 4 {
		side = 2 * math.Floor(side/2)
		hh = math.Round(hh)
	}

	contentW := (maxX - minX + 2) * side
	contentH := (maxY - minY + 1) * 2 * hh
	mapW := math.Ceil(max(contentW+2*margin, minW))
	mapH := math.Ceil(contentH + 2*margin)
	f := frame{W: mapW, side: side, hh: hh, top: titleH}
	f.bottom = f.top + mapH
	f.H = f.bottom + math.Ceil(legendH(mapW))
	// The left edge of the leftmost hex and the top of the highest, centred in the map, then the centre
	// of hex (0,0) from them, on a half pixel.
	left := math.Round((mapW - contentW) / 2)
	upper := f.top + math.Round((mapH-contentH)/2)
	f.ox = math.Floor(left+side-minX*side) + 0.5
	f.oy = math.Floor(upper+hh-minY*2*hh) + 0.5
	return f
}

func clamp(x, lo, hi float64) float64 { return max(lo, min(hi, x)) }
