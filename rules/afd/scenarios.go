package afd

import (
	"embed"

	"sortie/rules/ruleset"
)

//go:embed scenarios/*.yaml
var scenarioFS embed.FS

var bundle = ruleset.Bundle{FS: scenarioFS, Dir: "scenarios"}

// BundledScenarios lists the scenarios shipped with Sortie, by name without extension.
func BundledScenarios() []string { return bundle.Names() }

// BundledScenario reads a shipped scenario by name.
func BundledScenario(name string) (*Scenario, error) {
	data, err := bundle.File(name)
	if err != nil {
		return nil, err
	}
	return ParseScenario(data, name+".yaml")
}

// BundledScenarioFile returns a shipped scenario's file as written.
func BundledScenarioFile(name string) ([]byte, error) { return bundle.File(name) }
