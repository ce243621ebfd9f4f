package picture

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"sortie/rules/hex"
)

// PNG draws the scene as a PNG image: paletted, so a busy map stays small enough to mail. It draws with a
// Painter of its own: one that draws several pictures is cheaper (Painter).
func PNG(s hex.Scene) ([]byte, error) {
	return new(Painter).PNG(s)
}

// PNG draws the scene as a PNG image, as the function PNG does, reusing what the Painter's last picture
// left.
func (pt *Painter) PNG(s hex.Scene) ([]byte, error) {
	p, lay, err := draw(&s)
	if err != nil {
		return nil, err
	}
	return pt.encode(pt.paletted(p, int(lay.W), int(lay.H)))
}

// SVG draws the scene as an SVG document: the same drawing as PNG, with its text as text (in the glyphs
// of the embedded fonts it uses).
func SVG(s hex.Scene) ([]byte, error) {
	p, lay, err := draw(&s)
	if err != nil {
		return nil, err
	}
	return writeSVG(p, lay.W, lay.H)
}

// draw is the one drawing of a scene both formats render: the pen records it, in layers from the map up,
// and draw records where it put each thing (Layout).
func draw(s *hex.Scene) (*pen, *Layout, error) {
	fs, err := loadFonts()
	if err != nil {
		return nil, nil, fmt.Errorf("picture: loading the embedded fonts: %w", err)
	}
	p := newPen(fs)
	shown, far := framed(s)
	legend := legendItems(p, &shown, len(far) > 0)
	var caption []string
	f := layout(&shown, func(w float64) float64 {
		caption = captionLines(p, s.Caption, w)
		return captionHeight(caption) + legendHeight(legend, w)
	})
	lay := &Layout{W: f.W, H: f.H, Map: Box{0, f.top, f.W, f.bottom}}
	p.fill(rect(0, 0, f.W, f.H), paper)
	if f.empty {
		msg := p.text("Nothing to show on the map.", 13, false, noteInk)
		x, y := (f.W-msg.width)/2, f.top+(f.H-f.top)/2+4
		p.draw(msg, x, y)
		lay.add(Label, msg.s, textBox(msg, x, y))
		drawTitle(p, &f, s.Title, lay)
		return p, lay, nil
	}
	groups := groupUnits(&shown, &f)
	drawMap(p, &f, &shown, lay)
	drawTracks(p, &f, &shown, groups)
	drawLines(p, &f, &shown, groups)
	for _, g := range groups {
		for i, u := range g.units {
			drawUnit(p, u, coloursOf(u.Side, u.Out), g.at[i].X, g.at[i].Y, g.r)
			r := frameReach(u.Side, g.r)
			lay.add(Counter, u.Label, box{g.at[i].X - r, g.at[i].Y - r, g.at[i].X + r, g.at[i].Y + r})
		}
	}
	marks := placeMarks(&f, &shown)
	for _, m := range marks {
		drawMark(p, m.kind, m.x, m.y, m.r)
		lay.add(Badge, m.label, box{m.x - m.r, m.y - m.r, m.x + m.r, m.y + m.r})
	}
	edges := edgeMarkers(&f, &shown, far)
	for _, e := range edges {
		drawEdgeArrow(p, coloursOf(e.u.Side, e.u.Out), e.x, e.y, e.r, e.deg)
		lay.add(EdgeMarker, e.u.Label, box{e.x - e.r, e.y - e.r, e.x + e.r, e.y + e.r})
	}
	plans := placePlans(&f, &shown, groups)
	for _, pl := range plans {
		lay.add(PlanEnd, pl.label, pl.box())
	}
	drawLabels(p, &f, groups, marks, edges, plans, lay)
	// The plots being tried go over everything on the map, labels included, so nothing hides them.
	drawPlans(p, plans)
	drawTitle(p, &f, s.Title, lay)
	drawCaption(p, &f, caption, f.bottom, lay)
	drawLegend(p, &f, legend, f.bottom+captionHeight(caption), lay)
	return p, lay, nil
}

