package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/mailer/outmail"
	"sortie/parser"
	"sortie/rules/afd"
	"sortie/rules/dice"
	"sortie/storage"
	"sortie/templates"
)

const archiveSeed = "a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1a7c1"

// archiveGame is a game on a real bbolt file with a fake clock, for the archive tests.
type archiveGame struct {
	t   *testing.T
	s   *adjudicator.Service
	db  *storage.DB
	now time.Time
	n   int
}

// newArchiveGame starts the bundled Channel 1940 scenario; turns, if not 0, replaces its turn limit.
func newArchiveGame(t *testing.T, turns int) *archiveGame { return newArchiveGameWith(t, turns, "") }

// newArchiveGameWith adds lines (indented two spaces) to the scenario's service section.
func newArchiveGameWith(t *testing.T, turns int, extra string) *archiveGame {
	t.Helper()
	return newArchiveGameConfig(t, turns, extra, adjudicator.Config{Address: "sortie@sortie.test", Name: "Sortie Ü", TurnLength: 48 * time.Hour})
}

// newArchiveGameConfig is newArchiveGameWith on a service with the configuration given.
func newArchiveGameConfig(t *testing.T, turns int, extra string, cfg adjudicator.Config) *archiveGame {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	a := &archiveGame{t: t, db: db, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	a.s = adjudicator.New(db, tmpl, cfg, zerolog.Nop(), adjudicator.WithClock(func() time.Time { return a.now }))
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	if turns > 0 {
		scn = bytes.Replace(scn, []byte("\nturns: 12\n"), []byte(fmt.Sprintf("\nturns: %d\n", turns)), 1)
	}
	scn = append(scn, []byte(fmt.Sprintf(`
service:
  moderator: mod@players.test
  seed: %s
  players:
    alice: {email: alice@players.test, secret: "lark-kite-wren-41", tz: Europe/Paris}
    bob: {email: bob@players.test, secret: wren-owl-raven-17}
%s`, archiveSeed, extra))...)
	if _, err := a.s.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	return a
}

func (a *archiveGame) submit(from, text string) {
	a.t.Helper()
	a.n++
	if _, err := a.s.Submit(adjudicator.Envelope{From: from, MessageID: fmt.Sprintf("m%d@players.test", a.n), Text: text, Size: len(text), To: []string{"sortie@sortie.test"}}); err != nil {
		a.t.Fatal(err)
	}
}

func (a *archiveGame) round() int {
	a.t.Helper()
	st, err := a.s.Status("g1")
	if err != nil {
		a.t.Fatal(err)
	}
	return st.Round
}

// play plays n turns: orders from both players (legal on turn 1; later turns take what is legal), and
// the moderator's resolve for whatever did not complete the round.
func (a *archiveGame) play(n int) {
	a.t.Helper()
	for i := 0; i < n; i++ {
		a.now = a.now.Add(time.Hour)
		r := a.round()
		a.submit("alice@players.test", fmt.Sprintf("GAME g1 TURN %d SECRET lark-kite-wren-41\nRED1: 1 TL 4 HOLD\nRED2: 6\nEND", r))
		a.submit("bob@players.test", fmt.Sprintf("GAME g1 TURN %d SECRET wren-owl-raven-17\nKURT: 5 HOLD\nHANS: 6\nEND", r))
		if a.round() == r {
			if _, err := a.s.ResolveGame("g1", true); err != nil {
				a.t.Fatal(err)
			}
		}
		if a.round() != r+1 {
			a.t.Fatalf("turn %d did not resolve", r)
		}
	}
}

func (a *archiveGame) export() (*Archive, string) {
	a.t.Helper()
	ar, err := Export(a.s, "g1")
	if err != nil {
		a.t.Fatal(err)
	}
	dir := filepath.Join(a.t.TempDir(), "archive")
	if err := ar.WriteDir(dir); err != nil {
		a.t.Fatal(err)
	}
	return ar, dir
}

// rewriteSums recomputes SHA256SUMS, as someone who tampers with an archive would.
func rewriteSums(t *testing.T, dir string) {
	t.Helper()
	var b bytes.Buffer
	lines, err := os.ReadFile(filepath.Join(dir, fileSums))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		_, name, _ := strings.Cut(line, "  ")
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue // removed by the test: no longer listed
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), name)
	}
	if err := os.WriteFile(filepath.Join(dir, fileSums), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readRound(t *testing.T, dir string, n int) ArchivedRound {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, roundFile(n)))
	if err != nil {
		t.Fatal(err)
	}
	var r ArchivedRound
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func writeRound(t *testing.T, dir string, r ArchivedRound) {
	t.Helper()
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, roundFile(r.Round)), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustVerify(t *testing.T, dir string) *VerifyReport {
	t.Helper()
	rep, err := Verify(dir)
	if err != nil {
		var b strings.Builder
		if rep != nil {
			rep.WriteText(&b)
		}
		t.Fatalf("verify: %v\n%s", err, b.String())
	}
	return rep
}

