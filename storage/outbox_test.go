package storage

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"sortie/mailer/outmail"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// mail is a receipt for game with Message-ID <name>@sortie.test.
func mail(name, game string) OutMail {
	return OutMail{Mail: outmail.Mail{
		From:      "gm@sortie.test",
		To:        "alice@example.test",
		ToName:    "Alice",
		Subject:   "Receipt: " + name,
		Body:      "Your plot for turn 3 is in.\n",
		MessageID: "<" + name + "@sortie.test>",
		InReplyTo: "orders-" + name + "@example.test",
		Headers:   map[string]string{"X-Sortie-Game": game},
		Created:   t0,
	}, Game: game, Kind: "receipt"}
}

func enqueue(t *testing.T, db *DB, msgs ...OutMail) []string {
	t.Helper()
	var ids []string
	mustUpdate(t, db, func(tx *Tx) error {
		for _, m := range msgs {
			id, err := tx.Enqueue(m)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	return ids
}

func pendingIDs(t *testing.T, db *DB, now time.Time, limit int) []string {
	t.Helper()
	list, err := db.Pending(now, limit)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, o := range list {
		ids = append(ids, o.ID)
	}
	return ids
}

func item(t *testing.T, db *DB, id string) Outgoing {
	t.Helper()
	var o Outgoing
	mustView(t, db, func(tx *Tx) error {
		var ok bool
		var err error
		o, ok, err = tx.OutboxItem(id)
		if !ok && err == nil {
			t.Fatalf("outbox item %s missing", id)
		}
		return err
	})
	return o
}

func TestEnqueueStoresTheMail(t *testing.T) {
	db := openTemp(t)
	ids := enqueue(t, db, mail("r1", "g1"))
	got := item(t, db, ids[0])
	want := Outgoing{ID: SeqKey(1), OutMail: mail("r1", "g1"), Status: OutPending}
	want.MessageID = "r1@sortie.test" // stored without angle brackets
	want.InReplyTo = "orders-r1@example.test"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stored\n%+v\nwant\n%+v", got, want)
	}

	// Created defaults to now.
	m := mail("r2", "g1")
	m.Created = time.Time{}
	before := time.Now()
	ids = enqueue(t, db, m)
	if c := item(t, db, ids[0]).Created; c.Before(before.Add(-time.Second)) || c.After(time.Now().Add(time.Second)) {
		t.Errorf("default Created = %v", c)
	}
}

func TestEnqueueRefusesBadMail(t *testing.T) {
	db := openTemp(t)
	cases := map[string]func(m *OutMail){
		"no recipient":       func(m *OutMail) { m.To = " " },
		"no Message-ID":      func(m *OutMail) { m.MessageID = "<>" },
		"CRLF in Subject":    func(m *OutMail) { m.Subject = "Receipt\r\nBcc: everyone@example.test" },
		"LF in ToName":       func(m *OutMail) { m.ToName = "Alice\nX-Evil: 1" },
		"bad header name":    func(m *OutMail) { m.Headers = map[string]string{"X-A: b": "c"} },
		"LF in header value": func(m *OutMail) { m.Headers = map[string]string{"X-A": "b\nc"} },
		"LF in FromName":     func(m *OutMail) { m.FromName = "Sortie\nBcc: x@y" },
		"part without data":  func(m *OutMail) { m.Parts = []outmail.Part{{Filename: "a.png", ContentType: "image/png"}} },
		"inline text part": func(m *OutMail) {
			m.Parts = []outmail.Part{{Filename: "a.txt", ContentType: "text/plain", Inline: true, Data: []byte("x")}}
		},
	}
	for name, mutate := range cases {
		m := mail("bad", "g1")
		mutate(&m)
		err := db.Update(func(tx *Tx) error {
			_, err := tx.Enqueue(m)
			return err
		})
		if !errors.Is(err, ErrInvalidMail) {
			t.Errorf("%s: %v, want ErrInvalidMail", name, err)
		}
	}
	if st, _ := db.OutboxStats(); st.Total != 0 {
		t.Errorf("bad mail was stored: %+v", st)
	}
}

func TestEnqueueDuplicateMessageID(t *testing.T) {
	db := openTemp(t)
	ids := enqueue(t, db, mail("r1", "g1"))
	var dupID string
	err := db.Update(func(tx *Tx) error {
		m := mail("r1", "g1")
		m.MessageID = "r1@sortie.test" // the same id without brackets
		var err error
		dupID, err = tx.Enqueue(m)
		return err
	})
	if !errors.Is(err, ErrDuplicateMessageID) || dupID != ids[0] {
		t.Errorf("second enqueue of one Message-ID: %q, %v", dupID, err)
	}
	if st, _ := db.OutboxStats(); st.Total != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestPendingOrderAndLimit(t *testing.T) {
	db := openTemp(t)
	var msgs []OutMail
	for i := range 12 {
		msgs = append(msgs, mail(fmt.Sprintf("r%02d", i), "g1"))
	}
	ids := enqueue(t, db, msgs[:5]...)
	ids = append(ids, enqueue(t, db, msgs[5:]...)...)

	if got := pendingIDs(t, db, t0, 0); !reflect.DeepEqual(got, ids) {
		t.Errorf("Pending = %v, want %v (oldest first, across 9→10)", got, ids)
	}
	if got := pendingIDs(t, db, t0, 3); !reflect.DeepEqual(got, ids[:3]) {
		t.Errorf("Pending limit 3 = %v", got)
	}
	// A failed first item waits; the rest come first until it is due again, then it is first again.
	if err := db.MarkFailed(ids[0], errors.New("421 try later"), t0); err != nil {
		t.Fatal(err)
	}
	if got := pendingIDs(t, db, t0.Add(29*time.Second), 2); !reflect.DeepEqual(got, ids[1:3]) {
		t.Errorf("Pending while the first waits = %v", got)
	}
	if got := pendingIDs(t, db, t0.Add(30*time.Second), 2); !reflect.DeepEqual(got, ids[:2]) {
		t.Errorf("Pending once the first is due = %v", got)
	}
	o := (mustPending(t, db, t0.Add(time.Hour), 1))[0]
	if o.From != "gm@sortie.test" || o.Body != "Your plot for turn 3 is in.\n" || o.Headers["X-Sortie-Game"] != "g1" || o.Attempts != 1 {
		t.Errorf("Pending item %+v", o)
	}
}

func mustPending(t *testing.T, db *DB, now time.Time, limit int) []Outgoing {
	t.Helper()
	list, err := db.Pending(now, limit)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{
		30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour, time.Hour,
	}
	for i, w := range want {
		if got := Backoff(i + 1); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if Backoff(1000) != time.Hour {
		t.Error("Backoff(1000) is not capped")
	}

	db := openTemp(t)
	id := enqueue(t, db, mail("r1", "g1"))[0]
	at := t0
	var waits []time.Duration
	for attempt := 1; ; attempt++ {
		if err := db.MarkFailed(id, fmt.Errorf("attempt %d: 421 busy", attempt), at); err != nil {
			t.Fatal(err)
		}
		o := item(t, db, id)
		if o.Status == OutFailed {
			// The attempt that finds the first failure 48 h old gives up.
			if at.Sub(t0) < GiveUpAfter {
				t.Errorf("gave up after %v", at.Sub(t0))
			}
			if o.LastError != fmt.Sprintf("attempt %d: 421 busy", attempt) || o.Attempts != attempt || !o.LastAttempt.Equal(at) {
				t.Errorf("failed item %+v", o)
			}
			break
		}
		if at.Sub(t0) >= GiveUpAfter {
			t.Fatalf("still pending %v after the first failure", at.Sub(t0))
		}
		if !o.FirstFailure.Equal(t0) || o.Attempts != attempt {
			t.Fatalf("item after %d failures: %+v", attempt, o)
		}
		wait := o.NextAttempt.Sub(at)
		waits = append(waits, wait)
		// Not due a moment before its time, due at it.
		if ids := pendingIDs(t, db, o.NextAttempt.Add(-time.Nanosecond), 0); len(ids) != 0 {
			t.Fatalf("due before its retry time after attempt %d", attempt)
		}
		if ids := pendingIDs(t, db, o.NextAttempt, 0); len(ids) != 1 {
			t.Fatalf("not due at its retry time after attempt %d", attempt)
		}
		at = o.NextAttempt
	}
	if !reflect.DeepEqual(waits[:9], want[:9]) {
		t.Errorf("waits %v", waits[:9])
	}
	// 30s+1m+2m+4m+8m+16m+32m = 63.5 min, then 47 hourly waits reach 48 h: the 55th attempt gives up.
	if n := len(waits); n != 54 {
		t.Errorf("%d retries before giving up, want 54", n)
	}
	if ids := pendingIDs(t, db, at.Add(100*time.Hour), 0); len(ids) != 0 {
		t.Errorf("failed-permanently mail is pending: %v", ids)
	}
	if st, _ := db.OutboxStats(); st.Failed != 1 || st.Pending != 0 || st.Sent != 0 || st.Total != 1 {
		t.Errorf("stats %+v", st)
	}
	// Later failure reports change nothing.
	if err := db.MarkFailed(id, errors.New("late"), at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if o := item(t, db, id); o.LastError == "late" {
		t.Error("a failure after giving up was recorded")
	}

	// A moderator requeues it: due at once, a fresh budget.
	if ok, err := db.Requeue(id); !ok || err != nil {
		t.Fatalf("Requeue = %v, %v", ok, err)
	}
	if o := item(t, db, id); o.Status != OutPending || o.Attempts != 0 || !o.FirstFailure.IsZero() {
		t.Errorf("requeued %+v", o)
	}
	if ids := pendingIDs(t, db, t0, 0); len(ids) != 1 {
		t.Errorf("requeued item not pending: %v", ids)
	}
	if _, err := db.Requeue("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Requeue of an unknown id: %v", err)
	}
}

type smtpError struct{ code int }

func (e smtpError) Error() string   { return fmt.Sprintf("%d mailbox unavailable", e.code) }
func (e smtpError) Permanent() bool { return e.code >= 500 }

func TestPermanentFailure(t *testing.T) {
	db := openTemp(t)
	ids := enqueue(t, db, mail("r1", "g1"), mail("r2", "g1"), mail("r3", "g1"))
	if err := db.MarkFailed(ids[0], Permanent(errors.New("550 no such user")), t0); err != nil {
		t.Fatal(err)
	}
	// The mailer's own error type, wrapped.
	if err := db.MarkFailed(ids[1], fmt.Errorf("rcpt: %w", smtpError{550}), t0); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkFailed(ids[2], smtpError{451}, t0); err != nil {
		t.Fatal(err)
	}
	for i, want := range []OutStatus{OutFailed, OutFailed, OutPending} {
		if o := item(t, db, ids[i]); o.Status != want {
			t.Errorf("item %d: %s, want %s (%s)", i, o.Status, want, o.LastError)
		}
	}
	if o := item(t, db, ids[0]); o.LastError != "550 no such user" {
		t.Errorf("LastError %q", o.LastError)
	}
	if st, _ := db.OutboxStats(); st != (OutboxStats{Total: 3, Pending: 1, Retrying: 1, Failed: 2, OldestPending: t0}) {
		t.Errorf("stats %+v", st)
	}
}

func TestMarkSent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := enqueue(t, db, mail("r1", "g1"), mail("r2", "g1"), mail("r3", "g2"))
	sent := t0.Add(5 * time.Second)
	if err := db.MarkSent(ids[1], sent); err != nil {
		t.Fatal(err)
	}
	// Idempotent: the second call changes nothing, not even SentAt.
	if err := db.MarkSent(ids[1], sent.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if o := item(t, db, ids[1]); o.Status != OutSent || !o.SentAt.Equal(sent) {
		t.Errorf("sent item %+v", o)
	}
	// A failure reported after success does not bring it back.
	if err := db.MarkFailed(ids[1], errors.New("timeout reading reply"), sent.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := pendingIDs(t, db, sent.Add(100*time.Hour), 0); !reflect.DeepEqual(got, []string{ids[0], ids[2]}) {
		t.Errorf("Pending = %v", got)
	}
	if err := db.MarkSent("00000000000000000099", sent); !errors.Is(err, ErrNotFound) {
		t.Errorf("MarkSent of an unknown id: %v", err)
	}
	if err := db.MarkFailed("00000000000000000099", errors.New("x"), sent); !errors.Is(err, ErrNotFound) {
		t.Errorf("MarkFailed of an unknown id: %v", err)
	}
	// A retried mail that then goes through.
	if err := db.MarkFailed(ids[0], errors.New("421"), t0); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSent(ids[0], t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if ok, err := db.Requeue(ids[0]); ok || err != nil {
		t.Errorf("Requeue of a sent mail = %v, %v", ok, err)
	}
	db.Close()

	// After a restart: still never returned.
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := pendingIDs(t, db, t0.Add(1000*time.Hour), 0); !reflect.DeepEqual(got, []string{ids[2]}) {
		t.Errorf("Pending after reopen = %v", got)
	}
	if st, _ := db.OutboxStats(); st != (OutboxStats{Total: 3, Pending: 1, Sent: 2, OldestPending: t0}) {
		t.Errorf("stats %+v", st)
	}
	mustView(t, db, func(tx *Tx) error {
		g1, err := tx.OutboxByGame("g1")
		if err != nil {
			return err
		}
		if len(g1) != 2 || g1[0].ID != ids[0] || g1[1].ID != ids[1] || g1[0].Status != OutSent || g1[1].Status != OutSent {
			t.Errorf("OutboxByGame(g1) = %+v", g1)
		}
		g2, _ := tx.OutboxByGame("g2")
		if len(g2) != 1 || g2[0].Status != OutPending || g2[0].Subject != "Receipt: r3" {
			t.Errorf("OutboxByGame(g2) = %+v", g2)
		}
		if none, _ := tx.OutboxByGame("g9"); none != nil {
			t.Errorf("OutboxByGame(g9) = %+v", none)
		}
		return nil
	})
}

func TestOutboxReady(t *testing.T) {
	db := openTemp(t)
	select {
	case <-db.OutboxReady():
		t.Fatal("signalled before anything was enqueued")
	default:
	}
	enqueue(t, db, mail("r1", "g1"), mail("r2", "g1"))
	enqueue(t, db, mail("r3", "g1"))
	select {
	case <-db.OutboxReady():
	default:
		t.Fatal("not signalled after a commit")
	}
	select {
	case <-db.OutboxReady():
		t.Fatal("tokens queue up; one should stand for all")
	default:
	}
	// A transaction without mail does not signal.
	mustUpdate(t, db, func(tx *Tx) error { return tx.Put([]string{"games"}, "g1", []byte("x")) })
	select {
	case <-db.OutboxReady():
		t.Fatal("signalled by a commit without mail")
	default:
	}
}

// The daemon's adapter hands the sender the mail as it is stored: Outgoing carries the whole
// outmail.Mail, nothing copied field by field.
func TestOutgoingCarriesTheMail(t *testing.T) {
	f, ok := reflect.TypeFor[Outgoing]().FieldByName("Mail")
	if !ok || f.Type != reflect.TypeFor[outmail.Mail]() || !f.Anonymous {
		t.Errorf("Outgoing does not embed outmail.Mail: %+v", f)
	}
}

// bigPart is a part of the size of a report's map picture.
func bigPart(name string, n int) outmail.Part {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	return outmail.Part{Filename: name, ContentType: "image/png", Inline: true, Data: data}
}

// A mail's parts come back whole wherever the mail is read, while its record stays small: recording an
// attempt or the sending rewrites the record, never the picture.
func TestOutboxParts(t *testing.T) {
	db := openTemp(t)
	m := mail("pic", "g1")
	m.Parts = []outmail.Part{bigPart("map.png", 100<<10), {Filename: "orders.txt", ContentType: "text/plain", Data: []byte("RED1: 2L1\n")}}
	plain := mail("plain", "g1")
	ids := enqueue(t, db, m, plain)
	same := func(what string, got Outgoing) {
		t.Helper()
		if len(got.Parts) != 2 || !reflect.DeepEqual(got.Parts, m.Parts) {
			t.Errorf("%s: the parts come back as %d parts, not as queued", what, len(got.Parts))
		}
	}
	same("OutboxItem", item(t, db, ids[0]))
	if list := mustPending(t, db, t0, 0); len(list) != 2 || len(list[1].Parts) != 0 {
		t.Fatalf("Pending: %d mails", len(list))
	} else {
		same("Pending", list[0])
	}
	recordSize := func() int {
		n := 0
		mustView(t, db, func(tx *Tx) error {
			n = len(tx.tx.Bucket([]byte(BucketOutbox)).Bucket([]byte(outboxMail)).Get([]byte(ids[0])))
			return nil
		})
		return n
	}
	if n := recordSize(); n > 2048 {
		t.Errorf("the record of a mail with a 100 KB part is %d bytes: the part is in it", n)
	}
	if err := db.MarkFailed(ids[0], errors.New("421 try later"), t0); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSent(ids[0], t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n := recordSize(); n > 2048 {
		t.Errorf("after MarkSent the record is %d bytes", n)
	}
	mustView(t, db, func(tx *Tx) error {
		got, ok, err := tx.OutboxByMessageID("<pic@sortie.test>")
		if !ok || err != nil {
			t.Fatalf("OutboxByMessageID: %v %v", ok, err)
		}
		same("OutboxByMessageID", got)
		all, err := tx.OutboxByGame("g1")
		if err != nil || len(all) != 2 {
			t.Fatalf("OutboxByGame: %d %v", len(all), err)
		}
		same("OutboxByGame", all[0])
		if all[0].Status != OutSent || all[0].Attempts != 1 {
			t.Errorf("delivery state: %+v", all[0])
		}
		return nil
	})

	// Pruning a mail (one of no game) removes its parts' bytes too.
	stray := mail("stray", "")
	stray.Parts = []outmail.Part{bigPart("map.png", 1000)}
	sid := enqueue(t, db, stray)[0]
	if err := db.MarkSent(sid, t0); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, db, func(tx *Tx) error {
		n, err := tx.PruneOutbox(t0.Add(time.Hour))
		if n != 1 || err != nil {
			t.Errorf("PruneOutbox = %d, %v", n, err)
		}
		ob, _ := tx.outbox()
		if v := ob.data.Get(partKey(sid, 0)); v != nil {
			t.Error("the pruned mail's part is still stored")
		}
		if v := ob.data.Get(partKey(ids[0], 0)); v == nil {
			t.Error("pruning took a game's part")
		}
		return nil
	})
}

// Mail queued before parts existed reads as it did: the stored record of an older build, and a file
// without outbox/data opened read-only.
func TestOutboxOlderRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	old := `{"id":"00000000000000000001","from":"gm@sortie.test","to":"alice@example.test","to_name":"Alice",` +
		`"subject":"Receipt","body":"Your plot is in.\n","message_id":"old@sortie.test","headers":{"X-Sortie-Game":"g1"},` +
		`"game":"g1","kind":"receipt","created":"2026-11-21T12:00:00Z","status":"sent","sent_at":"2026-11-21T12:01:00Z"}`
	mustUpdate(t, db, func(tx *Tx) error {
		ob, err := tx.outbox()
		if err != nil {
			return err
		}
		if _, err := ob.mail.NextSequence(); err != nil {
			return err
		}
		if err := ob.mail.Put([]byte(SeqKey(1)), []byte(old)); err != nil {
			return err
		}
		g, err := ob.game.CreateBucketIfNotExists([]byte("g1"))
		if err != nil {
			return err
		}
		if err := g.Put([]byte(SeqKey(1)), nil); err != nil {
			return err
		}
		return tx.tx.Bucket([]byte(BucketOutbox)).DeleteBucket([]byte(outboxData))
	})
	db.Close()

	db, err = Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	mustView(t, db, func(tx *Tx) error {
		all, err := tx.OutboxByGame("g1")
		if err != nil || len(all) != 1 {
			t.Fatalf("OutboxByGame: %d %v", len(all), err)
		}
		got := all[0]
		if got.To != "alice@example.test" || got.Body != "Your plot is in.\n" || got.Kind != "receipt" || got.Status != OutSent ||
			!got.Created.Equal(t0) || got.Headers["X-Sortie-Game"] != "g1" || got.Parts != nil || got.FromName != "" {
			t.Errorf("an older record reads as %+v", got)
		}
		return nil
	})
	db.Close()
	// Opened read-write, the file gets outbox/data and takes mail with parts.
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := mail("new", "g1")
	m.Parts = []outmail.Part{bigPart("map.png", 10)}
	ids := enqueue(t, db, m)
	if got := item(t, db, ids[0]); len(got.Parts) != 1 || len(got.Parts[0].Data) != 10 {
		t.Errorf("new mail in an older file: %+v", got.Parts)
	}
}

// docs/architecture.md: storage imports nothing of the project but the leaf package of the mail it stores.
func TestImportsNothingOfTheProject(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); path != "sortie/storage" && path != "sortie/mailer/outmail" && (path == "sortie" || strings.HasPrefix(path, "sortie/")) {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
