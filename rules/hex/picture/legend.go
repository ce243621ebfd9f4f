package picture

import (
	"image/color"

	"sortie/rules/hex"
)

// The legend explains only what the picture shows, in a strip under the map.

const (
	legendRowH   = 24.0
	legendPad    = 10.0
	legendSwatch = 24.0
	legendGapX   = 16.0
)

type legendItem struct {
	swatch func(p *pen, x, y float64) // draws the sample centred on (x, y)
	text   span
}

func (it legendItem) width() float64 { return legendSwatch + 4 + it.text.width }

// neutral draws the kinds' samples in greys, so the legend does not suggest a side.
var neutral = sideColours{main: rgb(0x70, 0x70, 0x70), dark: rgb(0x3A, 0x3A, 0x3A), tint: rgb(0xE6, 0xE4, 0xDE), track: rgb(0x9A, 0x9A, 0x9A)}

var (
	sideNames = map[hex.Allegiance]string{hex.Own: "own", hex.Friendly: "friendly", hex.Enemy: "enemy"}
	kindNames = map[hex.UnitKind]string{
		hex.Aircraft: "aircraft", hex.Squadron: "squadron", hex.Ground: "vehicle",
		hex.Ship: "ship", hex.Target: "target", hex.Flak: "flak gun",
	}
	lineNames = map[hex.LineKind]string{hex.Fire: "guns", hex.FlakFire: "flak", hex.Bombing: "bombs", hex.Torpedo: "torpedo"}
	markNames = map[hex.MarkKind]string{
		hex.ShotDown: "shot down", hex.BailOut: "bailed out", hex.Crash: "crashed",
		hex.Burst: "hit", hex.Damaged: "damaged", hex.Exit: "left the map",
	}
)

// legendItems lists what s shows, in a fixed order: sides, kinds, units out of play, tracks, plots being
// tried (legal, then with errors), lines, marks, clouds, the markers of units beyond the map (when
// beyond), the map's edge.
func legendItems(p *pen, s *hex.Scene, beyond bool) []legendItem {
	var items []legendItem
	add := func(text string, swatch func(p *pen, x, y float64)) {
		items = append(items, legendItem{swatch: swatch, text: p.text(text, legendSize, false, legendInk)})
	}
	has := func(pred func(u *hex.SceneUnit) bool) bool {
		for i := range s.Units {
			if pred(&s.Units[i]) {
				return true
			}
		}
		return false
	}
	for _, a := range []hex.Allegiance{hex.Own, hex.Friendly, hex.Enemy} {
		if has(func(u *hex.SceneUnit) bool {
			return u.Side == a || (a == hex.Enemy && (u.Side < hex.Own || u.Side > hex.Enemy))
		}) {
			add(sideNames[a], func(p *pen, x, y float64) {
				c := sides[a]
				p.fillStroke(framePath(a, x, y, 7.5), c.tint, c.main, 1.5)
			})
		}
	}
	for _, k := range hex.UnitKinds {
		if has(func(u *hex.SceneUnit) bool { return u.Kind == k }) {
			add(kindNames[k], func(p *pen, x, y float64) {
				drawUnit(p, &hex.SceneUnit{Kind: k, Side: hex.Own, Faced: true}, neutral, x, y, 8)
			})
		}
	}
	if has(func(u *hex.SceneUnit) bool { return u.Out }) {
		add("out of play", func(p *pen, x, y float64) {
			drawUnit(p, &hex.SceneUnit{Kind: hex.Aircraft, Side: hex.Own, Faced: true, Out: true}, sides[hex.Own].faded(), x, y, 8)
		})
	}
	if has(func(u *hex.SceneUnit) bool { return len(u.Track) > 0 }) {
		add("track flown", func(p *pen, x, y float64) {
			p.strokeCap(polyline(pt{X: x - 11, Y: y}, pt{X: x + 3, Y: y}), neutral.track, 2, roundCap)
			p.fill(circle(x-5, y, 2), neutral.track)
			p.fill(polygon(shape(arrowShape, x+11, y, 8, 90)...), neutral.track)
		})
	}
	legal, wrong := false, false
	for _, p := range s.Plans {
		if len(p.Path) > 0 {
			legal, wrong = legal || p.Legal, wrong || !p.Legal
		}
	}
	if legal {
		add("plot", func(p *pen, x, y float64) { planSwatch(p, x, y, planInk, planDashes) })
	}
	if wrong {
		add("plot with errors", func(p *pen, x, y float64) { planSwatch(p, x, y, warnInk, warnDashes) })
	}
	miss := false
	for _, k := range hex.LineKinds {
		found := false
		for _, l := range s.Lines {
			found = found || l.Kind == k
			miss = miss || !l.Hit
		}
		if found {
			add(lineNames[k], func(p *pen, x, y float64) {
				// A short line ending in the kind's marker, all within the swatch.
				c := lineColour(k)
				tip := map[hex.LineKind]float64{hex.Fire: x + 10, hex.FlakFire: x + 5, hex.Bombing: x + 6, hex.Torpedo: x + 10}[k]
				end := tip
				if k == hex.Fire {
					end = tip - 6
				}
				p.stroke(polyline(pt{X: x - 11, Y: y}, pt{X: end, Y: y}), c, 2)
				lineEnd(p, k, true, tip, y, 1, 0, c)
			})
		}
	}
	if miss {
		add("missed", func(p *pen, x, y float64) {
			p.stroke(polyline(pt{X: x - 11, Y: y}, pt{X: x + 11, Y: y}), legendInk, 2, 5, 3)
		})
	}
	for _, k := range hex.MarkKinds {
		for _, m := range s.Marks {
			if m.Kind == k {
				add(markNames[k], func(p *pen, x, y float64) { drawMark(p, k, x, y, 8) })
				break
			}
		}
	}
	if len(s.Clouds) > 0 {
		add("cloud", func(p *pen, x, y float64) {
			h := &path{}
			hexagon(h, x, y, 10, 8.66)
			p.fill(h, cloudFill)
			p.fill(circle(x, y+2, 4).Append(circle(x-4, y+3, 3), circle(x+4, y+3, 3)), cloudPuff)
		})
	}
	if beyond {
		add("beyond this map", func(p *pen, x, y float64) { drawEdgeArrow(p, neutral, x, y, 8, 90) })
	}
	if s.Bounds != nil {
		add("off the map", func(p *pen, x, y float64) {
			h := &path{}
			hexagon(h, x, y, 10, 8.66)
			p.fill(h, offMap)
			p.strokeCap(polyline(pt{X: x + 5, Y: y - 8.66}, pt{X: x + 10, Y: y}, pt{X: x + 5, Y: y + 8.66}), mapEdge, 2.2, roundCap)
		})
	}
	return items
}