// mustFail verifies and expects a failure that mentions every want.
func mustFail(t *testing.T, dir string, want ...string) *VerifyReport {
	t.Helper()
	rep, err := Verify(dir)
	var ve *VerifyError
	if !errors.As(err, &ve) || rep == nil || rep.OK() {
		t.Fatalf("verify must fail: %v", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the failure does not say %q:\n%v", w, err)
		}
	}
	return rep
}

func TestArchiveExportAndVerify(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(3)
	ar, dir := a.export()
	if len(ar.Rounds) != 3 || ar.Manifest.Round != 4 || ar.Manifest.Status != adjudicator.StatusRunning {
		t.Fatalf("archive: %d rounds, manifest %+v", len(ar.Rounds), ar.Manifest)
	}
	for _, name := range []string{fileManifest, fileGame, fileScenario, fileState, fileMbox, fileMails, fileDice, fileSums,
		roundFile(1), roundFile(2), roundFile(3)} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the archive lacks %s", name)
		}
	}
	rep := mustVerify(t, dir)
	if len(rep.Rounds) != 3 || rep.SeedRevealed || rep.SeedVerified || rep.Files != 10 {
		t.Errorf("report: %+v", rep)
	}
	dice := 0
	for _, v := range rep.Rounds {
		if v.Dice != "recorded" || !v.OK() {
			t.Errorf("round %d: %+v", v.Round, v)
		}
		dice += v.Rolls
	}
	if dice == 0 {
		t.Error("three turns threw no dice: the test proves little")
	}
	var text strings.Builder
	rep.WriteText(&text)
	for _, want := range []string{"round 1: ok", "round 3: ok", "seed: not revealed", "verified: all 3 round(s)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, text.String())
		}
	}

	// What a running game's archive must not show: secrets, reply tokens, the seed.
	seats, _ := a.s.Seats("g1")
	for _, name := range []string{fileManifest, fileGame, fileScenario, fileMbox, roundFile(1), fileState} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		for _, secret := range []string{"lark-kite-wren-41", "wren-owl-raven-17", archiveSeed, seats[0].Token, seats[1].Token} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s shows the secret %q", name, secret)
			}
		}
	}
	scn, _ := os.ReadFile(filepath.Join(dir, fileScenario))
	if !strings.Contains(string(scn), `secret: "withheld"`) || !strings.Contains(string(scn), "seed: withheld") ||
		!strings.Contains(string(scn), "ruleset: afd") || !strings.Contains(string(scn), "# A small interception") {
		t.Errorf("scenario.yaml:\n%s", scn)
	}
	var m Manifest
	b, _ := os.ReadFile(filepath.Join(dir, fileManifest))
	if err := json.Unmarshal(b, &m); err != nil || m.Seed != "" || m.Commitment != a.seedCommitment() ||
		m.FormatVersion != FormatVersion || !strings.HasPrefix(m.RulesVersion, "afd@sha256:") || len(m.Rounds) != 3 {
		t.Errorf("manifest: %+v %v", m, err)
	}

	// dice.log has every roll of every round.
	logged, err := parseDiceLog(mustRead(t, dir, fileDice))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ar.Rounds {
		if diffDice(r.Dice, logged[r.Round], "a", "b") != "" {
			t.Errorf("dice.log round %d: %v", r.Round, logged[r.Round])
		}
	}

	// The archive is written once: not over an existing one.
	if err := ar.WriteDir(dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("writing into a full folder: %v", err)
	}
}

