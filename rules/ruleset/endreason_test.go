package ruleset

import "testing"

// The reason a game ends is mailed to every side alike, so it must be true from each: it names the side
// that has nothing left in play and how its units left, never "no enemy is left" (which is false for the
// side that still flies, and for a side whose units flew off the map).
func TestEndReasonTrueForEverySide(t *testing.T) {
	sides := []string{"RAF", "Luftwaffe"}
	cases := []struct {
		name   string
		inPlay map[string]bool
		gone   map[string][]Fate
		want   string
	}{
		{"the Luftwaffe shot down", map[string]bool{"RAF": true},
			map[string][]Fate{"Luftwaffe": {{"RED1", "shot down"}, {"RED2", "shot down"}}, "RAF": {{"BLUE2", "shot down"}}},
			"Luftwaffe has nothing left in play (RED1 and RED2 shot down)"},
		{"the RAF left the map", map[string]bool{"Luftwaffe": true},
			map[string][]Fate{"RAF": {{"BLUE1", "left the map"}, {"BLUE2", "shot down"}, {"BLUE3", "left the map"}}},
			"RAF has nothing left in play (BLUE1 and BLUE3 left the map, BLUE2 shot down)"},
		{"both gone", map[string]bool{},
			map[string][]Fate{"RAF": {{"BLUE1", "crashed"}}, "Luftwaffe": {{"RED1", "shot down"}}},
			"RAF has nothing left in play (BLUE1 crashed), and Luftwaffe has nothing left in play (RED1 shot down)"},
		{"a side that never flew", map[string]bool{"RAF": true}, nil,
			"Luftwaffe has nothing in play"},
	}
	for _, c := range cases {
		got := EndReason(3, 8, sides, c.inPlay, c.gone)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if r := EndReason(9, 8, sides, map[string]bool{"RAF": true}, nil); r != "the turn limit (8) was reached" {
		t.Errorf("past the limit the limit is the reason: %q", r)
	}
	if r := EndReason(3, 8, sides, map[string]bool{"RAF": true, "Luftwaffe": true}, nil); r != "" {
		t.Errorf("two sides in play before the limit: the game goes on, not %q", r)
	}
}

// Ended reads the units themselves: a side with one unit in play still flies, the others' units are
// named in their order with how each left, and every side starts the outcome with no points.
func TestEndedReadsTheUnits(t *testing.T) {
	type unit struct {
		side, callsign, how string
	}
	read := func(u *unit) (string, bool, Fate) { return u.side, u.how == "", Fate{Unit: u.callsign, How: u.how} }
	sides := []string{"RAF", "Luftwaffe"}
	units := []unit{{"Luftwaffe", "RED1", "shot down"}, {"RAF", "BLUE1", ""}, {"Luftwaffe", "RED2", "left the map"}, {"RAF", "BLUE2", "crashed"}}
	o := Ended(3, 8, sides, units, read)
	if o == nil || o.Reason != "Luftwaffe has nothing left in play (RED1 shot down, RED2 left the map)" || len(o.Score) != 2 || o.Score["RAF"] != 0 {
		t.Errorf("one side left: %+v", o)
	}
	units[0].how = ""
	if o := Ended(3, 8, sides, units, read); o != nil {
		t.Errorf("both sides in play before the limit: the game goes on, not %+v", o)
	}
	if o := Ended(9, 8, sides, units, read); o == nil || o.Reason != "the turn limit (8) was reached" {
		t.Errorf("past the limit: %+v", o)
	}
}
