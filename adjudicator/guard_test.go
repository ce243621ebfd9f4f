package adjudicator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sortie/storage"
	"sortie/templates"
)

// poisonTemplates returns templates whose refusal fails to render for a mail naming game POISON (read as "poison"): a fault
// that is permanent by construction (the same mail fails the same way every time), and touches no other mail.
func poisonTemplates(t *testing.T) *templates.Set {
	t.Helper()
	dir := t.TempDir()
	text, err := os.ReadFile(filepath.Join("..", "templates", "files", "refusal.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	subject, body, _ := strings.Cut(string(text), "\n")
	poisoned := subject + "\n" + `{{if eq .Game "poison"}}{{index .Game 99}}{{end}}` + body
	if err := os.WriteFile(filepath.Join(dir, "refusal.tmpl"), []byte(poisoned), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := templates.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func (f *fixture) kinds(addr string) []string {
	var out []string
	for _, m := range f.outbox(addr) {
		out = append(out, m.Kind+":"+m.Subject)
	}
	return out
}

// Issue 10, defect 1: a mail whose handling fails for a reason that will not go away is answered, recorded and
// set aside (Failed); it is not an error that makes the intake try it again forever, and the mail behind it
// is handled.
func TestPermanentFailureIsSetAside(t *testing.T) {
	f := newFixture(t, 0)
	f.s.tmpl = poisonTemplates(t)

	o, err := f.s.Submit(Envelope{From: "eve@evil.test", MessageID: "poison@evil.test", Text: "GAME POISON TURN 1 SECRET x\nHANS: 6\nEND", To: []string{"sortie@sortie.test"}, Mailbox: "INBOX", UID: 7})
	if err != nil {
		t.Fatalf("a permanent failure must not be returned as an error (the intake would retry it forever): %v", err)
	}
	if o != Failed {
		t.Fatalf("outcome %q, want %q", o, Failed)
	}
	got := f.outbox("eve@evil.test")
	if len(got) != 1 || got[0].Subject != "your mail could not be handled" || got[0].Game != "" {
		t.Fatalf("the sender should get one short answer naming no game: %v", f.kinds("eve@evil.test"))
	}
	if strings.Contains(got[0].Body, "g1") || strings.Contains(got[0].Body, "POISON") {
		t.Errorf("the answer must say nothing about any game:\n%s", got[0].Body)
	}
	fails, err := f.s.Failures()
	if err != nil || len(fails) != 1 || fails[0].UID != 7 || !strings.Contains(fails[0].Reason, "refusal") || !fails[0].Answered {
		t.Fatalf("the failure must be recorded with its reason: %+v %v", fails, err)
	}
	// Not marked seen: put back in the inbox once the cause is fixed, it is handled again.
	f.s.tmpl, _ = templates.New("")
	if o := f.mail("eve@evil.test", "poison@evil.test", "GAME POISON TURN 1 SECRET x\nHANS: 6\nEND"); o != Refused {
		t.Errorf("the same mail re-queued after the fix: %q, want refused", o)
	}
	// And the mail behind it goes through.
	f.s.tmpl = poisonTemplates(t)
	if o := f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND"); o != Accepted {
		t.Errorf("the next mail: %q", o)
	}
}

// The same through SubmitBatch: the poison mail fails alone, the others of the batch are kept.
func TestPermanentFailureInBatch(t *testing.T) {
	f := newFixture(t, 0)
	f.s.tmpl = poisonTemplates(t)
	out, err := f.s.SubmitBatch([]Envelope{
		{From: "eve@evil.test", MessageID: "p1", Text: "GAME POISON TURN 1 SECRET x\nEND", To: []string{"sortie@sortie.test"}},
		{From: "alice@players.test", MessageID: "a1", Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND", To: []string{"sortie@sortie.test"}},
	})
	if err != nil || len(out) != 2 || out[0] != Failed || out[1] != Accepted {
		t.Fatalf("batch: %v %v", out, err)
	}
}

// Header values that the database cannot take as keys, or that no answer could carry (a Message-ID or address
// over 32 KiB, a bare CR), do not fail the mail at all: they are hashed and cleaned.
func TestPoisonHeadersDoNotFail(t *testing.T) {
	f := newFixture(t, 0)
	long := strings.Repeat("x", 40<<10) + "@evil.test"
	cases := []Envelope{
		{From: "eve@evil.test", MessageID: long, Text: "GAME g1 TURN 1 SECRET guess\nEND"},
		{From: "eve@evil.test", MessageID: "cr\rinside@evil.test", Text: "GAME g1 TURN 1 SECRET guess\nEND"},
		{From: "ev\re@evil.test", MessageID: "cr-from@evil.test", Text: "hello"},
		{From: strings.Repeat("a", 40<<10) + "@evil.test", MessageID: "long-from@evil.test", Text: "hello"},
		{From: "eve@evil.test", MessageID: "irt@evil.test", InReplyTo: long + "\r", Text: "hello"},
	}
	for i, env := range cases {
		env.To = []string{"sortie@sortie.test", strings.Repeat("t", 40<<10) + "@sortie.test"}
		o, err := f.s.Submit(env)
		if err != nil || o == Failed || o == "" {
			t.Errorf("case %d: %q %v", i, o, err)
		}
		// The same mail again is recognised as a duplicate filed where the first was: the key is stable. A
		// mail whose sender was dropped is ignored again (nothing identifies it, and it does nothing).
		again, err := f.s.Submit(env)
		if first, dup := again.Duplicated(); err != nil || (o == Ignored && again != Ignored) || (o != Ignored && (!dup || first != o)) {
			t.Errorf("case %d again: %q (first %q) %v", i, again, o, err)
		}
	}
	for _, m := range f.outbox("eve@evil.test") {
		if len(m.InReplyTo) > storage.MaxKeyLen+64 || strings.ContainsAny(m.InReplyTo, "\r\n") {
			t.Errorf("an answer carries an unusable In-Reply-To (%d bytes)", len(m.InReplyTo))
		}
	}
	if fails, _ := f.s.Failures(); len(fails) != 0 {
		t.Errorf("nothing should have failed: %+v", fails)
	}
}

// Issue 10, defect 2: RESEND and RESEND TURN <last> in one block name the same report; it is sent once and the
// mail is accepted (it used to queue the same Message-ID twice and fail for ever).
func TestResendSameReportTwiceInOneBlock(t *testing.T) {
	f := newFixture(t, 0)
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	f.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND")
	o, err := f.s.Submit(Envelope{From: "alice@players.test", MessageID: "a2", Text: "GAME g1 SECRET lark-swift-0001\nRESEND\nRESEND TURN 1\nRESEND\nEND", To: []string{"sortie@sortie.test"}})
	if err != nil || o != Accepted {
		t.Fatalf("RESEND twice: %q %v", o, err)
	}
	n := 0
	for _, m := range f.outbox("alice@players.test") {
		if m.Kind == "resend" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want the report resent once, got %d: %v", n, f.kinds("alice@players.test"))
	}
}

// Issue 10, defect 5: a stranger's flood in a player's name does not lock her out; her moderator is told once.
func TestForgedFloodDoesNotLockOutPlayer(t *testing.T) {
	f := newFixture(t, 0)
	for i := range 70 {
		f.mail("alice@players.test", fmt.Sprintf("forged-%d", i), "GAME g1 TURN 1 SECRET guess\nRED1: 0\nEND")
	}
	if o := f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND"); o != Accepted {
		t.Fatalf("alice's own order after a forged flood: %q", o)
	}
	alerts := 0
	for _, m := range f.outbox("mod@players.test") {
		if strings.Contains(m.Body, "could not be matched to a player") && strings.Contains(m.Body, "alice@players.test") {
			alerts++
		}
	}
	if alerts != 1 {
		t.Errorf("want one flood alert to the moderator, got %d: %v", alerts, f.kinds("mod@players.test"))
	}
	// More of it in the same hour: no second alert.
	for i := range 70 {
		f.mail("alice@players.test", fmt.Sprintf("forged-b-%d", i), "nothing")
	}
	if n := len(f.outbox("mod@players.test")); n > 0 {
		again := 0
		for _, m := range f.outbox("mod@players.test") {
			if strings.Contains(m.Body, "could not be matched to a player") {
				again++
			}
		}
		if again != 1 {
			t.Errorf("the alert is rate-limited to one an hour; got %d", again)
		}
	}
	// Her own mails have their own limit.
	if o := f.mail("alice@players.test", "a2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND"); o != Accepted {
		t.Errorf("alice again: %q", o)
	}
}

// Issue 10, item 11: answers to unidentified senders are capped per hour, all addresses together.
func TestStrangerRepliesCappedOverall(t *testing.T) {
	f := newFixture(t, 0)
	f.s.cfg.MaxStrangerReplies = 5
	for i := range 20 {
		f.mail(fmt.Sprintf("forged%d@evil.test", i), fmt.Sprintf("s%d", i), "GAME g1 TURN 1 SECRET guess\nEND")
	}
	n := 0
	for i := range 20 {
		n += len(f.outbox(fmt.Sprintf("forged%d@evil.test", i)))
	}
	if n != 5 {
		t.Errorf("want 5 answers this hour, got %d", n)
	}
	f.now = f.now.Add(time.Hour)
	f.mail("late@evil.test", "s-late", "GAME g1 TURN 1 SECRET guess\nEND")
	if len(f.outbox("late@evil.test")) != 1 {
		t.Error("the next hour answers again")
	}
	// Players are never capped by strangers.
	if o := f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND"); o != Accepted || len(f.outbox("alice@players.test")) < 2 {
		t.Errorf("alice: %q", o)
	}
}

// Issue 10, item 11: auto-replies without RFC 3834 headers are answered at most once a day.
func TestAutoRepliesAnsweredOncePerDay(t *testing.T) {
	f := newFixture(t, 0)
	send := func(from, id, subject, inReplyTo string) {
		t.Helper()
		if _, err := f.s.Submit(Envelope{From: from, MessageID: id, Subject: subject, InReplyTo: inReplyTo, Text: "I am away until Monday.", To: []string{"sortie@sortie.test"}}); err != nil {
			t.Fatal(err)
		}
	}
	for i, subject := range []string{"I'm on vacation", "Re: no orders found", "Out of office", "Automatic reply: your mail", "RE: AW: no orders found"} {
		from := fmt.Sprintf("away%d@elsewhere.test", i)
		for k := range 4 {
			send(from, fmt.Sprintf("%d-%d", i, k), subject, "")
		}
		if n := len(f.outbox(from)); n != 1 {
			t.Errorf("%q: %d answers, want 1", subject, n)
		}
	}
	// A loop through In-Reply-To: a responder that keeps the subject and answers Sortie's refusal.
	send("loop@elsewhere.test", "l0", "orders", "")
	first := f.last("loop@elsewhere.test")
	for k := range 5 {
		send("loop@elsewhere.test", fmt.Sprintf("l%d", k+1), "orders", "<"+first.MessageID+">")
	}
	if n := len(f.outbox("loop@elsewhere.test")); n != 2 {
		t.Errorf("replies to Sortie's own refusal: %d answers, want 2 (the first mail, then one auto-reply a day)", n)
	}
	// The next day, one more.
	f.now = f.now.Add(24 * time.Hour)
	send("away0@elsewhere.test", "next-day", "I'm on vacation", "")
	if n := len(f.outbox("away0@elsewhere.test")); n != 2 {
		t.Errorf("the next day: %d answers, want 2", n)
	}
	// A human who answers a refusal with a correct block is still read.
	if _, err := f.s.Submit(Envelope{From: "alice@players.test", MessageID: "a1", Subject: "Re: no orders found", InReplyTo: first.MessageID, Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND", To: []string{"sortie@sortie.test"}}); err != nil {
		t.Fatal(err)
	}
	if r := f.last("alice@players.test"); r.Kind != "receipt" {
		t.Errorf("alice's answer to a refusal: %s", r.Kind)
	}
}

// Issue 10, item 11: under a steady stream of strangers' mail the bookkeeping is pruned (seen Message-IDs after
// storage.SeenRetention, flood counters and caps after their hour or day, answers to strangers once sent and
// kept as long) and the database file stops growing.
func TestSteadyStrangerStreamDoesNotGrowDatabase(t *testing.T) {
	f := newFixture(t, 0)
	f.s.cfg.DigestHour = -1
	start := f.now
	var sizeAt40 int64
	n := 0
	for step := 0; f.now.Before(start.Add(80 * 24 * time.Hour)); step++ {
		var envs []Envelope
		for k := range 6 {
			n++
			envs = append(envs, Envelope{From: fmt.Sprintf("stranger%d@evil.test", n), MessageID: fmt.Sprintf("m%d@evil.test", n),
				Text: "GAME g1 TURN 1 SECRET guess\nEND", To: []string{"sortie@sortie.test"}, Mailbox: "INBOX", UIDValid: 1, UID: uint32(n + k*0)})
		}
		if _, err := f.s.SubmitBatch(envs); err != nil {
			t.Fatal(err)
		}
		// The sender delivers what was queued.
		pending, err := f.db.Pending(f.now, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range pending {
			ids = append(ids, p.ID)
		}
		if len(ids) > 0 {
			if err := f.db.MarkSentMany(ids, f.now); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.s.housekeep(); err != nil {
			t.Fatal(err)
		}
		if sizeAt40 == 0 && f.now.Sub(start) >= 40*24*time.Hour {
			sizeAt40 = fileSize(t, f.db.Path())
		}
		f.now = f.now.Add(6 * time.Hour)
	}
	sizeAt80 := fileSize(t, f.db.Path())
	if sizeAt80 > sizeAt40+sizeAt40/10 {
		t.Errorf("the database grew from %d bytes at day 40 to %d at day 80 under the same stream", sizeAt40, sizeAt80)
	}
	// The records themselves: at most the retention's worth (31 days of 4 batches of 6).
	var seen, outbox, floods int
	f.db.View(func(tx *storage.Tx) error {
		for i := 1; i <= n; i++ {
			if _, ok, _ := tx.Seen(fmt.Sprintf("from:stranger%d@evil.test", i), fmt.Sprintf("m%d@evil.test", i)); ok {
				seen++
			}
			if _, ok, _ := tx.OutboxByMessageID(f.s.messageID("refusal", fmt.Sprintf("stranger%d@evil.test", i))); ok {
				outbox++
			}
		}
		names, _ := tx.Buckets([]string{bucketFlood})
		floods = len(names)
		return nil
	})
	if limit := 31 * 4 * 6; seen > limit {
		t.Errorf("%d Message-IDs remembered of %d, want at most %d", seen, n, limit)
	}
	if seen < 29*4*6 {
		t.Errorf("only %d Message-IDs remembered: the retention must keep the last 30 days", seen)
	}
	if floods > 2 {
		t.Errorf("%d hourly flood counters kept", floods)
	}
	st, _ := f.db.OutboxStats()
	if st.Total > 31*4*6+20 {
		t.Errorf("the outbox holds %d mails after %d answers to strangers", st.Total, n)
	}
	_ = outbox
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
