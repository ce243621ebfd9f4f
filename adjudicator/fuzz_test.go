package adjudicator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/mailer/inmail"
	"sortie/rules/swarm"
	"sortie/rules/tnl"
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
		if o, err := fx.s.Submit(Envelope{From: from, MessageID: fmt.Sprintf("fuzz-%d", n), Text: text, Size: len(text)}); err != nil || o == Failed {
			t.Fatalf("%q: %q %v", text, o, err)
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
		if o, err := s.Submit(Envelope{From: "alice@players.test", MessageID: fmt.Sprintf("sw-%d", n), Text: text, Size: len(text)}); err != nil || o == Failed {
			t.Fatalf("%q: %q %v", text, o, err)
		}
		if s.bugs.Load() != 0 {
			t.Fatalf("%q: handling the mail panicked", text)
		}
	})
}

// FuzzSubmitTnl feeds a Thunderbolt & Lightning game any text: every mail gets an answer or none, never
// a failure or a panic.
func FuzzSubmitTnl(f *testing.F) {
	for _, s := range []string{
		"GAME t1 TURN 1 SECRET lark-swift-0001\nSPITS: 2 TL 6 HL / 7 FIRE ANY; SPIT3 7 / 7 HOLD\nHURRI-A: DIVE 7 / 7 BOMB X\nEND",
		"GAME t1 TURN 1 SECRET lark-swift-0001\nSPITS: 2 / / ;;; FIRE\nEND",
		"GAME t1 TURN 1 SECRET lark-swift-0001\nHURRI-B: 99 TX 0 / INV INV HL\nEND",
	} {
		f.Add(s)
	}
	db, err := storage.Open(filepath.Join(f.TempDir(), "t.db"), storage.Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	tmpl, _ := templates.New("")
	s := New(db, tmpl, Config{Address: "sortie@sortie.test", ResolveDelay: time.Hour, MaxMailsPerHour: 1 << 30}, zerolog.Nop())
	scn, err := tnl.BundledScenarioFile(tnl.DefaultScenario)
	if err != nil {
		f.Fatal(err)
	}
	scn = append(scn, "\nservice:\n  players:\n    alice: {email: alice@players.test, secret: lark-swift-0001}\n    bob: {email: bob@players.test}\n"...)
	if _, err := s.NewGame(scn, "b.yaml", "t1"); err != nil {
		f.Fatal(err)
	}
	n := 0
	f.Fuzz(func(t *testing.T, text string) {
		n++
		if o, err := s.Submit(Envelope{From: "alice@players.test", MessageID: fmt.Sprintf("tl-%d", n), Text: text, Size: len(text)}); err != nil || o == Failed {
			t.Fatalf("%q: %q %v", text, o, err)
		}
		if s.bugs.Load() != 0 {
			t.Fatalf("%q: handling the mail panicked", text)
		}
	})
}

// FuzzSubmitHeaders feeds hostile header values (any length, any bytes) with a block that names the game: no
// mail may fail because of its headers (issue 10, defect 1), nor be retried (an error).
func FuzzSubmitHeaders(f *testing.F) {
	f.Add("alice@players.test", "<a@b>", "", "orders", 0)
	f.Add("ev\re@evil.test", "c\rr@evil.test", "x\n", "Re: no orders found", 3)
	f.Add("eve@evil.test", "x", "\x00", "I'm on vacation", 40<<10)
	fx := newFixture(&testing.T{}, 0)
	fx.s.cfg.MaxMailsPerHour = 1 << 30
	n := 0
	f.Fuzz(func(t *testing.T, from, id, inReplyTo, subject string, pad int) {
		n++
		if pad < 0 || pad > 64<<10 {
			pad = 0
		}
		id = fmt.Sprintf("%d-%s%s", n, id, strings.Repeat("x", pad))
		for _, text := range []string{"GAME g1 TURN 1 SECRET guess\nRED1: 6\nEND", "hello"} {
			o, err := fx.s.Submit(Envelope{From: from, MessageID: id, InReplyTo: inReplyTo, References: []string{inReplyTo, id}, Subject: subject,
				To: []string{from, "sortie@sortie.test"}, Text: text, Size: len(text)})
			if err != nil || o == Failed {
				t.Fatalf("from %.40q id %.40q: %q %v", from, id, o, err)
			}
			id += "+"
		}
		if fx.s.bugs.Load() != 0 {
			t.Fatal("handling the mail panicked")
		}
	})
}

// FuzzSubmitImpulse is FuzzSubmit for an impulse game (seed 001), whose order lines are impulse
// orders, with the whole mail as the full text too, so a block below a quoted original is looked for.
func FuzzSubmitImpulse(f *testing.F) {
	for _, s := range []string{
		"GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1; ` ` TR\nBLUE1: ` +1 P ` TL -1 FIRE ANY\nEND",
		"Hi\n\n-----Original Message-----\nFrom: x\n\nGAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1\nEND\n",
		"> GAME g1 TURN 1\n> RED1: 1\n> END", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 3 TR; ;\nEND",
	} {
		f.Add(s)
	}
	fx := newImpulseGame(&testing.T{})
	n := 0
	f.Fuzz(func(t *testing.T, text string) {
		n++
		fx.t = t
		o, err := fx.s.Submit(Envelope{From: "alice@players.test", MessageID: fmt.Sprintf("fuzz-i-%d", n), Text: inmail.StripQuoted(text), Full: text, Size: len(text)})
		if err != nil || o == Failed {
			t.Fatalf("%q: %q %v", text, o, err)
		}
		if fx.s.bugs.Load() != 0 {
			t.Fatalf("%q: handling the mail panicked", text)
		}
	})
}
