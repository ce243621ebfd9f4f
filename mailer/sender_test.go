package mailer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	netmail "net/mail"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/mailer"
	"sortie/mailer/localmail"
	"sortie/mailer/outmail"
)

// senderOutbox is an in-memory Outbox. Pending ignores failures (no store-side backoff).
type senderOutbox struct {
	mu       sync.Mutex
	items    []mailer.OutgoingMail
	sent     map[string]int // MarkSent calls per id
	failed   map[string][]error
	pendings int
}

func newSenderOutbox(items ...mailer.OutgoingMail) *senderOutbox {
	return &senderOutbox{items: items, sent: map[string]int{}, failed: map[string][]error{}}
}

func (o *senderOutbox) add(items ...mailer.OutgoingMail) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.items = append(o.items, items...)
}

func (o *senderOutbox) Pending(_ time.Time, limit int) ([]mailer.OutgoingMail, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pendings++
	var out []mailer.OutgoingMail
	for _, it := range o.items {
		if o.sent[it.ID] == 0 && len(out) < limit {
			out = append(out, it)
		}
	}
	return out, nil
}

func (o *senderOutbox) MarkSent(id string, _ time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent[id]++
	return nil
}

func (o *senderOutbox) MarkFailed(id string, err error, _ time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failed[id] = append(o.failed[id], err)
	return nil
}

func (o *senderOutbox) snapshot() (sent map[string]int, failed map[string][]error, pendings int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	sent = map[string]int{}
	for k, v := range o.sent {
		sent[k] = v
	}
	failed = map[string][]error{}
	for k, v := range o.failed {
		failed[k] = append([]error(nil), v...)
	}
	return sent, failed, o.pendings
}

func senderItem(n int) mailer.OutgoingMail {
	return mailer.OutgoingMail{ID: fmt.Sprintf("out-%d", n), Mail: outmail.Mail{
		From:      "gm@sortie.test",
		To:        fmt.Sprintf("p%d@example.test", n),
		Subject:   fmt.Sprintf("Report %d", n),
		Body:      fmt.Sprintf("Turn %d resolved.\n", n),
		MessageID: fmt.Sprintf("report-%d@sortie.test", n),
		Created:   time.Date(2026, 3, 1, 12, 0, n, 0, time.UTC),
	}}
}

func startSenderSMTP(t *testing.T, opts localmail.SMTPOptions) *localmail.SMTPServer {
	t.Helper()
	srv, err := localmail.StartSMTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func senderOptions(t *testing.T, srv *localmail.SMTPServer) mailer.SenderOptions {
	host, port, _ := strings.Cut(srv.Addr(), ":")
	p, _ := strconv.Atoi(port)
	return mailer.SenderOptions{
		Host:     host,
		Port:     p,
		TLS:      mailer.TLSNone,
		FromName: "Sortie",
		Backoff:  20 * time.Millisecond,
		Logger:   zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel),
	}
}

func receivedIDs(srv *localmail.SMTPServer) map[string]int {
	ids := map[string]int{}
	for _, e := range srv.Received() {
		m, err := netmail.ReadMessage(bytes.NewReader(e.Raw))
		if err != nil {
			ids["unparsable"]++
			continue
		}
		ids[m.Header.Get("Message-Id")]++
	}
	return ids
}

func runSender(t *testing.T, s *mailer.Sender) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v", err)
			}
		case <-time.After(hangGuard):
			t.Error("Run did not return after cancel")
		}
	})
}

// senderWaitFor waits until cond holds, and says how long that took (for the log only: the bound is a
// hang guard, not a speed claim).
func senderWaitFor(t *testing.T, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	guard := time.After(hangGuard)
	for !cond() {
		select {
		case <-guard:
			t.Fatalf("gave up waiting (%v) for %s", hangGuard, what)
		case <-time.After(2 * time.Millisecond):
		}
	}
	return time.Since(start)
}

