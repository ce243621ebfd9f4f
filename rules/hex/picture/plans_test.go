package picture

import (
	"encoding/xml"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"sortie/rules/hex"
)

// The plots being tried on the plotting board (hex.ScenePlan): drawn at their hexes, over the units and
// labels, framed, explained by the legend only when there, and nothing else in the picture changed.

// frameOf is the frame draw lays the scene out in.
func frameOf(t testing.TB, s hex.Scene) frame {
	t.Helper()
	fs, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	p := newPen(fs)
	shown, far := framed(&s)
	legend := legendItems(p, &shown, len(far) > 0)
	return layout(&shown, func(w float64) float64 {
		return captionHeight(captionLines(p, s.Caption, w)) + legendHeight(legend, w)
	})
}

// near reports whether some pixel within d of (x, y) is exactly c.
func near(img image.Image, x, y float64, d int, c color.RGBA) bool {
	for dy := -d; dy <= d; dy++ {
		for dx := -d; dx <= d; dx++ {
			if rgbaAt(img, x+float64(dx), y+float64(dy)) == c {
				return true
			}
		}
	}
	return false
}

// path6 is an own plane and its plot of six hexes north-east and on round to the east, ending faced 090,
// with an enemy plane in the plot's third hex and a target far off south that keeps the frame the same
// with or without the plot.
func path6() hex.Scene {
	return hex.Scene{
		Title: "plots",
		Units: []hex.SceneUnit{
			{Hex: hex.Hex{Q: 0, R: 0}, Facing: 2, Faced: true, Kind: hex.Aircraft, Side: hex.Own, Label: "RED1"},
			{Hex: hex.Hex{Q: 2, R: -2}, Facing: 8, Faced: true, Kind: hex.Aircraft, Side: hex.Enemy, Label: "HANS"},
			{Hex: hex.Hex{Q: -2, R: 9}, Kind: hex.Target, Side: hex.Friendly, Label: "DEPOT"},
			{Hex: hex.Hex{Q: 9, R: 4}, Kind: hex.Target, Side: hex.Friendly, Label: "BRIDGE"},
		},
		Plans: []hex.ScenePlan{{Label: "RED1", Path: []hex.Hex{{Q: 0, R: 0}, {Q: 1, R: -1}, {Q: 2, R: -2}, {Q: 3, R: -2}, {Q: 4, R: -2}, {Q: 5, R: -3}},
			Facing: 3, Faced: true, Legal: true}},
	}
}

