package swarm

import (
	"embed"

	"sortie/rules/ruleset"
)

//go:embed scenarios/*.yaml
var scenarioFS embed.FS

var bundle = ruleset.Bundle{FS: scenarioFS, Dir: "scenarios"}

// BundledScenarios lists the Swarm scenarios shipped with Sortie, by name without extension.
func BundledScenarios() []string { return bundle.Names() }

// DefaultScenario is the bundled scenario `sortie demo --ruleset swarm` plays.
const DefaultScenario = "kanalkampf-1940"

// BundledScenarioFile returns a shipped scenario's file as written.
func BundledScenarioFile(name string) ([]byte, error) { return bundle.File(name) }