// drawEdgeArrow draws a far unit's marker: an arrow in the unit's colours, pointing deg clockwise from
// north, within a circle of radius r around (x, y).
func drawEdgeArrow(p *pen, c sideColours, x, y, r, deg float64) {
	dx, dy := bearing(deg)
	tip := pt{X: x + dx*r, Y: y + dy*r}
	back := pt{X: x - dx*0.6*r, Y: y - dy*0.6*r}
	px, py := -dy, dx
	p.fillStroke(polygon(tip,
		pt{X: back.X + px*0.75*r, Y: back.Y + py*0.75*r},
		pt{X: x - dx*0.2*r, Y: y - dy*0.2*r},
		pt{X: back.X - px*0.75*r, Y: back.Y - py*0.75*r}), c.main, c.dark, 1)
}

// maxGridHexes bounds the hexes a grid draws; a scene spread so wide that its hexes are a few pixels
// across is drawn without a grid.
const maxGridHexes = 30000

// cell is a hex on the map and its centre.
type cell struct {
	h    hex.Hex
	x, y float64
}

// cells returns the hexes that show on the map, column by column, or nil when there would be more than
// maxGridHexes of them.
func (f *frame) cells() []cell {
	qlo := math.Ceil((-f.side - f.ox) / (1.5 * f.side))
	qhi := math.Floor((f.W + f.side - f.ox) / (1.5 * f.side))
	rows := (f.bottom-f.top+2*f.side)/(2*f.hh) + 2
	if f.empty || f.side < 6 || (qhi-qlo+1)*rows > maxGridHexes {
		return nil
	}
	var out []cell
	for q := int(qlo); q <= int(qhi); q++ {
		rlo := int(math.Ceil((f.top-f.side-f.oy)/(2*f.hh) - float64(q)/2))
		rhi := int(math.Floor((f.bottom+f.side-f.oy)/(2*f.hh) - float64(q)/2))
		for r := rlo; r <= rhi; r++ {
			h := hex.Hex{Q: q, R: r}
			x, y := f.centre(h)
			out = append(out, cell{h, x, y})
		}
	}
	return out
}

// drawMap draws the paper: the playing area's bounds, clouds, the hex grid and coordinates.
func drawMap(p *pen, f *frame, s *hex.Scene, lay *Layout) {
	visible := f.cells()
	grid := visible != nil

	// Paths are kept to a column of hexes each: the rasterizer's work grows with the square of a path's
	// crossings on a pixel row.
	var edges []*path
	if b := s.Bounds; b != nil && grid {
		var off []*path
		for i, v := range visible {
			if i == 0 || v.h.Q != visible[i-1].h.Q {
				off, edges = append(off, &path{}), append(edges, &path{})
			}
			if !inBounds(b, v.h) {
				hexagon(off[len(off)-1], v.x, v.y, f.side, f.hh)
				continue
			}
			for k, n := range v.h.Neighbors() {
				if !inBounds(b, n) {
					a, z := corner(v.x, v.y, f.side, f.hh, 4+k), corner(v.x, v.y, f.side, f.hh, 5+k)
					edges[len(edges)-1].MoveTo(a.X, a.Y)
					edges[len(edges)-1].LineTo(z.X, z.Y)
				}
			}
		}
		for _, col := range off {
			p.fill(col, offMap)
		}
	}

	if len(s.Clouds) > 0 {
		clouds := slices.Clone(s.Clouds)
		slices.SortFunc(clouds, func(a, b hex.Hex) int { return cmp.Or(cmp.Compare(a.Q, b.Q), cmp.Compare(a.R, b.R)) })
		clouds = slices.Compact(clouds)
		var shade, puffs *path
		k := f.side
		for i, h := range clouds {
			if i == 0 || h.Q != clouds[i-1].Q {
				p.fill(shade, cloudFill)
				p.fill(puffs, cloudPuff)
				shade, puffs = &path{}, &path{}
			}
			x, y := f.centre(h)
			hexagon(shade, x, y, f.side, f.hh)
			for _, c := range [][3]float64{{-0.32, 0.3, 0.2}, {0, 0.2, 0.28}, {0.32, 0.3, 0.2}} {
				puffs.addCircle(x+c[0]*k, y+c[1]*k, c[2]*k)
			}
		}
		p.fill(shade, cloudFill)
		p.fill(puffs, cloudPuff)
	}

	if !grid {
		return
	}
	for _, col := range gridColumns(f, visible) {
		p.strokeJoin(col, gridLine, 1, miterJoin)
	}
	for _, col := range edges {
		p.strokeCap(col, mapEdge, 2, roundCap)
	}

	// Coordinates as reports print them, faint at the top of each hex; when the hexes are too small for
	// that, every fifth column and row.
	every := f.side >= 20
	size := clamp(0.27*f.side, 7.5, 9.5)
	for _, v := range visible {
		if !every && (mod(v.h.Q, 5) != 0 || mod(v.h.R, 5) != 0) {
			continue
		}
		// Only where it is whole: a coordinate cut by the picture's edge reads as another.
		t := p.text(v.h.String(), size, false, coordInk)
		x, y := v.x-t.width/2, v.y-0.52*f.side
		b := textBox(t, x, y)
		if b.x0 < 1 || b.x1 > f.W-1 || b.y0 < f.top+1 || b.y1 > f.bottom-1 {
			continue
		}
		p.draw(t, x, y)
		lay.add(Coordinate, t.s, b)
	}
}

