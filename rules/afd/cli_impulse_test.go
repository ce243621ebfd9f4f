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

// calcImpulseRows runs `sortie calc move --impulse --json` and returns its answer.
func calcImpulseRows(t *testing.T, args ...string) (legal bool, rows []impulseRowJSON, errs []ruleset.CalcProblem) {
	t.Helper()
	var out bytes.Buffer
	err := calcMove(append([]string{"--impulse", "--json"}, args...), &out)
	if err != nil && !errors.Is(err, ruleset.ErrIllegal) {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var got struct {
		Legal    bool                  `json:"legal"`
		Errors   []ruleset.CalcProblem `json:"errors"`
		Impulses []impulseRowJSON      `json:"impulses"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	return got.Legal, got.Impulses, got.Errors
}

// TestCalcMoveImpulseTurnAfterASlip: the calculator flies seed 001 X.E.3.b as the game does: a Bf 109
// E (turn and slip modes 3 at speed 4, 8,000 ft) slips, flies the two straight hexes its turn mode asks
// and turns, and keeps its height, within a turn and with the slip in the last impulse of turn 1.
func TestCalcMoveImpulseTurnAfterASlip(t *testing.T) {
	for _, from := range []string{"1", "10"} {
		legal, rows, errs := calcImpulseRows(t, "--aircraft", "bf-109e", "--speed", "4", "--alt", "8000", "--bank", "N", "--from", from, "--plot", "SR; ` ` TR")
		if !legal || len(rows) != 4 {
			t.Fatalf("from impulse %s: %v %+v", from, errs, rows)
		}
		if last := rows[3]; last.Token != "TR" || last.Alt != 8000 || last.Facing != 1 {
			t.Errorf("from impulse %s: the turn after the slip: %+v, want TR at 8,000 ft", from, last)
		}
	}
	// Without the slip, the same turn after only the minimum is a maximum-performance turn (X.E.2.a).
	legal, rows, errs := calcImpulseRows(t, "--aircraft", "bf-109e", "--speed", "4", "--alt", "8000", "--bank", "N", "--straight", "0", "--plot", "` ` TR")
	if !legal || len(rows) != 3 || rows[2].Alt != 7900 {
		t.Errorf("a maximum-performance turn: %v %+v", errs, rows)
	}
}

// TestCalcMoveImpulseNamesTheManoeuvreDone: a row marks the manoeuvre it completes by its number in the
// order, also when the next one is then found illegal (it said "manoeuvre 2 done" on the slip's row).
func TestCalcMoveImpulseNamesTheManoeuvreDone(t *testing.T) {
	legal, rows, errs := calcImpulseRows(t, "--aircraft", "bf-109e", "--speed", "3", "--alt", "8000", "--bank", "N", "--plot", "SR; TR")
	if legal || len(errs) == 0 || len(rows) != 1 || rows[0].Done != "manoeuvre 1 done" {
		t.Errorf("SR; TR at speed 3: the slip is manoeuvre 1 and the turn comes too soon: %v %+v", errs, rows)
	}
}

// TestCalcMoveImpulseClimbLimitAddsUp: the calculator's refusal of too steep a climb is the game's, with
// numbers that add up: a Bf 109 E climbs 400 ft a turn at 8,000 ft, 100 ft in each impulse at speed 4;
// in a half loop, the steep climb of 800 ft, 200 ft in each (seed 001 X.D.1, X.E.4).
func TestCalcMoveImpulseClimbLimitAddsUp(t *testing.T) {
	for _, tc := range []struct {
		plot, want string
	}{
		{"` +2 ` ` TR", "may climb at most 100 ft in one impulse, not 200 ft (its climb this turn, 400 ft, shared among the 4 impulses it moves in at speed 4: 100 ft each"},
		{"` +3 ` +2 ` +2 V +2", "may climb at most 200 ft in one impulse, not 300 ft (a half loop's steep climb this turn, 800 ft, shared among the 4 impulses it moves in at speed 4: 200 ft each"},
	} {
		legal, _, errs := calcImpulseRows(t, "--aircraft", "bf-109e", "--speed", "4", "--alt", "8000", "--bank", "N", "--plot", tc.plot)
		if legal || len(errs) != 1 || errs[0].Code != "impulse-climb" || !strings.Contains(errs[0].Message, tc.want) {
			t.Errorf("%s: %+v, want one impulse-climb saying %q", tc.plot, errs, tc.want)
		}
	}
}

// TestCalcMoveImpulseWarnsOfEveryLoss: the calculator warns of each maximum-performance loss as the game
// does, in later manoeuvres and turns too, and of none for a turn straight after a slip (seed 001 X.E.2.a,
// X.E.3): the slip at column 3 and the second turn at column 15 lose 100 ft, the first turn nothing.
func TestCalcMoveImpulseWarnsOfEveryLoss(t *testing.T) {
	var out bytes.Buffer
	err := calcMove([]string{"--impulse", "--json", "--aircraft", "spitfire-i", "--speed", "5", "--alt", "8000", "--bank", "N",
		"--straight", "0", "--from", "8", "--plot", "` SR; ` TR; ` TR"}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var got struct {
		Warnings []ruleset.CalcProblem `json:"warnings"`
		Impulses []impulseRowJSON      `json:"impulses"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var cols []int
	for _, w := range got.Warnings {
		if w.Code == "impulse-loss" {
			cols = append(cols, w.Column)
		}
	}
	if fmt.Sprint(cols) != "[3 15]" || len(got.Impulses) != 6 || got.Impulses[3].Alt != 7900 || got.Impulses[5].Alt != 7800 {
		t.Errorf("losses warned at columns %v, want [3 15]; rows %+v", cols, got.Impulses)
	}
}

// TestCalcMoveImpulseSlipped: --slipped starts the calculator where a game stands after a slip at the
// end of the last turn (PlaneImpulse.SlipLast), so the turn after the minimum hexes loses no height (seed
// 001 X.E.3.b); without it the same turn loses 100 ft; the plain game refuses the flag.
func TestCalcMoveImpulseSlipped(t *testing.T) {
	args := []string{"--aircraft", "spitfire-i", "--speed", "5", "--alt", "8000", "--bank", "N", "--straight", "0", "--plot", "` TR"}
	for _, tc := range []struct {
		slipped bool
		alt     int
	}{{true, 8000}, {false, 7900}} {
		a := args
		if tc.slipped {
			a = append([]string{"--slipped"}, args...)
		}
		legal, rows, errs := calcImpulseRows(t, a...)
		if !legal || len(rows) != 2 || rows[1].Alt != tc.alt {
			t.Errorf("--slipped %v: %v %+v, want the turn at %d ft", tc.slipped, errs, rows, tc.alt)
		}
	}
	var u ruleset.UsageError
	if err := calcMove(append([]string{"--slipped"}, args...), &bytes.Buffer{}); !errors.As(err, &u) {
		t.Errorf("--slipped without --impulse: want a usage error, got %v", err)
	}
}
