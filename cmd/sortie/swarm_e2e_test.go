package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/rules/swarm"
	"sortie/storage"
	"sortie/templates"
)

// swarmMailGap recognises the one known obstacle on the Swarm mail path: the order block reading a Swarm
// order line in the Air Force notation (parser.ParseBlock → ParseOrderLine), which makes the adjudicator
// refuse the line before Game.CheckOrder sees it. The mail tests below skip, saying so, while it stands,
// and run in full once the block leaves the order text to the ruleset.
func swarmMailGap(receipt string) bool {
	return strings.Contains(receipt, `unknown token "M"`) || strings.Contains(receipt, `"S" on its own is not a token`)
}

const swarmGapNote = "the order block must leave each order line's text to the game's ruleset (parser.ParseBlockRaw), " +
	"so that Game.CheckOrder reads it in the ruleset's own notation"

// requireSwarmMailPath asks an adjudicator in this process to store one Swarm order from a mail, and fails
// the test if the order never reaches the ruleset (the mail path must stay open to every notation).
func requireSwarmMailPath(t *testing.T) {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "probe.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	s := adjudicator.New(db, tmpl, adjudicator.Config{Address: "sortie@sortie.test", ResolveDelay: time.Hour}, zerolog.Nop())
	scn, _ := swarm.BundledScenarioFile(swarm.DefaultScenario)
	scn = append(scn, "\nservice:\n  players:\n    alice: {email: alice@players.test, secret: lark-swift-0001}\n    bob: {email: bob@players.test}\n"...)
	if _, err := s.NewGame(scn, "k.yaml", "probe"); err != nil {
		t.Fatal(err)
	}
	text := "GAME probe TURN 1 SECRET lark-swift-0001\nTIGER: 2 S M 2; 2 S M 2; 2 S M 2\nEND\n"
	if _, err := s.Submit(adjudicator.Envelope{From: "alice@players.test", MessageID: "probe@players.test", Text: text, Size: len(text)}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Status("probe")
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range st.Seats {
		if seat.Player == "alice" && slices.Contains(seat.Missing, "TIGER") {
			t.Fatal("a Swarm order did not reach the ruleset through the mail path: " + swarmGapNote)
		}
	}
}

type swarmMoveOut struct {
	Legal  bool `json:"legal"`
	Errors []struct {
		Code       string `json:"code"`
		Column     int    `json:"column"`
		Suggestion string `json:"suggestion"`
	} `json:"errors"`
	Warnings []struct {
		Code string `json:"code"`
	} `json:"warnings"`
	Canonical string `json:"canonical"`
	Steps     []struct {
		Turn, Segment, Q, R, Facing int
		Token                       string
	} `json:"steps"`
	End struct {
		Q, R, Facing int
		Tack         string
	} `json:"end"`
}

func swarmCalc(t *testing.T, args ...string) (swarmMoveOut, int) {
	t.Helper()
	out, errOut, code := sortie(t, append([]string{"calc", "move", "--ruleset", "swarm", "--json"}, args...)...)
	var m swarmMoveOut
	if code != 2 {
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("no JSON (exit %d): %v\n%s\n%s", code, err, out, errOut)
		}
	}
	return m, code
}

