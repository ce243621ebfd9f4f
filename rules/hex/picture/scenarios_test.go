package picture

import (
	"fmt"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/hex"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// rounds is how many rounds of each bundled scenario the layout test plays.
const rounds = 6

// Every bundled scenario of every ruleset, played for some rounds by the rulesets' own pilots (or their
// default orders), gives every player pictures in which no writing (label, title, caption line, legend
// entry) covers other writing or a marker (counter, badge, edge marker), and nothing drawn is cut by
// the picture's frame: map items lie in the map, coordinates included. The layout checked is the one the
// picture was drawn from (LayoutOf).
func TestScenarioPicturesLayout(t *testing.T) {
	for _, name := range registry.Names() {
		rs, err := registry.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for scen, data := range rulesettest.BundledScenarios(t, rs) {
			t.Run(name+"/"+scen, func(t *testing.T) {
				g, err := rs.NewGame(data, nil, scen+".yaml")
				if err != nil {
					t.Fatal(err)
				}
				var log *ruleset.Log
				for round := 0; ; round++ {
					for _, p := range g.Players() {
						r := g.Report(p.ID, log)
						if sc := r.Picture(); sc != nil {
							checkLayout(t, fmt.Sprintf("round %d, %s", round, p.ID), *sc)
						}
					}
					if over, _ := g.Over(); over || round == rounds {
						break
					}
					orders := map[string]string{}
					for _, p := range g.Players() {
						if pl, ok := g.(ruleset.Piloted); ok {
							for u, o := range pl.PilotOrders(p.ID) {
								orders[u] = o
							}
						}
						for _, u := range g.Units(p.ID) {
							if _, ok := orders[u]; !ok {
								orders[u] = g.DefaultOrder(u)
							}
						}
					}
					next, l, err := g.Resolve(orders, dice.NewSeeded(dice.SeedFromUint64(uint64(round+1))))
					if err != nil {
						t.Fatal(err)
					}
					g, log = next, l
				}
			})
		}
	}
}

// The test scenes hold to the same: every kind of thing at once, a dogfight, a crowd of 40 units.
func TestTestScenesLayout(t *testing.T) {
	for _, s := range []hex.Scene{everything(), dogfight(), crowd(40, 12, 6), crowd(100, 30, 10), far(40)} {
		checkLayout(t, s.Title, s)
	}
}

// checkLayout fails when writing covers writing or a marker, or anything lies outside the picture, or a
// map item outside the map.
func checkLayout(t *testing.T, when string, s hex.Scene) {
	t.Helper()
	lay, err := LayoutOf(s)
	if err != nil {
		t.Fatal(err)
	}
	whole := Box{X0: 0, Y0: 0, X1: lay.W, Y1: lay.H}
	for i, a := range lay.Items {
		onMap := a.Kind.Marker() || a.Kind == Label || a.Kind == Coordinate
		switch {
		case !a.Box.Within(whole):
			t.Errorf("%s: %s %q at %v is cut by the picture's frame %v×%v", when, a.Kind, a.Text, a.Box, lay.W, lay.H)
		case onMap && !a.Box.Within(lay.Map):
			t.Errorf("%s: %s %q at %v is cut by the map's frame %v", when, a.Kind, a.Text, a.Box, lay.Map)
		}
		for _, b := range lay.Items[i+1:] {
			if (a.Kind.Writing() && (b.Kind.Writing() || b.Kind.Marker()) || b.Kind.Writing() && a.Kind.Marker()) && a.Box.Overlaps(b.Box) {
				t.Errorf("%s: %s %q at %v overlaps %s %q at %v", when, a.Kind, a.Text, a.Box, b.Kind, b.Text, b.Box)
			}
		}
	}
}

// A plane hit by four guns in one turn gets one damage badge and one label, not four piled up (a
// player's strike picture showed CAT2 four times over the bridge).
func TestRepeatedMarksDrawnOnce(t *testing.T) {
	s := hex.Scene{Units: []hex.SceneUnit{
		{Hex: hex.Hex{Q: 0, R: 0}, Kind: hex.Target, Side: hex.Own, Label: "BRIDGE"},
		{Hex: hex.Hex{Q: 1, R: 0}, Kind: hex.Aircraft, Faced: true, Side: hex.Enemy, Label: "CAT2"},
	}}
	for range 4 {
		s.Marks = append(s.Marks, hex.SceneMark{Hex: hex.Hex{Q: 1, R: 0}, Kind: hex.Damaged, Label: "CAT2"})
	}
	lay, err := LayoutOf(s)
	if err != nil {
		t.Fatal(err)
	}
	badges, labels := 0, 0
	for _, it := range lay.Items {
		switch {
		case it.Kind == Badge:
			badges++
		case it.Kind == Label && it.Text == "CAT2":
			labels++
		}
	}
	if badges != 1 || labels != 2 {
		t.Errorf("%d badges and %d labels CAT2, want one badge, the plane's label and the mark's", badges, labels)
	}
	checkLayout(t, "repeated marks", s)
}

// An enemy 30 hexes off does not shrink the map round the fight: it is an arrow on the map's edge,
// labelled with its distance and bearing from the nearest own plane, and the hexes keep their size.
func TestFarEnemyIsAnEdgeMarker(t *testing.T) {
	near := hex.Scene{Units: []hex.SceneUnit{
		{Hex: hex.Hex{Q: 0, R: 0}, Kind: hex.Aircraft, Faced: true, Side: hex.Own, Label: "RED1", Notes: []string{"8000 ft"}},
		{Hex: hex.Hex{Q: 2, R: -1}, Kind: hex.Aircraft, Faced: true, Side: hex.Own, Label: "RED2"},
		{Hex: hex.Hex{Q: 3, R: 1}, Kind: hex.Aircraft, Faced: true, Side: hex.Enemy, Label: "HE1"},
	}}
	s := near
	s.Units = append(append([]hex.SceneUnit(nil), near.Units...),
		hex.SceneUnit{Hex: hex.Hex{Q: 0, R: -30}, Kind: hex.Aircraft, Faced: true, Side: hex.Enemy, Label: "HE6"})
	lay, err := LayoutOf(s)
	if err != nil {
		t.Fatal(err)
	}
	var marker, label bool
	for _, it := range lay.Items {
		switch {
		case it.Kind == Counter && it.Text == "HE6":
			t.Errorf("HE6 is drawn as a counter on the map at %v", it.Box)
		case it.Kind == EdgeMarker && it.Text == "HE6":
			marker = true
			if it.Box.Y0 > lay.Map.Y0+40 {
				t.Errorf("HE6 lies north, its marker at %v is not on the map's top edge %v", it.Box, lay.Map)
			}
		case it.Kind == Label && it.Text == "HE6\n30 hexes, bearing 000° from RED1":
			label = true
		}
	}
	if !marker || !label {
		t.Errorf("no edge marker (%v) or no label with distance and bearing (%v): %+v", marker, label, lay.Items)
	}
	checkLayout(t, "far enemy", s)
	// The map round the fight is drawn as without HE6: the same hexes.
	without := layout(&near, func(float64) float64 { return 0 })
	shown, _ := framed(&s)
	with := layout(&shown, func(float64) float64 { return 0 })
	if with.side != without.side {
		t.Errorf("the far enemy changed the hex side from %v to %v", without.side, with.side)
	}
}