func TestSenderHeadersAndAuth(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{Username: "sortie", Password: "smtp-secret"})
	rich := mailer.OutgoingMail{ID: "out-rich", Mail: outmail.Mail{
		From:      "gm@sortie.test",
		To:        "juergen@example.test",
		ToName:    "Jürgen Müller",
		ReplyTo:   "orders@sortie.test",
		Subject:   "Runde 3 – Bf 109 über Calais ✈",
		Body:      "Grüße, Jürgen!\n.\n.a line starting with a dot\nFrom the GM: your Bf 109 climbs — 2L1 ✓\n" + strings.Repeat("x", 120) + "\n",
		MessageID: "<report-g1-3-juergen@sortie.test>",
		InReplyTo: "orders-42@example.test",
		Headers:   map[string]string{"X-Sortie-Game": "g1", "Subject": "overridden?", "X-Bad\nName": "v", "X-Sortie-Turn": "3\r\nBcc: evil@example.test"},
		Created:   time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
	}}
	box := newSenderOutbox(rich, senderItem(2))
	opts := senderOptions(t, srv)
	opts.Username, opts.Password = "sortie", "smtp-secret"
	sent, err := mailer.NewSender(opts, box).SendOnce(context.Background())
	if err != nil || sent != 2 {
		t.Fatalf("SendOnce = %d, %v", sent, err)
	}
	marked, failed, _ := box.snapshot()
	if marked["out-rich"] != 1 || marked["out-2"] != 1 || len(failed) != 0 {
		t.Fatalf("sent %v, failed %v", marked, failed)
	}

	got := srv.Received()
	if len(got) != 2 {
		t.Fatalf("received %d", len(got))
	}
	env := got[0]
	if env.From != "gm@sortie.test" || len(env.To) != 1 || env.To[0] != "juergen@example.test" {
		t.Errorf("envelope %s -> %v", env.From, env.To)
	}
	m, err := netmail.ReadMessage(bytes.NewReader(env.Raw))
	if err != nil {
		t.Fatal(err)
	}
	h := m.Header
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(h.Get("Subject"))
	if err != nil || subject != rich.Subject {
		t.Errorf("Subject %q (raw %q), %v", subject, h.Get("Subject"), err)
	}
	from, err := h.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Name != "Sortie" || from[0].Address != "gm@sortie.test" {
		t.Errorf("From %q: %v %v", h.Get("From"), from, err)
	}
	to, err := h.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Name != "Jürgen Müller" || to[0].Address != rich.To {
		t.Errorf("To %q: %v %v", h.Get("To"), to, err)
	}
	for name, want := range map[string]string{
		"Message-Id":               "<report-g1-3-juergen@sortie.test>",
		"In-Reply-To":              "<orders-42@example.test>",
		"References":               "<orders-42@example.test>",
		"Reply-To":                 "<orders@sortie.test>",
		"X-Sortie":                 "1",
		"Auto-Submitted":           "auto-generated",
		"X-Sortie-Game":            "g1",
		"X-Sortie-Turn":            "3 Bcc: evil@example.test",
		"User-Agent":               "",
		"X-Mailer":                 "",
		"Bcc":                      "",
		"X-Bad\nName":              "",
		"Mime-Version":             "1.0",
		"X-Auto-Response-Suppress": "OOF, AutoReply",
	} {
		if got := h.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if h.Get("Date") == "" {
		t.Error("no Date")
	}
	mediaType, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mediaType != "text/plain" || !strings.EqualFold(params["charset"], "utf-8") {
		t.Errorf("Content-Type %q", h.Get("Content-Type"))
	}
	var body io.Reader = m.Body
	if strings.EqualFold(h.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(m.Body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.ReplaceAll(string(b), "\r\n", "\n"); got != rich.Body {
		t.Errorf("body %q\nwant %q", got, rich.Body)
	}

	// The second message has no Reply-To / In-Reply-To.
	m2, _ := netmail.ReadMessage(bytes.NewReader(got[1].Raw))
	if m2.Header.Get("In-Reply-To") != "" || m2.Header.Get("Reply-To") != "" || m2.Header.Get("Message-Id") != "<report-2@sortie.test>" {
		t.Errorf("second message headers %v", m2.Header)
	}
}

func TestSenderAuthRequired(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{Username: "sortie", Password: "smtp-secret"})

	// No credentials: the server refuses MAIL (530), each message fails on its own.
	box := newSenderOutbox(senderItem(1), senderItem(2))
	sent, err := mailer.NewSender(senderOptions(t, srv), box).SendOnce(context.Background())
	marked, failed, _ := box.snapshot()
	if sent != 0 || err != nil || len(marked) != 0 || len(failed["out-1"]) != 1 || len(failed["out-2"]) != 1 {
		t.Fatalf("no AUTH: sent %d, %v, marked %v, failed %v", sent, err, marked, failed)
	}
	if !strings.Contains(failed["out-1"][0].Error(), "530") {
		t.Errorf("want a 530, got %v", failed["out-1"][0])
	}

	// Wrong password: no connection, every item fails with ErrSMTPUnavailable.
	box = newSenderOutbox(senderItem(1), senderItem(2))
	opts := senderOptions(t, srv)
	opts.Username, opts.Password = "sortie", "not-the-password"
	sent, err = mailer.NewSender(opts, box).SendOnce(context.Background())
	marked, failed, _ = box.snapshot()
	if sent != 0 || !errors.Is(err, mailer.ErrSMTPUnavailable) || len(marked) != 0 || len(failed) != 2 {
		t.Fatalf("bad password: sent %d, %v, marked %v, failed %v", sent, err, marked, failed)
	}
	if strings.Contains(err.Error(), "not-the-password") {
		t.Errorf("error reveals the password: %v", err)
	}
	if n := len(srv.Received()); n != 0 {
		t.Fatalf("server accepted %d", n)
	}
}

func TestSenderTLS(t *testing.T) {
	caPEM, serverTLS, err := localmail.GenerateCA()
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []mailer.TLSMode{mailer.TLSStartTLS, mailer.TLSImplicit} {
		srv := startSenderSMTP(t, localmail.SMTPOptions{
			TLSConfig: serverTLS, ImplicitTLS: mode == mailer.TLSImplicit, RequireTLS: true,
			Username: "sortie", Password: "smtp-secret",
		})
		opts := senderOptions(t, srv)
		opts.Host = "localhost" // the certificate's name, not only its IP
		opts.TLS, opts.CAFile = mode, caFile
		opts.Username, opts.Password = "sortie", "smtp-secret"
		box := newSenderOutbox(senderItem(1))
		if sent, err := mailer.NewSender(opts, box).SendOnce(context.Background()); err != nil || sent != 1 {
			t.Fatalf("%s: %d, %v", mode, sent, err)
		}
		if n := len(srv.Received()); n != 1 {
			t.Fatalf("%s: received %d", mode, n)
		}

		// Without our CA the server's certificate is not trusted.
		opts.CAFile = ""
		box = newSenderOutbox(senderItem(2))
		if _, err := mailer.NewSender(opts, box).SendOnce(context.Background()); err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Errorf("%s without CAFile: %v", mode, err)
		}
	}
}

