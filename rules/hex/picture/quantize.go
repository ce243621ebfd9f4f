package picture

import (
	"image/color"
	"sync"
)

// A picture is drawn in a few dozen colours; only the anti-aliased edges between them blend. The PNG is
// therefore paletted, one byte a pixel, against one fixed palette: the drawing's colours, their blends
// with the paper and a few other grounds they are drawn on, and a grey ramp. Each pixel takes the
// nearest palette colour, so the same drawing gives the same bytes, and flat colours stay exact.

// paletteData is the palette with what nearest looks it up by; made once (thePalette) and never
// changed.
type paletteData struct {
	colours color.Palette
	index   map[color.RGBA]uint8
	rgb     [][3]int32
}

var thePalette = sync.OnceValue(buildPalette)

// basePalette lists the colours the drawing uses, most important first.
func baseColours() []color.RGBA {
	cs := []color.RGBA{paper, gridLine, coordInk, offMap, mapEdge, cloudFill, cloudPuff, ink, noteInk, outInk,
		white, titleBg, legendBg, legendInk, labelBg, yellow, orange}
	for _, s := range sides {
		f := s.faded()
		cs = append(cs, s.main, s.dark, s.tint, s.track, f.main, f.dark, f.tint, f.track)
	}
	cs = append(cs, lineColours[:]...)
	cs = append(cs, neutral.main, neutral.dark, neutral.tint, neutral.track, fade(white))
	return cs
}

func buildPalette() *paletteData {
	var pal []color.RGBA
	seen := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if !seen[c] && len(pal) < 256 {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	base := baseColours()
	for _, c := range base {
		add(c)
	}
	// Edges on the paper, the commonest ground.
	for _, t := range []float64{0.25, 0.5, 0.75} {
		for _, c := range base {
			add(mix(c, paper, t))
		}
	}
	// Edges inside counters and on the bars: symbols on their tints, white on the side colours and the title
	// bar, ink on white badges.
	for _, s := range append(sides[:], neutral) {
		for _, t := range []float64{0.33, 0.67} {
			add(mix(s.dark, s.tint, t))
			add(mix(s.main, s.tint, t))
			add(mix(white, s.main, t))
		}
	}
	for _, t := range []float64{0.25, 0.5, 0.75} {
		add(mix(white, titleBg, t))
		add(mix(ink, white, t))
		add(mix(yellow, ink, t))
		add(mix(gridLine, cloudFill, t))
		add(mix(offMap, gridLine, t))
		add(mix(mapEdge, offMap, t))
		add(mix(coordInk, cloudFill, t))
		add(mix(coordInk, offMap, t))
	}
	// Whatever else: a grey ramp.
	for g := 0; g < 256; g += 8 {
		add(rgb(uint8(g), uint8(g), uint8(g)))
	}
	p := &paletteData{colours: make(color.Palette, len(pal)), index: make(map[color.RGBA]uint8, len(pal))}
	for i, c := range pal {
		p.colours[i] = c
		p.index[c] = uint8(i)
		p.rgb = append(p.rgb, [3]int32{int32(c.R), int32(c.G), int32(c.B)})
	}
	return p
}

func palette() color.Palette { return thePalette().colours }

// nearest returns the index of the palette colour nearest to c, weighting green most as the eye does.
func nearest(c color.RGBA) uint8 {
	p := thePalette()
	if i, ok := p.index[c]; ok {
		return i
	}
	best, bestD := 0, int32(1<<31-1)
	for i, q := range p.rgb {
		dr, dg, db := int32(c.R)-q[0], int32(c.G)-q[1], int32(c.B)-q[2]
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}
