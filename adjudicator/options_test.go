package adjudicator

import (
	"reflect"
	"testing"
	"time"

	"sortie/rules/ruleset"
)

// TestServiceHasNoExportedFields: what the program around a service gives it (the clock, the sender's
// wake-up, the watch for a round's last order, timings) is fixed when it is made (Option, New); nothing
// can be set on a running service from outside, so no caller changes a hook while the clock or the intake
// reads it.
func TestServiceHasNoExportedFields(t *testing.T) {
	ty := reflect.TypeOf(Service{})
	for i := range ty.NumField() {
		if f := ty.Field(i); f.IsExported() {
			t.Errorf("Service.%s (%s) can be changed by any caller; make it an Option", f.Name, f.Type)
		}
	}
}

// TestOptionsAreUsed: each option's hook is the one the service calls.
func TestOptionsAreUsed(t *testing.T) {
	kicks, timed := 0, map[string]int{}
	var waits []string
	f := newFixtureTurns(t, 0, "", 0, WithNotify(func() { kicks++ }),
		WithTimed(func(part string, _ time.Duration) { timed[part]++ }),
		WithAwaiting(func(game string) { waits = append(waits, game) }))
	if kicks == 0 {
		t.Error("no wake-up after the new game queued its welcomes")
	}
	if f.s.now() != f.now {
		t.Errorf("the service's clock says %v, the test's %v", f.s.now(), f.now)
	}
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	if len(waits) != 1 || waits[0] != "g1" {
		t.Errorf("the round waits for bob only: told %v", waits)
	}
	f.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND")
	if timed["resolve"] != 1 || timed["reports"] != 1 {
		t.Errorf("one round resolved: timed %v", timed)
	}
}

// loadCounter is a ruleset that counts the games it loads.
type loadCounter struct {
	ruleset.Ruleset
	loads *int
}

func (l loadCounter) Load(b []byte) (ruleset.Game, error) {
	*l.loads++
	return l.Ruleset.Load(b)
}

// TestMailPathUsesTheGamesRuleset: once a game is known, the mail path reads its state with the ruleset
// resolved for that game (Service.rulesetOf, kept in the decode cache), not by looking its name up in the
// registry again for every mail.
func TestMailPathUsesTheGamesRuleset(t *testing.T) {
	f := newFixture(t, 24*time.Hour)
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND")
	c := &f.s.decoded
	e, ok := c.rules["g1"]
	if !ok || e.rs == nil {
		t.Fatalf("after a mail the cache holds no ruleset for g1: %+v", e)
	}
	loads := 0
	e.rs, e.raw, e.rg = loadCounter{e.rs, &loads}, nil, nil // the state must be read again, by e.rs
	c.rules["g1"] = e
	if o := f.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5 HOLD\nEND"); o != Accepted {
		t.Fatalf("bob's order: %s", o)
	}
	if loads != 1 {
		t.Errorf("the game's state was loaded %d times through the game's own ruleset, want 1", loads)
	}
}
