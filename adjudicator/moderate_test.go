package adjudicator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"sortie/parser"
	"sortie/rules/afd"
	"sortie/storage"
	"sortie/templates"

	"github.com/rs/zerolog"
)

func (f *fixture) game() *Game {
	f.t.Helper()
	var g *Game
	f.db.View(func(tx *storage.Tx) error { g, _ = getGame(tx, "g1"); return nil })
	return g
}

func (f *fixture) mod(cmd string, args ...string) string {
	f.t.Helper()
	out, err := f.s.Moderate("g1", parser.Command{Name: cmd, Args: args})
	if err != nil {
		f.t.Fatalf("%s: %v", cmd, err)
	}
	return out
}

func TestPauseResumeAndExtend(t *testing.T) {
	f := newFixture(t, 0)
	deadline := f.game().Deadline
	f.mod("PAUSE")
	if !strings.Contains(f.last("alice@players.test").Body, "paused") {
		t.Error("a pause must be announced to the players")
	}
	f.now = f.now.Add(72 * time.Hour) // past the deadline, but paused
	if done, _ := f.s.Tick(); len(done) != 0 {
		t.Fatal("a paused game must not resolve")
	}
	f.mod("RESUME")
	if got := f.game().Deadline; !got.Equal(deadline.Add(72 * time.Hour)) {
		t.Errorf("the deadline must move on by the pause: %v, was %v", got, deadline)
	}
	f.mod("EXTEND", "24")
	if got := f.game().Deadline; !got.Equal(deadline.Add(96 * time.Hour)) {
		t.Errorf("EXTEND 24: %v", got)
	}
	if _, err := f.s.Moderate("g1", parser.Command{Name: "RESUME"}); err == nil {
		t.Error("RESUME of a running game must say so")
	}
}

func TestProcessTurnGuardAndRollback(t *testing.T) {
	f := newFixture(t, 0)
	if _, err := f.s.Moderate("g1", parser.Command{Name: "PROCESS", Args: []string{"2"}}); err == nil {
		t.Fatal("PROCESS TURN 2 on turn 1 must be refused")
	}
	f.mod("PROCESS", "1")
	f.mod("PROCESS", "2")
	if g := f.game(); g.Round != 3 {
		t.Fatalf("round %d after two PROCESS", g.Round)
	}
	turn2 := ""
	f.db.View(func(tx *storage.Tx) error {
		b, _ := tx.Get(archiveBucket("g1"), storage.SeqKey(2))
		turn2 = string(b)
		return nil
	})
	f.mod("ROLLBACK", "2")
	g := f.game()
	st, _ := f.s.Status("g1")
	if g.Round != 2 || st.Archived != 1 {
		t.Fatalf("after ROLLBACK TURN 2: round %d, %d archived", g.Round, st.Archived)
	}
	if body := f.last("bob@players.test").Body; !strings.Contains(body, "rolled the game back from turn 3 to the start of turn 2") || !strings.Contains(body, "GAME g1 TURN 2") {
		t.Errorf("players get the position again:\n%s", body)
	}
	// The position mail says what it is: not a report of a turn 0 or of the undone turn.
	pos := f.last("bob@players.test")
	if !strings.Contains(pos.Subject, "position for turn 2") || strings.Contains(pos.Subject, "report") {
		t.Errorf("the rollback's position mail is titled %q", pos.Subject)
	}
	// Turn 2 resolved again draws dice of its own: the undone turn's rolls, seen by the players, must
	// not foretell the new ones (the dice stream is keyed by the rollback epoch).
	f.mod("PROCESS", "2")
	var undone, again archiveRecord
	json.Unmarshal([]byte(turn2), &undone)
	f.db.View(func(tx *storage.Tx) error {
		b, _ := tx.Get(archiveBucket("g1"), storage.SeqKey(2))
		return json.Unmarshal(b, &again)
	})
	if undone.Epoch != 0 || again.Epoch != 1 {
		t.Errorf("epochs: undone turn %d, replayed turn %d", undone.Epoch, again.Epoch)
	}
	if len(undone.Log.Dice) == 0 || fmt.Sprint(undone.Log.Dice) == fmt.Sprint(again.Log.Dice) {
		t.Errorf("turn 2 played again after a rollback rolled the same dice: %v", again.Log.Dice)
	}
}

