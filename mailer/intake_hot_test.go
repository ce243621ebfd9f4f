package mailer_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/mailer"
	"sortie/mailer/localmail"
)

// TestIntakeHotPolls: while hot, the intake checks the mailbox every HotPoll (a NOOP) and sees new mail at
// once where it would otherwise wait a whole Poll (an hour here, far beyond the test's hang guard); when
// the window ends it goes back to waiting. Each step waits for what the intake did (a mail handled, a
// line logged), never for a length of time.
func TestIntakeHotPolls(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	logs := &intakeLogCounter{}
	opts := intakeOptions(t, srv)
	opts.Logger = zerolog.New(logs).Level(zerolog.DebugLevel)
	opts.NoIdle = true // without hot polling only the Poll would see new mail
	opts.Poll = time.Hour
	opts.HotPoll = 10 * time.Millisecond
	rec := newIntakeRecorder(nil)
	srv.Deliver("gm", intakeMail(1))
	in := mailer.NewIntake(opts, newIntakeCursor(), rec)
	runIntake(t, in)
	if m := rec.wait(t); m.UID != 1 { // the first pass: the intake then waits for an hour
		t.Fatalf("UID %d", m.UID)
	}

	in.Hot(time.Hour)
	start := time.Now()
	srv.Deliver("gm", intakeMail(2))
	if m := rec.wait(t); m.UID != 2 {
		t.Fatalf("UID %d", m.UID)
	}
	t.Logf("hot: delivery to handler in %v", time.Since(start))

	// A second intake with a short window: once it says the window is over, it no longer polls.
	srv2 := startIntakeIMAP(t, localmail.IMAPOptions{})
	logs2 := &intakeLogCounter{}
	opts.Addr, opts.Logger = srv2.Addr(), zerolog.New(logs2).Level(zerolog.DebugLevel)
	rec2 := newIntakeRecorder(nil)
	srv2.Deliver("gm", intakeMail(1))
	in2 := mailer.NewIntake(opts, newIntakeCursor(), rec2)
	runIntake(t, in2)
	rec2.wait(t)
	in2.Hot(50 * time.Millisecond)
	waitLogged(t, logs2, "imap hot window over")
	srv2.Deliver("gm", intakeMail(2))
	select {
	case m := <-rec2.got:
		t.Fatalf("UID %d handled at once after the hot window: the intake still polls", m.UID)
	case <-time.After(200 * time.Millisecond): // nothing may come: a slow machine cannot make this fail
	}
	in2.Hot(time.Hour) // and it is taken up again
	if m := rec2.wait(t); m.UID != 2 {
		t.Fatalf("UID %d", m.UID)
	}
}

// waitLogged waits until the intake has logged a line containing sub.
func waitLogged(t *testing.T, logs *intakeLogCounter, sub string) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); logs.count(sub) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q logged within %v\n%s", sub, hangGuard, strings.Join(logs.lines, ""))
		}
	}
}

// TestIntakeHotStopsIdle: Hot ends an IDLE in progress (on the same connection) and polls; HotPoll < 0
// turns it off.
func TestIntakeHotStopsIdle(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	logs := &intakeLogCounter{}
	opts := intakeOptions(t, srv)
	opts.Logger = zerolog.New(logs).Level(zerolog.DebugLevel)
	opts.Poll = time.Hour
	rec := newIntakeRecorder(nil)
	srv.Deliver("gm", intakeMail(1))
	in := mailer.NewIntake(opts, newIntakeCursor(), rec)
	runIntake(t, in)
	rec.wait(t) // the first pass; the intake then idles
	in.Hot(time.Hour)
	for n := 2; n <= 4; n++ {
		srv.Deliver("gm", intakeMail(n))
		if m := rec.wait(t); m.UID != uint32(n) {
			t.Fatalf("UID %d", m.UID)
		}
	}
	if n := logs.count("imap connected"); n != 1 {
		t.Errorf("%d connections, want 1\n%s", n, strings.Join(logs.lines, ""))
	}
	if n := logs.count(`"level":"warn"`); n != 0 {
		t.Errorf("%d warnings:\n%s", n, strings.Join(logs.lines, ""))
	}

	opts.HotPoll = -1
	opts.NoIdle = true
	srv2 := startIntakeIMAP(t, localmail.IMAPOptions{})
	logs2 := &intakeLogCounter{}
	opts.Addr, opts.Logger = srv2.Addr(), zerolog.New(logs2).Level(zerolog.DebugLevel)
	rec2 := newIntakeRecorder(nil)
	srv2.Deliver("gm", intakeMail(1))
	in2 := mailer.NewIntake(opts, newIntakeCursor(), rec2)
	runIntake(t, in2)
	rec2.wait(t)
	waitLogged(t, logs2, "imap pass done") // the first pass; the intake then waits for the Poll
	in2.Hot(time.Hour)
	srv2.Deliver("gm", intakeMail(2))
	select {
	case m := <-rec2.got:
		t.Fatalf("HotPoll -1: UID %d handled before the Poll", m.UID)
	case <-time.After(200 * time.Millisecond): // nothing may come: a slow machine cannot make this fail
	}
}

