package adjudicator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"sortie/rules/afd"
)

// newImpulseGame starts the bundled impulse scenario (seed 001) with two players by mail, without the
// Hurricane that scrambles from the airfield: the round-by-round tests follow the four aircraft in the
// air, and TestImpulseGroundPlaneByMail plays the whole scenario.
func newImpulseGame(t *testing.T) *fixture {
	return newImpulseGameWith(t, false)
}

func newImpulseGameWith(t *testing.T, scramble bool) *fixture {
	t.Helper()
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour})
	scn, err := afd.BundledScenarioFile("kent-impulse-1940")
	if err != nil {
		t.Fatal(err)
	}
	if !scramble {
		lines := strings.Split(string(scn), "\n")
		var kept []string
		for _, line := range lines {
			if !strings.Contains(line, "callsign: SCRAMBLE") {
				kept = append(kept, line)
			}
		}
		if len(kept) == len(lines) {
			t.Fatal("the bundled impulse scenario no longer has SCRAMBLE: update newImpulseGame")
		}
		scn = []byte(strings.Join(kept, "\n"))
	}
	scn = append(scn, []byte(fmt.Sprintf(`
service:
  moderator: mod@players.test
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`, testSeed))...)
	if f.g, err = f.s.NewGame(scn, "kent.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	return f
}

// reportsTo counts the reports queued for addr.
func (f *fixture) reportsTo(addr string) int { return f.kindCount(addr, "report") }

// TestImpulseGameByMail: the Delta-T impulse game played by mail (seed 001). Each round runs the engine
// to the end of the impulse in which some aircraft completes its manoeuvre with nothing queued; only
// its owner is mailed and asked, with the events they have not been told. Aircraft finish in the same
// impulse and in different ones, queued manoeuvres fly on without asking, a manoeuvre runs into the
// next turn, and a missed deadline flies the forwards manoeuvre for that aircraft alone.
func TestImpulseGameByMail(t *testing.T) {
	f := newImpulseGame(t)
	if st, _ := f.s.Status("g1"); st.Round != 1 || len(st.Seats[0].Missing) != 2 || len(st.Seats[1].Missing) != 2 {
		t.Fatalf("round 1 asks for every aircraft's first manoeuvre: %+v", st.Seats)
	}
	// Round 1. RED1 (speed 5: impulses 3 5 8 10 12) queues three manoeuvres, the last running into
	// turn 2; BLUE1 (speed 4: 3 6 9 12) one; DORA (speed 4) one; ZERST (speed 5) two.
	f.submit("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1; 1; ` ` ` ` TR\nBLUE1: 1\nEND")
	receipt := f.last("alice@players.test").Body
	if !strings.Contains(receipt, "turn 1 impulse 3") || !strings.Contains(receipt, "goes on into turn 2") {
		t.Errorf("the receipt forecasts impulse by impulse and says a manoeuvre runs into turn 2:\n%s", receipt)
	}
	if strings.Contains(receipt, "Still waiting for") {
		t.Errorf("in an impulse game a receipt names no other player it waits for (that tells when their aircraft finished a manoeuvre):\n%s", receipt)
	}
	aliceReports := f.reportsTo("alice@players.test")
	f.submit("bob@players.test", "GAME g1 TURN 1 SECRET kite-heron-0002\nDORA: 1\nZERST: 1; 1\nEND")
	// Impulse 3: BLUE1 and DORA both complete their manoeuvre with nothing queued.
	st, _ := f.s.Status("g1")
	if st.Round != 2 {
		t.Fatalf("round 1 did not resolve: %+v", st)
	}
	if m := seatStatus(st, "alice").Missing; strings.Join(m, ",") != "BLUE1" {
		t.Errorf("alice is asked for BLUE1 only: %v", m)
	}
	if m := seatStatus(st, "bob").Missing; strings.Join(m, ",") != "DORA" {
		t.Errorf("bob is asked for DORA only: %v", m)
	}
	if subj := f.last("alice@players.test").Subject; !strings.Contains(subj, "round 1 (turn 1, impulse 3) report") {
		t.Errorf("an impulse game's rounds are called rounds, not turns: %q", subj)
	}
	if f.reportsTo("alice@players.test") != aliceReports+1 || !strings.Contains(f.last("alice@players.test").Body, "impulse 3") {
		t.Errorf("alice gets a report of impulse 3:\n%s", f.last("alice@players.test").Body)
	}
	// Round 2: BLUE1 and DORA fly forwards again. ZERST completes its queue in impulse 5, before
	// BLUE1 and DORA (impulse 6): only bob is asked, for ZERST, and alice gets nothing.
	aliceReports = f.reportsTo("alice@players.test")
	f.submit("alice@players.test", "GAME g1 TURN 2 SECRET lark-swift-0001\nBLUE1: 1\nEND")
	f.submit("bob@players.test", "GAME g1 TURN 2 SECRET kite-heron-0002\nDORA: 1\nEND")
	st, _ = f.s.Status("g1")
	if st.Round != 3 || strings.Join(seatStatus(st, "bob").Missing, ",") != "ZERST" || len(seatStatus(st, "alice").Missing) != 0 {
		t.Fatalf("round 3 asks bob for ZERST only: %+v", st.Seats)
	}
	if f.reportsTo("alice@players.test") != aliceReports {
		t.Errorf("alice, who is not asked, is not mailed")
	}
	// Round 3: bob misses the deadline. ZERST flies the forwards manoeuvre and everyone is told in
	// their next report; the engine goes on to impulse 6, where BLUE1 and DORA are done.
	f.now = f.now.Add(25 * time.Hour)
	if _, err := f.s.Tick(); err != nil {
		t.Fatal(err)
	}
	st, _ = f.s.Status("g1")
	if st.Round != 4 {
		t.Fatalf("the missed deadline resolves the round: %+v", st)
	}
	if m := seatStatus(st, "alice").Missing; strings.Join(m, ",") != "BLUE1" {
		t.Errorf("alice is asked for BLUE1 after impulse 6: %v", m)
	}
	last := f.last("alice@players.test").Body
	for _, want := range []string{"impulse 6", "RED1 flew 1", "manoeuvres to fly: ` ` ` ` TR"} {
		if !strings.Contains(last, want) {
			t.Errorf("alice's report lacks %q:\n%s", want, last)
		}
	}
	if bob := f.last("bob@players.test").Body; !strings.Contains(bob, "no order from bob for ZERST: it flew the forwards manoeuvre") {
		t.Errorf("bob is told ZERST flew the forwards manoeuvre:\n%s", bob)
	}
	// Play on with forwards manoeuvres until RED1's turn is under way into turn 2.
	f.playForwards(12)
	var all strings.Builder
	for _, m := range f.outbox("alice@players.test") {
		all.WriteString(m.Body)
	}
	if !strings.Contains(all.String(), "RED1 flew ` ` ` ` TR") || !strings.Contains(all.String(), "turn 2 impulse") {
		t.Errorf("RED1's turn into turn 2 must be reported")
	}
}

