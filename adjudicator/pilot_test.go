package adjudicator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"sortie/rules/afd"
	"sortie/storage"
)

// archivedOrders reads the orders a round was resolved with, from the archive.
func (f *fixture) archivedOrders(round int) map[string]string {
	f.t.Helper()
	var rec archiveRecord
	err := f.db.View(func(tx *storage.Tx) error {
		b, err := tx.Get(archiveBucket("g1"), storage.SeqKey(uint64(round)))
		if err != nil || b == nil {
			return fmt.Errorf("round %d is not archived (%v)", round, err)
		}
		return json.Unmarshal(b, &rec)
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return rec.Orders
}

// Under the autopilot NMR policy a missed order is flown by the computer pilot (from the player's side's
// view), archived like any order so the round re-runs, and announced to everyone by player only.
func TestAutopilotPolicyFliesMissedOrdersWithThePilot(t *testing.T) {
	f := newFixtureWith(t, 0, "\n  nmr: {mode: autopilot, after: 2}")
	f.mail("alice@players.test", "a1@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	f.now = f.now.Add(49 * time.Hour) // bob misses the deadline
	if _, err := f.s.Tick(); err != nil {
		t.Fatal(err)
	}
	orders := f.archivedOrders(1)
	if orders["HANS"] == "" {
		t.Fatalf("HANS flew no pilot order: %v", orders)
	}
	pilot, err := f.s.PilotOrders("g1", "bob") // what the pilot orders now, for comparison of form
	if err != nil || len(pilot) == 0 {
		t.Fatalf("the pilot gives orders for bob: %v %v", pilot, err)
	}
	body := f.last("alice@players.test").Body
	if !strings.Contains(body, "No orders came from") || !strings.Contains(body, "the computer pilot flew them") {
		t.Errorf("alice is told the computer pilot flew bob's aircraft:\n%s", body)
	}
	if strings.Contains(body, "HANS") && strings.Contains(body, "computer pilot flew HANS") {
		t.Errorf("the notice names no unit")
	}
}

// A seat the computer plays: no address and no mail, the rounds never wait for it, and its units fly
// the computer pilot's orders: a solo player plays the whole game by mail.
func TestSoloGameAgainstTheComputer(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour})
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf(`
service:
  seed: %s
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
    bob: {bot: true}
`, testSeed))...)
	if f.g, err = f.s.NewGame(scn, "solo.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= 20; turn++ {
		st, err := f.s.Status("g1")
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != StatusRunning {
			break
		}
		block := blockIn(f.last("alice@players.test").Body)
		if block == "" {
			t.Fatalf("turn %d: alice's last mail has no order block:\n%s", turn, f.last("alice@players.test").Body)
		}
		f.mail("alice@players.test", fmt.Sprintf("solo%d@players.test", turn), strings.Replace(block, "GAME g1 TURN", "GAME g1 SECRET lark-swift-0001 TURN", 1))
		for _, m := range f.outbox("alice@players.test") {
			if strings.Contains(m.Body, "Still waiting for") && strings.Contains(m.Body, "bob") {
				t.Fatalf("turn %d: a receipt waits for the computer's seat:\n%s", turn, m.Body)
			}
		}
		st2, _ := f.s.Status("g1")
		if st2.Status == StatusRunning && st2.Round != st.Round+1 {
			t.Fatalf("turn %d: alice's orders alone resolve the round: round %d -> %d", turn, st.Round, st2.Round)
		}
		if orders := f.archivedOrders(st.Round); orders["HANS"] == "" && orders["KURT"] == "" {
			t.Fatalf("turn %d: the computer's aircraft flew no pilot orders: %v", turn, orders)
		}
	}
	st, _ := f.s.Status("g1")
	if st.Status != StatusOver {
		t.Errorf("the solo game runs to its end: %+v", st)
	}
	if _, err := f.s.DrawPictures(); err != nil {
		t.Fatal(err)
	}
	items, err := f.db.Pending(f.now.Add(1000*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.To == "" || strings.Contains(it.To, "bob") {
			t.Errorf("a mail for the computer's seat was queued: %+v", it)
		}
	}
	if !strings.Contains(f.last("alice@players.test").Body, "wins") && !strings.Contains(f.last("alice@players.test").Body, "draw") {
		t.Errorf("alice gets the result:\n%s", f.last("alice@players.test").Body)
	}
}

// blockIn is the ready-to-fill order block of a mail's text.
func blockIn(text string) string {
	i := strings.LastIndex(text, "\nGAME ")
	if i < 0 {
		return ""
	}
	rest := text[i+1:]
	j := strings.Index(rest, "\nEND")
	if j < 0 {
		return ""
	}
	return rest[:j] + "\nEND\n"
}

// A seat cannot be both played by the computer and mailed; a ruleset without a pilot cannot have bots.
func TestBotSeatProblems(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour})
	scn, _ := afd.BundledScenarioFile("channel-1940")
	bad := append(append([]byte(nil), scn...), "\nservice:\n  players:\n    alice: {email: alice@players.test}\n    bob: {bot: true, email: bob@players.test}\n"...)
	if _, err := f.s.NewGame(bad, "bad.yaml", "g1"); err == nil || !strings.Contains(err.Error(), "played by the computer") {
		t.Errorf("a bot with an address: %v", err)
	}
	ok := append(append([]byte(nil), scn...), "\nservice:\n  players:\n    alice: {email: alice@players.test}\n"...)
	g, err := f.s.NewGameBots(ok, nil, "ok.yaml", "g2", []string{"Luftwaffe"})
	if err != nil {
		t.Fatal(err)
	}
	if s := g.seat("bob"); s == nil || !s.Bot {
		t.Errorf("--bot Luftwaffe makes bob's addressless seat the computer's: %+v", g.Seats)
	}
	if _, err := f.s.NewGameBots(ok, nil, "ok.yaml", "g3", []string{"Nobody"}); err == nil || !strings.Contains(err.Error(), "no side") {
		t.Errorf("--bot with an unknown side: %v", err)
	}
}

// TestReplaceHandsTheComputersSeatToAPerson: REPLACE of a seat the computer played gave it an address
// and mail while the computer went on playing it and the rounds never waited for the newcomer.
func TestReplaceHandsTheComputersSeatToAPerson(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 24 * time.Hour})
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, fmt.Appendf(nil, "\nservice:\n  moderator: mod@players.test\n  seed: %s\n  players:\n    alice: {email: alice@players.test, secret: lark-swift-0001}\n    bob: {bot: true}\n", testSeed)...)
	if f.g, err = f.s.NewGame(scn, "solo.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	f.mod("REPLACE", "bob", "carol@players.test")
	st, _ := f.s.Status("g1")
	for _, s := range st.Seats {
		if s.Player == "bob" && (s.Bot || len(s.Missing) == 0) {
			t.Errorf("after REPLACE the seat is still the computer's: %+v", s)
		}
	}
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND")
	if st, _ := f.s.Status("g1"); st.Round != 1 {
		t.Errorf("alice's orders alone resolved the round the newcomer plays in: round %d", st.Round)
	}
}
