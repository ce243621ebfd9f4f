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
func RulesVersion(name string, opts ...Option) (string, error) {
	rs, err := rulesetsOf(opts).Get(name)
	if err != nil {
		return "", err
	}
	v, err := rs.Version()
	if err != nil {
		return "", fmt.Errorf("rules version of %s: %w", name, err)
	}
	return v, nil
}

// Option sets which rulesets an archive is made, replayed or verified with.
type Option func(*options)

type options struct{ rules *registry.Set }

// WithRulesets has the archive read games of the rulesets in set (registry.Shipped unless given): the
// set of the service the game was played on (Export hands it on), or a test's own.
func WithRulesets(set *registry.Set) Option { return func(o *options) { o.rules = set } }

func rulesetsOf(opts []Option) *registry.Set {
	o := options{rules: registry.Shipped()}
	for _, f := range opts {
		f(&o)
	}
	return o.rules
}
