// Package registry names the rulesets Sortie can run. Adding a ruleset is one line here (design.md
// invariant 5).
package registry

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"sortie/rules/afd"
	"sortie/rules/ruleset"
	"sortie/rules/swarm"
)

var (
	once    sync.Once
	sets    map[string]ruleset.Ruleset
	loadErr error
)

func load() {
	sets = map[string]ruleset.Ruleset{}
	env, err := afd.DefaultEnv()
	if err != nil {
		loadErr = err
		return
	}
	register(afd.Ruleset{Env: env})
	register(swarm.Ruleset{})
}

func register(r ruleset.Ruleset) { sets[r.Name()] = r }

var mu sync.Mutex

// Register adds a ruleset beside the built-in ones (tests use it for a ruleset that misbehaves on
// purpose). It replaces one of the same name.
func Register(r ruleset.Ruleset) {
	once.Do(load)
	mu.Lock()
	defer mu.Unlock()
	sets[r.Name()] = r
}

// Get returns the ruleset with a name.
func Get(name string) (ruleset.Ruleset, error) {
	once.Do(load)
	if loadErr != nil {
		return nil, loadErr
	}
	mu.Lock()
	r, ok := sets[name]
	mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no ruleset %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return r, nil
}

// Names lists the rulesets, sorted.
func Names() []string {
	once.Do(load)
	mu.Lock()
	var out []string
	for n := range sets {
		out = append(out, n)
	}
	mu.Unlock()
	sort.Strings(out)
	return out
}

// Detect reads the ruleset named by a scenario's top-level `ruleset:` line.
func Detect(scenario []byte) (string, error) {
	for _, line := range strings.Split(string(scenario), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "ruleset:"); ok {
			name := strings.Trim(strings.TrimSpace(rest), `"'`)
			if i := strings.Index(name, "#"); i >= 0 {
				name = strings.TrimSpace(name[:i])
			}
			return name, nil
		}
	}
	return "", fmt.Errorf("the scenario does not say which ruleset it is for (ruleset: afd)")
}
