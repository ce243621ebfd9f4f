package aircraft

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"sortie/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the table of shipped types in docs/aircraft.md")

const docsPath = "../../../docs/aircraft.md"

// spitfireTable is the Spitfire I's derived card, band by band: the result of the worked example.
func spitfireTable(r *Registry) string {
	c, _ := r.Get("spitfire-i")
	var b strings.Builder
	b.WriteString("| band (ft) | manoeuvre | level | dive | power | brake | max climb | turn | slip | half roll | half loop | bank |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, band := range c.Bands {
		man := "none"
		if band.Maneuver != nil {
			man = fmt.Sprintf("%d-%d", band.Maneuver.Min, band.Maneuver.Max)
		}
		tm := band.TM
		fmt.Fprintf(&b, "| %d-%d | %s | %d-%d | %d-%d | %d | %d | %d | %d | %d | %d | %d | %d |\n", band.MinAlt, band.MaxAlt, man,
			band.Level.Min, band.Level.Max, band.Dive.Min, band.Dive.Max, band.Power, band.Brake, band.MaxClimb,
			tm.Turn, tm.Slip, tm.HalfRoll, tm.HalfLoop, tm.Bank)
	}
	return b.String()
}

// docsTable is the table of shipped types in docs/aircraft.md: the lowest band's top level speed and
// turn mode, with the speed-loss class and the fixed guns.
func docsTable(r *Registry) string {
	var b strings.Builder
	b.WriteString("| key | name | role | class | top level speed 0-4,900 ft | manoeuvre 0-4,900 ft | turn mode 0-4,900 ft | fixed guns |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, c := range r.All() {
		f, _ := r.Source(c.Key)
		top := 0.0
		for _, p := range f.Performance.TopSpeed {
			top = max(top, p.MPH)
		}
		low := c.Bands[0]
		man := "none"
		if low.Maneuver != nil {
			man = fmt.Sprintf("%d-%d", low.Maneuver.Min, low.Maneuver.Max)
		}
		guns := c.FixedMix()
		if guns == "" {
			guns = "-"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d (%.0f mph published) | %s | %d | %s |\n",
			c.Key, c.Name, c.Role, c.LossClass, low.Level.Max, top, man, low.TM.Turn, guns)
	}
	return b.String()
}

// The table of shipped types and the worked example's card in docs/aircraft.md are generated from the
// cards; -update rewrites them.
func TestDocsTable(t *testing.T) {
	r, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	golden.Blocks(t, docsPath, []golden.Block{
		{Name: "spitfire-card", Text: spitfireTable(r)},
		{Name: "aircraft-table", Text: docsTable(r)},
	}, *update, "TestDocsTable", "go test ./rules/afd/aircraft -run TestDocsTable -update")
}
