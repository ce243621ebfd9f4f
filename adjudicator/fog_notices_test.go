package adjudicator

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/storage"
	"sortie/templates"
)

// noticeGame is an Air Force game in which alice never sees bob's aircraft: hidden lists them, each
// a line of type and load (its bombs aboard or not), far beyond spotting range (docs/rulings.md,
// spotting). policy is the scenario's nmr line ("" for the default policy); bot makes bob's seat the
// computer's; carol adds bob's wing mate, unseen too, who sends her orders, so the game goes on when bob
// drops out.
func noticeGame(t *testing.T, hidden []string, policy string, bot, carol bool) *fogGame {
	t.Helper()
	var b strings.Builder
	b.WriteString(`ruleset: afd
name: notices
options: {fog_of_war: true}
sides: [RAF, Luftwaffe]
players:
  - {id: alice, name: Alice, side: RAF}
  - {id: bob, name: Bob, side: Luftwaffe}
`)
	if carol {
		b.WriteString("  - {id: carol, name: Carol, side: Luftwaffe}\n")
	}
	b.WriteString(`aircraft:
  - {callsign: RED1, type: spitfire-i, side: RAF, player: alice, hex: [0, 0], facing: 0, alt: 12000, speed: 6.0, bank: N}
`)
	if carol {
		b.WriteString("  - {callsign: CAROL1, type: bf-109e, side: Luftwaffe, player: carol, hex: [-60, 200], facing: 6, alt: 11000, speed: 5.0, bank: N}\n")
	}
	for i, h := range hidden {
		typ, load, _ := strings.Cut(h, " ")
		fmt.Fprintf(&b, "  - {callsign: FAR%d, type: %s, side: Luftwaffe, player: bob, hex: [%d, 200], facing: 6, alt: 11000, speed: 5.0, bank: N, loaded: %v}\n", i+1, typ, 3*i, load == "loaded")
	}
	b.WriteString(`turns: 2
victory:
  - {side: RAF, kind: destroy, aircraft: [FAR1], points: 1}
  - {side: Luftwaffe, kind: destroy, aircraft: [RED1], points: 1}
service:
  moderator: mod@players.test
  moderator_secret: mod-secret-0009
  seed: ` + testSeed + `
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
`)
	if carol {
		b.WriteString("    carol: {email: carol@players.test, secret: wren-finch-0003}\n")
	}
	if bot {
		b.WriteString("    bob: {bot: true}\n")
	} else {
		b.WriteString("    bob: {email: bob@players.test, secret: kite-heron-0002}\n")
	}
	if policy != "" {
		b.WriteString("  nmr: " + policy + "\n")
	}
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
	if _, err := f.s.NewGame([]byte(b.String()), "notices.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	return f
}

// playNotices plays the game to its end: alice (and carol, if there) send their orders every turn, bob
// never does; each turn waits for its deadline. It returns every mail alice got, masked as the fog test masks them.
func playNotices(t *testing.T, hidden []string, policy string, bot, carol bool) []string {
	f := noticeGame(t, hidden, policy, bot, carol)
	for turn := 1; turn <= 2; turn++ {
		st, err := f.s.Status("g1")
		if err != nil {
			t.Fatal(err)
		}
		if st.Status == StatusOver {
			break
		}
		ms := f.mails("alice@players.test")
		lines := orderLines(ms[len(ms)-1].Body)
		if len(lines) == 0 {
			t.Fatalf("turn %d: no order block in alice's last mail:\n%s", turn, ms[len(ms)-1].Body)
		}
		f.mail("alice@players.test", fmt.Sprintf("GAME g1 TURN %d SECRET lark-swift-0001\n%s\nEND", st.Round, strings.Join(lines, "\n")))
		if carol {
			cm := f.mails("carol@players.test")
			f.mail("carol@players.test", fmt.Sprintf("GAME g1 TURN %d SECRET wren-finch-0003\n%s\nEND", st.Round, strings.Join(orderLines(cm[len(cm)-1].Body), "\n")))
		}
		f.now = f.now.Add(49 * time.Hour)
		f.tick()
		f.tick()
		if st2, _ := f.s.Status("g1"); st2.Held != "" {
			f.mod("PROCESS", fmt.Sprint(st2.Round))
		}
	}
	var out []string
	for _, m := range f.mails("alice@players.test") {
		// Once the game is over its end reason names the units of a side with nothing left in play
		// and how they left it, seen or not (ruleset.EndReason: naming units is no news then).
		out = append(out, endFates.ReplaceAllString(maskFog(m), "has nothing left in play (...)"))
	}
	return out
}

var endFates = regexp.MustCompile(`has nothing left in play \([^)]*\)`)

// TestFogMissedTurnNotices: what alice is told of bob's missed orders — that the computer pilot flew
// them, that they flew on by default, that bob is on autopilot or has dropped out — is the same whatever
// bob's aircraft that she never saw carry. It used to differ (issue "Fog and faults", defect 2): the
// computer pilot gives no order to a plane with bombs aboard, so a loaded hidden bomber flew on by
// default and was announced so, and an unloaded one was "flown by the computer pilot". Every policy,
// and a seat the computer plays, with hidden aircraft loaded, unloaded and mixed.
func TestFogMissedTurnNotices(t *testing.T) {
	hiddens := [][]string{{"he-111h loaded"}, {"he-111h empty"}, {"he-111h loaded", "bf-109e empty"}}
	cases := []struct {
		name, policy string
		bot, carol   bool
		notices      []string // what alice must be told, in some mail
	}{
		{"autopilot", "{mode: autopilot, after: 1}", false, false, []string{"the computer pilot flew them", "is on autopilot"}},
		{"the computer's seat", "", true, false, nil},
		{"default policy", "", false, false, []string{"their aircraft flew on by default", "no order came from bob"}},
		{"dropout", "{mode: dropout, after: 1}", false, true, []string{"has dropped out of the game"}},
	}
	if raceEnabled {
		// Each game draws a dozen pictures, ten times slower under the race detector: the two cases
		// the defect was in, loaded against unloaded.
		cases, hiddens = cases[:2], hiddens[:2]
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first := playNotices(t, hiddens[0], c.policy, c.bot, c.carol)
			all := strings.Join(first, "\n")
			for _, n := range c.notices {
				if !strings.Contains(all, n) {
					t.Errorf("alice is never told %q: the test does not cover that notice", n)
				}
			}
			for _, h := range hiddens[1:] {
				other := playNotices(t, h, c.policy, c.bot, c.carol)
				if len(other) != len(first) {
					t.Errorf("alice got %d mails with bob's %v, %d with %v", len(first), hiddens[0], len(other), h)
					continue
				}
				for i := range first {
					if first[i] != other[i] {
						t.Errorf("mail %d to alice differs with what bob's unseen aircraft carry:\n--- %v ---\n%s\n--- %v ---\n%s", i+1, hiddens[0], first[i], h, other[i])
					}
				}
			}
		})
	}
}
