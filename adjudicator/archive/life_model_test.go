package archive

// The game's life, tested as a state machine: random sequences of the events of a game's life (orders,
// withdrawals, WAIT and READY, the clock, PAUSE, RESUME, EXTEND, PROCESS TURN, ROLLBACK, REPLACE,
// RESEND, exports) driven against the real Service on a real bbolt file, for every bundled ruleset,
// with the invariants checked after every step. rapid shrinks a failing sequence to a short one and
// prints it; -rapid.seed=N runs one again, and -rapid.checks / -rapid.steps (or RAPID_CHECKS,
// RAPID_STEPS) run more.

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"pgregory.net/rapid"

	"sortie/adjudicator"
	"sortie/parser"
	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/storage"
	"sortie/templates"
)

// lifeGames are the games the model plays: every bundled ruleset, and the impulse game, whose rounds
// are not its turns.
var lifeGames = []struct{ ruleset, scenario string }{
	{"afd", "channel-1940"},
	{"afd", "kent-impulse-1940"},
	{"swarm", "kanalkampf-1940"},
	{"tnl", "battle-of-britain"},
}

func TestGameLifeModel(t *testing.T) {
	// A modest default, so the whole model runs in CI in well under a minute; the flags ask for more.
	setDefault := func(name, env, value string) {
		if f := flag.Lookup(name); f != nil && f.Value.String() == f.DefValue && os.Getenv(env) == "" {
			flag.Set(name, value)
			t.Cleanup(func() { flag.Set(name, f.DefValue) })
		}
	}
	if raceEnabled {
		// The race detector slows the drawing of the reports' pictures tenfold: fewer, shorter runs.
		setDefault("rapid.checks", "RAPID_CHECKS", "2")
		setDefault("rapid.steps", "RAPID_STEPS", "25")
	} else {
		setDefault("rapid.checks", "RAPID_CHECKS", "8")
		setDefault("rapid.steps", "RAPID_STEPS", "40")
	}
	for _, lg := range lifeGames {
		t.Run(lg.scenario, func(t *testing.T) {
			ended, runs := 0, 0
			defer func() { t.Logf("%d of %d sequences reached the game's end", ended, runs) }()
			t.Parallel()
			rapid.Check(t, func(rt *rapid.T) {
				m := newLifeModel(rt, t.TempDir(), lg.ruleset, lg.scenario)
				defer m.close()
				rt.Repeat(rapid.StateMachineActions(m))
				m.verify(rt) // every sequence ends with an export that must verify
				runs++
				if m.state == "over" {
					ended++
				}
			})
		})
	}
}

const lifeSeed = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed"

// lifeModel is one game driven through the Service, and what the model remembers between steps.
type lifeModel struct {
	svc     *adjudicator.Service
	db      *storage.DB
	now     time.Time
	dir     string
	players []string
	seed    dice.Seed
	n       int // mails submitted, for their Message-IDs
	// before the step: the game's state word, round and archived rounds, and the step's name.
	state     string
	round     int
	archived  int
	step      string
	checked   int // mails of the outbox already checked
	replaced  int
	selective bool
}