// TestRollbackPositionSubject: after ROLLBACK TURN 1 the position mail was titled "turn 0 report".
func TestRollbackPositionSubject(t *testing.T) {
	f := newFixture(t, 0)
	f.mod("PROCESS", "1")
	f.mod("ROLLBACK", "1")
	got := f.last("alice@players.test")
	if strings.Contains(got.Subject, "turn 0") || !strings.Contains(got.Subject, "position for turn 1") ||
		strings.Contains(got.Body, "turn 0 has been resolved") {
		t.Errorf("position mail after a rollback to turn 1:\n%s\n%s", got.Subject, got.Body)
	}
}

func TestReplaceAPlayer(t *testing.T) {
	f := newFixture(t, 0)
	f.s.cfg.WebBase = "https://games.example.org/sortie/"
	oldLink := f.link("bob")
	oldReply := f.s.replyTo(f.game().seat("bob"))
	f.mod("REPLACE", "bob", "carol@players.test")
	welcome := f.last("carol@players.test")
	if !strings.Contains(welcome.Body, "Your secret for this game is") {
		t.Errorf("the new player gets a welcome:\n%s", welcome.Body)
	}
	if body := f.last("bob@players.test").Body; !strings.Contains(body, "no longer works") || strings.Contains(body, "/p/g1/") {
		t.Errorf("the old address is told, and given no link:\n%s", body)
	}
	if o := f.mail("bob@players.test", "old", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5\nEND"); o != Refused {
		t.Errorf("the old player's secret must stop working: %s", o)
	}
	if o := f.mailTo("bob@players.test", oldReply, "GAME g1 TURN 1\nKURT: 5\nEND"); o != Refused {
		t.Errorf("the old player's reply address must stop working: %s", o)
	}
	// The seat's web link is the newcomer's now, and a new one: the old holder's reads nothing.
	newLink := f.link("bob")
	if newLink == oldLink || !strings.Contains(welcome.Body, newLink) || strings.Contains(welcome.Body, oldLink) {
		t.Errorf("the newcomer's welcome must carry the seat's new link %s, not the old %s:\n%s", newLink, oldLink, welcome.Body)
	}
	if f.webKey("bob") != strings.Split(newLink, "/")[6] {
		t.Error("the web archive does not know the seat's new key")
	}
}

// link is a player's whole web link now.
func (f *fixture) link(player string) string {
	f.t.Helper()
	path, err := f.s.PlayerLink("g1", player)
	if err != nil {
		f.t.Fatal(err)
	}
	return f.s.cfg.WebBase + path
}

// webKey is the key the web archive compares a player's link with.
func (f *fixture) webKey(player string) string {
	f.t.Helper()
	w, ok, err := f.s.WebGame("g1")
	if err != nil || !ok {
		f.t.Fatal(err)
	}
	for _, p := range w.Players {
		if p.Player == player {
			return p.Key
		}
	}
	f.t.Fatalf("no player %s", player)
	return ""
}

