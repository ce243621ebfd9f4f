package main

// Benchmarks of the mail side, through real protocol servers (docs/performance.md):
//
//   - BenchmarkIntake: order mails from the IMAP inbox through the daemon's own handler (parse the
//     MIME, find and parse the order block, check it with the rules, commit the orders and the receipt
//     of each batch in one bbolt transaction) and moved to Processed, per second. Raw, in the same run:
//     the same messages delivered to another mailbox; connect, one UID FETCH 1:* BODY.PEEK[], one UID
//     MOVE of them all, and one bbolt transaction for the whole batch writing a 2 KiB record per
//     message: the same work done the same way, minus the handler.
//   - BenchmarkOutbox: report-sized mails from the outbox over one authenticated STARTTLS connection,
//     per second (mailer.Sender on the daemon's outbox adapter). Raw, in the same run: go-mail sending
//     the same messages, built beforehand, over one connection to the same port, with the same
//     protocol (MAIL, RCPT, DATA a mail; no NOOP or RSET around each).
//   - BenchmarkTurnLatency: the daemon (NewDaemon, Run: intake, sender, clock, with the default
//     settings) with a game waiting for one last order; the time from that order's delivery into the
//     mail server to every mail of the turn (the receipt and the reports) in the players' mailboxes,
//     split into detect, commit (with resolve and render), SMTP and delivery. Raw, in the same run: a
//     client polling the mailbox as often as the daemon then does (a NOOP every 10 ms) told of the new
//     message, fetching and moving it, then go-mail sending the same mails over a connection opened
//     beforehand, until they are in the same mailboxes.
//
// Besides the figure, the raw figure and their ratio, each reports where its own time went (the
// handler, the cursor store and the outbox adapter are wrapped to read the clock around each call)
// and load1, the machine's load average at the end: the machine is shared.
//
// The plain names run against Dovecot and Postfix started on loopback (mailer/realmail) and are
// skipped when they cannot run here; the InProcess ones against mailer/localmail, so a figure
// exists on any machine. Every server a benchmark starts is stopped by its cleanup.
//
//	go test ./cmd/sortie -run '^$' -bench 'Intake|Outbox|TurnLatency' -benchtime 3x -count 3

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	enc "encoding/binary" // binary is the test binary's path (main_test.go)
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	netmail "net/mail"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/rs/zerolog"
	gomail "github.com/wneessen/go-mail"
	bolt "go.etcd.io/bbolt"

	"sortie/adjudicator"
	"sortie/cmd/sortie/internal/daemon"
	"sortie/cmd/sortie/internal/demo"
	"sortie/mailer"
	"sortie/mailer/localmail"
	"sortie/mailer/outmail"
	"sortie/mailer/realmail"
	"sortie/rules/afd"
	"sortie/storage"
	"sortie/templates"
)

const (
	benchService = "sortie@sortie.test"
	benchRaw     = "raw@sortie.test" // the mailbox the raw measurements read
	benchAlice   = "alice@players.test"
	benchBob     = "bob@players.test"
	benchSeed    = "be4c4be4c4be4c4be4c4be4c4be4c4be4c4be4c4be4c4be4c4be4c4be4c4be4c"

	benchAliceOrders = "RED1: 6 FIRE KURT\nRED2: 1 TL 4"
	benchBobOrders   = "KURT: 5 HOLD\nHANS: 6"
)

// benchEnv is the pair of mail servers a benchmark talks to.
type benchEnv struct {
	imapAddr  string // IMAP over implicit TLS
	imapHost  string // the name the IMAP certificate is checked for
	smtpHost  string // SMTP submission: STARTTLS, then AUTH PLAIN
	smtpPort  int
	caFile    string
	roots     *x509.CertPool
	passwords map[string]string // login (an address) -> password
	// deliver puts messages into login's INBOX the way a delivery agent does (LMTP into Dovecot).
	deliver func(login string, raws [][]byte) error
	// settle waits until the SMTP server has delivered everything it accepted (Postfix's queue is
	// empty), so that one measurement does not pay for the background work of the one before.
	settle func() error
	// delivered is how many messages the SMTP side has put in login's mailbox so far (Dovecot: the
	// files in its Maildir; in-process: the messages the SMTP server took for it).
	delivered func(login string) int
	logs      func() string
}

func (e *benchEnv) tls(host string) *tls.Config {
	return &tls.Config{RootCAs: e.roots, ServerName: host, MinVersion: tls.VersionTLS12}
}

// benchRealEnv starts Dovecot and Postfix for one benchmark (stopped by its cleanup), or skips.
func benchRealEnv(b *testing.B, inProcessName string) *benchEnv {
	b.Helper()
	if ok, reason := realmail.Available(); !ok {
		if os.Getenv("SORTIE_REAL_MAIL") == "required" {
			b.Fatalf("SORTIE_REAL_MAIL=required, but %s", reason)
		}
		b.Skipf("Dovecot/Postfix cannot run here (%s); %s gives the figure against the in-process servers", reason, inProcessName)
	}
	srv, err := realmail.Start(b.TempDir(), realmail.User{Address: benchService}, realmail.User{Address: benchRaw},
		realmail.User{Address: benchAlice}, realmail.User{Address: benchBob})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			b.Error(err)
		}
	})
	host, port := demo.SplitHostPort(srv.SubmissionAddr)
	imapHost, _, _ := net.SplitHostPort(srv.IMAPSAddr)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(srv.CAPEM)
	e := &benchEnv{imapAddr: srv.IMAPSAddr, imapHost: imapHost, smtpHost: host, smtpPort: port, caFile: srv.CAFile, roots: pool,
		passwords: srv.Users,
		deliver:   func(login string, raws [][]byte) error { return benchLMTP(srv.LMTPAddr, login, raws) },
		settle:    func() error { return benchPostfixIdle(filepath.Join(srv.Dir, "postfix", "spool"), time.Minute) },
		delivered: func(login string) int {
			return benchMaildirCount(filepath.Join(srv.Dir, "dovecot", "mail", login, "Maildir"))
		},
		logs: srv.Logs,
	}
	// Dovecot makes only the INBOX; the raw measurements move to Processed as the intake does.
	c, err := srv.Login(benchRaw)
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Create("Processed", nil).Wait(); err != nil {
		b.Fatal(err)
	}
	c.Logout().Wait()
	c.Close()
	return e
}

