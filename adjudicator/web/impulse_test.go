package web

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"sortie/adjudicator"
	"sortie/rules/afd"
)

// In a game that asks only some players each round (the impulse game), how many rounds have passed
// depends on units a player may not have seen: while it runs, the public pages do not show its round,
// and a player's pages number their reports by their own count, as their mails do.
func TestAsksOnlyGameKeepsItsRoundsToItself(t *testing.T) {
	g := newTestGame(t, "g1", 4)
	scn, err := afd.BundledScenarioFile("kent-impulse-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf("\nservice:\n  seed: %s\n  players:\n    alice: {bot: true}\n    bob: {bot: true}\n", testSeed))...)
	if _, err := g.svc.NewGame(scn, "kent.yaml", "k1"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		if _, err := g.svc.ResolveGame("k1", true); err != nil {
			t.Fatal(err)
		}
	}
	st := g.status("k1")
	if st.Status != adjudicator.StatusRunning || st.Round != 13 {
		t.Fatalf("the impulse game: %s, round %d", st.Status, st.Round)
	}
	s := g.server(Options{})
	index := mustGet(t, s, "/")
	row := regexp.MustCompile(`(?s)<tr><th scope="row"><a href="/g/k1/">.*?</tr>`).FindString(index)
	if !strings.Contains(row, "not shown while the game runs") || strings.Contains(row, ">13<") {
		t.Errorf("the list shows the impulse game's round: %s", row)
	}
	if game := mustGet(t, s, "/g/k1/"); strings.Contains(game, "<dt>Turn</dt>") {
		t.Error("the impulse game's page shows its round")
	}
	if !strings.Contains(index, `<td class="num">1</td>`) {
		t.Error("the plain game's round is not shown")
	}
	fewer := false
	for _, player := range []string{"alice", "bob"} {
		home := mustGet(t, s, g.link("k1", player))
		labels := regexp.MustCompile(`report/\d+">([^<]*)<`).FindAllStringSubmatch(home, -1)
		fewer = fewer || len(labels) < 13
		if len(labels) < 2 || len(labels) > 13 {
			t.Fatalf("%s has %d reports", player, len(labels))
		}
		for k, l := range labels {
			want := fmt.Sprintf("Round %d", k)
			if k == 0 {
				want = "Opening position"
			}
			// The player's own count, with the game's clock as their mail gives it.
			if l[1] != want && !strings.HasPrefix(l[1], want+" (turn ") {
				t.Errorf("%s's report %d is labelled %q, want %q", player, k, l[1], want)
			}
		}
		t.Logf("%s was asked %d times in 12 rounds", player, len(labels)-1)
	}
	if !fewer {
		t.Error("every player was asked every round: the numbering was not put to the test")
	}
}
