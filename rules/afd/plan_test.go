package afd

// The plotting board's plans (plan.go): the track is the forecast's, flown as far as the plot reads;
// the reach follows the turn's own fire rules from where the plot ends, against the enemy as the side
// last saw it.

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// boardRange: ann's Bf 109 flies north at 10,000 ft at speed 3 from (0,4), so a plot of 3 ends in
// (0,1); ben's KURT waits at (0,-2), three hexes ahead of that; ann's flak site stands at (5,0).
const boardRange = annBen + `name: board range
options: {fog_of_war: true}
ground:
  - {callsign: TRUCK1, kind: truck, side: B, hex: [0, -3], route: [[0, -4]]}
  - {callsign: FLAK1, kind: gun, side: A, player: ann, hex: [5, 0], flak: {light: "4x20mm 2x40mm", heavy_mm: 88, heavy_guns: 4}}
aircraft:
  - {callsign: P1, type: bf-109e, side: A, player: ann, hex: [0, 4], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: BOMBER, type: sbd-3, side: A, player: ann, hex: [8, 4], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: KURT, type: spitfire-i, side: B, player: ben, hex: [0, -2], facing: 0, alt: 10000, speed: 3.0}
turns: 3
`

// boardGame is a game of scn in which side A has spotted the planes named (and nothing else).
func boardGame(t *testing.T, scn string, spotted ...string) *game {
	t.Helper()
	g := &game{env: testEnv(t), st: newTestGame(t, scn)}
	g.st.Sight = map[string]map[string]Sighting{"A": {}, "B": {}}
	for _, cs := range spotted {
		g.st.Sight["A"][cs] = Sighting{Spotted: true}
	}
	return g
}

// plan is g's plan of text for unit, checked to be CheckOrder's answer field for field.
func plan(t *testing.T, g *game, player, unit, text string) ruleset.Plan {
	t.Helper()
	p := g.Plan(player, unit, text)
	if c := g.CheckOrder(player, unit, text); !reflect.DeepEqual(p.Check, c) {
		t.Fatalf("the plan's check of %q is not CheckOrder's:\nplan  %+v\ncheck %+v", text, p.Check, c)
	}
	return p
}

func hexes(hs ...[2]int) []hexmap.Hex {
	var out []hexmap.Hex
	for _, h := range hs {
		out = append(out, hexmap.Hex{Q: h[0], R: h[1]})
	}
	return out
}

func reachHas(p ruleset.Plan, parts ...string) bool {
	return slices.ContainsFunc(p.Reach, func(l string) bool {
		for _, s := range parts {
			if !strings.Contains(l, s) {
				return false
			}
		}
		return true
	})
}

// TestPlanTrackIsTheForecast (seed 000 rules (1), (3): one movement point a token, a turn made in the
// hex entered): the track runs from the start hex through each hex the forecast's steps enter, and the
// facing is the one the plot ends with.
func TestPlanTrackIsTheForecast(t *testing.T) {
	g := boardGame(t, boardRange)
	p := plan(t, g, "ann", "P1", "3 HOLD")
	if want := hexes([2]int{0, 4}, [2]int{0, 3}, [2]int{0, 2}, [2]int{0, 1}); !slices.Equal(p.Path, want) || !p.Faced || p.Facing != 0 {
		t.Errorf("plot 3: path %v facing %v (%v), want %v facing 000", p.Path, p.Facing, p.Faced, want)
	}
	p = plan(t, g, "ann", "P1", "2 TR HOLD")
	if want := hexes([2]int{0, 4}, [2]int{0, 3}, [2]int{0, 2}, [2]int{0, 1}); !slices.Equal(p.Path, want) || p.Facing != 1 {
		t.Errorf("plot 2 TR: path %v facing %v, want %v facing 030", p.Path, p.Facing, want)
	}
	// The same hexes the receipt's forecast lists, in order.
	var fromPreview []hexmap.Hex
	fromPreview = append(fromPreview, hexmap.Hex{Q: 0, R: 4})
	for _, l := range p.Check.Preview[:len(p.Check.Preview)-1] {
		for _, h := range []hexmap.Hex{{Q: 0, R: 3}, {Q: 0, R: 2}, {Q: 0, R: 1}} {
			if strings.Contains(l, " hex "+h.String()+" ") && fromPreview[len(fromPreview)-1] != h {
				fromPreview = append(fromPreview, h)
			}
		}
	}
	if !slices.Equal(fromPreview, p.Path) {
		t.Errorf("the forecast's hexes %v are not the track %v", fromPreview, p.Path)
	}
}