// The seed's example through the calculator, with the Air Force calculator's JSON shape.
func TestCalcSwarmMoveSeedExample(t *testing.T) {
	m, code := swarmCalc(t, "--tack", "2 S L", "--facing", "1", "--plot", "3 R M 1 R 2")
	if code != 0 || !m.Legal || m.Canonical != "3 R M 1 R 2 FIRE ANY" {
		t.Fatalf("exit %d %+v", code, m)
	}
	if len(m.Steps) != 4 || m.Steps[1].Token != "R" || m.Steps[1].Facing != 3 || m.End.Q != 5 || m.End.R != -4 || m.End.Facing != 3 || m.End.Tack != "3 R M" {
		t.Errorf("steps/end: %+v", m)
	}
	// The illegal moves around it: exit 1, the rule named, a legal tack suggested.
	m, code = swarmCalc(t, "--tack", "1 L L", "--plot", "3 R M 1 R 2")
	if code != 1 || m.Legal || m.Errors[0].Code != "tack-move" || m.Errors[0].Suggestion != "2 S M" {
		t.Errorf("two spaces on the board: exit %d %+v", code, m)
	}
	m, code = swarmCalc(t, "--tack", "2 S L", "--plot", "3 R H 1 R 2")
	if code != 1 || m.Errors[0].Code != "band-move" {
		t.Errorf("two bands: exit %d %+v", code, m)
	}
	m, code = swarmCalc(t, "--tack", "2 S L", "--type", "spitfire-i", "--plot", "3 R M 1 R 2")
	if code != 1 || m.Errors[0].Code != "speed-crossed-off" {
		t.Errorf("speed 3 on a Spitfire: exit %d %+v", code, m)
	}
	m, code = swarmCalc(t, "--tack", "2 S L", "--plot", "3 R M 1 TR 2")
	if code != 1 || m.Errors[0].Code != "air-force-token" || m.Errors[0].Column != 9 {
		t.Errorf("a notation error is an illegal plot with its column: exit %d %+v", code, m)
	}
	m, code = swarmCalc(t, "--tack", "2 S M", "--plot", "2 S M 2; 2 L M 1 L 1; 2 S M 2")
	if code != 0 || len(m.Steps) != 7 || m.Steps[4].Turn != 2 || m.End.Facing != 11 {
		t.Errorf("three turns: exit %d %+v", code, m)
	}
	// Seed 004, "Cloud Cover": without the enemy in sight a course is 3 to 6 turns, as the game checks it.
	m, code = swarmCalc(t, "--tack", "2 S M", "--plot", "2 S M 2; 2 L M 1 L 1")
	if code != 1 || len(m.Errors) != 1 || m.Errors[0].Code != "course-length" {
		t.Errorf("two turns: exit %d %+v", code, m)
	}
	human, _, code := sortie(t, "calc", "move", "--ruleset", "swarm", "--tack", "2 S L", "--plot", "3rm 1r2")
	for _, want := range []string{"Read as:  3 R M 1 R 2 FIRE ANY", "(5,-4)", "Legal.", "Warning:"} {
		if !strings.Contains(human, want) || code != 0 {
			t.Errorf("human output lacks %q:\n%s", want, human)
		}
	}
}

func TestCalcSwarmUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"move", "--ruleset", "swarm", "--plot", "2 S M"},
		{"move", "--ruleset", "swarm", "--tack", "4 S M", "--plot", "2 S M"},
		{"move", "--ruleset", "swarm", "--tack", "2 S M", "--facing", "2", "--plot", "2 S M"},
		{"move", "--ruleset", "swarm", "--tack", "2 S M", "--type", "zeppelin", "--plot", "2 S M"},
		{"move", "--ruleset", "swarm", "--tack", "2 S M"},
		{"move", "--ruleset", "chess", "--tack", "2 S M", "--plot", "2 S M"},
		{"fire", "--ruleset", "swarm", "--firepower", "4D6", "--range", "2", "--dice", "1,2,3"},
		{"fire", "--ruleset", "swarm", "--firepower", "3D6", "--range", "7", "--dice", "1,2,3"},
		{"fire", "--ruleset", "swarm", "--firepower", "3D6", "--range", "2", "--dice", "1,2"},
		{"fire", "--ruleset", "swarm", "--firepower", "3D6", "--range", "2", "--dice", "1,2,7"},
		{"fire", "--ruleset", "swarm", "--firepower", "3D6", "--range", "2", "--dice", "1,2,3", "--save", "4"},
	} {
		if out, errOut, code := sortie(t, append([]string{"calc"}, args...)...); code != 2 || errOut == "" || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// The Air Force calculator stays the default, and takes --ruleset afd too.
	if _, _, code := sortie(t, "calc", "move", "--ruleset", "afd", "--aircraft", "a6m2", "--speed", "4", "--alt", "5000", "--bank", "N", "--plot", "1 TR 1 TR"); code != 0 {
		t.Errorf("--ruleset afd: exit %d", code)
	}
}

