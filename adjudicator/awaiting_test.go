package adjudicator

import (
	"slices"
	"testing"
)

// TestAwaitingOneSeat: the service says, after the commit, when a round waits for one seat only (so the
// daemon can watch the inbox closely for the mail that completes it), and not otherwise.
func TestAwaitingOneSeat(t *testing.T) {
	var told []string
	f := newFixtureTurns(t, 0, "", 0, WithAwaiting(func(game string) { told = append(told, game) }))
	expect := func(step string, want bool) {
		t.Helper()
		if got := len(told) > 0; got != want {
			t.Errorf("%s: told %v, want told %v", step, told, want)
		}
		told = nil
	}
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND")
	expect("alice has one of her two aircraft in: both seats missing", false)
	f.mail("alice@players.test", "a2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 6\nWAIT\nEND")
	expect("alice is in but waits, bob missing: two seats", false)
	f.mail("alice@players.test", "a3", "GAME g1 TURN 1 SECRET lark-swift-0001\nREADY\nEND")
	expect("only bob missing", true)
	f.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nWAIT\nEND")
	expect("every order in, bob waits: one seat", true)
	f.mail("eve@evil.test", "e1", "GAME g1 TURN 1 SECRET guess-guess-0000\nKURT: 5\nEND")
	expect("a stranger's mail", false)
	f.mail("bob@players.test", "b2", "GAME g1 TURN 1 SECRET kite-heron-0002\nREADY\nEND")
	expect("the round resolved: both seats missing in the next", false)
	f.mail("bob@players.test", "b3", "GAME g1 TURN 2 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND")
	if !slices.Equal(told, []string{"g1"}) {
		t.Errorf("turn 2, only alice missing: told %v", told)
	}
}
