package ruleset

import (
	"strings"
	"testing"

	"sortie/rules/dice"
)

func TestNewLogCopiesDiceAndSortsMissed(t *testing.T) {
	rolls := []dice.Roll{{Label: "x", Sides: 6, Value: 3}}
	l, err := NewLog(4, []string{"e"}, rolls, []string{"bob", "alice", "bob"})
	if err != nil {
		t.Fatal(err)
	}
	rolls[0].Value = 6
	if l.Round != 4 || string(l.Events) != `["e"]` || l.Dice[0].Value != 3 || strings.Join(l.Missed, ",") != "alice,bob" {
		t.Errorf("log: %+v", l)
	}
}

func TestCheckSeats(t *testing.T) {
	var problems []string
	add := func(path, format string, args ...any) { problems = append(problems, path) }
	sides, players := CheckSeats([]string{"A", "A"}, []Player{{ID: "x", Side: "A"}, {ID: "x", Side: "B"}, {Side: "A"}}, add)
	want := "sides[1] players[1] players[1].side players[2]"
	if strings.Join(problems, " ") != want || !sides["A"] || players["x"] != "B" {
		t.Errorf("problems %v, sides %v, players %v", problems, sides, players)
	}
	problems = nil
	CheckSeats([]string{"A"}, nil, add)
	if strings.Join(problems, " ") != "sides" {
		t.Errorf("one side: %v", problems)
	}
}

// TestNMRNoticesOncePerPlayer: a side hears of an enemy player's missed orders once a turn, however many
// units that player has (seen or not).
func TestNMRNoticesOncePerPlayer(t *testing.T) {
	var n NMRNotices
	var lines []string
	for _, e := range []struct {
		turn   int
		player string
	}{{1, "bob"}, {1, "bob"}, {1, "bob"}, {1, "carol"}, {2, "bob"}, {2, "bob"}} {
		if line, ok := n.Notice(e.turn, e.player); ok {
			lines = append(lines, line)
		}
	}
	want := []string{"no order came from bob this turn", "no order came from carol this turn", "no order came from bob this turn"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("notices: %q", lines)
	}
	type ev struct {
		kind, player string
	}
	got := MissedBy([]ev{{"nmr", "bob"}, {"move", "alice"}, {"nmr", "bob"}}, func(e ev) (string, bool) { return e.player, e.kind == "nmr" })
	if strings.Join(got, ",") != "bob,bob" {
		t.Errorf("MissedBy: %v", got)
	}
}
