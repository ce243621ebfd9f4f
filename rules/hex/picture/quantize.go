package picture

import (
	"image/color"
	"sync"
)

// A picture is drawn in a few dozen colours; only the anti-aliased edges between them blend. The PNG is
// therefore paletted, one byte a pixel, against one fixed palette: the drawing's colours, their blends
// with the paper and a few other grounds they are drawn on, and a grey ramp. A flat colour takes the
// nearest palette colour, which is itself, so flat colours stay exact; an edge's blend takes the palette
// colour nearest to the middle of its cell (blend). Either way the same drawing gives the same bytes.

// paletteData is the palette with what nearest and blend look it up by; made once (thePalette) and
// never changed.
type paletteData struct {
	colours color.Palette
	rgb     [][3]int32
	// near lists, for each cell of the colour cube cut into cellSide³ cells, the palette colours that
	// can be the nearest to a colour in that cell, in palette order: nearest looks at those only.
	near [cellSide * cellSide * cellSide][]uint8
	// blends holds, for each cell of the colour cube cut into blendSide³ cells, the index of the palette
	// colour nearest to the cell's middle: what an anti-aliased edge's blend is drawn in (blend).
	blends [blendSide * blendSide * blendSide]uint8
}

// An edge's blend is looked up at blendBits bits a channel, a few levels from the blend itself, which
// the palette's colours, tens of levels apart, do not show (TestBlendIsNearEnough bounds it). A table
// of 32,768 cells costs about 1 ms to fill once a process; drawing the 100-unit picture through it took
// 0.40 of canvas's time against 0.42 through a cache of the colours met, filled by nearest
// (docs/performance.md, Early on 2026-11-29).
const (
	blendBits = 5
	blendSide = 1 << blendBits
)

// blend returns the palette index an anti-aliased pixel of colour (r, g, b) is drawn in.
func (p *paletteData) blend(r, g, b uint32) uint8 {
	const shift = 8 - blendBits
	return p.blends[(r>>shift)<<(2*blendBits)|(g>>shift)<<blendBits|b>>shift]
}

// The colour cube is cut into cellSide cells along each axis, of 1<<(8-cellBits) levels each. Sixteen a
// side leaves about 11 candidates a cell, against 32 for eight and all 200-odd for one. The palette,
// its lists and the blend table take about 4 ms once a process (BenchmarkBuildPalette; 13.0 when
// fillNear measured every colour against every cell whole, without the blend table).
const (
	cellBits = 4
	cellSide = 1 << cellBits
)

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
	return newPalette(pal)
}

// newPalette works out what nearest and blend look colours up by in the palette pal.
func newPalette(pal []color.RGBA) *paletteData {
	p := &paletteData{colours: make(color.Palette, len(pal))}
	for i, c := range pal {
		p.colours[i] = c
		p.rgb = append(p.rgb, [3]int32{int32(c.R), int32(c.G), int32(c.B)})
	}
	p.fillNear()
	const shift, middle = 8 - blendBits, 1 << (8 - blendBits) / 2
	for i := range p.blends {
		r, g, b := i>>(2*blendBits), i>>blendBits%blendSide, i%blendSide
		p.blends[i] = p.nearest(color.RGBA{uint8(r<<shift | middle), uint8(g<<shift | middle), uint8(b<<shift | middle), 0xFF})
	}
	return p
}

// distance is how far apart nearest holds two colours to be, weighting green most as the eye does; d
// holds the differences in red, green and blue.
func distance(d [3]int32) int32 { return 3*d[0]*d[0] + 4*d[1]*d[1] + 2*d[2]*d[2] }

// fillNear works out near. Of the palette colours, take the one whose farthest point of the cell is
// nearest, at bound: every colour of the cell has a palette colour within bound. So a palette colour
// whose nearest point of the cell is farther than bound is never the nearest to a colour of the cell.
// The distance is a sum over the three channels, so each colour's share along each channel is worked
// out once for each of the cellSide slabs a channel is cut into, and a cell adds up three shares.
func (p *paletteData) fillNear() {
	const size = 1 << (8 - cellBits)
	n := len(p.rgb)
	// lo[k][j*n+i] and hi[k][j*n+i]: colour i's share of the distance along channel k to the nearest
	// and the farthest level of slab j.
	var lo, hi [3][]int32
	for k := range 3 {
		lo[k], hi[k] = make([]int32, cellSide*n), make([]int32, cellSide*n)
		for j := range cellSide {
			for i, q := range p.rgb {
				a, b := int32(j*size)-q[k], int32(j*size+size-1)-q[k] // from q to the slab's ends
				var near, far [3]int32
				far[k] = max(-a, b)
				if a > 0 {
					near[k] = a
				} else if b < 0 {
					near[k] = b
				}
				lo[k][j*n+i], hi[k][j*n+i] = distance(near), distance(far)
			}
		}
	}
	dist := make([]int32, n) // each palette colour's distance to the cell's nearest point
	for cell := range p.near {
		r, g, b := cell/(cellSide*cellSide)*n, cell/cellSide%cellSide*n, cell%cellSide*n
		lr, lg, lb := lo[0][r:r+n], lo[1][g:g+n], lo[2][b:b+n]
		hr, hg, hb := hi[0][r:r+n], hi[1][g:g+n], hi[2][b:b+n]
		bound := int32(1<<31 - 1)
		for i := range n {
			dist[i] = lr[i] + lg[i] + lb[i]
			bound = min(bound, hr[i]+hg[i]+hb[i])
		}
		for i, d := range dist {
			if d <= bound {
				p.near[cell] = append(p.near[cell], uint8(i))
			}
		}
	}
}

func palette() color.Palette { return thePalette().colours }

// nearest returns the index of the palette colour nearest to c (distance); of two as near, the first.
func (p *paletteData) nearest(c color.RGBA) uint8 {
	const shift = 8 - cellBits
	cell := int(c.R>>shift)*cellSide*cellSide + int(c.G>>shift)*cellSide + int(c.B>>shift)
	best, bestD := uint8(0), int32(1<<31-1)
	for _, i := range p.near[cell] {
		q := p.rgb[i]
		if d := distance([3]int32{int32(c.R) - q[0], int32(c.G) - q[1], int32(c.B) - q[2]}); d < bestD {
			best, bestD = i, d
		}
	}
	return best
}
