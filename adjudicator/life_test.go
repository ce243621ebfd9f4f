package adjudicator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/parser"
)

const (
	aliceOrders = "GAME g1 TURN %d SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND"
	bobOrders   = "GAME g1 TURN %d SECRET kite-heron-0002\nKURT: 5\nHANS: 6\nEND"
)

// TestPausedGameDoesNotResolveOnTheLastOrder: while paused, both players' last orders arrived and the
// round resolved at once, and the receipts said "being resolved now". A paused game keeps the orders,
// says so, and resolves only once the moderator resumes it.
func TestPausedGameDoesNotResolveOnTheLastOrder(t *testing.T) {
	f := newFixture(t, 0)
	f.mod("PAUSE")
	f.mail("alice@players.test", "a1", strings.ReplaceAll(aliceOrders, "%d", "1"))
	f.mail("bob@players.test", "b1", strings.ReplaceAll(bobOrders, "%d", "1"))
	if g := f.game(); g.Round != 1 || !g.Paused {
		t.Fatalf("a paused game resolved on its last order: round %d, paused %v", g.Round, g.Paused)
	}
	rec := f.last("bob@players.test").Body
	if strings.Contains(rec, "being resolved now") || !strings.Contains(rec, "paused the game") {
		t.Errorf("the receipt must say the round waits for the pause to end:\n%s", rec)
	}
	if got := f.last("alice@players.test").Body; !strings.Contains(got, "no round resolves until it resumes") {
		t.Errorf("a receipt while paused with orders missing says so too:\n%s", got)
	}
	f.now = f.now.Add(100 * time.Hour)
	if done, _ := f.s.Tick(); len(done) != 0 {
		t.Fatal("the clock resolved a paused game")
	}
	f.mod("RESUME")
	if done, _ := f.s.Tick(); len(done) != 1 || f.game().Round != 2 {
		t.Fatalf("after RESUME the complete round resolves at the next tick: %v, round %d", done, f.game().Round)
	}
}

// TestHeldGameDoesNotResolveOnLateOrders: a round held for lost mail (an NMR spike at the deadline) that
// then gets every order waits for the moderator all the same.
func TestHeldGameDoesNotResolveOnLateOrders(t *testing.T) {
	f := newFixtureWith(t, 0, "\n  grace_hours: 1")
	f.now = f.now.Add(50 * time.Hour)
	f.s.Tick()
	if g := f.game(); g.Held == "" {
		t.Fatal("both players silent at the deadline: the round must be held")
	}
	f.mail("alice@players.test", "a1", strings.ReplaceAll(aliceOrders, "%d", "1"))
	f.mail("bob@players.test", "b1", strings.ReplaceAll(bobOrders, "%d", "1"))
	if g := f.game(); g.Round != 1 {
		t.Fatalf("a held round resolved when its late orders came: round %d", g.Round)
	}
	if rec := f.last("bob@players.test").Body; strings.Contains(rec, "being resolved now") || !strings.Contains(rec, "held for the moderator") {
		t.Errorf("the receipt must say the round is held:\n%s", rec)
	}
	if strings.Contains(f.last("bob@players.test").Body, "sent no orders at all") {
		t.Error("a player's receipt must not give the hold's reason (it names who sent nothing)")
	}
	f.mod("PROCESS", "1")
	if g := f.game(); g.Round != 2 || g.Held != "" {
		t.Fatalf("PROCESS TURN 1 releases and resolves a held round: round %d, held %q", g.Round, g.Held)
	}
}

// TestPauseAnswersTheModeratorOnce: PAUSE by mail got the answer to the commands and the pause notice.
func TestPauseAnswersTheModeratorOnce(t *testing.T) {
	f := newFixture(t, 0)
	before := len(f.outbox("mod@players.test"))
	f.mail("mod@players.test", "m1", "GAME g1 SECRET mod-secret-0009\nPAUSE\nEND")
	got := f.outbox("mod@players.test")[before:]
	if len(got) != 1 || !strings.Contains(got[0].Body, "PAUSE: done") {
		var subjects []string
		for _, m := range got {
			subjects = append(subjects, m.Subject)
		}
		t.Errorf("PAUSE by mail: the moderator got %d mails (%s), want the one answer", len(got), strings.Join(subjects, "; "))
	}
	if !strings.Contains(f.last("alice@players.test").Body, "paused") {
		t.Error("the players are told of the pause")
	}
}

