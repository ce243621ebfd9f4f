package daemon

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

	"sortie/adjudicator"
	"sortie/mailer"
	"sortie/mailer/realmail"
	"sortie/rules/afd"
)

// TestLatencySettings: imap.hot_for, imap.hot_poll and smtp.keep_open reach the mailer, with their
// defaults; 0 turns hot polling and the kept connection off; a bad value is named.
func TestLatencySettings(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "imap: {addr: \"imap.example.org:993\", hot_for: 3m, hot_poll: 25ms}\nsmtp: {host: smtp.example.org, keep_open: 30s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.HotFor() != 3*time.Minute || c.IntakeOptions(c.Logger()).HotPoll != 25*time.Millisecond || c.SenderOptions(c.Logger()).KeepOpen != 30*time.Second {
		t.Errorf("hot_for %v, hot_poll %v, keep_open %v", c.HotFor(), c.IntakeOptions(c.Logger()).HotPoll, c.SenderOptions(c.Logger()).KeepOpen)
	}
	c, err = LoadConfig(writeConfig(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	if c.HotFor() != DefaultHotFor || c.IntakeOptions(c.Logger()).HotPoll != 0 || c.SenderOptions(c.Logger()).KeepOpen != DefaultKeepOpen {
		t.Errorf("defaults: hot_for %v, hot_poll %v (0: the mailer's %v), keep_open %v", c.HotFor(), c.IntakeOptions(c.Logger()).HotPoll,
			mailer.DefaultIntakeHotPoll, c.SenderOptions(c.Logger()).KeepOpen)
	}
	c, err = LoadConfig(writeConfig(t, "imap: {hot_for: 0s}\nsmtp: {keep_open: 0s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDaemon(c)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if c.HotFor() != 0 || d.awaiting != nil || c.SenderOptions(c.Logger()).KeepOpen >= 0 {
		t.Errorf("off: hot_for %v, awaiting set %v, keep_open %v", c.HotFor(), d.awaiting != nil, c.SenderOptions(c.Logger()).KeepOpen)
	}
	_, err = LoadConfig(writeConfig(t, "imap: {hot_for: -1m, hot_poll: 0s}\nsmtp: {keep_open: soon}\n"))
	for _, want := range []string{"imap.hot_for: a duration such as", "imap.hot_poll: a duration such as 10ms", "smtp.keep_open: time: invalid duration"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the error must say %q: %v", want, err)
		}
	}
}

// TestTheLastOrderIsWatchedFor runs the daemon on Dovecot and Postfix with its defaults. Once a round
// waits for one player, the daemon polls the inbox and has a connection to Postfix ready: the last
// order's way from Dovecot's inbox to the players' reports accepted by Postfix takes a small part of
// the half second Dovecot's IDLE alone would cost. The test shows the mechanism (hot polling, the kept
// connection) and logs the times; BenchmarkTurnLatency measures them.
func TestTheLastOrderIsWatchedFor(t *testing.T) {
	if ok, reason := realmail.Available(); !ok {
		if os.Getenv("SORTIE_REAL_MAIL") == "required" {
			t.Fatalf("SORTIE_REAL_MAIL=required, but %s", reason)
		}
		t.Skip(reason)
	}
	const service, alice, bob = "sortie@sortie.test", "alice@players.test", "bob@players.test"
	srv, err := realmail.Start(t.TempDir(), realmail.User{Address: service}, realmail.User{Address: alice}, realmail.User{Address: bob})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			t.Log(srv.Logs())
		}
		srv.Stop()
	}()
	cfg := &Config{Database: filepath.Join(t.TempDir(), "sortie.db"), Address: service, ResolveDelay: "0s", LogLevel: "error"}
	cfg.IMAP.Addr, cfg.IMAP.TLS, cfg.IMAP.CAFile, cfg.IMAP.Username, cfg.IMAP.Password = srv.IMAPSAddr, "tls", srv.CAFile, service, srv.Password(service)
	host, port, _ := net.SplitHostPort(srv.SubmissionAddr)
	cfg.SMTP.Host, cfg.SMTP.TLS, cfg.SMTP.CAFile, cfg.SMTP.Username, cfg.SMTP.Password = host, "starttls", srv.CAFile, service, srv.Password(service)
	cfg.SMTP.Port, _ = strconv.Atoi(port)
	// Drawing the reports' map pictures is work the turn must do whatever the daemon watches; under the
	// race detector it takes several times as long, so it is measured and left out of the bound.
	var mu sync.Mutex
	var drawing time.Duration
	d, err := NewDaemon(cfg, adjudicator.WithTimed(func(part string, took time.Duration) {
		if part == "reports" || part == "pictures" {
			mu.Lock()
			drawing += took
			mu.Unlock()
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var fetched time.Time
	accepted := 0
	d.OnStage = func(stage, _ string) {
		mu.Lock()
		defer mu.Unlock()
		switch stage {
		case "fetched":
			if fetched.IsZero() {
				fetched = time.Now()
			}
		case "accepted":
			accepted++
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, fmt.Appendf(nil, "\nservice:\n  players:\n    alice: {email: %s, secret: lark-swift-0001}\n    bob: {email: %s, secret: kite-heron-0002}\n", alice, bob)...)
	if _, err := d.Svc.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	if o, err := d.Svc.Submit(adjudicator.Envelope{From: alice, To: []string{service}, MessageID: "a1@players.test",
		Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND", Size: 60}); err != nil || o != adjudicator.Accepted {
		t.Fatalf("alice: %s %v", o, err)
	}
	d.Sender.Kick()
	wait := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(hangGuard); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("nothing happened for %v waiting for %s: the daemon is hung", hangGuard, what)
			}
		}
	}
	wait("the welcomes and alice's receipt", func() bool { mu.Lock(); defer mu.Unlock(); return accepted == 3 })
	// The round now waits for bob alone. The daemon must watch for his mail: the intake polls (it is hot)
	// and a connection to Postfix's submission port is open and kept.
	if !d.Intake.IsHot() { // set as alice's order was committed
		t.Fatal("the round waits for bob alone, but the intake is not polling hot")
	}
	wait("a kept connection to Postfix", func() bool { open, _ := submissionConnections(srv.Dir); return open > 0 })
	_, opened := submissionConnections(srv.Dir)
	mu.Lock()
	accepted, fetched, drawing = 0, time.Time{}, 0
	mu.Unlock()

	conn, err := net.DialTimeout("tcp", srv.LMTPAddr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	lc := smtp.NewClientLMTP(conn)
	defer lc.Close()
	if err := lc.Hello("test.players.test"); err != nil {
		t.Fatal(err)
	}
	order := "From: Bob <bob@players.test>\r\nTo: sortie@sortie.test\r\nSubject: orders\r\nMessage-ID: <b1@players.test>\r\n\r\nGAME g1 TURN 1 SECRET kite-heron-0002\r\nKURT: 5 HOLD\r\nHANS: 6\r\nEND\r\n"
	if err := lc.SendMail(bob, []string{service}, bytes.NewReader([]byte(order))); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	hot := d.Intake.IsHot()
	wait("bob's receipt and both reports", func() bool { mu.Lock(); defer mu.Unlock(); return accepted == 3 })
	took := time.Since(t0)
	mu.Lock()
	detect := fetched.Sub(t0)
	reports := drawing
	mu.Unlock()
	t.Logf("in Dovecot's inbox → in the handler %v, → the turn's 3 mails accepted by Postfix %v (of which the reports and their pictures %v)",
		detect.Round(time.Millisecond/10), took.Round(time.Millisecond/10), reports.Round(time.Millisecond/10))
	// What shows the daemon watched is how it worked, not how long it took (a loaded machine is slow, not
	// wrong): the mail was found while the intake polled, and the turn's mails went out over the
	// connection opened before the order came.
	if !hot {
		t.Error("the intake was not polling when bob's order was delivered: it waited on IDLE or its poll")
	}
	if _, now := submissionConnections(srv.Dir); now != opened {
		t.Errorf("%d new connections to Postfix for the turn's mails: the kept one was not used", now-opened)
	}
}

// submissionConnections reads Postfix's log: how many connections to the submission port are open now,
// and how many were ever opened (not counting the start-up probe, which closes at once).
func submissionConnections(dir string) (open, opened int) {
	log, _ := os.ReadFile(filepath.Join(dir, "postfix", "maillog"))
	closed := 0
	for _, line := range strings.Split(string(log), "\n") {
		if !strings.Contains(line, "submission/smtpd") {
			continue
		}
		switch {
		case strings.Contains(line, "lost connection after CONNECT"):
			opened--
			closed--
		case strings.Contains(line, " connect from "):
			opened++
		case strings.Contains(line, " disconnect from "):
			closed++
		}
	}
	return opened - closed, opened
}