// calc fire: each die scores if it equals or beats the range; each score gets an evasive save against
// the house chart; a failed save fills a pip; durable types add 1.
func TestCalcSwarmFire(t *testing.T) {
	type fireOut struct {
		Firepower, Range, Scored, Filled int
		SaveNeed                         int    `json:"save_need"`
		SaveMod                          int    `json:"save_mod"`
		SavesRolled                      bool   `json:"saves_rolled"`
		Chart                            string `json:"chart"`
		Attacks                          []struct {
			Die    int
			Scored bool
			Save   *int
			Evaded *bool
		}
	}
	read := func(args ...string) fireOut {
		out, errOut, code := sortie(t, append([]string{"calc", "fire", "--ruleset", "swarm", "--json"}, args...)...)
		var f fireOut
		if code != 0 || json.Unmarshal([]byte(out), &f) != nil {
			t.Fatalf("exit %d %s %s", code, out, errOut)
		}
		return f
	}
	f := read("--firepower", "3D6", "--range", "3", "--dice", "5,2,3", "--save", "4,1")
	if f.Scored != 2 || f.Attacks[1].Scored || f.SaveNeed != 4 || !f.SavesRolled || f.Filled != 1 || !*f.Attacks[0].Evaded || *f.Attacks[2].Evaded ||
		!strings.Contains(f.Chart, "house") {
		t.Errorf("3D6 at range 3: %+v", f)
	}
	if f := read("--firepower", "3D6", "--range", "3", "--dice", "5,2,3", "--save", "3,3", "--durable"); f.Filled != 0 || f.SaveMod != 1 {
		t.Errorf("durable: %+v", f)
	}
	if f := read("--firepower", "1D6", "--range", "6", "--dice", "6"); f.Scored != 1 || f.SavesRolled || f.SaveNeed != 2 {
		t.Errorf("without saves: %+v", f)
	}
	if f := read("--firepower", "2D6", "--range", "1", "--dice", "1,1", "--save", "5,6", "--evasion", "6,6,6"); f.Scored != 2 || f.Filled != 1 || f.SaveNeed != 6 {
		t.Errorf("another chart: %+v", f)
	}
	human, _, _ := sortie(t, "calc", "fire", "--ruleset", "swarm", "--firepower", "2D6", "--range", "2", "--dice", "2,6", "--save", "1,6")
	if !strings.Contains(human, "2 scored") || !strings.Contains(human, "1 pip filled") {
		t.Errorf("human output:\n%s", human)
	}
}

