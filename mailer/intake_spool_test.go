package mailer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"sortie/mailer"
	"sortie/mailer/localmail"
	"sortie/storage"
)

// The database is the daemon's spool.
var _ mailer.Spool = (*storage.DB)(nil)

type heldKey struct {
	mailbox string
	uv, uid uint32
}

// spoolCursor is intakeCursor with a spool in memory (mailer.Spool), which can be made to fail.
type spoolCursor struct {
	*intakeCursor
	smu       sync.Mutex
	held      map[heldKey][]byte
	spools    int // SpoolMessages calls
	failSpool error
}

func newSpoolCursor() *spoolCursor {
	return &spoolCursor{intakeCursor: newIntakeCursor(), held: map[heldKey][]byte{}}
}

func (c *spoolCursor) SpoolMessages(mailbox string, uv uint32, uids []uint32, raws [][]byte, last uint32) error {
	c.smu.Lock()
	defer c.smu.Unlock()
	c.spools++
	if c.failSpool != nil {
		return c.failSpool
	}
	for i, uid := range uids {
		c.held[heldKey{mailbox, uv, uid}] = bytes.Clone(raws[i])
	}
	if last != 0 {
		c.mu.Lock()
		c.uv[mailbox], c.last[mailbox] = uv, last
		c.mu.Unlock()
	}
	return nil
}

func (c *spoolCursor) Spooled(mailbox string, fn func(uv, uid uint32, raw []byte) error) error {
	c.smu.Lock()
	var keys []heldKey
	for k := range c.held {
		if k.mailbox == mailbox {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b heldKey) int {
		if a.uv != b.uv {
			return int(a.uv) - int(b.uv)
		}
		return int(a.uid) - int(b.uid)
	})
	raws := make([][]byte, len(keys))
	for i, k := range keys {
		raws[i] = bytes.Clone(c.held[k])
	}
	c.smu.Unlock()
	for i, k := range keys {
		if err := fn(k.uv, k.uid, raws[i]); err != nil {
			return err
		}
	}
	return nil
}

func (c *spoolCursor) Unspool(mailbox string, uv uint32, uids []uint32) error {
	c.smu.Lock()
	defer c.smu.Unlock()
	for _, uid := range uids {
		delete(c.held, heldKey{mailbox, uv, uid})
	}
	return nil
}

func (c *spoolCursor) heldUIDs(mailbox string) []uint32 {
	var out []uint32
	c.Spooled(mailbox, func(_, uid uint32, _ []byte) error { out = append(out, uid); return nil })
	return out
}

func (c *spoolCursor) spoolCalls() int {
	c.smu.Lock()
	defer c.smu.Unlock()
	return c.spools
}

