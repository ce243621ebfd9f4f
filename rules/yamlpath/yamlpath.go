// Package yamlpath finds the line of a value in a YAML file by its path, so that every problem found in
// a data file, a scenario or a tables file can be reported with its line. Paths are written the way the
// problems name them: keys joined by dots, list items by their index in brackets, e.g.
// "aircraft[2].speed" or "gunnery.charts.8x30M.9[1]".
package yamlpath

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Lines maps paths to lines.
type Lines map[string]int

// Index walks a parsed YAML document. A mapping entry's line is its key's; a list item's is the item's.
func Index(doc *yaml.Node) Lines {
	idx := Lines{}
	var walk func(n *yaml.Node, p string)
	walk = func(n *yaml.Node, p string) {
		if _, ok := idx[p]; !ok {
			idx[p] = n.Line
		}
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, p)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				cp := k.Value
				if p != "" {
					cp = p + "." + k.Value
				}
				idx[cp] = k.Line
				walk(v, cp)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				cp := fmt.Sprintf("%s[%d]", p, i)
				idx[cp] = c.Line
				walk(c, cp)
			}
		}
	}
	walk(doc, "")
	return idx
}

// At is the line of the path, or of its nearest ancestor present in the file, or the document's first
// line.
func (l Lines) At(p string) int {
	for {
		if n, ok := l[p]; ok {
			return n
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			return l[""]
		}
		p = p[:i]
	}
}
