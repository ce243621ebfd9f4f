package picture

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/image/font/sfnt"

	"sortie/internal/golden"
	"sortie/rules/hex"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata")

const fix = "go test ./rules/hex/picture -update"

func mustPNG(t testing.TB, s hex.Scene) []byte {
	t.Helper()
	b, err := PNG(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustSVG(t testing.TB, s hex.Scene) string {
	t.Helper()
	b, err := SVG(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decode(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// eachToken hands f every token of svg in order, and fails the test where svg is not well-formed XML.
func eachToken(t *testing.T, svg string, f func(xml.Token)) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		f(tok)
	}
}

// The golden pictures: every unit kind for every side, every line and mark kind, clouds, bounds and units
// out of play; the empty scene; and the plotting board's plots over a dogfight.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		s    hex.Scene
	}{
		{"everything", everything()},
		{"empty", hex.Scene{Title: "Kent 1940 · turn 1 · RAF"}},
		{"board", board()},
	} {
		t.Run(c.name, func(t *testing.T) {
			golden.PNG(t, filepath.Join("testdata", c.name+".png"), mustPNG(t, c.s), *update, fix)
			golden.File(t, filepath.Join("testdata", c.name+".svg"), []byte(mustSVG(t, c.s)), *update, fix)
		})
	}
}

// The scene used by the golden test uses every kind the picture knows, so the golden pictures show them
// all.
func TestEverythingHasEverything(t *testing.T) {
	s := everything()
	for _, a := range []hex.Allegiance{hex.Own, hex.Friendly, hex.Enemy} {
		for _, k := range hex.UnitKinds {
			if !slicesContainsFunc(s.Units, func(u hex.SceneUnit) bool { return u.Side == a && u.Kind == k }) {
				t.Errorf("no %v unit of kind %v", a, k)
			}
		}
	}
	for _, k := range hex.LineKinds {
		for _, hit := range []bool{true, false} {
			if !slicesContainsFunc(s.Lines, func(l hex.SceneLine) bool { return l.Kind == k && l.Hit == hit }) {
				t.Errorf("no line of kind %v with hit %v", k, hit)
			}
		}
	}
	for _, k := range hex.MarkKinds {
		if !slicesContainsFunc(s.Marks, func(m hex.SceneMark) bool { return m.Kind == k }) {
			t.Errorf("no mark of kind %v", k)
		}
	}
	if len(s.Clouds) == 0 || s.Bounds == nil || !slicesContainsFunc(s.Units, func(u hex.SceneUnit) bool { return u.Out }) ||
		!slicesContainsFunc(s.Units, func(u hex.SceneUnit) bool { return !u.Faced }) {
		t.Error("the scene lacks clouds, bounds, a unit out of play or an unfaced unit")
	}
}

func slicesContainsFunc[T any](s []T, f func(T) bool) bool {
	for _, v := range s {
		if f(v) {
			return true
		}
	}
	return false
}

// The same scene gives the same bytes, run after run (Go shuffles map iteration every time) and from
// goroutines at once.
func TestDeterministic(t *testing.T) {
	for _, s := range []hex.Scene{everything(), crowd(40, 12, 6), {}, board(), side20(true)} {
		wantPNG, wantSVG := mustPNG(t, s), mustSVG(t, s)
		var wg sync.WaitGroup
		errs := make(chan string, 12)
		for range 4 {
			wg.Go(func() {
				for range 2 {
					c := s
					c.Units = append([]hex.SceneUnit(nil), s.Units...)
					c.Plans = append([]hex.ScenePlan(nil), s.Plans...)
					if p, err := PNG(c); err != nil || !bytes.Equal(p, wantPNG) {
						errs <- fmt.Sprintf("PNG of %q differs (%v)", s.Title, err)
					}
					if v, err := SVG(c); err != nil || string(v) != wantSVG {
						errs <- fmt.Sprintf("SVG of %q differs (%v)", s.Title, err)
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}

// Every number in the SVG's drawing is a finite decimal: no NaN, no infinity, nothing a float's printing
// might vary on.
func TestSVGNumbers(t *testing.T) {
	svg := mustSVG(t, everything())
	body := regexp.MustCompile(`(?s)<style>.*?</style>`).ReplaceAllString(svg, "")
	for _, bad := range []string{"NaN", "Inf", "inf"} {
		if strings.Contains(body, bad) {
			t.Errorf("the SVG contains %q", bad)
		}
	}
	attr := regexp.MustCompile(` (?:d|x|y|width|height|viewBox|stroke-width|stroke-dasharray)="([^"]*)"`)
	num := regexp.MustCompile(`-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?`)
	n := 0
	for _, m := range attr.FindAllStringSubmatch(body, -1) {
		for _, v := range num.FindAllString(m[1], -1) {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) > 1e5 {
				t.Errorf("number %q in %s", v, m[0][:min(len(m[0]), 60)])
			}
			n++
		}
	}
	if n < 1000 {
		t.Errorf("only %d numbers checked: the pattern misses the drawing", n)
	}
}

// A unit's label and notes appear in the picture exactly when the unit is in the scene: the picture
// shows a side nothing its scene does not hold.
func TestLabelsOnlyOfUnitsInScene(t *testing.T) {
	base := everything()
	for i := range base.Units {
		base.Units[i].Label = fmt.Sprintf("Unit%02dx", i)
		base.Units[i].Notes = []string{fmt.Sprintf("Note%02dy", i), fmt.Sprintf("Fact%02dz", i)}
	}
	for i := range base.Marks {
		base.Marks[i].Label = ""
	}
	full := mustSVG(t, base)
	for _, u := range base.Units {
		for _, s := range append([]string{u.Label}, u.Notes...) {
			if !strings.Contains(full, s) {
				t.Errorf("%q is missing from the picture of the whole scene", s)
			}
		}
	}
	for i, gone := range base.Units {
		s := base
		s.Units = append(append([]hex.SceneUnit(nil), base.Units[:i]...), base.Units[i+1:]...)
		svg := mustSVG(t, s)
		for _, str := range append([]string{gone.Label}, gone.Notes...) {
			if strings.Contains(svg, str) {
				t.Errorf("without %s the picture still shows %q", gone.Label, str)
			}
		}
		for _, u := range s.Units {
			if !strings.Contains(svg, u.Label) {
				t.Errorf("without %s the picture lost %s", gone.Label, u.Label)
			}
		}
	}
	// Labels are text, escaped.
	s := hex.Scene{Units: []hex.SceneUnit{{Kind: hex.Aircraft, Label: "R&D <1>", Notes: []string{`"alt" 5`}}}}
	if svg := mustSVG(t, s); !strings.Contains(svg, "R&amp;D &lt;1&gt;") || strings.Contains(svg, "<1>") {
		t.Errorf("the label is not escaped:\n%s", svg[:min(len(svg), 2000)])
	}
}

// The legend names what the picture shows and nothing else.
func TestLegendOnlyWhatShows(t *testing.T) {
	s := hex.Scene{Units: []hex.SceneUnit{{Hex: hex.Hex{Q: 2, R: 1}, Kind: hex.Aircraft, Side: hex.Own, Label: "Red 1"}}}
	svg := mustSVG(t, s)
	for _, want := range []string{">own<", ">aircraft<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the legend lacks %s", want)
		}
	}
	for _, not := range []string{"enemy", "friendly", "squadron", "ship", "flak", "guns", "missed", "cloud", "off the map", "out of play", "track", "shot down", "plot", "plot with errors"} {
		if strings.Contains(svg, ">"+not+"<") {
			t.Errorf("the legend shows %q, which the picture does not", not)
		}
	}
	all := mustSVG(t, everything())
	for _, not := range []string{"plot", "plot with errors"} {
		if strings.Contains(all, ">"+not+"<") {
			t.Errorf("the legend of a report's picture, which has no plots, shows %q", not)
		}
	}
	for _, n := range []string{"aircraft", "squadron", "vehicle", "ship", "target", "flak gun", "own", "friendly", "enemy", "guns", "flak", "bombs", "torpedo", "missed", "shot down", "bailed out",
		"crashed", "hit", "damaged", "left the map", "cloud", "off the map", "out of play", "track flown"} {
		if !strings.Contains(all, ">"+n+"<") {
			t.Errorf("the legend of everything lacks %q", n)
		}
	}
}

// far is a scene spread wide: units, a track and a mark in far corners.
func far(q int) hex.Scene {
	s := hex.Scene{Title: "far"}
	for i, h := range []hex.Hex{{Q: 0, R: 0}, {Q: q, R: -q / 2}, {Q: -q / 3, R: q}, {Q: q / 5, R: q}, {Q: q, R: -q}} {
		s.Units = append(s.Units, hex.SceneUnit{Hex: h, Kind: hex.Target, Side: hex.Own, Label: fmt.Sprintf("T%d", i)})
	}
	s.Units[0].Track = []hex.Hex{{Q: -q / 2, R: -q / 4}, {Q: -q/2 + 1, R: -q / 4}}
	s.Marks = []hex.SceneMark{{Hex: hex.Hex{Q: q / 2, R: q / 2}, Kind: hex.Burst}}
	return s
}

// Every hex the scene draws in lies inside the map, with room for its counter, at the pixel the frame
// says; and the PNG is the frame's size with each target's dot at its hex's centre.
func TestFraming(t *testing.T) {
	for _, c := range []struct {
		name       string
		s          hex.Scene
		checkPixel bool
	}{
		{"near", far(3), true},
		{"wide", far(40), true},
		{"wider", far(90), true},
		{"huge", far(2000), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs, err := loadFonts()
			if err != nil {
				t.Fatal(err)
			}
			legend := legendItems(newPen(fs), &c.s, false)
			f := layout(&c.s, func(w float64) float64 { return legendHeight(legend, w) })
			r := f.unitRadius() * 1.16
			for _, h := range c.s.Hexes() {
				x, y := f.centre(h)
				if x-r < 0 || x+r > f.W || y-r < f.top || y+r > f.bottom {
					t.Errorf("%v at (%.1f,%.1f) is outside the map [0,%v]×[%v,%v]", h, x, y, f.W, f.top, f.bottom)
				}
				if got := f.hexAt(x, y); got != h {
					t.Errorf("hexAt(centre(%v)) = %v", h, got)
				}
			}
			if f.W > capW || f.bottom-f.top > capH+2 {
				t.Errorf("map %v×%v beyond the cap", f.W, f.bottom-f.top)
			}
			if !c.checkPixel {
				return
			}
			img := decode(t, mustPNG(t, c.s))
			if img.Bounds().Dx() != int(f.W) || img.Bounds().Dy() != int(f.H) {
				t.Errorf("PNG %v, frame %v×%v", img.Bounds().Size(), f.W, f.H)
			}
			for _, u := range c.s.Units {
				x, y := f.centre(u.Hex)
				if got := rgbaAt(img, x, y); got != sides[hex.Own].dark {
					t.Errorf("%s's dot at (%.1f,%.1f) is %v, want %v", u.Label, x, y, got, sides[hex.Own].dark)
				}
			}
		})
	}
}

func rgbaAt(img image.Image, x, y float64) color.RGBA {
	return color.RGBAModel.Convert(img.At(int(math.Floor(x)), int(math.Floor(y)))).(color.RGBA)
}

// The scale: a small scene gets the largest hexes and the narrowest picture; a wide one the smallest
// hexes that keep the map readable, the picture growing past its target size; a vast one stays within
// the cap, its hexes shrinking below the floor.
func TestScale(t *testing.T) {
	small := layout(&hex.Scene{Units: []hex.SceneUnit{{Hex: hex.Hex{Q: 1, R: 1}}, {Hex: hex.Hex{Q: 3, R: 0}}}}, func(float64) float64 { return 0 })
	if small.side != maxSide || small.W != minW {
		t.Errorf("small scene: side %v, width %v", small.side, small.W)
	}
	wide := layout(ptr(far(40)), func(float64) float64 { return 0 })
	if wide.side != minSide || wide.W <= targetW || wide.W > capW {
		t.Errorf("wide scene: side %v, width %v", wide.side, wide.W)
	}
	vast := layout(ptr(far(2000)), func(float64) float64 { return 0 })
	if vast.side >= minSide || vast.W > capW || vast.bottom-vast.top > capH {
		t.Errorf("vast scene: side %v, %v×%v", vast.side, vast.W, vast.bottom-vast.top)
	}
	for _, f := range []frame{small, wide} {
		if f.side != math.Floor(f.side) || int(f.side)%2 != 0 || f.hh != math.Round(f.side*sqrt3/2) {
			t.Errorf("hexes not snapped to pixels: side %v, half-height %v", f.side, f.hh)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// Hexes off the playing area are shaded, cloud hexes shaded otherwise, the rest plain paper; a unit out
// of play is drawn faded.
func TestShading(t *testing.T) {
	s := hex.Scene{
		Bounds: &hex.SceneBounds{MinQ: 0, MaxQ: 6, MinRow: 0, MaxRow: 4},
		Clouds: []hex.Hex{{Q: 3, R: 1}},
		Units: []hex.SceneUnit{
			{Hex: hex.Hex{Q: 1, R: 1}, Kind: hex.Target, Side: hex.Own, Label: "in"},
			{Hex: hex.Hex{Q: 5, R: 0}, Kind: hex.Target, Side: hex.Own, Label: "gone", Out: true},
		},
	}
	f := layout(&s, func(float64) float64 { return 0 })
	img := decode(t, mustPNG(t, s))
	// Sample above the centre, below the coordinates.
	at := func(h hex.Hex) color.RGBA {
		x, y := f.centre(h)
		return rgbaAt(img, x, y-0.3*f.side)
	}
	for _, c := range []struct {
		h    hex.Hex
		want color.RGBA
	}{
		{hex.Hex{Q: 2, R: 2}, paper},
		{hex.Hex{Q: -1, R: 2}, offMap},
		{hex.Hex{Q: 7, R: -1}, offMap},
		{hex.Hex{Q: 3, R: 1}, cloudFill},
	} {
		if got := at(c.h); got != c.want {
			t.Errorf("hex %v is %v, want %v", c.h, got, c.want)
		}
	}
	x, y := f.centre(hex.Hex{Q: 5, R: 0})
	if got := rgbaAt(img, x, y); got != fade(sides[hex.Own].dark) {
		t.Errorf("the unit out of play is %v, want faded %v", got, fade(sides[hex.Own].dark))
	}
}

// An empty scene is a small picture saying so, not an error.
func TestEmpty(t *testing.T) {
	img := decode(t, mustPNG(t, hex.Scene{}))
	if img.Bounds().Dx() != emptyW || img.Bounds().Dy() != emptyH {
		t.Errorf("empty picture %v", img.Bounds().Size())
	}
	if svg := mustSVG(t, hex.Scene{}); !strings.Contains(svg, "Nothing to show") {
		t.Error("the empty SVG does not say so")
	}
}

// The size aim: a 100-unit picture of about 125 KB to mail. The busy raid (crowd) and a hundred units
// scattered across the widest map a picture takes are checked against bounds a little above what they
// measure (see the package doc), so growth shows.
func TestSize100(t *testing.T) {
	spread := hex.Scene{Title: "spread"}
	r := rng(7)
	for i := 0; i < 100; i++ {
		q := r.intn(120)
		spread.Units = append(spread.Units, hex.SceneUnit{Hex: hex.Hex{Q: q, R: r.intn(80) - q/2}, Faced: true, Facing: hex.Dir(r.intn(12)),
			Side: hex.Allegiance(r.intn(3)), Label: fmt.Sprintf("U%d", i), Notes: []string{"a12 s4"}})
	}
	for _, c := range []struct {
		name  string
		s     hex.Scene
		bound int
	}{
		{"crowd", crowd(100, 30, 10), 130 << 10},
		{"spread", spread, 190 << 10},
	} {
		b := mustPNG(t, c.s)
		img := decode(t, b)
		t.Logf("%s: %v, %d bytes (%.1f KB)", c.name, img.Bounds().Size(), len(b), float64(len(b))/1024)
		if len(b) > c.bound {
			t.Errorf("%s: %d bytes, over %d", c.name, len(b), c.bound)
		}
	}
}

// The palette holds every colour the drawing uses, so flat colours are exact.
func TestPalette(t *testing.T) {
	pal := palette()
	if len(pal) > 256 {
		t.Fatalf("%d colours", len(pal))
	}
	for _, c := range baseColours() {
		if pal[thePalette().nearest(c)] != c {
			t.Errorf("%v is not in the palette", c)
		}
	}
}

// nearest, which looks only at the candidates of the colour's cell, finds what a search of the whole
// palette finds, at every level on either side of each cell's edges and in each cell's middle: a
// candidate list that left out the true nearest shows where a cell meets the next.
func TestNearestSearchesTheCellOnly(t *testing.T) {
	p := thePalette()
	var levels []int
	for edge := 0; edge <= 256; edge += 1 << (8 - cellBits) {
		for _, l := range []int{edge - 1, edge, edge + 1, edge + 1<<(7-cellBits)} {
			if l >= 0 && l < 256 {
				levels = append(levels, l)
			}
		}
	}
	for _, r := range levels {
		for _, g := range levels {
			for _, b := range levels {
				c := color.RGBA{uint8(r), uint8(g), uint8(b), 0xFF}
				best, bestD := 0, int32(1<<31-1)
				for i, q := range p.rgb {
					if d := distance([3]int32{int32(r) - q[0], int32(g) - q[1], int32(b) - q[2]}); d < bestD {
						best, bestD = i, d
					}
				}
				if got := p.nearest(c); int(got) != best {
					t.Fatalf("%v: nearest gives %d %v, the whole palette %d %v", c, got, p.colours[got], best, p.colours[best])
				}
			}
		}
	}
}

// blend looks a colour up by its cell of blendBits a channel, and finds the palette colour nearest to
// the cell's middle. A colour lies at most half a cell's side from the middle in each channel, at most
// 12 in the distance's square root (whose weights make it a norm, so the triangle inequality holds): so
// the colour blend gives is at most 24 farther from the colour than the nearest one is. A lookup that
// swapped channels or took the wrong bits breaks that bound by far.
func TestBlendIsNearEnough(t *testing.T) {
	p := thePalette()
	half := int32(1 << (8 - blendBits) / 2)
	slack := 2 * math.Sqrt(float64(distance([3]int32{half, half, half})))
	gap := func(c [3]int32, i uint8) float64 {
		q := p.rgb[i]
		return math.Sqrt(float64(distance([3]int32{c[0] - q[0], c[1] - q[1], c[2] - q[2]})))
	}
	for r := int32(0); r < 256; r += 3 {
		for g := int32(0); g < 256; g += 3 {
			for b := int32(0); b < 256; b += 3 {
				c := [3]int32{r, g, b}
				got, want := p.blend(uint32(r), uint32(g), uint32(b)), p.nearest(color.RGBA{uint8(r), uint8(g), uint8(b), 0xFF})
				if gap(c, got) > gap(c, want)+slack {
					t.Fatalf("%v: blend gives %v, %.1f away; the nearest %v is %.1f away", c, p.colours[got], gap(c, got), p.colours[want], gap(c, want))
				}
			}
		}
	}
}

// The SVG is well-formed XML whose text is the scene's, in the embedded fonts.
func TestSVGWellFormed(t *testing.T) {
	svg := mustSVG(t, everything())
	texts := 0
	eachToken(t, svg, func(tok xml.Token) {
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "tspan" {
			texts++
		}
	})
	if texts < 100 {
		t.Errorf("%d text spans", texts)
	}
	for _, face := range []string{"@font-face{font-family:GoRegular;src:url(data:font/ttf;base64,", "@font-face{font-family:Go-Bold;font-weight:700;src:url(data:font/ttf;base64,"} {
		if !strings.Contains(svg, face) {
			t.Errorf("the SVG does not embed %q", face)
		}
	}
}

// The fonts embedded in the SVG are valid fonts holding the glyphs the text uses, with the checksums
// right and no time of writing in them.
func TestSVGFonts(t *testing.T) {
	svg := mustSVG(t, everything())
	m := regexp.MustCompile(`font-family:([\w-]+)(?:;font-weight:700)?;src:url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\)`).FindAllStringSubmatch(svg, -1)
	if len(m) != 2 {
		t.Fatalf("%d embedded fonts", len(m))
	}
	for _, f := range m {
		b, err := base64.StdEncoding.DecodeString(f[2])
		if err != nil {
			t.Fatal(err)
		}
		fnt, err := sfnt.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f[1], err)
		}
		var buf sfnt.Buffer
		uses := map[string]string{"GoRegular": "alt(,)", "Go-Bold": "Hans1"}[f[1]]
		if uses == "" {
			t.Errorf("unexpected font %s", f[1])
		}
		for _, r := range uses {
			if i, err := fnt.GlyphIndex(&buf, r); err != nil || i == 0 {
				t.Errorf("%s lacks %q (%v)", f[1], r, err)
			}
		}
		if i, _ := fnt.GlyphIndex(&buf, 'Q'); i != 0 {
			t.Errorf("%s holds Q, which no text uses", f[1])
		}
		if checksum(b) != 0xB1B0AFBA {
			t.Errorf("%s: the font's checksum is %#x, want 0xB1B0AFBA", f[1], checksum(b))
		}
		if len(b) > 40<<10 {
			t.Errorf("%s: %d bytes, not a subset", f[1], len(b))
		}
	}
}

// Drawing leaves the scene as it was, even the spare capacity of its slices, which the caller may share.
func TestSceneUntouched(t *testing.T) {
	s := everything()
	sentinel := hex.Hex{Q: 999, R: 999}
	s.Plans = board().Plans
	for i := range s.Plans {
		p := make([]hex.Hex, len(s.Plans[i].Path), len(s.Plans[i].Path)+1)
		copy(p, s.Plans[i].Path)
		p[:cap(p)][len(p)] = sentinel
		s.Plans[i].Path = p
	}
	for i := range s.Units {
		tr := make([]hex.Hex, len(s.Units[i].Track), len(s.Units[i].Track)+1)
		copy(tr, s.Units[i].Track)
		tr[:cap(tr)][len(tr)] = sentinel
		s.Units[i].Track = tr
	}
	s.Units = slices.Grow(s.Units, 1)
	s.Units[:cap(s.Units)][len(s.Units)] = hex.SceneUnit{Label: "spare"}
	before := fmt.Sprintf("%#v", s)
	mustPNG(t, s)
	mustSVG(t, s)
	if after := fmt.Sprintf("%#v", s); after != before {
		t.Error("drawing changed the scene")
	}
	for _, u := range s.Units {
		if u.Track[:cap(u.Track)][len(u.Track)] != sentinel {
			t.Errorf("drawing wrote past %s's track", u.Label)
		}
	}
	for _, p := range s.Plans {
		if p.Path[:cap(p.Path)][len(p.Path)] != sentinel {
			t.Errorf("drawing wrote past %s's plot", p.Label)
		}
	}
	if s.Units[:cap(s.Units)][len(s.Units)].Label != "spare" {
		t.Error("drawing wrote past the units")
	}
}

// Writing an SVG subsets the embedded fonts; that must leave the fonts every picture is drawn with as
// they were: the same PNG before and after, and the font's glyph count unchanged.
func TestSVGLeavesTheFontsAlone(t *testing.T) {
	s := everything()
	before, err := PNG(s)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	glyphs := fs.regular.NumGlyphs()
	for range 3 {
		if _, err := SVG(s); err != nil {
			t.Fatal(err)
		}
	}
	after, err := PNG(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the PNG changed after SVGs were written")
	}
	if n := fs.regular.NumGlyphs(); n != glyphs {
		t.Errorf("the regular font had %d glyphs, now %d", glyphs, n)
	}
}
