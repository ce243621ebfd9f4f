package tnl

import (
	"strings"
	"testing"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// torpedoFours throws a 4 for every torpedo's die and a 6 for every other die.
type torpedoFours struct{ sixes }

func (s *torpedoFours) Roll(label string, sides int) int {
	if strings.Contains(label, " torpedoes ") {
		s.log = append(s.log, dice.Roll{Label: label, Sides: sides, Value: 4})
		return 4
	}
	return s.sixes.Roll(label, sides)
}

// TestBothSidesCountsOnlyTorpedoesLaunched (seed 003_9daccbbb9382a380.txt, "Attacking Ships", "Torpedo
// Bombing"): a torpedo is launched only from Very Low, 5 to 20 hexes from the ship, and a ship attacked
// from both sides at the same time gives each torpedo +1 (Sortie: from port and starboard in the same
// phase, docs/rulings.md T12). Only torpedoes that are launched attack the ship: a torpedo plane on the
// other side that cannot launch gives TBF1 no +1.
//
// TBF1 ends 5 hexes from KAGA on its starboard quarter, stern side on: it needs 3 with -2, and its 4
// hits only with the +1 (4-2+1 = 3), misses without it (4-2 = 2). TBF2 comes in on the port side.
func TestBothSidesCountsOnlyTorpedoesLaunched(t *testing.T) {
	orders := map[string]string{"TORPS": "3 / 3 TORPEDO KAGA", "TORPS2": "3 / 3 TORPEDO KAGA"}
	cases := []struct {
		name    string
		prepare func(st *State)
		tbf2    string // what TBF2's torpedo line says
		hit     bool   // whether TBF1's torpedo hits
	}{
		// Both launch, one from each side: each gets +1.
		{name: "both launch", tbf2: "TBF2 launched a torpedo at KAGA from 5 hexes (stern side on): needs 3, modifier -1, rolled 4: a hit", hit: true},
		// TBF2 ends 3 hexes from KAGA, inside the minimum launching distance.
		{name: "the other too close", prepare: func(st *State) { st.Plane("TBF2").Hex = hexmap.Hex{Q: -3, R: 8} },
			tbf2: "TBF2 could not launch at KAGA: a torpedo goes from Very Low at 5 to 20 hexes (it is 3 hexes away at Very Low)"},
		// TBF2 ends 25 hexes from KAGA, beyond the longest range.
		{name: "the other too far", prepare: func(st *State) { st.Plane("TBF2").Hex = hexmap.Hex{Q: -25, R: 10} },
			tbf2: "TBF2 could not launch at KAGA: a torpedo goes from Very Low at 5 to 20 hexes (it is 25 hexes away at Very Low)"},
		// TBF2 flies at Low, above the launching height: its TORPEDO order is refused, so it attacks
		// nothing and gives TBF1 no +1.
		{name: "the other too high", prepare: func(st *State) { st.Plane("TBF2").Level = Low }},
		// TBF2 has already dropped its torpedo: its TORPEDO order is refused and it flies the default.
		{name: "the other has no torpedo", prepare: func(st *State) { st.Plane("TBF2").Loaded = false }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newTestGame(t, shipsOnly)
			if c.prepare != nil {
				c.prepare(g.st)
			}
			next, evs, _ := Resolve(g.d, g.st, orders, &torpedoFours{})
			var tbf1, tbf2 []string
			for _, e := range eventsOf(evs, EvTorpedo) {
				switch e.Unit {
				case "TBF1":
					tbf1 = append(tbf1, e.Text)
				case "TBF2":
					tbf2 = append(tbf2, e.Text)
				}
			}
			mod, result := "-2, rolled 4: a miss", false
			if c.hit {
				mod, result = "-1, rolled 4: a hit", true
			}
			want := "TBF1 launched a torpedo at KAGA from 5 hexes (stern side on): needs 3, modifier " + mod
			if len(tbf1) != 1 || !strings.HasPrefix(tbf1[0], want) {
				t.Errorf("TBF1's torpedo: %q, want %q", tbf1, want)
			}
			if hit := next.GroundNamed("KAGA").Damage >= TorpedoPoints; hit != result {
				t.Errorf("KAGA's damage %d: TBF1's hit %v, want %v", next.GroundNamed("KAGA").Damage, hit, result)
			}
			if c.tbf2 == "" {
				if len(tbf2) != 0 {
					t.Errorf("TBF2 launches nothing, yet: %q", tbf2)
				}
			} else if len(tbf2) != 1 || !strings.HasPrefix(tbf2[0], c.tbf2) {
				t.Errorf("TBF2's torpedo: %q, want %q", tbf2, c.tbf2)
			}
		})
	}
}
