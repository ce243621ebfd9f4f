package main

// The game's life through real mail: the real sortie binary against Dovecot and Postfix, a moderator
// and two players by mail, and the archivist's export and verify. It pauses a game whose orders then
// all come in, resumes it, rolls a turn back, asks for reports again, replaces a player, and plays the
// game to its end; each answer is read from the players' own Dovecot mailboxes.

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sortie/mailer/realmail"
	"sortie/rules/afd"
)

// lifeUsers are the mailboxes realLife uses, beside the others of TestRealMail.
var lifeUsers = []string{"life@sortie.test", "lmod@players.test", "lalice@players.test", "lbob@players.test", "lcarol@players.test"}

var webLinkRE = regexp.MustCompile(`(http://127\.0\.0\.1:\d+/p/life/[0-9a-f]{32}/)`)

func realLife(t *testing.T, srv *realmail.Servers, dir string) {
	const svc, mod, alice, bob, carol = "life@sortie.test", "lmod@players.test", "lalice@players.test", "lbob@players.test", "lcarol@players.test"
	d := newRealDaemon(t, srv, dir, svc, svc, "starttls")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	webAddr := ln.Addr().String()
	ln.Close()
	cfg, err := os.ReadFile(d.cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg = []byte(strings.Replace(string(cfg), "log_level: warn", "log_level: info", 1))
	cfg = fmt.Appendf(cfg, "web: {listen: \"%s\", base_url: \"http://%s/\"}\n", webAddr, webAddr)
	if err := os.WriteFile(d.cfg, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = regexp.MustCompile(`(?m)^turns: \d+$`).ReplaceAll(scn, []byte("turns: 3"))
	scn = fmt.Appendf(scn, "\nservice:\n  moderator: %s\n  moderator_secret: life-mod-secret-0042\n  seed: %s\n  players:\n    alice: {email: %s}\n    bob: {email: %s}\n", mod, realSeed, alice, bob)
	scenario := filepath.Join(dir, "channel.yaml")
	if err := os.WriteFile(scenario, scn, 0o644); err != nil {
		t.Fatal(err)
	}
	d.run("game", "new", "--id", "life", scenario)
	d.start()

	n := 0
	submit := func(from, to, subject, body string) {
		t.Helper()
		n++
		id := fmt.Sprintf("life-%d@players.test", n)
		if err := srv.Submit(from, from, []string{to}, realMessage(from, to, id, subject, "text/plain; charset=utf-8", body)); err != nil {
			t.Fatal(err)
		}
	}
	answers := 0
	command := func(lines ...string) realMail {
		t.Helper()
		answers++
		submit(mod, svc, "commands", "GAME life SECRET life-mod-secret-0042\n"+strings.Join(lines, "\n")+"\nEND\n")
		got := waitRealMails(t, srv, mod, "your commands", answers)
		return got[len(got)-1]
	}
	// reply sends the block of a player's latest mail with that subject back to its reply address.
	reply := func(player, subject string) {
		t.Helper()
		m := waitRealMails(t, srv, player, subject, 1)
		last := m[len(m)-1]
		block := realOrderBlock(last.Text)
		if block == "" {
			t.Fatalf("no order block in %s's %q:\n%s", player, last.Subject, last.Text)
		}
		submit(player, last.ReplyTo, "Re: "+last.Subject, block)
	}
	welcomeA := waitRealMails(t, srv, alice, "welcome", 1)[0]
	waitRealMails(t, srv, bob, "welcome", 1)

	// PAUSE holds the turn: both players' orders come in, nothing resolves, and the receipts say why.
	ans := command("PAUSE")
	if !strings.Contains(ans.Text, "PAUSE: done") {
		t.Fatalf("PAUSE:\n%s", ans.Text)
	}
	reply(alice, "welcome")
	reply(bob, "welcome")
	for _, p := range []string{alice, bob} {
		r := waitRealMails(t, srv, p, "receipt", 1)[0]
		if strings.Contains(r.Text, "being resolved now") || !strings.Contains(r.Text, "paused the game") {
			t.Errorf("%s's receipt while paused:\n%s", p, r.Text)
		}
	}
	time.Sleep(2 * time.Second) // the clock ticks every second: a paused game must not resolve
	if got := countSubject(t, srv, alice, "turn 1 report", 0); got != 0 {
		t.Fatal("a paused game resolved its turn")
	}
	if out := d.run("game", "list"); !strings.Contains(out, "paused") {
		t.Errorf("game list while paused:\n%s", out)
	}
	if modMails := countSubject(t, srv, mod, ": pause", 0); modMails != 0 {
		t.Errorf("PAUSE by mail answered the moderator twice (%d notices)", modMails)
	}
	command("RESUME")
	waitRealMails(t, srv, alice, "turn 1 report", 1)
	waitRealMails(t, srv, bob, "turn 1 report", 1)

	// Turn 2, then ROLLBACK TURN 2: the position mails, RESEND, and the export that keeps the timeline.
	reply(alice, "turn 1 report")
	reply(bob, "turn 1 report")
	waitRealMails(t, srv, alice, "turn 2 report", 1)
	if ans := command("ROLLBACK TURN 2"); !strings.Contains(ans.Text, "ROLLBACK 2: done") {
		t.Fatalf("ROLLBACK:\n%s", ans.Text)
	}
	pos := waitRealMails(t, srv, alice, "position for turn 2", 1)[0]
	if !strings.Contains(pos.Text, "State commitment of this position") || strings.Contains(pos.Text, "WHAT HAPPENED") ||
		!webLinkRE.MatchString(pos.Text) || !strings.Contains(string(pos.Raw), "image/png") {
		t.Errorf("the position mail after the rollback:\n%s", pos.Text)
	}
	submit(alice, pos.ReplyTo, "resend", "GAME life\nRESEND\nRESEND TURN 2\nEND\n")
	r := waitRealMails(t, srv, alice, "receipt", 3)
	last := r[len(r)-1].Text
	if !strings.Contains(last, `"[life] position for turn 2 for Alice" is on its way again`) ||
		!strings.Contains(last, "RESEND TURN 2: that round was played, then rolled back by the moderator on") {
		t.Errorf("the receipt for RESEND after the rollback:\n%s", last)
	}
	for _, m := range realMails(t, srv, alice, "INBOX") {
		if strings.Contains(m.Subject, "turn 2 report") && m.InReplyTo != "" {
			t.Errorf("RESEND sent the discarded turn 2 report again: %q", m.Subject)
		}
	}
	exp := filepath.Join(dir, "export")
	d.run("export", "life", "--out", exp)
	verify, _ := d.command("verify", exp).CombinedOutput()
	if out := string(verify); !strings.Contains(out, "timeline 1, round 2: ok") ||
		!strings.Contains(out, "rolled back: turn 2 was played, then rolled back by the moderator") || !strings.Contains(out, "verified:") {
		t.Errorf("verify after the rollback:\n%s", out)
	}

	// REPLACE bob by carol: bob's web link answers the 404 of any wrong link, carol's works.
	bobLink := webLinkRE.FindString(waitRealMails(t, srv, bob, "position for turn 2", 1)[0].Text)
	if code := httpStatus(t, bobLink); code != http.StatusOK {
		t.Fatalf("bob's link before REPLACE: %d", code)
	}
	d.run("game", "replace", "life", "bob", carol)
	carolWelcome := waitRealMails(t, srv, carol, "welcome", 1)[0]
	carolLink := webLinkRE.FindString(carolWelcome.Text)
	if carolLink == "" || carolLink == bobLink {
		t.Fatalf("carol's welcome carries the link %q (bob's was %q)", carolLink, bobLink)
	}
	if code := httpStatus(t, bobLink); code != http.StatusNotFound {
		t.Errorf("bob's link after REPLACE: %d, want 404", code)
	}
	if code := httpStatus(t, carolLink); code != http.StatusOK {
		t.Errorf("carol's link: %d", code)
	}

	// Played to the end: the game-over mail's reason and numbering, and the list's.
	reply(alice, "position for turn 2")
	reply(carol, "welcome")
	waitRealMails(t, srv, alice, "turn 2 report", 2)
	reply(alice, "turn 2 report")
	reply(carol, "turn 2 report")
	over := waitRealMails(t, srv, alice, "game over", 1)[0]
	if !strings.Contains(over.Text, "over after turn 3") || strings.Contains(over.Text, "no enemy is left") {
		t.Errorf("the game-over mail:\n%s", over.Text)
	}
	if out := d.run("game", "list"); !strings.Contains(out, "over") || !strings.Contains(out, "after turn 3") {
		t.Errorf("game list of the finished game:\n%s", out)
	}
	if out := d.run("game", "status", "life"); strings.Contains(out, "missing") || !strings.Contains(out, "rolled back: turn 2 was played") {
		t.Errorf("game status of the finished game:\n%s", out)
	}
	d.stop()

	// The daemon logged each resolved round, with what triggered it.
	var resolved []map[string]any
	for _, line := range strings.Split(d.stderr.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["message"] == "round resolved" {
			resolved = append(resolved, m)
		}
	}
	if len(resolved) != 4 || resolved[0]["trigger"] != "all orders in" || resolved[0]["game"] != "life" {
		t.Errorf("the daemon's 'round resolved' lines: %v", resolved)
	}
	if welcomeA.Subject == "" {
		t.Error("no welcome")
	}
}

// countSubject counts the mails in user's INBOX, from the skip-th on, whose subject holds subject.
func countSubject(t *testing.T, srv *realmail.Servers, user, subject string, skip int) int {
	t.Helper()
	n := 0
	for i, m := range realMails(t, srv, user, "INBOX") {
		if i >= skip && strings.Contains(m.Subject, subject) {
			n++
		}
	}
	return n
}

func httpStatus(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	res.Body.Close()
	return res.StatusCode
}