// TestCommandsOnAFinishedGame: a finished game takes no PAUSE, EXTEND or REPLACE; it says why.
func TestCommandsOnAFinishedGame(t *testing.T) {
	f := newFixtureTurns(t, 0, "", 1)
	f.mod("PROCESS", "1")
	if g := f.game(); g.Status != StatusOver {
		t.Fatalf("a one-turn game is not over after its turn: %s", g.Status)
	}
	for _, c := range []parser.Command{{Name: "PAUSE"}, {Name: "EXTEND", Args: []string{"12"}}, {Name: "REPLACE", Args: []string{"bob", "carol@players.test"}}} {
		if _, err := f.s.Moderate("g1", c); err == nil || !strings.Contains(err.Error(), "is over") {
			t.Errorf("%s on a finished game: %v", c.Name, err)
		}
	}
}

// TestResolvedRoundIsLogged: at info level the daemon logged only "message sent" when a round resolved.
func TestResolvedRoundIsLogged(t *testing.T) {
	f := newFixture(t, 0)
	var buf bytes.Buffer
	f.s.log = zerolog.New(&buf).Level(zerolog.InfoLevel)
	f.mail("alice@players.test", "a1", strings.ReplaceAll(aliceOrders, "%d", "1"))
	f.mail("bob@players.test", "b1", strings.ReplaceAll(bobOrders, "%d", "1"))
	f.mod("PAUSE")
	f.mod("PROCESS", "2")
	var rounds, commands []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		switch m["message"] {
		case "round resolved":
			rounds = append(rounds, m)
		case "moderator command":
			commands = append(commands, m)
		}
	}
	if len(rounds) != 2 {
		t.Fatalf("%d 'round resolved' lines, want 2:\n%s", len(rounds), buf.String())
	}
	for i, want := range []struct {
		round   float64
		trigger string
	}{{1, "all orders in"}, {2, "PROCESS TURN"}} {
		r := rounds[i]
		if r["game"] != "g1" || r["round"] != want.round || r["trigger"] != want.trigger || r["epoch"] != 0.0 {
			t.Errorf("line %d: %v, want round %v by %q", i, r, want.round, want.trigger)
		}
		if _, ok := r["ms"].(float64); !ok {
			t.Errorf("line %d has no ms: %v", i, r)
		}
	}
	if len(commands) != 2 || commands[0]["command"] != "PAUSE" || commands[1]["command"] != "PROCESS 2" {
		t.Errorf("moderator command lines: %v", commands)
	}
}

// TestLifeTable: every phase and event has its say in the table, and the phases come from the game's
// fields as documented.
func TestLifeTable(t *testing.T) {
	g := &Game{Status: StatusRunning}
	if g.Phase() != PhaseRunning {
		t.Error(g.Phase())
	}
	g.Held = "x"
	if g.Phase() != PhaseHeld {
		t.Error(g.Phase())
	}
	g.Paused = true
	if g.Phase() != PhasePaused {
		t.Error("a pause comes before a hold:", g.Phase())
	}
	g.Status = StatusOver
	if g.Phase() != PhaseOver {
		t.Error(g.Phase())
	}
	for e, tr := range lifeTable {
		if len(tr.from) == 0 {
			t.Errorf("%s may happen in no phase", e)
		}
		if tr.resolves && (tr.to != "" && tr.to != PhaseRunning) {
			t.Errorf("%s resolves a round but leaves the game %s", e, tr.to)
		}
	}
	for _, e := range []Event{EventAllIn, EventDeadline, EventReminder} {
		for _, p := range []Phase{PhasePaused, PhaseHeld, PhaseOver} {
			if (&Game{Status: statusOf(p), Paused: p == PhasePaused, Held: heldOf(p)}).may(e) == nil {
				t.Errorf("%s may happen while %s", e, p)
			}
		}
	}
	for _, name := range append([]string{"AWAY", "BACK"}, parser.ModeratorCommands...) {
		if _, ok := commandEvents[name]; !ok {
			t.Errorf("the moderator's command %s is no event of the game's life", name)
		}
	}
	for name, e := range commandEvents {
		if _, ok := lifeTable[e]; !ok {
			t.Errorf("the command %s is the event %s, which the table lacks", name, e)
		}
	}
}

func statusOf(p Phase) string {
	if p == PhaseOver {
		return StatusOver
	}
	return StatusRunning
}

func heldOf(p Phase) string {
	if p == PhaseHeld {
		return "lost mail?"
	}
	return ""
}

