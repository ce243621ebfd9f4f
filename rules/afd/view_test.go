package afd

import (
	"encoding/json"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/hex"
)

// playChannel plays up to eight turns of channel-1940 with the same orders every turn and hands each
// turn's state and events to check.
func playChannel(t *testing.T, check func(st *State, turn int, events []Event)) {
	t.Helper()
	env, st := bundledState(t, "channel-1940")
	var err error
	for turn := 1; turn <= 8 && !st.Over; turn++ {
		var events []Event
		st, events, err = Resolve(env, st, orders(t, "RED1: 6", "RED2: 1 TL 1 TR 3", "KURT: 5 FIRE ANY", "HANS: 1 1 1 1 1 1"),
			dice.NewSeeded(dice.SeedFromUint64(uint64(turn))))
		if err != nil {
			t.Fatal(err)
		}
		check(st, turn, events)
	}
}

// checkEventForSide asserts that an event shown to side carries nothing that side could not know.
func checkEventForSide(t *testing.T, st *State, side string, e Event) {
	t.Helper()
	owner := ""
	if p := st.Plane(e.Plane); p != nil {
		owner = p.Side
	}
	if e.Side != "" && e.Side != side {
		t.Errorf("%s sees an event belonging to %s: %+v", side, e.Side, e)
	}
	if owner != "" && owner != side {
		// Another side's plane: only what could be seen from outside.
		if x := e.Extras(); e.Move != nil || e.Hit != nil || len(x.Problems) > 0 || len(e.Dice) > 0 || x.Saved != 0 || x.Lost != 0 || x.Gun != "" {
			t.Errorf("%s sees inside an enemy event: %+v", side, e)
		}
		if e.Fire != nil && (e.Fire.Chart != "" || e.Fire.Red != 0 || e.Fire.White != 0 || len(e.Fire.Guns) > 0) {
			t.Errorf("%s sees the enemy's gunnery: %+v", side, e.Fire)
		}
		if e.Kind != EvFire && e.Kind != EvGameOver && !st.Sight[side][e.Plane].Spotted {
			t.Errorf("%s hears of %s, which it had not spotted: %+v", side, e.Plane, e)
		}
	}
	if e.Kind == EvFire && owner != side {
		if tg := st.Plane(e.Target); tg == nil || tg.Side != side {
			t.Errorf("%s sees fire that did not concern it: %+v", side, e)
		}
	}
}

// Every event kind, from the other side's point of view: the test fails if a kind is added without a
// visibility rule that keeps the enemy's secrets.
func TestEventsForWalksEveryKind(t *testing.T) {
	st := newTestGame(t, duel)
	st.Sight["A"] = map[string]Sighting{}
	full := func(kind string) Event {
		return Event{Turn: 1, Kind: kind, Plane: "BLUE1", Side: "B", Target: "RED1", Player: "ben", Text: "secret text",
			Dice:  []dice.Roll{{Label: "x", Sides: 6, Value: 3}},
			Move:  &MoveDetail{Plot: "3 STEEP", Speed: 42},
			Fire:  &FireDetail{Guns: []string{"nose"}, Chart: "2x30M+2x20C", Red: 5, White: 6, Hits: 3, Locations: []string{"FWE*"}},
			Hit:   &HitDetail{Systems: []SystemHit{{Letter: "E", Hits: 2}}},
			Extra: &Extra{Problems: []Problem{{Code: "x"}}, Saved: 1, Lost: 1, Gun: "nose", Outcome: &Outcome{Winner: "B"}}}
	}
	covered := map[string]bool{}
	for _, spotted := range []bool{false, true} {
		st.Sight["A"]["BLUE1"] = Sighting{Spotted: spotted}
		for _, kind := range EventKinds {
			covered[kind] = true
			for _, e := range EventsFor(st, "A", []Event{full(kind)}) {
				checkEventForSide(t, st, "A", e)
				if strings.Contains(e.Text, "secret") && kind != EvShotDown && kind != EvCrash && kind != EvDisengaged && kind != EvGameOver {
					t.Errorf("%s: the enemy's own text leaked: %+v", kind, e)
				}
			}
		}
		// Spotting news of the other side never reaches this one.
		if got := EventsFor(st, "A", []Event{{Kind: EvSpotted, Side: "B", Plane: "BLUE1", Target: "RED1"}}); len(got) != 0 {
			t.Errorf("B's spotting reached A: %+v", got)
		}
	}
	for _, k := range EventKinds {
		if !covered[k] {
			t.Errorf("event kind %s has no visibility check", k)
		}
	}
	// An unknown kind is dropped, never passed through.
	if got := EventsFor(st, "A", []Event{{Kind: "new-kind", Side: "B"}}); len(got) != 0 {
		t.Error("unknown event kinds must not pass the filter")
	}
}

// A whole game under fog of war: after every turn each side's view and events hold only what it may
// know (invariant 4, docs/architecture.md).
func TestViewsUnderFogOfWar(t *testing.T) {
	seen := map[string]bool{}
	playChannel(t, func(st *State, turn int, events []Event) {
		for _, e := range events {
			seen[e.Kind] = true
		}
		for _, side := range st.Sides {
			v := ViewOf(st, side)
			for _, p := range v.Own {
				if p.Side != side {
					t.Fatalf("%s's view lists %s as its own", side, p.Callsign)
				}
			}
			for _, c := range v.Enemies {
				sg := st.Sight[side][c.Callsign]
				if !sg.Spotted || (c.Type != "" && !sg.Identified) {
					t.Errorf("%s sees %+v without having spotted/identified it", side, c)
				}
			}
			b, _ := json.Marshal(v.Enemies)
			for _, secret := range []string{"speed", "damage", "ammo", "plot", "player"} {
				if strings.Contains(string(b), secret) {
					t.Errorf("%s's view of enemies carries %q: %s", side, secret, b)
				}
			}
			for _, e := range EventsFor(st, side, events) {
				checkEventForSide(t, st, side, e)
			}
		}
	})
	if !seen[EvMove] || !seen[EvSpotted] {
		t.Errorf("the game produced too few kinds of event to test: %v", seen)
	}
}

func TestViewOfHidesUnspottedAndUnidentified(t *testing.T) {
	st := newTestGame(t, duel)
	if v := ViewOf(st, "A"); len(v.Enemies) != 0 || len(v.Own) != 1 || v.Own[0].Callsign != "RED1" {
		t.Fatalf("fresh game: %+v", v)
	}
	st.Sight["A"]["BLUE1"] = Sighting{Spotted: true}
	v := ViewOf(st, "A")
	if len(v.Enemies) != 1 || v.Enemies[0].Type != "" || v.Enemies[0].Hex != (hex.Hex{Q: 0, R: -4}) {
		t.Fatalf("spotted but not identified: %+v", v.Enemies)
	}
	st.Sight["A"]["BLUE1"] = Sighting{Spotted: true, Identified: true}
	if v := ViewOf(st, "A"); v.Enemies[0].Type != "bf-109e" {
		t.Fatalf("identified: %+v", v.Enemies)
	}
}