func (a *archiveGame) seedCommitment() string {
	s, _ := dice.ParseSeed(archiveSeed)
	return s.Commitment()
}

func mustRead(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A round with dice, to tamper with.
func rolledRound(t *testing.T, ar *Archive) int {
	for _, r := range ar.Rounds {
		if len(r.Dice) > 0 {
			return r.Round
		}
	}
	t.Fatal("no round threw dice")
	return 0
}

func TestArchiveVerifyFindsTampering(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(3)
	ar, clean := a.export()
	n := rolledRound(t, ar)
	copyArchive := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "copy")
		if err := os.CopyFS(dir, os.DirFS(clean)); err != nil {
			t.Fatal(err)
		}
		return dir
	}

	t.Run("events", func(t *testing.T) {
		dir := copyArchive(t)
		r := readRound(t, dir, 2)
		ev := []byte(r.Events)
		i := bytes.IndexAny(ev, "123456789")
		if i < 0 {
			t.Fatalf("no digit in round 2's events: %s", ev)
		}
		ev[i]++
		if ev[i] > '9' {
			ev[i] = '8'
		}
		r.Events = ev
		writeRound(t, dir, r)
		rewriteSums(t, dir)
		rep := mustFail(t, dir, "round 2: events differ")
		for _, v := range rep.Rounds {
			if v.OK() != (v.Round != 2) {
				t.Errorf("round %d: %+v", v.Round, v)
			}
		}
	})

	t.Run("dice", func(t *testing.T) {
		dir := copyArchive(t)
		r := readRound(t, dir, n)
		d := &r.Dice[len(r.Dice)-1]
		d.Value = d.Value%d.Sides + 1
		writeRound(t, dir, r)
		// dice.log says the same, so only the re-run can tell.
		var log bytes.Buffer
		for _, x := range ar.Rounds {
			dice := x.Dice
			if x.Round == n {
				dice = r.Dice
			}
			log.Write(diceLog([]ArchivedRound{{Round: x.Round, Dice: dice}}))
		}
		os.WriteFile(filepath.Join(dir, fileDice), log.Bytes(), 0o644)
		rewriteSums(t, dir)
		mustFail(t, dir, fmt.Sprintf("round %d: ", n))
	})

	t.Run("dice.log", func(t *testing.T) {
		dir := copyArchive(t)
		logged, _ := parseDiceLog(mustRead(t, dir, fileDice))
		logged[n][0].Value = logged[n][0].Value%logged[n][0].Sides + 1
		var log bytes.Buffer
		for _, x := range ar.Rounds {
			log.Write(diceLog([]ArchivedRound{{Round: x.Round, Dice: logged[x.Round]}}))
		}
		os.WriteFile(filepath.Join(dir, fileDice), log.Bytes(), 0o644)
		rewriteSums(t, dir)
		mustFail(t, dir, fmt.Sprintf("round %d: dice.log differs from %s: roll 1: %s", n, roundFile(n), roundFile(n)))
	})

	t.Run("order", func(t *testing.T) {
		dir := copyArchive(t)
		r := readRound(t, dir, 1)
		if r.Orders["RED1"] == "" || r.Orders["RED1"] == r.Orders["RED2"] {
			t.Fatalf("round 1's orders: %v", r.Orders)
		}
		r.Orders["RED1"] = r.Orders["RED2"] // as legal, another path
		writeRound(t, dir, r)
		rewriteSums(t, dir)
		rep := mustFail(t, dir, "round 1: ")
		if rep.Rounds[0].OK() || !rep.Rounds[1].OK() {
			t.Errorf("only round 1 must fail: %+v", rep.Rounds)
		}
	})

	t.Run("state before", func(t *testing.T) {
		dir := copyArchive(t)
		r := readRound(t, dir, 3)
		r.StateBefore = bytes.Replace(r.StateBefore, []byte(`"alt": 1`), []byte(`"alt": 2`), 1)
		writeRound(t, dir, r)
		rewriteSums(t, dir)
		mustFail(t, dir, "round 3: the state before hashes to")
	})

	t.Run("unsummed", func(t *testing.T) {
		// Without fixing SHA256SUMS the change is named there too.
		dir := copyArchive(t)
		r := readRound(t, dir, 2)
		r.Orders["KURT"] = r.Orders["HANS"] + " "
		writeRound(t, dir, r)
		mustFail(t, dir, "SHA256SUMS: rounds/0002.json has changed")
	})
}

