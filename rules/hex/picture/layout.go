package picture

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"sortie/rules/hex"
)

// Layout is where a picture put what it drew, in pixels (x east, y south, from the top left corner): the
// picture's size, the map's area and a box for every counter, badge, edge marker, plot's end symbol,
// label, caption line, legend entry and hex coordinate. draw records it as it places each thing, and
// draws from the same numbers, so it is the picture's own account of itself, not a second computation.
type Layout struct {
	W, H  float64
	Map   Box // the map, between the title bar and the caption strip
	Items []Item
}

// Box is a rectangle in pixels.
type Box struct{ X0, Y0, X1, Y1 float64 }

// Overlaps reports whether two boxes share some area (touching edges do not count).
func (b Box) Overlaps(o Box) bool {
	return min(b.X1, o.X1) > max(b.X0, o.X0) && min(b.Y1, o.Y1) > max(b.Y0, o.Y0)
}

// Within reports whether b lies wholly inside o.
func (b Box) Within(o Box) bool {
	return b.X0 >= o.X0 && b.Y0 >= o.Y0 && b.X1 <= o.X1 && b.Y1 <= o.Y1
}

// ItemKind is what a laid-out item is.
type ItemKind int

// The item kinds. Markers (counters, badges, edge markers, plots' ends) and writing (labels, the title,
// caption lines, legend entries) are the foreground: no writing covers other writing or a marker.
// Coordinates are the paper's, printed faintly under everything.
const (
	Counter     ItemKind = iota // a unit's counter
	Badge                       // a mark's badge (shot down, bail-out, …)
	EdgeMarker                  // the arrow at the map's edge towards a unit beyond it
	Label                       // a label block: a hex's units, a mark's words, a far unit's bearing
	Title                       // the title bar's text and north arrow
	CaptionLine                 // a line of the caption strip
	LegendEntry                 // a legend entry: its sample and its words
	Coordinate                  // a hex's coordinates, printed on the paper
	PlanEnd                     // the end symbol of a plot being tried (a hollow arrow or ring)
)

// Writing reports whether the item is words, which must not cover other words or markers.
func (k ItemKind) Writing() bool {
	return k == Label || k == Title || k == CaptionLine || k == LegendEntry
}

// Marker reports whether the item is a symbol on the map that words must not cover.
func (k ItemKind) Marker() bool { return k == Counter || k == Badge || k == EdgeMarker || k == PlanEnd }

func (k ItemKind) String() string {
	return [...]string{"counter", "badge", "edge marker", "label", "title", "caption line", "legend entry", "coordinate", "plot's end"}[k]
}

// Item is one thing drawn and the box it covers.
type Item struct {
	Kind ItemKind
	Text string // the words, or the unit's label for a marker
	Box  Box
}

// LayoutOf draws the scene as PNG and SVG do and returns where it put everything.
func LayoutOf(s hex.Scene) (Layout, error) {
	_, lay, err := draw(&s)
	if err != nil {
		return Layout{}, err
	}
	return *lay, nil
}

func (l *Layout) add(k ItemKind, text string, b box) {
	l.Items = append(l.Items, Item{Kind: k, Text: text, Box: Box{b.x0, b.y0, b.x1, b.y1}})
}

// textBox is the box of a span drawn with its baseline starting at (x, y), as pen.draw rounds it.
func textBox(sp span, x, y float64) box {
	x, y = math.Round(x), math.Round(y)
	return box{x, y - 0.8*sp.size, x + sp.width, y + 0.25*sp.size}
}

// readableSide is the smallest hex side, in pixels, that a picture of the target size keeps when it
// frames units beyond its own side's: each hex's coordinates stay printed and legible. A unit that would
// need smaller hexes is shown by an edge marker instead.
const readableSide = 24.0

// cloudReach is how far from the action (in hex widths, 1.5 a column) a cloud may lie and still widen
// the map: the clouds next to the action are shown, a distant bank does not stretch the map.
const cloudReach = 4.5

// framed splits a scene into what the map frames and the units beyond it. The side's own and friendly
// aircraft and squadrons in play, their tracks, the lines, the marks and the plots being tried are always
// framed (the action); the other units (ground units too, which may lie far from the fight),
// and the clouds within cloudReach of the action, nearest first, join while the map still fits the
// target size with hexes of at least readableSide. A scene with no own or friendly aircraft or
// squadron in play frames everything. The scene given is not changed: the result has slices of its own.
func framed(s *hex.Scene) (shown hex.Scene, far []hex.SceneUnit) {
	shown = *s
	core := func(u *hex.SceneUnit) bool {
		return !u.Out && (u.Side == hex.Own || u.Side == hex.Friendly) && (u.Kind == hex.Aircraft || u.Kind == hex.Squadron)
	}
	if !slices.ContainsFunc(s.Units, func(u hex.SceneUnit) bool { return core(&u) }) {
		return shown, nil
	}
	b := span2{minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1)}
	for i := range s.Units {
		if u := &s.Units[i]; core(u) {
			b = b.with(u.Hex).with(u.Track...)
		}
	}
	for _, l := range s.Lines {
		b = b.with(l.From, l.To)
	}
	for _, m := range s.Marks {
		b = b.with(m.Hex)
	}
	for _, p := range s.Plans {
		b = b.with(p.Path...)
	}
	maxW := (targetW - 2*margin) / readableSide
	maxH := (targetH - 2*margin) / readableSide / sqrt3
	fits := func(c span2) bool { return c.maxX-c.minX+2 <= maxW && c.maxY-c.minY+1 <= maxH }

	type cand struct {
		unit int // index in s.Units, or -1 for a cloud
		hs   []hex.Hex
		d    float64
	}
	var cands []cand
	for i := range s.Units {
		if u := &s.Units[i]; !core(u) {
			hs := append([]hex.Hex{u.Hex}, u.Track...)
			cands = append(cands, cand{i, hs, b.distance(u.Hex)})
		}
	}
	for _, c := range s.Clouds {
		if d := b.distance(c); d <= cloudReach {
			cands = append(cands, cand{-1, []hex.Hex{c}, d + 0.5})
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int { return cmp.Compare(x.d, y.d) })
	isFar := map[int]bool{}
	var clouds []hex.Hex
	for _, c := range cands {
		ext := b.with(c.hs...)
		switch {
		case fits(ext) || ext == b:
			b = ext
			if c.unit < 0 {
				clouds = append(clouds, c.hs[0])
			}
		case c.unit >= 0:
			isFar[c.unit] = true
		}
	}
	shown.Units = nil
	for i, u := range s.Units {
		if isFar[i] {
			far = append(far, u)
		} else {
			shown.Units = append(shown.Units, u)
		}
	}
	shown.Clouds = clouds
	return shown, far
}

