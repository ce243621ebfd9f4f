package afd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"sortie/rules/ruleset"
)

// TestCalcImpulsesIsTheImpulseChart: `sortie calc impulses` prints seed 001 XII's chart row for each
// speed, with the marks the seed's copy lost in rows 7, 8, 9 and 11 restored as impulse 7 (the house
// reading), and above 12 every impulse plus the speed-(s-12) row twice.
func TestCalcImpulsesIsTheImpulseChart(t *testing.T) {
	chart := map[int]string{
		1: "8", 2: "5 10", 3: "3 8 12", 4: "3 6 9 12", 5: "3 5 8 10 12", 6: "3 5 6 9 10 12",
		7: "1 3 5 7 8 10 12", 8: "1 3 4 6 7 9 10 12", 9: "1 2 4 5 7 8 9 11 12", 10: "1 2 4 5 6 7 8 9 11 12",
		11: "1 2 3 4 5 6 7 9 10 11 12", 12: "1 2 3 4 5 6 7 8 9 10 11 12",
		14: "1 2 3 4 5 5 6 7 8 9 10 10 11 12",
	}
	for speed, want := range chart {
		var out bytes.Buffer
		if err := calcImpulses([]string{"--speed", fmt.Sprint(speed), "--json"}, &out); err != nil {
			t.Fatalf("speed %d: %v", speed, err)
		}
		var got struct {
			Speed    int   `json:"speed"`
			Impulses []int `json:"impulses"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if s := strings.Trim(fmt.Sprint(got.Impulses), "[]"); s != want || got.Speed != speed {
			t.Errorf("speed %d: impulses %s, want %s", speed, s, want)
		}
	}
	var out bytes.Buffer
	if err := calcImpulses([]string{"--speed", "5.4"}, &out); err != nil || out.String() != "speed 5: active in impulses 3 5 8 10 12 (5 of 12)\n" {
		t.Errorf("speed 5.4 rounds to 5: %q %v", out.String(), err)
	}
	for _, bad := range [][]string{{}, {"--speed", "-1"}, {"--speed", "25"}, {"--speed", "fast"}, {"--speed", "5", "extra"}} {
		var u ruleset.UsageError
		if err := calcImpulses(bad, &bytes.Buffer{}); !errors.As(err, &u) {
			t.Errorf("%v: want a usage error, got %v", bad, err)
		}
	}
}

// TestCalcMoveImpulseCrossesTheTurn: `sortie calc move --impulse` flies manoeuvres impulse by impulse
// from the impulse given, on into the next turn (seed 001 X.A.3), marking where each is complete; the
// maximum-performance turn loses its 100 ft (X.E.2).
func TestCalcMoveImpulseCrossesTheTurn(t *testing.T) {
	var out bytes.Buffer
	err := calcMove([]string{"--impulse", "--aircraft", "spitfire-i", "--speed", "5", "--alt", "8000", "--bank", "N",
		"--from", "10", "--straight", "0", "--plot", "` TR; 1", "--json"}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var got struct {
		Legal    bool             `json:"legal"`
		Impulses []impulseRowJSON `json:"impulses"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := []impulseRowJSON{
		{Turn: 1, Impulse: 10, Token: "`", Q: 0, R: -1, Facing: 0, Alt: 8000, Bank: "N"},
		{Turn: 1, Impulse: 12, Token: "TR", Q: 0, R: -2, Facing: 1, Alt: 7900, Bank: "N", Done: "manoeuvre 1 done"},
		{Turn: 2, Impulse: 3, Token: "1", Q: 1, R: -3, Facing: 1, Alt: 7900, Bank: "N", Done: "manoeuvre 2 done"},
	}
	if !got.Legal || fmt.Sprint(got.Impulses) != fmt.Sprint(want) {
		t.Errorf("rows:\n%+v\nwant\n%+v", got.Impulses, want)
	}
	out.Reset()
	err = calcMove([]string{"--impulse", "--aircraft", "spitfire-i", "--speed", "5", "--alt", "8000", "--bank", "N", "--straight", "0", "--plot", "TR"}, &out)
	if !errors.Is(err, ruleset.ErrIllegal) || !strings.Contains(out.String(), "turn-mode") && !strings.Contains(out.String(), "after the last manoeuvre") {
		t.Errorf("a turn before its turn mode is illegal: %v\n%s", err, out.String())
	}
}
