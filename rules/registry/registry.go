// Package registry names the rulesets Sortie can run. Adding a ruleset is one line in builtin; each
// loads on its own, so a broken data file of one is reported for that one while the others still run.
package registry

import (
	"errors"
	"fmt"
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

var (
	once   sync.Once
	mu     sync.Mutex
	sets   map[string]ruleset.Ruleset
	failed map[string]error
	order  []string // names in the order they were added
)

func load() {
	mu.Lock()
	defer mu.Unlock()
	sets, failed = map[string]ruleset.Ruleset{}, map[string]error{}
	for _, e := range builtin {
		order = append(order, e.name)
		r, err := e.load()
		if err != nil {
			failed[e.name] = fmt.Errorf("ruleset %s cannot be used: %w", e.name, err)
			continue
		}
		sets[e.name] = r
	}
}

// Register adds a ruleset beside the built-in ones: a ruleset in a test folder, or one that misbehaves
// on purpose. A name already taken is refused.
func Register(r ruleset.Ruleset) error {
	once.Do(load)
	mu.Lock()
	defer mu.Unlock()
	name := r.Name()
	if _, ok := sets[name]; ok {
		return fmt.Errorf("registry: a ruleset %q is already registered", name)
	}
	if _, ok := failed[name]; ok {
		return fmt.Errorf("registry: a ruleset %q is already registered", name)
	}
	sets[name] = r
	order = append(order, name)
	return nil
}

// Get returns the ruleset with a name, or why it cannot be used.
func Get(name string) (ruleset.Ruleset, error) {
	once.Do(load)
	mu.Lock()
	r, ok := sets[name]
	err := failed[name]
	mu.Unlock()
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, fmt.Errorf("no ruleset %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return r, nil
}

// Default is the ruleset the command line uses when none is named: the first one that loaded.
func Default() (ruleset.Ruleset, error) {
	once.Do(load)
	mu.Lock()
	defer mu.Unlock()
	var errs []error
	for _, n := range order {
		if r, ok := sets[n]; ok {
			return r, nil
		}
		errs = append(errs, failed[n])
	}
	return nil, errors.Join(append([]error{errors.New("no ruleset could be loaded")}, errs...)...)
}

// Names lists the rulesets, sorted, those that failed to load included (Get says why).
func Names() []string {
	once.Do(load)
	mu.Lock()
	var out []string
	for n := range sets {
		out = append(out, n)
	}
	for n := range failed {
		out = append(out, n)
	}
	mu.Unlock()
	sort.Strings(out)
	return out
}

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
