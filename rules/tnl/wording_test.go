package tnl

import (
	"strings"
	"testing"
)

// Report wording players found wrong (each test fails on the wording they were sent).

// A shot's line says what its hits did, and never "hits, then no hit": hits that find their target
// already destroyed by other fire of the same phase (all fire is simultaneous, seed 003 "Combat") are
// said to have done nothing more, and a shot without hits says no more than its dice.
func TestShotLineDoesNotContradictItsHits(t *testing.T) {
	st := newTestGame(t, duel).st
	shot := func(hits int) Event {
		g := GroupDetail{Colour: White, Need: 4, Rolls: []int{1, 2}}
		for i := 0; i < hits; i++ {
			g.Rolls[i] = 6
		}
		g.Hits = hits
		return Event{Turn: 1, Phase: 2, Kind: EvFire, Unit: "S1", Side: "South", Target: "N1", TargetSide: "North",
			Shot: &ShotDetail{Range: 3, Groups: []GroupDetail{g}, SR: 5, Saves: []SaveDetail{}}}
	}
	for _, c := range []struct {
		hits int
		want string
	}{
		{2, "2 hits; N1 was already destroyed by other fire, so the hits did nothing more"},
		{0, "0 hits"},
	} {
		for _, e := range EventsFor(st, "North", []Event{shot(c.hits)}) {
			if strings.Contains(e.Text, "no hit") || !strings.HasSuffix(e.Text, c.want) {
				t.Errorf("%d hits: %q, want it to end %q", c.hits, e.Text, c.want)
			}
		}
	}
}

// An aircraft's top speed in each phase is its sheet's (seed 003, "Movement"), cut by damage and loads
// ("Effects of Hits", "Loaded Modifiers"); the report says the cut only when there is one ("sheet 8/7
// now 8/7" said nothing), and in words a player reads.
func TestTopSpeedSaysNowOnlyWhenCut(t *testing.T) {
	g := newTestGame(t, duel)
	g.st.Plane("N1").Hits = 1 // a Spitfire's first hit: speed -2/-2
	rep := g.Report("n", nil)
	for _, u := range rep.Own {
		want := "top speed 8 hexes in phase 1 and 7 in phase 2, FS"
		if u.Name == "N1" {
			want = "top speed 8 hexes in phase 1 and 7 in phase 2, cut to 6 and 5 now, FS"
		}
		if !strings.Contains(u.Summary, want) || strings.Contains(u.Summary, "sheet") {
			t.Errorf("%s: %q, want %q", u.Name, u.Summary, want)
		}
	}
}
