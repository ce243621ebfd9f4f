package afd

import (
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/ruleset/rulesettest"
)

// TestAttackAndFlakDocs checks the ```attack, ```flak and ```ground examples of docs/notation.md: each reads as the
// example says (input, then canonical, or the error codes it gives and their columns).
func TestAttackAndFlakDocs(t *testing.T) {
	seen := map[string]int{}
	for _, b := range rulesettest.DocBlocks(t, "../../docs/notation.md", "attack", "flak", "ground") {
		kind, start := b.Kind, b.Line
		var input, canonical string
		type want struct {
			code string
			col  int
		}
		var errs []want
		for j, line := range b.Lines {
			key, val, _ := strings.Cut(line, ": ")
			switch key {
			case "input":
				input = val
			case "canonical":
				canonical = val
			case "error":
				errs = append(errs, want{code: val})
			case "col":
				errs[len(errs)-1].col, _ = strconv.Atoi(val)
			default:
				t.Fatalf("notation.md:%d: unknown key %q", start+1+j, key)
			}
		}
		seen[kind]++
		var got string
		var ds []parser.Diagnostic
		if kind == "attack" {
			o, d := notation.ParseOrder(input)
			got, ds = o.String(), d
		} else if kind == "ground" {
			o, d := ParseGroundOrder(input)
			got, ds = o.String(), d
		} else {
			o, d := ParseFlakOrder(input)
			got, ds = o.String(), d
		}
		var gotErrs []parser.Diagnostic
		for _, d := range ds {
			if d.Severity == parser.SeverityError {
				gotErrs = append(gotErrs, d)
			}
		}
		if len(errs) == 0 {
			if len(gotErrs) > 0 || got != canonical {
				t.Errorf("notation.md:%d: %q reads as %q %v, the example says %q", start, input, got, gotErrs, canonical)
			}
			continue
		}
		if len(gotErrs) != len(errs) {
			t.Errorf("notation.md:%d: %q gives %v, the example lists %v", start, input, gotErrs, errs)
			continue
		}
		for k, w := range errs {
			if gotErrs[k].Code != w.code || w.col != 0 && gotErrs[k].Col != w.col {
				t.Errorf("notation.md:%d: %q: error %d is %s at col %d, the example says %s at col %d", start, input, k, gotErrs[k].Code, gotErrs[k].Col, w.code, w.col)
			}
		}
	}
	if seen["attack"] == 0 || seen["flak"] == 0 || seen["ground"] == 0 {
		t.Errorf("notation.md has %d ```attack, %d ```flak and %d ```ground examples", seen["attack"], seen["flak"], seen["ground"])
	}
}