// playTurns resolves n turns by the moderator's PROCESS TURN.
func (f *fixture) playTurns(n int) {
	f.t.Helper()
	for range n {
		f.mod("PROCESS", fmt.Sprint(f.game().Round))
	}
}

// TestResendAfterRollback: after ROLLBACK TURN 3 a player's RESEND delivered the discarded "turn 3
// report", which announces turn 4, and the receipt said only "your report is on its way again".
func TestResendAfterRollback(t *testing.T) {
	f := newFixture(t, 0)
	f.playTurns(3)
	f.mod("ROLLBACK", "3")
	f.mail("alice@players.test", "r1", "GAME g1 SECRET lark-swift-0001\nRESEND\nEND")
	sent := f.lastOf("alice@players.test", "resend")
	if strings.Contains(sent.Subject, "turn 3 report") || !strings.Contains(sent.Subject, "position for turn 3") {
		t.Errorf("RESEND after a rollback sent %q, want the position for turn 3", sent.Subject)
	}
	rec := f.lastOf("alice@players.test", "receipt").Body
	if !strings.Contains(rec, "position for turn 3") {
		t.Errorf("the receipt must name what was sent:\n%s", rec)
	}
	f.mail("alice@players.test", "r2", "GAME g1 SECRET lark-swift-0001\nRESEND TURN 3\nRESEND TURN 1\nEND")
	rec = f.lastOf("alice@players.test", "receipt").Body
	if !strings.Contains(rec, "RESEND TURN 3: that round was played, then rolled back by the moderator on") {
		t.Errorf("RESEND TURN 3 of a rolled-back turn must say so:\n%s", rec)
	}
	if !strings.Contains(rec, "turn 1 report for Alice") {
		t.Errorf("RESEND TURN 1 must name the turn 1 report:\n%s", rec)
	}
	for _, m := range f.outbox("alice@players.test") {
		if m.Kind == "resend" && strings.Contains(m.Subject, "turn 3 report") {
			t.Errorf("a discarded report was sent again: %q", m.Subject)
		}
	}
	f.mail("alice@players.test", "r3", "GAME g1 SECRET lark-swift-0001\nRESEND TURN 9\nEND")
	if rec := f.lastOf("alice@players.test", "receipt").Body; !strings.Contains(rec, "RESEND TURN 9: there is no report of that round") {
		t.Errorf("RESEND TURN 9:\n%s", rec)
	}
}

// TestRollbackMails: the moderator's notice ended "your position is below." with nothing below, and the
// players' position mail had no picture, no web link, and "WHAT HAPPENED: Nothing your pilots saw".
func TestRollbackMails(t *testing.T) {
	f := newFixture(t, 0)
	f.s.cfg.WebBase = "https://games.test/sortie/"
	f.playTurns(2)
	f.mod("ROLLBACK", "2")
	pos := f.last("alice@players.test")
	if len(pos.Parts) == 0 || pos.Parts[0].ContentType != "image/png" {
		t.Errorf("the position mail has no map picture: %d parts", len(pos.Parts))
	}
	for _, want := range []string{"https://games.test/sortie/p/g1/", "State commitment of this position", "YOUR AIRCRAFT", "GAME g1 TURN 2"} {
		if !strings.Contains(pos.Body, want) {
			t.Errorf("the position mail lacks %q:\n%s", want, pos.Body)
		}
	}
	for _, bad := range []string{"WHAT HAPPENED", "Nothing your pilots saw", "after this turn"} {
		if strings.Contains(pos.Body, bad) {
			t.Errorf("the position mail says %q, but no turn was resolved:\n%s", bad, pos.Body)
		}
	}
	note := f.last("mod@players.test").Body
	if strings.Contains(note, "below") || !strings.Contains(note, "Every player has been mailed their position for turn 2") {
		t.Errorf("the moderator's notice promises what it does not carry:\n%s", note)
	}
}

// TestRollbackKeepsHistory: the archive records of the discarded turns were deleted, so nothing showed
// that a rollback had happened.
func TestRollbackKeepsHistory(t *testing.T) {
	f := newFixture(t, 0)
	f.playTurns(3)
	f.now = f.now.Add(time.Hour)
	f.mod("ROLLBACK", "2")
	rec, err := f.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Rounds) != 1 || len(rec.Discarded) != 2 {
		t.Fatalf("after ROLLBACK TURN 2 of a game on turn 4: %d live rounds, %d discarded; want 1 and 2", len(rec.Rounds), len(rec.Discarded))
	}
	for i, r := range rec.Discarded {
		if r.Timeline != 1 || r.Round != 2+i {
			t.Errorf("discarded round %d: timeline %d, round %d", i, r.Timeline, r.Round)
		}
	}
	if len(rec.Game.Rollbacks) != 1 || rec.Game.Rollbacks[0] != (Rollback{Epoch: 1, From: 4, To: 2, At: f.now}) {
		t.Errorf("rollbacks: %+v", rec.Game.Rollbacks)
	}
	st, _ := f.s.Status("g1")
	if len(st.Rollbacks) != 1 || !strings.Contains(st.Rollbacks[0], "turns 2 to 3 were played, then rolled back by the moderator on") {
		t.Errorf("status must tell of the rollback: %q", st.Rollbacks)
	}
}