// gridColumns returns the grid lines as one path a column of hexes: each hex's three upper sides, as one
// line (its neighbours below draw the others). A path a column keeps the rasterizer's rows short: one
// path for the whole grid costs it many times more.
func gridColumns(f *frame, cells []cell) []*path {
	var out []*path
	var col *path
	q := 0
	for i, v := range cells {
		if i == 0 || v.h.Q != q {
			q = v.h.Q
			col = &path{}
			out = append(out, col)
		}
		a := corner(v.x, v.y, f.side, f.hh, 3)
		col.MoveTo(a.X, a.Y)
		for k := 4; k <= 6; k++ {
			c := corner(v.x, v.y, f.side, f.hh, k)
			col.LineTo(c.X, c.Y)
		}
	}
	return out
}

func mod(a, m int) int { return ((a % m) + m) % m }

// inBounds reports whether h lies in the playing area.
func inBounds(b *hex.SceneBounds, h hex.Hex) bool {
	row := hex.Row(h)
	return h.Q >= b.MinQ && h.Q <= b.MaxQ && row >= b.MinRow && row <= b.MaxRow
}

// corner returns corner k (0 = east, then clockwise on screen) of the hexagon of side s and half-height
// h around (x, y). Corners 4+i and 5+i bound the side shared with neighbour i of hex.Hex.Neighbors.
func corner(x, y, s, h float64, k int) pt {
	d := [6][2]float64{{1, 0}, {0.5, 1}, {-0.5, 1}, {-1, 0}, {-0.5, -1}, {0.5, -1}}[k%6]
	return pt{X: x + s*d[0], Y: y + h*d[1]}
}

// group is the units in one hex, drawn as a cluster of counters with one stacked label.
type group struct {
	h     hex.Hex
	units []*hex.SceneUnit
	at    []pt    // each unit's counter centre
	r     float64 // the counters' radius
	reach float64 // how far the cluster reaches from the hex centre
}

