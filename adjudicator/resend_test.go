package adjudicator

import (
	"encoding/json"
	"reflect"
	"testing"

	"sortie/mailer/outmail"
	"sortie/storage"
)

// keptReport is alice's report of round as kept for RESEND.
func (f *fixture) keptReport(round int) []byte {
	f.t.Helper()
	var v []byte
	if err := f.db.View(func(tx *storage.Tx) error {
		var err error
		v, err = tx.Get(reportsBucket("g1", "alice"), storage.SeqKey(uint64(round)))
		return err
	}); err != nil || v == nil {
		f.t.Fatalf("no report of round %d kept: %v", round, err)
	}
	return v
}

// lastOf is the last mail of a kind queued to addr.
func (f *fixture) lastOf(addr, kind string) storage.Outgoing {
	f.t.Helper()
	all := f.outbox(addr)
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Kind == kind {
			return all[i]
		}
	}
	f.t.Fatalf("no %s queued for %s", kind, addr)
	return storage.Outgoing{}
}

func (f *fixture) keepReport(round int, v []byte) {
	f.t.Helper()
	if err := f.db.Update(func(tx *storage.Tx) error {
		return tx.Put(reportsBucket("g1", "alice"), storage.SeqKey(uint64(round)), v)
	}); err != nil {
		f.t.Fatal(err)
	}
}

// RESEND sends the report again whole: the mail is kept as it was queued, parts and all, and goes out
// again with the same subject, text and parts, as an answer to the request, under a Message-ID of its own.
func TestResendSendsTheWholeReport(t *testing.T) {
	f := newFixture(t, 0)
	f.play(1)
	var report storage.Outgoing
	for _, m := range f.outbox("alice@players.test") {
		if m.Kind == "report" {
			report = m
		}
	}
	var saved savedMail
	if err := json.Unmarshal(f.keptReport(1), &saved); err != nil {
		t.Fatal(err)
	}
	// The kept report names its picture rather than holding it (one copy, in the outbox): it is the mail
	// queued but for the picture's bytes.
	queued := report.Mail
	queued.Parts = append([]outmail.Part(nil), report.Parts...)
	for i := range queued.Parts {
		queued.Parts[i].Data = nil
	}
	if !reflect.DeepEqual(saved.Mail, queued) || !reflect.DeepEqual(saved.PartBlobs, report.PartBlobs) {
		t.Fatalf("the kept report is not the mail queued:\n%+v\n%+v", saved.Mail, queued)
	}
	kept := saved.Mail
	if kept.FromName != "Sortie" {
		t.Errorf("the mail does not keep the name it goes out under: %q", kept.FromName)
	}

	// A report kept with its picture's bytes (as reports were before pictures were kept once) comes back
	// with them.
	pic := outmail.Part{Filename: "map.png", ContentType: "image/png", Inline: true, Data: []byte("\x89PNG\r\n\x1a\n picture")}
	kept.Parts = []outmail.Part{pic}
	v, _ := json.Marshal(kept)
	f.keepReport(1, v)
	if o := f.mail("alice@players.test", "resend-1@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND TURN 1\nEND"); o != Accepted {
		t.Fatalf("RESEND: %s", o)
	}
	got := f.lastOf("alice@players.test", "resend")
	if got.Kind != "resend" || got.Subject != report.Subject || got.Body != report.Body || !reflect.DeepEqual(got.Parts, kept.Parts) {
		t.Errorf("RESEND sent %s %q with %d parts, not the report with its picture", got.Kind, got.Subject, len(got.Parts))
	}
	if got.MessageID == report.MessageID || got.InReplyTo != "resend-1@players.test" || got.ReplyTo != report.ReplyTo {
		t.Errorf("the resent mail: Message-ID %s (report %s), In-Reply-To %q, Reply-To %q", got.MessageID, report.MessageID, got.InReplyTo, got.ReplyTo)
	}
	if _, err := outmail.Render(got.Mail, ""); err != nil {
		t.Errorf("the resent mail cannot be rendered: %v", err)
	}
}

// A report kept before the whole mail was (subject and text only) is sent again all the same.
func TestResendReadsAnOlderKeptReport(t *testing.T) {
	f := newFixture(t, 0)
	f.play(1)
	f.keepReport(1, []byte(`{"subject":"[g1] turn 1 report for alice (kept long ago)","body":"Turn 1.\nAll quiet.\n"}`))
	if o := f.mail("alice@players.test", "resend-old@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND\nEND"); o != Accepted {
		t.Fatalf("RESEND: %s", o)
	}
	got := f.lastOf("alice@players.test", "resend")
	if got.Kind != "resend" || got.Subject != "[g1] turn 1 report for alice (kept long ago)" || got.Body != "Turn 1.\nAll quiet.\n" || got.Parts != nil {
		t.Errorf("RESEND of an older record: %s %q %q", got.Kind, got.Subject, got.Body)
	}
	if got.To != "alice@players.test" || got.ReplyTo == "" || got.Headers["X-Sortie-Game"] != "g1" {
		t.Errorf("RESEND of an older record is addressed %s, Reply-To %q, %v", got.To, got.ReplyTo, got.Headers)
	}
}
