package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"sortie/cmd/sortie/internal/demo"
	"sortie/mailer/inmail"
	"sortie/mailer/localmail"
	"sortie/rules/afd"
	"sortie/storage"
)

// world is a mail world for end-to-end tests: real IMAP and SMTP protocol servers in this process on
// loopback, the real sortie binary as the daemon, and the test as the players.
type world struct {
	t        *testing.T
	dir      string
	imap     *localmail.IMAPServer
	smtp     *localmail.SMTPServer
	cfg, db  string
	scenario string
}

const e2eSeed = "5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e5e2e"

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, dir: t.TempDir()}
	var err error
	if w.imap, err = localmail.StartIMAP(localmail.IMAPOptions{Users: map[string]string{"sortie": "pw"}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.imap.Close() })
	deliver := func(from string, to []string, raw []byte) error {
		for _, rcpt := range to {
			if r := strings.ToLower(rcpt); strings.HasPrefix(r, "sortie@") || strings.HasPrefix(r, "sortie+") {
				if err := w.imap.Deliver("sortie", raw); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if w.smtp, err = localmail.StartSMTP(localmail.SMTPOptions{Domain: "sortie.test", Username: "sortie", Password: "pw", OnMessage: deliver}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.smtp.Close() })
	w.db = filepath.Join(w.dir, "sortie.db")
	w.cfg = filepath.Join(w.dir, "sortie.yaml")
	host, port := demo.SplitHostPort(w.smtp.Addr())
	cfg := fmt.Sprintf(`database: %s
address: sortie@sortie.test
name: Sortie test
resolve_delay: 0s
log_level: info
max_mails_per_hour: 500
imap: {addr: "%s", tls: none, username: sortie, password_env: E2E_IMAP_PW, poll: 1s}
smtp: {host: %s, port: %d, tls: none, username: sortie, password: pw}
`, w.db, w.imap.Addr(), host, port)
	os.WriteFile(w.cfg, []byte(cfg), 0o644)
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf("\nservice:\n  seed: %s\n  players:\n    alice: {email: alice@players.test, tz: Europe/London}\n    bob: {email: bob@players.test}\n", e2eSeed))...)
	w.scenario = filepath.Join(w.dir, "channel.yaml")
	os.WriteFile(w.scenario, scn, 0o644)
	return w
}

func (w *world) run(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "E2E_IMAP_PW=pw")
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("sortie %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (w *world) start(crash string) *exec.Cmd {
	w.t.Helper()
	cmd := exec.Command(binary, "serve", "--config", w.cfg)
	cmd.Env = append(os.Environ(), "E2E_IMAP_PW=pw")
	if crash != "" {
		cmd.Env = append(cmd.Env, "SORTIE_CRASH="+crash)
	}
	logf, err := os.OpenFile(filepath.Join(w.dir, "daemon.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		w.t.Fatal(err)
	}
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd
}

func (w *world) stop(cmd *exec.Cmd) {
	w.t.Helper()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			w.t.Fatalf("the daemon did not stop cleanly: %v", err)
		}
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		w.t.Fatal("the daemon did not stop on SIGTERM")
	}
}

// mail is one message the service sent, parsed.
type mail struct {
	To, Subject, Text, MessageID, ReplyTo string
}

func (w *world) sent() []mail {
	var out []mail
	for _, e := range w.smtp.Received() {
		m, err := inmail.Parse(e.Raw)
		if err != nil {
			w.t.Fatal(err)
		}
		for _, to := range e.To {
			out = append(out, mail{To: strings.ToLower(to), Subject: m.Subject, Text: m.Text, MessageID: m.MessageID, ReplyTo: demo.ReplyAddress(e.Raw, "")})
		}
	}
	return out
}

func (w *world) mailsTo(addr, subject string) []mail {
	var out []mail
	for _, m := range w.sent() {
		if m.To == addr && strings.Contains(m.Subject, subject) {
			out = append(out, m)
		}
	}
	return out
}

// turnMails counts the turn reports and game-over mails addr has received.
func (w *world) turnMails(addr string) int {
	return len(w.mailsTo(addr, "report")) + len(w.mailsTo(addr, "game over"))
}