// benchInProcessEnv starts mailer/localmail's servers with the same protections: IMAPS, and SMTP
// with mandatory STARTTLS and AUTH, both checked against a throwaway CA.
func benchInProcessEnv(b *testing.B) *benchEnv {
	b.Helper()
	caPEM, serverTLS, err := localmail.GenerateCA()
	if err != nil {
		b.Fatal(err)
	}
	caFile := filepath.Join(b.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o644); err != nil {
		b.Fatal(err)
	}
	pw := map[string]string{benchService: "svc-pw", benchRaw: "raw-pw"}
	im, err := localmail.StartIMAP(localmail.IMAPOptions{Users: pw, TLSConfig: serverTLS, ImplicitTLS: true, RequireTLS: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { im.Close() })
	var mu sync.Mutex
	got := map[string]int{}
	sm, err := localmail.StartSMTP(localmail.SMTPOptions{Domain: "sortie.test", Username: benchService, Password: pw[benchService],
		TLSConfig: serverTLS, RequireTLS: true, OnMessage: func(_ string, to []string, _ []byte) error {
			mu.Lock()
			defer mu.Unlock()
			for _, rcpt := range to {
				got[strings.ToLower(rcpt)]++
			}
			return nil
		}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sm.Close() })
	host, port := demo.SplitHostPort(sm.Addr())
	imapHost, _, _ := net.SplitHostPort(im.TLSAddr())
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	return &benchEnv{imapAddr: im.TLSAddr(), imapHost: imapHost, smtpHost: host, smtpPort: port, caFile: caFile, roots: pool, passwords: pw,
		deliver: func(login string, raws [][]byte) error {
			for _, raw := range raws {
				if err := im.Deliver(login, raw); err != nil {
					return err
				}
			}
			return nil
		},
		settle: func() error { return nil },
		delivered: func(login string) int {
			mu.Lock()
			defer mu.Unlock()
			return got[login]
		},
		logs: func() string { return "" },
	}
}

// benchMaildirCount is the number of messages in a Maildir (new and cur); 0 before the first delivery.
func benchMaildirCount(dir string) int {
	n := 0
	for _, sub := range []string{"new", "cur"} {
		entries, _ := os.ReadDir(filepath.Join(dir, sub))
		n += len(entries)
	}
	return n
}

// benchLMTP delivers raws to rcpt over one LMTP connection to Dovecot, as Postfix does.
func benchLMTP(addr, rcpt string, raws [][]byte) error {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return err
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("bench.sortie.test"); err != nil {
		return err
	}
	for _, raw := range raws {
		if err := c.SendMail(benchAlice, []string{rcpt}, bytes.NewReader(raw)); err != nil {
			return fmt.Errorf("lmtp to %s: %w", rcpt, err)
		}
	}
	return c.Quit()
}

// benchPostfixIdle waits until Postfix's queues hold no message.
func benchPostfixIdle(spool string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		n := 0
		for _, q := range []string{"maildrop", "incoming", "active", "deferred", "hold"} {
			filepath.WalkDir(filepath.Join(spool, q), func(_ string, de fs.DirEntry, err error) error {
				if err == nil && de.Type().IsRegular() {
					n++
				}
				return nil
			})
		}
		if n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postfix still holds %d messages after %v", n, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// benchScenario is the bundled Channel scenario with a service section for alice and bob.
func benchScenario(b *testing.B) []byte {
	b.Helper()
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		b.Fatal(err)
	}
	return append(scn, fmt.Appendf(nil, "\nservice:\n  seed: %s\n  players:\n    alice: {email: %s, secret: lark-swift-0001}\n    bob: {email: %s, secret: kite-heron-0002}\n",
		benchSeed, benchAlice, benchBob)...)
}

// benchLogger logs as the daemon does by default (JSON, info, timestamps), into nothing.
// The logs go nowhere, unless SORTIE_BENCH_LOG names a level: then they go to stderr from that level
// on (debug shows the intake's timeline of each pass: docs/performance.md).
func benchLogger() zerolog.Logger {
	if level, err := zerolog.ParseLevel(os.Getenv("SORTIE_BENCH_LOG")); err == nil && os.Getenv("SORTIE_BENCH_LOG") != "" {
		return zerolog.New(os.Stderr).Level(level).With().Timestamp().Logger()
	}
	return zerolog.New(io.Discard).Level(zerolog.InfoLevel).With().Timestamp().Logger()
}

// benchReportLoad reports the machine's 1-minute load average as the benchmark ends (the benchmark
// and its servers account for about 1 to 1.5 of it), so figures from a busy machine stand out.
func benchReportLoad(b *testing.B) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return
	}
	var load float64
	if _, err := fmt.Sscan(string(data), &load); err == nil {
		b.ReportMetric(load, "load1")
	}
}

