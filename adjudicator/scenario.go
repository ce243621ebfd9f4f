package adjudicator

import (
	"bytes"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"sortie/rules/ruleset"
	"sortie/rules/yamlpath"
)

// A scenario file has one owner per part: the service reads its top-level `service:` section (who plays,
// deadlines, the moderator), and the game's ruleset reads the rest. GamePart is what the ruleset gets.

// GamePart returns the scenario with its `service:` section blanked out line for line, so the ruleset
// reads only its own part and every problem it reports keeps its line in the moderator's file.
func GamePart(scenario []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(scenario, &root); err != nil {
		return nil, err
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return scenario, nil
	}
	top := root.Content[0]
	lines := strings.SplitAfter(string(scenario), "\n")
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "service" {
			continue
		}
		from := top.Content[i].Line // 1-based
		to := len(lines)            // the last line of the section: before the next top-level key
		if i+2 < len(top.Content) {
			to = top.Content[i+2].Line - 1
		}
		for l := from; l <= to && l <= len(lines); l++ {
			if strings.HasSuffix(lines[l-1], "\n") {
				lines[l-1] = "\n"
			} else {
				lines[l-1] = ""
			}
		}
	}
	return []byte(strings.Join(lines, "")), nil
}

// decodeService reads the `service:` section strictly: a misspelt key or a value of the wrong kind is a
// problem on its line. What could be read is returned beside the problems.
func decodeService(scenario []byte) (serviceSection, []ruleset.ScenarioProblem) {
	var top struct {
		Service serviceSection `yaml:"service"`
		Game    map[string]any `yaml:",inline"` // the ruleset's part, read by the ruleset
	}
	dec := yaml.NewDecoder(bytes.NewReader(scenario))
	dec.KnownFields(true)
	if err := dec.Decode(&top); err != nil {
		return top.Service, ruleset.YAMLProblems(err, &top)
	}
	return top.Service, nil
}

// scenarioLines indexes the lines of a scenario's paths (e.g. "service.players.bob.email"), so a
// problem the service finds is reported on its line; nil when the file is not YAML.
func scenarioLines(scenario []byte) yamlpath.Lines {
	var root yaml.Node
	if err := yaml.Unmarshal(scenario, &root); err != nil {
		return nil
	}
	return yamlpath.Index(&root)
}

// misspeltEmail says a seat's mail address is missing because its key was misspelt: an unknown key
// that suggests "email" stands among the seat's lines, and was reported already.
func misspeltEmail(found []ruleset.ScenarioProblem, lines yamlpath.Lines, seatPath string, seats []string) bool {
	from := lines.At(seatPath)
	to := int(^uint(0) >> 1)
	for _, k := range seats {
		if l := lines.At("service.players." + k); l > from && l < to {
			to = l
		}
	}
	for _, p := range found {
		if p.Line >= from && p.Line < to && strings.Contains(p.Msg, `did you mean "email"`) {
			return true
		}
	}
	return false
}

// sortedSeatKeys is the players of a service section in name order.
func sortedSeatKeys(m map[string]seatSection) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
