package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sortie/rules/tnl"
)

// Every worked example of seed 003 through the public calculator, as the seed states it.
func TestCalcTnlSeedExamples(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string
	}{
		// "Movement Example": the Spitfire (8/7, FS 2) moves 2, turns left, half loops after 6, and is
		// inverted with all 8 hexes used.
		{"movement", []string{"move", "--type", "spitfire-i", "--plot", "2 TL 6 HL"},
			[]string{"speed 8/7, fly-straight 2", "Phase 1: 8 hexes of speed", "TL   hex (0,-2) facing 300", "ends in hex (-6,-2) facing 120, inverted", "Legal."}},
		// Combat example 1: 3 hexes, inverted: 5+; four white dice 2 2 5 6: two white hits.
		{"combat 1", []string{"fire", "--range", "3", "--inverted", "--white", "2,2,5,6"},
			[]string{"Range 3: each die needs 4", "4 white needing 5: 2 2 5 6: 2 white hits"}},
		// Combat example 2: 5 hexes: 6; red 6 and 1, white 3 and 4: one red hit.
		{"combat 2", []string{"fire", "--range", "5", "--red", "6,1", "--white", "3,4"},
			[]string{"2 red needing 6: 6 1: 1 red hit", "2 white needing 6: 3 4: 0 white hits", "1 hit in all"}},
		// Saving roll example 1: the 109 (SR 5) saves one of two white hits with 3 and 5: FS 3, 5/5.
		{"save 1", []string{"save", "--type", "bf-109e", "--hits", "white,white", "--dice", "3,5"},
			[]string{"Saving roll 5+", "1 saved, 1 suffered", "fly-straight 3, speed 5/5"}},
		// Saving roll example 2: a red hit on the Spitfire needs a 6; a 4 fails: FS 3, 6/5.
		{"save 2", []string{"save", "--type", "spitfire-i", "--hits", "red", "--dice", "4"},
			[]string{"red hit: rolled 4-1: not saved", "fly-straight 3, speed 6/5"}},
		// The initiative example: 109 unit A, Spitfires, He 111s, Hurricane unit A, 109 unit B,
		// Hurricane unit B.
		{"initiative", []string{"initiative", "--rolls", "HE111=7,BF109-A=3,BF109-B=10,SPITS=5,HURRI-A=9,HURRI-B=11"},
			[]string{"1. BF109-A rolled 3\n2. SPITS rolled 5\n3. HE111 rolled 7\n4. HURRI-A rolled 9\n5. BF109-B rolled 10\n6. HURRI-B rolled 11"}},
		// The altitude example: the 109 dives from High with its dive rating +1/+2: 8/9.
		{"dive", []string{"move", "--type", "bf-109e", "--speed", "7", "--level", "H", "--plot", "DIVE 8 / 9"},
			[]string{"Phase 1: 8 hexes of speed (may fly 5 to 8)", "Phase 2: 9 hexes of speed (may fly 6 to 9)", "Level after the turn: Medium", "Legal."}},
	}
	for _, c := range cases {
		out, errOut, code := sortie(t, append([]string{"calc", c.args[0], "--ruleset", "tnl"}, c.args[1:]...)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s %s", c.name, code, out, errOut)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out)
			}
		}
	}
	// An illegal plot: exit 1 and the rule named with its column.
	out, _, code := sortie(t, "calc", "move", "--ruleset", "tnl", "--type", "spitfire-i", "--plot", "1 TL 7")
	if code != 1 || !strings.Contains(out, "column 3") || !strings.Contains(out, "needs 2 hexes straight") {
		t.Errorf("a turn before the fly-straight run: exit %d\n%s", code, out)
	}
	if _, errOut, code := sortie(t, "calc", "fire", "--ruleset", "tnl", "--range", "0", "--white", "1"); code != 2 || !strings.Contains(errOut, "--range") {
		t.Errorf("a usage error: exit %d %s", code, errOut)
	}
	if out, _, _ := sortie(t, "--help"); !strings.Contains(out, "tnl") {
		t.Errorf("sortie --help must list the tnl calculator:\n%s", out)
	}
}

