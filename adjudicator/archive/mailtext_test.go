package archive

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rs/zerolog"
	"pgregory.net/rapid"

	"sortie/adjudicator"
	"sortie/parser"
	"sortie/rules/dice"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/storage"
	"sortie/templates"
)

// The mails of every bundled demo and of the game-life model's games, read for wording a player was
// given and should not have been: contradictions, jargon, unformatted numbers, words of another game.
// Each pattern was a defect found by players; the rulesets' own tests (wording_test.go in rules/afd and
// rules/tnl, rules/swarm's TestSwarmBelowFullStrength) pin each fix to its rule.

// mailGames are the games whose every mail is read: each bundled scenario played as `sortie demo` plays
// it.
var mailGames = []struct {
	ruleset, scenario string
	impulse           bool // the Delta-T impulse game (seed 001): the only one whose mails may say "impulse"
}{
	{"afd", "channel-1940", false},
	{"afd", "kent-impulse-1940", true},
	{"afd", "strike", false},
	{"swarm", "kanalkampf-1940", false},
	{"tnl", "battle-of-britain", false},
}

// mailProblem is a pattern no mail may show, and why.
type mailProblem struct {
	re   *regexp.Regexp
	why  string
	skip func(impulse bool) bool // the pattern is allowed in this game
	// unless, when set, excuses a line that also matches it.
	unless *regexp.Regexp
}

var mailProblems = []mailProblem{
	{re: regexp.MustCompile(`\b[Aa] a[a-z0-9]|\b[Aa]n an\b|\b[Aa] an\b|\b[Aa]n a\b`), why: "a doubled article"},
	{re: regexp.MustCompile(`identified \S+ as an? [a-z0-9]+-?[a-z0-9]*$`), why: "an aircraft named by its data key, not its name"},
	{re: regexp.MustCompile(`\b\d+ hits?; no hit`), why: "hits, then no hit"},
	{re: regexp.MustCompile(`\b\d{4,} (ft|feet)\b`), why: "a height without its thousands comma (one format everywhere: 10,000 ft)"},
	{re: regexp.MustCompile(`(?i)\bimpulses?\b`), why: "impulses in a game that has none", skip: func(impulse bool) bool { return impulse }},
	{re: regexp.MustCompile(`active in impulses\s*(?:$|[^0-9\s])`), why: "an empty list of impulses"},
	{re: regexp.MustCompile(`\bpips \d+ of \d+ filled(?:$|[^ ]| [^(])`), why: "pips unexplained"},
	// seed 000, hit location: the star marks the system a red 5 or 6 adds hits to.
	{re: regexp.MustCompile(`hit location [A-Z ]*\*`), why: "a starred hit location without saying what the star did", unless: regexp.MustCompile(`critical hit`)},
}

// sameNowRE finds "X now Y": a value and what it is now, which must differ.
var sameNowRE = regexp.MustCompile(`(\S+) now (\S+)`)

// withoutDice splits a mail into its dice section (a roll's label is the archive's record, kept as it
// was) and the rest.
func withoutDice(body string) (text, diceLines string) {
	i := strings.Index(body, "\nDICE THROWN FOR YOU\n")
	if i < 0 {
		return body, ""
	}
	j := strings.Index(body[i+1:], "\n\n")
	if j < 0 {
		return body[:i], body[i:]
	}
	return body[:i] + body[i+1+j:], body[i : i+1+j]
}

