package adjudicator

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image/png"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/parser"
	"sortie/rules/afd"
	"sortie/rules/swarm"
	"sortie/storage"
	"sortie/templates"
)

// fogGame is one game for the fog tests: a bundled scenario with hidden enemy units added far out of
// sight of alice's side, played on a real bbolt file with a fake clock.
type fogGame struct {
	t   *testing.T
	s   *Service
	db  *storage.DB
	now time.Time
	n   int
}

// hiddenUnits adds n units for bob, far beyond what alice's side can see, to a bundled scenario, and
// cuts the game to two rounds so it ends.
func hiddenUnits(t *testing.T, ruleset string, n int) []byte {
	t.Helper()
	var scn []byte
	var err error
	var extra strings.Builder
	switch ruleset {
	case "afd":
		scn, err = afd.BundledScenarioFile("channel-1940")
		// A longer map, so the far aircraft are more than the spotting range (40 hexes) away.
		scn = bytes.Replace(scn, []byte("max_row: 40"), []byte("max_row: 120"), 1)
		scn = bytes.Replace(scn, []byte("\nturns: 12\n"), []byte("\nturns: 2\n"), 1)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&extra, "  - {callsign: FAR%d, type: bf-109e, side: Luftwaffe, player: bob, hex: [%d, 100], facing: 6, alt: 13000, speed: 6.0, bank: N}\n", i, i)
		}
		scn = bytes.Replace(scn, []byte("turns: 2\n"), []byte(extra.String()+"turns: 2\n"), 1)
	case "swarm":
		scn, err = swarm.BundledScenarioFile("kanalkampf-1940")
		scn = bytes.Replace(scn, []byte("\nturns: 10\n"), []byte("\nturns: 2\n"), 1)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&extra, "  - {callsign: FAR%d, name: Far %d, type: bf-109e, side: Luftwaffe, player: bob, hex: [%d, 60], facing: 150, tack: 2 S M}\n", i, i, 60+2*i)
		}
		scn = bytes.Replace(scn, []byte("targets:\n"), []byte(extra.String()+"targets:\n"), 1)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(scn), "FAR1") {
		t.Fatalf("the hidden units were not added to the %s scenario", ruleset)
	}
	return scn
}

