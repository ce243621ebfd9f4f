package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