// TestPlanFliesABrokenPlotAsFarAsItReads (seed 000 rule (1): the plot records exactly the speed's
// movement points): a plot of five points at speed 3 is refused, and still drawn as it would fly; a
// plot with a word the notation does not know is drawn up to that word.
func TestPlanFliesABrokenPlotAsFarAsItReads(t *testing.T) {
	g := boardGame(t, boardRange)
	p := plan(t, g, "ann", "P1", "5 HOLD")
	if p.Check.OK() || len(p.Path) != 6 || p.Path[5] != (hexmap.Hex{Q: 0, R: -1}) {
		t.Errorf("plot 5 at speed 3: ok %v, path %v; want refused and flown 5 hexes to (0,-1)", p.Check.OK(), p.Path)
	}
	p = plan(t, g, "ann", "P1", "2 XX 1")
	if want := hexes([2]int{0, 4}, [2]int{0, 3}, [2]int{0, 2}); p.Check.OK() || !slices.Equal(p.Path, want) {
		t.Errorf("plot 2 XX 1: ok %v, path %v; want refused and flown to %v", p.Check.OK(), p.Path, want)
	}
	if p := plan(t, g, "ann", "P1", "XX"); len(p.Path) != 0 {
		t.Errorf("a plot that does not read at all has a track: %v", p.Path)
	}
}

// TestPlanReachFixedGuns (seed 000, "Main combat rule changes": the fixed guns' cone, range 8 at most):
// an enemy the side has spotted three hexes dead ahead of where the plot ends is in reach of the fixed
// guns; one that the plot leaves behind is not.
func TestPlanReachFixedGuns(t *testing.T) {
	g := boardGame(t, boardRange, "KURT")
	p := plan(t, g, "ann", "P1", "3")
	if !reachHas(p, "KURT as last seen, 3 hexes away at 12 o'clock, at the same height", "in reach of its fixed guns (cowl, wing-l, wing-r) at range 3") {
		t.Errorf("KURT ahead is not in reach: %q", p.Reach)
	}
	// Turned away: the cone no longer crosses KURT's hex or the next.
	p = plan(t, g, "ann", "P1", "1 TR TR")
	if reachHas(p, "KURT as last seen") || !reachHas(p, "none in reach: no enemy plane as last seen would be in reach of its guns") {
		t.Errorf("turned away, the reach is %q", p.Reach)
	}
}

// TestPlanReachHeightDifference (seed 000, "Firing vertical attitude"): a level firer reaches a target
// no more than 300 ft of height a hex of range away, and the range grows by one a full 500 ft.
func TestPlanReachHeightDifference(t *testing.T) {
	g := boardGame(t, boardRange, "KURT")
	g.st.Plane("KURT").Flight.Alt = 9000 // 1,000 ft below, at range 3: more than 900 ft
	if p := plan(t, g, "ann", "P1", "3"); reachHas(p, "KURT") {
		t.Errorf("KURT 1,000 ft below at 3 hexes is in reach of a level firer: %q", p.Reach)
	}
	g.st.Plane("KURT").Flight.Alt = 9200 // 800 ft below: within 900 ft, range 3 + 1
	if p := plan(t, g, "ann", "P1", "3"); !reachHas(p, "KURT as last seen, 3 hexes away at 12 o'clock, 800 ft below", "fixed guns", "at range 4") {
		t.Errorf("KURT 800 ft below at 3 hexes is not in reach at range 4: %q", p.Reach)
	}
}

// TestPlanReachIsTheSidesView (invariant 4, docs/architecture.md): an enemy the side has not spotted
// is neither named nor counted, though it sits in the cone; one spotted is placed where it was seen.
func TestPlanReachIsTheSidesView(t *testing.T) {
	g := boardGame(t, boardRange)
	p := plan(t, g, "ann", "P1", "3")
	if reachHas(p, "KURT") || !reachHas(p, "none in reach: no enemy plane is in sight") {
		t.Errorf("the reach tells of an enemy the side has not seen: %q", p.Reach)
	}
}

// TestPlanReachWithoutAmmunition (seed 000: each burst uses one of a position's bursts of ammunition):
// a plane whose guns are empty is told so, not that nothing is in reach.
func TestPlanReachWithoutAmmunition(t *testing.T) {
	g := boardGame(t, boardRange, "KURT")
	pl := g.st.Plane("P1")
	for _, id := range []string{"cowl", "wing-l", "wing-r"} {
		pl.Ammo.Set(id, 0)
	}
	p := plan(t, g, "ann", "P1", "3")
	if !slices.Equal(p.Reach, []string{"none in reach: its guns are out of ammunition"}) {
		t.Errorf("empty guns: reach %q", p.Reach)
	}
}