// sortie demo --ruleset swarm plays the bundled Swarm scenario by mail to the end.
func TestDemoSwarmPlaysAGameToTheEnd(t *testing.T) {
	requireSwarmMailPath(t)
	dir := t.TempDir()
	out, errOut, code := sortie(t, "demo", "--ruleset", "swarm", "--out", filepath.Join(dir, "mails"), "--timeout", "60s")
	if code != 0 {
		t.Fatalf("demo exit %d: %s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "Result:") || !strings.Contains(out, "Kanalkampf") {
		t.Errorf("demo output:\n%s", out)
	}
	for _, p := range []string{"alice", "bob", "to-sortie"} {
		entries, err := os.ReadDir(filepath.Join(dir, "mails", p))
		if err != nil || len(entries) < 3 {
			t.Errorf("%s: %d mails (%v)", p, len(entries), err)
		}
	}
}

// TestEndToEndSwarmGameByMail plays the bundled Swarm scenario through real IMAP and SMTP servers with the
// real daemon, as TestEndToEndGameByMail does an Air Force game: a cloud-cover course of several turns in
// one mail, a faulty order answered with its column, receipts with the forecast, rounds that play several
// turns while every squadron flies its course, reports checked against the archive for what each side
// could see, and the game to its end.
func TestEndToEndSwarmGameByMail(t *testing.T) {
	requireSwarmMailPath(t)
	w := newWorld(t)
	scn, err := swarm.BundledScenarioFile(swarm.DefaultScenario)
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf("\nservice:\n  seed: %s\n  players:\n    alice: {email: alice@players.test}\n    bob: {email: bob@players.test}\n", e2eSeed))...)
	w.scenario = filepath.Join(w.dir, "swarm.yaml")
	if err := os.WriteFile(w.scenario, scn, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := w.run("game", "new", "--config", w.cfg, "--id", "sw", w.scenario); !strings.Contains(out, "game sw started") {
		t.Fatalf("game new: %s", out)
	}
	d := w.start("")
	aWelcome := w.waitMails("alice@players.test", "welcome", 1)[0]
	bWelcome := w.waitMails("bob@players.test", "welcome", 1)[0]
	aSecret, bSecret := secretOf(t, aWelcome), secretOf(t, bWelcome)
	if !strings.Contains(aWelcome.Text, "no enemy in sight") || !strings.Contains(blockOf(aWelcome.Text), "TIGER: 2 S M 2 FIRE ANY; 2 S M 2 FIRE ANY; 2 S M 2 FIRE ANY") {
		t.Fatalf("the welcome must offer a cloud-cover course:\n%s", aWelcome.Text)
	}

	// Turn 1, Alice: a course of four turns for TIGER, and a faulty line for LION.
	w.send("alice@players.test", "sortie@sortie.test", "sa1@players.test", plainHeaders(),
		fmt.Sprintf("GAME sw TURN 1 SECRET %s\nTIGER: 2SM2; 2 S M 2; 2 s m 2; 2 S M 2 HOLD\nLION: 2 S M 2 S; 2 S M 2; 2 S M 2\nEND\n", aSecret))
	r := w.waitMails("alice@players.test", "receipt", 1)[0]
	if swarmMailGap(r.Text) {
		t.Fatalf("the order block read a Swarm order in the Air Force notation:\n%s", r.Text)
	}
	for _, want := range []string{"2 S M 2 FIRE ANY; 2 S M 2 FIRE ANY; 2 S M 2 FIRE ANY; 2 S M 2 HOLD", "STORED", "turn 4: tack 2 S M (Medium) from (6,6) facing 150",
		"column 15", "path-token", "NOT STORED", "Still missing from you: LION"} {
		if !strings.Contains(r.Text, want) && !(want == "path-token" && strings.Contains(r.Text, "S in the path")) {
			t.Errorf("alice's first receipt lacks %q:\n%s", want, r.Text)
		}
	}
	// The same for LION, a course of three; and one turn only is refused without sight of the enemy.
	w.send("alice@players.test", "sortie@sortie.test", "sa2@players.test", plainHeaders(),
		fmt.Sprintf("GAME sw TURN 1 SECRET %s\nLION: 2 S M 2\nEND\n", aSecret))
	r = w.waitMails("alice@players.test", "receipt", 2)[1]
	if !strings.Contains(r.Text, "no enemy in sight") || !strings.Contains(r.Text, "NOT STORED") {
		t.Errorf("a single turn without contact must be refused:\n%s", r.Text)
	}
	w.send("alice@players.test", "sortie@sortie.test", "sa3@players.test", plainHeaders(),
		fmt.Sprintf("GAME sw TURN 1 SECRET %s\nLION: 2 S M 2; 2 S M 2; 2 S M 2\nEND\n", aSecret))
	if r = w.waitMails("alice@players.test", "receipt", 3)[2]; !strings.Contains(r.Text, "STORED") || !strings.Contains(r.Text, "Still waiting for: Bob") {
		t.Errorf("LION's course:\n%s", r.Text)
	}
	// Bob replies to his welcome with the ready-made block, through his reply address.
	w.send("bob@players.test", bWelcome.ReplyTo, "sb1@players.test", plainHeaders(), blockOf(bWelcome.Text))
	// A round of several turns is named by them (rules/ruleset/naming.go): "turns 1-3 report".
	rep := w.waitMails("alice@players.test", "turns 1-3 report", 1)[0]
	w.waitMails("bob@players.test", "turns 1-3 report", 1)
	// Everyone flew a course of three turns or more, so turns 1-3 are one round.
	if !strings.Contains(rep.Text, "turn 1: TIGER sets out on a plotted course of 4 turns") || !strings.Contains(rep.Text, "turn 3: ") ||
		!strings.Contains(rep.Text, "NEXT: TURN 4") {
		t.Errorf("the first report must tell three turns of courses:\n%s", rep.Text)
	}
	_ = bSecret

	// Play on with the ready-made blocks until the game ends; the Dorniers bomb while they can.
	for round := 0; round < 12; round++ {
		if len(w.mailsTo("alice@players.test", "game over")) > 0 {
			break
		}
		// The round is over when both players have its report: the next round answers each one's latest.
		beforeA, beforeB := w.turnMails("alice@players.test"), w.turnMails("bob@players.test")
		for _, addr := range []string{"alice@players.test", "bob@players.test"} {
			reps := w.mailsTo(addr, "report")
			last := reps[len(reps)-1]
			block := blockOf(last.Text)
			if !strings.Contains(block, ": ") {
				continue // every squadron of this player flies its course: nothing to send
			}
			if addr == "bob@players.test" && strings.Contains(last.Text, "bombs aboard") {
				lines := strings.Split(block, "\n")
				for i, l := range lines {
					if strings.HasPrefix(l, "ADLER: ") {
						lines[i] = strings.ReplaceAll(l, " FIRE ANY", " BOMB FIRE ANY")
					}
				}
				block = strings.Join(lines, "\n")
			}
			w.send(addr, last.ReplyTo, fmt.Sprintf("%s-sw%d", addr, round), plainHeaders(), block)
		}
		w.waitFor(fmt.Sprintf("round %d resolved", round), func() bool {
			return w.turnMails("alice@players.test") != beforeA && w.turnMails("bob@players.test") != beforeB
		})
	}
	over := w.waitMails("alice@players.test", "game over", 1)[0]
	w.waitMails("bob@players.test", "game over", 1)
	if !strings.Contains(over.Text, e2eSeed) || !strings.Contains(over.Text, "wins") && !strings.Contains(over.Text, "draw") {
		t.Errorf("the last report must give the result and reveal the seed:\n%s", over.Text)
	}
	for _, m := range w.mailsTo("alice@players.test", "receipt") {
		if strings.Contains(m.Text, "NOT STORED") && !strings.Contains(m.Text, "LION") {
			t.Errorf("a ready-made block was refused:\n%s", m.Text)
		}
	}
	w.stop(d)
	w.nothingPending() // a mail still to be sent would be there
	seen := map[string]int{}
	for _, m := range w.sent() {
		seen[m.MessageID+" "+m.To]++
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("mail %s was sent %d times", id, n)
		}
	}
	checkSwarmReports(t, w)
}