// RENEW keeps the seat's player and address and gives it a new secret, reply address and web link, in
// one mail to that address; the old ones stop working, the new ones work, and nobody else is told.
func TestRenewAPlayer(t *testing.T) {
	f := newFixture(t, 0)
	f.s.cfg.WebBase = "https://games.example.org/sortie/"
	before := *f.game().seat("bob")
	oldLink, oldReply := f.link("bob"), f.s.replyTo(&before)
	aliceLink, aliceMails := f.link("alice"), len(f.outbox("alice@players.test"))
	if out := f.mod("RENEW", "bob"); !strings.Contains(out, "bob has a new secret") || strings.Contains(out, f.game().seat("bob").Secret) {
		t.Errorf("the moderator is told, without the secret: %s", out)
	}
	st := *f.game().seat("bob")
	if st.Secret == before.Secret || st.Token == before.Token || st.LinkNonce == "" || st.Email != before.Email || st.Player != "bob" {
		t.Fatalf("the seat after RENEW: %+v", st)
	}
	newLink, newReply := f.link("bob"), f.s.replyTo(&st)
	if newLink == oldLink || newReply == oldReply {
		t.Fatalf("the link %s or the reply address %s did not change", newLink, newReply)
	}
	m := f.last("bob@players.test")
	if m.Kind != "renew" || m.ReplyTo != newReply {
		t.Errorf("the renewal mail is a %s replying to %q, want renew replying to %q", m.Kind, m.ReplyTo, newReply)
	}
	for _, want := range []string{"Your secret for this game is " + st.Secret + ".", newReply, newLink, "no longer work"} {
		if !strings.Contains(m.Body, want) {
			t.Errorf("the renewal mail lacks %q:\n%s", want, m.Body)
		}
	}
	for _, old := range []string{before.Secret, before.Token, oldLink} {
		if strings.Contains(m.Body, old) {
			t.Errorf("the renewal mail shows the old %q", old)
		}
	}
	if len(f.outbox("alice@players.test")) != aliceMails || f.link("alice") != aliceLink {
		t.Error("RENEW of bob changed something for alice")
	}
	if f.webKey("bob") != strings.Split(newLink, "/")[6] {
		t.Error("the web archive does not know the seat's new key")
	}
	// The old secret and the old reply address are refused, the new ones are taken.
	if o := f.mail("bob@players.test", "old-secret", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5\nEND"); o != Refused {
		t.Errorf("the old secret: %s", o)
	}
	if o := f.mailTo("bob@players.test", oldReply, "GAME g1 TURN 1\nKURT: 5\nEND"); o != Refused {
		t.Errorf("the old reply address: %s", o)
	}
	if o := f.mail("bob@players.test", "new-secret", "GAME g1 TURN 1 SECRET "+st.Secret+"\nKURT: 5\nEND"); o != Accepted {
		t.Errorf("the new secret: %s", o)
	}
	if o := f.mailTo("bob@players.test", newReply, "GAME g1 TURN 1\nHANS: 6\nEND"); o != Accepted {
		t.Errorf("the new reply address: %s", o)
	}
	// A report kept from before, sent again, carries the link of now.
	f.play(1)
	f.mod("RENEW", "bob")
	renewed := f.link("bob")
	if o := f.mailTo("bob@players.test", f.s.replyTo(f.game().seat("bob")), "GAME g1\nRESEND\nEND"); o != Accepted {
		t.Fatalf("RESEND: %s", o)
	}
	if r := f.lastOf("bob@players.test", "resend"); r.Kind != "resend" || !strings.Contains(r.Body, renewed) || strings.Contains(r.Body, newLink) {
		t.Errorf("the %s mail must carry the link %s, not %s:\n%s", r.Kind, renewed, newLink, r.Body)
	}
	// By mail too; unknown players and the computer's seats are refused.
	if o := f.mail("mod@players.test", "m-renew", "GAME g1 SECRET mod-secret-0009\nRENEW alice\nRENEW carol\nEND"); o != Accepted {
		t.Fatalf("moderator mail: %s", o)
	}
	if body := f.last("mod@players.test").Body; !strings.Contains(body, "RENEW alice: done") || !strings.Contains(body, "RENEW carol: NOT DONE: no player carol") ||
		strings.Contains(body, f.game().seat("alice").Secret) {
		t.Errorf("the moderator's answer:\n%s", body)
	}
	if f.link("alice") == aliceLink || f.last("alice@players.test").Kind != "renew" {
		t.Error("RENEW alice by mail did not renew her link or tell her")
	}
	if o := f.mail("alice@players.test", "a-renew", "GAME g1 SECRET "+f.game().seat("alice").Secret+"\nRENEW alice\nEND"); o != Refused {
		t.Errorf("a player's RENEW: %s", o)
	}
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	solo := append(scn, "\nservice:\n  players:\n    alice: {email: alice@players.test}\n"...)
	if _, err := f.s.NewGameBots(solo, nil, "solo.yaml", "g2", []string{"Luftwaffe"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Moderate("g2", parser.Command{Name: "RENEW", Args: []string{"bob"}}); err == nil || !strings.Contains(err.Error(), "played by the computer") {
		t.Errorf("RENEW of the computer's seat: %v", err)
	}
}

func TestModeratorByMail(t *testing.T) {
	f := newFixture(t, 0)
	if o := f.mail("mod@players.test", "m1", "GAME g1 SECRET mod-secret-0009\nPAUSE\nEXTEND 12\nPROCESS TURN 7\nEND"); o != Accepted {
		t.Fatalf("moderator mail: %s", o)
	}
	body := f.last("mod@players.test").Body
	if !strings.Contains(body, "PAUSE: done") || !strings.Contains(body, "EXTEND 12: done") || !strings.Contains(body, "PROCESS 7: NOT DONE") {
		t.Errorf("the moderator's answer:\n%s", body)
	}
	if !f.game().Paused {
		t.Error("PAUSE by mail did not pause")
	}
	// The moderator secret from another address is refused, and players cannot send moderator commands.
	if o := f.mail("eve@evil.test", "m2", "GAME g1 SECRET mod-secret-0009\nRESUME\nEND"); o != Refused {
		t.Errorf("a stolen moderator secret from the wrong address: %s", o)
	}
	if o := f.mail("alice@players.test", "m3", "GAME g1 SECRET lark-swift-0001\nRESUME\nEND"); o != Refused || !f.game().Paused {
		t.Errorf("a player's RESUME: %s", o)
	}
}

func TestAwayAutopilotAndDropout(t *testing.T) {
	f := newFixtureWith(t, 0, "\n  nmr: {mode: autopilot, after: 2}")
	// Bob misses two turns: on autopilot, announced.
	for i := 0; i < 2; i++ {
		f.mail("alice@players.test", "a"+string(rune('1'+i)), "GAME g1 TURN "+string(rune('1'+i))+" SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
		f.now = f.now.Add(49 * time.Hour)
		f.s.Tick()
	}
	g := f.game()
	if !g.seat("bob").Autopilot {
		t.Fatalf("bob missed two turns: %+v", g.seat("bob"))
	}
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "on autopilot") {
		t.Errorf("autopilot must be announced:\n%s", body)
	}
	// With bob on autopilot, alice's orders alone complete the round.
	f.mail("alice@players.test", "a3", "GAME g1 TURN 3 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	if f.game().Round != 4 {
		t.Fatalf("the round must not wait for a player on autopilot (round %d)", f.game().Round)
	}
	// A player goes away: the round does not wait for her, and it is no miss.
	a := newFixture(t, 0)
	a.mail("alice@players.test", "a4", "GAME g1 SECRET lark-swift-0001\nAWAY "+a.now.Add(48*time.Hour).Format("2006-01-02")+"\nEND")
	if body := a.last("bob@players.test").Body; !strings.Contains(body, "is away until") {
		t.Errorf("an absence is announced:\n%s", body)
	}
	a.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5\nHANS: 6\nEND")
	if g := a.game(); g.Round != 2 || g.seat("alice").Misses != 0 {
		t.Errorf("with alice away bob's orders complete the round, and alice misses nothing: round %d, %+v", g.Round, g.seat("alice"))
	}
	a.mail("alice@players.test", "a5", "GAME g1 SECRET lark-swift-0001\nBACK\nEND")
	if !a.game().seat("alice").AwayUntil.IsZero() {
		t.Error("BACK ends the absence")
	}

	d := newFixtureWith(t, 0, "\n  nmr: {mode: dropout, after: 1}")
	d.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	d.now = d.now.Add(49 * time.Hour)
	d.s.Tick()
	if !d.game().seat("bob").Dropped {
		t.Fatal("dropout after one miss")
	}
	if d.game().Status != StatusOver {
		t.Errorf("with bob's aircraft withdrawn the game ends: %s", d.game().Status)
	}
}

func TestRemindersGraceAndSpike(t *testing.T) {
	f := newFixtureWith(t, 0, "\n  grace_hours: 6")
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	f.now = f.now.Add(25 * time.Hour) // 23 h before the deadline: the 24 h reminder
	f.s.Tick()
	f.s.Tick()
	reminders := func(addr string) int {
		n := 0
		for _, m := range f.outbox(addr) {
			if m.Kind == "reminder" {
				n++
			}
		}
		return n
	}
	if reminders("bob@players.test") != 1 || reminders("alice@players.test") != 0 {
		t.Errorf("24 h reminder: bob %d, alice %d", reminders("bob@players.test"), reminders("alice@players.test"))
	}
	f.now = f.now.Add(22 * time.Hour) // 1 h before the deadline: the 2 h reminder, once
	f.s.Tick()
	f.s.Tick()
	if reminders("bob@players.test") != 2 {
		t.Errorf("the 2 h reminder must follow the 24 h one: bob has %d", reminders("bob@players.test"))
	}
	f.now = f.now.Add(2 * time.Hour) // 1 h past the deadline, inside the grace
	if done, _ := f.s.Tick(); len(done) != 0 {
		t.Fatal("inside the grace period the round still waits")
	}
	if !strings.Contains(f.last("bob@players.test").Body, "deadline for turn 1 has passed") {
		t.Errorf("a late reminder: %s", f.last("bob@players.test").Body)
	}
	f.now = f.now.Add(6 * time.Hour)
	if done, _ := f.s.Tick(); len(done) != 1 {
		t.Fatal("after the grace period the round resolves")
	}

	// Nobody sends anything: a spike, held for the moderator.
	s := newFixture(t, 0)
	s.now = s.now.Add(49 * time.Hour)
	if done, _ := s.s.Tick(); len(done) != 0 || s.game().Held == "" {
		t.Fatalf("an NMR spike must hold the round: %+v", s.game())
	}
	if !strings.Contains(s.last("mod@players.test").Body, "held") {
		t.Errorf("the moderator is told:\n%s", s.last("mod@players.test").Body)
	}
	s.mod("PROCESS", "1")
	if s.game().Round != 2 {
		t.Error("PROCESS releases a held round")
	}
}

func TestDigestAndFlood(t *testing.T) {
	f := newFixture(t, 0)
	f.now = time.Date(2026, 11, 24, 7, 0, 0, 0, time.UTC)
	f.s.Tick()
	f.s.Tick()
	n := 0
	for _, m := range f.outbox("mod@players.test") {
		if m.Kind == "digest" {
			n++
			if !strings.Contains(m.Body, "g1") || !strings.Contains(m.Body, "missing: alice, bob") {
				t.Errorf("digest:\n%s", m.Body)
			}
		}
	}
	if n != 1 {
		t.Errorf("one digest a day, got %d", n)
	}
	// Flood: the 61st mail in an hour gets one notice; later ones nothing.
	for i := 0; i < 63; i++ {
		f.mail("spam@evil.test", "s"+time.Duration(i).String(), "nothing")
	}
	notices := 0
	for _, m := range f.outbox("spam@evil.test") {
		if strings.Contains(m.Subject, "too many") {
			notices++
		}
	}
	if notices != 1 || len(f.outbox("spam@evil.test")) != 61 {
		t.Errorf("flood: %d notices, %d mails", notices, len(f.outbox("spam@evil.test")))
	}
}

// SubmitBatch commits several mails at once with the same effects as one by one, and a bad mail in a
// batch costs the others nothing.
func TestSubmitBatch(t *testing.T) {
	one, many := newFixture(t, 0), newFixture(t, 0)
	envs := []Envelope{
		{From: "alice@players.test", MessageID: "b1", Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND"},
		{From: "alice@players.test", MessageID: "b1", Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND"},
		{From: "eve@evil.test", MessageID: "b2", Text: "GAME g1 SECRET nope\nEND"},
		{From: "alice@players.test", MessageID: "b3", Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 1 TL 4\nEND"},
		{From: "bob@players.test", MessageID: "b4", Text: "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5\nHANS: 6\nEND"},
	}
	var want []Outcome
	for _, e := range envs {
		o, err := one.s.Submit(e)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, o)
	}
	got, err := many.s.SubmitBatch(envs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("mail %d: batch %s, alone %s", i, got[i], want[i])
		}
	}
	if one.game().Round != 2 || many.game().Round != 2 {
		t.Errorf("both resolve the turn: %d %d", one.game().Round, many.game().Round)
	}
	var h1, h2 string
	one.db.View(func(tx *storage.Tx) error { b, _ := tx.Get(bucketState, "g1"); h1 = string(b); return nil })
	many.db.View(func(tx *storage.Tx) error { b, _ := tx.Get(bucketState, "g1"); h2 = string(b); return nil })
	if h1 != h2 {
		t.Error("a batch must leave the same state as the same mails one by one")
	}
	if len(one.outbox("alice@players.test")) != len(many.outbox("alice@players.test")) {
		t.Error("the same mails must be queued")
	}
}

// kindCount counts the queued mails of a kind to addr.
func (f *fixture) kindCount(addr, kind string) int {
	n := 0
	for _, m := range f.outbox(addr) {
		if m.Kind == kind {
			n++
		}
	}
	return n
}

// TestShortTurnNoReminderWithTheReport: with a turn of 24 hours the reminder a day ahead would come in
// the same second as the report; it is not sent, and the one two hours ahead still is.
func TestShortTurnNoReminderWithTheReport(t *testing.T) {
	f := newFixtureWith(t, 0, "\n  turn_hours: 24")
	f.s.Tick()
	f.now = f.now.Add(time.Minute)
	f.s.Tick()
	if n := f.kindCount("bob@players.test", "reminder"); n != 0 {
		t.Fatalf("a reminder beside the report of a 24 h turn: %d", n)
	}
	f.now = f.now.Add(22 * time.Hour) // 1 h 59 min before the deadline
	f.s.Tick()
	if n := f.kindCount("bob@players.test", "reminder"); n != 1 {
		t.Errorf("the 2 h reminder of a 24 h turn: %d", n)
	}
}

// TestDigestHourAndRestart: the digest waits for the configured hour, comes once a day, and a restart
// (a new service on the same database) the same day does not send it again.
func TestDigestHourAndRestart(t *testing.T) {
	f := newFixture(t, 0)
	f.s.cfg.DigestHour = 18
	f.now = time.Date(2026, 11, 24, 17, 59, 0, 0, time.UTC)
	f.s.Tick()
	if n := f.kindCount("mod@players.test", "digest"); n != 0 {
		t.Fatalf("a digest before the configured hour: %d", n)
	}
	f.now = f.now.Add(2 * time.Minute)
	f.s.Tick()
	if n := f.kindCount("mod@players.test", "digest"); n != 1 {
		t.Fatalf("the digest at the configured hour: %d", n)
	}
	tmpl, _ := templates.New("")
	again := New(f.db, tmpl, f.s.cfg, zerolog.Nop(), WithRulesets(f.s.rules), WithClock(func() time.Time { return f.now.Add(time.Hour) }))
	if _, err := again.Tick(); err != nil {
		t.Fatal(err)
	}
	if n := f.kindCount("mod@players.test", "digest"); n != 1 {
		t.Errorf("a restart sent the digest again: %d", n)
	}
	f.now = f.now.Add(24 * time.Hour)
	f.s.Tick()
	if n := f.kindCount("mod@players.test", "digest"); n != 2 {
		t.Errorf("the next day's digest: %d", n)
	}
	f.s.cfg.DigestHour = -1
	f.now = f.now.Add(24 * time.Hour)
	f.s.Tick()
	if n := f.kindCount("mod@players.test", "digest"); n != 2 {
		t.Errorf("digest_hour -1 sends none: %d", n)
	}
}

// TestListShowsPausedHeldAndOver: the list says a paused game is paused and a held one held (with the
// deadline marked), and a finished game has no deadline.
func TestListShowsPausedHeldAndOver(t *testing.T) {
	f := newFixture(t, 0)
	one := func() Summary {
		t.Helper()
		l, err := f.s.List()
		if err != nil || len(l) != 1 {
			t.Fatalf("list: %v %v", l, err)
		}
		return l[0]
	}
	if s := one(); s.State() != "running" || strings.Contains(s.DeadlineText(), "(") {
		t.Errorf("running: %s %s", s.State(), s.DeadlineText())
	}
	f.mod("PAUSE")
	if s := one(); s.State() != "paused" || !strings.HasSuffix(s.DeadlineText(), "(paused)") {
		t.Errorf("paused: %s %s", s.State(), s.DeadlineText())
	}
	if st, _ := f.s.Status("g1"); st.State() != "paused" || !st.Paused {
		t.Errorf("status of a paused game: %s", st.State())
	}
	f.mod("RESUME")
	f.now = f.now.Add(49 * time.Hour) // nobody sent anything: an NMR spike holds the round
	f.s.Tick()
	if s := one(); s.State() != "held" || !strings.HasSuffix(s.DeadlineText(), "(held)") {
		t.Errorf("held: %s %s", s.State(), s.DeadlineText())
	}
	g := f.game()
	g.Status, g.Result = StatusOver, "a draw"
	if err := f.db.Update(func(tx *storage.Tx) error { return putGame(tx, g) }); err != nil {
		t.Fatal(err)
	}
	if s := one(); s.State() != "over" || s.DeadlineText() != "-" {
		t.Errorf("over: %s %s", s.State(), s.DeadlineText())
	}
}

// TestModeratorSubjectsSayWhatTheyAre: no moderator mail is just "notice": a held turn says it needs the
// moderator, and the others name their matter.
func TestModeratorSubjectsSayWhatTheyAre(t *testing.T) {
	f := newFixture(t, 0)
	f.mod("PAUSE")
	f.mod("RESUME")
	f.mod("EXTEND", "12")
	f.now = f.now.Add(61 * time.Hour)
	f.s.Tick()
	want := []string{"game started", ": pause", ": resume", ": extend 12", "HELD: turn 1 of g1 needs you"}
	var subjects []string
	for _, m := range f.outbox("mod@players.test") {
		subjects = append(subjects, m.Subject)
		if strings.HasSuffix(m.Subject, ": notice") {
			t.Errorf("a moderator mail says only %q", m.Subject)
		}
	}
	all := strings.Join(subjects, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no moderator mail about %q:\n%s", w, all)
		}
	}
	for _, m := range f.outbox("alice@players.test") {
		if strings.HasSuffix(m.Subject, ": notice") {
			t.Errorf("a player's mail says only %q", m.Subject)
		}
	}
}

// TestDigestForEachModerator: with several moderators, each gets one digest a day listing their own
// games and no one else's, a finished game among them, from one reading of the games.
func TestDigestForEachModerator(t *testing.T) {
	f := newFixture(t, 0)
	var g Game
	var state []byte
	f.db.View(func(tx *storage.Tx) error {
		gp, _ := getGame(tx, "g1")
		g = *gp
		state, _ = tx.Get(bucketState, "g1")
		return nil
	})
	copies := []struct{ id, moderator, status string }{
		{"g2", "mod2@players.test", StatusRunning},
		{"g3", "mod@players.test", StatusOver},
		{"g4", "mod3@players.test", StatusOver}, // a moderator with no running game gets none
	}
	if err := f.db.Update(func(tx *storage.Tx) error {
		for _, c := range copies {
			cg := g
			cg.ID, cg.Moderator, cg.Status = c.id, c.moderator, c.status
			b, _ := json.Marshal(cg)
			if err := tx.Put(bucketGames, c.id, b); err != nil {
				return err
			}
			if err := tx.Put(bucketState, c.id, state); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f.now = time.Date(2026, 11, 24, 7, 0, 0, 0, time.UTC)
	f.s.Tick()
	f.s.Tick()
	for _, c := range []struct {
		moderator string
		want      []string
		not       []string
	}{
		{"mod@players.test", []string{"g1 ", "g3 ", "missing: alice, bob"}, []string{"g2 ", "g4 "}},
		{"mod2@players.test", []string{"g2 ", "missing: alice, bob"}, []string{"g1 ", "g3 ", "g4 "}},
	} {
		var digests []storage.Outgoing
		for _, m := range f.outbox(c.moderator) {
			if m.Kind == "digest" {
				digests = append(digests, m)
			}
		}
		if len(digests) != 1 {
			t.Fatalf("%s got %d digests, want 1", c.moderator, len(digests))
		}
		for _, w := range c.want {
			if !strings.Contains(digests[0].Body, w) {
				t.Errorf("%s's digest lacks %q:\n%s", c.moderator, w, digests[0].Body)
			}
		}
		for _, n := range c.not {
			if strings.Contains(digests[0].Body, n) {
				t.Errorf("%s's digest lists %q, another moderator's game:\n%s", c.moderator, n, digests[0].Body)
			}
		}
	}
	if n := f.kindCount("mod3@players.test", "digest"); n != 0 {
		t.Errorf("a moderator with no running game got %d digests", n)
	}
}