func TestSenderOutageExactlyOnce(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	box := newSenderOutbox(senderItem(1), senderItem(2), senderItem(3))
	s := mailer.NewSender(senderOptions(t, srv), box)
	ctx := context.Background()

	srv.SetDown(true)
	sent, err := s.SendOnce(ctx)
	marked, failed, _ := box.snapshot()
	if sent != 0 || !errors.Is(err, mailer.ErrSMTPUnavailable) || len(marked) != 0 || len(failed) != 3 {
		t.Fatalf("down: sent %d, %v, marked %v, failed %v", sent, err, marked, failed)
	}
	if !strings.Contains(failed["out-1"][0].Error(), "421") {
		t.Errorf("want the 421 in the error, got %v", failed["out-1"][0])
	}

	srv.SetDown(false)
	if sent, err = s.SendOnce(ctx); err != nil || sent != 3 {
		t.Fatalf("up: %d, %v", sent, err)
	}
	if sent, err = s.SendOnce(ctx); err != nil || sent != 0 {
		t.Fatalf("again: %d, %v", sent, err)
	}
	ids := receivedIDs(srv)
	for n := 1; n <= 3; n++ {
		if c := ids[fmt.Sprintf("<report-%d@sortie.test>", n)]; c != 1 {
			t.Errorf("report %d received %d times", n, c)
		}
	}
	marked, _, _ = box.snapshot()
	for id, c := range marked {
		if c != 1 {
			t.Errorf("%s marked sent %d times", id, c)
		}
	}
}