// TestPlanReachFlexibleGuns (seed 000, "Flex gun limitations": a position covers its own clock
// positions): the Dauntless's rear guns reach an enemy at its 6 o'clock, its fixed guns do not; HOLD is
// told.
func TestPlanReachFlexibleGuns(t *testing.T) {
	g := boardGame(t, boardRange, "KURT")
	g.st.Plane("KURT").Flight.Hex = hexmap.Hex{Q: 8, R: 4} // behind where BOMBER's plot of 3 ends, (8,1)
	p := plan(t, g, "ann", "BOMBER", "3 HOLD")
	if !reachHas(p, "KURT as last seen, 3 hexes away at 6 o'clock", "in reach of its flexible guns (rear) at range 3") || reachHas(p, "fixed guns (") {
		t.Errorf("KURT astern: reach %q", p.Reach)
	}
	if !reachHas(p, "HOLD: its guns hold fire") {
		t.Errorf("HOLD is not told: %q", p.Reach)
	}
}

// boardStrike: a P-47 with rockets at 1,000 ft (altitude level 1, seed 002) flies north from (0,4); an
// enemy truck stands at (0,-1) and a bridge at (0,-3).
const boardStrike = annBen + `name: board strike
options: {fog_of_war: false}
ground:
  - {callsign: TRUCK1, kind: truck, side: B, hex: [0, -1]}
  - {callsign: BRIDGE, kind: bridge, side: B, hex: [1, -3]}
aircraft:
  - {callsign: P47, type: p-47d, side: A, player: ann, hex: [0, 4], facing: 0, alt: 1000, speed: 3.0, rockets: 4}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [20, -20], facing: 0, alt: 1000, speed: 3.0}
turns: 3
`

// TestPlanReachGroundAttacks (seed 002, rockets and strafing): from level 1, rockets reach a target 1 to
// 3 hexes ahead and strafing 1 or 2; a bridge is not strafed; from 3,000 ft up neither fires, and an
// order that asks for rockets there is told why.
func TestPlanReachGroundAttacks(t *testing.T) {
	g := boardGame(t, boardStrike)
	p := plan(t, g, "ann", "P47", "3 ROCKET")
	if !reachHas(p, "TRUCK1 (truck) as last seen, 2 hexes away at 12 o'clock: in reach of its rockets and strafing") {
		t.Errorf("the truck two hexes ahead: reach %q", p.Reach)
	}
	if reachHas(p, "BRIDGE") {
		t.Errorf("the bridge 4 hexes off is in reach: %q", p.Reach)
	}
	if reachHas(p, "none in reach") {
		t.Errorf("a target in reach, and none in reach is said: %q", p.Reach)
	}
	// The turn attacks only the target an order names (AT).
	p = plan(t, g, "ann", "P47", "3 ROCKET AT BRIDGE")
	if !reachHas(p, "ROCKET AT BRIDGE: BRIDGE would not be in reach of its rockets") {
		t.Errorf("rockets AT a bridge out of reach: reach %q", p.Reach)
	}
	p = plan(t, g, "ann", "P47", "2 +20 ROCKET")
	if !reachHas(p, "ROCKET: rockets are fired from under 3,000 ft, and it would be at 3,000 ft") || reachHas(p, "TRUCK1") {
		t.Errorf("rockets from 3,000 ft: reach %q", p.Reach)
	}
	// BOMB: what stands in the hex where the plot ends.
	g.st.Plane("P47").Flight.Loaded = true
	p = plan(t, g, "ann", "P47", "5 BOMB")
	if !reachHas(p, "BOMB: its bombs would fall on hex (0,-1), where TRUCK1 (truck) stood as last seen") {
		t.Errorf("bombs on the truck's hex: reach %q", p.Reach)
	}
}