// planSwatch is a plot's sample: a short line in its pattern ending in a hollow arrow pointing east.
func planSwatch(p *pen, x, y float64, c color.RGBA, dashes []float64) {
	p.strokeCap(polyline(pt{X: x - 11, Y: y}, pt{X: x + 2, Y: y}), c, 2.2, roundCap, dashes...)
	drawPlanEnd(p, c, x+7, y, 8, 90, true, 2.2)
}

// legendRows breaks the items into rows that fit a picture w wide.
func legendRows(items []legendItem, w float64) [][]legendItem {
	var rows [][]legendItem
	x := legendPad
	for _, it := range items {
		if len(rows) == 0 || (x+it.width() > w-legendPad && x > legendPad) {
			rows = append(rows, nil)
			x = legendPad
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += it.width() + legendGapX
	}
	return rows
}

func legendHeight(items []legendItem, w float64) float64 {
	if len(items) == 0 {
		return 0
	}
	return float64(len(legendRows(items, w)))*legendRowH + 2*legendPad - 4
}

// drawLegend draws the legend strip from top down to the picture's foot.
func drawLegend(p *pen, f *frame, items []legendItem, top float64, lay *Layout) {
	if len(items) == 0 {
		return
	}
	p.fill(rect(0, top, f.W, f.H-top), legendBg)
	p.fill(rect(0, top, f.W, 1), gridLine)
	y := top + legendPad - 2 + legendRowH/2
	for _, row := range legendRows(items, f.W) {
		x := legendPad
		for _, it := range row {
			it.swatch(p, x+legendSwatch/2, y)
			p.draw(it.text, x+legendSwatch+4, y+4)
			lay.add(LegendEntry, it.text.s, box{x, y - legendSwatch/2 + 1, x + it.width(), y + legendSwatch/2 - 1})
			x += it.width() + legendGapX
		}
		y += legendRowH
	}
}