func TestSenderConnectionLostMidBatch(t *testing.T) {
	var srv *localmail.SMTPServer
	srv = startSenderSMTP(t, localmail.SMTPOptions{
		// The server accepts the first message, then goes down (421 to the next MAIL).
		OnMessage: func(string, []string, []byte) error { srv.SetDown(true); return nil },
	})
	box := newSenderOutbox(senderItem(1), senderItem(2), senderItem(3))
	s := mailer.NewSender(senderOptions(t, srv), box)
	sent, err := s.SendOnce(context.Background())
	marked, failed, _ := box.snapshot()
	if sent != 1 || !errors.Is(err, mailer.ErrSMTPUnavailable) || marked["out-1"] != 1 || len(failed["out-2"]) != 1 || len(failed["out-3"]) != 1 {
		t.Fatalf("sent %d, %v, marked %v, failed %v", sent, err, marked, failed)
	}
	srv.SetDown(false)
	// OnMessage takes it down again after each message: three passes deliver the rest, once each.
	for i := 0; i < 3; i++ {
		s.SendOnce(context.Background())
		srv.SetDown(false)
	}
	ids := receivedIDs(srv)
	if len(ids) != 3 || ids["<report-1@sortie.test>"] != 1 || ids["<report-2@sortie.test>"] != 1 || ids["<report-3@sortie.test>"] != 1 {
		t.Fatalf("received %v", ids)
	}
}

func TestSenderRunBackoffThenDelivers(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	srv.SetDown(true)
	box := newSenderOutbox(senderItem(1), senderItem(2))
	opts := senderOptions(t, srv)
	opts.Poll = time.Minute
	runSender(t, mailer.NewSender(opts, box))
	senderWaitFor(t, "a failed attempt", func() bool { _, f, _ := box.snapshot(); return len(f) == 2 })
	time.Sleep(150 * time.Millisecond) // a few backoff rounds (20, 40, 80 ms)
	if n := len(srv.Received()); n != 0 {
		t.Fatalf("received %d while down", n)
	}
	srv.SetDown(false)
	took := senderWaitFor(t, "delivery after the outage", func() bool { return len(srv.Received()) == 2 })
	t.Logf("delivered %v after the server came back", took)
	time.Sleep(100 * time.Millisecond)
	ids := receivedIDs(srv)
	if len(ids) != 2 || ids["<report-1@sortie.test>"] != 1 || ids["<report-2@sortie.test>"] != 1 {
		t.Fatalf("received %v", ids)
	}
}

func TestSenderKick(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	box := newSenderOutbox()
	opts := senderOptions(t, srv)
	opts.Poll = time.Minute // only a kick can be this fast
	opts.Batch = 2
	s := mailer.NewSender(opts, box)
	runSender(t, s)
	senderWaitFor(t, "the first pass", func() bool { _, _, p := box.snapshot(); return p > 0 })
	time.Sleep(20 * time.Millisecond)

	start := time.Now()
	box.add(senderItem(1))
	s.Kick()
	senderWaitFor(t, "kicked delivery", func() bool { return len(srv.Received()) == 1 })
	t.Logf("Kick to delivery: %v", time.Since(start))

	// Five more with batches of two: full batches are followed at once, no poll wait.
	start = time.Now()
	box.add(senderItem(2), senderItem(3), senderItem(4), senderItem(5), senderItem(6))
	s.Kick()
	senderWaitFor(t, "all six", func() bool { return len(srv.Received()) == 6 })
	t.Logf("five more in batches of two: %v", time.Since(start))
}

