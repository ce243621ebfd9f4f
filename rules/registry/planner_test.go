package registry

import (
	"io/fs"
	"sort"
	"strings"
	"testing"

	"sortie/rules/ruleset"
)

// awaitingPlanner names the shipped rulesets whose games do not yet offer the plotting board's plans
// (ruleset.Planner), with the work that brings them. A ruleset leaves the list the day its games are
// Planners; TestShippedGamesArePlanners fails for one still listed then, so the list stays true.
func awaitingPlanner() map[string]string {
	return map[string]string{} // every shipped ruleset's games are Planners
}

// TestShippedGamesArePlanners: every shipped ruleset's games can be tried on the plotting board
// (docs/web.md): a new game of each bundled scenario implements ruleset.Planner.
func TestShippedGamesArePlanners(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			rs, err := Get(name)
			if err != nil {
				t.Fatal(err)
			}
			b, ok := rs.(ruleset.Bundled)
			if !ok {
				t.Fatalf("%s ships no scenarios to try", name)
			}
			files, err := fs.Glob(b.Scenarios(), "*.yaml")
			if err != nil || len(files) == 0 {
				t.Fatalf("%s's bundled scenarios: %v %v", name, files, err)
			}
			sort.Strings(files)
			var not []string
			for _, f := range files {
				data, err := fs.ReadFile(b.Scenarios(), f)
				if err != nil {
					t.Fatal(err)
				}
				g, err := rs.NewGame(data, b.Scenarios(), f)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if _, ok := g.(ruleset.Planner); !ok {
					not = append(not, f)
				}
			}
			who, awaited := awaitingPlanner()[name]
			switch {
			case len(not) > 0 && awaited:
				t.Skipf("%s's games are not yet Planners (%s): awaited from %s", name, strings.Join(not, ", "), who)
			case len(not) > 0:
				t.Errorf("%s's games of %s are not ruleset.Planner: the plotting board cannot try their orders", name, strings.Join(not, ", "))
			case awaited:
				t.Errorf("%s's games are Planners now: take %s off awaitingPlanner", name, name)
			}
		})
	}
}