func TestArchiveSHA256SUMS(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(1)
	_, dir := a.export()
	// A file Verify reads nothing else from: only SHA256SUMS can tell.
	mb := mustRead(t, dir, fileMbox)
	i := bytes.Index(mb, []byte("YOUR AIRCRAFT"))
	mb[i] = 'Y' + 1
	os.WriteFile(filepath.Join(dir, fileMbox), mb, 0o644)
	rep := mustFail(t, dir, "SHA256SUMS: mail.mbox has changed")
	for _, v := range rep.Rounds {
		if !v.OK() {
			t.Errorf("round %d: %v", v.Round, v.Problems)
		}
	}
	mb[i] = 'Y'
	os.WriteFile(filepath.Join(dir, fileMbox), mb, 0o644)
	// A file the sums do not list is noted, not a failure.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	rep = mustVerify(t, dir)
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "notes.txt") {
		t.Errorf("notes: %v", rep.Notes)
	}
	// A missing file is a failure.
	os.Remove(filepath.Join(dir, fileState))
	mustFail(t, dir, "state.json is listed but cannot be read")
}

func TestArchiveGameOverRevealsSeed(t *testing.T) {
	a := newArchiveGame(t, 2)
	a.play(2)
	ar, dir := a.export()
	if ar.Manifest.Status != adjudicator.StatusOver || ar.Manifest.Seed != archiveSeed || ar.Game.Seed != archiveSeed {
		t.Fatalf("a finished game's archive reveals the seed: %+v", ar.Manifest)
	}
	if !strings.Contains(string(mustRead(t, dir, fileScenario)), "seed: "+archiveSeed) {
		t.Error("once the game is over, the scenario keeps its seed")
	}
	rep := mustVerify(t, dir)
	if !rep.SeedRevealed || !rep.SeedVerified || len(rep.Rounds) != 2 {
		t.Fatalf("report: %+v", rep)
	}
	for _, v := range rep.Rounds {
		if v.Dice != "seed" {
			t.Errorf("round %d re-ran with %s dice", v.Round, v.Dice)
		}
	}
	var text strings.Builder
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "dice drawn again from the seed") || !strings.Contains(text.String(), "hashes to the published commitment") {
		t.Errorf("report:\n%s", text.String())
	}

	// Another seed: its hash is not the commitment, and the dice do not come out of it.
	other := strings.Repeat("0f", 32)
	for _, name := range []string{fileManifest, fileGame} {
		b := bytes.ReplaceAll(mustRead(t, dir, name), []byte(archiveSeed), []byte(other))
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	rewriteSums(t, dir)
	rep = mustFail(t, dir, "seed: its SHA-256 is", "round 1: dice differ")
	if rep.SeedVerified {
		t.Error("a wrong seed verified")
	}

	// A changed commitment too: the first report still shows the one published.
	os.WriteFile(filepath.Join(dir, fileManifest), bytes.ReplaceAll(mustRead(t, dir, fileManifest), []byte(ar.Manifest.Commitment), []byte(dice.Seed{0x0f, 0x0f}.Commitment())), 0o644)
	rewriteSums(t, dir)
	mustFail(t, dir, "does not publish the commitment")
}

