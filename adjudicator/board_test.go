package adjudicator

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"sortie/rules/afd"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// The plotting board's side of the service (board.go; docs/orders.md, "The plotting board").

// plotted is the afd ruleset under another name whose games are Planners: a plan is CheckOrder's answer
// with a one-hex track and a line of reach, and the help names the unit. unplanned is the afd ruleset
// whose games are not (whatever afd's own games implement). They let a test see which one the board uses.
type plotted struct{ ruleset.Ruleset }

func (plotted) Name() string { return "plotted" }
func (p plotted) Load(state []byte) (ruleset.Game, error) {
	g, err := p.Ruleset.Load(state)
	return plottedGame{g}, err
}

type plottedGame struct{ ruleset.Game }

func (g plottedGame) Plan(player, unit, text string) ruleset.Plan {
	return ruleset.Plan{Check: g.CheckOrder(player, unit, text), Path: []hex.Hex{{Q: 7, R: 7}}, Reach: []string{"planned " + unit}}
}
func (g plottedGame) PlotHelp(player, unit string) []string { return []string{"how to plot " + unit} }

type unplanned struct{ ruleset.Ruleset }

func (unplanned) Name() string { return "unplanned" }
func (p unplanned) Load(state []byte) (ruleset.Game, error) {
	g, err := p.Ruleset.Load(state)
	return unplannedGame{g}, err
}

// unplannedGame has the methods of ruleset.Game only: no Planner, whatever the game inside implements.
type unplannedGame struct{ ruleset.Game }

// useRuleset has game g1 of f run the afd ruleset wrapped as wrap (plotted or unplanned: the fixture's
// service has both, testRulesets).
func (f *fixture) useRuleset(wrap func(ruleset.Ruleset) ruleset.Ruleset) {
	f.t.Helper()
	rs := wrap(nil)
	if err := f.db.Update(func(tx *storage.Tx) error {
		g, err := getGame(tx, "g1")
		if err != nil {
			return err
		}
		g.Ruleset = rs.Name()
		return putGame(tx, g)
	}); err != nil {
		f.t.Fatal(err)
	}
}

// rules is g1's ruleset game as stored now.
func (f *fixture) rules() ruleset.Game {
	f.t.Helper()
	var rg ruleset.Game
	if err := f.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, "g1")
		if err != nil {
			return err
		}
		rg, err = f.s.loadRules(tx, g)
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	return rg
}

// ordersBytes is every stored order of g1's round, key and bytes, as one string.
func (f *fixture) ordersBytes() string {
	f.t.Helper()
	var b strings.Builder
	if err := f.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, "g1")
		if err != nil {
			return err
		}
		return tx.ForEach(ordersBucket("g1", g.Round), func(k string, v []byte) error {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
			return nil
		})
	}); err != nil {
		f.t.Fatal(err)
	}
	return b.String()
}

func (f *fixture) board(player string) BoardSeat {
	f.t.Helper()
	b, ok, err := f.s.Board("g1", player)
	if err != nil || !ok {
		f.t.Fatalf("Board(g1, %s): %v %v", player, ok, err)
	}
	return b
}

func (f *fixture) submitBoard(player, id, block string) BoardSubmitted {
	f.t.Helper()
	r, err := f.s.SubmitBoard("g1", player, id, block)
	if err != nil {
		f.t.Fatalf("SubmitBoard(%s, %s): %v", player, id, err)
	}
	return r
}

