package afd

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/hex"
	"sortie/rules/ruleset/rulesettest"
)

// TestNotationGuideMovementExamples flies every ```move block of docs/notation.md with the shipped cards
// and checks the hexes and end state the guide promises.
func TestNotationGuideMovementExamples(t *testing.T) {
	reg := shippedCards(t)
	var blocks []map[string]string
	for _, f := range rulesettest.DocBlocks(t, "../../docs/notation.md", "move") {
		cur := map[string]string{"line": strconv.Itoa(f.Line)}
		for k, l := range f.Lines {
			key, v, ok := strings.Cut(strings.TrimSpace(l), ":")
			if !ok {
				t.Fatalf("line %d: %q is not key: value", f.Line+1+k, strings.TrimSpace(l))
			}
			cur[strings.TrimSpace(key)] = strings.TrimSpace(v)
		}
		blocks = append(blocks, cur)
	}
	if len(blocks) < 5 {
		t.Fatalf("the guide has %d movement examples", len(blocks))
	}
	for _, b := range blocks {
		t.Run("line"+b["line"], func(t *testing.T) {
			card, ok := reg.Get(b["aircraft"])
			if !ok {
				t.Fatalf("unknown aircraft %q", b["aircraft"])
			}
			start := parseStart(t, b["start"])
			plot, ds := notation.ParsePlot(b["plot"])
			if parser.HasErrors(ds) {
				t.Fatalf("plot does not parse: %v", ds)
			}
			r := Move(card, start, plot)
			if code := b["error"]; code != "" {
				illegal(t, r, code)
				return
			}
			legal(t, r)
			var hexes []string
			for _, s := range r.Steps {
				hexes = append(hexes, fmt.Sprintf("(%d,%d)", s.Hex.Q, s.Hex.R))
			}
			if got := strings.Join(hexes, " "); got != b["hexes"] {
				t.Errorf("hexes %s, the guide says %s", got, b["hexes"])
			}
			e := r.End
			end := fmt.Sprintf("hex (%d,%d), facing %d, alt %d, speed %.1f, bank %s", e.Hex.Q, e.Hex.R, e.Facing, e.Alt, e.Speed.Float(), e.Bank)
			if end != b["end"] {
				t.Errorf("end %s, the guide says %s", end, b["end"])
			}
		})
	}
}

func parseStart(t *testing.T, s string) Flight {
	t.Helper()
	f := Flight{Straight: Plenty}
	for _, part := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), " ")
		switch k {
		case "speed":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			f.Speed = Tenths(x*10 + 0.5)
		case "alt":
			f.Alt, _ = strconv.Atoi(v)
		case "bank":
			b, ok := notation.ParseBank(v)
			if !ok {
				t.Fatalf("bank %q", v)
			}
			f.Bank = b
		case "facing":
			d, _ := strconv.Atoi(v)
			f.Facing = hex.Dir(d)
		case "straight":
			f.Straight, _ = strconv.Atoi(v)
		case "loaded":
			f.Loaded = true
		case "previous":
			name, val, _ := strings.Cut(v, "=")
			if name != "dive" {
				t.Fatalf("previous %q", v)
			}
			f.Last.DiveFt, _ = strconv.Atoi(val)
		default:
			t.Fatalf("unknown start field %q", k)
		}
	}
	return f
}