func TestArchiveMbox(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(2)
	ar, dir := a.export()
	var ids []string
	a.db.View(func(tx *storage.Tx) error {
		all, err := tx.OutboxByGame("g1")
		for _, m := range all {
			ids = append(ids, "<"+m.MessageID+">")
		}
		return err
	})
	msgs, err := readMbox(mustRead(t, dir, fileMbox))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != len(ids) || len(ids) != len(ar.Mails) || len(ids) < 6 {
		t.Fatalf("%d messages in the mbox, %d in the outbox", len(msgs), len(ids))
	}
	for i, raw := range msgs {
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
		if got := m.Header.Get("Message-ID"); got != ids[i] {
			t.Errorf("message %d: Message-ID %s, outbox %s", i+1, got, ids[i])
		}
		if _, err := m.Header.Date(); err != nil {
			t.Errorf("message %d: %v", i+1, err)
		}
		from, err := mail.ParseAddress(m.Header.Get("From"))
		if err != nil || from.Name != "Sortie Ü" || from.Address != "sortie@sortie.test" {
			t.Errorf("message %d: From %q %v", i+1, m.Header.Get("From"), err)
		}
		// A report carries its map picture inline (multipart/related); every other mail is plain text.
		ct := m.Header.Get("Content-Type")
		report := strings.HasPrefix(ct, "multipart/related;")
		if ct != "text/plain; charset=UTF-8" && !report || m.Header.Get("X-Sortie-Game") != "g1" {
			t.Errorf("message %d: %v", i+1, m.Header)
		}
		if report != (ar.Mails[i].Kind == "report" || ar.Mails[i].Kind == "start") || report && !bytes.Contains(raw, []byte("Content-Type: image/png")) {
			t.Errorf("message %d (%s): %s, with or without its picture", i+1, ar.Mails[i].Kind, ct)
		}
		_, text, err := mailText(raw)
		if err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
		if want := strings.ReplaceAll(ar.Mails[i].Body, "\r\n", "\n"); text != want {
			t.Errorf("message %d: the text does not come back as it was:\n%q\n%q", i+1, text, want)
		}
	}
	var entries []MailEntry
	if err := json.Unmarshal(mustRead(t, dir, fileMails), &entries); err != nil || len(entries) != len(ids) {
		t.Fatalf("%s: %d entries, %v", fileMails, len(entries), err)
	}
	for i, e := range entries {
		if "<"+e.MessageID+">" != ids[i] || e.Mbox != i+1 || e.Status != ar.Mails[i].Status || e.Kind == "" || e.To == "" || e.Created.IsZero() {
			t.Errorf("%s entry %d: %+v", fileMails, i+1, e)
		}
	}
}

