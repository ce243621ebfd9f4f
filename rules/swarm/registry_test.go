package swarm_test

import (
	"testing"

	"sortie/rules/registry"
	"sortie/rules/swarm"
)

// The registry knows Swarm by name and reads its scenarios' ruleset line.
func TestSwarmRegistered(t *testing.T) {
	rs, err := registry.Get("swarm")
	if err != nil || rs.Name() != "swarm" {
		t.Fatalf("registry: %v", err)
	}
	data, err := swarm.BundledScenarioFile(swarm.DefaultScenario)
	if err != nil {
		t.Fatal(err)
	}
	if name, err := registry.Detect(data); err != nil || name != "swarm" {
		t.Errorf("detect: %q %v", name, err)
	}
	if _, err := rs.NewGame(data, nil, "k.yaml"); err != nil {
		t.Errorf("the bundled scenario: %v", err)
	}
	if len(swarm.BundledScenarios()) == 0 {
		t.Error("no bundled scenarios")
	}
}