// legendProblems are the marks of a mail's ASCII map that its legend does not explain.
func legendProblems(body string) []mailFault {
	i := strings.Index(body, "\nMAP\n")
	if i < 0 {
		return nil
	}
	rest := body[i+len("\nMAP\n"):]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j]
	}
	onMap, inLegend := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(rest, "\n") {
		fields := strings.Fields(l)
		grid := len(fields) > 0
		for _, f := range fields {
			if len(f) != 1 {
				grid = false
				break
			}
		}
		switch {
		case grid:
			for _, f := range fields {
				if f != "." && f != "*" {
					onMap[f] = true
				}
			}
		case strings.HasPrefix(strings.TrimSpace(l), "north is up"), strings.HasPrefix(strings.TrimSpace(l), "("):
		default:
			for _, entry := range strings.Split(strings.TrimSpace(l), "; ") {
				if sym, _, ok := strings.Cut(entry, " "); ok && len(sym) == 1 {
					inLegend[sym] = true
				}
			}
		}
	}
	var out []mailFault
	for sym := range onMap {
		if !inLegend[sym] {
			out = append(out, mailFault{"a mark on the map that its legend does not name", sym})
		}
	}
	// Every unit the report lists in play (in a hex) is in the legend: a legend with fewer units than the
	// report left the player to guess where the rest are.
	legendWords := map[string]bool{}
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == ';' || r == '\n' }) {
		legendWords[w] = true
	}
	for _, name := range unitsInPlay(body) {
		if !legendWords[name] {
			out = append(out, mailFault{"a unit the report lists that the map's legend leaves out", name})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// mailFault is a pattern a mail showed, and the line it showed it in.
type mailFault struct{ why, line string }

// unitsInPlay are the units a report lists with a hex: its own, the enemy's in sight, and those on the
// ground and at sea.
func unitsInPlay(body string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(l, "YOUR "), strings.HasPrefix(l, "ENEMY "), l == "ON THE GROUND AND AT SEA":
			in = true
		case l == "" || !strings.HasPrefix(l, " "):
			in = false
		case in && strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") && strings.Contains(l, "hex ("):
			out = append(out, strings.Fields(l)[0])
		}
	}
	return out
}

// checkMail gives what is wrong with one mail's text.
func checkMail(body string, impulse bool) []mailFault {
	var out []mailFault
	text, _ := withoutDice(body)
	for _, line := range strings.Split(text, "\n") {
		for _, p := range mailProblems {
			if p.skip != nil && p.skip(impulse) {
				continue
			}
			if p.re.MatchString(line) && (p.unless == nil || !p.unless.MatchString(line)) {
				out = append(out, mailFault{p.why, strings.TrimSpace(line)})
			}
		}
		for _, m := range sameNowRE.FindAllStringSubmatch(line, -1) {
			if strings.TrimRight(m[1], ",;") == strings.TrimRight(m[2], ",;") {
				out = append(out, mailFault{"a value \"now\" the same as it was", strings.TrimSpace(line)})
			}
		}
	}
	return append(out, legendProblems(body)...)
}

// TestMailsReadWell reads every mail of every bundled demo, and of the game-life model's games (a fixed
// seed), for the patterns above.
func TestMailsReadWell(t *testing.T) {
	var games []mailedGame
	for _, g := range mailGames {
		turns := 0
		if raceEnabled {
			// The race detector slows play some tenfold: there the demos the life model plays too are left
			// to it, and the others play three turns (every kind of mail but the last turns' comes early).
			if slices.ContainsFunc(lifeGames, func(lg struct{ ruleset, scenario string }) bool { return lg.scenario == g.scenario }) {
				continue
			}
			turns = 3
		}
		games = append(games, mailedGame{g.scenario, g.impulse, demoGame(t, g.ruleset, g.scenario, turns)})
	}
	games = append(games, lifeMailGames(t)...)
	for _, g := range games {
		// Each fault once a game, with how many lines showed it and the first of them.
		count := map[string]int{}
		var order []string
		first := map[string]string{}
		for _, m := range g.mails {
			for _, f := range checkMail(m.Subject+"\n"+m.Body, g.impulse) {
				if count[f.why] == 0 {
					order = append(order, f.why)
					first[f.why] = fmt.Sprintf("%s mail %q: %q", m.Kind, m.Subject, f.line)
				}
				count[f.why]++
			}
		}
		for _, why := range order {
			t.Errorf("%s: %s, %d times; first in the %s", g.name, why, count[why], first[why])
		}
	}
}

// mailedGame is a game played and every mail it sent.
type mailedGame struct {
	name    string
	impulse bool
	mails   []storage.Outgoing
}

// lifeMailGames are the game-life model's games (life_model_test.go), one sequence of steps each from a
// fixed seed, on the text-only twins of the rulesets.
func lifeMailGames(t *testing.T) []mailedGame {
	for name, value := range map[string]string{"rapid.seed": "26", "rapid.checks": "1", "rapid.steps": "30"} {
		f := flag.Lookup(name)
		if f == nil {
			t.Fatalf("no flag %s", name)
		}
		old := f.Value.String()
		flag.Set(name, value)
		defer flag.Set(name, old)
	}
	var out []mailedGame
	for _, lg := range lifeGames {
		rs := textOnlyRuleset(t, lg.ruleset)
		var mails []storage.Outgoing
		rapid.Check(t, func(rt *rapid.T) {
			m := newLifeModel(rt, t.TempDir(), rs.Name(), lg.scenario)
			defer m.close()
			rt.Repeat(rapid.StateMachineActions(m))
			mails = m.mails(rt)
		})
		out = append(out, mailedGame{"life model " + lg.scenario, strings.Contains(lg.scenario, "impulse"), mails})
	}
	return out
}

// demoGame plays one bundled scenario to its end the way `sortie demo` does (cmd/sortie/internal/demo):
// each player answers every report that carries an order block with the ruleset's demo pilot's orders,
// the computer pilot's order put in for every unit it has one for, and falls back to the report's own
// block when a receipt says the orders were not stored. It returns every mail the game sent.
func demoGame(t *testing.T, rulesetName, scenario string, turns int) []storage.Outgoing {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	svc := adjudicator.New(db, tmpl, adjudicator.Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour, DigestHour: -1}, zerolog.Nop(),
		adjudicator.WithClock(func() time.Time { return now }), adjudicator.WithRulesets(textRulesets(t)))
	rs := textOnlyRuleset(t, rulesetName)
	b := rs.(ruleset.Bundled)
	pilot := rs.(ruleset.DemoPilot)
	scn, err := fs.ReadFile(b.Scenarios(), scenario+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	if turns > 0 {
		scn = regexp.MustCompile(`(?m)^turns: \d+$`).ReplaceAll(scn, []byte(fmt.Sprintf("turns: %d", turns)))
	}
	part, err := adjudicator.GamePart(scn)
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := fs.Sub(b.Scenarios(), ".")
	rg, err := rs.NewGame(part, sub, scenario+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	var svcPart strings.Builder
	fmt.Fprintf(&svcPart, "\nservice:\n  moderator: mod@players.test\n  seed: %s\n  players:\n", lifeSeed)
	for i, p := range rg.Players() {
		fmt.Fprintf(&svcPart, "    %s: {email: %s@players.test, secret: seat-secret-%04d-mail}\n", p.ID, p.ID, i)
	}
	if _, err := svc.NewGameFiles(append(scn, svcPart.String()...), sub, scenario+".yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	record := func() *adjudicator.GameRecord {
		rec, err := svc.Record("g1")
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	seats, err := svc.Seats("g1")
	if err != nil {
		t.Fatal(err)
	}
	seatOf := map[string]adjudicator.Seat{}
	for _, s := range seats {
		seatOf[s.Email] = s
	}
	n := 0
	submit := func(s adjudicator.Seat, round, orders string) {
		n++
		text := fmt.Sprintf("GAME g1 TURN %s SECRET %s\n%s\nEND\n", round, s.Secret, strings.TrimSpace(orders))
		if _, err := svc.Submit(adjudicator.Envelope{From: s.Email, MessageID: fmt.Sprintf("m%d@players.test", n), Text: text, Size: len(text), To: []string{"sortie@sortie.test"}}); err != nil {
			t.Fatalf("submit: %v", err)
		}
	}
	read := 0
	ready := map[string][2]string{} // player's address → the round and block of their last report
	for step := 0; ; step++ {
		if step > 400 {
			t.Fatalf("%s: the game did not end", scenario)
		}
		mails := record().Mails
		if read == len(mails) {
			st, err := svc.Status("g1")
			if err != nil {
				t.Fatal(err)
			}
			if st.Status != adjudicator.StatusRunning {
				return mails
			}
			// Nobody has anything to send: the clock passes the deadline.
			now = now.Add(72 * time.Hour)
			if _, err := svc.Tick(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for _, m := range mails[read:] {
			read++
			s, ok := seatOf[m.To]
			if !ok {
				continue
			}
			switch m.Kind {
			case "receipt":
				if strings.Contains(m.Body, "NOT STORED") {
					if r, ok := ready[m.To]; ok {
						delete(ready, m.To) // the ready-made block is sent once
						submit(s, r[0], r[1])
					}
				}
			case "start", "report":
				bm := blockRE.FindStringSubmatch(m.Body)
				if bm == nil {
					continue
				}
				block := "GAME g1 TURN " + bm[1] + "\n" + bm[2] + "END\n"
				orders := pilot.DemoOrders(m.Body, block)
				if computer, err := svc.PilotOrders("g1", s.Player); err == nil {
					orders = withComputerOrders(orders, computer)
				}
				ready[m.To] = [2]string{bm[1], bm[2]}
				if body := orderLines(orders); body != "" {
					submit(s, bm[1], body)
				}
			}
		}
	}
}

// orderLines are the lines of a block between its GAME and END lines.
func orderLines(block string) string {
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if strings.HasPrefix(l, "GAME ") || strings.TrimSpace(l) == "END" {
			continue
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// withComputerOrders puts the computer pilot's orders into a block's order lines, unit by unit, as the
// demo's players do.
func withComputerOrders(block string, orders map[string]string) string {
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		if unit, _, ok := strings.Cut(l, ": "); ok {
			if o, ok := orders[unit]; ok && o != "" {
				lines[i] = unit + ": " + o
			}
		}
	}
	return strings.Join(lines, "\n")
}

// textOnly is a bundled ruleset whose reports draw no map picture: the mails' text is the same, and a game
// is played through the real service in a small part of the time (drawing is most of a round's time,
// and tenfold slower under the race detector). It registers as "<name>-text", and its scenarios say so.
type textOnly struct{ inner ruleset.Ruleset }

// textOnlyRuleset returns the text-only twin of a built-in ruleset.
func textOnlyRuleset(t failer, name string) ruleset.Ruleset {
	t.Helper()
	inner, err := registry.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return textOnly{inner}
}

// failer is what the helpers below need of a test: a *testing.T or a *rapid.T.
type failer interface {
	Helper()
	Fatal(args ...any)
}

// textRulesets are the built-in rulesets and their text-only twins, for a service (and its archive) that
// plays the twins.
func textRulesets(t failer) *registry.Set {
	t.Helper()
	var twins []ruleset.Ruleset
	for _, n := range registry.Names() {
		twins = append(twins, textOnlyRuleset(t, n))
	}
	set, err := registry.Shipped().With(twins...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func (r textOnly) Name() string               { return r.inner.Name() + "-text" }
func (r textOnly) Version() (string, error)   { return r.inner.Version() }
func (r textOnly) DefaultScenario() string    { return r.inner.(ruleset.Bundled).DefaultScenario() }
func (r textOnly) UnitNoun() (string, string) { return ruleset.UnitNouns(r.inner) }
func (r textOnly) DemoOrders(report, block string) string {
	return r.inner.(ruleset.DemoPilot).DemoOrders(report, block)
}
func (r textOnly) BlockNotation() parser.Notation { return r.inner.(ruleset.Hinter).BlockNotation() }

// innerScenario is a scenario of the twin read as the built-in ruleset's.
func (r textOnly) innerScenario(scn []byte) []byte {
	return bytes.Replace(scn, []byte("ruleset: "+r.Name()), []byte("ruleset: "+r.inner.Name()), 1)
}

// Scenarios are the built-in ruleset's, naming the twin.
func (r textOnly) Scenarios() fs.FS {
	out := fstest.MapFS{}
	fs.WalkDir(r.inner.(ruleset.Bundled).Scenarios(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(r.inner.(ruleset.Bundled).Scenarios(), path)
		if err != nil {
			return err
		}
		out[path] = &fstest.MapFile{Data: bytes.Replace(b, []byte("ruleset: "+r.inner.Name()), []byte("ruleset: "+r.Name()), 1)}
		return nil
	})
	return out
}

func (r textOnly) NewGame(scn []byte, files fs.FS, source string) (ruleset.Game, error) {
	g, err := r.inner.NewGame(r.innerScenario(scn), files, source)
	return wrapText(g), err
}

func (r textOnly) Load(state []byte) (ruleset.Game, error) {
	g, err := r.inner.Load(state)
	return wrapText(g), err
}

// textGame is a game of the twin: the built-in game, its reports without a scene. Every bundled
// ruleset's game is Piloted and a Withdrawer; the other optional interfaces answer as the built-in game
// does through the ruleset package's helpers.
type textGame struct{ ruleset.Game }

func wrapText(g ruleset.Game) ruleset.Game {
	if g == nil {
		return nil
	}
	return textGame{g}
}

func (g textGame) Resolve(orders map[string]string, d dice.Source) (ruleset.Game, *ruleset.Log, error) {
	next, log, err := g.Game.Resolve(orders, d)
	return wrapText(next), log, err
}

func (g textGame) Report(player string, log *ruleset.Log) ruleset.Report {
	rep := g.Game.Report(player, log)
	rep.Scene = nil
	return rep
}

func (g textGame) Withdraw(player string) (ruleset.Game, error) {
	next, err := g.Game.(ruleset.Withdrawer).Withdraw(player)
	return wrapText(next), err
}

func (g textGame) PilotOrders(player string) map[string]string {
	return g.Game.(ruleset.Piloted).PilotOrders(player)
}

func (g textGame) AsksOnly() bool {
	s, ok := g.Game.(ruleset.Selective)
	return ok && s.AsksOnly()
}

func (g textGame) RoundNoun() string  { return ruleset.RoundNoun(g.Game) }
func (g textGame) LastTurn() int      { return ruleset.LastTurn(g.Game) }
func (g textGame) DiceStream() string { return ruleset.DiceStream(g.Game) }
func (g textGame) StandingUnits(player string) []string {
	return ruleset.OrderableUnits(g.Game, player)[len(g.Game.Units(player)):]
}
