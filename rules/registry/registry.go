// Package registry names the rulesets Sortie can run. Adding a ruleset is one line in builtin; each
// loads on its own, so a broken data file of one is reported for that one while the others still run.
package registry

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"sortie/rules/afd"
	"sortie/rules/ruleset"
	"sortie/rules/swarm"
	"sortie/rules/tnl"
)

// builtin lists the rulesets Sortie ships, one line each: the first is the default of the command line.
var builtin = []entry{
	{"afd", func() (ruleset.Ruleset, error) { env, err := afd.DefaultEnv(); return afd.Ruleset{Env: env}, err }},
	{"swarm", func() (ruleset.Ruleset, error) { _, err := swarm.DefaultData(); return swarm.Ruleset{}, err }},
	{"tnl", func() (ruleset.Ruleset, error) { _, err := tnl.DefaultData(); return tnl.Ruleset{}, err }},
}

type entry struct {
	name string
	load func() (ruleset.Ruleset, error)
}

// Set is a fixed collection of rulesets by name, with those that failed to load and why. A Set never
// changes once made: a program or a test that needs a ruleset beside the shipped ones makes a new Set
// (With) and hands it to what runs games.
type Set struct {
	sets   map[string]ruleset.Ruleset
	failed map[string]error
	order  []string // names in the order they were added
}

// shipped loads the built-in rulesets once, on first use; its value is never changed after.
var shipped = sync.OnceValue(func() *Set { return load(builtin) })

// load makes a set of the rulesets of list, each loaded on its own.
func load(list []entry) *Set {
	s := &Set{sets: map[string]ruleset.Ruleset{}, failed: map[string]error{}}
	for _, e := range list {
		s.order = append(s.order, e.name)
		r, err := e.load()
		if err != nil {
			s.failed[e.name] = fmt.Errorf("ruleset %s cannot be used: %w", e.name, err)
			continue
		}
		s.sets[e.name] = r
	}
	return s
}

// Shipped is the set of the rulesets Sortie ships.
func Shipped() *Set { return shipped() }

// With is a new set of s's rulesets and the extra ones: a ruleset in a test folder, or one that
// misbehaves on purpose. A name already taken is refused. The empty Set{} is a set of none.
func (s *Set) With(extra ...ruleset.Ruleset) (*Set, error) {
	n := &Set{sets: map[string]ruleset.Ruleset{}, failed: maps.Clone(s.failed), order: slices.Clone(s.order)}
	maps.Copy(n.sets, s.sets)
	for _, r := range extra {
		name := r.Name()
		_, ok := n.sets[name]
		_, bad := n.failed[name]
		if ok || bad {
			return nil, fmt.Errorf("registry: a ruleset %q is already in the set", name)
		}
		n.sets[name] = r
		n.order = append(n.order, name)
	}
	return n, nil
}

// Get returns the ruleset with a name, or why it cannot be used.
func (s *Set) Get(name string) (ruleset.Ruleset, error) {
	r, ok := s.sets[name]
	if err := s.failed[name]; err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no ruleset %q (known: %s)", name, strings.Join(s.Names(), ", "))
	}
	return r, nil
}

// Default is the ruleset the command line uses when none is named: the first one that loaded.
func (s *Set) Default() (ruleset.Ruleset, error) {
	var errs []error
	for _, n := range s.order {
		if r, ok := s.sets[n]; ok {
			return r, nil
		}
		errs = append(errs, s.failed[n])
	}
	return nil, errors.Join(append([]error{errors.New("no ruleset could be loaded")}, errs...)...)
}

// Names lists the rulesets, sorted, those that failed to load included (Get says why).
func (s *Set) Names() []string {
	out := slices.Collect(maps.Keys(s.sets))
	out = slices.AppendSeq(out, maps.Keys(s.failed))
	sort.Strings(out)
	return out
}

// Get is Shipped().Get.
func Get(name string) (ruleset.Ruleset, error) { return Shipped().Get(name) }

// Default is Shipped().Default.
func Default() (ruleset.Ruleset, error) { return Shipped().Default() }

// Names is Shipped().Names.
func Names() []string { return Shipped().Names() }

// Detect reads the ruleset a scenario names with its top-level `ruleset:` key. The file is read as
// YAML, so the word in a comment, a block of text or a nested section names nothing.
func Detect(scenario []byte) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(scenario, &doc); err != nil {
		var msgs []string
		for _, p := range ruleset.YAMLProblems(err, nil) {
			if p.Line > 0 {
				msgs = append(msgs, fmt.Sprintf("line %d: %s", p.Line, p.Msg))
			} else {
				msgs = append(msgs, p.Msg)
			}
		}
		return "", fmt.Errorf("the scenario cannot be read: %s", strings.Join(msgs, "; "))
	}
	if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		top := doc.Content[0].Content
		for i := 0; i+1 < len(top); i += 2 {
			if top[i].Value != "ruleset" {
				continue
			}
			if v := top[i+1]; v.Kind == yaml.ScalarNode && v.Value != "" {
				return v.Value, nil
			}
			return "", fmt.Errorf("line %d: ruleset: names the ruleset the scenario is for, such as afd", top[i+1].Line)
		}
	}
	return "", fmt.Errorf("the scenario does not say which ruleset it is for (ruleset: afd)")
}
