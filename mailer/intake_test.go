package mailer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/mailer"
	"sortie/mailer/localmail"
)

// intakeCursor is an in-memory CursorStore.
type intakeCursor struct {
	mu    sync.Mutex
	uv    map[string]uint32
	last  map[string]uint32
	saves int
}

func newIntakeCursor() *intakeCursor {
	return &intakeCursor{uv: map[string]uint32{}, last: map[string]uint32{}}
}

func (c *intakeCursor) LoadCursor(mailbox string) (uint32, uint32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.uv[mailbox], c.last[mailbox], nil
}

func (c *intakeCursor) SaveCursor(mailbox string, uv, last uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.uv[mailbox], c.last[mailbox] = uv, last
	c.saves++
	return nil
}

func (c *intakeCursor) get(mailbox string) (uint32, uint32) {
	uv, last, _ := c.LoadCursor(mailbox)
	return uv, last
}

// intakeRecorder is a Handler that records what it was given and answers with decide.
type intakeRecorder struct {
	mu       sync.Mutex
	seen     []mailer.Message
	oversize map[uint32]int64
	decide   func(m mailer.Message, attempt int) mailer.Disposition
	attempts map[string]int // by Message-ID header
	got      chan mailer.Message
}

func newIntakeRecorder(decide func(m mailer.Message, attempt int) mailer.Disposition) *intakeRecorder {
	if decide == nil {
		decide = func(mailer.Message, int) mailer.Disposition { return mailer.Processed }
	}
	return &intakeRecorder{
		decide:   decide,
		oversize: map[uint32]int64{},
		attempts: map[string]int{},
		got:      make(chan mailer.Message, 100),
	}
}

func (r *intakeRecorder) Handle(_ context.Context, m mailer.Message) mailer.Disposition {
	r.mu.Lock()
	r.seen = append(r.seen, m)
	if m.HeaderOnly {
		r.oversize[m.UID] = m.Size
	}
	id := intakeMessageID(m.Raw)
	r.attempts[id]++
	d := r.decide(m, r.attempts[id])
	r.mu.Unlock()
	r.got <- m
	return d
}

func (r *intakeRecorder) uids() []uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []uint32
	for _, m := range r.seen {
		out = append(out, m.UID)
	}
	return out
}

func (r *intakeRecorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = nil
}

// wait waits for the handler's next message. The bound is a hang guard, not a speed claim.
func (r *intakeRecorder) wait(t *testing.T) mailer.Message {
	t.Helper()
	select {
	case m := <-r.got:
		return m
	case <-time.After(hangGuard):
		t.Fatalf("handler not called within %v", hangGuard)
		return mailer.Message{}
	}
}

// hangGuard is how long a test waits for what must happen before it calls the code hung: minutes, since a
// loaded machine is slow, not wrong. No test here bounds how long anything takes.
const hangGuard = 5 * time.Minute

func intakeMessageID(raw []byte) string {
	for _, line := range strings.Split(string(raw), "\r\n") {
		if v, ok := strings.CutPrefix(line, "Message-ID: "); ok {
			return v
		}
	}
	return ""
}

func intakeMail(n int) []byte {
	return []byte(fmt.Sprintf("From: Pilot %d <p%d@example.test>\r\nTo: gm@sortie.test\r\n"+
		"Subject: Züge für Runde %d\r\nMessage-ID: <order-%d@example.test>\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\nGAME g1 TURN 3\r\nBf109 #1: 2L1 über Calais\r\n", n, n, n, n))
}