// TestPlanFlakReach (seed 002, light and heavy flak): light guns reach 2 hexes up to level 2, heavy
// guns 4 hexes at levels 2 to their ceiling; a plane the side has not seen is not named; the gun's
// track is its hex.
func TestPlanFlakReach(t *testing.T) {
	g := boardGame(t, boardRange, "KURT")
	k := g.st.Plane("KURT")
	k.Flight.Hex, k.Flight.Alt = hexmap.Hex{Q: 5, R: -2}, 5000 // 2 hexes from FLAK1, level 2
	p := plan(t, g, "ann", "FLAK1", "FIRE ANY")
	if !slices.Equal(p.Path, hexes([2]int{5, 0})) || !p.Check.OK() {
		t.Errorf("the flak site's plan: ok %v path %v", p.Check.OK(), p.Path)
	}
	if !reachHas(p, "KURT as last seen, 2 hexes away at 5,000 ft: in reach of the light guns and the heavy guns") {
		t.Errorf("KURT at 2 hexes, 5,000 ft: reach %q", p.Reach)
	}
	k.Flight.Hex, k.Flight.Alt = hexmap.Hex{Q: 5, R: -3}, 12000 // 3 hexes, level 4
	if p := plan(t, g, "ann", "FLAK1", "AIM 5,-3 12000"); !reachHas(p, "in reach of the heavy guns") || reachHas(p, "light guns") ||
		!reachHas(p, "AIM hex (5,-3) at 12,000 ft: KURT as last seen would be in the burst") {
		t.Errorf("KURT at 3 hexes, 12,000 ft: reach %q", p.Reach)
	}
	delete(g.st.Sight["A"], "KURT")
	if p := plan(t, g, "ann", "FLAK1", "FIRE ANY"); reachHas(p, "KURT") || !reachHas(p, "none in reach") {
		t.Errorf("an unseen plane in the flak's reach: %q", p.Reach)
	}
	if h := g.PlotHelp("ann", "FLAK1"); len(h) != 3 || !strings.Contains(h[2], "AIM") {
		t.Errorf("flak help: %q", h)
	}
}

// boardImpulse: the impulse game (seed 001); ann's P1 at speed 3 and a plane of hers on the ground.
const boardImpulse = annBen + `name: board impulses
options: {fog_of_war: false, impulse: true}
aircraft:
  - {callsign: P1, type: spitfire-i, side: A, player: ann, hex: [0, 0], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: GROUND, type: hurricane-i, side: A, player: ann, hex: [4, 4], facing: 0, alt: 0, speed: 0, on_ground: true}
  - {callsign: FAR, type: bf-109e, side: B, player: ben, hex: [0, -400], facing: 6, alt: 10000, speed: 3.0}
turns: 5
`

// TestPlanImpulseTrack (seed 001, the impulse game: a plane moves a hex in each of its active
// impulses): the track of an impulse order is the hexes its forecast lists impulse by impulse; a plane
// on the ground (seed 001 IV) stays in its hex and turns on the spot.
func TestPlanImpulseTrack(t *testing.T) {
	g := boardGame(t, boardImpulse)
	p := plan(t, g, "ann", "P1", "` ` TR")
	if want := hexes([2]int{0, 0}, [2]int{0, -1}, [2]int{0, -2}, [2]int{0, -3}); !p.Check.OK() || !slices.Equal(p.Path, want) || p.Facing != 1 {
		t.Errorf("` ` TR: ok %v %v path %v facing %v, want %v facing 030", p.Check.OK(), p.Check.Errors, p.Path, p.Facing, want)
	}
	if !reachHas(p, "none in reach: no enemy plane") {
		t.Errorf("reach %q", p.Reach)
	}
	if h := g.PlotHelp("ann", "P1"); !slices.ContainsFunc(h, func(l string) bool { return strings.Contains(l, "impulses 3 8 12") }) {
		t.Errorf("the impulse help does not give the plane's impulses: %q", h)
	}
	p = plan(t, g, "ann", "GROUND", "R2")
	if !slices.Equal(p.Path, hexes([2]int{4, 4})) || p.Facing != 4 || !p.Check.OK() {
		t.Errorf("on the ground, R2: ok %v path %v facing %v", p.Check.OK(), p.Path, p.Facing)
	}
}

// TestPlotHelpByMode: each kind of unit gets help in its own notation, none for another's unit.
func TestPlotHelpByMode(t *testing.T) {
	g := boardGame(t, boardStrike)
	h := g.PlotHelp("ann", "P47")
	if len(h) == 0 || !strings.Contains(h[0], "at speed 3.0 the plot records 3 points") || !slices.ContainsFunc(h, func(l string) bool { return strings.Contains(l, "ROCKET") }) {
		t.Errorf("plain plot help: %q", h)
	}
	if h := g.PlotHelp("ben", "P47"); h != nil {
		t.Errorf("help on another player's plane: %q", h)
	}
	if h := boardGame(t, boardImpulse).PlotHelp("ann", "GROUND"); len(h) == 0 || !strings.Contains(h[0], "IDLE") {
		t.Errorf("ground help: %q", h)
	}
}

