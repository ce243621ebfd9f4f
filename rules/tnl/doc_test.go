package tnl

import (
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/tnl/notation"
)

// docBlocks returns the key: value blocks of one kind in docs/notation.md, with their line numbers.
func docBlocks(t *testing.T, kind string) ([]map[string]string, []int) {
	t.Helper()
	var out []map[string]string
	var at []int
	for _, block := range rulesettest.DocBlocks(t, "../../docs/notation.md", kind) {
		at = append(at, block.Line)
		b := map[string]string{}
		for j, line := range block.Lines {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("notation.md:%d: %q is not key: value", block.Line+1+j, line)
			}
			b[k] = strings.TrimSpace(v)
		}
		out = append(out, b)
	}
	return out, at
}

// Every ```tnl block of the guide reads as it says: its canonical echo, or its error at its column.
func TestNotationGuideTnl(t *testing.T) {
	blocks, at := docBlocks(t, "tnl")
	if len(blocks) < 8 {
		t.Fatalf("the guide has %d Thunderbolt & Lightning examples", len(blocks))
	}
	for i, b := range blocks {
		o, ds := notation.Parse(b["input"])
		if want, ok := b["canonical"]; ok {
			if parser.HasErrors(ds) || o.String() != want {
				t.Errorf("notation.md:%d: %q reads as %q %v, the guide says %q", at[i], b["input"], o.String(), ds, want)
			}
			continue
		}
		col, _ := strconv.Atoi(b["col"])
		found := false
		for _, d := range ds {
			found = found || d.Code == b["error"] && d.Col == col
		}
		if !found {
			t.Errorf("notation.md:%d: %q: the guide says %s at column %d, got %v", at[i], b["input"], b["error"], col, ds)
		}
	}
}

// Every ```tnl-move block flies as the guide says.
func TestNotationGuideTnlMoves(t *testing.T) {
	blocks, at := docBlocks(t, "tnl-move")
	if len(blocks) < 4 {
		t.Fatalf("the guide has %d movement examples", len(blocks))
	}
	for i, b := range blocks {
		sh := sheet(t, b["type"])
		o, ds := notation.Parse(b["plot"] + " / 1")
		if parser.HasErrors(ds) {
			t.Errorf("notation.md:%d: %v", at[i], ds)
			continue
		}
		r := FlyPhase(Pos{}, 0, o.Segments[0].Phases[0], sh.FS)
		var codes []string
		for _, e := range r.Errors {
			codes = append(codes, e.Code)
		}
		if got := strings.Join(codes, " "); got != b["error"] {
			t.Errorf("notation.md:%d: errors %q, the guide says %q", at[i], got, b["error"])
		}
		if want, ok := b["end"]; ok {
			if got := "hex " + r.End.Hex.String() + " facing " + r.End.Facing.String() + invText(r.End.Inverted); got != want {
				t.Errorf("notation.md:%d: ends %q, the guide says %q", at[i], got, want)
			}
		}
		if want, ok := b["hexes"]; ok && strconv.Itoa(r.Hexes) != want {
			t.Errorf("notation.md:%d: %d hexes, the guide says %s", at[i], r.Hexes, want)
		}
	}
}