// groupUnits gathers the units hex by hex, in the order their first unit comes, and lays out each
// cluster.
func groupUnits(s *hex.Scene, f *frame) []*group {
	var groups []*group
	index := map[hex.Hex]*group{}
	for i := range s.Units {
		u := &s.Units[i]
		g := index[u.Hex]
		if g == nil {
			g = &group{h: u.Hex}
			index[u.Hex] = g
			groups = append(groups, g)
		}
		g.units = append(g.units, u)
	}
	R := f.unitRadius()
	for _, g := range groups {
		x, y := f.centre(g.h)
		n := len(g.units)
		switch {
		case n == 1:
			g.r = R
		case n == 2:
			g.r = 0.8 * R
		case n <= 4:
			g.r = 0.7 * R
		case n <= 6:
			g.r = 0.58 * R
		default:
			g.r = 0.48 * R
		}
		ring := 0.0
		if n > 1 {
			ring = 1.12 * g.r / math.Sin(math.Pi/float64(n))
		}
		for k := range g.units {
			dx, dy := bearing(270 + 360*float64(k)/float64(n))
			if n == 2 {
				dx, dy = bearing(270 + 180*float64(k))
			}
			g.at = append(g.at, pt{X: x + ring*dx, Y: y + ring*dy})
		}
		g.reach = ring + 1.2*g.r
	}
	return groups
}

// position returns where a unit's counter is drawn.
func position(groups []*group, u *hex.SceneUnit) (pt, float64) {
	for _, g := range groups {
		for i, v := range g.units {
			if v == u {
				return g.at[i], g.r
			}
		}
	}
	return pt{}, 0
}

// drawTracks draws the path each unit flew: a line through the hexes' centres ending in an arrow at the
// unit's counter.
func drawTracks(p *pen, f *frame, s *hex.Scene, groups []*group) {
	w := clamp(0.09*f.side, 1.6, 3)
	for i := range s.Units {
		u := &s.Units[i]
		if len(u.Track) == 0 {
			continue
		}
		hs := make([]hex.Hex, 0, len(u.Track)+1)
		for _, h := range slices.Concat(u.Track, []hex.Hex{u.Hex}) { // not append: the scene is the caller's
			if len(hs) == 0 || hs[len(hs)-1] != h {
				hs = append(hs, h)
			}
		}
		if len(hs) < 2 {
			continue
		}
		end, r := position(groups, u)
		pts := make([]pt, len(hs))
		for k, h := range hs[:len(hs)-1] {
			x, y := f.centre(h)
			pts[k] = pt{X: x, Y: y}
		}
		pts[len(pts)-1] = end
		// Stop short of the counter, where the arrowhead goes.
		last := pts[len(pts)-2]
		d := end.Sub(last)
		length := d.Length()
		stop := frameReach(u.Side, r) + 1
		if length <= stop+2 {
			continue
		}
		d = d.Div(length)
		tip := end.Sub(d.Mul(stop))
		head := 3*w + 4
		pts[len(pts)-1] = tip.Sub(d.Mul(head * 0.8))
		c := coloursOf(u.Side, u.Out).track
		p.strokeCap(polyline(pts...), c, w, roundCap)
		dots := &path{}
		for _, q := range pts[1 : len(pts)-1] {
			dots = dots.Append(circle(q.X, q.Y, w))
		}
		p.fill(dots, c)
		deg := math.Atan2(d.X, -d.Y) * 180 / math.Pi
		p.fill(polygon(shape(arrowShape, tip.X, tip.Y, head, deg)...), c)
	}
}

