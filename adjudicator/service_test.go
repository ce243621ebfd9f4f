package adjudicator

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	goldenfile "sortie/internal/golden"
	"sortie/rules/afd"
	"sortie/rules/registry"
	"sortie/storage"
	"sortie/templates"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testSeed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

type fixture struct {
	t   testing.TB
	s   *Service
	db  *storage.DB
	now time.Time
	g   *Game
	n   int // mails sent through submit
}

func newFixture(t *testing.T, delay time.Duration) *fixture { return newFixtureWith(t, delay, "") }

// newFixtureWith adds extra lines to the scenario's service section (indented two spaces).
func newFixtureWith(t testing.TB, delay time.Duration, extra string) *fixture {
	t.Helper()
	return newFixtureTurns(t, delay, extra, 0)
}

// newService is a service on a real bbolt file, with a clock the test moves (f.now), and no game yet.
func newService(t testing.TB, cfg Config, opts ...Option) *fixture {
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
	f := &fixture{t: t, db: db, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	f.s = New(db, tmpl, cfg, zerolog.Nop(), append([]Option{WithClock(func() time.Time { return f.now }), WithRulesets(testRulesets(t))}, opts...)...)
	return f
}

// newFixtureTurns is newFixtureWith with the scenario's turn limit replaced by turns, if not 0, and the
// service made with opts besides its clock.
func newFixtureTurns(t testing.TB, delay time.Duration, extra string, turns int, opts ...Option) *fixture {
	t.Helper()
	return newFixtureConfig(t, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, ResolveDelay: delay}, extra, turns, opts...)
}