func newFogGame(t *testing.T, ruleset string, hidden int) *fogGame {
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
	f := &fogGame{t: t, db: db, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	f.s = New(db, tmpl, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour}, zerolog.Nop(), WithClock(func() time.Time { return f.now }))
	scn := append(hiddenUnits(t, ruleset, hidden), []byte(fmt.Sprintf(`
service:
  moderator: mod@players.test
  moderator_secret: mod-secret-0009
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`, testSeed))...)
	if _, err := f.s.NewGame(scn, "fog.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fogGame) mail(from, text string) {
	f.t.Helper()
	f.n++
	if _, err := f.s.Submit(Envelope{From: from, MessageID: fmt.Sprintf("f%d@players.test", f.n), Text: text, Size: len(text), To: []string{"sortie@sortie.test"}}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fogGame) mod(cmd string, args ...string) {
	f.t.Helper()
	if _, err := f.s.Moderate("g1", parser.Command{Name: cmd, Args: args}); err != nil {
		f.t.Fatalf("%s: %v", cmd, err)
	}
}

func (f *fogGame) tick() {
	f.t.Helper()
	if _, err := f.s.Tick(); err != nil {
		f.t.Fatal(err)
	}
}

// mails is every mail queued for addr, oldest first.
func (f *fogGame) mails(addr string) []storage.Outgoing {
	f.t.Helper()
	if _, err := f.s.DrawPictures(); err != nil { // what the sender does before each pass
		f.t.Fatal(err)
	}
	items, err := f.db.Pending(f.now.Add(10000*time.Hour), 0)
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

// orderLines are the order lines of the ready-to-fill block in a mail.
func orderLines(body string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(line, "GAME g1 TURN"):
			in, out = true, nil
		case line == "END":
			in = false
		case in && strings.TrimSpace(line) != "":
			out = append(out, line)
		}
	}
	return out
}

// playFog plays a whole two-round game in which bob never sends an order, through every kind of mail
// alice can get: the welcome, reminders, a receipt, STATUS, pause and resume notices, a report with
// bob's missed orders, a round held for the moderator by an NMR spike (in Swarm alice's course may
// still run, so nobody is silent but bob), and the game-over mail.
func playFog(t *testing.T, ruleset string, hidden int) []storage.Outgoing {
	f := newFogGame(t, ruleset, hidden)
	f.now = f.now.Add(25 * time.Hour) // the 24-hour reminder
	f.tick()
	start := f.mails("alice@players.test")[0]
	lines := orderLines(start.Body)
	if len(lines) == 0 {
		t.Fatalf("no order block in the welcome:\n%s", start.Body)
	}
	f.mail("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\n"+strings.Join(lines, "\n")+"\nEND")
	f.mail("alice@players.test", "GAME g1 SECRET lark-swift-0001\nSTATUS\nEND")
	f.mod("PAUSE")
	f.now = f.now.Add(time.Hour)
	f.mod("RESUME")
	f.now = f.now.Add(48 * time.Hour) // past the deadline: bob missed turn 1
	f.tick()
	if st, err := f.s.Status("g1"); err != nil || st.Round != 2 {
		t.Fatalf("turn 1 did not resolve: %+v %v", st, err)
	}
	f.now = f.now.Add(49 * time.Hour) // nobody sends: a spike, held for the moderator
	f.tick()
	f.tick()
	if st, _ := f.s.Status("g1"); st.Held != "" {
		f.mod("PROCESS", "2")
	} else if ruleset == "afd" {
		t.Fatalf("turn 2 was not held: %+v", st)
	}
	if st, _ := f.s.Status("g1"); st.Status != StatusOver {
		t.Fatalf("the game is not over after two turns: %+v", st)
	}
	return f.mails("alice@players.test")
}

var (
	hex64RE   = regexp.MustCompile(`[0-9a-f]{64}`)
	sortieTok = regexp.MustCompile(`sortie\+[0-9a-f]{16}@`)
)

// TestFogHiddenEnemyCount: every mail alice gets (and the map picture of every report, byte for byte) — welcome, reminders, receipts, STATUS, pause and
// resume notices, reports with the enemy's missed orders, the game-over mail — is the same whether bob
// has one or four aircraft she never sees, and none names them. The state commitments differ (the
// states do) and are masked; so are the reply tokens. It used to fail: a missed order was announced
// once per enemy unit, seen or not.
func TestFogHiddenEnemyCount(t *testing.T) {
	for _, rs := range []string{"afd", "swarm"} {
		t.Run(rs, func(t *testing.T) {
			one, four := playFog(t, rs, 1), playFog(t, rs, 4)
			kinds := map[string]bool{}
			for _, m := range four {
				kinds[m.Kind] = true
				for i := 1; i <= 4; i++ {
					if name := fmt.Sprintf("FAR%d", i); strings.Contains(m.Subject+m.Body, name) {
						t.Errorf("a %s mail to alice names the unseen %s:\n%s", m.Kind, name, m.Body)
					}
				}
			}
			for _, m := range four {
				if m.Kind != "start" && m.Kind != "report" && m.Kind != "over" {
					if len(m.Parts) > 0 {
						t.Errorf("a %s mail carries parts: %+v", m.Kind, m.Parts)
					}
					continue
				}
				if len(m.Parts) != 1 || m.Parts[0].ContentType != "image/png" || !m.Parts[0].Inline {
					t.Errorf("a %s mail does not carry its map picture inline: %d parts", m.Kind, len(m.Parts))
					continue
				}
				if _, err := png.Decode(bytes.NewReader(m.Parts[0].Data)); err != nil {
					t.Errorf("the %s mail's picture is not a PNG: %v", m.Kind, err)
				}
			}
			for _, k := range []string{"start", "reminder", "receipt", "announce", "report", "over"} {
				if !kinds[k] {
					t.Errorf("the game sent alice no %s mail (she got %v): the test does not cover it", k, kinds)
				}
			}
			if !strings.Contains(strings.Join(mailTexts(four), "\n"), "no order came from bob") {
				t.Error("bob's missed orders must still be announced to alice")
			}
			if len(one) != len(four) {
				t.Fatalf("alice got %d mails with 1 hidden enemy, %d with 4", len(one), len(four))
			}
			for i := range one {
				a, b := maskFog(one[i]), maskFog(four[i])
				if a != b {
					t.Errorf("mail %d (%s) to alice differs with the number of hidden enemies:\n--- 1 hidden ---\n%s\n--- 4 hidden ---\n%s", i+1, one[i].Kind, a, b)
				}
			}
		})
	}
}

func mailTexts(ms []storage.Outgoing) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Subject+"\n"+m.Body)
	}
	return out
}

func maskFog(m storage.Outgoing) string {
	s := m.Kind + "\n" + m.Subject + "\n" + m.Body
	// The map picture must be the very same bytes whatever alice cannot see.
	for _, p := range m.Parts {
		s += fmt.Sprintf("\npart %s %s %x", p.Filename, p.ContentType, sha256.Sum256(p.Data))
	}
	return sortieTok.ReplaceAllString(hex64RE.ReplaceAllString(s, "HEX"), "sortie+TOKEN@")
}
