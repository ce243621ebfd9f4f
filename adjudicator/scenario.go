package adjudicator

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
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

// decodeService reads the `service:` section strictly: a misspelt key is an error naming its line.
func decodeService(scenario []byte, source string) (serviceSection, error) {
	var top struct {
		Service serviceSection `yaml:"service"`
		Game    map[string]any `yaml:",inline"` // the ruleset's part, read by the ruleset
	}
	dec := yaml.NewDecoder(bytes.NewReader(scenario))
	dec.KnownFields(true)
	if err := dec.Decode(&top); err != nil {
		return serviceSection{}, fmt.Errorf("%s: service: %w", source, err)
	}
	return top.Service, nil
}
