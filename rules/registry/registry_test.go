package registry

import (
	"errors"
	"strings"
	"testing"

	"sortie/rules/ruleset"
)

// A broken data file of one ruleset is reported for that ruleset; the others still load, and the
// command line's default moves to the first one that works.
func TestOneBrokenRulesetLeavesTheOthers(t *testing.T) {
	real := append([]entry(nil), builtin...)
	broken := errors.New("aircraft/data/spitfire-i.yaml:12: speed is not a number")
	list := []entry{{name: real[0].name, load: func() (ruleset.Ruleset, error) { return nil, broken }}}
	list = append(list, real[1:]...)
	set := load(list)

	_, err := set.Get(real[0].name)
	if !errors.Is(err, broken) || !strings.Contains(err.Error(), real[0].name) {
		t.Fatalf("Get(%q) = %v, want the broken file's error naming the ruleset", real[0].name, err)
	}
	for _, e := range real[1:] {
		if _, err := set.Get(e.name); err != nil {
			t.Errorf("%s must still load when %s is broken: %v", e.name, real[0].name, err)
		}
	}
	if got := set.Names(); len(got) != len(real) {
		t.Errorf("Names() = %v: every ruleset is listed, the broken one too", got)
	}
	d, err := set.Default()
	if err != nil || d.Name() != real[1].name {
		t.Errorf("Default() = %v, %v: want the first ruleset that loaded", d, err)
	}
}

// A set with an extra ruleset refuses a name already taken, and leaves the shipped set as it was.
func TestWithRefusesATakenName(t *testing.T) {
	r, err := Get("swarm")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Shipped().With(r); err == nil {
		t.Error("a second ruleset named swarm was accepted")
	}
	extra, err := Shipped().With(renamed{r})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := extra.Get("swarm2"); err != nil {
		t.Errorf("the new set lacks its extra ruleset: %v", err)
	}
	if _, err := Get("swarm2"); err == nil {
		t.Error("making a set with an extra ruleset changed the shipped set")
	}
	// The empty set takes rulesets too.
	only, err := (&Set{}).With(renamed{r})
	if err != nil {
		t.Fatal(err)
	}
	if got := only.Names(); len(got) != 1 || got[0] != "swarm2" {
		t.Errorf("a set made from none: %v", got)
	}
}

// renamed is a ruleset under another name.
type renamed struct{ ruleset.Ruleset }

func (renamed) Name() string { return "swarm2" }

// Detect reads the scenario's top-level ruleset key as YAML: the word nested in a section, in a comment
// or inside a block of text names nothing, and a quoted or commented value is read as YAML reads it.
func TestDetectReadsTheTopLevelKey(t *testing.T) {
	for _, c := range []struct {
		name, scenario, want string
	}{
		{"plain", "ruleset: tnl\nturns: 3\n", "tnl"},
		{"quoted with a comment", "title: x\nruleset: \"swarm\" # the squadron game\n", "swarm"},
		{"after a nested one", "service:\n  ruleset: afd\nruleset: tnl\n", "tnl"},
		{"after a block of text", "briefing: |\n  ruleset: afd\n  is what the old game said\nruleset: swarm\n", "swarm"},
		{"after a comment", "# ruleset: afd\nruleset: tnl\n", "tnl"},
	} {
		if got, err := Detect([]byte(c.scenario)); err != nil || got != c.want {
			t.Errorf("%s: Detect = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	for _, c := range []struct{ name, scenario string }{
		{"only nested", "service:\n  ruleset: afd\nturns: 3\n"},
		{"only in a comment", "# ruleset: afd\nturns: 3\n"},
		{"only in a block of text", "briefing: |\n  ruleset: afd\nturns: 3\n"},
		{"only in a folded string", "briefing: >\n  the old file said\n  ruleset: afd\n"},
		{"a list, not a value", "ruleset:\n  - afd\n"},
	} {
		if got, err := Detect([]byte(c.scenario)); err == nil {
			t.Errorf("%s: Detect = %q, want an error: the scenario names no ruleset", c.name, got)
		}
	}
}
