package archive

import (
	"path/filepath"
	"regexp"
	"sortie/mailer/outmail"
	"sortie/storage"
	"strings"
	"testing"
)

// An archive withholds every seat's secret however short (a game made before secrets had a minimum
// length may have one of two letters) and whatever word follows a SECRET keyword, in the mails and in
// the scenario, comments included.
func TestArchiveRedactsShortSecrets(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(1)
	rec, err := a.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string]string{"alice": "zq", "bob": "Q7"}
	for i := range rec.Game.Seats {
		rec.Game.Seats[i].Secret = secrets[rec.Game.Seats[i].Player]
	}
	rec.Game.ModSecret = "m9"
	rec.Scenario = strings.Replace(rec.Scenario, `secret: "lark-kite-wren-41"`, `secret: "zq"`, 1)
	rec.Scenario = strings.Replace(rec.Scenario, `secret: wren-owl-raven-17`, `secret: Q7`, 1)
	rec.Scenario += "# alice plays with zq, bob with q7; the moderator signs with m9\n"
	rec.Mails = append(rec.Mails, storage.Outgoing{OutMail: storage.OutMail{Mail: outmail.Mail{From: "sortie@sortie.test", To: "alice@players.test",
		MessageID: "old@sortie.test", Subject: "[g1] turn 1 report for Alice (zq)", Created: rec.Read,
		Body: "GAME g1 TURN 2 SECRET zq\nRED1: 6\nEND\nyour secret is zq. Moderator: GAME g1 SECRET m9\nmistyped: SECRET: zqx9\nbob: Q7.\n",
		Parts: []outmail.Part{{Filename: "orders zq.txt", ContentType: "text/plain", Data: []byte("GAME g1 SECRET zq\n")},
			{Filename: "map.png", ContentType: "image/png", Inline: true, Data: []byte("\x89PNG")}}}, Game: "g1", Kind: "report"}})
	ar, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "archive")
	if err := ar.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	word := regexp.MustCompile(`(?i)(^|[^\w-])(zq|q7|m9|zqx9)($|[^\w-])`)
	for _, m := range ar.Mails {
		if loc := word.FindStringIndex(m.Subject + "\n" + m.Body); loc != nil {
			t.Errorf("mail %q shows a secret at %v:\n%s", m.Subject, loc, m.Body)
		}
		for _, p := range m.Parts {
			if p.ContentType == "text/plain" && word.Match(p.Data) || word.MatchString(p.Filename) {
				t.Errorf("mail %q: part %s shows a secret: %q", m.Subject, p.Filename, p.Data)
			}
		}
	}
	// The HTML alternative is made from the text as withheld.
	last := ar.Mails[len(ar.Mails)-1]
	if html, err := outmail.HTML(last.Mail); err != nil || word.MatchString(html) || !strings.Contains(html, "secret-withheld") {
		t.Errorf("the HTML shows a secret (%v):\n%s", err, html)
	}
	if word.MatchString(ar.Scenario) {
		t.Errorf("the scenario shows a secret:\n%s", ar.Scenario)
	}
	// The pictures' base64 is left out of the mbox's check: two letters turn up in it by chance.
	pictures := regexp.MustCompile(`(?m)^Content-Type: image/[^\n]*\n(?:[^\n]+\n)*\n(?:[A-Za-z0-9+/=]+\r?\n)+`)
	for _, name := range []string{fileScenario, fileMbox} {
		b := mustRead(t, dir, name)
		if name == fileMbox {
			if n := len(pictures.FindAll(b, -1)); n == 0 {
				t.Errorf("the mbox holds no picture: the pattern that leaves them out misses")
			}
			b = pictures.ReplaceAll(b, nil)
		}
		if word.Match(b) {
			t.Errorf("%s shows a secret: %q", name, word.Find(b))
		}
	}
	if !strings.Contains(ar.Scenario, "alice plays with secret-") {
		t.Errorf("the comment is not redacted as expected:\n%s", ar.Scenario)
	}
}