// The board shows the seat's round as its mails name it, the block's header as its report has it, and
// for each unit the order on file and the default order (the order the report's block starts from: what
// the unit flies if no order comes, docs/rulings.md "A missed plot (NMR) flies straight and level").
func TestBoardShowsTheSeatsOrders(t *testing.T) {
	f := newFixture(t, 0)
	b := f.board("alice")
	if b.Game != "g1" || b.GameName != f.g.Name || b.Player != "alice" || b.Name == "" || b.Side == "" || b.Round != 1 ||
		b.RoundTitle != "turn 1" || b.Header != "GAME g1 TURN 1" || b.UnitNoun != "aircraft" || !b.Open || b.Closed != "" || b.Note != "" ||
		b.Deadline == "" {
		t.Errorf("alice's board: %+v", b)
	}
	welcome := f.last("alice@players.test").Body
	if !strings.Contains(welcome, "\n"+b.Header+" SECRET ") { // the welcome's block adds the secret
		t.Errorf("the board's header %q is not the welcome's block's:\n%s", b.Header, welcome)
	}
	lines := orderLines(welcome)
	rg := f.rules()
	var names []string
	for i, u := range b.Units {
		names = append(names, u.Name)
		if u.Default != rg.DefaultOrder(u.Name) || u.Default == "" || u.OnFile != "" || u.Standing {
			t.Errorf("%s on the board: %+v, default order %q", u.Name, u, rg.DefaultOrder(u.Name))
		}
		if i < len(lines) && lines[i] != u.Name+": "+u.Default {
			t.Errorf("the report's block starts %s from %q, the board from %q", u.Name, lines[i], u.Default)
		}
	}
	if fmt.Sprint(names) != "[RED1 RED2]" || len(lines) != 2 {
		t.Errorf("alice's units on the board: %v; in her welcome's block: %q", names, lines)
	}
	// An order on file shows as the receipt stored it (canonical); the other unit still has none.
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1 L 4 HOLD\nEND")
	b = f.board("alice")
	if b.Units[0].OnFile != "1 TL 4 HOLD" || b.Units[1].OnFile != "" {
		t.Errorf("on file after alice's mail: %+v", b.Units)
	}
	// Bob's board shows his units, none of alice's.
	if bb := f.board("bob"); len(bb.Units) != 2 || bb.Units[1].Name != "KURT" || strings.Contains(fmt.Sprint(bb), "RED1") {
		t.Errorf("bob's board: %+v", bb)
	}
	for _, c := range [][2]string{{"g1", "carol"}, {"g9", "alice"}, {"", ""}, {"g1", ""}, {strings.Repeat("g", 2000), "alice"}, {"G1/../x", "alice"}} {
		if b, ok, err := f.s.Board(c[0], c[1]); ok || err != nil || !reflect.DeepEqual(b, BoardSeat{}) {
			t.Errorf("Board(%q, %q) = %+v, %v, %v; want nothing", c[0], c[1], b, ok, err)
		}
	}
}

// TryOrder answers exactly what the receipt's check answers (CheckOrder) and stores nothing: the orders
// on file and the database file itself are the same bytes after it.
func TestTryOrderIsCheckOrderAndStoresNothing(t *testing.T) {
	f := newFixture(t, 0)
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1 TL 4 HOLD\nEND")
	before, file := f.ordersBytes(), fileBytes(t, f.db)
	rg := f.rules()
	for _, c := range [][2]string{{"RED1", "6"}, {"RED2", "2R 1 TR 1 FIRE KURT"}, {"RED1", "1 TRTR 4"}, {"RED2", "9 ZZ"},
		{"KURT", "5"}, {"NOBODY", "6"}, {"RED1", ""}} {
		p, ok, err := f.s.TryOrder("g1", "alice", c[0], c[1])
		if err != nil || !ok {
			t.Fatalf("TryOrder %v: %v %v", c, ok, err)
		}
		if want := rg.CheckOrder("alice", c[0], c[1]); !reflect.DeepEqual(p.Check, want) {
			t.Errorf("TryOrder %v checks\n%+v\nCheckOrder\n%+v", c, p.Check, want)
		}
	}
	if after := f.ordersBytes(); after != before {
		t.Errorf("TryOrder changed the orders on file:\n%s\nwas\n%s", after, before)
	}
	if !bytes.Equal(fileBytes(t, f.db), file) {
		t.Error("TryOrder changed the database file")
	}
	if p, ok, err := f.s.TryOrder("g1", "carol", "RED1", "6"); ok || err != nil || !reflect.DeepEqual(p, ruleset.Plan{}) {
		t.Errorf("TryOrder for no such player: %+v %v %v", p, ok, err)
	}
	if _, ok, err := f.s.TryOrder("g9", "alice", "RED1", "6"); ok || err != nil {
		t.Errorf("TryOrder in no such game: %v %v", ok, err)
	}
}

