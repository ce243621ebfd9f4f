package swarm

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed scenarios/*.yaml
var scenarioFS embed.FS

// BundledScenarios lists the Swarm scenarios shipped with Sortie, by name without extension.
func BundledScenarios() []string {
	entries, _ := fs.ReadDir(scenarioFS, "scenarios")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// DefaultScenario is the bundled scenario `sortie demo --ruleset swarm` plays.
const DefaultScenario = "kanalkampf-1940"

// BundledScenarioFile returns a shipped scenario's file as written.
func BundledScenarioFile(name string) ([]byte, error) {
	return scenarioFS.ReadFile("scenarios/" + name + ".yaml")
}