func TestSenderBadItems(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	noID := senderItem(2)
	noID.MessageID = ""
	badTo := senderItem(3)
	badTo.To = "not an address"
	box := newSenderOutbox(senderItem(1), noID, badTo, senderItem(4))
	sent, err := mailer.NewSender(senderOptions(t, srv), box).SendOnce(context.Background())
	marked, failed, _ := box.snapshot()
	if err != nil || sent != 2 || marked["out-1"] != 1 || marked["out-4"] != 1 || len(failed["out-2"]) != 1 || len(failed["out-3"]) != 1 {
		t.Fatalf("sent %d, %v, marked %v, failed %v", sent, err, marked, failed)
	}
	if errors.Is(failed["out-3"][0], mailer.ErrSMTPUnavailable) {
		t.Error("a bad address counted as an outage")
	}
}

// A graceful stop that comes while a message is on the wire lets that message finish: the server's
// answer is read and the mail recorded as sent, so a restart does not send it again. It used to close
// the connection at once, so a message the server had already taken was left pending and went out a
// second time after the restart (seen as a duplicate report in the crash-recovery test under load).
func TestSenderStopFinishesTheMessageOnTheWire(t *testing.T) {
	inData := make(chan struct{}, 1)
	srv := startSenderSMTP(t, localmail.SMTPOptions{OnMessage: func(string, []string, []byte) error {
		select {
		case inData <- struct{}{}:
		default:
		}
		time.Sleep(300 * time.Millisecond) // the server is slow to answer the message
		return nil
	}})
	box := newSenderOutbox(senderItem(1), senderItem(2))
	s := mailer.NewSender(senderOptions(t, srv), box)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	<-inData
	cancel() // the daemon is told to stop while report 1 waits for the server's answer
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	marked, _, _ := box.snapshot()
	ids := receivedIDs(srv)
	if ids["<report-1@sortie.test>"] != 1 || marked["out-1"] != 1 {
		t.Fatalf("report 1 reached the server %d times and was recorded %d times: a restart would send it again",
			ids["<report-1@sortie.test>"], marked["out-1"])
	}
	if ids["<report-2@sortie.test>"] != 0 || marked["out-2"] != 0 {
		t.Errorf("report 2 was sent after the stop: received %d, recorded %d", ids["<report-2@sortie.test>"], marked["out-2"])
	}
}

// What the server receives is what outmail.Render makes of the item (the bytes the archive keeps), a
// mail with an inline picture and an attachment as much as a plain one; the envelope is the bare
// addresses.
func TestSenderSendsTheRenderedBytes(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	pic := senderItem(1)
	pic.ToName = "Zoë"
	pic.Parts = []outmail.Part{
		{Filename: "map.png", ContentType: "image/png", Inline: true, Data: bytes.Repeat([]byte("\x89PNG\r\n\x1a\n"), 4000)},
		{Filename: "orders.txt", ContentType: "text/plain", Data: []byte("RED1: 2L1\n")},
	}
	items := []mailer.OutgoingMail{pic, senderItem(2)}
	box := newSenderOutbox(items...)
	opts := senderOptions(t, srv)
	if sent, err := mailer.NewSender(opts, box).SendOnce(context.Background()); sent != 2 || err != nil {
		t.Fatalf("SendOnce = %d, %v", sent, err)
	}
	got := srv.Received()
	if len(got) != 2 {
		t.Fatalf("received %d", len(got))
	}
	for i, it := range items {
		want, err := outmail.Render(it.Mail, opts.FromName)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[i].Raw, want) {
			t.Errorf("mail %d: the server got %d bytes that are not the %d Render makes:\n%.600s", i+1, len(got[i].Raw), len(want), got[i].Raw)
		}
		if got[i].From != it.From || len(got[i].To) != 1 || got[i].To[0] != it.To {
			t.Errorf("mail %d: envelope %s -> %v", i+1, got[i].From, got[i].To)
		}
	}
	if !bytes.Contains(got[0].Raw, []byte("Content-Type: multipart/mixed")) || !bytes.Contains(got[0].Raw, []byte("Content-Id: <part1.report-1@sortie.test>")) {
		t.Errorf("the picture mail is not multipart:\n%.600s", got[0].Raw)
	}
}
