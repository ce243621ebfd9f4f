package adjudicator

import (
	"fmt"
	"testing"
)

// FuzzSubmit sends arbitrary mail text from a registered player through the whole submission path:
// it must never fail or panic (a bug is caught and answered, but the fuzzer treats that as a failure).
func FuzzSubmit(f *testing.F) {
	for _, s := range []string{
		"GAME g1 TURN 1 SECRET lark-1\nRED1: 6\nRED2: 1 TL 4\nEND",
		"GAME g1 SECRET lark-1\nAWAY 2026-12-01\nBACK\nSTATUS\nRESEND TURN 1\nCLEAR RED1\nWAIT\nREADY\nEND",
		"GAME g1 SECRET lark-1\nPAUSE\nEND", "HELP", "", "GAME g1 TURN 1 SECRET lark-1\nRED1: 1 TRTR\nEND",
		"GAME g1 SECRET mod-9\nPROCESS TURN 1\nROLLBACK TURN 1\nREPLACE bob x@y\nEND",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	fx := newFixture(&testing.T{}, 0)
	n := 0
	f.Fuzz(func(t *testing.T, text string, moderator bool) {
		n++
		from := "alice@players.test"
		if moderator {
			from = "mod@players.test"
		}
		fx.t = t
		if _, err := fx.s.Submit(Envelope{From: from, MessageID: fmt.Sprintf("fuzz-%d", n), Text: text, Size: len(text)}); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if fx.s.bugs.Load() != 0 {
			t.Fatalf("%q: handling the mail panicked", text)
		}
	})
}
