package realmail_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"sortie/mailer"
	"sortie/mailer/outmail"
	"sortie/mailer/realmail"
)

func needServers(t *testing.T) *realmail.Servers {
	t.Helper()
	if ok, reason := realmail.Available(); !ok {
		if os.Getenv("SORTIE_REAL_MAIL") == "required" {
			t.Fatalf("SORTIE_REAL_MAIL=required, but %s", reason)
		}
		t.Skip(reason)
	}
	s, err := realmail.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(s.Logs())
		}
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// lmtpDeliver puts a message into user's INBOX the way Postfix does, and returns once Dovecot has it.
func lmtpDeliver(t *testing.T, s *realmail.Servers, user string, raw []byte) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", s.LMTPAddr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("test.example.test"); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("alice@example.test", []string{user}, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	c.Quit()
}

type memCursor struct {
	mu       sync.Mutex
	uv, last uint32
}

func (c *memCursor) LoadCursor(string) (uint32, uint32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.uv, c.last, nil
}

func (c *memCursor) SaveCursor(_ string, uv, last uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.uv, c.last = uv, last
	return nil
}

// TestHotPollOnDovecot: Dovecot tells an IDLE client of a delivery half a second late; an intake told a
// mail is coming (Hot) polls with NOOP and has the mail in its handler well within that.
func TestHotPollOnDovecot(t *testing.T) {
	s := needServers(t)
	const user = "sortie@example.test"
	got := make(chan time.Time, 10)
	h := mailer.HandlerFunc(func(context.Context, mailer.Message) mailer.Disposition {
		got <- time.Now()
		return mailer.Processed
	})
	in := mailer.NewIntake(mailer.IntakeOptions{Addr: s.IMAPSAddr, TLS: mailer.TLSImplicit, CAFile: s.CAFile, Username: user,
		Password: s.Password(user), Poll: time.Minute}, &memCursor{}, h)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	time.Sleep(300 * time.Millisecond) // connected, idling

	deliver := func(n int) time.Duration {
		lmtpDeliver(t, s, user, []byte(fmt.Sprintf("From: alice@example.test\r\nTo: %s\r\nSubject: order %d\r\nMessage-ID: <o%d@example.test>\r\n\r\nGAME g TURN 1\r\n", user, n, n)))
		t0 := time.Now()
		select {
		case at := <-got:
			return at.Sub(t0)
		case <-time.After(10 * time.Second):
			t.Fatalf("mail %d not handed over within 10 s", n)
			return 0
		}
	}
	idle := deliver(1)
	time.Sleep(200 * time.Millisecond)
	in.Hot(time.Minute)
	time.Sleep(100 * time.Millisecond)
	var hot []time.Duration
	for n := 2; n <= 6; n++ {
		hot = append(hot, deliver(n))
		time.Sleep(37 * time.Millisecond)
	}
	t.Logf("delivered to Dovecot → handler: IDLE %v; hot polling (every %v) %v", idle.Round(time.Millisecond), mailer.DefaultIntakeHotPoll, hot)
	for _, d := range hot {
		if d > 250*time.Millisecond {
			t.Errorf("hot polling took %v to see a delivery (IDLE: %v)", d, idle)
		}
	}
}

// TestSenderKeepsItsPostfixConnection: two passes of the sender, some time apart, over one submission
// connection (STARTTLS and AUTH once), both mails delivered.
func TestSenderKeepsItsPostfixConnection(t *testing.T) {
	s := needServers(t)
	const user = "sortie@example.test"
	host, port, _ := net.SplitHostPort(s.SubmissionAddr)
	p, _ := strconv.Atoi(port)
	box := &memOutbox{}
	snd := mailer.NewSender(mailer.SenderOptions{Host: host, Port: p, TLS: mailer.TLSStartTLS, CAFile: s.CAFile, Username: user,
		Password: s.Password(user), Poll: time.Minute}, box)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- snd.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	for n := 1; n <= 2; n++ {
		box.add(mailer.OutgoingMail{ID: fmt.Sprint(n), Mail: outmail.Mail{From: user, To: "bob@example.test", Subject: fmt.Sprintf("report %d", n),
			Body: "Turn resolved.\n", MessageID: fmt.Sprintf("report-%d@example.test", n), Created: time.Now()}})
		snd.Kick()
		if _, err := s.WaitFetch("bob@example.test", "INBOX", 10*time.Second, func(m []realmail.Message) bool { return len(m) == n }); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(s.Dir, "postfix", "maillog"))
	connects := 0 // the sender's: not the start-up probe, which closes at once
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "submission/smtpd") && strings.Contains(line, " connect from ") {
			connects++
		}
		if strings.Contains(line, "submission/smtpd") && strings.Contains(line, "lost connection after CONNECT") {
			connects--
		}
	}
	if connects != 1 {
		t.Errorf("%d connections to the submission port for two passes, want one kept open", connects)
	}
}

// memOutbox is an in-memory Outbox.
type memOutbox struct {
	mu      sync.Mutex
	pending []mailer.OutgoingMail
}

func (o *memOutbox) add(m mailer.OutgoingMail) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = append(o.pending, m)
}

func (o *memOutbox) Pending(_ time.Time, limit int) ([]mailer.OutgoingMail, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]mailer.OutgoingMail(nil), o.pending[:min(limit, len(o.pending))]...), nil
}

func (o *memOutbox) MarkSent(id string, _ time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, m := range o.pending {
		if m.ID == id {
			o.pending = append(o.pending[:i], o.pending[i+1:]...)
			break
		}
	}
	return nil
}

func (o *memOutbox) MarkFailed(string, error, time.Time) error { return nil }
