package adjudicator

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestImpulseRoundsNamedOneWay: in the impulse game (seed 001) a player's rounds are their own count of
// the times they were asked (Seat.Asks), and every mail says it the same way: the report's subject and
// first line, its NEXT line and the GAME line of its order block, which the player writes back and the
// turn guard reads, and the receipt. "turn" is kept for the game's turns: the report gives the clock
// ("turn 1, impulse 3"), and the end of the game says after which turn it ended, as its reason does.
func TestImpulseRoundsNamedOneWay(t *testing.T) {
	f := newImpulseGame(t)
	f.submit("alice@players.test", "GAME g1 ROUND 1 SECRET lark-swift-0001\nRED1: 1; 1; ` ` ` ` TR\nBLUE1: 1\nEND")
	if r := f.last("alice@players.test"); r.Kind != "receipt" || !strings.Contains(r.Subject, "round 1 orders") || !strings.Contains(r.Body, "STORED") {
		t.Fatalf("GAME g1 ROUND 1 is accepted for round 1: %s\n%s", r.Subject, r.Body)
	}
	f.submit("bob@players.test", "GAME g1 TURN 1 SECRET kite-heron-0002\nDORA: 1\nZERST: 1; 1\nEND")
	rep := f.last("alice@players.test")
	if want := "round 1 (turn 1, impulse 3) report"; !strings.Contains(rep.Subject, want) {
		t.Errorf("subject %q, want %q", rep.Subject, want)
	}
	for _, want := range []string{"round 1 (turn 1, impulse 3) resolved", "NEXT: ROUND 2 ", "\nGAME g1 ROUND 2\n"} {
		if !strings.Contains(rep.Body, want) {
			t.Errorf("alice's report lacks %q:\n%s", want, rep.Body)
		}
	}
	if m := regexp.MustCompile(`TURN \d`).FindString(rep.Body); m != "" {
		t.Errorf("the report names a round a turn (%q):\n%s", m, rep.Body)
	}
	// The GAME line as the report wrote it is the one the turn guard takes.
	f.submit("alice@players.test", "GAME g1 ROUND 2 SECRET lark-swift-0001\nBLUE1: 1\nEND")
	if r := f.last("alice@players.test"); !strings.Contains(r.Subject, "round 2 orders") || !strings.Contains(r.Body, "STORED") || !strings.Contains(r.Body, "GAME g1 ROUND 2") {
		t.Errorf("the receipt for round 2: %s\n%s", r.Subject, r.Body)
	}
	f.playForwards(400)
	over := f.last("bob@players.test")
	if over.Kind != "over" {
		t.Fatalf("the game did not end: %s", over.Subject)
	}
	if !strings.Contains(over.Body, "is over after turn 8, impulse 12.") || !strings.Contains(over.Body, "the turn limit (8) was reached") {
		t.Errorf("the end names the game's turn, as its reason does:\n%s", over.Body)
	}
	st, _ := f.s.Status("g1")
	if st.Turn != 8 {
		t.Errorf("the game's status gives the turns played: %d", st.Turn)
	}
	_ = fmt.Sprint
}

// replyBlock is the order block of the last mail to addr, sent back as it stands with the secret.
func (f *fixture) replyBlock(addr, secret string) {
	f.t.Helper()
	body := f.last(addr).Body
	k := strings.LastIndex(body, "\nGAME ")
	end := strings.Index(body[k:], "\nEND")
	if k < 0 || end < 0 {
		f.t.Fatalf("no order block in the last mail to %s:\n%s", addr, body)
	}
	block := strings.TrimSpace(body[k : k+end])
	lines := strings.SplitN(block, "\n", 2)
	lines[0] = strings.Fields(lines[0])[0] + " " + strings.Join(strings.Fields(lines[0])[1:4], " ") + " SECRET " + secret
	f.submit(addr, strings.Join(lines, "\n")+"\nEND")
}

// TestSwarmRoundsNamedByTheirTurns: in Swarm a round flies on through the squadrons' plotted courses
// (seed 004, docs/swarm.md: plots of several turns while no enemy is in sight), so the first round of
// Kanalkampf plays turns 1 to 3. Its report is named by those turns in the subject and the text, as its
// picture's "after turn 3" and its events' "turn 3:" do, and it asks for turn 4 on the NEXT line and
// the GAME line alike.
func TestSwarmRoundsNamedByTheirTurns(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour})
	scn, err := os.ReadFile("../rules/swarm/scenarios/kanalkampf-1940.yaml")
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
	if f.g, err = f.s.NewGame(scn, "kanalkampf.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	f.replyBlock("alice@players.test", "lark-swift-0001")
	f.replyBlock("bob@players.test", "kite-heron-0002")
	rep := f.last("alice@players.test")
	if !strings.Contains(rep.Subject, "turns 1-3 report") {
		t.Errorf("subject %q names the round by the turns it played, 1 to 3", rep.Subject)
	}
	for _, want := range []string{"turns 1-3 resolved", "turn 3: ", "NEXT: TURN 4 ", "\nGAME g1 TURN 4\n"} {
		if !strings.Contains(rep.Body, want) {
			t.Errorf("alice's report lacks %q:\n%s", want, rep.Body)
		}
	}
}
