package tnl

import (
	"embed"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"sortie/rules/ruleset"
)

//go:embed scenarios/*.yaml
var scenarioFS embed.FS

var bundle = ruleset.Bundle{FS: scenarioFS, Dir: "scenarios"}

// DefaultScenario is the bundled scenario `sortie demo --ruleset tnl` plays.
const DefaultScenario = "battle-of-britain"

// BundledScenarioFile returns a shipped scenario's file.
func BundledScenarioFile(name string) ([]byte, error) { return bundle.File(name) }

// Scenarios is the folder of bundled scenarios (ruleset.Bundled).
func (Ruleset) Scenarios() fs.FS { return bundle.Folder() }

// DefaultScenario names the demo's scenario (ruleset.Bundled).
func (Ruleset) DefaultScenario() string { return DefaultScenario }

// DemoOrders plays a seat in `sortie demo` (ruleset.DemoPilot): each unit's ready-made line, with the
// fighters of a unit turning towards the nearest enemy one of them sees at its own level (or, failing
// one, at any level) when that enemy is not ahead: a hexside for every two clock hours off the nose,
// each after the fly-straight run, in phase 1 and then phase 2. Bombers keep their course.
func (Ruleset) DemoOrders(report, block string) string {
	if !strings.Contains(block, ": ") {
		return ""
	}
	type lead struct {
		cs      string
		fs      int
		fighter bool
	}
	leads := map[string]lead{}
	unitOf := map[string]string{}
	type contact struct {
		dist, clock int
		same        bool
	}
	seen := map[string][]contact{}
	for _, l := range strings.Split(report, "\n") {
		if m := demoOwnRE.FindStringSubmatch(l); m != nil {
			unitOf[m[1]] = m[3]
			if _, ok := leads[m[3]]; !ok {
				fs, _ := strconv.Atoi(m[4])
				leads[m[3]] = lead{cs: m[1], fs: fs, fighter: fighterType(m[2])}
			}
		} else if m := demoFromRE.FindStringSubmatch(l); m != nil {
			d, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			seen[unitOf[m[1]]] = append(seen[unitOf[m[1]]], contact{dist: d, clock: c, same: m[4] == "same level"})
		}
	}
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		unit, order, ok := strings.Cut(l, ": ")
		if !ok || strings.Contains(order, ";") || strings.HasPrefix(order, "DIVE") || strings.HasPrefix(order, "CLIMB") {
			continue
		}
		ld, ok := leads[unit]
		if !ok || !ld.fighter {
			continue
		}
		var best *contact
		for k := range seen[unit] {
			c := &seen[unit][k]
			if best == nil || c.same && !best.same || c.same == best.same && c.dist < best.dist {
				best = c
			}
		}
		if best == nil || best.clock == 11 || best.clock == 12 || best.clock == 1 {
			continue
		}
		p1, rest, ok := strings.Cut(order, " / ")
		p2, fire, _ := strings.Cut(rest, " ")
		n1, err1 := strconv.Atoi(p1)
		n2, err2 := strconv.Atoi(p2)
		if !ok || err1 != nil || err2 != nil || ld.fs < 1 {
			continue
		}
		turn := "TR"
		if best.clock > 6 {
			turn = "TL"
		}
		// Hexsides to turn: one for every two clock hours off the nose, a half up.
		k := (min(best.clock, 12-best.clock) + 1) / 2
		plot1, k := demoTurns(n1, ld.fs, k, turn)
		plot2, _ := demoTurns(n2, ld.fs, k, turn)
		lines[i] = unit + ": " + plot1 + " / " + plot2 + " " + fire
		continue
	}
	return strings.Join(lines, "\n")
}

// demoTurns writes a phase of n hexes with up to k turns, each after fs hexes straight, and says how many
// turns are left for the next phase.
func demoTurns(n, fs, k int, turn string) (string, int) {
	var parts []string
	for k > 0 && n >= fs {
		parts = append(parts, strconv.Itoa(fs), turn)
		n -= fs
		k--
	}
	if n > 0 {
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, " "), k
}

// fighterType reports whether a type key is a fighter's: bombers keep their course in the demo.
func fighterType(key string) bool {
	d, err := DefaultData()
	if err != nil {
		return false
	}
	sh, ok := d.Sheet(key)
	return ok && sh.Fighter()
}

var (
	demoOwnRE  = regexp.MustCompile(`^\s+(\S+)\s+(\S+): unit (\S+): .*, FS (\d+),`)
	demoFromRE = regexp.MustCompile(`^\s+from (\S+): (\d+) hexes at (\d+) o'clock, (same level|at .*)$`)
)