// TestIntakeBatchesFollowTheMailbox: a BatchHandler gets the mailbox in order, in batches of at most
// Batch, and what it handled is filed (moved) with the cursor at the last one.
func TestIntakeBatchesFollowTheMailbox(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	for n := 1; n <= 23; n++ {
		srv.Deliver("gm", intakeMail(n))
	}
	opts := intakeOptions(t, srv)
	opts.Batch = 5
	h := &batchRecorder{}
	cursor := newIntakeCursor()
	in := mailer.NewIntake(opts, cursor, h)
	if n, err := in.PollOnce(context.Background()); err != nil || n != 23 {
		t.Fatalf("%d, %v", n, err)
	}
	var all []uint32
	for _, b := range h.batches {
		if len(b) > 5 {
			t.Errorf("a batch of %d, more than Batch", len(b))
		}
		all = append(all, b...)
	}
	want := make([]uint32, 23)
	for i := range want {
		want[i] = uint32(i + 1)
	}
	if !slices.Equal(all, want) {
		t.Fatalf("handled %v", all)
	}
	if got := mustMessages(t, srv, "Processed"); len(got) != 23 {
		t.Errorf("Processed holds %d", len(got))
	}
	if _, last := cursor.get("INBOX"); last != 23 {
		t.Errorf("cursor at %d", last)
	}
	if h.prepared != 23 {
		t.Errorf("Prepare ran for %d messages, want every one", h.prepared)
	}
}

// TestIntakeFirstBatchFills: the first batch of a long group is not the first message or two that came
// off the wire (each batch is a commit, with its disk syncs) but waits for 32 of them, or the whole group
// when it is smaller; after it, batches take whatever has arrived.
func TestIntakeFirstBatchFills(t *testing.T) {
	for _, tc := range []struct{ mails, batch, first int }{{100, 250, 32}, {10, 250, 10}, {100, 8, 8}} {
		srv := startIntakeIMAP(t, localmail.IMAPOptions{})
		for n := 1; n <= tc.mails; n++ {
			srv.Deliver("gm", intakeMail(n))
		}
		opts := intakeOptions(t, srv)
		opts.Linger = time.Minute // only the messages' arrival may end the wait here
		opts.Batch = tc.batch
		h := &batchRecorder{}
		in := mailer.NewIntake(opts, newIntakeCursor(), h)
		if n, err := in.PollOnce(context.Background()); err != nil || n != tc.mails {
			t.Fatalf("%d, %v", n, err)
		}
		if len(h.batches) == 0 || len(h.batches[0]) < tc.first {
			t.Errorf("%d mails, Batch %d: first batch %v, want at least %d", tc.mails, tc.batch, h.batches, tc.first)
		}
		total := 0
		for _, b := range h.batches {
			total += len(b)
		}
		if total != tc.mails {
			t.Errorf("%d handled, want %d", total, tc.mails)
		}
	}
}

// batchRecorder is a BatchHandler and Preparer that records its batches and checks that every message
// comes with what Prepare made of it.
type batchRecorder struct {
	batches  [][]uint32
	prepared int
}

func (h *batchRecorder) Prepare(m mailer.Message) any { return intakeMessageID(m.Raw) }

func (h *batchRecorder) Handle(ctx context.Context, m mailer.Message) mailer.Disposition {
	return h.HandleBatch(ctx, []mailer.Message{m})[0]
}

func (h *batchRecorder) HandleBatch(_ context.Context, ms []mailer.Message) []mailer.Disposition {
	var uids []uint32
	out := make([]mailer.Disposition, len(ms))
	for i, m := range ms {
		uids = append(uids, m.UID)
		if id, ok := m.Prepared.(string); ok && id == intakeMessageID(m.Raw) {
			h.prepared++
		}
		out[i] = mailer.Processed
	}
	h.batches = append(h.batches, uids)
	return out
}

// TestIntakeRecreatesAFolder: a folder deleted after the intake made it is made again when a MOVE to it
// says TRYCREATE, and the mail goes there.
func TestIntakeRecreatesAFolder(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	srv.Deliver("gm", intakeMail(1))
	rec := newIntakeRecorder(nil)
	in := mailer.NewIntake(intakeOptions(t, srv), newIntakeCursor(), rec)
	if n, err := in.PollOnce(context.Background()); err != nil || n != 1 {
		t.Fatalf("%d, %v", n, err)
	}
	if err := srv.DeleteMailbox("gm", "Processed"); err != nil {
		t.Fatal(err)
	}
	srv.Deliver("gm", intakeMail(2))
	if n, err := in.PollOnce(context.Background()); err != nil || n != 1 {
		t.Fatalf("%d, %v", n, err)
	}
	if got := mustMessages(t, srv, "Processed"); !sameMails(got, 2) {
		t.Fatalf("Processed holds %d messages, want mail 2", len(got))
	}
	if got := mustMessages(t, srv, "INBOX"); len(got) != 0 {
		t.Fatalf("INBOX holds %d", len(got))
	}
}