// The mbox holds each mail as Render makes it (the bytes that were sent), quoted for mboxrd; mail.json
// says where each stands; a mail Render refuses is left out of the mbox and listed with the reason.
func TestArchiveMboxQuotingAndEncoding(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mails := []storage.Outgoing{
		{ID: "1", OutMail: storage.OutMail{Mail: outmail.Mail{From: "sortie@sortie.test", To: "a@x.test", ToName: "Zoë", Subject: "Tour 3 — résultat",
			Body: "From here on\n>From there\nplain\r\n\nFrom the top", MessageID: "one@sortie.test", InReplyTo: "in@x.test", Created: at}, Kind: "report"},
			Status: storage.OutSent, SentAt: at.Add(time.Minute)},
		{ID: "2", OutMail: storage.OutMail{Mail: outmail.Mail{From: "sortie@sortie.test", To: "not an address", Subject: "lost", Body: "x\n",
			MessageID: "lost@sortie.test", Created: at}}, Status: storage.OutFailed, Attempts: 3, LastError: "bad address"},
		{ID: "3", OutMail: storage.OutMail{Mail: outmail.Mail{From: "sortie@sortie.test", FromName: "Sortie at Hornchurch", To: "b@x.test", Subject: "plain",
			Body: "two\n", MessageID: "two@sortie.test", Created: at, Parts: []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: []byte("\x89PNG\r\n")}}}},
			Status: storage.OutPending},
	}
	data, entries := mbox(mails, "Sortie")
	if !bytes.HasPrefix(data, []byte("From sortie@sortie.test Fri Jan  2 03:05:05 2026\n")) {
		t.Errorf("From_ line: %q", data[:60])
	}
	for _, want := range []string{"\n>From here on\n", "\n>>From there\n", "\n>From the top\n"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("mboxrd quoting: no %q in\n%s", want, data)
		}
	}
	msgs, err := readMbox(data)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("%d messages, %v", len(msgs), err)
	}
	for i, k := range []int{0, 2} {
		sent, err := outmail.Render(mails[k].Mail, "Sortie")
		if err != nil {
			t.Fatal(err)
		}
		if want := bytes.ReplaceAll(sent, []byte("\r\n"), []byte("\n")); !bytes.Equal(msgs[i], want) {
			t.Errorf("message %d is not the mail as sent:\n%s\n---\n%s", i+1, msgs[i], want)
		}
	}
	m, err := mail.ReadMessage(bytes.NewReader(msgs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if _, text, _ := mailText(msgs[0]); text != "From here on\n>From there\nplain\n\nFrom the top\n" {
		t.Errorf("text: %q", text)
	}
	raw := m.Header.Get("Subject")
	if strings.ContainsFunc(raw, func(r rune) bool { return r > 127 }) {
		t.Errorf("a non-ASCII subject must be RFC 2047-encoded: %q", raw)
	}
	if subj, err := new(mime.WordDecoder).DecodeHeader(raw); err != nil || subj != "Tour 3 — résultat" {
		t.Errorf("subject %q: %q %v", raw, subj, err)
	}
	if to, err := mail.ParseAddress(m.Header.Get("To")); err != nil || to.Name != "Zoë" {
		t.Errorf("To: %q %v", m.Header.Get("To"), err)
	}
	if d, _ := m.Header.Date(); !d.Equal(at) {
		t.Errorf("Date is when the mail was made, as sent: %v", d)
	}
	if m.Header.Get("In-Reply-To") != "<in@x.test>" || m.Header.Get("X-Sortie-Delivery") != "" {
		t.Errorf("headers: %v", m.Header)
	}
	m3, _ := mail.ReadMessage(bytes.NewReader(msgs[1]))
	if from, _ := mail.ParseAddress(m3.Header.Get("From")); from == nil || from.Name != "Sortie at Hornchurch" {
		t.Errorf("a mail keeps the name it was sent under: %q", m3.Header.Get("From"))
	}
	want := []MailEntry{
		{MessageID: "one@sortie.test", Kind: "report", To: "a@x.test", Created: at, Status: storage.OutSent, SentAt: at.Add(time.Minute), Mbox: 1},
		{MessageID: "lost@sortie.test", To: "not an address", Created: at, Status: storage.OutFailed, Attempts: 3, LastError: "bad address"},
		{MessageID: "two@sortie.test", To: "b@x.test", Created: at, Status: storage.OutPending, Mbox: 2},
	}
	if entries[1].Problem == "" {
		t.Error("the mail left out of the mbox does not say why")
	}
	entries[1].Problem = ""
	if !reflect.DeepEqual(entries, want) {
		t.Errorf("mail.json:\n%+v\nwant\n%+v", entries, want)
	}
}

func TestArchiveScenarioRedaction(t *testing.T) {
	in := "ruleset: afd # the rules\nservice:\n  seed: 'abc'\n  moderator_secret: \"m0d-s3cret\"\n  players:\n    alice: {email: a@x.test, secret: \"ça-va-42\"}\n    bob:\n      email: b@x.test\n      secret: plain-secret-9 # keep this comment\n"
	got, err := redactScenario(in, true)
	if err != nil {
		t.Fatal(err)
	}
	want := "ruleset: afd # the rules\nservice:\n  seed: 'withheld'\n  moderator_secret: \"withheld\"\n  players:\n    alice: {email: a@x.test, secret: \"withheld\"}\n    bob:\n      email: b@x.test\n      secret: withheld # keep this comment\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, _ := redactScenario(in, false); !strings.Contains(got, "seed: 'abc'") {
		t.Errorf("the seed stays when asked:\n%s", got)
	}
}