func startIntakeIMAP(t *testing.T, opts localmail.IMAPOptions) *localmail.IMAPServer {
	t.Helper()
	opts.Users = map[string]string{"gm": "gm-secret"}
	srv, err := localmail.StartIMAP(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func intakeOptions(t *testing.T, srv *localmail.IMAPServer) mailer.IntakeOptions {
	return mailer.IntakeOptions{
		Addr:     srv.Addr(),
		TLS:      mailer.TLSNone,
		Username: "gm",
		Password: "gm-secret",
		Backoff:  20 * time.Millisecond,
		Logger:   zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel),
	}
}

func mustMessages(t *testing.T, srv *localmail.IMAPServer, mailbox string) [][]byte {
	t.Helper()
	msgs, err := srv.Messages("gm", mailbox)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

func sameMails(got [][]byte, want ...int) bool {
	if len(got) != len(want) {
		return false
	}
	for i, n := range want {
		if !bytes.Equal(got[i], intakeMail(n)) {
			return false
		}
	}
	return true
}

// runIntake runs in.Run in the background until the test ends.
func runIntake(t *testing.T, in *mailer.Intake) (stop func() time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	var once sync.Once
	var took time.Duration
	stop = func() time.Duration {
		once.Do(func() {
			start := time.Now()
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run returned %v", err)
				}
			case <-time.After(hangGuard):
				t.Error("Run did not return after cancel")
			}
			took = time.Since(start)
		})
		return took
	}
	t.Cleanup(func() { stop() })
	return stop
}

func intakeWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	guard := time.After(hangGuard)
	for !cond() {
		select {
		case <-guard:
			t.Fatalf("gave up waiting (%v) for %s", hangGuard, what)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestIntakePollOnceDispositions(t *testing.T) {
	for _, rev2 := range []bool{false, true} {
		t.Run(fmt.Sprintf("IMAP4rev2=%v", rev2), func(t *testing.T) {
			srv := startIntakeIMAP(t, localmail.IMAPOptions{IMAP4rev2: rev2})
			for n := 1; n <= 5; n++ {
				if err := srv.Deliver("gm", intakeMail(n)); err != nil {
					t.Fatal(err)
				}
			}
			cursor := newIntakeCursor()
			// UID 2 is rejected; UID 4 "crashes" (nothing committed: Retry) the first time.
			rec := newIntakeRecorder(func(m mailer.Message, attempt int) mailer.Disposition {
				switch {
				case m.UID == 2:
					return mailer.Rejected
				case m.UID == 4 && attempt == 1:
					return mailer.Retry
				}
				return mailer.Processed
			})
			in := mailer.NewIntake(intakeOptions(t, srv), cursor, rec)
			ctx := context.Background()

			handled, err := in.PollOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if handled != 3 || !slices.Equal(rec.uids(), []uint32{1, 2, 3, 4}) {
				t.Fatalf("first pass: handled %d, handler saw UIDs %v", handled, rec.uids())
			}
			uv, err := srv.UIDValidity("gm", "INBOX")
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range rec.seen {
				if m.Mailbox != "INBOX" || m.UIDValidity != uv || !bytes.Equal(m.Raw, intakeMail(int(m.UID))) {
					t.Errorf("message %d: %+v (raw intact: %v)", i, m, bytes.Equal(m.Raw, intakeMail(int(m.UID))))
				}
			}
			if gotUV, last := cursor.get("INBOX"); gotUV != uv || last != 3 {
				t.Fatalf("cursor = (%d, %d), want (%d, 3)", gotUV, last, uv)
			}
			if got := mustMessages(t, srv, "Processed"); !sameMails(got, 1, 3) {
				t.Errorf("Processed holds %d messages, want 1 and 3", len(got))
			}
			if got := mustMessages(t, srv, "Rejected"); !sameMails(got, 2) {
				t.Errorf("Rejected holds %d messages, want 2", len(got))
			}
			inbox, err := srv.List("gm", "INBOX")
			if err != nil {
				t.Fatal(err)
			}
			if len(inbox) != 2 || inbox[0].UID != 4 || inbox[1].UID != 5 {
				t.Fatalf("INBOX after first pass: %+v", inbox)
			}
			for _, m := range inbox {
				if len(m.Flags) != 0 {
					t.Errorf("UID %d has flags %v: the fetch was not a PEEK", m.UID, m.Flags)
				}
			}

			// Next pass: the retried message comes again, in order, then the rest.
			rec.reset()
			if handled, err = in.PollOnce(ctx); err != nil || handled != 2 {
				t.Fatalf("second pass: %d, %v", handled, err)
			}
			if !slices.Equal(rec.uids(), []uint32{4, 5}) {
				t.Fatalf("second pass saw UIDs %v", rec.uids())
			}
			if got := mustMessages(t, srv, "INBOX"); len(got) != 0 {
				t.Errorf("INBOX still holds %d", len(got))
			}
			if got := mustMessages(t, srv, "Processed"); !sameMails(got, 1, 3, 4, 5) {
				t.Errorf("Processed holds %d messages", len(got))
			}
			rec.reset()
			if handled, err = in.PollOnce(ctx); err != nil || handled != 0 || len(rec.uids()) != 0 {
				t.Fatalf("third pass: %d, %v, saw %v", handled, err, rec.uids())
			}
		})
	}
}

func TestIntakeBatchesAndCustomFolders(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	for n := 1; n <= 7; n++ {
		if err := srv.Deliver("gm", intakeMail(n)); err != nil {
			t.Fatal(err)
		}
	}
	opts := intakeOptions(t, srv)
	opts.Batch = 3
	opts.Processed = "Archive/Orders" // created on first use
	cursor := newIntakeCursor()
	rec := newIntakeRecorder(nil)
	in := mailer.NewIntake(opts, cursor, rec)
	handled, err := in.PollOnce(context.Background())
	if err != nil || handled != 7 || !slices.Equal(rec.uids(), []uint32{1, 2, 3, 4, 5, 6, 7}) {
		t.Fatalf("handled %d, %v, UIDs %v", handled, err, rec.uids())
	}
	if got := mustMessages(t, srv, "Archive/Orders"); !sameMails(got, 1, 2, 3, 4, 5, 6, 7) {
		t.Fatalf("Archive/Orders holds %d", len(got))
	}
}

func TestIntakeUIDValidityReset(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	for n := 1; n <= 3; n++ {
		srv.Deliver("gm", intakeMail(n))
	}
	cursor := newIntakeCursor()
	rec := newIntakeRecorder(nil)
	in := mailer.NewIntake(intakeOptions(t, srv), cursor, rec)
	if n, err := in.PollOnce(context.Background()); err != nil || n != 3 {
		t.Fatalf("%d, %v", n, err)
	}
	oldUV, last := cursor.get("INBOX")
	if last != 3 {
		t.Fatalf("last = %d", last)
	}

	// The mailbox is rebuilt: new UIDVALIDITY, UIDs start at 1 again, below the cursor's 3.
	if err := srv.ResetMailbox("gm", "INBOX"); err != nil {
		t.Fatal(err)
	}
	srv.Deliver("gm", intakeMail(10))
	srv.Deliver("gm", intakeMail(11))
	rec.reset()
	if n, err := in.PollOnce(context.Background()); err != nil || n != 2 {
		t.Fatalf("%d, %v", n, err)
	}
	if !slices.Equal(rec.uids(), []uint32{1, 2}) || !bytes.Equal(rec.seen[0].Raw, intakeMail(10)) {
		t.Fatalf("after reset the handler saw UIDs %v", rec.uids())
	}
	newUV, last := cursor.get("INBOX")
	if newUV == oldUV || last != 2 || rec.seen[0].UIDValidity != newUV {
		t.Fatalf("cursor (%d, %d), old uidvalidity %d, message %d", newUV, last, oldUV, rec.seen[0].UIDValidity)
	}
}

func TestIntakeWithoutMoveFlagsSeen(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{NoMove: true})
	srv.Deliver("gm", intakeMail(1))
	srv.Deliver("gm", intakeMail(2))
	cursor := newIntakeCursor()
	rec := newIntakeRecorder(func(m mailer.Message, _ int) mailer.Disposition {
		if m.UID == 2 {
			return mailer.Rejected
		}
		return mailer.Processed
	})
	in := mailer.NewIntake(intakeOptions(t, srv), cursor, rec)
	if n, err := in.PollOnce(context.Background()); err != nil || n != 2 {
		t.Fatalf("%d, %v", n, err)
	}
	inbox, err := srv.List("gm", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(inbox) != 2 {
		t.Fatalf("INBOX holds %d; without MOVE both stay", len(inbox))
	}
	for _, m := range inbox {
		if !slices.Contains(m.Flags, `\Seen`) {
			t.Errorf("UID %d flags %v, want \\Seen", m.UID, m.Flags)
		}
	}
	if got := mustMessages(t, srv, "Processed"); len(got) != 0 {
		t.Errorf("Processed holds %d", len(got))
	}
	rec.reset()
	if n, err := in.PollOnce(context.Background()); err != nil || n != 0 || len(rec.uids()) != 0 {
		t.Fatalf("second pass handled %d (%v), saw %v: the cursor must keep them out", n, err, rec.uids())
	}
}

func TestIntakeOversize(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	small := intakeMail(1)
	big := append(intakeMail(2), []byte(strings.Repeat("A picture of the map, base64 ...\r\n", 200))...)
	srv.Deliver("gm", small)
	srv.Deliver("gm", big)
	srv.Deliver("gm", intakeMail(3))

	opts := intakeOptions(t, srv)
	opts.MaxSize = 2000
	var during []bool
	rec := newIntakeRecorder(func(m mailer.Message, _ int) mailer.Disposition {
		during = append(during, m.HeaderOnly)
		if m.HeaderOnly {
			return mailer.Rejected // after queueing a polite refusal
		}
		return mailer.Processed
	})
	in := mailer.NewIntake(opts, newIntakeCursor(), rec)
	if n, err := in.PollOnce(context.Background()); err != nil || n != 3 {
		t.Fatalf("%d, %v", n, err)
	}
	if !slices.Equal(during, []bool{false, true, false}) {
		t.Fatalf("HeaderOnly during Handle: %v", during)
	}
	if size := rec.oversize[2]; size != int64(len(big)) {
		t.Errorf("Size of the oversize message = %d, want %d", size, len(big))
	}
	m := rec.seen[1]
	header, _, _ := bytes.Cut(big, []byte("\r\n\r\n"))
	if want := append(header, "\r\n\r\n"...); !bytes.Equal(m.Raw, want) {
		t.Errorf("oversize Raw = %q, want the header block %q", m.Raw, want)
	}
	// The flag and the size are the message's own: still there after Handle returned, and on a copy
	// whose bytes are copied too (the intake once kept them in a registry keyed by the Raw buffer's
	// address, which knew neither).
	c := m
	c.Raw = bytes.Clone(m.Raw)
	if !m.HeaderOnly || !c.HeaderOnly || c.Size != int64(len(big)) {
		t.Errorf("after Handle: HeaderOnly %v, on a copy %v, size %d", m.HeaderOnly, c.HeaderOnly, c.Size)
	}
	if s := rec.seen[0]; !bytes.Equal(s.Raw, small) || s.HeaderOnly || s.Size != int64(len(small)) {
		t.Errorf("small message not handed over whole: HeaderOnly %v, Size %d of %d", s.HeaderOnly, s.Size, len(small))
	}
	if got := mustMessages(t, srv, "Rejected"); len(got) != 1 || !bytes.Equal(got[0], big) {
		t.Error("the oversize message is not whole in Rejected")
	}
}

func TestIntakeIdleWakeup(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	srv.Deliver("gm", intakeMail(1))
	opts := intakeOptions(t, srv)
	opts.Poll = time.Minute // only IDLE can be this fast
	rec := newIntakeRecorder(nil)
	stop := runIntake(t, mailer.NewIntake(opts, newIntakeCursor(), rec))

	rec.wait(t) // the first pass
	time.Sleep(100 * time.Millisecond)
	for n := 2; n <= 3; n++ {
		start := time.Now()
		srv.Deliver("gm", intakeMail(n))
		m := rec.wait(t)
		if m.UID != uint32(n) {
			t.Fatalf("got UID %d, want %d", m.UID, n)
		}
		t.Logf("IDLE wake-up: delivery to handler in %v", time.Since(start))
		time.Sleep(50 * time.Millisecond)
	}
	intakeWaitFor(t, "three moved", func() bool { return len(mustMessages(t, srv, "Processed")) == 3 })
	t.Logf("Run returned %v after cancel", stop())
	if got := mustMessages(t, srv, "Processed"); !sameMails(got, 1, 2, 3) {
		t.Errorf("Processed holds %d", len(got))
	}
}

func TestIntakePollWithoutIdle(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	opts := intakeOptions(t, srv)
	opts.NoIdle = true
	opts.Poll = 50 * time.Millisecond
	rec := newIntakeRecorder(nil)
	runIntake(t, mailer.NewIntake(opts, newIntakeCursor(), rec))
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	srv.Deliver("gm", intakeMail(1))
	if m := rec.wait(t); m.UID != 1 {
		t.Fatalf("UID %d", m.UID)
	}
	t.Logf("poll (50 ms) pick-up in %v", time.Since(start))
}

func TestIntakeReconnect(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	srv.Deliver("gm", intakeMail(1))
	opts := intakeOptions(t, srv)
	opts.Poll = time.Minute
	cursor := newIntakeCursor()
	rec := newIntakeRecorder(nil)
	runIntake(t, mailer.NewIntake(opts, cursor, rec))
	rec.wait(t)
	intakeWaitFor(t, "message 1 moved", func() bool { return len(mustMessages(t, srv, "Processed")) == 1 })

	// The server goes away mid-IDLE; mail arrives while it is down; it comes back on the same address.
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	srv.Deliver("gm", intakeMail(2))
	time.Sleep(300 * time.Millisecond) // a few failed reconnects
	start := time.Now()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	if m := rec.wait(t); m.UID != 2 {
		t.Fatalf("after restart got UID %d", m.UID)
	}
	t.Logf("recovered %v after the listener came back", time.Since(start))

	// And the new connection idles again.
	time.Sleep(100 * time.Millisecond)
	start = time.Now()
	srv.Deliver("gm", intakeMail(3))
	if m := rec.wait(t); m.UID != 3 {
		t.Fatalf("got UID %d", m.UID)
	}
	t.Logf("IDLE wake-up after reconnect in %v", time.Since(start))
	intakeWaitFor(t, "message 3 moved", func() bool { return len(mustMessages(t, srv, "Processed")) == 3 })

	// RestartListener drops the connection again, with nothing lost.
	srv.RestartListener()
	srv.Deliver("gm", intakeMail(4))
	if m := rec.wait(t); m.UID != 4 {
		t.Fatalf("got UID %d", m.UID)
	}
	if got := rec.uids(); !slices.Equal(got, []uint32{1, 2, 3, 4}) {
		t.Fatalf("handler saw %v", got)
	}
	intakeWaitFor(t, "cursor at 4", func() bool { _, last := cursor.get("INBOX"); return last == 4 })
}

func TestIntakeTLS(t *testing.T) {
	caPEM, serverTLS, err := localmail.GenerateCA()
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startIntakeIMAP(t, localmail.IMAPOptions{TLSConfig: serverTLS, ImplicitTLS: true, RequireTLS: true})
	for i, tc := range []struct {
		mode mailer.TLSMode
		addr string
	}{{mailer.TLSStartTLS, srv.Addr()}, {mailer.TLSImplicit, srv.TLSAddr()}} {
		opts := intakeOptions(t, srv)
		opts.TLS, opts.Addr, opts.CAFile = tc.mode, tc.addr, caFile
		srv.Deliver("gm", intakeMail(i+1))
		rec := newIntakeRecorder(nil)
		n, err := mailer.NewIntake(opts, newIntakeCursor(), rec).PollOnce(context.Background())
		if err != nil || n != 1 || rec.uids()[0] != uint32(i+1) {
			t.Fatalf("%s: handled %d, %v, %v", tc.mode, n, err, rec.uids())
		}
	}

	// Without the CA the certificate is not trusted; clear text cannot log in.
	opts := intakeOptions(t, srv)
	opts.TLS = mailer.TLSStartTLS
	if _, err := mailer.NewIntake(opts, newIntakeCursor(), newIntakeRecorder(nil)).PollOnce(context.Background()); err == nil ||
		!strings.Contains(err.Error(), "certificate") {
		t.Errorf("STARTTLS without CAFile: %v", err)
	}
	opts.TLS = mailer.TLSNone
	if _, err := mailer.NewIntake(opts, newIntakeCursor(), newIntakeRecorder(nil)).PollOnce(context.Background()); err == nil {
		t.Error("clear-text login accepted")
	}
	opts.TLS = "ssl"
	if _, err := mailer.NewIntake(opts, newIntakeCursor(), newIntakeRecorder(nil)).PollOnce(context.Background()); err == nil {
		t.Error("unknown TLS mode accepted")
	}
}

func TestIntakeBadLoginAndBusy(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	opts := intakeOptions(t, srv)
	opts.Password = "wrong"
	if _, err := mailer.NewIntake(opts, newIntakeCursor(), newIntakeRecorder(nil)).PollOnce(context.Background()); err == nil {
		t.Fatal("wrong password accepted")
	} else if strings.Contains(err.Error(), "wrong") {
		t.Fatalf("error reveals the password: %v", err)
	}

	// Run and PollOnce exclude each other: once Run has connected, it is running.
	logs := &intakeLogCounter{}
	opts = intakeOptions(t, srv)
	opts.Logger = zerolog.New(logs)
	in := mailer.NewIntake(opts, newIntakeCursor(), newIntakeRecorder(nil))
	runIntake(t, in)
	intakeWaitFor(t, "Run to connect", func() bool { return logs.count("imap connected") >= 1 })
	if _, err := in.PollOnce(context.Background()); err == nil {
		t.Error("PollOnce ran during Run")
	}
}

// intakeLogCounter counts log lines containing a substring.
type intakeLogCounter struct {
	mu    sync.Mutex
	lines []string
}

func (w *intakeLogCounter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, string(p))
	return len(p), nil
}

func (w *intakeLogCounter) count(sub string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, l := range w.lines {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

func TestIntakeIdleRestartsOnOneConnection(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	logs := &intakeLogCounter{}
	opts := intakeOptions(t, srv)
	opts.Logger = zerolog.New(logs)
	opts.Poll = 20 * time.Millisecond        // safety-net wake-ups stop and restart IDLE
	opts.IdleRefresh = 30 * time.Millisecond // and so does the refresh
	rec := newIntakeRecorder(nil)
	runIntake(t, mailer.NewIntake(opts, newIntakeCursor(), rec))
	time.Sleep(300 * time.Millisecond) // about 15 IDLE cycles (fewer on a loaded machine: the test then shows less, and still passes)
	srv.Deliver("gm", intakeMail(1))
	if m := rec.wait(t); m.UID != 1 {
		t.Fatalf("UID %d", m.UID)
	}
	if n := logs.count("imap connected"); n != 1 {
		t.Errorf("%d connections, want 1: stopping and restarting IDLE must not break the connection\n%s", n, strings.Join(logs.lines, ""))
	}
	if n := logs.count(`"level":"warn"`); n != 0 {
		t.Errorf("%d warnings:\n%s", n, strings.Join(logs.lines, ""))
	}
}

// TestIntakeFailedGoesToFailedFolder: a message the handler reports Failed is moved to Sortie/Failed (created
// on connect) and the messages behind it are handled in the same pass, never retried.
func TestIntakeFailedGoesToFailedFolder(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	for n := 1; n <= 3; n++ {
		if err := srv.Deliver("gm", intakeMail(n)); err != nil {
			t.Fatal(err)
		}
	}
	rec := newIntakeRecorder(func(m mailer.Message, _ int) mailer.Disposition {
		if intakeMessageID(m.Raw) == "<order-2@example.test>" {
			return mailer.Failed
		}
		return mailer.Processed
	})
	cur := newIntakeCursor()
	in := mailer.NewIntake(intakeOptions(t, srv), cur, rec)
	n, err := in.PollOnce(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("PollOnce: %d %v", n, err)
	}
	if in.FailedFolder() != "Sortie/Failed" {
		t.Errorf("failed folder %q", in.FailedFolder())
	}
	if got := mustMessages(t, srv, "Sortie/Failed"); !sameMails(got, 2) {
		t.Errorf("Sortie/Failed holds %d messages, want mail 2", len(got))
	}
	if got := mustMessages(t, srv, "Processed"); !sameMails(got, 1, 3) {
		t.Errorf("Processed holds %d messages, want 1 and 3", len(got))
	}
	if got := mustMessages(t, srv, "INBOX"); len(got) != 0 {
		t.Errorf("INBOX still holds %d", len(got))
	}
	if _, last := cur.get("INBOX"); last != 3 {
		t.Errorf("cursor at %d", last)
	}
	// A moderator puts it back once the cause is fixed: it is handed over again as a new message.
	if _, err := srv.Append("gm", "INBOX", intakeMail(2)); err != nil {
		t.Fatal(err)
	}
	rec.decide = func(mailer.Message, int) mailer.Disposition { return mailer.Processed }
	if n, err := in.PollOnce(context.Background()); err != nil || n != 1 {
		t.Fatalf("re-queued: %d %v", n, err)
	}
}

// TestIntakeLogsItsTimeline: at debug level a pass that finds mail logs its timeline (the listing, the
// stream, each batch, each MOVE, the whole pass) with how many messages and how long each took, which
// is what to read when the intake is slower than its server; a pass that finds nothing logs none of it.
func TestIntakeLogsItsTimeline(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	for n := 1; n <= 3; n++ {
		if err := srv.Deliver("gm", intakeMail(n)); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	opts := intakeOptions(t, srv)
	opts.Logger = zerolog.New(zerolog.SyncWriter(&buf)).Level(zerolog.DebugLevel)
	in := mailer.NewIntake(opts, newIntakeCursor(), newIntakeRecorder(nil))
	if handled, err := in.PollOnce(context.Background()); err != nil || handled != 3 {
		t.Fatalf("handled %d: %v", handled, err)
	}
	events := map[string][]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if e["level"] == "debug" {
			msg, _ := e["message"].(string)
			events[msg] = append(events[msg], e)
		}
	}
	counted := func(msg, field string) float64 {
		t.Helper()
		if len(events[msg]) == 0 {
			t.Fatalf("no %q event; debug events: %v", msg, events)
		}
		total := 0.0
		for _, e := range events[msg] {
			if _, ok := e["took"].(float64); !ok {
				t.Errorf("%q has no duration: %v", msg, e)
			}
			v, _ := e[field].(float64)
			total += v
		}
		return total
	}
	for _, c := range []struct {
		msg, field string
	}{
		{"imap listed new messages", "messages"},
		{"imap fetch streamed", "messages"},
		{"batch handled", "messages"},
		{"imap move", "messages"},
		{"imap pass done", "handled"},
	} {
		if got := counted(c.msg, c.field); got != 3 {
			t.Errorf("%q counts %v messages in all, want 3", c.msg, got)
		}
	}
	if got := events["imap move"][0]["folder"]; got != "Processed" {
		t.Errorf("the MOVE went to %v", got)
	}

	buf.Reset()
	if handled, err := in.PollOnce(context.Background()); err != nil || handled != 0 {
		t.Fatalf("second pass handled %d: %v", handled, err)
	}
	if strings.Contains(buf.String(), "imap pass done") || strings.Contains(buf.String(), "imap listed") {
		t.Errorf("an empty pass logged a timeline:\n%s", buf.String())
	}
}