// span2 is the extent of some hexes in columns (x = 1.5·q) and rows (y = r + q/2), centre to centre.
type span2 struct{ minX, minY, maxX, maxY float64 }

func (b span2) with(hs ...hex.Hex) span2 {
	for _, h := range hs {
		x, y := 1.5*float64(h.Q), float64(h.R)+float64(h.Q)/2
		b.minX, b.maxX = min(b.minX, x), max(b.maxX, x)
		b.minY, b.maxY = min(b.minY, y), max(b.maxY, y)
	}
	return b
}

// distance is how far h lies outside the extent, in columns and rows.
func (b span2) distance(h hex.Hex) float64 {
	x, y := 1.5*float64(h.Q), float64(h.R)+float64(h.Q)/2
	dx := max(b.minX-x, 0, x-b.maxX)
	dy := max(b.minY-y, 0, y-b.maxY) * sqrt3
	return math.Hypot(dx, dy)
}

// edgeMarker is a unit beyond the map, drawn as an arrow on the map's edge pointing towards it.
type edgeMarker struct {
	u     *hex.SceneUnit
	x, y  float64 // the arrow's centre
	deg   float64 // the way it points, clockwise from north
	r     float64
	notes string // distance and bearing from the nearest own unit
}

// edgeMarkers places an arrow for each far unit on the map's edge, slid along the edge where arrows would
// touch. It tells the distance and the bearing from the viewing side's nearest unit in play on the map.
func edgeMarkers(f *frame, shown *hex.Scene, far []hex.SceneUnit) []*edgeMarker {
	if len(far) == 0 {
		return nil
	}
	const r, inset = 8.0, 12.0
	x0, y0, x1, y1 := inset+r, f.top+inset+r, f.W-inset-r, f.bottom-inset-r
	cx, cy := (x0+x1)/2, (y0+y1)/2
	var out []*edgeMarker
	for i := range far {
		u := &far[i]
		// The arrow lies where the line from the viewing side's nearest unit on the map (else the
		// map's centre) to the far unit leaves the map, and points along it, so it agrees with the
		// bearing it gives.
		var ref *hex.SceneUnit
		for k := range shown.Units {
			o := &shown.Units[k]
			if o.Out || (o.Side != hex.Own && o.Side != hex.Friendly) {
				continue
			}
			if ref == nil || hex.Distance(o.Hex, u.Hex) < hex.Distance(ref.Hex, u.Hex) {
				ref = o
			}
		}
		ox, oy := cx, cy
		if ref != nil {
			ox, oy = f.centre(ref.Hex)
			ox, oy = clamp(ox, x0, x1), clamp(oy, y0, y1)
		}
		ux, uy := f.centre(u.Hex)
		dx, dy := ux-ox, uy-oy
		// The ray first crosses the side of the inset rectangle it heads for.
		t := math.Inf(1)
		switch {
		case dx > 0:
			t = min(t, (x1-ox)/dx)
		case dx < 0:
			t = min(t, (x0-ox)/dx)
		}
		switch {
		case dy > 0:
			t = min(t, (y1-oy)/dy)
		case dy < 0:
			t = min(t, (y0-oy)/dy)
		}
		if math.IsInf(t, 1) || math.IsNaN(t) {
			t = 0
		}
		m := &edgeMarker{u: u, x: math.Round(ox + t*dx), y: math.Round(oy + t*dy), deg: math.Atan2(dx, -dy) * 180 / math.Pi, r: r}
		// Slide along the edge until clear of the arrows placed.
		for step := 0; step < 200 && slices.ContainsFunc(out, func(o *edgeMarker) bool { return math.Hypot(o.x-m.x, o.y-m.y) < 2.5*r }); step++ {
			if m.x <= x0 || m.x >= x1 {
				m.y = min(y1, max(y0, m.y+2.5*r))
				if m.y >= y1 {
					m.y, m.x = y1, m.x-2.5*r*math.Copysign(1, m.x-cx)
				}
			} else {
				m.x = min(x1, max(x0, m.x+2.5*r))
				if m.x >= x1 {
					m.x, m.y = x1, m.y-2.5*r*math.Copysign(1, m.y-cy)
				}
			}
		}
		if ref != nil {
			m.notes = fmt.Sprintf("%d hexes, bearing %03.0f° from %s", hex.Distance(ref.Hex, u.Hex), math.Mod(math.Round(hex.Bearing(ref.Hex, u.Hex)), 360), clean(ref.Label, 24))
		}
		out = append(out, m)
	}
	return out
}
