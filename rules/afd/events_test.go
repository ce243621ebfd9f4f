package afd

import (
	"bytes"
	"encoding/json"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// eventFlat is Event as it was laid out before the fields few events carry moved to Extra: every
// field its own. Archived rounds hold events in this form, so both must read and write the same bytes.
type eventFlat struct {
	Turn     int           `json:"turn"`
	Impulse  int           `json:"impulse,omitempty"`
	Kind     string        `json:"kind"`
	Plane    string        `json:"plane,omitempty"`
	Side     string        `json:"side,omitempty"`
	Target   string        `json:"target,omitempty"`
	Player   string        `json:"player,omitempty"`
	Text     string        `json:"text"`
	Dice     []dice.Roll   `json:"dice,omitempty"`
	Move     *MoveDetail   `json:"move,omitempty"`
	Fire     *FireDetail   `json:"fire,omitempty"`
	Hit      *HitDetail    `json:"hit,omitempty"`
	Problems []Problem     `json:"problems,omitempty"`
	Outcome  *Outcome      `json:"outcome,omitempty"`
	Saved    int           `json:"saved,omitempty"`
	Lost     int           `json:"lost,omitempty"`
	Edge     string        `json:"edge,omitempty"`
	Ground   *GroundDetail `json:"ground,omitempty"`
	Gun      string        `json:"gun,omitempty"`
	Flak     *FlakDetail   `json:"flak,omitempty"`
}

func flat(e Event) eventFlat {
	x := e.Extras()
	return eventFlat{Turn: e.Turn, Impulse: e.Impulse, Kind: e.Kind, Plane: e.Plane, Side: e.Side, Target: e.Target,
		Player: e.Player, Text: e.Text, Dice: e.Dice, Move: e.Move, Fire: e.Fire, Hit: e.Hit,
		Problems: x.Problems, Outcome: x.Outcome, Saved: x.Saved, Lost: x.Lost, Edge: x.Edge, Ground: x.Ground, Gun: x.Gun, Flak: x.Flak}
}

// TestEventJSONIsTheFlatLayouts: every event the benchmark games make, and events with each of the
// rare fields set, empty or absent, are written as the flat layout writes them, and read back (from
// either) to the same bytes.
func TestEventJSONIsTheFlatLayouts(t *testing.T) {
	env := testEnv(t)
	var events []Event
	for _, c := range outputCases() {
		c.play(t, env, func(evs []Event) { events = append(events, evs...) })
	}
	events = append(events,
		Event{Turn: 2, Kind: EvBailOut, Plane: "A", Text: "<b> & \"q\"", Extra: &Extra{Saved: 0, Lost: 0}},
		Event{Turn: 2, Kind: EvBailOut, Plane: "A", Extra: &Extra{Saved: 2, Lost: 1}},
		Event{Turn: 3, Impulse: 4, Kind: EvIllegalOrder, Player: "p", Extra: &Extra{Problems: []Problem{{Code: "c", Message: "m", Col: 3}}}},
		Event{Turn: 3, Kind: EvIllegalOrder, Extra: &Extra{Problems: []Problem{}}},
		Event{Turn: 9, Kind: EvGameOver, Extra: &Extra{Outcome: &Outcome{Winner: "A", Reason: "r", Score: map[string]int{"A": 1, "B": 0}}}},
		Event{Kind: EvDisengaged, Extra: &Extra{Edge: "north"}},
		Event{Kind: EvGroundDamage, Extra: &Extra{Ground: &GroundDetail{Kind: "truck", Result: "light"}}},
		Event{Kind: EvGunsOut, Extra: &Extra{Gun: "tail"}},
		Event{Kind: EvFlak, Extra: &Extra{Flak: &FlakDetail{Heavy: true, Modifiers: []string{"x"}}}},
		Event{Kind: EvMove, Extra: &Extra{}},
		Event{Kind: EvMove})
	kinds := map[string]bool{}
	for _, e := range events {
		kinds[e.Kind] = true
		got, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(flat(e))
		if !bytes.Equal(got, want) {
			t.Fatalf("event written as\n%s\nthe flat layout writes\n%s", got, want)
		}
		var back Event
		if err := json.Unmarshal(want, &back); err != nil {
			t.Fatal(err)
		}
		if again, _ := json.Marshal(back); !bytes.Equal(again, want) {
			t.Fatalf("read back and written again as\n%s\nnot\n%s", again, want)
		}
		var backFlat eventFlat
		if err := json.Unmarshal(got, &backFlat); err != nil {
			t.Fatal(err)
		}
		if again, _ := json.Marshal(backFlat); !bytes.Equal(again, want) {
			t.Fatalf("the flat layout reads\n%s\nas\n%s", got, again)
		}
	}
	for _, k := range []string{EvMove, EvSpotted, EvIdentified, EvFire, EvDamage, EvShotDown, EvBailOut, EvFlak} {
		if !kinds[k] {
			t.Errorf("no %s event among the games' events: the test misses it", k)
		}
	}
}

// TestEventsWithoutExtraAreRead: an event of any kind without its Extra (as JSON without the rare
// fields reads back) goes through the views, the report lines and the impulse game's saved events
// without a nil dereference.
func TestEventsWithoutExtraAreRead(t *testing.T) {
	st := newTestGame(t, duel)
	for _, kind := range EventKinds {
		for _, plane := range []string{"BLUE1", "RED1"} {
			e := Event{Turn: 1, Kind: kind, Plane: plane, Side: st.Plane(plane).Side, Target: "RED1", Text: "t"}
			b, _ := json.Marshal([]Event{e})
			var back []Event
			if err := json.Unmarshal(b, &back); err != nil || back[0].Extra != nil {
				t.Fatalf("%s: read back %+v, %v", kind, back, err)
			}
			for _, side := range st.Sides {
				st.Sight[side] = map[string]Sighting{"BLUE1": {Spotted: true}, "RED1": {Spotted: true}}
				var r ruleset.Report
				eventLines(&r, side, EventsFor(st, side, back), st.Options)
			}
		}
	}
}
