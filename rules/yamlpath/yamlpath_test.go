package yamlpath

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestIndexAndAt(t *testing.T) {
	var doc yaml.Node
	src := "name: x\naircraft:\n  - callsign: A\n    speed: 5\n  - callsign: B\n    hex: [1, 2]\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	l := Index(&doc)
	for path, want := range map[string]int{
		"name": 1, "aircraft": 2, "aircraft[0]": 3, "aircraft[0].speed": 4, "aircraft[1].callsign": 5,
		"aircraft[1].hex[1]": 6, "aircraft[1].missing": 5, "aircraft[7].speed": 2, "nothing": 1,
	} {
		if got := l.At(path); got != want {
			t.Errorf("At(%q) = %d, want %d", path, got, want)
		}
	}
}
