package afd

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed scenarios/*.yaml
var scenarioFS embed.FS

// BundledScenarios lists the scenarios shipped with Sortie, by name without extension.
func BundledScenarios() []string {
	entries, _ := fs.ReadDir(scenarioFS, "scenarios")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// BundledScenario reads a shipped scenario by name.
func BundledScenario(name string) (*Scenario, error) {
	data, err := scenarioFS.ReadFile("scenarios/" + name + ".yaml")
	if err != nil {
		return nil, err
	}
	return ParseScenario(data, name+".yaml")
}

// BundledScenarioFile returns a shipped scenario's file as written.
func BundledScenarioFile(name string) ([]byte, error) {
	return scenarioFS.ReadFile("scenarios/" + name + ".yaml")
}