func TestArchiveRulesVersion(t *testing.T) {
	v, err := RulesVersion("afd")
	if err != nil || !strings.HasPrefix(v, "afd@sha256:") || len(v) != len("afd@sha256:")+64 {
		t.Fatalf("%q %v", v, err)
	}
	if w, _ := RulesVersion("afd"); w != v {
		t.Error("the rules version must be stable")
	}
	if _, err := RulesVersion("chess"); err == nil {
		t.Error("an unknown ruleset has no version")
	}
}

// A player who drops out under the NMR policy has their units withdrawn after the round: the archive
// says so, and the re-run withdraws them too before comparing the hash after.
func TestArchiveVerifyWithdrawnPlayer(t *testing.T) {
	a := newArchiveGameWith(t, 0, "  nmr: {mode: dropout, after: 1}\n")
	a.now = a.now.Add(time.Hour)
	a.submit("alice@players.test", "GAME g1 TURN 1 SECRET lark-kite-wren-41\nRED1: 1 TL 4 HOLD\nRED2: 6\nEND")
	if _, err := a.s.ResolveGame("g1", true); err != nil {
		t.Fatal(err)
	}
	ar, dir := a.export()
	if len(ar.Rounds) != 1 || strings.Join(ar.Rounds[0].Withdrawn, ",") != "bob" {
		t.Fatalf("round 1 withdrew %v", ar.Rounds[0].Withdrawn)
	}
	mustVerify(t, dir)
	r := readRound(t, dir, 1)
	r.Withdrawn = nil
	writeRound(t, dir, r)
	rewriteSums(t, dir)
	mustFail(t, dir, "round 1: hash after differs")
}