// TestStatusOfAFinishedGameMissesNothing: `game status` of a finished game listed a seat as "missing KURT".
func TestStatusOfAFinishedGameMissesNothing(t *testing.T) {
	f := newFixtureTurns(t, 0, "", 1)
	f.mod("PROCESS", "1")
	st, err := f.s.Status("g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range st.Seats {
		if len(seat.Missing) > 0 {
			t.Errorf("%s of a finished game is missing %v", seat.Player, seat.Missing)
		}
	}
	if st.Missing != 0 {
		t.Errorf("a finished game has %d players missing orders", st.Missing)
	}
}

// TestReplaceKeepsTheSeatsReports: the newcomer's welcome was kept in place of the seat's report of the
// round before, so RESEND TURN n sent the welcome instead of that report.
func TestReplaceKeepsTheSeatsReports(t *testing.T) {
	f := newFixture(t, 0)
	f.playTurns(2)
	f.mod("REPLACE", "bob", "carol@players.test")
	f.mail("carol@players.test", "c1", "GAME g1 SECRET "+f.game().seat("bob").Secret+"\nRESEND TURN 2\nEND")
	if sent := f.lastOf("carol@players.test", "resend"); !strings.Contains(sent.Subject, "turn 2 report") {
		t.Errorf("RESEND TURN 2 after REPLACE sent %q", sent.Subject)
	}
	f.mail("carol@players.test", "c2", "GAME g1 SECRET "+f.game().seat("bob").Secret+"\nRESEND\nEND")
	if sent := f.lastOf("carol@players.test", "resend"); !strings.Contains(sent.Subject, "welcome") && !strings.Contains(sent.Body, "Your secret for this game is") {
		t.Errorf("RESEND after REPLACE sent %q, want the newcomer's welcome (the latest mail)", sent.Subject)
	}
}

// TestNotStoredSaysWhetherAnOrderStands: "the order already on file still stands" was said when
// another unit had an order on file and this one had none.
func TestNotStoredSaysWhetherAnOrderStands(t *testing.T) {
	f := newFixture(t, 0)
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 3 TR\nEND")
	rec := f.last("alice@players.test").Body
	if !strings.Contains(rec, "NOT STORED") || strings.Contains(rec, "still stands") {
		t.Errorf("RED2 has no order on file, yet the receipt says one stands:\n%s", rec)
	}
	f.mail("alice@players.test", "a2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 3 TR\nEND")
	if rec := f.last("alice@players.test").Body; !strings.Contains(rec, "the order already on file for it still stands") {
		t.Errorf("RED1's earlier order stands:\n%s", rec)
	}
}

// TestOneListOfCommands: HELP inside a block omitted AWAY and BACK that the HELP mail lists, and the
// moderator's start notice omitted STATUS. Every guide is made from the parser's one list.
func TestOneListOfCommands(t *testing.T) {
	f := newFixture(t, 0)
	f.mail("alice@players.test", "h1", "GAME g1 SECRET lark-swift-0001\nHELP\nEND")
	rec := f.last("alice@players.test").Body
	f.mail("alice@players.test", "h2", "HELP")
	help := f.last("alice@players.test").Body
	for _, c := range parser.Commands() {
		if !strings.Contains(rec, "  "+c.Word+" ") || !strings.Contains(help, "  "+c.Word+" ") {
			t.Errorf("%s is missing from the receipt's HELP or the HELP mail:\n%s\n%s", c.Word, rec, help)
		}
	}
	start := f.outbox("mod@players.test")[0].Body
	for _, u := range parser.ModeratorUsage() {
		if !strings.Contains(start, "  "+u+"\n") {
			t.Errorf("the moderator's start notice does not list %s:\n%s", u, start)
		}
	}
	if !strings.Contains(start, "STATUS") {
		t.Error("the moderator's start notice omits STATUS")
	}
}
