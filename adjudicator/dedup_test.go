package adjudicator

import (
	"strings"
	"testing"
	"time"

	"sortie/templates"
)

// A mail fetched again from the same place (after a crash between its commit and its filing, the daemon
// restarts and finds it in the inbox or its spool again) does nothing again and is filed where its first
// handling said: a stranger's refused mail stays refused (it used to come back as a plain duplicate, filed
// as processed), a failed one stays failed, without a second answer or failure record (invariant 1,
// docs/architecture.md; docs/operations.md, Security).
func TestRedeliveredMailFiledWhereItsFirstHandlingSaid(t *testing.T) {
	f := newFixture(t, 0)
	stranger := Envelope{From: "eve@evil.test", MessageID: "eve-1@evil.test", Text: "GAME g1 TURN 1 SECRET guess\nKURT: 6\nEND",
		To: []string{"sortie@sortie.test"}, Mailbox: "INBOX", UIDValid: 5, UID: 11}
	if o, err := f.s.Submit(stranger); err != nil || o != Refused {
		t.Fatalf("the stranger's mail: %q %v", o, err)
	}
	answers := len(f.outbox("eve@evil.test"))
	o, err := f.s.Submit(stranger)
	if first, dup := o.Duplicated(); err != nil || !dup || first != Refused {
		t.Errorf("the stranger's mail fetched again: %q (first %q) %v, want a duplicate of a refused mail", o, first, err)
	}
	if n := len(f.outbox("eve@evil.test")); n != answers {
		t.Errorf("the stranger's mail fetched again was answered again: %d answers", n)
	}
	// The same through SubmitBatch, the spool's path.
	out, err := f.s.SubmitBatch([]Envelope{stranger})
	if first, dup := out[0].Duplicated(); err != nil || !dup || first != Refused {
		t.Errorf("the stranger's mail fetched again in a batch: %v %v", out, err)
	}

	// A player's accepted mail fetched again is a plain duplicate.
	alice := Envelope{From: "alice@players.test", MessageID: "a1@players.test", Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND",
		To: []string{"sortie@sortie.test"}, Mailbox: "INBOX", UIDValid: 5, UID: 12}
	if o, err := f.s.Submit(alice); err != nil || o != Accepted {
		t.Fatalf("alice's mail: %q %v", o, err)
	}
	if o, err := f.s.Submit(alice); err != nil || o != Duplicate {
		t.Errorf("alice's mail fetched again: %q %v, want %q", o, err, Duplicate)
	}

	// A failed mail fetched again from the same place is failed again, answered and recorded once.
	f.s.tmpl = poisonTemplates(t)
	poison := Envelope{From: "eve@evil.test", MessageID: "poison@evil.test", Text: "GAME POISON TURN 1 SECRET x\nHANS: 6\nEND",
		To: []string{"sortie@sortie.test"}, Mailbox: "INBOX", UIDValid: 5, UID: 13}
	if o, err := f.s.Submit(poison); err != nil || o != Failed {
		t.Fatalf("the poison mail: %q %v", o, err)
	}
	o, err = f.s.Submit(poison)
	if first, dup := o.Duplicated(); err != nil || !dup || first != Failed {
		t.Errorf("the failed mail fetched again: %q %v, want a duplicate of a failed mail", o, err)
	}
	if fails, _ := f.s.Failures(); len(fails) != 1 {
		t.Errorf("the failed mail fetched again was recorded again: %d records", len(fails))
	}
	// Put back in the inbox by the moderator once the cause is fixed, it has a new UID and is handled.
	f.s.tmpl, _ = templates.New("")
	poison.UID = 14
	if o, err := f.s.Submit(poison); err != nil || o != Refused {
		t.Errorf("the failed mail put back after the fix: %q %v, want %q", o, err, Refused)
	}
}

// A Message-ID is the sender's to choose. A stranger's mail, one forged in a player's name, or another
// player's, under the Message-ID alice's mail program will give her next mail does not make her mail a
// duplicate: her orders are used (docs/operations.md, Security). Her own mail twice is still one.
func TestStrangerCannotPreemptAPlayersMail(t *testing.T) {
	f := newFixture(t, 10*time.Minute)
	const next = "alice-next@players.test"
	if o := f.mail("eve@evil.test", next, "GAME g1 TURN 1 SECRET guess\nRED1: 1\nEND"); o != Refused {
		t.Fatalf("the stranger's mail: %q", o)
	}
	if o := f.mail("alice@players.test", next, "GAME g1 TURN 1\nRED1: 1\nEND"); o != Refused {
		t.Fatalf("the mail forged in alice's name, without her secret: %q", o)
	}
	if o := f.mail("eve@evil.test", next, "hello"); o == Accepted {
		t.Fatalf("the stranger's mail without a block: %q", o)
	}
	if o := f.mail("bob@players.test", next, "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5\nEND"); o != Accepted {
		t.Fatalf("bob's mail under the same Message-ID: %q", o)
	}
	if o := f.mail("alice@players.test", next, "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND"); o != Accepted {
		t.Fatalf("alice's own mail after the others under its Message-ID: %q, want %q", o, Accepted)
	}
	if r := f.last("alice@players.test"); r.Kind != "receipt" || !strings.Contains(r.Body, "RED1: 6") {
		t.Errorf("alice's orders are not on file:\n%s", r.Body)
	}
	if o := f.mail("alice@players.test", next, "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1\nRED2: 1\nEND"); o != Duplicate {
		t.Errorf("alice's own mail again: %q, want %q", o, Duplicate)
	}
}
