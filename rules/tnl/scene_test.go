package tnl

import (
	"fmt"
	"strings"
	"testing"
)

// The report's map names every unit it draws, however many enemies are in sight (seed 003 has units of
// any size; the legend used to stop at the ninth contact), and each '*' says what it holds: in one hex
// at full scale, in one character when the map is coarser.
func TestMapLegendNamesEveryUnit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`
ruleset: tnl
name: swarm of bandits
turns: 4
sides: [RAF, LW]
players: [{id: ann, side: RAF}, {id: ben, side: LW}]
aircraft:
  - {callsign: RED1, type: sbd-3, unit: RED, side: RAF, player: ann, hex: [0, 0], facing: 0, level: M, speed: 4}
`)
	for i := range 11 {
		fmt.Fprintf(&b, "  - {callsign: HE%d, type: a6m2, unit: HE, side: LW, player: ben, hex: [%d, -2], facing: 180, level: M, speed: 4}\n", i+1, i-5)
	}
	for _, far := range []string{"", "  - {callsign: FAR, type: a6m2, unit: FAR, side: LW, player: ben, hex: [0, 60], facing: 0, level: M, speed: 4}\n"} {
		g, err := Ruleset{}.NewGame([]byte(b.String()+far), nil, "test.yaml")
		if err != nil {
			t.Fatal(err)
		}
		r := g.Report("ann", nil)
		if len(r.Contacts) < 10 {
			t.Fatalf("only %d contacts in sight", len(r.Contacts))
		}
		legend := r.Map[strings.Index(r.Map, "A RED1"):]
		for _, c := range r.Contacts {
			if !strings.Contains(legend, " "+c.Name+" (") {
				t.Errorf("%s is in sight but not in the map's legend:\n%s", c.Name, r.Map)
			}
		}
		if strings.Contains(r.Map, "*") && strings.Contains(r.Map, "each character is") && strings.Contains(r.Map, "in the hex") {
			t.Errorf("a '*' of a coarse map is said to be one hex:\n%s", r.Map)
		}
	}
}