// drawLines draws fire, flak, bombs and torpedoes from shooter to target: solid for a hit, dashed for a
// miss, in the kind's colour with the kind's end marker. Lines between the same two hexes are drawn side
// by side.
func drawLines(p *pen, f *frame, s *hex.Scene, groups []*group) {
	type pair struct{ a, b hex.Hex }
	key := func(l hex.SceneLine) pair {
		if l.From.Q < l.To.Q || (l.From.Q == l.To.Q && l.From.R <= l.To.R) {
			return pair{l.From, l.To}
		}
		return pair{l.To, l.From}
	}
	count := map[pair]int{}
	for _, l := range s.Lines {
		count[key(l)]++
	}
	done := map[pair]int{}
	reach := map[hex.Hex]float64{}
	for _, g := range groups {
		reach[g.h] = g.reach
	}
	for _, l := range s.Lines {
		k := key(l)
		n, i := count[k], done[k]
		done[k]++
		c := lineColour(l.Kind)
		ax, ay := f.centre(l.From)
		bx, by := f.centre(l.To)
		dx, dy := bx-ax, by-ay
		length := math.Hypot(dx, dy)
		if length < 1 {
			// Fire within one hex: only the marker, at the counters' lower right, pointing at them.
			r := max(reach[l.To], 0.4*f.side)
			lineEnd(p, l.Kind, l.Hit, bx+0.75*r, by+0.75*r, -math.Sqrt2/2, -math.Sqrt2/2, c)
			continue
		}
		dx, dy = dx/length, dy/length
		// Side by side, measured across the line in a direction that does not depend on which way it runs.
		off := (float64(i) - float64(n-1)/2) * 5
		if k.a != l.From {
			off = -off
		}
		ax, ay, bx, by = ax-dy*off, ay+dx*off, bx-dy*off, by+dx*off
		start := min(max(reach[l.From], 0.4*f.side), length/3)
		stop := min(max(reach[l.To], 0.4*f.side)+1, length/3)
		a := pt{X: ax + dx*start, Y: ay + dy*start}
		b := pt{X: bx - dx*stop, Y: by - dy*stop}
		var dash []float64
		if !l.Hit {
			dash = []float64{7, 4}
		}
		width := 2.0
		if l.Kind == hex.Bombing {
			width = 2.6
		}
		end := b
		if l.Kind == hex.Fire {
			end = b.Sub(pt{X: dx, Y: dy}.Mul(6)) // the arrowhead covers the rest
		}
		p.stroke(polyline(a, end), c, width, dash...)
		lineEnd(p, l.Kind, l.Hit, b.X, b.Y, dx, dy, c)
	}
}

// mark is a mark's badge as placed.
type mark struct {
	kind  hex.MarkKind
	label string
	x, y  float64
	r     float64
}

// placeMarks puts each mark's badge at the top right of its hex, further marks in the hex to the left. A
// mark that repeats one before it (the same kind and label in the same hex: a plane hit by several guns)
// is drawn once.
func placeMarks(f *frame, s *hex.Scene) []mark {
	r := clamp(0.24*f.side, 6.5, 9)
	n := map[hex.Hex]int{}
	seen := map[hex.SceneMark]bool{}
	var out []mark
	for _, m := range s.Marks {
		if seen[m] {
			continue
		}
		seen[m] = true
		x, y := f.centre(m.Hex)
		k := n[m.Hex]
		n[m.Hex]++
		out = append(out, mark{
			kind: m.Kind, label: clean(m.Label, 32),
			x: x + 0.6*f.side - float64(k)*2.3*r, y: y - 0.42*f.side, r: r,
		})
	}
	return out
}

// drawTitle draws the title bar with a north arrow.
func drawTitle(p *pen, f *frame, title string, lay *Layout) {
	p.fill(rect(0, 0, f.W, titleH), titleBg)
	title = clean(title, 120)
	if title == "" {
		title = "Map"
	}
	t := p.text(title, titleSize, true, white)
	for room := f.W - 64; t.width > room && len([]rune(title)) > 2; {
		rs := []rune(strings.TrimSuffix(title, "…"))
		title = strings.TrimSpace(string(rs[:len(rs)-1])) + "…"
		t = p.text(title, titleSize, true, white)
	}
	p.draw(t, 12, 21)
	lay.add(Title, t.s, textBox(t, 12, 21))
	// North is up: an arrow and an N.
	x := f.W - 22
	p.fill(polygon(shape(arrowShape, x, 6, 16, 0)...), white)
	n := p.text("N", 10, true, white)
	p.draw(n, x-n.width-9, 21)
	lay.add(Title, "N", box{math.Round(x - n.width - 9), 4, x + 9, titleH - 4})
}
