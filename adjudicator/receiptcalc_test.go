package adjudicator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"sortie/rules/registry"
	"sortie/rules/ruleset"
)

// TestReceiptTellsEveryProblemTheCalculatorTells: a plot with several faults (too many movement points
// and turns closer than the turn mode allows, seed 000 rules 8 and 12) gets each of them in the receipt,
// the same list `sortie calc move` gives for the aircraft in the same state, so a player never fixes one
// fault only to be told of the next.
func TestReceiptTellsEveryProblemTheCalculatorTells(t *testing.T) {
	rs, err := registry.Get("afd")
	if err != nil {
		t.Fatal(err)
	}
	var move func([]string, *bytes.Buffer) error
	for _, c := range rs.(ruleset.Calculator).CalcCommands() {
		if c.Name == "move" {
			run := c.Run
			move = func(args []string, out *bytes.Buffer) error { return run(args, out) }
		}
	}
	if move == nil {
		t.Fatal("the afd calculator has no move command")
	}
	f := newFixture(t, 0)
	for i, plot := range []string{"2 TR 2 TR 1", "TR TR TR 9", "1 TR 1 TR 5", "9 TL TL"} {
		// HANS in the Channel scenario: a Bf 109 E at speed 6, 13,000 ft, level, facing 6.
		var out bytes.Buffer
		err := move([]string{"--aircraft", "bf-109e", "--speed", "6", "--alt", "13000", "--bank", "N", "--facing", "6", "--plot", plot, "--json"}, &out)
		if err != nil && !errors.Is(err, ruleset.ErrIllegal) {
			t.Fatalf("calc move %q: %v", plot, err)
		}
		var calc struct {
			Errors []struct {
				Message string `json:"message"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(out.Bytes(), &calc); err != nil {
			t.Fatal(err)
		}
		if len(calc.Errors) < 2 {
			t.Fatalf("calc move %q: the test needs a plot with several faults, got %d", plot, len(calc.Errors))
		}
		f.mail("bob@players.test", fmt.Sprintf("multi%d@players.test", i), "GAME g1 TURN 1 SECRET kite-heron-0002\nHANS: "+plot+"\nEND")
		body := f.last("bob@players.test").Body
		if n := strings.Count(body, "ERROR "); n != len(calc.Errors) {
			t.Errorf("%q: the receipt has %d errors, the calculator %d:\n%s", plot, n, len(calc.Errors), body)
		}
		for _, e := range calc.Errors {
			if !strings.Contains(body, e.Message) {
				t.Errorf("%q: the receipt lacks %q:\n%s", plot, e.Message, body)
			}
		}
	}
}