// Each hex a plot passes between its first and last holds its dot in the plot's colour, over whatever
// unit is there; the end hex holds the hollow arrow pointing along the facing, hollow inside; and every
// pixel the plot changes lies along its path or in its label: it is drawn at its hexes and nowhere else.
func TestPlanDrawnAtItsHexes(t *testing.T) {
	with := path6()
	without := with
	without.Plans = nil
	f, f0 := frameOf(t, with), frameOf(t, without)
	if f.ox != f0.ox || f.oy != f0.oy || f.side != f0.side || f.W != f0.W || f.top != f0.top || f.bottom != f0.bottom {
		t.Fatalf("the test scene's map moved with the plot: %+v against %+v", f, f0)
	}
	img, img0 := decode(t, mustPNG(t, with)), decode(t, mustPNG(t, without))
	path := with.Plans[0].Path
	for _, h := range path[1 : len(path)-1] {
		x, y := f.centre(h)
		if got := rgbaAt(img, x, y); got != planInk {
			t.Errorf("hex %v of the plot is %v at its centre, want the plot's dot %v", h, got, planInk)
		}
	}
	// HANS's counter, drawn in its hex without the plot, is under the plot's dot with it.
	x, y := f.centre(hex.Hex{Q: 2, R: -2})
	if rgbaAt(img0, x, y) != sides[hex.Enemy].dark {
		t.Errorf("without the plot HANS's centre is %v, want its plane %v", rgbaAt(img0, x, y), sides[hex.Enemy].dark)
	}
	// The end: the arrow's tip lies 0.62 of its size east of the centre (facing 090), its back as far
	// west; the centre itself is hollow.
	end := path[len(path)-1]
	ex, ey := f.centre(end)
	k := 1.05 * f.unitRadius()
	if !near(img, ex+0.62*k, ey, 1, planInk) {
		t.Errorf("no arrow tip east of the end hex %v's centre", end)
	}
	if near(img, ex, ey-0.62*k, 1, planInk) || near(img, ex, ey+0.62*k, 1, planInk) {
		t.Errorf("the arrow at %v points north or south, not east along 090", end)
	}
	if got := rgbaAt(img, ex, ey); got != paper {
		t.Errorf("the end hex's centre is %v, want the paper through the hollow arrow", got)
	}
	// What changed lies within a hex of the path's centre line (its lines, dots, the arrow and the
	// arrow's label beside it), or in the legend below the map.
	// Labels keep off the plot, so they may move: their places with and without it are left out.
	var labels []Box
	for _, s := range []hex.Scene{with, without} {
		lay, err := LayoutOf(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range lay.Items {
			if it.Kind == Label {
				labels = append(labels, it.Box)
			}
		}
	}
	var centres []pt
	for _, h := range path {
		x, y := f.centre(h)
		centres = append(centres, pt{X: x, Y: y})
	}
	changed, stray := 0, 0
	b := img.Bounds().Intersect(img0.Bounds())
	for py := int(f.top); py < int(f.bottom) && py < b.Max.Y; py++ {
		for px := 0; px < b.Max.X; px++ {
			if rgbaAt(img, float64(px), float64(py)) == rgbaAt(img0, float64(px), float64(py)) {
				continue
			}
			changed++
			q := pt{X: float64(px) + 0.5, Y: float64(py) + 0.5}
			if distToPolyline(q, centres) <= 0.9*f.side || slices.ContainsFunc(labels, func(l Box) bool {
				return q.X >= l.X0-1 && q.X <= l.X1+1 && q.Y >= l.Y0-1 && q.Y <= l.Y1+1
			}) {
				continue
			}
			if stray++; stray <= 5 {
				t.Errorf("pixel (%d,%d) changed, away from the plot's hexes", px, py)
			}
		}
	}
	if changed < 200 {
		t.Errorf("only %d pixels of the map changed with the plot", changed)
	}
}

// distToPolyline is the distance from q to the line through pts.
func distToPolyline(q pt, pts []pt) float64 {
	d := math.Inf(1)
	if len(pts) == 1 {
		return q.Sub(pts[0]).Length()
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		ab := b.Sub(a)
		t := clamp(q.Sub(a).dot(ab)/ab.dot(ab), 0, 1)
		d = min(d, q.Sub(a.Add(ab.Mul(t))).Length())
	}
	return d
}

// A plot ending in an enemy's hex draws its end over the enemy's counter; a unit's label is put where no
// plot's line or end lies, so the plot is never covered: every pixel along the plot's centre line, away
// from the counters it starts and ends on, is the plot's colour or what a dash's gap leaves.
func TestPlanAboveUnitsAndLabels(t *testing.T) {
	s := path6()
	// A unit below the plot's line, whose label would go to its right, across the plot's fifth hex.
	s.Units = append(s.Units, hex.SceneUnit{Hex: hex.Hex{Q: 2, R: -1}, Facing: 4, Faced: true, Kind: hex.Aircraft, Side: hex.Friendly,
		Label: "BLUE WITH A LONG NAME", Notes: []string{"alt 12", "speed 4"}})
	s.Plans[0].Path = append(s.Plans[0].Path, hex.Hex{Q: 6, R: -3})
	s.Units = append(s.Units, hex.SceneUnit{Hex: hex.Hex{Q: 6, R: -3}, Facing: 9, Faced: true, Kind: hex.Aircraft, Side: hex.Enemy, Label: "KURT"})
	f := frameOf(t, s)
	img := decode(t, mustPNG(t, s))
	ex, ey := f.centre(hex.Hex{Q: 6, R: -3})
	k := 1.05 * f.unitRadius()
	if !near(img, ex+0.62*k, ey, 1, planInk) {
		t.Error("the plot's arrow is not drawn over KURT's counter")
	}
	lay, err := LayoutOf(s)
	if err != nil {
		t.Fatal(err)
	}
	var centres []pt
	for _, h := range s.Plans[0].Path {
		x, y := f.centre(h)
		centres = append(centres, pt{X: x, Y: y})
	}
	for _, it := range lay.Items {
		if it.Kind != Label {
			continue
		}
		for i := 1; i < len(centres); i++ {
			for j := 0; j <= 20; j++ {
				q := centres[i-1].lerp(centres[i], float64(j)/20)
				if q.X > it.Box.X0 && q.X < it.Box.X1 && q.Y > it.Box.Y0 && q.Y < it.Box.Y1 {
					t.Errorf("the label %q at %v lies on the plot's line at (%.0f,%.0f)", it.Text, it.Box, q.X, q.Y)
					j = 20
				}
			}
		}
	}
	checkLayout(t, "plot beside a label", s)
}

// A plot with errors is drawn as far as it reads, dotted in the warning colour, its label saying it has
// errors; the legend names each kind of plot only when one is drawn; a plot of no hexes is not drawn.
func TestPlanWithErrorsAndLegend(t *testing.T) {
	s := path6()
	s.Plans[0].Legal = false
	f := frameOf(t, s)
	img := decode(t, mustPNG(t, s))
	for _, h := range s.Plans[0].Path[1:5] {
		x, y := f.centre(h)
		if got := rgbaAt(img, x, y); got != warnInk {
			t.Errorf("hex %v of the plot with errors is %v, want %v", h, got, warnInk)
		}
	}
	legendHas := func(s hex.Scene) (plot, errs, note bool) {
		svg := mustSVG(t, s)
		return strings.Contains(svg, ">plot<"), strings.Contains(svg, ">plot with errors<"), strings.Contains(svg, ">"+planErrorNote+"<")
	}
	both := path6()
	both.Plans = append(both.Plans, hex.ScenePlan{Label: "RED1", Path: []hex.Hex{{Q: 0, R: 0}, {Q: 0, R: 1}}})
	none := path6()
	none.Plans = nil
	empty := path6()
	empty.Plans = []hex.ScenePlan{{Label: "RED1", Legal: false}}
	for _, c := range []struct {
		name             string
		s                hex.Scene
		plot, errs, note bool
	}{
		{"legal", path6(), true, false, false},
		{"with errors", s, false, true, true},
		{"both", both, true, true, true},
		{"none", none, false, false, false},
		{"no hexes", empty, false, false, false},
	} {
		plot, errs, note := legendHas(c.s)
		if plot != c.plot || errs != c.errs || note != c.note {
			t.Errorf("%s: legend \"plot\" %v, \"plot with errors\" %v, label note %v; want %v, %v, %v", c.name, plot, errs, note, c.plot, c.errs, c.note)
		}
	}
	if a, b := mustSVG(t, none), mustSVG(t, empty); a != b {
		t.Error("a plot of no hexes changed the picture")
	}
}

// A plot of one hex (or of one hex repeated: a unit that stays) is only its end symbol: no line, no dots.
// Unfaced, the symbol is a hollow ring round the hex's centre.
func TestPlanOfOneHex(t *testing.T) {
	for _, path := range [][]hex.Hex{{{Q: 0, R: 0}}, {{Q: 0, R: 0}, {Q: 0, R: 0}, {Q: 0, R: 0}}} {
		s := path6()
		s.Plans = []hex.ScenePlan{{Label: "RED1", Path: path, Legal: true}}
		p, lay, err := draw(&s)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range p.ops {
			if o.kind == opText || o.p.subs[0].pts[0].Y > lay.Map.Y1 {
				continue // the legend's sample
			}
			if o.kind == opStroke && o.line == planInk && len(o.dashes) > 0 {
				t.Errorf("a plot of one hex draws a dashed line %v", o.p.subs[0].pts)
			}
			if o.kind == opFill && o.fill == planInk {
				t.Errorf("a plot of one hex draws dots %v", o.p.subs[0].pts[0])
			}
		}
		f := frameOf(t, s)
		x, y := f.centre(hex.Hex{})
		ends := 0
		for _, it := range lay.Items {
			if it.Kind == PlanEnd {
				ends++
				if c := ((it.Box.X0 + it.Box.X1) / 2); math.Abs(c-x) > 0.01 || math.Abs((it.Box.Y0+it.Box.Y1)/2-y) > 0.01 {
					t.Errorf("the end symbol at %v is not centred on the hex's centre (%v,%v)", it.Box, x, y)
				}
			}
		}
		if ends != 1 {
			t.Errorf("%d end symbols, want 1", ends)
		}
		img := decode(t, mustPNG(t, s))
		k := 1.05 * f.unitRadius()
		for _, deg := range []float64{0, 90, 180, 270} {
			dx, dy := bearing(deg)
			if !near(img, x+dx*0.5*k, y+dy*0.5*k, 1, planInk) {
				t.Errorf("no ring at bearing %v round the hex", deg)
			}
		}
	}
}

// A plot that leaves the area of the report's units is framed whole, its end on the map; beyond the
// playing area its hexes are still shaded as off the map, with the plot drawn over them. A unit's
// label is not pushed off by it.
func TestPlanFramed(t *testing.T) {
	s := hex.Scene{
		Bounds: &hex.SceneBounds{MinQ: -3, MaxQ: 6, MinRow: -3, MaxRow: 6},
		Units: []hex.SceneUnit{
			{Hex: hex.Hex{Q: 0, R: 0}, Facing: 6, Faced: true, Kind: hex.Aircraft, Side: hex.Own, Label: "RED1"},
			{Hex: hex.Hex{Q: 2, R: 0}, Facing: 6, Faced: true, Kind: hex.Aircraft, Side: hex.Own, Label: "RED2"},
		},
	}
	var path []hex.Hex
	for r := range 26 {
		path = append(path, hex.Hex{Q: 0, R: r})
	}
	s.Plans = []hex.ScenePlan{{Label: "RED1", Path: path, Facing: 6, Faced: true, Legal: true}}
	lay, err := LayoutOf(s)
	if err != nil {
		t.Fatal(err)
	}
	end := slices.IndexFunc(lay.Items, func(it Item) bool { return it.Kind == PlanEnd })
	if end < 0 || !lay.Items[end].Box.Within(lay.Map) {
		t.Fatalf("the plot's end is not on the map %v: %+v", lay.Map, lay.Items)
	}
	f := frameOf(t, s)
	img := decode(t, mustPNG(t, s))
	for _, h := range path[1 : len(path)-1] {
		x, y := f.centre(h)
		if got := rgbaAt(img, x, y); got != planInk {
			t.Errorf("hex %v of the plot is %v, want %v", h, got, planInk)
		}
	}
	// Off the playing area, beside the plot: row 20 is beyond MaxRow 6.
	x, y := f.centre(hex.Hex{Q: 0, R: 20})
	if got := rgbaAt(img, x+0.5*f.side, y); got != offMap {
		t.Errorf("beside the plot off the map is %v, want %v", got, offMap)
	}
	checkLayout(t, "plot off the map", s)
}

// The SVG draws each plot over everything on the map: its line, dots and end come after every label of
// the map and before the title bar; its line is dashed with round ends, dotted for one with errors; its
// end is an outline over a white halo, and its label is text.
func TestPlanSVG(t *testing.T) {
	s := board()
	svg := mustSVG(t, s)
	type el struct {
		name  string
		attrs map[string]string
		text  string
	}
	var els []el
	inSpan := false
	eachToken(t, svg, func(tok xml.Token) {
		switch v := tok.(type) {
		case xml.EndElement:
			inSpan = false
		case xml.StartElement:
			inSpan = v.Name.Local == "tspan"
			if v.Name.Local == "path" || v.Name.Local == "text" {
				e := el{name: v.Name.Local, attrs: map[string]string{}}
				for _, a := range v.Attr {
					e.attrs[a.Name.Local] = a.Value
				}
				els = append(els, e)
			}
		case xml.CharData:
			if inSpan && len(els) > 0 && els[len(els)-1].name == "text" {
				els[len(els)-1].text += string(v)
			}
		}
	})
	index := func(f func(e el) bool) (first, last int) {
		first, last = -1, -1
		for i, e := range els {
			if f(e) {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		return first, last
	}
	blue, warn := hexColour(planInk), hexColour(warnInk)
	_, lastMapLabel := index(func(e el) bool {
		return e.name == "text" && (e.text == "Bf 109 E" || e.text == "Blue 2" || e.text == planErrorNote)
	})
	title, _ := index(func(e el) bool { return e.name == "text" && e.text == s.Title })
	dashed := func(c string) func(e el) bool {
		return func(e el) bool {
			return e.name == "path" && e.attrs["stroke"] == c && e.attrs["stroke-dasharray"] != "" && e.attrs["stroke-linecap"] == "round" && e.attrs["fill"] == "none"
		}
	}
	halo := func(e el) bool {
		return e.name == "path" && e.attrs["stroke"] == "#ffffff" && e.attrs["fill"] == "none"
	}
	outline := func(e el) bool {
		return e.name == "path" && (e.attrs["stroke"] == blue || e.attrs["stroke"] == warn) && e.attrs["fill"] == "none" && e.attrs["stroke-dasharray"] == ""
	}
	dots := func(e el) bool {
		return e.name == "path" && (e.attrs["fill"] == blue || e.attrs["fill"] == warn) && e.attrs["stroke"] == ""
	}
	plan := func(e el) bool { return dashed(blue)(e) || dashed(warn)(e) || halo(e) || outline(e) || dots(e) }
	firstPlan, _ := index(plan)
	lastPlan := -1
	for i, e := range els[:max(title, 0)] {
		if plan(e) {
			lastPlan = i
		}
	}
	if lastMapLabel < 0 || title < 0 || firstPlan < lastMapLabel || lastPlan < 0 {
		t.Errorf("the plots' elements from %d are not between the map's last label %d and the title %d", firstPlan, lastMapLabel, title)
	}
	// Two plots with a line (Red 1's legal, Red 2's with errors), each drawn once on the map; the legend's
	// samples come after the title.
	count := func(f func(e el) bool) int {
		n := 0
		for i, e := range els {
			if i < title && f(e) {
				n++
			}
		}
		return n
	}
	if n := count(dashed(blue)); n != 1 {
		t.Errorf("%d dashed lines in the own colour on the map, want 1 (Red 1's plot)", n)
	}
	if n := count(dashed(warn)); n != 1 {
		t.Errorf("%d dotted lines in the warning colour on the map, want 1 (Red 2's plot)", n)
	}
	if h, o := count(halo), count(outline); h != 3 || o != 3 {
		t.Errorf("%d haloes and %d outlines of plots' ends on the map, want 3 of each", h, o)
	}
	if n := count(dots); n != 2 {
		t.Errorf("%d paths of dots on the map, want 2 (Red 1's and Red 2's plots)", n)
	}
	for _, want := range []string{"Red 1", "Red 2", "Red 3", planErrorNote, "plot", "plot with errors"} {
		if i, _ := index(func(e el) bool { return e.name == "text" && e.text == want }); i < 0 {
			t.Errorf("no text %q", want)
		}
	}
}

// A plot's label is in the picture exactly when its plot is.
func TestPlanLabelOnlyWithItsPlan(t *testing.T) {
	s := path6()
	s.Plans[0].Label = "Plotted9x"
	if !strings.Contains(mustSVG(t, s), ">Plotted9x<") {
		t.Error("the plot's label is missing")
	}
	s.Plans = nil
	if strings.Contains(mustSVG(t, s), "Plotted9x") {
		t.Error("the picture without the plot shows its label")
	}
}

// The board's pictures hold to the layout's rules: no writing over writing or a marker (plots' ends
// included), nothing cut by the frame.
func TestPlanScenesLayout(t *testing.T) {
	for _, s := range []hex.Scene{board(), side20(true), path6()} {
		checkLayout(t, s.Title, s)
	}
}

// A plot is part of the action the map frames: of two enemies, one by the plot's end and one as far the
// other way, the one by the plot's end is on the map and the other, which would widen it past its
// readable size, is a marker on its edge.
func TestPlanIsAction(t *testing.T) {
	var path []hex.Hex
	for r := 0; r >= -24; r-- {
		path = append(path, hex.Hex{Q: 0, R: r})
	}
	s := hex.Scene{
		Units: []hex.SceneUnit{
			{Hex: hex.Hex{Q: 0, R: 0}, Faced: true, Kind: hex.Aircraft, Side: hex.Own, Label: "RED1"},
			{Hex: hex.Hex{Q: 0, R: -25}, Faced: true, Facing: 6, Kind: hex.Aircraft, Side: hex.Enemy, Label: "BY THE END"},
			{Hex: hex.Hex{Q: 0, R: 10}, Faced: true, Kind: hex.Aircraft, Side: hex.Enemy, Label: "BEHIND"},
		},
		Plans: []hex.ScenePlan{{Label: "RED1", Path: path, Faced: true, Legal: true}},
	}
	lay, err := LayoutOf(s)
	if err != nil {
		t.Fatal(err)
	}
	kind := map[string]ItemKind{}
	for _, it := range lay.Items {
		if it.Kind.Marker() && it.Kind != PlanEnd {
			kind[it.Text] = it.Kind
		}
	}
	if kind["BY THE END"] != Counter || kind["BEHIND"] != EdgeMarker {
		t.Errorf("the enemy by the plot's end is drawn as %v, the one behind as %v; want a counter and an edge marker", kind["BY THE END"], kind["BEHIND"])
	}
	checkLayout(t, "plot as action", s)
}
