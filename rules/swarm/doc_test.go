package swarm

import (
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/swarm/notation"
)

// TestNotationGuideSwarmMoves flies every ```swarm-move block of docs/notation.md and checks the hexes,
// end and errors the guide promises.
func TestSwarmNotationGuideMoves(t *testing.T) {
	blocks := rulesettest.DocBlocks(t, "../../docs/notation.md", "swarm-move")
	for _, block := range blocks {
		at := block.Line
		b := map[string]string{}
		var errs []string
		for j, line := range block.Lines {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("notation.md:%d: %q is not key: value", at+1+j, line)
			}
			if k == "error" {
				errs = append(errs, strings.TrimSpace(v))
				continue
			}
			b[k] = strings.TrimSpace(v)
		}
		ty := &Type{Name: "squadron", MPH: 450, Steps: [3]int{2, 2, 2}}
		if key := b["type"]; key != "" {
			ty = typeOf(t, key)
		}
		facing, _ := strconv.Atoi(b["facing"])
		o, ds := notation.ParseSwarmOrder(b["plot"])
		if parser.HasErrors(ds) || len(o.Turns) != 1 {
			t.Errorf("notation.md:%d: %q does not parse: %v", at, b["plot"], ds)
			continue
		}
		m := Move(ty, tackOf(t, b["tack"]), Position{Facing: hexmap.Dir(facing)}, o.Turns[0])
		if got := codes(m.Errors); got != strings.Join(errs, " ") {
			t.Errorf("notation.md:%d: %s: errors %q, the guide says %q", at, b["plot"], got, strings.Join(errs, " "))
		}
		if want, ok := b["hexes"]; ok {
			var got []string
			for _, h := range m.Hexes[1:] {
				got = append(got, h.String())
			}
			if strings.Join(got, " ") != want {
				t.Errorf("notation.md:%d: hexes %v, the guide says %s", at, got, want)
			}
		}
		if want, ok := b["end"]; ok {
			got := "hex " + m.End.Hex.String() + ", facing " + strconv.Itoa(int(m.End.Facing)) + ", tack " + m.Tack.String()
			if got != want {
				t.Errorf("notation.md:%d: ends %q, the guide says %q", at, got, want)
			}
		}
	}
	if n := len(blocks); n < 6 {
		t.Errorf("the guide has %d Swarm movement examples", n)
	}
}
