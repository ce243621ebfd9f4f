package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sortie/rules/tnl"
)

// sortie game new --bot SIDE: the computer takes the side's seats that have no address, and resolving
// the round flies them with the computer pilot; the moderator's status shows no one missing there.
func TestGameNewWithABot(t *testing.T) {
	dir, cfg, scenario := archiveSetup(t)
	scn, err := os.ReadFile(scenario)
	if err != nil {
		t.Fatal(err)
	}
	solo := filepath.Join(dir, "solo.yaml")
	os.WriteFile(solo, []byte(strings.Replace(string(scn), "    bob: {email: bob@players.test}\n", "", 1)), 0o644)
	out := mustRun(t, "game", "new", "--config", cfg, "--id", "s1", "--bot", "Luftwaffe", solo)
	if !strings.Contains(out, "bob") || !strings.Contains(out, "(the computer)") {
		t.Errorf("game new lists the computer's seat:\n%s", out)
	}
	if _, errOut, code := sortie(t, "game", "new", "--config", cfg, "--id", "s2", "--bot", "Nobody", solo); code == 0 || !strings.Contains(errOut, "no side") {
		t.Errorf("--bot with an unknown side: exit %d %s", code, errOut)
	}
	mustRun(t, "game", "resolve", "--config", cfg, "s1")
	if st := mustRun(t, "game", "status", "--config", cfg, "s1"); !strings.Contains(st, "round 2") || !strings.Contains(st, "played by the computer") {
		t.Errorf("the round was resolved:\n%s", st)
	}
}

// A solo player plays a whole game by mail against the computer through the real daemon and mail servers:
// the Luftwaffe is the computer's (bot: true), and only Alice is mailed; every round resolves on her orders
// alone.
func TestEndToEndSoloGameByMail(t *testing.T) {
	w := newWorld(t)
	scn, err := tnl.BundledScenarioFile(tnl.DefaultScenario)
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf("\nservice:\n  seed: %s\n  players:\n    alice: {email: alice@players.test}\n    bob: {bot: true}\n", e2eSeed))...)
	w.scenario = filepath.Join(w.dir, "solo.yaml")
	if err := os.WriteFile(w.scenario, scn, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := w.run("game", "new", "--config", w.cfg, "--id", "solo", w.scenario); !strings.Contains(out, "(the computer)") {
		t.Fatalf("game new: %s", out)
	}
	w.start("")
	last := w.waitMails("alice@players.test", "welcome", 1)[0]
	for round := 0; round < 12; round++ {
		if len(w.mailsTo("alice@players.test", "game over")) > 0 {
			break
		}
		before := w.turnMails("alice@players.test")
		w.send("alice@players.test", last.ReplyTo, fmt.Sprintf("solo-%d", round), plainHeaders(), blockOf(last.Text))
		w.waitFor(fmt.Sprintf("round %d resolved on alice's orders alone", round), func() bool {
			return w.turnMails("alice@players.test") != before
		})
		if reps := w.mailsTo("alice@players.test", "report"); len(reps) > 0 {
			last = reps[len(reps)-1]
		}
	}
	over := w.waitMails("alice@players.test", "game over", 1)[0]
	if !strings.Contains(over.Text, "wins") && !strings.Contains(over.Text, "draw") {
		t.Errorf("the last report gives the result:\n%s", over.Text)
	}
	if n := len(w.mailsTo("bob@players.test", "")); n != 0 {
		t.Errorf("the computer's seat was mailed %d times", n)
	}
}
