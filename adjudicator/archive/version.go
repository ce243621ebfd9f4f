package archive

import (
	"fmt"
	"runtime/debug"
	"sortie/rules/registry"
	"strings"
)

// sortieBuild names the running build: module, version, VCS revision and Go version, as far as the
// binary records them.
func sortieBuild() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "sortie (no build information)"
	}
	parts := []string{bi.Main.Path, bi.Main.Version}
	if parts[0] == "" {
		parts[0] = "sortie"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision", "vcs.time", "vcs.modified":
			parts = append(parts, s.Key+"="+s.Value)
		}
	}
	parts = append(parts, bi.GoVersion)
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

// RulesVersion fingerprints the rules data a ruleset plays with, as "NAME@sha256:HEX": for afd, every
// shipped aircraft card as the engine uses it (derived from the data files) and every cell of the house
// tables, read through their lookups. It changes whenever a card or a table changes; the engine's code
// is named by the build recorded beside it in the manifest.
func RulesVersion(name string) (string, error) {
	rs, err := registry.Get(name)
	if err != nil {
		return "", err
	}
	v, err := rs.Version()
	if err != nil {
		return "", fmt.Errorf("rules version of %s: %w", name, err)
	}
	return v, nil
}
