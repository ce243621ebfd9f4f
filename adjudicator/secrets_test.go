package adjudicator

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"sortie/rules/afd"
	"sortie/storage"
)

// submit sends a mail to the service's address, with a Message-ID of its own.
func (f *fixture) submit(from, text string) Outcome {
	f.t.Helper()
	return f.mailTo(from, "sortie@sortie.test", text)
}

func (f *fixture) mailTo(from, to, text string) Outcome {
	f.t.Helper()
	f.n++
	o, err := f.s.Submit(Envelope{From: from, MessageID: fmt.Sprintf("m%d@players.test", f.n), Text: text, Size: len(text), To: []string{to}})
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

// all is every mail queued so far, oldest first.
func (f *fixture) all() []storage.Outgoing {
	f.t.Helper()
	if _, err := f.s.DrawPictures(); err != nil { // what the sender does before each pass
		f.t.Fatal(err)
	}
	items, err := f.db.Pending(f.now.Add(10000*time.Hour), 0)
	if err != nil {
		f.t.Fatal(err)
	}
	return items
}

// play plays n turns: orders from both players (legal on turn 1; later turns take what is legal), and
// the moderator's resolve for whatever did not complete the round.
func (f *fixture) play(n int) {
	f.t.Helper()
	for i := 0; i < n; i++ {
		f.now = f.now.Add(time.Hour)
		st, err := f.s.Status("g1")
		if err != nil {
			f.t.Fatal(err)
		}
		r := st.Round
		f.submit("alice@players.test", fmt.Sprintf("GAME g1 TURN %d SECRET lark-swift-0001\nRED1: 1 TL 4 HOLD\nRED2: 6\nEND", r))
		f.submit("bob@players.test", fmt.Sprintf("GAME g1 TURN %d SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND", r))
		if f.game().Round == r {
			if _, err := f.s.ResolveGame("g1", true); err != nil {
				f.t.Fatal(err)
			}
		}
		if f.game().Round != r+1 {
			f.t.Fatalf("turn %d did not resolve", r)
		}
	}
}

// No mail of a whole game but the welcome shows a player's secret, and none but the moderator's first
// notice shows the moderator's: receipts, reports, reminders, RESEND, STATUS, HELP, refusals, the
// moderator's answers and the game-over mails may be forwarded without giving a seat away.
func TestNoMailButTheWelcomeShowsASecret(t *testing.T) {
	a := newFixtureTurns(t, 0, "", 3)
	g := a.game()
	alice, bob := g.seat("alice"), g.seat("bob")
	aliceReply := a.s.replyTo(alice)

	// Turn 1: orders with the secret, a faulty line, commands, a reply to the receipt without a secret.
	a.submit("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1 TQ 4\nRED2: 6\nEND")
	a.submit("alice@players.test", "GAME g1 SECRET lark-swift-0001\nSTATUS\nHELP\nEND")
	if o := a.mailTo("alice@players.test", aliceReply, "GAME g1 TURN 1\nRED1: 1 TL 4 HOLD\nEND"); o != Accepted {
		t.Fatalf("a reply to the personal address without a secret: %s", o)
	}
	a.submit("alice@players.test", "GAME g1 TURN 7 SECRET lark-swift-0001\nRED1: 6\nEND") // the turn guard
	a.submit("alice@players.test", "HELP")
	// A reminder for bob, who has sent nothing yet.
	a.now = a.now.Add(25 * time.Hour)
	if _, err := a.s.Tick(); err != nil {
		t.Fatal(err)
	}
	a.submit("mod@players.test", fmt.Sprintf("GAME g1 SECRET %s\nSTATUS\nEND", g.ModSecret))
	a.play(1)
	a.submit("alice@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND\nEND")
	a.submit("alice@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND TURN 1\nEND")
	a.mailTo("bob@players.test", a.s.replyTo(bob), "GAME g1\nRESEND\nSTATUS\nEND")
	a.submit("bob@players.test", "GAME g1 TURN 2\nKURT: 5\nEND") // no secret, bare address: refused
	a.play(2)
	if st := a.game(); st.Status != StatusOver {
		t.Fatalf("the game should be over: %s", st.Status)
	}
	a.submit("alice@players.test", "GAME g1 TURN 4 SECRET lark-swift-0001\nRED1: 6\nEND") // after the end
	a.submit("alice@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND\nEND")

	kinds := map[string]int{}
	for _, m := range a.all() {
		kinds[m.Kind]++
		text := strings.Join([]string{m.Subject, m.Body, m.ReplyTo, fmt.Sprint(m.Headers)}, "\n")
		for _, st := range g.Seats {
			if containsSecret(text, st.Secret) && !(m.Kind == "start" && m.To == st.Email) {
				t.Errorf("a %s mail to %s (%q) shows %s's secret:\n%s", m.Kind, m.To, m.Subject, st.Player, m.Body)
			}
		}
		if containsSecret(text, g.ModSecret) && !(m.Kind == "moderator" && strings.Contains(m.Body, "has started")) {
			t.Errorf("a %s mail to %s (%q) shows the moderator's secret:\n%s", m.Kind, m.To, m.Subject, m.Body)
		}
	}
	for _, k := range []string{"start", "receipt", "report", "over", "resend", "help", "refusal", "moderator", "error"} {
		if kinds[k] == 0 {
			t.Errorf("the game sent no %s mail; the test must see every kind (sent: %v)", k, kinds)
		}
	}
	if kinds["moderator"] < 3 {
		t.Errorf("the moderator's answers and notices are missing: %v", kinds)
	}
}

func containsSecret(text, secret string) bool {
	if secret == "" {
		return false
	}
	return strings.Contains(normalSecret(text), normalSecret(secret)) || strings.Contains(text, secret)
}

// A mail to the bare address naming a game but carrying no secret is told how to identify itself,
// and learns nothing of the game.
func TestNoSecretIsToldHowToIdentify(t *testing.T) {
	f := newFixture(t, 0)
	for _, game := range []string{"g1", "nosuchgame"} {
		if o := f.mail("alice@players.test", "n-"+game, "GAME "+game+" TURN 1\nRED1: 6\nEND"); o != Refused {
			t.Fatalf("%s: %s", game, o)
		}
	}
	all := f.outbox("alice@players.test")
	real, none := all[len(all)-2].Body, all[len(all)-1].Body
	for _, want := range []string{"no SECRET", "reply address", "sortie+<token>@sortie.test", "SECRET <your secret>"} {
		if !strings.Contains(real, want) {
			t.Errorf("the answer does not say %q:\n%s", want, real)
		}
	}
	if strings.ReplaceAll(real, "g1", "X") != strings.ReplaceAll(none, "nosuchgame", "X") {
		t.Errorf("the answer tells whether the game exists:\n%s\n---\n%s", real, none)
	}
}

// Secrets Sortie makes up have 80 bits from crypto/rand in Crockford base32, and are accepted in any
// case, with or without dashes, and with the look-alike letters O, I and L.
func TestGeneratedSecrets(t *testing.T) {
	shape := regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$`)
	seen := map[string]bool{}
	for i := 0; i < 2000; i++ {
		s := newSecret()
		if !shape.MatchString(s) {
			t.Fatalf("secret %q is not four groups of four Crockford base32 characters", s)
		}
		if seen[s] {
			t.Fatalf("secret %q made twice in 2000", s)
		}
		seen[s] = true
	}
	// Every character of the alphabet turns up in every position: 5 bits each, 80 in all.
	for pos := 0; pos < 19; pos++ {
		if pos%5 == 4 {
			continue
		}
		chars := map[byte]bool{}
		for s := range seen {
			chars[s[pos]] = true
		}
		if len(chars) != 32 {
			t.Errorf("position %d takes %d of 32 characters", pos, len(chars))
		}
	}

	// A game without set secrets: the welcome's secret works in other spellings.
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, 0)
	scn = append(scn, "\nservice:\n  moderator: mod@players.test\n  players:\n    alice: {email: alice@players.test}\n    bob: {email: bob@players.test}\n"...)
	g, err := f.s.NewGame(scn, "channel.yaml", "g2")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{g.Seats[0].Secret, g.Seats[1].Secret, g.ModSecret} {
		if !shape.MatchString(s) {
			t.Errorf("secret %q of a new game", s)
		}
	}
	sec := g.seat("alice").Secret
	crockford := strings.NewReplacer("0", "o", "1", "l")
	for i, spelling := range []string{sec, strings.ToLower(sec), strings.ReplaceAll(sec, "-", ""), crockford.Replace(strings.ToLower(sec))} {
		if o := f.mail("alice@players.test", fmt.Sprintf("sp%d", i), "GAME g2 TURN 1 SECRET "+spelling+"\nRED1: 6\nEND"); o != Accepted {
			t.Errorf("secret %s written as %s: %s", sec, spelling, o)
		}
	}
	if o := f.mail("alice@players.test", "sp-bad", "GAME g2 TURN 1 SECRET "+sec[:len(sec)-1]+"\nRED1: 6\nEND"); o != Refused {
		t.Errorf("a secret with a character missing: %s", o)
	}
	if o := f.mail("mod@players.test", "sp-mod", "GAME g2 SECRET "+strings.ToLower(strings.ReplaceAll(g.ModSecret, "-", ""))+"\nPAUSE\nEND"); o != Accepted {
		t.Errorf("the moderator's secret in lower case without dashes: %s", o)
	}
}

// A scenario may set secrets, but not short ones, and no control character in a name that reaches a
// mail header; each problem names its place.
func TestScenarioSecretsAndNamesChecked(t *testing.T) {
	base, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, 0)
	try := func(name string, scn []byte) error {
		t.Helper()
		_, err := f.s.NewGame(scn, "short.yaml", name)
		return err
	}
	svc := func(mod, a, b string) []byte {
		out := append([]byte(nil), base...)
		return append(out, fmt.Sprintf("\nservice:\n  moderator: mod@players.test\n%s  players:\n    alice: {email: alice@players.test%s}\n    bob: {email: bob@players.test%s}\n", mod, a, b)...)
	}
	err = try("s1", svc("  moderator_secret: m0d\n", ", secret: ab", ", secret: kite-22-kite-22"))
	for _, want := range []string{"short.yaml", "service.players.alice.secret", "service.moderator_secret", "at least 12"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("short secrets: the error does not name %q: %v", want, err)
		}
	}
	if err != nil && strings.Contains(err.Error(), "service.players.bob") {
		t.Errorf("bob's secret has 12 letters and digits: %v", err)
	}
	if err := try("s2", svc("", ", secret: lark lark lark lark", "")); err == nil || !strings.Contains(err.Error(), "service.players.alice.secret") {
		t.Errorf("a secret of several words: %v", err)
	}
	if err := try("s3", svc("  moderator_secret: Heron-Owl-Forty-One\n", ", secret: Lark_Kite_Wren_41", "")); err != nil {
		t.Errorf("good secrets refused: %v", err)
	}

	// A line break in the game's name, in a player's name, or in the moderator's address.
	named := append([]byte(nil), base...)
	named = regexp.MustCompile(`(?m)^name: .*$`).ReplaceAll(named, []byte(`name: "Channel\nBcc: victim@example.org"`))
	if err := try("s4", append(named, "\nservice:\n  players:\n    alice: {email: alice@players.test}\n    bob: {email: bob@players.test}\n"...)); err == nil ||
		!strings.Contains(err.Error(), "name: the game's name holds a control character") {
		t.Errorf("a line break in the game's name: %v", err)
	}
	if err := try("s5", append(append([]byte(nil), base...), "\nservice:\n  moderator: \"mod@players.test\\nBcc: victim@example.org\"\n  players:\n    alice: {email: alice@players.test}\n    bob: {email: bob@players.test}\n"...)); err == nil ||
		!strings.Contains(err.Error(), "service.moderator") {
		t.Errorf("a line break in the moderator's address: %v", err)
	}
	pname := strings.Replace(string(base), "{id: alice, name: Alice,", "{id: alice, name: \"Alice\\r\\nBcc: victim@example.org\",", 1)
	if pname == string(base) {
		t.Fatal("the scenario's player line has changed: fix the test")
	}
	if err := try("s6", append([]byte(pname), "\nservice:\n  players:\n    alice: {email: alice@players.test}\n    bob: {email: bob@players.test}\n"...)); err == nil ||
		!strings.Contains(err.Error(), "players.alice: the player's name, side or id holds a control character") {
		t.Errorf("a line break in a player's name: %v", err)
	}
	if n := len(f.outbox("victim@example.org")); n != 0 {
		t.Errorf("%d mails for the injected address", n)
	}
}

// Wrong secrets are counted per seat; the moderator hears of the fifth in a day, once, and the sender
// gets the usual refusal only.
func TestWrongSecretsToldToModerator(t *testing.T) {
	f := newFixture(t, 0)
	notices := func() []string {
		var out []string
		for _, m := range f.outbox("mod@players.test") {
			if strings.Contains(m.Body, "wrong secret") {
				out = append(out, m.Body)
			}
		}
		return out
	}
	refusal := ""
	for i := 1; i <= 7; i++ {
		if o := f.mail("alice@players.test", fmt.Sprintf("w%d", i), fmt.Sprintf("GAME g1 TURN 1 SECRET guess-%d\nRED1: 6\nEND", i)); o != Refused {
			t.Fatalf("guess %d: %s", i, o)
		}
		body := f.last("alice@players.test").Body
		if refusal != "" && body != refusal {
			t.Errorf("guess %d got another answer:\n%s", i, body)
		}
		refusal = body
		if n := len(notices()); (i < 5 && n != 0) || (i >= 5 && n != 1) {
			t.Fatalf("after %d wrong secrets the moderator has %d notices", i, n)
		}
	}
	if n := notices(); !strings.Contains(n[0], "alice") || !strings.Contains(n[0], "5 mails") {
		t.Errorf("the notice:\n%s", n[0])
	}
	if strings.Contains(refusal, "alice") || strings.Contains(refusal, "moderator") {
		t.Errorf("the refusal says more than usual:\n%s", refusal)
	}
	// Other seats and a stranger's address count apart; a right secret still works.
	for i := 1; i <= 4; i++ {
		f.mail("bob@players.test", fmt.Sprintf("b%d", i), "GAME g1 TURN 1 SECRET nope\nKURT: 5\nEND")
		f.mail("eve@evil.test", fmt.Sprintf("e%d", i), "GAME g1 TURN 1 SECRET nope\nKURT: 5\nEND")
	}
	if n := len(notices()); n != 1 {
		t.Errorf("four wrong secrets for bob and a stranger's guesses: %d notices", n)
	}
	if o := f.mail("alice@players.test", "ok", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND"); o != Accepted {
		t.Errorf("the right secret after wrong ones: %s", o)
	}
	// The next day counts again.
	f.now = f.now.Add(24 * time.Hour)
	for i := 1; i <= 5; i++ {
		f.mail("alice@players.test", fmt.Sprintf("d2-%d", i), "GAME g1 TURN 1 SECRET nope\nRED1: 6\nEND")
	}
	if n := len(notices()); n != 2 {
		t.Errorf("five wrong secrets the next day: %d notices in all", n)
	}
}
