package swarm

import (
	"io/fs"
	"strings"
)

// Scenarios is the folder of bundled scenarios (ruleset.Bundled).
func (Ruleset) Scenarios() fs.FS { return bundle.Folder() }

// DefaultScenario is the scenario `sortie demo --ruleset swarm` plays (ruleset.Bundled).
func (Ruleset) DefaultScenario() string { return DefaultScenario }

// DemoOrders plays a seat in `sortie demo` (ruleset.DemoPilot): the report's ready-made orders as they
// stand, and nothing when the block has no order line (every squadron flies a plotted course).
func (Ruleset) DemoOrders(report, block string) string {
	for _, l := range strings.Split(block, "\n") {
		if strings.Contains(l, ": ") {
			return block
		}
	}
	return ""
}
