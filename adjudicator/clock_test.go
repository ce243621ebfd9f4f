package adjudicator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// panicky is the afd ruleset with a Resolve that panics, as a ruleset bug at a deadline would.
type panicky struct{ ruleset.Ruleset }

func (p panicky) Name() string { return "panicky" }
func (p panicky) Load(state []byte) (ruleset.Game, error) {
	g, err := p.Ruleset.Load(state)
	return panickyGame{g}, err
}

type panickyGame struct{ ruleset.Game }

func (panickyGame) Resolve(map[string]string, dice.Source) (ruleset.Game, *ruleset.Log, error) {
	var m map[string]int
	//lint:ignore SA5000 the nil map write is the point: a real runtime panic, as a ruleset bug would raise
	m["boom"]++
	return nil, nil, nil
}

// TestTickIsolatesAPanickingGame: three games reach their deadline; the middle one's ruleset panics.
// The other two resolve, the failing one is held with a notice to its moderator, and the next tick
// does not touch it again.
func TestTickIsolatesAPanickingGame(t *testing.T) {
	f := newFixture(t, 0)
	for _, id := range []string{"g2", "g3"} {
		var text string
		if err := f.db.View(func(tx *storage.Tx) error {
			var err error
			text, err = gameScenario(tx, "g1")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.NewGame([]byte(text), "channel.yaml", id); err != nil {
			t.Fatal(err)
		}
	}
	// g2 now runs the panicking ruleset.
	if err := f.db.Update(func(tx *storage.Tx) error {
		g, err := getGame(tx, "g2")
		if err != nil {
			return err
		}
		g.Ruleset = "panicky"
		return putGame(tx, g)
	}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"g1", "g2", "g3"} {
		f.mail("alice@players.test", "a1-"+id, "GAME "+id+" TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	}
	f.now = f.now.Add(49 * time.Hour)
	done, err := f.s.Tick()
	if err == nil || !strings.Contains(err.Error(), "g2") || !strings.Contains(err.Error(), "panic") {
		t.Errorf("Tick must report g2's panic, got %v", err)
	}
	if fmt.Sprint(done) != "[g1 g3]" {
		t.Fatalf("the other games must resolve: %v", done)
	}
	for id, round := range map[string]int{"g1": 2, "g2": 1, "g3": 2} {
		st, err := f.s.Status(id)
		if err != nil || st.Round != round {
			t.Fatalf("%s: %+v %v", id, st, err)
		}
		if id == "g2" && !strings.Contains(st.Held, "rules engine failed") {
			t.Errorf("g2 must be held with a reason: %q", st.Held)
		}
	}
	notice := f.last("mod@players.test")
	if !strings.Contains(notice.Body, "g2") || !strings.Contains(notice.Body, "held") {
		t.Errorf("the moderator must be told:\n%s", notice.Body)
	}
	// The held game is left alone by the next ticks; the others go on.
	for _, id := range []string{"g1", "g3"} {
		f.mail("alice@players.test", "a2-"+id, "GAME "+id+" TURN 2 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	}
	f.now = f.now.Add(49 * time.Hour)
	done, err = f.s.Tick()
	if err != nil || fmt.Sprint(done) != "[g1 g3]" {
		t.Fatalf("second tick: %v %v", done, err)
	}
}
