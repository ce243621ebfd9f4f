package afd

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"sortie/rules/ruleset/rulesettest"
)

// TestScenarioDocExamples loads every ```yaml example of docs/scenarios.md: a whole scenario as it is,
// a fragment (ground units, roads, flak, aircraft) inside a scenario that gives it the sides and players
// it names and an aircraft for each side.
func TestScenarioDocExamples(t *testing.T) {
	blocks := rulesettest.DocBlocks(t, "../../docs/scenarios.md", "yaml")
	for _, b := range blocks {
		text := strings.Join(b.Lines, "\n")
		if !strings.Contains(text, "ruleset:") {
			text = wrapFragment(t, b.Line, text)
		}
		sc, err := ParseScenario([]byte(text), "scenarios.md")
		if err == nil {
			_, err = NewGame(sc, testEnv(t).Cards)
		}
		if err != nil {
			t.Errorf("scenarios.md:%d: %v\n%s", b.Line, err, text)
		}
	}
	if n := len(blocks); n < 3 {
		t.Errorf("only %d yaml examples found", n)
	}
}

// wrapFragment makes a whole scenario of a fragment: the sides and players its units name, and an
// aircraft for each side that has none in it.
func wrapFragment(t *testing.T, line int, frag string) string {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(frag), &doc); err != nil {
		t.Fatalf("scenarios.md:%d: %v", line, err)
	}
	sides := map[string]string{} // side -> a player of it
	var order []string
	withPlanes := map[string]bool{}
	var walk func(v any, top string)
	walk = func(v any, top string) {
		switch x := v.(type) {
		case map[string]any:
			if s, ok := x["side"].(string); ok {
				if _, seen := sides[s]; !seen {
					order = append(order, s)
					sides[s] = ""
				}
				if p, ok := x["player"].(string); ok {
					sides[s] = p
				}
				if top == "aircraft" {
					withPlanes[s] = true
				}
			}
			for _, c := range x {
				walk(c, top)
			}
		case []any:
			for _, c := range x {
				walk(c, top)
			}
		}
	}
	for k, v := range doc {
		walk(v, k)
	}
	if len(order) < 2 {
		order = append(order, "OTHER")
		sides["OTHER"] = ""
	}
	var b strings.Builder
	b.WriteString("ruleset: afd\nname: doc example\nturns: 5\nsides: [" + strings.Join(order, ", ") + "]\nplayers:\n")
	for k, s := range order {
		if sides[s] == "" {
			sides[s] = "player" + string(rune('a'+k))
		}
		b.WriteString("  - {id: " + sides[s] + ", side: " + s + "}\n")
	}
	extra := ""
	for k, s := range order {
		if !withPlanes[s] {
			extra += "  - {callsign: DOC" + string(rune('A'+k)) + ", type: hurricane-i, side: " + s + ", player: " + sides[s] + ", hex: [" + string(rune('0'+k)) + ", 30], facing: 0, alt: 8000, speed: 4.0}\n"
		}
	}
	if strings.Contains(frag, "aircraft:") {
		frag = strings.Replace(frag, "aircraft:\n", "aircraft:\n"+extra, 1)
	} else {
		frag += "\naircraft:\n" + extra
	}
	b.WriteString(frag + "\n")
	return b.String()
}