// benchOrderMail is a player's order mail as a mail program writes it: a reply to the last report,
// the block on top, the report quoted below.
func benchOrderMail(from, name, id, game, secret, orders string) []byte {
	var q strings.Builder
	for i := range 14 {
		fmt.Fprintf(&q, "> RED%d  Spitfire I   hex %d,%d  facing %d  12,000 ft  speed 6.0  bank N  damage none\n", i%2+1, i, 4-i, i%6)
	}
	body := fmt.Sprintf("Hello,\n\nGAME %s TURN 1 SECRET %s\n%s\nEND\n\n%s\n\nOn Mon, 23 Nov 2026 at 09:00, Sortie wrote:\n> [%s] turn 1 report\n>\n%s",
		game, secret, orders, name, game, q.String())
	return fmt.Appendf(nil, "From: %s <%s>\r\nTo: Sortie <%s>\r\nSubject: Re: [%s] turn 1 report\r\nMessage-ID: <%s>\r\nIn-Reply-To: <report.%s.0.x@sortie.test>\r\n"+
		"Date: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n"+
		"User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0\r\n\r\n%s",
		name, from, benchService, game, id, game, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
}

// BenchmarkIntake: order mails from Dovecot through the daemon's handler, beside the raw IMAP and
// bbolt cost of the same messages.
func BenchmarkIntake(b *testing.B) {
	benchIntake(b, benchRealEnv(b, "BenchmarkIntakeInProcess"), false)
}

// BenchmarkIntakeInProcess is BenchmarkIntake against the in-process IMAP server.
func BenchmarkIntakeInProcess(b *testing.B) { benchIntake(b, benchInProcessEnv(b), false) }

// BenchmarkIntakeNoHandler is BenchmarkIntake with a handler that files every mail as processed without
// reading it: the intake's own cost (the IMAP commands, the stream, the moves, the cursor), beside the same
// raw. What BenchmarkIntake adds to it is the handler's.
func BenchmarkIntakeNoHandler(b *testing.B) {
	benchIntake(b, benchRealEnv(b, "BenchmarkIntakeInProcess"), true)
}

func benchIntake(b *testing.B, env *benchEnv, noHandler bool) {
	const n = 500 // order mails per iteration
	ctx := context.Background()
	dir := b.TempDir()
	db, err := storage.Open(filepath.Join(dir, "sortie.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	tmpl, err := templates.New("")
	if err != nil {
		b.Fatal(err)
	}
	log := benchLogger()
	// Alice alone sends: the round never completes, and the long resolve delay would keep it open
	// even if it did. The flood limit is out of the way.
	svc := adjudicator.New(db, tmpl, adjudicator.Config{Address: benchService, Name: "Sortie bench", MaxMailsPerHour: 1 << 30,
		ResolveDelay: 24 * time.Hour}, log)
	if _, err := svc.NewGame(benchScenario(b), "channel.yaml", "bench"); err != nil {
		b.Fatal(err)
	}
	// The daemon's handler and the database as cursor store, each wrapped to count and to time its
	// share (two clock readings a call), so the figure can be split into handler, cursor and IMAP.
	h := daemon.Handler(svc, log)
	processed := 0
	var tHandler time.Duration
	counting := &timedHandler{h: h.(mailer.BatchHandler), processed: &processed, elapsed: &tHandler, idle: noHandler}
	cursor := &benchCursor{DB: db}
	in := mailer.NewIntake(mailer.IntakeOptions{Addr: env.imapAddr, TLS: mailer.TLSImplicit, CAFile: env.caFile,
		Username: benchService, Password: env.passwords[benchService], Logger: log}, cursor, counting)

	rawDB, err := bolt.Open(filepath.Join(dir, "raw.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { rawDB.Close() })
	record := bytes.Repeat([]byte{'x'}, 2<<10)

	plots := []string{benchAliceOrders, "RED1: 3 TR 2 FIRE KURT\nRED2: 2 TL 3 HOLD"}
	var tIntake, tIMAP, tBolt, cpu, rawCPU time.Duration
	var size int
	var allocated uint64 // bytes the process allocated during the passes
	iter := 0
	for b.Loop() {
		b.StopTimer()
		iter++
		msgs := make([][]byte, n)
		for i := range msgs {
			msgs[i] = benchOrderMail(benchAlice, "Alice", fmt.Sprintf("o%d.%d@players.test", iter, i), "bench", "lark-swift-0001", plots[i%len(plots)])
			size += len(msgs[i])
		}
		for _, login := range []string{benchService, benchRaw} {
			if err := env.deliver(login, msgs); err != nil {
				b.Fatalf("delivering to %s: %v\n%s", login, err, env.logs())
			}
		}
		processed = 0

		// The raw side, timed. Whichever side runs first after the delivery runs some 3 % slower (Dovecot
		// and the system settling after it: docs/performance.md, Late on 2026-11-28), so the
		// sides take turns at going first: intake first in odd iterations, raw first in even ones. An
		// even -benchtime gives both orders as often.
		rawFirst := iter%2 == 0
		rawSide := func() {
			c0 := benchCPU()
			d, err := benchRawFetchMove(env, benchRaw, n)
			if err != nil {
				b.Fatal(err)
			}
			tIMAP += d
			d, err = benchRawCommits(rawDB, record, n)
			if err != nil {
				b.Fatal(err)
			}
			tBolt += d
			rawCPU += benchCPU() - c0
		}
		if rawFirst {
			rawSide()
		}
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		b.StartTimer()
		c0 := benchCPU()
		t0 := time.Now()
		var handled int
		// Labelled, so that a CPU profile of the benchmark can be read for the pass alone
		// (go tool pprof -tagfocus phase=intake): the delivering and the raw side are not in it.
		pprof.Do(ctx, pprof.Labels("phase", "intake"), func(ctx context.Context) { handled, err = in.PollOnce(ctx) })
		d := time.Since(t0)
		cpu += benchCPU() - c0
		b.StopTimer()
		runtime.ReadMemStats(&ms1)
		allocated += ms1.TotalAlloc - ms0.TotalAlloc
		if err != nil || handled != n || processed != n {
			b.Fatalf("PollOnce: %d handled, %d processed of %d: %v", handled, processed, n, err)
		}
		tIntake += d
		if iter == 1 && !noHandler {
			benchCheckReceipts(b, db, n)
		}

		if !rawFirst {
			rawSide()
		}
		b.StartTimer()
	}
	total := float64(n * iter)
	rate := total / tIntake.Seconds()
	raw := total / (tIMAP + tBolt).Seconds()
	b.ReportMetric(rate, "msgs/s")
	b.ReportMetric(raw, "raw-msgs/s")
	b.ReportMetric(rate/raw, "ratio")
	b.ReportMetric(total/tIMAP.Seconds(), "raw-imap-msgs/s")
	b.ReportMetric(total/tBolt.Seconds(), "raw-commits/s")
	b.ReportMetric(float64(size)/total, "B/mail")
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / total }
	// The handler's CPU a mail: what it does as each mail arrives (Prepare: parse the MIME, on the
	// goroutine reading the mailbox) and in its turn (HandleBatch: the adjudicator and the commit).
	// The batches follow the mailbox: what arrived while the handler worked on the one before.
	b.ReportMetric(total/float64(counting.batches), "mails/batch")
	b.ReportMetric(us(time.Duration(counting.prepared.Load())), "prepare-us/mail")
	b.ReportMetric(us(tHandler), "handler-us/mail")
	b.ReportMetric(us(cursor.spent), "cursor-us/mail")
	// This process's CPU time (user and system, every goroutine: against the in-process servers theirs
	// too), which the machine's other work does not inflate as it does the wall-clock figures.
	b.ReportMetric(us(cpu), "cpu-us/mail")
	b.ReportMetric(us(rawCPU), "raw-cpu-us/mail")
	b.ReportMetric(float64(allocated)/total, "alloc-B/mail")
	b.ReportMetric(us(tIntake-tHandler-cursor.spent), "imap-us/mail")
	benchReportLoad(b)
}

// benchCPU is the CPU time this process has used so far (user and system).
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchCursor is the database as the intake's cursor store and spool (mailer.Spool, as in the daemon),
// timing SaveCursor.
type benchCursor struct {
	*storage.DB
	spent time.Duration
}

func (c *benchCursor) SaveCursor(mailbox string, uidValidity, lastUID uint32) error {
	t0 := time.Now()
	err := c.DB.SaveCursor(mailbox, uidValidity, lastUID)
	c.spent += time.Since(t0)
	return err
}

// benchOutboxTimed is the daemon's outbox adapter, timing Pending and MarkSent.
type benchOutboxTimed struct {
	daemon.Outbox
	spent time.Duration
}

func (o *benchOutboxTimed) Pending(now time.Time, limit int) ([]mailer.OutgoingMail, error) {
	t0 := time.Now()
	list, err := o.Outbox.Pending(now, limit)
	o.spent += time.Since(t0)
	return list, err
}

func (o *benchOutboxTimed) MarkSent(id string, at time.Time) error {
	t0 := time.Now()
	err := o.Outbox.MarkSent(id, at)
	o.spent += time.Since(t0)
	return err
}

// benchCheckReceipts makes sure the benchmark measured what it claims: every mail got a receipt
// that stored both of Alice's orders.
func benchCheckReceipts(b *testing.B, db *storage.DB, n int) {
	b.Helper()
	items, err := db.Pending(time.Now().Add(time.Hour), 0)
	if err != nil {
		b.Fatal(err)
	}
	good := 0
	for _, it := range items {
		if it.Kind == "receipt" && strings.Count(it.Body, "STORED.") == 2 && !strings.Contains(it.Body, "NOT STORED") {
			good++
		}
	}
	if good != n {
		for _, it := range items {
			if it.Kind == "receipt" && (strings.Count(it.Body, "STORED.") != 2 || strings.Contains(it.Body, "NOT STORED")) {
				b.Fatalf("%d of %d receipts stored both orders; one of them:\n%s", good, n, it.Body)
			}
		}
		b.Fatalf("%d of %d receipts stored both orders", good, n)
	}
}

// benchRawFetchMove is the IMAP work of the intake done directly: connect and log in, one UID FETCH
// BODY.PEEK[] of every message, one UID MOVE of all of them to Processed.
func benchRawFetchMove(env *benchEnv, login string, n int) (time.Duration, error) {
	t0 := time.Now()
	c, err := imapclient.DialTLS(env.imapAddr, &imapclient.Options{TLSConfig: env.tls(env.imapHost)})
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := c.Login(login, env.passwords[login]).Wait(); err != nil {
		return 0, err
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return 0, err
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.UIDSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return 0, err
	}
	uids := make([]imap.UID, 0, len(bufs))
	for _, m := range bufs {
		if len(m.FindBodySection(section)) == 0 {
			return 0, fmt.Errorf("raw fetch: UID %d came without its body", m.UID)
		}
		uids = append(uids, m.UID)
	}
	if len(uids) != n {
		return 0, fmt.Errorf("raw fetch: %d messages, want %d", len(uids), n)
	}
	if _, err := c.Move(imap.UIDSetNum(uids...), "Processed").Wait(); err != nil {
		return 0, err
	}
	if err := c.Logout().Wait(); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// benchRawCommits is the commit work of the intake done directly, the way the daemon does it: one
// bbolt transaction (one sync) for the whole batch, writing one record per message.
func benchRawCommits(db *bolt.DB, record []byte, n int) (time.Duration, error) {
	t0 := time.Now()
	err := db.Update(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists([]byte("raw"))
		if err != nil {
			return err
		}
		for range n {
			seq, err := bk.NextSequence()
			if err != nil {
				return err
			}
			if err := bk.Put(enc.BigEndian.AppendUint64(nil, seq), record); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// benchReportBody is the body of a real turn report: a game of the bundled scenario, turn 1 resolved.
func benchReportBody(b *testing.B) string {
	b.Helper()
	db, err := storage.Open(filepath.Join(b.TempDir(), "report.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	tmpl, err := templates.New("")
	if err != nil {
		b.Fatal(err)
	}
	svc := adjudicator.New(db, tmpl, adjudicator.Config{Address: benchService}, zerolog.Nop())
	if _, err := svc.NewGame(benchScenario(b), "channel.yaml", "rep"); err != nil {
		b.Fatal(err)
	}
	for _, p := range []struct{ from, secret, orders string }{{benchAlice, "lark-swift-0001", benchAliceOrders}, {benchBob, "kite-heron-0002", benchBobOrders}} {
		text := fmt.Sprintf("GAME rep TURN 1 SECRET %s\n%s\nEND\n", p.secret, p.orders)
		if _, err := svc.Submit(adjudicator.Envelope{From: p.from, To: []string{benchService}, MessageID: "rep-" + p.from, Text: text, Size: len(text)}); err != nil {
			b.Fatal(err)
		}
	}
	items, err := db.Pending(time.Now().Add(time.Hour), 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, it := range items {
		if it.Kind == "report" && it.To == benchAlice {
			return it.Body
		}
	}
	b.Fatal("no report after turn 1")
	return ""
}

// benchGoMail builds the message the sender builds for an outbox item (mailer.Sender's build).
func benchGoMail(b *testing.B, it storage.OutMail) *gomail.Msg {
	b.Helper()
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	m.FromMailAddress(&netmail.Address{Name: "Sortie bench", Address: it.From})
	m.ToMailAddress(&netmail.Address{Name: it.ToName, Address: it.To})
	if it.ReplyTo != "" {
		if err := m.ReplyTo(it.ReplyTo); err != nil {
			b.Fatal(err)
		}
	}
	m.Subject(it.Subject)
	m.SetMessageIDWithValue(it.MessageID)
	if it.InReplyTo != "" {
		m.SetGenHeader(gomail.HeaderInReplyTo, "<"+it.InReplyTo+">")
		m.SetGenHeader(gomail.HeaderReferences, "<"+it.InReplyTo+">")
	}
	for k, v := range it.Headers {
		m.SetGenHeader(gomail.Header(k), v)
	}
	m.SetGenHeader("X-Sortie", "1")
	m.SetGenHeader("Auto-Submitted", "auto-generated")
	m.SetGenHeader("X-Auto-Response-Suppress", "OOF, AutoReply")
	m.SetBodyString(gomail.TypeTextPlain, it.Body)
	return m
}

// benchRawClient is go-mail set up as the sender uses it: STARTTLS mandatory, AUTH PLAIN, the CA as the
// only root, and a mail is MAIL, RCPT, DATA (no NOOP before, no RSET after each).
func benchRawClient(env *benchEnv) (*gomail.Client, error) {
	return gomail.NewClient(env.smtpHost, gomail.WithPort(env.smtpPort), gomail.WithTLSPolicy(gomail.TLSMandatory),
		gomail.WithTLSConfig(env.tls(env.smtpHost)), gomail.WithSMTPAuth(gomail.SMTPAuthPlain),
		gomail.WithUsername(benchService), gomail.WithPassword(env.passwords[benchService]), gomail.WithTimeout(30*time.Second),
		gomail.WithoutNoop(), gomail.WithoutRset())
}

// benchRawSend is go-mail alone: one connection, each message sent in turn, QUIT.
func benchRawSend(ctx context.Context, env *benchEnv, msgs []*gomail.Msg) (time.Duration, error) {
	t0 := time.Now()
	c, err := benchRawClient(env)
	if err != nil {
		return 0, err
	}
	if err := c.DialWithContext(ctx); err != nil {
		return 0, err
	}
	for _, m := range msgs {
		if err := c.Send(m); err != nil {
			c.Close()
			return 0, err
		}
	}
	if err := c.Close(); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// BenchmarkOutbox: reports from the outbox to Postfix's submission port, beside go-mail alone.
func BenchmarkOutbox(b *testing.B) { benchOutbox(b, benchRealEnv(b, "BenchmarkOutboxInProcess")) }

// BenchmarkOutboxInProcess is BenchmarkOutbox against the in-process SMTP server.
func BenchmarkOutboxInProcess(b *testing.B) { benchOutbox(b, benchInProcessEnv(b)) }

func benchOutbox(b *testing.B, env *benchEnv) {
	const n = 300 // reports per iteration
	ctx := context.Background()
	db, err := storage.Open(filepath.Join(b.TempDir(), "sortie.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	body := benchReportBody(b)
	box := &benchOutboxTimed{Outbox: daemon.Outbox{DB: db}}
	sender := mailer.NewSender(mailer.SenderOptions{Host: env.smtpHost, Port: env.smtpPort, TLS: mailer.TLSStartTLS, CAFile: env.caFile,
		Username: benchService, Password: env.passwords[benchService], FromName: "Sortie bench", Batch: n, Logger: benchLogger()}, box)

	var tSend, tRaw time.Duration
	wire := 0 // bytes of one message as sent
	iter := 0
	for b.Loop() {
		b.StopTimer()
		iter++
		items := make([]storage.OutMail, n)
		for i := range items {
			to := []string{benchAlice, benchBob}[i%2]
			items[i] = storage.OutMail{Mail: outmail.Mail{From: benchService, To: to, ToName: strings.Split(to, "@")[0], ReplyTo: fmt.Sprintf("sortie+%016x@sortie.test", i),
				Subject: fmt.Sprintf("[g%d] turn %d report", i, iter), Body: body, MessageID: fmt.Sprintf("report.g%d.%d.%s@sortie.test", i, iter, to),
				Headers: map[string]string{"X-Sortie-Game": fmt.Sprintf("g%d", i)}}, Game: fmt.Sprintf("g%d", i), Kind: "report"}
		}
		if err := db.Update(func(tx *storage.Tx) error {
			for _, it := range items {
				if _, err := tx.Enqueue(it); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		msgs := make([]*gomail.Msg, n)
		for i, it := range items {
			it.MessageID = "raw." + it.MessageID
			msgs[i] = benchGoMail(b, it)
		}
		if wire == 0 {
			var buf bytes.Buffer
			if _, err := msgs[0].WriteTo(&buf); err != nil {
				b.Fatal(err)
			}
			wire = buf.Len()
		}

		viaSender := func() {
			if err := env.settle(); err != nil {
				b.Fatalf("%v\n%s", err, env.logs())
			}
			b.StartTimer()
			t0 := time.Now()
			sent, err := sender.SendOnce(ctx)
			d := time.Since(t0)
			b.StopTimer()
			if err != nil || sent != n {
				b.Fatalf("SendOnce: %d of %d sent: %v\n%s", sent, n, err, env.logs())
			}
			tSend += d
		}
		raw := func() {
			if err := env.settle(); err != nil {
				b.Fatalf("%v\n%s", err, env.logs())
			}
			d, err := benchRawSend(ctx, env, msgs)
			if err != nil {
				b.Fatalf("raw go-mail: %v\n%s", err, env.logs())
			}
			tRaw += d
		}
		// Alternate which goes first, so neither always meets a server still busy with the other's mail.
		if iter%2 == 1 {
			viaSender()
			raw()
		} else {
			raw()
			viaSender()
		}
		if err := env.settle(); err != nil {
			b.Fatalf("%v\n%s", err, env.logs())
		}
		b.StartTimer()
	}
	total := float64(n * iter)
	rate, raw := total/tSend.Seconds(), total/tRaw.Seconds()
	b.ReportMetric(rate, "msgs/s")
	b.ReportMetric(raw, "raw-msgs/s")
	b.ReportMetric(rate/raw, "ratio")
	b.ReportMetric(float64(wire), "B/mail")
	b.ReportMetric(float64(box.spent.Nanoseconds())/1e3/total, "outbox-us/mail")
	b.ReportMetric(float64((tSend-box.spent).Nanoseconds())/1e3/total, "smtp-us/mail")
	benchReportLoad(b)
}

// BenchmarkTurnLatency: the daemon running against Dovecot and Postfix with its default settings; the
// time from the last order's delivery into Dovecot to every mail of the turn in the players' mailboxes.
func BenchmarkTurnLatency(b *testing.B) {
	benchTurnLatency(b, benchRealEnv(b, "BenchmarkTurnLatencyInProcess"))
}

// BenchmarkTurnLatencyInProcess is BenchmarkTurnLatency against the in-process servers (where a mail is
// in the player's mailbox once the SMTP server has taken it).
func BenchmarkTurnLatencyInProcess(b *testing.B) { benchTurnLatency(b, benchInProcessEnv(b)) }

// benchStages records when the daemon's stages happen (Daemon.OnStage, adjudicator.WithTimed).
type benchStages struct {
	mu       sync.Mutex
	fetched  time.Time // the first "fetched" since reset
	commit   time.Time // the first "committed" after it
	accepted []time.Time
	resolve  time.Duration
	reports  time.Duration
	pictures time.Duration // drawn and stored after the commit (adjudicator.Service.DrawPictures)
}

func (s *benchStages) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetched, s.commit, s.accepted, s.resolve, s.reports, s.pictures = time.Time{}, time.Time{}, nil, 0, 0, 0
}

func (s *benchStages) stage(stage, _ string) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case stage == "fetched" && s.fetched.IsZero():
		s.fetched = now
	case stage == "committed" && !s.fetched.IsZero() && s.commit.IsZero():
		s.commit = now
	case stage == "accepted":
		s.accepted = append(s.accepted, now)
	}
}

func (s *benchStages) timed(part string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch part {
	case "resolve":
		s.resolve += d
	case "reports":
		s.reports += d
	case "pictures":
		s.pictures += d
	}
}

// benchWaitDelivered waits until each login's mailbox holds want[login] messages; it returns when the last
// arrived (polling every 200 µs).
func benchWaitDelivered(b *testing.B, env *benchEnv, want map[string]int) time.Time {
	deadline := time.Now().Add(time.Minute)
	for {
		done := true
		for login, n := range want {
			if env.delivered(login) < n {
				done = false
				break
			}
		}
		if done {
			return time.Now()
		}
		if time.Now().After(deadline) {
			got := map[string]int{}
			for login := range want {
				got[login] = env.delivered(login)
			}
			b.Fatalf("after a minute the mailboxes hold %v, want %v\n%s", got, want, env.logs())
		}
		time.Sleep(200 * time.Microsecond)
	}
}

func benchTurnLatency(b *testing.B, env *benchEnv) {
	ctx := context.Background()
	dir := b.TempDir()
	// The daemon as a moderator would configure it: the defaults, except for the test servers and a
	// resolve delay of 0 (the round resolves with the last order).
	cfg := &daemon.Config{Database: filepath.Join(dir, "sortie.db"), Address: benchService, Name: "Sortie bench", ResolveDelay: "0s", LogLevel: "error"}
	cfg.IMAP.Addr, cfg.IMAP.TLS, cfg.IMAP.CAFile = env.imapAddr, "tls", env.caFile
	cfg.IMAP.Username, cfg.IMAP.Password = benchService, env.passwords[benchService]
	cfg.SMTP.Host, cfg.SMTP.Port, cfg.SMTP.TLS, cfg.SMTP.CAFile = env.smtpHost, env.smtpPort, "starttls", env.caFile
	cfg.SMTP.Username, cfg.SMTP.Password = benchService, env.passwords[benchService]
	stages := &benchStages{}
	d, err := daemon.NewDaemon(cfg, adjudicator.WithTimed(stages.timed))
	if err != nil {
		b.Fatal(err)
	}
	d.OnStage = stages.stage
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	b.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			b.Error(err)
		}
		d.Close()
	})
	scn := benchScenario(b)
	hotPoll := mailer.DefaultIntakeHotPoll // the daemon's, and the raw client's

	// turnMail is the game's outbox as it stands.
	turnMail := func(game string) []storage.Outgoing {
		var list []storage.Outgoing
		if err := d.DB.View(func(tx *storage.Tx) (err error) {
			list, err = tx.OutboxByGame(game)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		return list
	}
	// waitSent waits until every mail of the game has been accepted by the SMTP server.
	waitSent := func(game string, reports int) []storage.Outgoing {
		t0 := time.Now()
		for {
			list := turnMail(game)
			n, sent := 0, 0
			for _, it := range list {
				if it.Kind == "report" {
					n++
				}
				if it.Status == storage.OutSent {
					sent++
				}
			}
			if n >= reports && sent == len(list) {
				return list
			}
			if time.Since(t0) > time.Minute {
				b.Fatalf("game %s: after a minute %d of %d reports committed, %d of %d mails sent\n%s", game, n, reports, sent, len(list), env.logs())
			}
			time.Sleep(time.Millisecond)
		}
	}
	mailboxes := func() map[string]int {
		return map[string]int{benchAlice: env.delivered(benchAlice), benchBob: env.delivered(benchBob)}
	}

	var tTurn, tDetect, tCommit, tResolve, tRender, tDraw, tSMTP, tDelivery time.Duration
	var rTurn, rDetect, rFetch, rSMTP, rDelivery time.Duration
	iter := 0
	for b.Loop() {
		b.StopTimer()
		iter++
		game := fmt.Sprintf("lat%d", iter)
		if _, err := d.Svc.NewGame(scn, "channel.yaml", game); err != nil {
			b.Fatal(err)
		}
		// Alice's orders go straight to the service: only the last order travels by mail. The round then
		// waits for Bob alone, and the daemon watches for his mail (imap.hot_for).
		text := fmt.Sprintf("GAME %s TURN 1 SECRET lark-swift-0001\n%s\nEND\n", game, benchAliceOrders)
		if o, err := d.Svc.Submit(adjudicator.Envelope{From: benchAlice, To: []string{benchService}, MessageID: game + ".alice@players.test",
			Text: text, Size: len(text), ReceivedAt: time.Now().UTC()}); err != nil || o != adjudicator.Accepted {
			b.Fatalf("alice's orders: %s %v", o, err)
		}
		d.Sender.Kick()
		before := map[string]bool{}
		for _, it := range waitSent(game, 0) { // the welcome mails and alice's receipt
			before[it.ID] = true
		}
		if err := env.settle(); err != nil {
			b.Fatalf("%v\n%s", err, env.logs())
		}
		box := mailboxes()
		benchWaitDelivered(b, env, map[string]int{benchAlice: box[benchAlice], benchBob: box[benchBob]})
		last := benchOrderMail(benchBob, "Bob", game+".bob@players.test", game, "kite-heron-0002", benchBobOrders)
		time.Sleep(100 * time.Millisecond) // the intake polls, the sender's connection is open
		box = mailboxes()
		stages.reset()

		b.StartTimer()
		if err := env.deliver(benchService, [][]byte{last}); err != nil {
			b.Fatalf("delivering the last order: %v\n%s", err, env.logs())
		}
		t0 := time.Now() // the order is in Dovecot's INBOX
		// Bob's receipt and report, Alice's report.
		end := benchWaitDelivered(b, env, map[string]int{benchAlice: box[benchAlice] + 1, benchBob: box[benchBob] + 2})
		b.StopTimer()

		// The in-process server has the mail in its mailbox before its answer reaches the sender: wait for
		// the sender's word on the last one.
		var st benchStages
		for wait := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			stages.mu.Lock()
			st.fetched, st.commit, st.accepted, st.resolve, st.reports, st.pictures = stages.fetched, stages.commit, stages.accepted, stages.resolve, stages.reports, stages.pictures
			stages.mu.Unlock()
			if !st.fetched.IsZero() && !st.commit.IsZero() && len(st.accepted) >= 3 {
				break
			}
			if time.Now().After(wait) {
				b.Fatalf("stages: fetched %v, committed %v, %d accepted", st.fetched, st.commit, len(st.accepted))
			}
		}
		tTurn += end.Sub(t0)
		tDetect += st.fetched.Sub(t0)
		tCommit += st.commit.Sub(st.fetched)
		tResolve += st.resolve
		tRender += st.reports
		tDraw += st.pictures
		lastAccepted := st.accepted[len(st.accepted)-1]
		if lastAccepted.After(end) {
			lastAccepted = end
		}
		tSMTP += lastAccepted.Sub(st.commit)
		tDelivery += end.Sub(lastAccepted)

		// Raw: the same mails the turn sent (bob's receipt and both reports), after a client polling the
		// raw mailbox as often as the daemon does has seen the order, fetched it and moved it, sent over an
		// SMTP connection already open, to the same players' mailboxes.
		var msgs []*gomail.Msg
		for _, it := range waitSent(game, 2) {
			if !before[it.ID] {
				it.MessageID = "raw." + it.MessageID
				msgs = append(msgs, benchGoMail(b, it.OutMail))
			}
		}
		if len(msgs) != 3 {
			b.Fatalf("the turn sent %d mails, want bob's receipt and two reports", len(msgs))
		}
		if err := env.settle(); err != nil {
			b.Fatalf("%v\n%s", err, env.logs())
		}
		raw, err := benchRawTurn(ctx, env, last, msgs, hotPoll, map[string]int{benchAlice: 1, benchBob: 2})
		if err != nil {
			b.Fatalf("raw turn: %v\n%s", err, env.logs())
		}
		rTurn += raw.total
		rDetect += raw.detect
		rFetch += raw.fetch
		rSMTP += raw.smtp
		rDelivery += raw.delivery
		if err := env.settle(); err != nil {
			b.Fatalf("%v\n%s", err, env.logs())
		}
		b.StartTimer()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(iter) }
	// The order's way: detect (in Dovecot's INBOX until the intake hands it to the handler: the poll,
	// the fetch), commit (the handler: read, check, resolve the round, render the reports, commit; of
	// which resolve-ms is the ruleset and render-ms the reports), smtp (the commit until the SMTP server
	// took the last mail, of which draw-ms drawing and storing the reports' pictures after the commit),
	// delivery (until the last is in its player's mailbox).
	b.ReportMetric(ms(tTurn), "ms/turn")
	b.ReportMetric(ms(tDetect), "detect-ms")
	b.ReportMetric(ms(tCommit), "commit-ms")
	b.ReportMetric(ms(tResolve), "resolve-ms")
	b.ReportMetric(ms(tRender), "render-ms")
	b.ReportMetric(ms(tDraw), "draw-ms")
	b.ReportMetric(ms(tSMTP), "smtp-ms")
	b.ReportMetric(ms(tDelivery), "delivery-ms")
	b.ReportMetric(ms(rTurn), "raw-ms/turn")
	b.ReportMetric(ms(rDetect), "raw-detect-ms")
	b.ReportMetric(ms(rFetch), "raw-fetch-ms")
	b.ReportMetric(ms(rSMTP), "raw-smtp-ms")
	b.ReportMetric(ms(rDelivery), "raw-delivery-ms")
	b.ReportMetric(ms(tTurn)/ms(rTurn), "ratio")
	benchReportLoad(b)
}

// benchRawParts is where the raw turn's time went.
type benchRawParts struct{ detect, fetch, smtp, delivery, total time.Duration }

// benchRawTurn is the least a turn's mail path can cost with the same servers: an IMAP client polling the
// raw mailbox with a NOOP every poll (the daemon's hot poll), already logged in; the order delivered;
// the client hearing of it (EXISTS), fetching it and moving it; then go-mail sending msgs over a
// connection opened beforehand (STARTTLS, AUTH); until the last is in its mailbox (want: new messages by
// login). Each part runs from the end of the one before; total from the delivery.
func benchRawTurn(ctx context.Context, env *benchEnv, order []byte, msgs []*gomail.Msg, poll time.Duration, want map[string]int) (p benchRawParts, err error) {
	wake := make(chan struct{}, 1)
	c, err := imapclient.DialTLS(env.imapAddr, &imapclient.Options{TLSConfig: env.tls(env.imapHost),
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		}}})
	if err != nil {
		return p, err
	}
	defer c.Close()
	if err := c.Login(benchRaw, env.passwords[benchRaw]).Wait(); err != nil {
		return p, err
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return p, err
	}
	sm, err := benchRawClient(env)
	if err != nil {
		return p, err
	}
	if err := sm.DialWithContext(ctx); err != nil {
		return p, err
	}
	defer sm.Close()
	box := map[string]int{}
	for login, n := range want {
		box[login] = env.delivered(login) + n
	}
	select {
	case <-wake: // the EXISTS of SELECT
	default:
	}
	// The poller runs from before the delivery, so its phase against the delivery is as random as the
	// daemon's.
	seen := make(chan time.Time, 1)
	stop := make(chan struct{})
	pollErr := make(chan error, 1)
	go func() {
		tick := time.NewTicker(poll)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				pollErr <- nil
				return
			case <-tick.C:
			}
			if err := c.Noop().Wait(); err != nil {
				pollErr <- err
				return
			}
			select {
			case <-wake:
				seen <- time.Now()
				pollErr <- nil
				return
			default:
			}
		}
	}()
	// A random part of a poll interval too, or the delivery would always come at the same point of the
	// poller's cycle (the daemon's poller has run for long, out of step with the benchmark).
	time.Sleep(100*time.Millisecond + rand.N(poll))

	if err := env.deliver(benchRaw, [][]byte{order}); err != nil {
		close(stop)
		return p, err
	}
	t0 := time.Now()
	var tSeen time.Time
	select {
	case tSeen = <-seen:
	case <-time.After(time.Minute):
		close(stop)
		return p, errors.New("no EXISTS within a minute of the delivery")
	}
	if err := <-pollErr; err != nil {
		return p, err
	}
	p.detect = tSeen.Sub(t0)
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.UIDSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return p, err
	}
	if len(bufs) != 1 || len(bufs[0].FindBodySection(section)) == 0 {
		return p, fmt.Errorf("raw turn: fetched %d messages, want the order", len(bufs))
	}
	if _, err := c.Move(imap.UIDSetNum(bufs[0].UID), "Processed").Wait(); err != nil {
		return p, err
	}
	tFetched := time.Now()
	p.fetch = tFetched.Sub(tSeen)
	if err := sm.Send(msgs...); err != nil {
		return p, err
	}
	tSent := time.Now()
	p.smtp = tSent.Sub(tFetched)
	deadline := time.Now().Add(time.Minute)
	for {
		done := true
		for login, n := range box {
			if env.delivered(login) < n {
				done = false
			}
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			return p, errors.New("the raw turn's mails were not delivered within a minute")
		}
		time.Sleep(200 * time.Microsecond)
	}
	end := time.Now()
	p.delivery = end.Sub(tSent)
	p.total = end.Sub(t0)
	c.Logout().Wait()
	return p, nil
}

// timedHandler wraps the daemon's handler to count and time it, keeping its batch path (the daemon
// commits a fetched batch in one transaction) and its Prepare (which the intake runs as each message
// arrives, on the goroutine reading the mailbox: timed apart, in prepared).
type timedHandler struct {
	h         mailer.BatchHandler
	processed *int
	elapsed   *time.Duration
	prepared  atomic.Int64 // nanoseconds in Prepare
	batches   int          // calls to Handle and HandleBatch
	idle      bool         // file every mail as processed without handing it to h
}

func (t *timedHandler) Prepare(m mailer.Message) any {
	p, ok := t.h.(mailer.Preparer)
	if !ok || t.idle {
		return nil
	}
	t0 := time.Now()
	out := p.Prepare(m)
	t.prepared.Add(int64(time.Since(t0)))
	return out
}

func (t *timedHandler) Handle(ctx context.Context, m mailer.Message) mailer.Disposition {
	return t.HandleBatch(ctx, []mailer.Message{m})[0]
}

func (t *timedHandler) HandleBatch(ctx context.Context, ms []mailer.Message) []mailer.Disposition {
	t0 := time.Now()
	t.batches++
	var ds []mailer.Disposition
	if t.idle {
		ds = make([]mailer.Disposition, len(ms))
		for i := range ds {
			ds[i] = mailer.Processed
		}
	} else if len(ms) == 1 {
		ds = []mailer.Disposition{t.h.Handle(ctx, ms[0])}
	} else {
		ds = t.h.HandleBatch(ctx, ms)
	}
	*t.elapsed += time.Since(t0)
	for _, d := range ds {
		if d == mailer.Processed {
			*t.processed++
		}
	}
	return ds
}
