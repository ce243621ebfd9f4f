package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPoisonMailDoesNotStopTheInbox (issue 10, defects 1 and 2) sends the real daemon, through the in-process
// IMAP server, mails that used to stop the inbox for good — a Message-ID of 40 KiB, a bare CR in the From
// address and the Message-ID, a RESEND named twice in one block — and one whose handling fails by construction
// (a moderator's template that cannot render for it). Each is answered or filed, the permanent failure lands in
// Sortie/Failed with a short answer to its sender, and the order behind them all is read and receipted.
func TestPoisonMailDoesNotStopTheInbox(t *testing.T) {
	w := newWorld(t)
	// The permanent fault: a refusal template that fails to render for a mail naming game "poison".
	tdir := filepath.Join(w.dir, "templates")
	os.MkdirAll(tdir, 0o755)
	orig, err := os.ReadFile(filepath.Join("..", "..", "templates", "files", "refusal.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	subject, body, _ := strings.Cut(string(orig), "\n")
	os.WriteFile(filepath.Join(tdir, "refusal.tmpl"), []byte(subject+"\n"+`{{if eq .Game "poison"}}{{index .Game 99}}{{end}}`+body), 0o644)
	cfg, _ := os.ReadFile(w.cfg)
	os.WriteFile(w.cfg, append(cfg, []byte("templates: "+tdir+"\n")...), 0o644)

	w.run("game", "new", "--config", w.cfg, "--id", "e2e", w.scenario)
	d := w.start("")
	aSecret := secretOf(t, w.waitMails("alice@players.test", "welcome", 1)[0])
	w.waitMails("bob@players.test", "welcome", 1)
	w.stop(d) // the poison goes in while the daemon is down, so it meets all of it in one pass

	deliver := func(raw string) {
		t.Helper()
		if err := w.imap.Deliver("sortie", []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	date := time.Now().Format(time.RFC1123Z)
	long := strings.Repeat("x", 40<<10)
	deliver(fmt.Sprintf("From: eve@evil.test\r\nTo: sortie@sortie.test\r\nSubject: long\r\nMessage-ID: <%s@evil.test>\r\nDate: %s\r\n%s\r\nGAME e2e TURN 1 SECRET guess\r\nEND\r\n", long, date, plainHeaders()))
	deliver(fmt.Sprintf("From: ev\re@evil.test\r\nTo: sortie@sortie.test\r\nSubject: cr\r\nMessage-ID: <c\rr@evil.test>\r\nDate: %s\r\n%s\r\nGAME e2e TURN 1 SECRET guess\r\nEND\r\n", date, plainHeaders()))
	deliver(fmt.Sprintf("From: %s@evil.test\r\nTo: sortie@sortie.test\r\nSubject: long from\r\nMessage-ID: <lf@evil.test>\r\nDate: %s\r\n%s\r\nhello\r\n", long, date, plainHeaders()))
	w.send("mallory@evil.test", "sortie@sortie.test", "poison@evil.test", plainHeaders(), "GAME POISON TURN 1 SECRET x\nHANS: 6\nEND\n")
	w.send("alice@players.test", "sortie@sortie.test", "resend@players.test", plainHeaders(), fmt.Sprintf("GAME e2e SECRET %s\nRESEND\nRESEND\nEND\n", aSecret))
	w.send("alice@players.test", "sortie@sortie.test", "order@players.test", plainHeaders(), fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nRED1: 6\nRED2: 6\nEND\n", aSecret))

	d = w.start("")
	r := w.waitMails("alice@players.test", "receipt", 2)
	if !strings.Contains(r[len(r)-1].Text+r[0].Text, "RED2: 6") {
		t.Errorf("the order behind the poison was not read:\n%s", r[len(r)-1].Text)
	}
	w.waitMails("mallory@evil.test", "could not be handled", 1)
	var failed []string
	w.waitFor("the poison mail alone in Sortie/Failed and an empty inbox", func() bool {
		list, err := w.imap.List("sortie", "Sortie/Failed")
		inbox, _ := w.imap.Messages("sortie", "INBOX")
		if err != nil || len(list) != 1 || len(inbox) != 0 {
			return false
		}
		for _, m := range list {
			failed = append(failed, string(m.Raw))
		}
		return true
	})
	if !strings.Contains(failed[0], "poison@evil.test") {
		t.Errorf("the wrong mail was filed as failed:\n%.300s", failed[0])
	}
	w.stop(d)
	w.nothingPending() // a second copy still to be sent would be there
	// The last report is the welcome: it comes once more, not twice.
	if resent := len(w.mailsTo("alice@players.test", "welcome")) - 1; resent != 1 {
		t.Errorf("RESEND twice in one block: want the report once more, got %d", resent)
	}
	if n := len(w.mailsTo("mallory@evil.test", "")); n != 1 {
		t.Errorf("the sender of the failed mail: %d answers", n)
	}
	for _, m := range w.mailsTo("mallory@evil.test", "") {
		if strings.Contains(m.Text, "e2e") || strings.Contains(strings.ToLower(m.Text), "poison") {
			t.Errorf("the answer to a failed mail must name no game:\n%s", m.Text)
		}
	}
	logs, _ := os.ReadFile(filepath.Join(w.dir, "daemon.log"))
	if !strings.Contains(string(logs), "Failed folder") {
		t.Errorf("the reason must be logged:\n%s", tail(logs))
	}
	if strings.Count(string(logs), "could not commit a message") > 0 {
		t.Errorf("a poison mail was retried:\n%s", tail(logs))
	}
}

func tail(b []byte) string {
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// TestForgedFloodThroughTheDaemon (issue 10, defect 5): mail forged in a player's name, beyond the hourly
// limit, does not lock her out; her game's moderator gets one alert.
func TestForgedFloodThroughTheDaemon(t *testing.T) {
	w := newWorld(t)
	cfg, _ := os.ReadFile(w.cfg)
	os.WriteFile(w.cfg, []byte(strings.Replace(string(cfg), "max_mails_per_hour: 500", "max_mails_per_hour: 5", 1)), 0o644)
	scn, _ := os.ReadFile(w.scenario)
	os.WriteFile(w.scenario, append(scn, []byte("  moderator: mod@players.test\n  moderator_secret: mod-secret-00001\n")...), 0o644)
	w.run("game", "new", "--config", w.cfg, "--id", "e2e", w.scenario)
	d := w.start("")
	aSecret := secretOf(t, w.waitMails("alice@players.test", "welcome", 1)[0])
	for i := range 12 {
		w.send("alice@players.test", "sortie@sortie.test", fmt.Sprintf("forged-%d@evil.test", i), plainHeaders(), "GAME e2e TURN 1 SECRET guess\nRED1: 0\nEND\n")
	}
	w.send("alice@players.test", "sortie@sortie.test", "real@players.test", plainHeaders(), fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nRED1: 6\nRED2: 6\nEND\n", aSecret))
	w.waitMails("alice@players.test", "receipt", 1)
	alerts := func() int {
		n := 0
		for _, m := range w.mailsTo("mod@players.test", "") {
			if strings.Contains(m.Text, "could not be matched to a player") {
				n++
			}
		}
		return n
	}
	w.waitFor("the flood alert to the moderator", func() bool { return alerts() > 0 })
	w.stop(d)
	w.nothingPending() // a second alert still to be sent would be there
	if n := alerts(); n != 1 {
		t.Errorf("want one flood alert to the moderator, got %d", n)
	}
}