// newFixtureConfig is newFixtureTurns with the service's configuration given whole.
func newFixtureConfig(t testing.TB, cfg Config, extra string, turns int, opts ...Option) *fixture {
	t.Helper()
	f := newService(t, cfg, opts...)
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
  moderator_secret: mod-secret-0009
  seed: %s%s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001, tz: Europe/Paris}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`, testSeed, extra))...)
	if f.g, err = f.s.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) mail(from, id, text string) Outcome {
	f.t.Helper()
	o, err := f.s.Submit(Envelope{From: from, MessageID: id, Text: text, Size: len(text), To: []string{"sortie@sortie.test"}})
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

// outbox returns every queued mail to addr, oldest first.
func (f *fixture) outbox(addr string) []storage.Outgoing {
	f.t.Helper()
	if _, err := f.s.DrawPictures(); err != nil { // what the sender does before each pass
		f.t.Fatal(err)
	}
	items, err := f.db.Pending(f.now.Add(1000*time.Hour), 0)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []storage.Outgoing
	for _, it := range items {
		if it.To == addr {
			out = append(out, it)
		}
	}
	return out
}

func (f *fixture) last(addr string) storage.Outgoing {
	f.t.Helper()
	all := f.outbox(addr)
	if len(all) == 0 {
		f.t.Fatalf("nothing queued for %s", addr)
	}
	return all[len(all)-1]
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.File(t, filepath.Join("testdata", name+".golden"), []byte(got), *update, "go test ./adjudicator -update")
}

// Reply tokens and the secret change from game to game; hide nothing else.
var tokenRE = regexp.MustCompile(`sortie\+[0-9a-f]{16}@`)

func stable(s string) string { return tokenRE.ReplaceAllString(s, "sortie+TOKEN@") }

func TestGoldenMails(t *testing.T) {
	// With the web archive served, so the reports show both of the player's links.
	f := newFixtureConfig(t, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, WebBase: "https://games.example.org/sortie/"}, "", 0)
	golden(t, "start", stable(f.last("alice@players.test").Body))
	golden(t, "moderator-start", f.last("mod@players.test").Body)

	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 2R 1 TR 1 FIRE KURT\nRED2: 1 TRTR 4\nEND")
	golden(t, "receipt", stable(f.last("alice@players.test").Body))

	f.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND")
	// Alice replies to her receipt, keeping its Reply-To: no secret needed. All orders are in.
	if o, err := f.s.Submit(Envelope{From: "alice@players.test", MessageID: "a1b", Text: "GAME g1 TURN 1\nRED1: 6\nRED2: 6\nEND",
		To: []string{f.last("alice@players.test").ReplyTo}}); err != nil || o != Accepted {
		t.Fatalf("a reply to the receipt without a secret: %s %v", o, err)
	}
	if _, err := f.s.Tick(); err != nil { // the goldens below are the turn 1 reports
		t.Fatal(err)
	}
	golden(t, "report-alice", stable(f.last("alice@players.test").Body))
	golden(t, "report-bob", stable(f.last("bob@players.test").Body))

	f.mail("eve@evil.test", "e1", "GAME g1 TURN 2 SECRET guess\nHANS: 6\nEND")
	golden(t, "refusal", f.last("eve@evil.test").Body)
	f.mail("alice@players.test", "a2", "GAME g1 TURN 2\nRED1: 6\nEND") // to the bare address, without a secret
	golden(t, "refusal-nosecret", f.last("alice@players.test").Body)
	f.mail("someone@players.test", "h1", "Hi, how does this work?\nHELP\n")
	golden(t, "help", f.last("someone@players.test").Body)
	f.mail("someone@players.test", "n1", "Just saying hello.")
	golden(t, "no-block", f.last("someone@players.test").Body)
	// Orders sent from the plotting board: the receipt says where they came from.
	if r, err := f.s.SubmitBoard("g1", "bob", "board-1", "GAME g1 TURN 2\nKURT: 5 HOLD\nHANS: 1 L 4\nEND"); err != nil || r.Outcome != Accepted {
		t.Fatalf("SubmitBoard: %+v %v", r, err)
	}
	golden(t, "receipt-board", stable(f.last("bob@players.test").Body))
}

func TestIdentityAndTurnGuard(t *testing.T) {
	f := newFixture(t, 0)
	if o := f.mail("alice@players.test", "x1", "GAME g1 TURN 1 SECRET wrong\nRED1: 6\nEND"); o != Refused {
		t.Errorf("a wrong secret: %s", o)
	}
	if o := f.mail("mallory@evil.test", "x2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND"); o != Refused {
		t.Errorf("the right secret from the wrong address: %s", o)
	}
	// The reply token alone identifies the seat.
	var token string
	f.db.View(func(tx *storage.Tx) error { g, _ := getGame(tx, "g1"); token = g.seat("alice").Token; return nil })
	o, err := f.s.Submit(Envelope{From: "alice.other@elsewhere.test", MessageID: "x3", To: []string{"Sortie+" + token + "@sortie.test"}, Text: "GAME g1 TURN 1\nRED1: 6\nEND"})
	if err != nil || o != Accepted {
		t.Errorf("token address: %s %v", o, err)
	}
	// A plot for another side's aircraft says only that it is not yours.
	f.mail("alice@players.test", "x4", "GAME g1 TURN 1 SECRET lark-swift-0001\nKURT: 5\nEND")
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "KURT is not one of your aircraft") || strings.Contains(body, "he-111") {
		t.Errorf("someone else's aircraft:\n%s", body)
	}
	// The turn guard.
	f.mail("alice@players.test", "x5", "GAME g1 TURN 2 SECRET lark-swift-0001\nRED2: 6\nEND")
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "for turn 2, but the game is on turn 1") {
		t.Errorf("turn guard:\n%s", body)
	}
	// The same Message-ID twice changes nothing.
	before := len(f.outbox("alice@players.test"))
	if o := f.mail("alice@players.test", "x4", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 6\nEND"); o != Duplicate || len(f.outbox("alice@players.test")) != before {
		t.Errorf("a duplicate Message-ID must be a no-op: %s", o)
	}
}

func TestLastValidOrderWinsAndCommands(t *testing.T) {
	f := newFixture(t, 10*time.Minute)
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	f.mail("alice@players.test", "a2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1 TL 4 HOLD\nRED2: 1 TRTR 4\nEND")
	body := f.last("alice@players.test").Body
	if !strings.Contains(body, "RED1: 1 TL 4 HOLD") || !strings.Contains(body, "RED2: 6 FIRE ANY") {
		t.Errorf("the last valid order per aircraft must stand:\n%s", body)
	}
	f.mail("alice@players.test", "a3", "GAME g1 TURN 1 SECRET lark-swift-0001\nCLEAR RED2\nEND")
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "Still missing from you: RED2") {
		t.Errorf("CLEAR RED2:\n%s", body)
	}
	f.mail("alice@players.test", "a4", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 6\nWAIT\nEND")
	f.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5\nHANS: 6\nEND")
	// All in, but Alice waits: nothing resolves, even after the delay.
	f.now = f.now.Add(20 * time.Minute)
	if done, _ := f.s.Tick(); len(done) != 0 {
		t.Fatal("a WAIT must hold the round")
	}
	f.mail("alice@players.test", "a5", "GAME g1 TURN 1 SECRET lark-swift-0001\nREADY\nEND")
	f.now = f.now.Add(5 * time.Minute)
	if done, _ := f.s.Tick(); len(done) != 0 {
		t.Fatal("after READY the resolve delay starts again")
	}
	f.now = f.now.Add(6 * time.Minute)
	if done, _ := f.s.Tick(); len(done) != 1 {
		t.Fatal("all in, nobody waiting, delay passed: the round resolves")
	}
	if reps := f.outbox("bob@players.test"); !strings.Contains(reps[len(reps)-1].Subject, "turn 1 report") {
		t.Errorf("bob's last mail is %q", reps[len(reps)-1].Subject)
	}
	// STATUS, RESEND and HELP.
	f.mail("alice@players.test", "a6", "GAME g1 SECRET lark-swift-0001\nSTATUS\nRESEND\nHELP\nEND")
	all := f.outbox("alice@players.test")
	subjects := []string{all[len(all)-2].Subject, all[len(all)-1].Subject}
	if !strings.Contains(subjects[0]+subjects[1], "turn 1 report") || !strings.Contains(subjects[0]+subjects[1], "receipt") {
		t.Errorf("RESEND and the receipt: %v", subjects)
	}
	// Asking twice for the same report is fine.
	f.mail("alice@players.test", "a7", "GAME g1 SECRET lark-swift-0001\nRESEND\nEND")
}

// The deadline resolves a round with the missing orders flown by default, and everyone is told who
// missed (docs/rulings.md: NMR).
func TestDeadlineAndNMR(t *testing.T) {
	f := newFixture(t, 0)
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	f.now = f.now.Add(47 * time.Hour)
	if done, _ := f.s.Tick(); len(done) != 0 {
		t.Fatal("resolved before the deadline")
	}
	f.now = f.now.Add(2 * time.Hour)
	if done, _ := f.s.Tick(); len(done) != 1 {
		t.Fatal("the deadline passed and the round did not resolve")
	}
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "No orders came this turn from Bob") {
		t.Errorf("the NMR must be announced:\n%s", body)
	}
	st, err := f.s.Status("g1")
	if err != nil || st.Round != 2 || st.Archived != 1 {
		t.Fatalf("status: %+v %v", st, err)
	}
}

func TestOversizeAndIgnored(t *testing.T) {
	f := newFixture(t, 0)
	before := len(f.outbox("alice@players.test"))
	o, _ := f.s.Submit(Envelope{From: "alice@players.test", MessageID: "big", Size: 10 << 20, Text: "GAME g1"})
	if o != Refused || len(f.outbox("alice@players.test")) != before+1 {
		t.Errorf("oversize mail gets a polite refusal: %s", o)
	}
	o, _ = f.s.Submit(Envelope{From: "alice@players.test", MessageID: "ooo", IgnoreWhy: "auto-reply", Text: "I am away"})
	if o != Ignored || len(f.outbox("alice@players.test")) != before+1 {
		t.Errorf("an auto-reply is never answered: %s", o)
	}
}

// TestWithoutPlusAddressing: with plus_addressing off, mail goes out with the bare address as Reply-To,
// the welcome and the reports tell players to write their secret, the ready-made block asks for it,
// and an order with the secret is taken while one without is refused with that advice.
func TestWithoutPlusAddressing(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, NoPlusAddressing: true})
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf(`
service:
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`, testSeed))...)
	if f.g, err = f.s.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	welcome := f.last("alice@players.test")
	if welcome.ReplyTo != "" && welcome.ReplyTo != "sortie@sortie.test" || strings.Contains(welcome.Body, "sortie+") ||
		!strings.Contains(welcome.Body, "Put it on the GAME line of every block") || !strings.Contains(welcome.Body, "GAME g1 TURN 1 SECRET <your secret>") {
		t.Errorf("the welcome (Reply-To %q):\n%s", welcome.ReplyTo, welcome.Body)
	}
	f.mail("alice@players.test", "a0", "GAME g1 TURN 1\nRED1: 6\nEND")
	if r := f.last("alice@players.test"); !strings.Contains(r.Body, "add your secret to the GAME line") || strings.Contains(r.Body, "reply address") {
		t.Errorf("an order without the secret:\n%s", r.Body)
	}
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	f.mail("bob@players.test", "b1", "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5\nHANS: 6\nEND")
	rep := f.last("alice@players.test")
	if !strings.Contains(rep.Body, "turn 1") || !strings.Contains(rep.Body, "put your secret (from your\nwelcome mail) in place of <your secret>") || strings.Contains(rep.Body, "sortie+") {
		t.Errorf("the report:\n%s", rep.Body)
	}
}

// testRulesets are the shipped rulesets and the tests' own wraps of the Air Force one: panicky (its
// Resolve panics), plotted and unplanned (board_test.go).
func testRulesets(t testing.TB) *registry.Set {
	t.Helper()
	afdRules, err := registry.Get("afd")
	if err != nil {
		t.Fatal(err)
	}
	set, err := registry.Shipped().With(panicky{afdRules}, plotted{afdRules}, unplanned{afdRules})
	if err != nil {
		t.Fatal(err)
	}
	return set
}