// TestPlanImpulseReadsAsFarAsItCan: an impulse order with a mistake is drawn up to the mistake.
func TestPlanImpulseReadsAsFarAsItCan(t *testing.T) {
	g := boardGame(t, boardImpulse)
	p := plan(t, g, "ann", "P1", "` ` TR; ` XX")
	if want := hexes([2]int{0, 0}, [2]int{0, -1}, [2]int{0, -2}, [2]int{0, -3}); p.Check.OK() || !slices.Equal(p.Path, want) {
		t.Errorf("` ` TR; ` XX: ok %v path %v, want refused and drawn to %v", p.Check.OK(), p.Path, want)
	}
}

// boardBanked: the impulse game, ann's P1 in a right bank; ben's KURT two hexes beyond the hex P1's
// next move takes it to, 300 ft above P1's height.
const boardBanked = annBen + `name: board banked
options: {fog_of_war: false, impulse: true}
aircraft:
  - {callsign: P1, type: spitfire-i, side: A, player: ann, hex: [0, 0], facing: 0, alt: 10000, speed: 3.0, bank: RB}
  - {callsign: KURT, type: bf-109e, side: B, player: ben, hex: [0, -3], facing: 0, alt: 10300, speed: 3.0}
turns: 5
`

// TestPlanImpulseReachCountsTheNose (seed 001 X.E.1: a banked forwards manoeuvre loses 100 ft; seed 000,
// "Firing vertical attitude": a diving plane cannot fire at a higher one): the 100 ft a banked forwards
// move must lose leaves the nose level (impulseFire), so the fixed guns still reach a plane above.
func TestPlanImpulseReachCountsTheNose(t *testing.T) {
	g := boardGame(t, boardBanked, "KURT")
	p := plan(t, g, "ann", "P1", "1")
	if !p.Check.OK() || !strings.Contains(strings.Join(p.Check.Preview, "\n"), "9,900 ft") {
		t.Fatalf("a banked forwards move: ok %v, forecast %q; want 100 ft lost", p.Check.OK(), p.Check.Preview)
	}
	if !reachHas(p, "KURT as last seen, 2 hexes away at 12 o'clock, 400 ft above", "its fixed guns") {
		t.Errorf("KURT 400 ft above, 2 hexes ahead: reach %q", p.Reach)
	}
}

// boardTorpedo: a loaded Avenger low over the sea at (0,4), heading north; an enemy destroyer at
// (0,-1) and an enemy fighter three hexes ahead of where a plot of 2 ends.
const boardTorpedo = annBen + `name: board torpedo
options: {fog_of_war: false}
ground:
  - {callsign: DD1, kind: ship, side: B, hex: [0, -1], facing: 0, speed: 1, turn_rate: 1, defence: 7, size: small}
aircraft:
  - {callsign: TORP, type: tbf-1, side: A, player: ann, hex: [0, 4], facing: 0, alt: 400, speed: 2.0, bank: N, loaded: true}
  - {callsign: KURT, type: a6m2, side: B, player: ben, hex: [0, -1], facing: 0, alt: 400, speed: 3.0}
turns: 3
`

// TestPlanReachTorpedoAndGroundAttackGuns (seed 002, torpedoes: the torpedo runs at an enemy ship 1 to
// 4 hexes off; "Fighters and Bombing": a pilot who attacks the ground fires no fixed guns at planes
// that turn): the board names the ship the torpedo would run at, and says the fixed guns are silent.
func TestPlanReachTorpedoAndGroundAttackGuns(t *testing.T) {
	g := boardGame(t, boardTorpedo, "KURT")
	p := plan(t, g, "ann", "TORP", "2 BOMB")
	if !reachHas(p, "BOMB: it would drop its torpedo in hex (0,2) toward DD1, 3 hexes off as last seen") {
		t.Errorf("the torpedo's ship: reach %q", p.Reach)
	}
	if !reachHas(p, "its fixed guns do not fire at planes the turn it attacks the ground") || reachHas(p, "KURT as last seen", "fixed guns (") {
		t.Errorf("dropping its torpedo, the fixed guns still reach: %q", p.Reach)
	}
	if p := plan(t, g, "ann", "TORP", "2"); !reachHas(p, "KURT as last seen, 3 hexes away at 12 o'clock", "its fixed guns") {
		t.Errorf("without the drop, KURT ahead is not in reach of the fixed guns: %q", p.Reach)
	}
}
