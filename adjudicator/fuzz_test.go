package adjudicator

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/rules/swarm"
	"sortie/storage"
	"sortie/templates"
)

// FuzzSubmit sends arbitrary mail text from a registered player through the whole submission path:
// it must never fail or panic (a bug is caught and answered, but the fuzzer treats that as a failure).
func FuzzSubmit(f *testing.F) {
	for _, s := range []string{
		"GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 1 TL 4\nEND",
		"GAME g1 SECRET lark-swift-0001\nAWAY 2026-12-01\nBACK\nSTATUS\nRESEND TURN 1\nCLEAR RED1\nWAIT\nREADY\nEND",
		"GAME g1 SECRET lark-swift-0001\nPAUSE\nEND", "HELP", "", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1 TRTR\nEND",
		"GAME g1 SECRET mod-secret-0009\nPROCESS TURN 1\nROLLBACK TURN 1\nREPLACE bob x@y\nEND",
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

// FuzzSubmitSwarm is FuzzSubmit for a game of the second ruleset, whose order lines the Swarm ruleset
// reads in its own notation.
func FuzzSubmitSwarm(f *testing.F) {
	for _, s := range []string{
		"GAME s1 TURN 1 SECRET lark-swift-0001\nTIGER: 2 S M 2; 2 S M 2; 2 S M 2\nEND",
		"GAME s1 TURN 1 SECRET lark-swift-0001\nTIGER: 3RM 1R2 FIRE ANY\nLION: 2 L M 1 L 1 HOLD\nEND",
		"GAME s1 SECRET lark-swift-0001\nSTATUS\nCLEAR TIGER\nEND", "GAME s1 TURN 1 SECRET lark-swift-0001\nTIGER: 9 Q Z\nEND",
	} {
		f.Add(s)
	}
	db, err := storage.Open(filepath.Join(f.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	tmpl, _ := templates.New("")
	s := New(db, tmpl, Config{Address: "sortie@sortie.test", ResolveDelay: time.Hour, MaxMailsPerHour: 1 << 30}, zerolog.Nop())
	scn, err := swarm.BundledScenarioFile(swarm.DefaultScenario)
	if err != nil {
		f.Fatal(err)
	}
	scn = append(scn, "\nservice:\n  players:\n    alice: {email: alice@players.test, secret: lark-swift-0001}\n    bob: {email: bob@players.test}\n"...)
	if _, err := s.NewGame(scn, "k.yaml", "s1"); err != nil {
		f.Fatal(err)
	}
	n := 0
	f.Fuzz(func(t *testing.T, text string) {
		n++
		if _, err := s.Submit(Envelope{From: "alice@players.test", MessageID: fmt.Sprintf("sw-%d", n), Text: text, Size: len(text)}); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if s.bugs.Load() != 0 {
			t.Fatalf("%q: handling the mail panicked", text)
		}
	})
}