// checkSwarmReports compares every report with the archived state after its round: the enemy squadrons a
// report lists are exactly those its side had in sight, with position, facing and band only.
func checkSwarmReports(t *testing.T, w *world) {
	db, err := storage.Open(w.db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	type rec struct {
		Round       int             `json:"round"`
		StateBefore json.RawMessage `json:"state_before"`
	}
	var recs []rec
	err = db.View(func(tx *storage.Tx) error {
		return tx.ForEach([]string{"archive", "sw"}, func(k string, v []byte) error {
			var r rec
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			recs = append(recs, r)
			return nil
		})
	})
	if err != nil || len(recs) < 3 {
		t.Fatalf("archive: %v (%d rounds)", err, len(recs))
	}
	line := regexp.MustCompile(`(?m)^  ([A-Z0-9-]+)\s+squadron: hex \((-?\d+),(-?\d+)\) facing (\d+), (High|Medium|Low)$`)
	for addr, side := range map[string]string{"alice@players.test": "RAF", "bob@players.test": "Luftwaffe"} {
		for i := 0; i+1 < len(recs); i++ {
			var after swarm.State
			if err := json.Unmarshal(recs[i+1].StateBefore, &after); err != nil {
				t.Fatal(err)
			}
			var reps []mail
			roundRE := regexp.MustCompile(fmt.Sprintf(`\] turns? %d(-\d+)? report`, recs[i].Round))
			for _, m := range w.mailsTo(addr, "report") {
				if roundRE.MatchString(m.Subject) {
					reps = append(reps, m)
				}
			}
			if len(reps) != 1 {
				t.Fatalf("%s got %d reports for round %d", addr, len(reps), recs[i].Round)
			}
			text := reps[0].Text
			a, b := strings.Index(text, "ENEMY SQUADRONS IN SIGHT"), strings.Index(text, "State commitment")
			if a < 0 || b < a {
				t.Fatalf("report without an enemy section:\n%s", text)
			}
			section := text[a:b]
			if m := strings.Index(section, "\nMAP"); m >= 0 {
				section = section[:m]
			}
			got := map[string]bool{}
			for _, m := range line.FindAllStringSubmatch(section, -1) {
				got[m[1]] = true
				q := after.Squadron(m[1])
				if q == nil || q.Side == side || fmt.Sprintf("(%s,%s)", m[2], m[3]) != q.Pos.Hex.String() {
					t.Errorf("round %d, %s: %q does not match the state", recs[i].Round, addr, m[0])
				}
			}
			for _, q := range after.Squadrons {
				if q.Side != side && q.InPlay() && after.Sight[side][q.Callsign] != got[q.Callsign] {
					t.Errorf("round %d, %s: %s in sight %v, in the report %v", recs[i].Round, addr, q.Callsign, after.Sight[side][q.Callsign], got[q.Callsign])
				}
			}
			for _, secret := range []string{"pips", "tack", "firepower", "do-17z", "bf-109e", "spitfire-i", "hurricane-i", "course"} {
				if strings.Contains(section, secret) {
					t.Errorf("round %d, %s: the enemy section tells %q:\n%s", recs[i].Round, addr, secret, section)
				}
			}
		}
	}
}
