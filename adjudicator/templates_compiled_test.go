package adjudicator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/storage"
	"sortie/templates"
)

// TestTemplatesCompiledOnRealMail: the templates package renders each template through a compiled form
// of it, and through text/template only where the compiled form does not handle something. Here the
// service's own data (receipts, reports, welcomes, game over, help, refusals, errors, notices) goes
// through both, in two rulesets and with and without plus-addressing and the web archive: every
// render must give text/template's bytes (a difference fails the mail, and so the test), and none may
// be handed back to text/template.
func TestTemplatesCompiledOnRealMail(t *testing.T) {
	for _, rs := range []string{"afd", "swarm"} {
		for _, cfg := range []Config{
			{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour},
			{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, NoPlusAddressing: true, WebBase: "https://sortie.example/web/"},
		} {
			t.Run(fmt.Sprintf("%s/plus=%v", rs, !cfg.NoPlusAddressing), func(t *testing.T) {
				tally := playChecked(t, rs, cfg)
				if d := tally.Differences(); len(d) > 0 {
					t.Fatalf("the compiled templates differ from text/template:\n%s", strings.Join(d, "\n"))
				}
				for _, name := range []string{"start", "receipt", "help", "error", "refusal", "announce", "report", "over"} {
					t.Logf("%s: %d renders", name, tally.Compiled(name))
					if tally.Compiled(name) == 0 || tally.FellBack(name) != 0 {
						t.Errorf("%s: %d renders by the compiled form, %d by text/template", name, tally.Compiled(name), tally.FellBack(name))
					}
				}
			})
		}
	}
}

// playChecked plays a two-round game through every kind of mail, with the templates checked.
func playChecked(t *testing.T, ruleset string, cfg Config) *templates.Tally {
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	tally := tmpl.CheckCompiled()
	f := &fogGame{t: t, db: db, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	f.s = New(db, tmpl, cfg, zerolog.Nop(), WithClock(func() time.Time { return f.now }))
	scn := append(hiddenUnits(t, ruleset, 1), []byte(fmt.Sprintf(`
service:
  moderator: mod@players.test
  moderator_secret: mod-secret-0009
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001, tz: Europe/Paris}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`, testSeed))...)
	if _, err := f.s.NewGame(scn, "checked.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(25 * time.Hour) // the 24-hour reminder
	f.tick()
	lines := orderLines(f.mails("alice@players.test")[0].Body)
	if len(lines) == 0 {
		t.Fatal("no order block in the welcome")
	}
	// A receipt with an order refused and a block problem, then one with the orders stored.
	f.mail("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\n"+lines[0]+" ZZ 99 QQ\nNOCOLON 6\nEND")
	f.mail("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\n"+strings.Join(lines, "\n")+"\nEND")
	f.mail("alice@players.test", "GAME g1 SECRET lark-swift-0001\nSTATUS\nHELP\nEND")
	f.mail("alice@players.test", "GAME g1 SECRET lark-swift-0001\nWAIT\nEND")
	f.mail("alice@players.test", "GAME g1 SECRET lark-swift-0001\nREADY\nEND")
	// Strangers and wrong secrets: help, an error, refusals.
	f.mail("someone@players.test", "Hi, how does this work?\nHELP\n")
	f.mail("someone@players.test", "Hello, no block here.")
	f.mail("alice@players.test", "GAME g1 TURN 1 SECRET wrong-secret-9\n"+lines[0]+"\nEND")
	f.mail("someone@players.test", "GAME nosuch TURN 1\n"+lines[0]+"\nEND")
	f.mod("PAUSE")
	f.now = f.now.Add(time.Hour)
	f.mod("RESUME")
	f.now = f.now.Add(48 * time.Hour) // past the deadline: bob missed turn 1
	f.tick()
	if st, err := f.s.Status("g1"); err != nil || st.Round != 2 {
		t.Fatalf("turn 1 did not resolve: %+v %v", st, err)
	}
	f.mail("alice@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND\nEND")
	f.now = f.now.Add(49 * time.Hour)
	f.tick()
	f.tick()
	if st, _ := f.s.Status("g1"); st.Held != "" {
		f.mod("PROCESS", "2")
	}
	if st, _ := f.s.Status("g1"); st.Status != StatusOver {
		t.Fatalf("the game is not over after two turns: %+v", st)
	}
	f.mail("alice@players.test", "GAME g1 TURN 3 SECRET lark-swift-0001\n"+lines[0]+"\nEND") // the game is over: an error
	return tally
}
