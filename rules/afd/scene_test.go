package afd

import (
	"strings"
	"testing"

	"sortie/rules/hex"
)

// The map picture's data (docs/architecture.md, invariant 4): own planes with the track they flew, the
// enemy planes the side sees and no other, and a line for each burst the side was told of.
func TestSceneShowsTheSidesViewOnly(t *testing.T) {
	var fireLines, tracks int
	playChannel(t, func(st *State, turn int, events []Event) {
		for _, side := range st.Sides {
			player := ""
			for _, p := range st.Players {
				if p.Side == side {
					player = p.ID
				}
			}
			seen := EventsFor(st, side, events)
			sc := sceneOf(ViewOf(st, side), player, seen, "")
			labels := map[string]hex.SceneUnit{}
			for _, u := range sc.Units {
				labels[u.Label] = u
			}
			for _, p := range st.Planes {
				u, on := labels[p.Callsign]
				switch {
				case p.Side == side:
					if !on || u.Hex != p.Flight.Hex || u.Side == hex.Enemy {
						t.Errorf("turn %d: %s's own %s is not drawn where it is: %+v", turn, side, p.Callsign, u)
					}
					if p.InPlay() && len(u.Track) > 1 {
						tracks++
						if u.Track[len(u.Track)-1] != p.Flight.Hex {
							t.Errorf("turn %d: %s's track does not end where it is: %v", turn, p.Callsign, u.Track)
						}
					}
				case st.Sight[side][p.Callsign].Spotted:
					if !on || u.Side != hex.Enemy {
						t.Errorf("turn %d: %s sees %s but its picture does not show it as an enemy", turn, side, p.Callsign)
					}
				case on:
					t.Errorf("turn %d: %s's picture shows %s, which it has not seen", turn, side, p.Callsign)
				}
			}
			for _, e := range seen {
				if e.Kind != EvFire || e.Plane == "" {
					continue
				}
				from, to := st.Plane(e.Plane), st.Plane(e.Target)
				want := hex.SceneLine{From: from.Flight.Hex, To: to.Flight.Hex, Kind: hex.Fire, Hit: e.Fire.Hits > 0}
				found := false
				for _, l := range sc.Lines {
					found = found || l == want
				}
				if !found {
					t.Errorf("turn %d: %s was told %q but its picture has no line %+v: %+v", turn, side, e.Text, want, sc.Lines)
				}
				fireLines++
			}
		}
	})
	if fireLines == 0 || tracks == 0 {
		t.Fatalf("the game drew %d fire lines and %d tracks: too few to test", fireLines, tracks)
	}
}

// Clouds block sight (docs/rulings.md, spotting), so the report's map draws the clouds near the planes,
// with a legend entry: channel-1940 has a cloud bank north-east of the RAF section.
func TestMapShowsClouds(t *testing.T) {
	g := bundledGame(t, "channel-1940")
	for _, p := range g.Players() {
		r := g.Report(p.ID, nil)
		if len(r.Scene.Clouds) == 0 {
			t.Fatalf("%s's picture has no clouds", p.ID)
		}
		grid := r.Map[:strings.Index(r.Map, "A ")]
		if !strings.Contains(grid, "~") || !strings.Contains(r.Map, "~ cloud") {
			t.Errorf("%s's map shows no cloud:\n%s", p.ID, r.Map)
		}
	}
}
