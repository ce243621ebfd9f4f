package yamlpath

import (
	"errors"
	"strings"
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

// Messages reads every field a *yaml.TypeError could not decode with its line, and a syntax error's
// line, without the decoder's "yaml: ".
func TestMessages(t *testing.T) {
	var v struct {
		A int `yaml:"a"`
		B int `yaml:"b"`
	}
	err := yaml.Unmarshal([]byte("a: x\nb: y\n"), &v)
	got := Messages(err)
	if len(got) != 2 || got[0].Line != 1 || got[1].Line != 2 || !strings.HasPrefix(got[1].Text, "cannot unmarshal") {
		t.Errorf("type errors: %+v", got)
	}
	got = Messages(yaml.Unmarshal([]byte("a: [\n"), &v))
	if len(got) != 1 || got[0].Line == 0 || strings.HasPrefix(got[0].Text, "yaml: ") {
		t.Errorf("a syntax error: %+v", got)
	}
	// A message that runs over two lines keeps its line number.
	got = Messages(errors.New("yaml: line 3: found a tab\nwhere a space was expected"))
	if len(got) != 1 || got[0].Line != 3 || got[0].Text != "found a tab\nwhere a space was expected" {
		t.Errorf("a message over two lines: %+v", got)
	}
}
