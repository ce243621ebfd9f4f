package rulesettest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Fence is one fenced code block of a Markdown text: the first word after its opening ``` (its kind,
// empty for none), the line of that fence (from 1), and the lines between the fences, each without a
// trailing carriage return.
type Fence struct {
	Kind  string
	Line  int
	Lines []string
}

// Fences are the fenced code blocks of doc, a Markdown text called name in the messages; a block left
// open fails t.
func Fences(t testing.TB, name, doc string) []Fence {
	t.Helper()
	var out []Fence
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(fence, "```") {
			continue
		}
		f := Fence{Line: i + 1}
		if info := strings.Fields(strings.TrimPrefix(fence, "```")); len(info) > 0 {
			f.Kind = info[0]
		}
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			f.Lines = append(f.Lines, strings.TrimRight(lines[i], "\r"))
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: unclosed code block", name, f.Line)
		}
		out = append(out, f)
	}
	return out
}

// Doc is the text of the file at path (a guide a test reads); a file that cannot be read fails t.
func Doc(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// DocFences are the fenced code blocks of the given kinds in the Markdown file at path (a guide's
// examples, which a test reads as the guide says they read), in the file's order.
func DocFences(t testing.TB, path string, kinds ...string) []Fence {
	t.Helper()
	var out []Fence
	for _, f := range Fences(t, filepath.Base(path), Doc(t, path)) {
		if slices.Contains(kinds, f.Kind) {
			out = append(out, f)
		}
	}
	return out
}
