package rulesettest

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// DocBlock is a fenced example in one of the project's documents: its kind (the word after the opening
// ```), the line number of its opening fence, and the lines between the fences.
type DocBlock struct {
	Kind  string
	Line  int
	Lines []string
}

// DocBlocks are the fenced examples of the given kinds in the document at path, in order; a document
// that cannot be read fails the test, and so does an example that is never closed (it runs to the
// document's end).
func DocBlocks(t testing.TB, path string, kinds ...string) []DocBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []DocBlock
	for i := 0; i < len(lines); i++ {
		kind, fence := strings.CutPrefix(strings.TrimSpace(lines[i]), "```")
		if !fence || !slices.Contains(kinds, kind) {
			continue
		}
		b := DocBlock{Kind: kind, Line: i + 1}
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			b.Lines = append(b.Lines, lines[i])
		}
		if i == len(lines) {
			// The rest of the document would show as the example's code.
			t.Errorf("%s:%d: the %s example is never closed (no ``` line after it)", path, b.Line, kind)
		}
		out = append(out, b)
	}
	return out
}