// sortie demo --ruleset tnl plays the bundled Battle of Britain scenario by mail to the end.
func TestDemoTnlPlaysAGameToTheEnd(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := sortie(t, "demo", "--ruleset", "tnl", "--out", filepath.Join(dir, "mails"), "--timeout", "60s")
	if code != 0 {
		t.Fatalf("demo exit %d: %s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "Result:") || !strings.Contains(out, "Battle of Britain") {
		t.Errorf("demo output:\n%s", out)
	}
	for _, p := range []string{"alice", "bob", "to-sortie"} {
		entries, err := os.ReadDir(filepath.Join(dir, "mails", p))
		if err != nil || len(entries) < 3 {
			t.Errorf("%s: %d mails (%v)", p, len(entries), err)
		}
	}
}

// TestEndToEndTnlGameByMail plays the bundled Thunderbolt & Lightning scenario through real IMAP and SMTP
// servers with the real daemon: a unit's whole turn in one line, a faulty line answered with its column,
// an aircraft given its own plot, and the game played to its end on the ready-made blocks.
func TestEndToEndTnlGameByMail(t *testing.T) {
	w := newWorld(t)
	scn, err := tnl.BundledScenarioFile(tnl.DefaultScenario)
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf("\nservice:\n  seed: %s\n  players:\n    alice: {email: alice@players.test}\n    bob: {email: bob@players.test}\n", e2eSeed))...)
	w.scenario = filepath.Join(w.dir, "tnl.yaml")
	if err := os.WriteFile(w.scenario, scn, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := w.run("game", "new", "--config", w.cfg, "--id", "tl", w.scenario); !strings.Contains(out, "game tl started") {
		t.Fatalf("game new: %s", out)
	}
	w.start("")
	aWelcome := w.waitMails("alice@players.test", "welcome", 1)[0]
	bWelcome := w.waitMails("bob@players.test", "welcome", 1)[0]
	aSecret := secretOf(t, aWelcome)
	if !strings.Contains(blockOf(aWelcome.Text), "SPITS: 7 / 7 FIRE ANY") || !strings.Contains(blockOf(aWelcome.Text), "HURRI-A: ") {
		t.Fatalf("the welcome offers a line per unit:\n%s", aWelcome.Text)
	}
	w.send("alice@players.test", "sortie@sortie.test", "ta1@players.test", plainHeaders(),
		fmt.Sprintf("GAME tl TURN 1 SECRET %s\nSPITS: 2 tl 5 / 7 fire any; SPIT3 7 / 7 HOLD\nHURRI-A: 1 TL 5 / 6\nEND\n", aSecret))
	r := w.waitMails("alice@players.test", "receipt", 1)[0]
	for _, want := range []string{"2 TL 5 / 7 FIRE ANY; SPIT3 7 / 7 HOLD", "STORED", "SPIT1 phase 1: 7 hexes", "ERROR column 12: TL needs 2 hexes straight", "NOT STORED"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("alice's receipt lacks %q:\n%s", want, r.Text)
		}
	}
	// Play on with the ready-made blocks until the game ends.
	for round := 0; round < 10; round++ {
		if len(w.mailsTo("alice@players.test", "game over")) > 0 {
			break
		}
		// A round is over when both players have its report: the next round answers each one's latest, so
		// waiting for alice's alone would let bob answer the report before (refused as the wrong turn).
		beforeA, beforeB := w.turnMails("alice@players.test"), w.turnMails("bob@players.test")
		for _, addr := range []string{"alice@players.test", "bob@players.test"} {
			last := bWelcome
			if addr == "alice@players.test" {
				last = aWelcome
			}
			if reps := w.mailsTo(addr, "report"); len(reps) > 0 {
				last = reps[len(reps)-1]
			}
			w.send(addr, last.ReplyTo, fmt.Sprintf("%s-tl%d", addr, round), plainHeaders(), blockOf(last.Text))
		}
		w.waitFor(fmt.Sprintf("round %d resolved", round), func() bool {
			return w.turnMails("alice@players.test") != beforeA && w.turnMails("bob@players.test") != beforeB
		})
	}
	over := w.waitMails("alice@players.test", "game over", 1)[0]
	if !strings.Contains(over.Text, e2eSeed) || !strings.Contains(over.Text, "wins") && !strings.Contains(over.Text, "draw") {
		t.Errorf("the last report gives the result and reveals the seed:\n%s", over.Text)
	}
	var all strings.Builder
	for _, m := range w.mailsTo("alice@players.test", "report") {
		all.WriteString(m.Text)
	}
	for _, want := range []string{"rolled", "initiative", "phase 1: SPIT1 flew", "combat phase"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("alice's reports never say %q", want)
		}
	}
}