// waitMails waits until addr has received n mails whose subject contains subject (waitFor: no bound but
// a hang guard of minutes).
func (w *world) waitMails(addr, subject string, n int) []mail {
	w.t.Helper()
	var got []mail
	w.waitFor(fmt.Sprintf("%s to get %d mails about %q", addr, n, subject), func() bool {
		got = w.mailsTo(addr, subject)
		return len(got) >= n
	})
	return got
}

func (w *world) send(from, to, messageID string, headers string, body string) {
	w.t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nMessage-ID: <%s>\r\nDate: %s\r\n%s\r\n%s", from, to, messageID,
		time.Now().Format(time.RFC1123Z), headers, strings.ReplaceAll(body, "\n", "\r\n"))
	if err := w.imap.Deliver("sortie", []byte(raw)); err != nil {
		w.t.Fatal(err)
	}
}

func plainHeaders() string { return "Content-Type: text/plain; charset=utf-8\r\n" }

var secretRE = regexp.MustCompile(`Your secret for this game is (\S+)\.`)

func secretOf(t *testing.T, welcome mail) string {
	m := secretRE.FindStringSubmatch(welcome.Text)
	if m == nil {
		t.Fatalf("no secret in the welcome mail:\n%s", welcome.Text)
	}
	return m[1]
}

func blockOf(text string) string { return demo.ExtractBlock(text) }