func seatStatus(st *GameStatus, player string) SeatStatus {
	for _, s := range st.Seats {
		if s.Player == player {
			return s
		}
	}
	return SeatStatus{}
}

// TestImpulseQueuedManoeuvreBecomesIllegalByMail: a manoeuvre queued for the next turn that the new
// initial values forbid (RED1 climbs into its 10,000 ft band, where its turn mode is 3) is dropped at the
// turn's start; alice is asked again for RED1, and her report says why (seed 001 X.A.3).
func TestImpulseQueuedManoeuvreBecomesIllegalByMail(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour})
	scn := fmt.Sprintf(`ruleset: afd
name: climb
options: {fog_of_war: false, impulse: true}
sides: [A, B]
players: [{id: alice, side: A}, {id: bob, side: B}]
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: alice, hex: [0, 10], facing: 0, alt: 9700, speed: 5.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: bob, hex: [10, -10], facing: 6, alt: 8000, speed: 4.0}
turns: 5
service:
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`, testSeed)
	if _, err := f.s.NewGame([]byte(scn), "climb.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	if o := f.submit("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: ` +1 ` +1 ` +1 ` TR; ` TR\nEND"); o != Accepted {
		t.Fatalf("the queue is taken: %s\n%s", o, f.last("alice@players.test").Body)
	}
	f.submit("bob@players.test", "GAME g1 TURN 1 SECRET kite-heron-0002\nBLUE1: 1; 1; 1; 1\nEND")
	st, _ := f.s.Status("g1")
	if m := seatStatus(st, "alice").Missing; strings.Join(m, ",") != "RED1" {
		t.Fatalf("alice is asked for RED1 again at the start of turn 2: %v (round %d)", m, st.Round)
	}
	body := f.last("alice@players.test").Body
	if !strings.Contains(body, "can no longer be flown") || !strings.Contains(body, "needs 3") {
		t.Errorf("alice's report says why RED1's queued turn was dropped:\n%s", body)
	}
}

// askedRound is the round number the last mail to addr asks orders for: its own count in an impulse
// game, read from the ready-to-fill block.
func (f *fixture) askedRound(addr string) int {
	f.t.Helper()
	all := f.outbox(addr)
	for i := len(all) - 1; i >= 0; i-- {
		var n int
		for _, word := range []string{"ROUND", "TURN"} {
			if k := strings.LastIndex(all[i].Body, "GAME g1 "+word+" "); k >= 0 {
				if _, err := fmt.Sscanf(all[i].Body[k:], "GAME g1 "+word+" %d", &n); err == nil {
					return n
				}
			}
		}
	}
	f.t.Fatalf("no order block in the mails to %s", addr)
	return 0
}

// impulseFogGame is a duel by mail in an impulse game with fog of war, and, if hidden, a second aircraft
// of bob's far beyond alice's sight that finishes its manoeuvres in other impulses than anyone else.
func impulseFogGame(t *testing.T, hidden bool) *fixture {
	t.Helper()
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour})
	extra := ""
	if hidden {
		extra = "  - {callsign: GHOST, type: bf-109e, side: B, player: bob, hex: [0, -60], facing: 6, alt: 8000, speed: 7.0}\n"
	}
	scn := fmt.Sprintf(`ruleset: afd
name: dark
options: {fog_of_war: true, impulse: true}
sides: [A, B]
players: [{id: alice, side: A}, {id: bob, side: B}]
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: alice, hex: [0, 10], facing: 0, alt: 8000, speed: 5.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: bob, hex: [0, -10], facing: 6, alt: 8000, speed: 4.0}
%sturns: 3
service:
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`, extra, testSeed)
	if _, err := f.s.NewGame([]byte(scn), "dark.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestImpulseFogHiddenEnemyStops: in an impulse game a hidden enemy aircraft whose manoeuvres stop the
// engine more often changes nothing in what alice gets: her mails are the same, word for word (but the
// keyed state commitments), because her rounds are numbered in her own count (Seat.Asks), her receipts
// name no one else, and she is mailed only when asked. Without her own numbering the rounds she was not
// asked in would show in her TURN line and her subjects.
func TestImpulseFogHiddenEnemyStops(t *testing.T) {
	play := func(hidden bool) []string {
		f := impulseFogGame(t, hidden)
		f.playForwards(60)
		if g := f.game(); g.Status != StatusOver {
			t.Fatalf("the game did not end (hidden %v): round %d", hidden, g.Round)
		}
		var out []string
		for _, m := range f.outbox("alice@players.test") {
			out = append(out, maskFog(m))
		}
		return out
	}
	plain, withGhost := play(false), play(true)
	if len(plain) < 6 {
		t.Fatalf("alice got only %d mails", len(plain))
	}
	if strings.Join(plain, "\n=====\n") != strings.Join(withGhost, "\n=====\n") {
		for i := 0; i < min(len(plain), len(withGhost)); i++ {
			if plain[i] != withGhost[i] {
				t.Fatalf("alice's mail %d differs with a hidden enemy aircraft:\n--- without\n%s\n--- with\n%s", i+1, plain[i], withGhost[i])
			}
		}
		t.Fatalf("alice got %d mails without the hidden aircraft, %d with it", len(plain), len(withGhost))
	}
}

// playForwards plays up to n rounds in which every player asked sends the forwards manoeuvre for each of
// their aircraft asked for, with their secret and the round number their last mail asked for.
func (f *fixture) playForwards(n int) {
	f.t.Helper()
	secret := map[string]string{"alice": "lark-swift-0001", "bob": "kite-heron-0002"}
	for i := 0; i < n; i++ {
		st, err := f.s.Status("g1")
		if err != nil {
			f.t.Fatal(err)
		}
		if st.Status != StatusRunning {
			return
		}
		for _, seat := range st.Seats {
			if len(seat.Missing) == 0 {
				continue
			}
			var lines []string
			for _, u := range seat.Missing {
				lines = append(lines, u+": 1")
			}
			f.submit(seat.Email, fmt.Sprintf("GAME g1 TURN %d SECRET %s\n%s\nEND", f.askedRound(seat.Email), secret[seat.Player], strings.Join(lines, "\n")))
		}
	}
}

// TestImpulseGroundPlaneByMail: the bundled impulse scenario with its Hurricane on the airfield (seed 001
// IV). The plane on the ground is asked for a ground order at the start of the turn only, a wrong one is
// refused with where and what, power before the engine has run is refused by the rules, and the engine
// start attempt in impulse 7 reaches its owner's report only (an enemy pilot may spot the plane on the
// airfield, but not the dice of its engine).
func TestImpulseGroundPlaneByMail(t *testing.T) {
	f := newImpulseGameWith(t, true)
	st, _ := f.s.Status("g1")
	if m := seatStatus(st, "alice").Missing; strings.Join(m, ",") != "BLUE1,RED1,SCRAMBLE" {
		t.Fatalf("round 1 asks alice for the plane on the ground too: %v", m)
	}
	if o := f.submit("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1; 1; 1; 1\nBLUE1: 1; 1; 1\nSCRAMBLE: R4\nEND"); o != Accepted {
		t.Fatalf("the mail is taken for the planes in the air: %s", o)
	}
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "ERROR column 11: \"R4\"") || !strings.Contains(body, "Still missing from you: SCRAMBLE") {
		t.Errorf("the receipt says where and what is wrong in SCRAMBLE's order, and that it is still missing:\n%s", body)
	}
	if o := f.submit("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1; 1; 1; 1\nBLUE1: 1; 1; 1\nSCRAMBLE: P\nEND"); o != Accepted {
		t.Fatalf("the mail is taken for the planes in the air: %s", o)
	}
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "engine must have been running") || !strings.Contains(body, "Still missing from you: SCRAMBLE") {
		t.Errorf("the refusal says why power is not allowed yet:\n%s", body)
	}
	if o := f.submit("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1; 1; 1; 1\nBLUE1: 1; 1; 1\nSCRAMBLE: R1\nEND"); o != Accepted {
		t.Fatalf("a free turn at speed 0 is taken: %s\n%s", o, f.last("alice@players.test").Body)
	}
	f.submit("bob@players.test", "GAME g1 TURN 1 SECRET kite-heron-0002\nDORA: 1; 1; 1\nZERST: 1; 1; 1; 1\nEND")
	// Nobody asks for SCRAMBLE again until turn 2 begins; its engine attempt in impulse 7 is reported.
	askedAgain := false
	for i := 0; i < 12 && !askedAgain; i++ {
		if m := seatStatus(st, "alice").Missing; i > 0 && strings.Contains(strings.Join(m, ","), "SCRAMBLE") {
			askedAgain = true
			if body := f.last("alice@players.test").Body; !strings.Contains(body, "turn 1 impulse 12") {
				t.Errorf("SCRAMBLE is asked again before turn 1 ends (round %d):\n%s", st.Round, body)
			}
			break
		}
		f.playForwards(1)
		st, _ = f.s.Status("g1")
	}
	if !askedAgain {
		t.Errorf("SCRAMBLE is never asked for its turn 2 ground order")
	}
	var all strings.Builder
	for _, m := range f.outbox("alice@players.test") {
		all.WriteString(m.Body)
	}
	if !strings.Contains(all.String(), "SCRAMBLE's engine") {
		t.Errorf("alice is told of SCRAMBLE's engine start attempt in impulse 7")
	}
	for _, m := range f.outbox("bob@players.test") {
		if strings.Contains(m.Body, "SCRAMBLE's engine") || strings.Contains(m.Body, "engine start") {
			t.Errorf("the engine start attempt and its dice are alice's alone:\n%s", m.Body)
		}
	}
}

// TestImpulseReminderNamesThePlayersOwnRound: a reminder said "orders for turn N" with the game's own
// round count, which in a game that asks only some players tells how often the others were asked.
func TestImpulseReminderNamesThePlayersOwnRound(t *testing.T) {
	f := newImpulseGame(t)
	f.playForwards(4)
	st, err := f.s.Status("g1")
	if err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(23 * time.Hour) // within the 2-hour reminder of a 24-hour turn
	f.s.Tick()
	found := false
	for _, addr := range []string{"alice@players.test", "bob@players.test"} {
		for _, m := range f.outbox(addr) {
			if m.Kind != "reminder" {
				continue
			}
			found = true
			own := f.askedRound(addr)
			if !strings.Contains(m.Body, fmt.Sprintf("orders for round %d are due", own)) || (st.Round != own && strings.Contains(m.Subject+m.Body, fmt.Sprintf(" %d ", st.Round))) {
				t.Errorf("%s's reminder (own round %d, game round %d):\n%s\n%s", addr, own, st.Round, m.Subject, m.Body)
			}
		}
	}
	if !found {
		t.Fatal("no reminder was sent")
	}
}