// TestArchiveVerifiesAnImpulseGame: an impulse game (seed 001), whose rounds draw from the stream the
// ruleset names, exports and verifies, its dice drawn again from the revealed seed.
func TestArchiveVerifiesAnImpulseGame(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tmpl, _ := templates.New("")
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	s := adjudicator.New(db, tmpl, adjudicator.Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour}, zerolog.Nop(), adjudicator.WithClock(func() time.Time { return now }))
	scn := fmt.Sprintf(`ruleset: afd
name: short impulse
options: {fog_of_war: true, impulse: true}
sides: [A, B]
players: [{id: alice, side: A}, {id: bob, side: B}]
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: alice, hex: [0, 3], facing: 0, alt: 8000, speed: 5.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: bob, hex: [0, -3], facing: 6, alt: 8000, speed: 4.0}
turns: 1
service:
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-kite-wren-41}
    bob: {email: bob@players.test, secret: wren-owl-raven-17}
`, archiveSeed)
	if _, err := s.NewGame([]byte(scn), "short.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := 0; i < 20; i++ {
		st, err := s.Status("g1")
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != adjudicator.StatusRunning {
			break
		}
		for _, seat := range st.Seats {
			if len(seat.Missing) == 0 {
				continue
			}
			// The round number the seat's last mail asks for (its own count in an impulse game).
			if _, err := s.DrawPictures(); err != nil { // what the sender does before each pass
				t.Fatal(err)
			}
			items, _ := db.Pending(now.Add(1000*time.Hour), 0)
			turn := 0
			for _, it := range items {
				if k := strings.LastIndex(it.Body, "GAME g1 ROUND "); it.To == seat.Email && k >= 0 {
					fmt.Sscanf(it.Body[k:], "GAME g1 ROUND %d", &turn)
				}
			}
			secret := map[string]string{"alice": "lark-kite-wren-41", "bob": "wren-owl-raven-17"}[seat.Player]
			var lines []string
			for _, u := range seat.Missing {
				lines = append(lines, u+": 1")
			}
			text := fmt.Sprintf("GAME g1 TURN %d SECRET %s\n%s\nEND", turn, secret, strings.Join(lines, "\n"))
			n++
			if _, err := s.Submit(adjudicator.Envelope{From: seat.Email, MessageID: fmt.Sprintf("i%d@players.test", n), Text: text, To: []string{"sortie@sortie.test"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	ar, err := Export(s, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if ar.Manifest.Status != adjudicator.StatusOver || len(ar.Rounds) < 3 || ar.Rounds[0].Stream != "impulse" {
		t.Fatalf("an impulse game of one turn over %d rounds: status %s, %d rounds, stream %q", n, ar.Manifest.Status, len(ar.Rounds), ar.Rounds[0].Stream)
	}
	dir := filepath.Join(t.TempDir(), "archive")
	if err := ar.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, dir)
	if !rep.SeedVerified || rep.Commitments != "verified" {
		t.Errorf("report: %+v", rep)
	}
	k := rolledRound(t, ar)
	r := readRound(t, dir, k)
	r.Stream = ""
	writeRound(t, dir, r)
	rewriteSums(t, dir)
	mustFail(t, dir, fmt.Sprintf("round %d: dice differ", k))
}

// A running game's archive withholds the keys of the players' web links that its reports carry: whoever
// holds one reads that player's reports while the game runs. So are the keys a seat had before RENEW or
// REPLACE gave it new ones, and the seats' link nonces.
func TestArchiveWithholdsWebLinks(t *testing.T) {
	a := newArchiveGameConfig(t, 4, "", adjudicator.Config{Address: "sortie@sortie.test", Name: "Sortie", TurnLength: 48 * time.Hour,
		WebBase: "https://games.example.org/sortie/"})
	a.play(1)
	var keys []string
	addKeys := func() {
		for _, p := range []string{"alice", "bob"} {
			path, err := a.s.PlayerLink("g1", p)
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, strings.Split(strings.Trim(path, "/"), "/")[2])
		}
	}
	addKeys()
	for _, c := range []parser.Command{{Name: "RENEW", Args: []string{"alice"}}, {Name: "REPLACE", Args: []string{"bob", "carol@players.test"}}} {
		if _, err := a.s.Moderate("g1", c); err != nil {
			t.Fatal(err)
		}
	}
	a.play(1)
	addKeys()
	seats, err := a.s.Seats("g1")
	if err != nil {
		t.Fatal(err)
	}
	var nonces []string
	for _, st := range seats {
		if st.LinkNonce == "" {
			t.Fatalf("%s has no link nonce after RENEW and REPLACE", st.Player)
		}
		nonces = append(nonces, st.LinkNonce)
	}
	ar, dir := a.export()
	sent := 0
	for _, m := range ar.Mails {
		sent += strings.Count(m.Body, "https://games.example.org/sortie/p/g1/key-withheld/")
	}
	if sent == 0 {
		t.Fatal("no archived report shows where its web link was")
	}
	anyKey := regexp.MustCompile(`p/g1/[0-9a-f]{32}`)
	for _, name := range []string{fileMbox, fileMails, fileGame} {
		b := mustRead(t, dir, name)
		for _, k := range append(keys, nonces...) {
			if bytes.Contains(b, []byte(k)) {
				t.Errorf("%s holds a player's web link key or nonce %s", name, k)
			}
		}
		if anyKey.Match(b) {
			t.Errorf("%s holds a web link key: %s", name, anyKey.Find(b))
		}
	}
}