// TestEndToEndGameByMail plays a whole game through real IMAP and SMTP servers with the real daemon:
// plain, HTML-only, duplicate, malformed, late, wrong-turn, wrong-secret and reply-quoted mails.
func TestEndToEndGameByMail(t *testing.T) {
	w := newWorld(t)
	out := w.run("game", "new", "--config", w.cfg, "--id", "e2e", w.scenario)
	if !strings.Contains(out, "game e2e started") {
		t.Fatalf("game new: %s", out)
	}
	d := w.start("")
	aliceWelcome := w.waitMails("alice@players.test", "welcome", 1)[0]
	bobWelcome := w.waitMails("bob@players.test", "welcome", 1)[0]
	aSecret, bSecret := secretOf(t, aliceWelcome), secretOf(t, bobWelcome)
	// Moderator commands work while the daemon holds the database (through its socket).
	if st := w.run("game", "status", "--config", w.cfg, "e2e"); !strings.Contains(st, "round 1") || !strings.Contains(st, "missing RED1, RED2") {
		t.Errorf("game status while the daemon runs:\n%s", st)
	}
	if ls := w.run("game", "list", "--config", w.cfg); !strings.Contains(ls, "e2e") {
		t.Errorf("game list while the daemon runs:\n%s", ls)
	}
	w.run("game", "pause", "--config", w.cfg, "e2e")
	if st := w.run("game", "status", "--config", w.cfg, "e2e"); !strings.Contains(st, "PAUSED") || !strings.Contains(st, "round 1, paused") {
		t.Errorf("game pause:\n%s", st)
	}
	if ls := w.run("game", "list", "--config", w.cfg); !strings.Contains(ls, " paused ") || strings.Contains(ls, "running") {
		t.Errorf("game list shows a paused game as paused:\n%s", ls)
	}
	w.run("game", "resume", "--config", w.cfg, "e2e")
	// The pause and the resume are announced, each under a subject that says what it is.
	w.waitMails("alice@players.test", ": pause", 1)
	w.waitMails("alice@players.test", ": resume", 1)
	if !strings.Contains(aliceWelcome.ReplyTo, "sortie+") {
		t.Errorf("the welcome mail's Reply-To must be the player's token address: %q", aliceWelcome.ReplyTo)
	}

	// Alice: plain text.
	w.send("Alice <alice@players.test>", "sortie@sortie.test", "a1@players.test", plainHeaders(),
		fmt.Sprintf("Hello!\n\nGAME e2e TURN 1 SECRET %s\nRED1: 6 FIRE KURT\nRED2: 1 TL 4\nEND\n\nAlice\n", aSecret))
	r := w.waitMails("alice@players.test", "receipt", 1)[0]
	if !strings.Contains(r.Text, "RED1: 6 FIRE KURT") || !strings.Contains(r.Text, "STORED") || !strings.Contains(r.Text, "Still waiting for: Bob") {
		t.Errorf("alice's receipt:\n%s", r.Text)
	}
	if strings.Contains(r.Text, "KURT: ") || strings.Contains(r.Text, "HANS") {
		t.Errorf("a receipt must not show the other side's orders:\n%s", r.Text)
	}

	// Bob: HTML only, windows-1252, through his token address (no secret needed).
	html := "<html><body><p>Hallo</p><p>GAME e2e TURN 1<br>KURT: 5 HOLD<br>END</p></body></html>"
	w.send("Bob <bob@players.test>", bobWelcome.ReplyTo, "b1@players.test", "Content-Type: text/html; charset=windows-1252\r\n", html)
	r = w.waitMails("bob@players.test", "receipt", 1)[0]
	if !strings.Contains(r.Text, "KURT: 5 HOLD") || !strings.Contains(r.Text, "Still missing from you: HANS") {
		t.Errorf("bob's receipt for the HTML mail:\n%s", r.Text)
	}
	// The same mail again: nothing happens, no second receipt.
	w.send("Bob <bob@players.test>", bobWelcome.ReplyTo, "b1@players.test", "Content-Type: text/html; charset=windows-1252\r\n", html)
	// A malformed order: a positioned error, not stored.
	w.send("bob@players.test", "sortie@sortie.test", "b2@players.test", plainHeaders(),
		fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nHANS: 1 TRTR 4\nEND\n", bSecret))
	r = w.waitMails("bob@players.test", "receipt", 2)[1]
	if !strings.Contains(r.Text, "TR TR") || !strings.Contains(r.Text, "NOT STORED") {
		t.Errorf("the malformed order's receipt:\n%s", r.Text)
	}
	// A stranger, and a wrong secret: a refusal that says nothing about the game.
	w.send("mallory@evil.test", "sortie@sortie.test", "m1@evil.test", plainHeaders(), "GAME e2e TURN 1 SECRET guess\nHANS: 6\nEND\n")
	ref := w.waitMails("mallory@evil.test", "could not be matched", 1)[0]
	for _, secret := range []string{"Luftwaffe", "RAF", "HANS", "KURT", "alice", "bob", "Channel"} {
		if strings.Contains(ref.Text, secret) {
			t.Errorf("the refusal tells a stranger %q:\n%s", secret, ref.Text)
		}
	}
	// Bob's late last order completes the turn.
	w.send("bob@players.test", "sortie@sortie.test", "b3@players.test", plainHeaders(),
		fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nHANS: 6\nEND\n", bSecret))
	aRep := w.waitMails("alice@players.test", "turn 1 report", 1)[0]
	w.waitMails("bob@players.test", "turn 1 report", 1)
	if got := len(w.mailsTo("bob@players.test", "receipt")); got != 3 {
		t.Errorf("bob should have 3 receipts (the duplicate gets none), got %d", got)
	}

	// Turn 2. Alice replies Gmail-style: her block on top, the whole report quoted below, with its own
	// (now stale) block.
	quoted := "> " + strings.ReplaceAll(aRep.Text, "\n", "\n> ")
	w.send("alice@players.test", aRep.ReplyTo, "a2@players.test", plainHeaders(),
		fmt.Sprintf("GAME e2e TURN 2\nRED1: 6\nRED2: 6 HOLD\nEND\n\nOn Mon, 23 Nov 2026 at 10:00, Sortie <sortie@sortie.test> wrote:\n%s\n", quoted))
	r = w.waitMails("alice@players.test", "receipt", 2)[1]
	if !strings.Contains(r.Text, "RED2: 6 HOLD") || strings.Count(r.Text, "STORED.") != 2 {
		t.Errorf("the reply-quoted mail's receipt:\n%s", r.Text)
	}
	// Bob answers for the wrong turn: refused by name, nothing stored.
	w.send("bob@players.test", "sortie@sortie.test", "b4@players.test", plainHeaders(), fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nKURT: 5\nHANS: 6\nEND\n", bSecret))
	r = w.waitMails("bob@players.test", "receipt", 4)[3]
	if !strings.Contains(r.Text, "for turn 1, but the game is on turn 2") {
		t.Errorf("the wrong-turn receipt:\n%s", r.Text)
	}
	// The moderator renews bob's secret and reply address through the daemon's socket: one mail brings
	// him the new ones, and his old secret is refused from now on.
	if out := w.run("game", "renew", "--config", w.cfg, "e2e", "bob"); !strings.Contains(out, "bob has a new secret") {
		t.Errorf("game renew:\n%s", out)
	}
	renewed := w.waitMails("bob@players.test", "new secret", 1)[0]
	oldSecret := bSecret
	bSecret = secretOf(t, renewed)
	if bSecret == oldSecret || renewed.ReplyTo == bobWelcome.ReplyTo || !strings.Contains(renewed.ReplyTo, "sortie+") || !strings.Contains(renewed.Text, renewed.ReplyTo) {
		t.Errorf("the renewal mail (Reply-To %s):\n%s", renewed.ReplyTo, renewed.Text)
	}
	w.send("bob@players.test", "sortie@sortie.test", "b5@players.test", plainHeaders(), fmt.Sprintf("GAME e2e TURN 2 SECRET %s\nKURT: 5\nEND\n", oldSecret))
	w.waitMails("bob@players.test", "could not be matched", 1)

	// Play on with the ready-made blocks until the game ends.
	for round := 2; round <= 13; round++ {
		overA := w.mailsTo("alice@players.test", "game over")
		if len(overA) > 0 {
			break
		}
		for _, p := range []struct{ addr, secret string }{{"alice@players.test", aSecret}, {"bob@players.test", bSecret}} {
			reps := w.mailsTo(p.addr, fmt.Sprintf("turn %d report", round-1))
			if len(reps) == 0 {
				t.Fatalf("%s has no report for turn %d", p.addr, round-1)
			}
			block := blockOf(reps[0].Text)
			if p.addr == "alice@players.test" && round == 2 {
				continue // already sent
			}
			// The report's block has no secret: Alice replies to the report's Reply-To, which says who
			// she is; Bob writes to the service's own address and adds his secret to the GAME line.
			to := reps[0].ReplyTo
			if p.addr == "bob@players.test" {
				to = "sortie@sortie.test"
				block = strings.Replace(block, "\n", " SECRET "+p.secret+"\n", 1)
			}
			if strings.Contains(reps[0].Text, p.secret) {
				t.Errorf("the turn %d report to %s shows the secret", round-1, p.addr)
			}
			w.send(p.addr, to, fmt.Sprintf("%s-r%d", p.addr, round), plainHeaders(), block)
		}
		for _, addr := range []string{"alice@players.test", "bob@players.test"} {
			w.waitFor(fmt.Sprintf("turn %d resolved for %s", round, addr), func() bool {
				return len(w.mailsTo(addr, fmt.Sprintf("turn %d report", round))) > 0 || len(w.mailsTo(addr, "game over")) > 0
			})
		}
	}
	overA := w.waitMails("alice@players.test", "game over", 1)[0]
	w.waitMails("bob@players.test", "game over", 1)
	if !strings.Contains(overA.Text, e2eSeed) {
		t.Error("the last report must reveal the dice seed")
	}
	// Stop the daemon cleanly; what it had still to send would be left in its outbox.
	w.stop(d)
	w.nothingPending()

	// No mail was sent twice.
	seen := map[string]int{}
	for _, m := range w.sent() {
		seen[m.MessageID+" "+m.To]++
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("mail %s was sent %d times", id, n)
		}
	}
	checkReportsShowOnlyWhatWasSeen(t, w)
}

// checkReportsShowOnlyWhatWasSeen compares every report with the archived state of its turn: the enemy
// aircraft a report lists are exactly those the player's side had spotted, and nothing about them but
// position, facing, altitude and (once identified) type.
func checkReportsShowOnlyWhatWasSeen(t *testing.T, w *world) {
	db, err := storage.Open(w.db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var states []afd.State // states[r] = the state after round r (index 0 unused until filled)
	err = db.View(func(tx *storage.Tx) error {
		return tx.ForEach([]string{"archive", "e2e"}, func(k string, v []byte) error {
			var rec struct {
				Round       int             `json:"round"`
				StateBefore json.RawMessage `json:"state_before"`
			}
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			var st afd.State
			if err := json.Unmarshal(rec.StateBefore, &st); err != nil {
				return err
			}
			states = append(states, st)
			return nil
		})
	})
	if err != nil || len(states) < 2 {
		t.Fatalf("archive: %v (%d rounds)", err, len(states))
	}
	sides := map[string]string{"alice@players.test": "RAF", "bob@players.test": "Luftwaffe"}
	enemyLine := regexp.MustCompile(`(?m)^  ([A-Z0-9]+)\s+(\S+): hex \((-?\d+),(-?\d+)\) facing (\d+), ([\d,]+) ft$`)
	for addr, side := range sides {
		for r := 1; r < len(states); r++ {
			reps := w.mailsTo(addr, fmt.Sprintf("turn %d report", r))
			if len(reps) != 1 {
				t.Fatalf("%s got %d reports for turn %d", addr, len(reps), r)
			}
			text := reps[0].Text
			i, j := strings.Index(text, "ENEMY AIRCRAFT IN SIGHT"), strings.Index(text, "\nMAP")
			if i < 0 || j < i {
				t.Fatalf("report without an enemy section:\n%s", text)
			}
			section := text[i:j]
			after := states[r] // the state after round r is the state before round r+1
			want := map[string]bool{}
			for _, p := range after.Planes {
				if p.Side != side && p.InPlay() && after.Sight[side][p.Callsign].Spotted {
					want[p.Callsign] = true
				}
			}
			got := map[string]bool{}
			for _, m := range enemyLine.FindAllStringSubmatch(section, -1) {
				got[m[1]] = true
				p := after.Plane(m[1])
				if p == nil || p.Side == side {
					t.Errorf("turn %d, %s: %s is not an enemy", r, addr, m[1])
					continue
				}
				if m[2] != "unidentified" && !after.Sight[side][m[1]].Identified {
					t.Errorf("turn %d, %s: the type of %s is shown before it was identified", r, addr, m[1])
				}
			}
			for cs := range want {
				if !got[cs] {
					t.Errorf("turn %d, %s: spotted %s is missing from the report", r, addr, cs)
				}
			}
			for cs := range got {
				if !want[cs] {
					t.Errorf("turn %d, %s: the report shows %s, which %s had not spotted", r, addr, cs, side)
				}
			}
			if strings.Contains(section, "speed") || strings.Contains(section, "damage") || strings.Contains(section, "ammunition") {
				t.Errorf("turn %d, %s: the enemy section tells more than a pilot can see:\n%s", r, addr, section)
			}
		}
	}
}

func (w *world) waitExit(cmd *exec.Cmd) int {
	w.t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(hangGuard):
		w.t.Fatal("the daemon did not reach its crash point")
	}
	return 0
}

var hashRE = regexp.MustCompile(`State commitment after this turn: ([0-9a-f]{64})`)

// TestEndToEndCrashRecovery kills the daemon between fetching a mail and committing it, and between the
// commit and sending what it caused, and restarts it: no order is lost, no mail is sent twice, and the
// turn comes out exactly as in a run without crashes (invariants 1-3, docs/architecture.md).
func TestEndToEndCrashRecovery(t *testing.T) {
	turnOne := func(w *world, crashes bool) string {
		w.run("game", "new", "--config", w.cfg, "--id", "e2e", w.scenario)
		d := w.start("")
		aSecret := secretOf(t, w.waitMails("alice@players.test", "welcome", 1)[0])
		bSecret := secretOf(t, w.waitMails("bob@players.test", "welcome", 1)[0])
		w.stop(d)

		// Crash after fetching Alice's mail, before anything is committed.
		if crashes {
			d = w.start("after-fetch")
		} else {
			d = w.start("")
		}
		w.send("alice@players.test", "sortie@sortie.test", "a1@players.test", plainHeaders(),
			fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nRED1: 6 FIRE KURT\nRED2: 1 TL 4\nEND\n", aSecret))
		if crashes {
			if code := w.waitExit(d); code != 97 {
				t.Fatalf("the daemon exited %d, not at its crash point", code)
			}
			if n := len(w.mailsTo("alice@players.test", "receipt")); n != 0 {
				t.Fatalf("a receipt went out for a mail that was never committed")
			}
			d = w.start("")
		}
		w.waitMails("alice@players.test", "receipt", 1)
		w.stop(d)

		// Crash after committing Bob's mail, which completes the turn: the round is resolved and every
		// report queued in that commit, but the message is not yet moved and nothing is sent.
		if crashes {
			d = w.start("after-commit")
		} else {
			d = w.start("")
		}
		w.send("bob@players.test", "sortie@sortie.test", "b1@players.test", plainHeaders(),
			fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nKURT: 5 HOLD\nHANS: 6\nEND\n", bSecret))
		if crashes {
			if code := w.waitExit(d); code != 97 {
				t.Fatalf("the daemon exited %d, not at its crash point", code)
			}
			d = w.start("")
		}
		rep := w.waitMails("alice@players.test", "turn 1 report", 1)[0]
		w.waitMails("bob@players.test", "turn 1 report", 1)
		w.stop(d)
		w.nothingPending() // a duplicate still to be sent would be there
		if n := len(w.mailsTo("bob@players.test", "receipt")); n != 1 {
			t.Errorf("bob got %d receipts for one mail", n)
		}
		if n := len(w.mailsTo("alice@players.test", "turn 1 report")); n != 1 {
			t.Errorf("alice got %d turn 1 reports", n)
		}
		seen := map[string]bool{}
		for _, m := range w.sent() {
			key := m.MessageID + " " + m.To
			if seen[key] {
				t.Errorf("mail %s sent twice", key)
			}
			seen[key] = true
		}
		msgs, err := w.imap.Messages("sortie", "INBOX")
		if err != nil || len(msgs) != 0 {
			t.Errorf("the inbox should be empty after recovery: %d left (%v)", len(msgs), err)
		}
		m := hashRE.FindStringSubmatch(rep.Text)
		if m == nil {
			t.Fatalf("no state hash in the report:\n%s", rep.Text)
		}
		return m[1]
	}
	crashed := turnOne(newWorld(t), true)
	clean := turnOne(newWorld(t), false)
	if crashed != clean {
		t.Errorf("the turn came out differently after the crashes: %s vs %s", crashed, clean)
	}
}

// TestEndToEndCrashWithABacklog: 20 mails wait in the inbox when the daemon starts, so it holds them in
// its spool and moves them out of the inbox with one MOVE; it is killed as its handler begins, while the
// server may still be moving them. Restarted, it hands over what the spool holds: each mail gets one
// receipt, none is lost, and the inbox and the spool end empty (invariant 1, docs/architecture.md).
func TestEndToEndCrashWithABacklog(t *testing.T) {
	w := newWorld(t)
	w.run("game", "new", "--config", w.cfg, "--id", "e2e", w.scenario)
	d := w.start("")
	aSecret := secretOf(t, w.waitMails("alice@players.test", "welcome", 1)[0])
	w.stop(d)

	const n = 20
	for i := range n {
		w.send("alice@players.test", "sortie@sortie.test", fmt.Sprintf("a%d@players.test", i), plainHeaders(),
			fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nRED1: %d\nRED2: 1 TL 4\nEND\n", aSecret, 1+i%6))
	}
	d = w.start("after-fetch")
	if code := w.waitExit(d); code != 97 {
		t.Fatalf("the daemon exited %d, not at its crash point", code)
	}
	if got := len(w.mailsTo("alice@players.test", "receipt")); got != 0 {
		t.Fatalf("%d receipts went out for mail that was never committed", got)
	}
	d = w.start("")
	w.waitMails("alice@players.test", "receipt", n)
	w.stop(d)
	w.nothingPending() // a duplicate still to be sent would be there
	if got := len(w.mailsTo("alice@players.test", "receipt")); got != n {
		t.Errorf("alice got %d receipts for %d mails", got, n)
	}
	for _, box := range []string{"INBOX", "Rejected", "Sortie/Failed"} {
		if msgs, err := w.imap.Messages("sortie", box); err != nil || len(msgs) != 0 {
			t.Errorf("%s holds %d after recovery (%v)", box, len(msgs), err)
		}
	}
	if msgs, err := w.imap.Messages("sortie", "Processed"); err != nil || len(msgs) != n {
		t.Errorf("Processed holds %d, want %d (%v)", len(msgs), n, err)
	}
	logs, _ := os.ReadFile(filepath.Join(w.dir, "daemon.log"))
	if !bytes.Contains(logs, []byte("the spool holds from an earlier pass")) {
		t.Errorf("the restarted daemon did not hand over from the spool; log:\n%s", logs)
	}
}
