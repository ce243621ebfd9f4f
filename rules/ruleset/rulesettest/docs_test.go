package rulesettest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// DocBlocks finds the examples of the kinds asked for, numbered by their opening fence, and passes over
// the others; an example left open runs to the document's end.
func TestDocBlocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guide.md")
	doc := "# Guide\n```tnl\ninput: 6 / 6\n```\n```swarm\nx\n```\n  ```flak  \ninput: HOLD\ncol: 3\n```\n```tnl\nopen"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	got := DocBlocks(t, path, "tnl", "flak")
	want := []DocBlock{
		{Kind: "tnl", Line: 2, Lines: []string{"input: 6 / 6"}},
		{Kind: "flak", Line: 8, Lines: []string{"input: HOLD", "col: 3"}},
		{Kind: "tnl", Line: 12, Lines: []string{"open"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
