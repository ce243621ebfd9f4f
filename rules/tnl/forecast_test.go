package tnl

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/tnl/notation"
)

// oracleForecast is the forecast of an order check as it was written with fmt, before its lines were
// appended into one buffer: the oracle the present one is compared with.
func oracleForecast(st *State, u *Unit, c Check) []string {
	var out []string
	for _, a := range st.Flying(u) {
		pc, ok := c.Plots[a.Callsign]
		if !ok {
			continue
		}
		for ph, r := range pc.Phases {
			out = append(out, fmt.Sprintf("%s phase %d: %d hexes to %s facing %s%s", a.Callsign, ph+1, pc.Speeds[ph], r.End.Hex, r.End.Facing, invText(r.End.Inverted)))
		}
		if pc.Level != a.Level {
			out = append(out, fmt.Sprintf("%s reaches %s at the end of phase 1 (no combat for it in phase 1)", a.Callsign, pc.Level))
		}
	}
	return out
}

// TestForecastText pins an order check's canonical order and forecast (a dive, a climb, an inverted
// end, an aircraft's own plot) and compares each with the oracle's.
func TestForecastText(t *testing.T) {
	g := rulesettest.Bundled[*game](t, Ruleset{}, "battle-of-britain")
	for _, c := range []struct {
		unit, text, canonical string
		preview               []string
	}{
		{"SPITS", "DIVE 3 TR 3 / 3 INV 3 HOLD", "DIVE 3 TR 3 / 3 INV 3 HOLD", []string{
			"SPIT1 phase 1: 6 hexes to (2,-4) facing 240",
			"SPIT1 phase 2: 6 hexes to (-4,2) facing 240, inverted",
			"SPIT1 reaches Medium at the end of phase 1 (no combat for it in phase 1)",
			"SPIT2 phase 1: 6 hexes to (1,-4) facing 240",
			"SPIT2 phase 2: 6 hexes to (-5,2) facing 240, inverted",
			"SPIT2 reaches Medium at the end of phase 1 (no combat for it in phase 1)",
			"SPIT3 phase 1: 6 hexes to (3,-5) facing 240",
			"SPIT3 phase 2: 6 hexes to (-3,1) facing 240, inverted",
			"SPIT3 reaches Medium at the end of phase 1 (no combat for it in phase 1)",
		}},
		{"HURRI-B", "CLIMB 2 TL 2 / 4 FIRE HE1 2; HURRI6 5 / 2 TR 3", "CLIMB 2 TL 2 / 4 FIRE HE1 2; HURRI6 5 / 2 TR 3 FIRE ANY", []string{
			"HURRI4 phase 1: 4 hexes to (3,-6) facing 120",
			"HURRI4 phase 2: 4 hexes to (7,-6) facing 120",
			"HURRI4 reaches High at the end of phase 1 (no combat for it in phase 1)",
			"HURRI5 phase 1: 4 hexes to (2,-6) facing 120",
			"HURRI5 phase 2: 4 hexes to (6,-6) facing 120",
			"HURRI5 reaches High at the end of phase 1 (no combat for it in phase 1)",
			"HURRI6 phase 1: 5 hexes to (2,-4) facing 180",
			"HURRI6 phase 2: 5 hexes to (-1,1) facing 240",
		}},
		{"HURRI-A", "6 / 6 FIRE ANY", "6 / 6 FIRE ANY", []string{
			"HURRI1 phase 1: 6 hexes to (-3,-2) facing 180",
			"HURRI1 phase 2: 6 hexes to (-3,4) facing 180",
			"HURRI2 phase 1: 6 hexes to (-4,-2) facing 180",
			"HURRI2 phase 2: 6 hexes to (-4,4) facing 180",
			"HURRI3 phase 1: 6 hexes to (-2,-3) facing 180",
			"HURRI3 phase 2: 6 hexes to (-2,3) facing 180",
		}},
	} {
		chk := g.CheckOrder("alice", c.unit, c.text)
		if !chk.OK() || chk.Canonical != c.canonical || !slices.Equal(chk.Preview, c.preview) {
			t.Errorf("%s %q (%v):\n got %q\n%s\nwant %q\n%s", c.unit, c.text, chk.Errors, chk.Canonical,
				strings.Join(chk.Preview, "\n"), c.canonical, strings.Join(c.preview, "\n"))
		}
		u := g.st.UnitNamed(c.unit)
		o, _ := notation.Parse(c.text)
		if want := oracleForecast(g.st, u, CheckOrder(g.d, g.st, u, o)); !slices.Equal(chk.Preview, want) {
			t.Errorf("%s %q: the forecast differs from the oracle's:\n%s\nwant\n%s", c.unit, c.text,
				strings.Join(chk.Preview, "\n"), strings.Join(want, "\n"))
		}
	}
}