func newLifeModel(t *rapid.T, dir, rulesetName, scenario string) *lifeModel {
	dir, err := os.MkdirTemp(dir, "life")
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(filepath.Join(dir, "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	m := &lifeModel{db: db, dir: dir, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	m.seed, _ = dice.ParseSeed(lifeSeed)
	m.svc = adjudicator.New(db, tmpl, adjudicator.Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, DigestHour: -1}, zerolog.Nop(),
		adjudicator.WithClock(func() time.Time { return m.now }), adjudicator.WithRulesets(textRulesets(t)))
	rs, err := m.svc.Rulesets().Get(rulesetName)
	if err != nil {
		t.Fatal(err)
	}
	b := rs.(ruleset.Bundled)
	scn, err := fs.ReadFile(b.Scenarios(), scenario+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	// A short game, so that sequences of a few dozen steps reach its end too.
	scn = regexp.MustCompile(`(?m)^turns: \d+$`).ReplaceAll(scn, []byte("turns: 3"))
	part, err := adjudicator.GamePart(scn)
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := fs.Sub(b.Scenarios(), ".")
	rg, err := rs.NewGame(part, sub, scenario+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	var svc strings.Builder
	fmt.Fprintf(&svc, "\nservice:\n  moderator: mod@players.test\n  moderator_secret: mod-secret-0009-life\n  seed: %s\n  players:\n", lifeSeed)
	for i, p := range rg.Players() {
		m.players = append(m.players, p.ID)
		fmt.Fprintf(&svc, "    %s: {email: %s@players.test, secret: seat-secret-%04d-life}\n", p.ID, p.ID, i)
	}
	if _, err := m.svc.NewGameFiles(append(scn, svc.String()...), sub, scenario+".yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	if m.selective, err = m.svc.AsksOnly("g1"); err != nil {
		t.Fatal(err)
	}
	m.remember(t)
	return m
}

func (m *lifeModel) close() { m.db.Close() }

// remember notes the game as it stands before the next step.
func (m *lifeModel) remember(t *rapid.T) {
	st, err := m.svc.Status("g1")
	if err != nil {
		t.Fatal(err)
	}
	m.state, m.round, m.archived = st.State(), st.Round, st.Archived
}

// seat is a player's seat now: address and secret change with REPLACE.
func (m *lifeModel) seat(t *rapid.T, player string) adjudicator.Seat {
	seats, err := m.svc.Seats("g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Player == player {
			return s
		}
	}
	t.Fatalf("no seat %s", player)
	return adjudicator.Seat{}
}

func (m *lifeModel) submit(t *rapid.T, from, text string) {
	m.n++
	env := adjudicator.Envelope{From: from, MessageID: fmt.Sprintf("m%d@players.test", m.n), Text: text, Size: len(text), To: []string{"sortie@sortie.test"}}
	if _, err := m.svc.Submit(env); err != nil {
		t.Fatalf("submit: %v", err)
	}
}

func (m *lifeModel) moderate(t *rapid.T, name string, args ...string) {
	m.step = name
	if _, err := m.svc.Moderate("g1", parser.Command{Name: name, Args: args}); err != nil {
		t.Logf("%s %v: %v", name, args, err) // refused: the invariants say whether rightly
	}
}

var blockRE = regexp.MustCompile(`(?ms)^GAME g1 (?:TURN|ROUND) (\d+)[^\n]*\n(.*?)^END$`)

// Order: a player sends the order block of the latest mail that carries one, as it stands (every line
// is the order their unit would follow by default); now and then for the turn before.
func (m *lifeModel) Order(t *rapid.T) {
	m.step = "order"
	m.order(t, rapid.SampledFrom(m.players).Draw(t, "player"), rapid.IntRange(0, 9).Draw(t, "stale") == 0)
}

// order sends a player's block from their latest mail that carries one; stale, for the round before.
func (m *lifeModel) order(t *rapid.T, p string, stale bool) {
	s := m.seat(t, p)
	mails := m.mails(t)
	for i := len(mails) - 1; i >= 0; i-- {
		if mails[i].To != s.Email {
			continue
		}
		b := blockRE.FindStringSubmatch(mails[i].Body)
		if b == nil {
			continue
		}
		turn, _ := strconv.Atoi(b[1])
		if stale {
			turn-- // the guard must refuse it and store nothing
		}
		m.submit(t, s.Email, fmt.Sprintf("GAME g1 TURN %d SECRET %s\n%sEND", turn, s.Secret, b[2]))
		return
	}
}

// Play: every player sends the block of their latest mail, as players of a running game do each round.
func (m *lifeModel) Play(t *rapid.T) {
	m.step = "play"
	for _, p := range m.players {
		m.order(t, p, false)
	}
}

// Command: a player's CLEAR (a withdrawal), WAIT or READY.
func (m *lifeModel) Command(t *rapid.T) {
	p := rapid.SampledFrom(m.players).Draw(t, "player")
	c := rapid.SampledFrom([]string{"CLEAR", "WAIT", "READY"}).Draw(t, "command")
	m.step = strings.ToLower(c)
	s := m.seat(t, p)
	m.submit(t, s.Email, fmt.Sprintf("GAME g1 SECRET %s\n%s\nEND", s.Secret, c))
}

// Clock: time passes and the clock ticks (reminders, deadlines, holds).
func (m *lifeModel) Clock(t *rapid.T) {
	m.step = "clock"
	m.now = m.now.Add(time.Duration(rapid.IntRange(1, 60).Draw(t, "hours")) * time.Hour)
	if _, err := m.svc.Tick(); err != nil {
		t.Fatalf("tick: %v", err)
	}
}

func (m *lifeModel) Pause(t *rapid.T)  { m.moderate(t, "PAUSE") }
func (m *lifeModel) Resume(t *rapid.T) { m.moderate(t, "RESUME") }
func (m *lifeModel) Extend(t *rapid.T) {
	m.moderate(t, "EXTEND", strconv.Itoa(rapid.IntRange(1, 48).Draw(t, "hours")))
}
func (m *lifeModel) Process(t *rapid.T) { m.moderate(t, "PROCESS", strconv.Itoa(m.round)) }

func (m *lifeModel) Rollback(t *rapid.T) {
	if m.round < 2 {
		t.Skip("nothing to roll back")
	}
	m.moderate(t, "ROLLBACK", strconv.Itoa(rapid.IntRange(1, m.round-1).Draw(t, "to")))
}

func (m *lifeModel) Replace(t *rapid.T) {
	p := rapid.SampledFrom(m.players).Draw(t, "player")
	m.replaced++
	m.moderate(t, "REPLACE", p, fmt.Sprintf("%s-%d@newcomers.test", p, m.replaced))
}

// Resend: RESEND, or RESEND TURN n for a turn played, discarded or not yet played.
func (m *lifeModel) Resend(t *rapid.T) {
	m.step = "resend"
	p := rapid.SampledFrom(m.players).Draw(t, "player")
	s := m.seat(t, p)
	line := "RESEND"
	if n := rapid.IntRange(0, m.round+1).Draw(t, "turn"); n > 0 {
		line = fmt.Sprintf("RESEND TURN %d", n)
	}
	m.submit(t, s.Email, fmt.Sprintf("GAME g1 SECRET %s\n%s\nEND", s.Secret, line))
}

// Export: an archivist takes an export now; it must verify.
func (m *lifeModel) Export(t *rapid.T) {
	m.step = "export"
	m.verify(t)
}

func (m *lifeModel) verify(t *rapid.T) {
	a, err := Export(m.svc, "g1")
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	dir, err := os.MkdirTemp(m.dir, "export")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := a.WriteDir(dir); err != nil {
		t.Fatalf("export: %v", err)
	}
	if _, err := Verify(dir, WithRulesets(m.svc.Rulesets())); err != nil {
		t.Fatalf("verify after %s: %v", m.step, err)
	}
}

func (m *lifeModel) mails(t *rapid.T) []storage.Outgoing {
	rec, err := m.svc.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	return rec.Mails
}

var (
	mailCommitmentRE = regexp.MustCompile(`(?i)state commitment[^:\n]*:\s*([0-9a-f]{64})`)
	// "[g1] turn 2 report", "turns 1-3 report", "round 3 (turn 1, impulse 6) report", "position for turn 2":
	// the number of the round the report follows (its last turn), or of the round it asks for.
	subjectNumberRE = regexp.MustCompile(`\] (?:(\w+) (?:\d+-)?(\d+)(?: \([^)]*\))? report|position for (\w+) (\d+))`)
	nextRE          = regexp.MustCompile(`(?m)^NEXT: (\w+) (\d+)`)
)

// Check holds the invariants after every step.
func (m *lifeModel) Check(t *rapid.T) {
	st, err := m.svc.Status("g1")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.svc.Record("g1")
	if err != nil {
		t.Fatal(err)
	}

	// The phase is one of four, and an ended game says why.
	if !slices.Contains([]string{"running", "paused", "held", "over"}, st.State()) {
		t.Fatalf("the game is %q", st.State())
	}
	if st.State() == "over" && st.Result == "" {
		t.Fatalf("the game is over without a result")
	}

	// Nothing resolves while paused or held, but by the moderator's PROCESS TURN or ROLLBACK.
	if (m.state == "paused" || m.state == "held") && m.step != "PROCESS" && m.step != "ROLLBACK" &&
		(st.Round != m.round || st.Archived != m.archived) {
		t.Fatalf("a %s game moved on by %s: round %d -> %d, archived %d -> %d", m.state, m.step, m.round, st.Round, m.archived, st.Archived)
	}

	// Each round resolves once per timeline.
	for timeline, rounds := range roundsByTimeline(rec) {
		if !slices.IsSorted(rounds) || len(slices.Compact(slices.Clone(rounds))) != len(rounds) {
			t.Fatalf("timeline %d holds rounds %v", timeline, rounds)
		}
	}

	// The states of the archive (known), and of the game as it stands (current), by commitment.
	known := map[string]bool{rec.StateCommitment: true}
	current := map[string]bool{rec.StateCommitment: true}
	for _, r := range rec.Rounds {
		before := adjudicator.StateCommitment(m.seed, compactJSON(r.StateBefore))
		known[before], known[r.Commitment] = true, true
		current[before], current[r.Commitment] = true, true
	}
	for _, r := range discardedRounds(rec) {
		known[adjudicator.StateCommitment(m.seed, compactJSON(r.StateBefore))], known[r.Commitment] = true, true
	}
	// The mails of this step.
	latest := map[string]storage.Outgoing{}
	for _, mail := range rec.Mails[m.checked:] {
		// No mail sends a report of a discarded timeline again as if it were current.
		if mail.Kind == "resend" {
			for _, c := range mailCommitmentRE.FindAllStringSubmatch(mail.Body, -1) {
				if !current[c[1]] {
					t.Fatalf("RESEND sent %q, a report of a timeline the moderator rolled back", mail.Subject)
				}
			}
		}
		// One numbering: the subject, the text and the block of a report name the same round.
		if mail.Kind == "report" || mail.Kind == "start" {
			b := blockRE.FindStringSubmatch(mail.Body)
			if b == nil {
				t.Fatalf("a %s mail has no order block:\n%s", mail.Kind, mail.Body)
			}
			block, _ := strconv.Atoi(b[1])
			if n := nextRE.FindStringSubmatch(mail.Body); n != nil && n[2] != b[1] {
				t.Fatalf("%q says NEXT %s %s, its block TURN %s", mail.Subject, n[1], n[2], b[1])
			}
			if s := subjectNumberRE.FindStringSubmatch(mail.Subject); s != nil {
				if s[2] != "" && atoi(s[2]) != block-1 || s[4] != "" && atoi(s[4]) != block {
					t.Fatalf("%q asks for TURN %d", mail.Subject, block)
				}
			}
			latest[mail.To] = mail
		}
	}
	// Every state commitment mailed is one of the archive's states, in some timeline.
	// (Checked as each mail is queued: the archive's states only grow, a rollback keeping what it
	// discards.)
	for i, mail := range rec.Mails[m.checked:] {
		for _, c := range mailCommitmentRE.FindAllStringSubmatch(mail.Body, -1) {
			if !known[c[1]] {
				t.Fatalf("mail %d (%s to %s, %q) shows the state commitment %s, which no state in the archive gives", m.checked+i+1, mail.Kind, mail.To, mail.Subject, c[1])
			}
		}
	}

	// Each game-over reason is true for the side that reads it: a side it says has nothing left in
	// play has none of its units in the final state.
	for _, mail := range rec.Mails[m.checked:] {
		if mail.Kind != "over" {
			continue
		}
		sides := m.sidesWithNothingLeft(t, mail.Body)
		if len(sides) == 0 && !strings.Contains(mail.Body, "turn limit") {
			// "no enemy is left in the air" is false for the side that has nothing left: a reason must
			// name who has nothing left, or the turn limit.
			t.Fatalf("the game-over mail to %s gives a reason that names no side:\n%s", mail.To, mail.Body)
		}
		for _, side := range sides {
			for _, s := range rec.Game.Seats {
				if s.Side == side && m.inPlay(t, rec, s.Player) {
					t.Fatalf("the game-over mail to %s says %s has nothing left in play, but %s still has units:\n%s", mail.To, side, s.Player, mail.Body)
				}
			}
		}
	}
	m.checked = len(rec.Mails)
	// The block of the last report a player got this step asks for the round the game waits for.
	if st.State() != "over" {
		seats, _ := m.svc.Seats("g1")
		for _, s := range seats {
			mail, ok := latest[s.Email]
			if !ok {
				continue
			}
			want := st.Round
			if m.selective {
				want = s.Asks
			}
			if b := blockRE.FindStringSubmatch(mail.Body); atoi(b[1]) != want {
				t.Fatalf("%s's last report %q asks for TURN %s, but the game waits for %d", s.Player, mail.Subject, b[1], want)
			}
		}
	}
	m.remember(t)
}

var nothingLeftRE = regexp.MustCompile(`(\S+) has nothing (?:left )?in play`)

// sidesWithNothingLeft are the sides a game-over mail says have nothing left in play.
func (m *lifeModel) sidesWithNothingLeft(t *rapid.T, body string) []string {
	var out []string
	for _, s := range nothingLeftRE.FindAllStringSubmatch(body, -1) {
		out = append(out, s[1])
	}
	return out
}

// inPlay says a player still has units in the game's final state (in a game that asks only some
// players, units waiting for no order are in play too: the report's own units tell).
func (m *lifeModel) inPlay(t *rapid.T, rec *adjudicator.GameRecord, player string) bool {
	rs, err := m.svc.Rulesets().Get(rec.Game.Ruleset)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rs.Load(rec.State)
	if err != nil {
		t.Fatal(err)
	}
	if m.selective {
		return false // Units names only the units asked for an order
	}
	return len(g.Units(player)) > 0
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// roundsByTimeline lists the rounds of each timeline of a game record (0: the game as it stands).
func roundsByTimeline(rec *adjudicator.GameRecord) map[int][]int {
	out := map[int][]int{}
	for _, r := range rec.Rounds {
		out[0] = append(out[0], r.Round)
	}
	for _, r := range discardedRounds(rec) {
		out[r.Timeline] = append(out[r.Timeline], r.Round)
	}
	return out
}

// discardedRounds are the rounds of a game record's closed timelines.
func discardedRounds(rec *adjudicator.GameRecord) []adjudicator.PlayedRound { return rec.Discarded }