func fileBytes(t *testing.T, db *storage.DB) []byte {
	t.Helper()
	b, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A game whose ruleset plans (ruleset.Planner) has the board try plots through Plan and show its help;
// one that does not gives CheckOrder's answer alone and no help.
func TestBoardUsesThePlannerWhenThereIsOne(t *testing.T) {
	f := newFixture(t, 0)
	f.useRuleset(func(rs ruleset.Ruleset) ruleset.Ruleset { return plotted{rs} })
	p, ok, err := f.s.TryOrder("g1", "alice", "RED1", "6")
	if err != nil || !ok || len(p.Path) != 1 || p.Path[0] != (hex.Hex{Q: 7, R: 7}) || fmt.Sprint(p.Reach) != "[planned RED1]" ||
		!reflect.DeepEqual(p.Check, f.rules().CheckOrder("alice", "RED1", "6")) {
		t.Errorf("TryOrder through the planner: %+v %v %v", p, ok, err)
	}
	// Another side's unit is never planned: CheckOrder says it is not hers, and there is no track.
	if p, ok, err := f.s.TryOrder("g1", "alice", "KURT", "5"); err != nil || !ok || p.Path != nil || p.Reach != nil || p.Check.OK() ||
		!reflect.DeepEqual(p.Check, f.rules().CheckOrder("alice", "KURT", "5")) {
		t.Errorf("TryOrder of bob's KURT by alice: %+v %v %v", p, ok, err)
	}
	for _, u := range f.board("alice").Units {
		if fmt.Sprint(u.Help) != "[how to plot "+u.Name+"]" {
			t.Errorf("%s's help on the board: %q", u.Name, u.Help)
		}
	}
	g := newFixture(t, 0)
	g.useRuleset(func(rs ruleset.Ruleset) ruleset.Ruleset { return unplanned{rs} })
	p, ok, err = g.s.TryOrder("g1", "alice", "RED1", "1 TRTR 4")
	if want := (ruleset.Plan{Check: g.rules().CheckOrder("alice", "RED1", "1 TRTR 4")}); err != nil || !ok || !reflect.DeepEqual(p, want) || want.Check.OK() {
		t.Errorf("TryOrder without a planner: %+v, want %+v (%v %v)", p, want, ok, err)
	}
	for _, u := range g.board("alice").Units {
		if u.Help != nil {
			t.Errorf("%s has help without a planner: %q", u.Name, u.Help)
		}
	}
}

// A block sent from the board is taken as the same block mailed to the seat's reply address: the same
// orders stored and the same receipt queued, but for its first line, which says the orders came from the
// plotting board and what to do if the player did not send them. SubmitBoard returns that receipt as it
// was queued.
func TestSubmitBoardIsTheSameAsAMail(t *testing.T) {
	block := "GAME g1 TURN 1\nRED1: 2R 1 TR 1 FIRE KURT\nRED2: 1 TRTR 4\nRED2: 1 L 4 HOLD\nEND"
	byMail := newFixture(t, 0)
	reply := byMail.last("alice@players.test").ReplyTo
	if o, err := byMail.s.Submit(Envelope{From: "alice@players.test", MessageID: "m1", To: []string{reply}, Text: block, Size: len(block)}); err != nil || o != Accepted {
		t.Fatalf("the block by mail: %s %v", o, err)
	}
	mailed := byMail.last("alice@players.test")

	byBoard := newFixture(t, 0)
	r := byBoard.submitBoard("alice", "m1", block)
	queued := byBoard.last("alice@players.test")
	if r.Outcome != Accepted || r.Duplicate || r.Subject != queued.Subject || r.Receipt != queued.Body || queued.Kind != "receipt" {
		t.Fatalf("SubmitBoard: %+v; queued %q:\n%s", r, queued.Subject, queued.Body)
	}
	if byBoard.ordersBytes() == "" || stripTimes(byBoard.ordersBytes()) != stripTimes(byMail.ordersBytes()) {
		t.Errorf("stored from the board:\n%s\nby mail:\n%s", byBoard.ordersBytes(), byMail.ordersBytes())
	}
	if queued.Subject != mailed.Subject || queued.ReplyTo != "" && queued.ReplyTo != byBoard.last("alice@players.test").ReplyTo {
		t.Errorf("subjects: board %q, mail %q", queued.Subject, mailed.Subject)
	}
	boardLine, boardRest, _ := strings.Cut(queued.Body, "\n")
	mailLine, mailRest, _ := strings.Cut(mailed.Body, "\n")
	if stable(boardRest) != stable(mailRest) {
		t.Errorf("the board's receipt differs from the mail's beyond its first line:\n%s\n----\n%s", queued.Body, mailed.Body)
	}
	if !strings.Contains(boardLine, "from the plotting board") || !strings.Contains(boardLine, "RENEW") || strings.Contains(mailLine, "board") {
		t.Errorf("first lines: board %q, mail %q", boardLine, mailLine)
	}
}

// stripTimes drops the times orders were stored at (the two fixtures' clocks agree, but a stored order
// keeps its Message-ID and time, which is all that may differ).
func stripTimes(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, `"at":`); i >= 0 {
			l = l[:i]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// A board submission counts towards the seat's hourly limit as a mail does, obeys the turn guard, is a
// duplicate when its messageID comes again (nothing queued), and completes the round like a mail.
func TestSubmitBoardGoesThroughTheMailsPath(t *testing.T) {
	f := newFixture(t, 0)
	// The turn guard: a block for another round is refused as a mail's is, nothing stored.
	r := f.submitBoard("alice", "b1", "GAME g1 TURN 2\nRED1: 6\nEND")
	if !strings.Contains(r.Receipt, turnGuardMessage(2, 1)) || f.ordersBytes() != "" || r.Outcome != Accepted {
		t.Errorf("a block for turn 2 in turn 1: %+v", r)
	}
	// The same messageID again does nothing and queues nothing.
	n := len(f.outbox("alice@players.test"))
	r = f.submitBoard("alice", "b1", "GAME g1 TURN 1\nRED1: 6\nEND")
	if !r.Duplicate || r.Outcome != Duplicate || r.Subject != "" || r.Receipt != "" || len(f.outbox("alice@players.test")) != n || f.ordersBytes() != "" {
		t.Errorf("a repeated messageID: %+v", r)
	}
	// The same messageID from bob's board is bob's own: not a duplicate of alice's.
	if r := f.submitBoard("bob", "b1", "GAME g1 TURN 1\nKURT: 5\nEND"); r.Duplicate || r.Outcome != Accepted {
		t.Errorf("bob's first submission under an id alice used: %+v", r)
	}
	// Completing the round from the board resolves it, and everyone gets the report.
	f.submitBoard("alice", "b2", "GAME g1 TURN 1\nRED1: 6\nRED2: 6\nEND")
	r = f.submitBoard("bob", "b2", "GAME g1 TURN 1\nHANS: 6\nEND")
	if r.Outcome != Accepted || !strings.Contains(r.Receipt, "All orders are in") {
		t.Errorf("the last orders: %+v", r)
	}
	if st, err := f.s.Status("g1"); err != nil || st.Round != 2 {
		t.Fatalf("the round did not resolve: %+v %v", st, err)
	}
	if last := f.last("alice@players.test"); last.Kind != "report" {
		t.Errorf("alice's last mail is a %s, not the turn 1 report", last.Kind)
	}
	if b := f.board("alice"); b.Round != 2 || b.Header != "GAME g1 TURN 2" {
		t.Errorf("the board after turn 1: %+v", b)
	}
}

// A board submission counts towards the seat's hourly limit with its mails: past it, board and mail alike
// are ignored (the first one over gets the notice).
func TestSubmitBoardCountsTowardsTheFloodLimit(t *testing.T) {
	f := newFixture(t, 10*time.Minute)
	f.s.cfg.MaxMailsPerHour = 2
	f.mail("alice@players.test", "m1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND")
	if r := f.submitBoard("alice", "b1", "GAME g1 TURN 1\nRED1: 1 L 4 HOLD\nEND"); r.Outcome != Accepted {
		t.Fatalf("the second of two: %+v", r)
	}
	if r := f.submitBoard("alice", "b2", "GAME g1 TURN 1\nRED1: 4 HOLD\nEND"); r.Outcome != Ignored || !strings.Contains(r.Subject, "too many mails") {
		t.Errorf("the third in the hour from the board: %+v", r)
	}
	if r := f.submitBoard("alice", "b3", "GAME g1 TURN 1\nRED1: 4 HOLD\nEND"); r.Outcome != Ignored || r.Subject != "" || r.Receipt != "" {
		t.Errorf("the fourth in the hour from the board: %+v", r)
	}
	if o := f.mail("alice@players.test", "m2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 4 HOLD\nEND"); o != Ignored {
		t.Errorf("the fifth, by mail: %s", o)
	}
	if b := f.board("alice"); b.Units[0].OnFile != "1 TL 4 HOLD" {
		t.Errorf("on file: %+v", b.Units[0])
	}
	f.now = f.now.Add(time.Hour)
	if r := f.submitBoard("alice", "b4", "GAME g1 TURN 1\nRED1: 4 HOLD\nEND"); r.Outcome != Accepted {
		t.Errorf("the next hour: %+v", r)
	}
}

// A game that has ended shows a closed board with the reason, and a block sent to it gets the answer a
// mail gets; a game or player that does not exist has no board and takes nothing.
func TestBoardOfAGameThatHasEnded(t *testing.T) {
	f := newFixtureTurns(t, 0, "", 1)
	f.submitBoard("alice", "a1", "GAME g1 TURN 1\nRED1: 6\nRED2: 6\nEND")
	f.submitBoard("bob", "b1", "GAME g1 TURN 1\nKURT: 5\nHANS: 6\nEND")
	if g := f.game(); g.Status != StatusOver {
		t.Fatalf("the one-turn game did not end: %s", g.Status)
	}
	b := f.board("alice")
	if b.Open || !strings.Contains(b.Closed, "has ended") || !strings.Contains(b.Closed, f.game().Result) || len(b.Units) != 0 {
		t.Errorf("the board of a game that has ended: %+v", b)
	}
	r := f.submitBoard("alice", "a2", "GAME g1 TURN 2\nRED1: 6\nEND")
	if r.Outcome != Refused || r.Subject == "" || !strings.Contains(r.Receipt, "has ended") {
		t.Errorf("a block to a game that has ended: %+v", r)
	}
	for _, c := range [][2]string{{"g1", "carol"}, {"g9", "alice"}, {"", ""}, {strings.Repeat("g", 2000), "alice"}} {
		if r, err := f.s.SubmitBoard(c[0], c[1], "x1", "GAME g1 TURN 1\nRED1: 6\nEND"); !errors.Is(err, ErrNoSeat) || r != (BoardSubmitted{}) {
			t.Errorf("SubmitBoard(%q, %q): %+v %v", c[0], c[1], r, err)
		}
	}
}

// Where the mailbox has no plus-addressing, players prove who they are with their secret; the board
// needs none: its header is the report's, with the placeholder, and a block sent with that header is
// taken for the seat the board was opened for, with no wrong secret counted and no secret shown.
func TestBoardWithoutPlusAddressing(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, NoPlusAddressing: true})
	scn := channelScenario(t, `
service:
  moderator: mod@players.test
  seed: `+testSeed+`
  players:
    alice: {email: alice@players.test, secret: lark-swift-0001}
    bob: {email: bob@players.test, secret: kite-heron-0002}
`)
	var err error
	if f.g, err = f.s.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	b := f.board("alice")
	if b.Header != "GAME g1 TURN 1 SECRET <your secret>" || strings.Contains(fmt.Sprintf("%+v", b), "lark-swift") {
		t.Errorf("the board without plus-addressing: %+v", b)
	}
	r := f.submitBoard("alice", "a1", b.Header+"\nRED1: 1 L 4 HOLD\nEND")
	if r.Outcome != Accepted || !strings.Contains(r.Receipt, "\n  STORED.") || f.board("alice").Units[0].OnFile != "1 TL 4 HOLD" {
		t.Errorf("a board block with the placeholder: %+v", r)
	}
	// A wrong secret written in by hand changes nothing: the board's seat is the link's.
	if r := f.submitBoard("alice", "a2", "GAME g1 TURN 1 SECRET guess-guess-guess\nRED2: 6\nEND"); r.Outcome != Accepted || f.board("alice").Units[1].OnFile == "" {
		t.Errorf("a board block with a wrong secret: %+v", r)
	}
	if err := f.db.View(func(tx *storage.Tx) error {
		return tx.ForEach(badSecretsBucket("g1"), func(k string, v []byte) error {
			t.Errorf("a wrong secret was counted for %s: %s", k, v)
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	// A block naming another game or player is not the seat's.
	if r := f.submitBoard("alice", "a3", "GAME g2 TURN 1\nRED1: 6\nEND"); r.Outcome != Refused || r.Subject == "" || r.Receipt != f.last("alice@players.test").Body {
		t.Errorf("a board block for another game: %+v", r)
	}
	if r := f.submitBoard("alice", "a4", "GAME g1 TURN 1 PLAYER bob\nKURT: 6\nEND"); r.Outcome != Refused {
		t.Errorf("a board block naming another player: %+v", r)
	}
	// A mail with the placeholder is still refused: only the board may leave the secret out.
	if o := f.mail("alice@players.test", "m1", b.Header+"\nRED1: 6\nEND"); o != Refused {
		t.Errorf("a mail with the placeholder: %s", o)
	}
}

// channelScenario is the bundled Channel 1940 scenario with service, a service section, added.
func channelScenario(t *testing.T, service string) []byte {
	t.Helper()
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	return append(scn, service...)
}

// With the web archive served, every mail that asks a player for orders (the welcome, each report)
// links to that player's own plotting board beside their pages, and the mail of a game that has ended
// does not; RENEW's mail carries the new board link, and a report sent again after it carries the seat's
// new link, never the old one.
func TestReportsLinkToTheBoard(t *testing.T) {
	base := "https://games.example.org/sortie/"
	f := newFixtureConfig(t, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, WebBase: base}, "", 2)
	boardOf := func(player string) string { return base + BoardPath("g1", f.webKey(player)) }
	check := func(kind string, want bool) {
		t.Helper()
		for p, other := range map[string]string{"alice": "bob", "bob": "alice"} {
			m := f.lastOf(p+"@players.test", kind)
			if has := strings.Contains(m.Body, "Your plotting board, to try your plots on the map and send them (keep it to yourself too): "+boardOf(p)+"\n"); has != want {
				t.Errorf("%s's %s mail links to their board: %v, want %v:\n%s", p, kind, has, want, m.Body)
			}
			if strings.Contains(m.Body, boardOf(other)) || !want && strings.Contains(m.Body, "/board") {
				t.Errorf("%s's %s mail links to a board it must not:\n%s", p, kind, m.Body)
			}
		}
	}
	check("start", true)
	f.playTurns(1)
	check("report", true)
	old := boardOf("alice")
	f.mod("RENEW", "alice")
	if renewed := f.lastOf("alice@players.test", "renew").Body; !strings.Contains(renewed, boardOf("alice")) || boardOf("alice") == old {
		t.Errorf("RENEW's mail must carry the new board link %s (the old was %s):\n%s", boardOf("alice"), old, renewed)
	}
	f.submit("alice@players.test", "GAME g1 SECRET "+f.game().seat("alice").Secret+"\nRESEND\nEND")
	if resent := f.lastOf("alice@players.test", "resend").Body; !strings.Contains(resent, boardOf("alice")) || strings.Contains(resent, old) {
		t.Errorf("the report sent again must link to the seat's board now, %s, not %s:\n%s", boardOf("alice"), old, resent)
	}
	f.playTurns(1)
	if f.game().Status != StatusOver {
		t.Fatal("the two-turn game did not end")
	}
	check("over", false)
}

// In a game that asks only some players each round (the impulse game, seed 001), the board counts rounds
// as the seat's own mails do and writes the header its last report's block has; a seat not asked now has
// a closed board that says nothing of the rounds others are asked in: not their number, not their
// deadline (how often the engine stops depends on units the seat may not have seen).
func TestBoardInAGameThatAsksOnlySome(t *testing.T) {
	f := newImpulseGame(t)
	send := func(player, lines string) {
		t.Helper()
		b := f.board(player)
		if r := f.submitBoard(player, fmt.Sprintf("%s-%d", player, b.Round), b.Header+"\n"+lines+"\nEND"); r.Outcome != Accepted || !strings.Contains(r.Receipt, "\n  STORED.") {
			t.Fatalf("%s's board block: %+v", player, r)
		}
	}
	send("alice", "RED1: 1; 1; ` ` ` ` TR\nBLUE1: 1")
	send("bob", "DORA: 1\nZERST: 1; 1")
	for _, p := range []string{"alice", "bob"} { // round 2 asks both
		b := f.board(p)
		report := f.last(p + "@players.test")
		if report.Kind != "report" || b.Round != 2 || b.RoundTitle != "round 2" || !b.Open || b.Deadline == "" ||
			!strings.Contains(report.Body, "\n"+b.Header+"\n") || !strings.Contains(report.Subject, "round 1") {
			t.Errorf("%s's board in round 2: %+v\nlast report %q:\n%s", p, b, report.Subject, report.Body)
		}
	}
	send("alice", "BLUE1: 1")
	send("bob", "DORA: 1")
	// Round 3 asks bob alone: alice's board is closed, in her own count, with no deadline.
	if st, _ := f.s.Status("g1"); st.Round != 3 || len(seatStatus(st, "alice").Missing) != 0 {
		t.Fatalf("round 3 must ask bob alone: %+v", st)
	}
	b := f.board("alice")
	if b.Open || len(b.Units) != 0 || b.Round != 2 || b.Deadline != "" || b.Closed == "" || strings.Contains(b.Closed, "3") {
		t.Errorf("alice's board while she is not asked: %+v", b)
	}
	if bb := f.board("bob"); !bb.Open || bb.Round != 3 || bb.Deadline == "" {
		t.Errorf("bob's board in round 3: %+v", bb)
	}
	// A block alice sends meanwhile (by mail or from the board: one path) is answered without the
	// deadline of bob's round either, and says she is not asked.
	r := f.submitBoard("alice", "alice-not-asked", b.Header+"\nRED1: 1\nEND")
	if strings.Contains(r.Receipt, "Deadline") || !strings.Contains(r.Receipt, "Sortie is not asking you for orders now") ||
		!strings.Contains(r.Receipt, "NOT STORED: this round takes no order for RED1; a later report will ask for it.") {
		t.Errorf("alice's receipt while she is not asked:\n%s", r.Receipt)
	}
}

// The board tells a side nothing its pilots could not see: alice's board, her tries and the receipt of
// her board block are the same whether bob has one or four aircraft she never sees (the fog games of
// fog_test.go), and none names them.
func TestFogBoardHiddenEnemyCount(t *testing.T) {
	for _, rs := range []string{"afd", "swarm"} {
		t.Run(rs, func(t *testing.T) {
			seen := func(hidden int) string {
				f := newFogGame(t, rs, hidden)
				var out strings.Builder
				b, ok, err := f.s.Board("g1", "alice")
				if err != nil || !ok || !b.Open {
					t.Fatalf("alice's board: %+v %v %v", b, ok, err)
				}
				fmt.Fprintf(&out, "%+v\n", b)
				var lines []string
				for _, u := range b.Units {
					for _, text := range []string{u.Default, "1 TL 4 FIRE FAR1", "ZZ"} {
						p, _, err := f.s.TryOrder("g1", "alice", u.Name, text)
						if err != nil {
							t.Fatal(err)
						}
						fmt.Fprintf(&out, "%s %q: %+v\n", u.Name, text, p)
					}
					lines = append(lines, u.Name+": "+u.Default)
				}
				r, err := f.s.SubmitBoard("g1", "alice", "board-1", b.Header+"\n"+strings.Join(lines, "\n")+"\nEND")
				if err != nil || r.Outcome != Accepted {
					t.Fatalf("alice's board block: %+v %v", r, err)
				}
				fmt.Fprintf(&out, "%s\n%s", r.Subject, r.Receipt)
				return out.String()
			}
			one, four := seen(1), seen(4)
			if one != four {
				t.Errorf("alice's board differs with the number of hidden enemies:\n--- 1 hidden ---\n%s\n--- 4 hidden ---\n%s", one, four)
			}
			for i := 2; i <= 4; i++ {
				if name := fmt.Sprintf("FAR%d", i); strings.Contains(four, name) {
					t.Errorf("alice's board names the unseen %s:\n%s", name, four)
				}
			}
		})
	}
}

// A paused game's board still takes orders and says, as the receipt does, that no round resolves until
// it resumes; a seat the computer plays has no board; a submission without an id is refused, since it
// could neither be told from a replay nor get a receipt of its own.
func TestBoardPausedBotAndNoID(t *testing.T) {
	f := newFixture(t, 0)
	f.mod("PAUSE")
	if b := f.board("alice"); !b.Open || b.Note != stillness(f.game(), false) || b.Note == "" || len(b.Units) != 2 {
		t.Errorf("the board of a paused game: %+v", b)
	}
	if r := f.submitBoard("alice", "p1", "GAME g1 TURN 1\nRED1: 6\nEND"); r.Outcome != Accepted || !strings.Contains(r.Receipt, "paused") {
		t.Errorf("a board block in a paused game: %+v", r)
	}
	f.mod("RESUME")
	if b := f.board("alice"); b.Note != "" {
		t.Errorf("the board after RESUME: %+v", b)
	}
	for _, id := range []string{"", " ", "\r\n"} {
		if r, err := f.s.SubmitBoard("g1", "alice", id, "GAME g1 TURN 1\nRED2: 6\nEND"); err == nil || r != (BoardSubmitted{}) {
			t.Errorf("SubmitBoard with messageID %q: %+v %v", id, r, err)
		}
	}
	scn := channelScenario(t, "\nservice:\n  players:\n    alice: {email: alice@players.test}\n")
	if _, err := f.s.NewGameBots(scn, nil, "solo.yaml", "g2", []string{"Luftwaffe"}); err != nil {
		t.Fatal(err)
	}
	if b, ok, err := f.s.Board("g2", "bob"); ok || err != nil || b.Game != "" {
		t.Errorf("the board of a seat the computer plays: %+v %v %v", b, ok, err)
	}
	if r, err := f.s.SubmitBoard("g2", "bob", "x1", "GAME g2 TURN 1\nKURT: 5\nEND"); !errors.Is(err, ErrNoSeat) || r != (BoardSubmitted{}) {
		t.Errorf("SubmitBoard for a seat the computer plays: %+v %v", r, err)
	}
	if b, ok, err := f.s.Board("g2", "alice"); !ok || err != nil || !b.Open {
		t.Errorf("the solo player's board: %+v %v %v", b, ok, err)
	}
}

// Boards and tries read beside the mail: several readers try plots and read boards while mails and board
// blocks store orders and resolve rounds (the race detector watches the decode cache and the games).
func TestBoardReadsBesideTheMail(t *testing.T) {
	f := newFixture(t, 0)
	f.useRuleset(func(rs ruleset.Ruleset) ruleset.Ruleset { return plotted{rs} })
	done := make(chan struct{})
	errs := make(chan error, 4)
	for r := range 4 {
		go func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				player, unit := "alice", "RED1"
				if (r+i)%2 == 1 {
					player, unit = "bob", "KURT"
				}
				if _, ok, err := f.s.TryOrder("g1", player, unit, "1 TL 4 HOLD"); err != nil || !ok {
					errs <- fmt.Errorf("TryOrder: %v %v", ok, err)
					return
				}
				if b, ok, err := f.s.Board("g1", player); err != nil || !ok || len(b.Units) == 0 && b.Open {
					errs <- fmt.Errorf("Board: %+v %v %v", b, ok, err)
					return
				}
			}
		}()
	}
	for turn := 1; turn <= 3; turn++ {
		f.mail("alice@players.test", fmt.Sprintf("a%d", turn), fmt.Sprintf("GAME g1 TURN %d SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND", turn))
		if r := f.submitBoard("bob", fmt.Sprintf("b%d", turn), fmt.Sprintf("GAME g1 TURN %d\nKURT: 5\nHANS: 6\nEND", turn)); r.Outcome != Accepted {
			t.Fatalf("bob's board block for turn %d: %+v", turn, r)
		}
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if st, err := f.s.Status("g1"); err != nil || st.Round != 4 {
		t.Errorf("three rounds did not resolve: %+v %v", st, err)
	}
}

// A unit whose order stands until changed (a flak gun, seed 002; ruleset.Standing) is on the board with
// the aircraft, marked as standing, and its order sent from the board is stored like theirs.
func TestBoardShowsStandingUnits(t *testing.T) {
	f := newService(t, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour})
	scn, err := afd.BundledScenarioFile("strike")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, "\nservice:\n  seed: "+testSeed+"\n  players:\n    alice: {email: alice@players.test}\n    kenji: {email: kenji@players.test}\n"...)
	if f.g, err = f.s.NewGame(scn, "strike.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	standing := map[string]bool{}
	for _, u := range f.board("kenji").Units {
		standing[u.Name] = u.Standing
	}
	if fmt.Sprint(standing) != "map[HEAVY1:true ZERO1:false ZERO2:false]" {
		t.Errorf("kenji's units on the board, standing or not: %v", standing)
	}
	if r := f.submitBoard("kenji", "k1", "GAME g1 TURN 1\nHEAVY1: AIM -8,-3 6000\nEND"); r.Outcome != Accepted || !strings.Contains(r.Receipt, "\n  STORED.") {
		t.Fatalf("a flak order from the board: %+v", r)
	}
	for _, u := range f.board("kenji").Units {
		if (u.OnFile != "") != (u.Name == "HEAVY1") {
			t.Errorf("%s on file after the flak order: %q\n%s", u.Name, u.OnFile, f.last("kenji@players.test").Body)
		}
	}
}
