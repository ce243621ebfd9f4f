package tables

import (
	"testing"

	"sortie/rules/afd/aircraft"
)

// Every gun position of every shipped aircraft card, and every card's combined fixed guns, fire on one of
// the 20 charts (seed 000, "Main combat rule changes": find the weapon mix among the charts).
func TestShippedCardsHaveCharts(t *testing.T) {
	reg, err := aircraft.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range reg.All() {
		mixes := []string{}
		if m := c.FixedMix(); m != "" {
			mixes = append(mixes, m)
		}
		for _, g := range c.Guns {
			mixes = append(mixes, g.Mix)
		}
		for _, m := range mixes {
			key, exact := ChartFor(m)
			if key == "" {
				t.Errorf("%s: mix %q has no chart", c.Key, m)
				continue
			}
			if !exact {
				t.Logf("%s: %s fires on %s", c.Key, m, key)
			}
		}
	}
}