// debugMoves reads the MOVEs an intake logged at debug level: messages and folder of each.
func debugMoves(t *testing.T, log *bytes.Buffer) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		var e struct {
			Message  string `json:"message"`
			Messages int    `json:"messages"`
			Folder   string `json:"folder"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Message == "imap move" {
			out = append(out, fmt.Sprintf("%d→%s", e.Messages, e.Folder))
		}
	}
	return out
}

// deliverIntakeMails puts intakeMail(1) to intakeMail(n) into gm's INBOX, as UIDs 1 to n.
func deliverIntakeMails(t *testing.T, srv *localmail.IMAPServer, n int) {
	t.Helper()
	for k := 1; k <= n; k++ {
		if err := srv.Deliver("gm", intakeMail(k)); err != nil {
			t.Fatal(err)
		}
	}
}

func mailNumbers(from, to int, except ...int) []int {
	var out []int
	for n := from; n <= to; n++ {
		if !slices.Contains(except, n) {
			out = append(out, n)
		}
	}
	return out
}

// TestIntakeSpoolDispositions: a backlog goes through the spool, is moved to Processed with one MOVE as
// soon as it has arrived, and ends where the handler said, as without a spool: rejected and failed mail
// is moved on from Processed to its folder. A Retry leaves that message and those after it in the
// spool (already out of the inbox), and the next pass hands them over first.
func TestIntakeSpoolDispositions(t *testing.T) {
	for _, rev2 := range []bool{false, true} {
		t.Run(fmt.Sprintf("IMAP4rev2=%v", rev2), func(t *testing.T) {
			srv := startIntakeIMAP(t, localmail.IMAPOptions{IMAP4rev2: rev2})
			deliverIntakeMails(t, srv, 20)
			uv, err := srv.UIDValidity("gm", "INBOX")
			if err != nil {
				t.Fatal(err)
			}
			cursor := newSpoolCursor()
			rec := newIntakeRecorder(func(m mailer.Message, attempt int) mailer.Disposition {
				switch {
				case m.UID == 2:
					return mailer.Rejected
				case m.UID == 5:
					return mailer.Failed
				case m.UID == 9 && attempt == 1:
					return mailer.Retry
				}
				return mailer.Processed
			})
			var log bytes.Buffer
			opts := intakeOptions(t, srv)
			opts.Logger = zerolog.New(zerolog.SyncWriter(&log)).Level(zerolog.DebugLevel)
			in := mailer.NewIntake(opts, cursor, rec)

			handled, err := in.PollOnce(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if handled != 8 || !slices.Equal(rec.uids(), []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9}) {
				t.Fatalf("first pass: handled %d, handler saw %v", handled, rec.uids())
			}
			if cursor.spoolCalls() == 0 {
				t.Fatal("the backlog did not go through the spool")
			}
			if moves := debugMoves(t, &log); len(moves) == 0 || moves[0] != "20→Processed" {
				t.Fatalf("MOVEs %v: the first must take all 20 messages to Processed", moves)
			}
			if got := mustMessages(t, srv, "INBOX"); len(got) != 0 {
				t.Fatalf("INBOX still holds %d", len(got))
			}
			if got := cursor.heldUIDs("INBOX"); !slices.Equal(got, mailNumbersU(9, 20)) {
				t.Fatalf("the spool holds %v, want 9..20", got)
			}
			if gotUV, last := cursor.get("INBOX"); gotUV != uv || last != 20 {
				t.Fatalf("cursor %d/%d, want %d/20", gotUV, last, uv)
			}
			if got := mustMessages(t, srv, "Rejected"); !sameMails(got, 2) {
				t.Fatalf("Rejected holds %d", len(got))
			}
			if got := mustMessages(t, srv, "Sortie/Failed"); !sameMails(got, 5) {
				t.Fatalf("Sortie/Failed holds %d", len(got))
			}

			rec.reset()
			handled, err = in.PollOnce(context.Background())
			if err != nil || handled != 12 || !slices.Equal(rec.uids(), mailNumbersU(9, 20)) {
				t.Fatalf("second pass: handled %d (%v), handler saw %v", handled, err, rec.uids())
			}
			if got := cursor.heldUIDs("INBOX"); len(got) != 0 {
				t.Fatalf("the spool still holds %v", got)
			}
			if got := mustMessages(t, srv, "Processed"); !sameMails(got, mailNumbers(1, 20, 2, 5)...) {
				t.Fatalf("Processed holds %d messages", len(got))
			}
		})
	}
}

func mailNumbersU(from, to int) []uint32 {
	var out []uint32
	for n := from; n <= to; n++ {
		out = append(out, uint32(n))
	}
	return out
}

// TestIntakeSpoolOnlyWhereItHelps: a few messages (fewer than IntakeOptions.SpoolMin, 16 by default),
// a server that does not say where it moved mail (no UIDPLUS), or a negative SpoolMin go the direct way
// (commit, then MOVE) and leave the spool alone; a group as large as SpoolMin goes through it.
func TestIntakeSpoolOnlyWhereItHelps(t *testing.T) {
	for _, c := range []struct {
		name     string
		opts     localmail.IMAPOptions
		mails    int
		spoolMin int
		spooled  bool
	}{
		{"few messages", localmail.IMAPOptions{}, 3, 0, false},
		{"15 messages", localmail.IMAPOptions{}, 15, 0, false},
		{"16 messages", localmail.IMAPOptions{}, 16, 0, true},
		{"no UIDPLUS", localmail.IMAPOptions{NoUIDPlus: true}, 20, 0, false},
		{"SpoolMin -1", localmail.IMAPOptions{}, 20, -1, false},
		{"SpoolMin 3", localmail.IMAPOptions{}, 3, 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := startIntakeIMAP(t, c.opts)
			deliverIntakeMails(t, srv, c.mails)
			cursor := newSpoolCursor()
			opts := intakeOptions(t, srv)
			opts.SpoolMin = c.spoolMin
			in := mailer.NewIntake(opts, cursor, newIntakeRecorder(nil))
			if handled, err := in.PollOnce(context.Background()); err != nil || handled != c.mails {
				t.Fatalf("handled %d: %v", handled, err)
			}
			if n := cursor.spoolCalls(); (n != 0) != c.spooled {
				t.Fatalf("the spool was written %d times", n)
			}
			if got := mustMessages(t, srv, "Processed"); !sameMails(got, mailNumbers(1, c.mails)...) {
				t.Fatalf("Processed holds %d", len(got))
			}
		})
	}
}

// TestIntakeSpoolFailureLeavesTheMail: when the spool cannot be written (a full disk), nothing is
// handed over or moved, the pass ends without an error (the connection is fine), and the next pass takes
// the mail once the spool works again.
func TestIntakeSpoolFailureLeavesTheMail(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	deliverIntakeMails(t, srv, 20)
	cursor := newSpoolCursor()
	cursor.failSpool = errors.New("disk full")
	rec := newIntakeRecorder(nil)
	in := mailer.NewIntake(intakeOptions(t, srv), cursor, rec)
	if handled, err := in.PollOnce(context.Background()); err != nil || handled != 0 || len(rec.uids()) != 0 {
		t.Fatalf("handled %d (%v), handler saw %v", handled, err, rec.uids())
	}
	if got := mustMessages(t, srv, "INBOX"); len(got) != 20 {
		t.Fatalf("INBOX holds %d, want the 20 left there", len(got))
	}
	cursor.smu.Lock()
	cursor.failSpool = nil
	cursor.smu.Unlock()
	if handled, err := in.PollOnce(context.Background()); err != nil || handled != 20 {
		t.Fatalf("after the disk was freed: handled %d: %v", handled, err)
	}
	if got := mustMessages(t, srv, "Processed"); !sameMails(got, mailNumbers(1, 20)...) {
		t.Fatalf("Processed holds %d", len(got))
	}
}

// TestIntakeSpoolHandsOverWhatAnEarlierPassHeld: a pass that ended after its spool commit (the daemon
// was stopped) leaves mail in the spool: in the inbox still (stopped before the MOVE), or moved already
// (UID 99 here), or of an earlier UIDVALIDITY. The next pass moves out what the inbox still has, hands
// everything over before new mail, and moves rejected mail on to Rejected.
func TestIntakeSpoolHandsOverWhatAnEarlierPassHeld(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	deliverIntakeMails(t, srv, 4)
	uv, err := srv.UIDValidity("gm", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	cursor := newSpoolCursor()
	// The earlier pass held 1..3 and 99 and set the cursor to 3; UID 4 came after it.
	if err := cursor.SpoolMessages("INBOX", uv, []uint32{1, 2, 3, 99}, [][]byte{intakeMail(1), intakeMail(2), intakeMail(3), intakeMail(99)}, 3); err != nil {
		t.Fatal(err)
	}
	if err := cursor.SpoolMessages("INBOX", uv-1, []uint32{7}, [][]byte{intakeMail(77)}, 0); err != nil {
		t.Fatal(err)
	}
	var order []string
	var mu sync.Mutex
	rec := newIntakeRecorder(func(m mailer.Message, _ int) mailer.Disposition {
		mu.Lock()
		order = append(order, intakeMessageID(m.Raw))
		mu.Unlock()
		if m.UID == 2 && m.UIDValidity == uv {
			return mailer.Rejected
		}
		return mailer.Processed
	})
	in := mailer.NewIntake(intakeOptions(t, srv), cursor, rec)
	handled, err := in.PollOnce(context.Background())
	if err != nil || handled != 6 {
		t.Fatalf("handled %d: %v", handled, err)
	}
	want := []string{"<order-77@example.test>", "<order-1@example.test>", "<order-2@example.test>", "<order-3@example.test>", "<order-99@example.test>", "<order-4@example.test>"}
	if !slices.Equal(order, want) {
		t.Fatalf("handed over %v, want %v", order, want)
	}
	if got := cursor.heldUIDs("INBOX"); len(got) != 0 {
		t.Fatalf("the spool still holds %v", got)
	}
	if got := mustMessages(t, srv, "INBOX"); len(got) != 0 {
		t.Fatalf("INBOX holds %d", len(got))
	}
	if got := mustMessages(t, srv, "Processed"); !sameMails(got, 1, 3, 4) {
		t.Fatalf("Processed holds %d", len(got))
	}
	if got := mustMessages(t, srv, "Rejected"); !sameMails(got, 2) {
		t.Fatalf("Rejected holds %d", len(got))
	}
}

// TestIntakeSpoolWithTheDatabase: the daemon's database as cursor store and spool, on a real bbolt
// file: a backlog is handled through it, and nothing is left held.
func TestIntakeSpoolWithTheDatabase(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	deliverIntakeMails(t, srv, 40)
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	opts := intakeOptions(t, srv)
	opts.Batch = 7
	rec := newIntakeRecorder(nil)
	in := mailer.NewIntake(opts, db, rec)
	if handled, err := in.PollOnce(context.Background()); err != nil || handled != 40 || !slices.Equal(rec.uids(), mailNumbersU(1, 40)) {
		t.Fatalf("handled %d (%v), handler saw %v", handled, err, rec.uids())
	}
	held := 0
	if err := db.Spooled("INBOX", func(uint32, uint32, []byte) error { held++; return nil }); err != nil || held != 0 {
		t.Fatalf("the spool holds %d: %v", held, err)
	}
	if _, last, err := db.LoadCursor("INBOX"); err != nil || last != 40 {
		t.Fatalf("cursor at %d: %v", last, err)
	}
	if got := mustMessages(t, srv, "Processed"); !sameMails(got, mailNumbers(1, 40)...) {
		t.Fatalf("Processed holds %d", len(got))
	}
}

// TestIntakeSpoolRejectedAfterARetry: after a Retry in a spooled group the rest is handed over from the spool on the next pass, already in
// Processed; a message the handler then rejects should end in Rejected (docs/operations.md, "File").
func TestIntakeSpoolRejectedAfterARetry(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	deliverIntakeMails(t, srv, 20)
	rec := newIntakeRecorder(func(m mailer.Message, attempt int) mailer.Disposition {
		switch {
		case m.UID == 9 && attempt == 1:
			return mailer.Retry
		case m.UID == 12:
			return mailer.Rejected
		}
		return mailer.Processed
	})
	go func() {
		for range rec.got {
		}
	}()
	in := mailer.NewIntake(intakeOptions(t, srv), newSpoolCursor(), rec)
	for pass := 0; pass < 2; pass++ {
		if _, err := in.PollOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustMessages(t, srv, "Rejected"); !sameMails(got, 12) {
		t.Errorf("Rejected holds %d messages, want mail 12", len(got))
	}
	if got := mustMessages(t, srv, "Processed"); !sameMails(got, mailNumbers(1, 20, 12)...) {
		t.Errorf("Processed holds %d messages, want 19 (all but 12)", len(got))
	}
}

// TestIntakeSpoolHandedOverWithoutUIDPlus: what a spool holds from an earlier pass (the mail already
// moved out of the inbox) is handed over even when the server now lacks UIDPLUS.
func TestIntakeSpoolHandedOverWithoutUIDPlus(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{NoUIDPlus: true})
	uv, err := srv.UIDValidity("gm", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	cursor := newSpoolCursor()
	// The earlier pass (on a server with UIDPLUS) held 1..3, moved them to Processed, and stopped.
	if err := cursor.SpoolMessages("INBOX", uv, []uint32{1, 2, 3}, [][]byte{intakeMail(1), intakeMail(2), intakeMail(3)}, 3); err != nil {
		t.Fatal(err)
	}
	rec := newIntakeRecorder(nil)
	go func() {
		for range rec.got {
		}
	}()
	in := mailer.NewIntake(intakeOptions(t, srv), cursor, rec)
	handled, err := in.PollOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if handled != 3 {
		t.Errorf("handled %d of the 3 the spool holds; the spool still holds %v", handled, cursor.heldUIDs("INBOX"))
	}
}
