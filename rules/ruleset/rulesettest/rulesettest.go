// Package rulesettest is the conformance kit every ruleset's tests call: it plays a ruleset's scenarios
// through the ruleset.Ruleset and ruleset.Game interfaces only and checks what the adjudicator relies on.
// A new ruleset is done only when the kit passes on it.
//
//   - Save and Load round-trip byte for byte, before and after every round.
//   - The same seed gives the same bytes: every game is played twice with dice from the same seed, and
//     the saves and logs must be identical.
//   - Resolving does not change its input state (the state is saved before and after).
//   - Each side's default order for each of its units passes CheckOrder, and its canonical text reads
//     back to itself.
//   - Fog of war: no report, OrderCheck text or error a side receives names a unit, a position or a roll
//     that side has not seen. The ruleset's test says what each side has not seen (Oracle.Secrets) and
//     which event kinds exist (Oracle.EventKinds); the kit fails if a kind is never produced.
//   - What a side could not see changes nothing it is told: pairs of games that differ only in it
//     (Oracle.Twins) give that side the same reports, map pictures, order checks, computer pilot's
//     orders and view (twins.go).
//   - No fire order goes unanswered (Oracle.Fire, FireCheck): a unit owed an answer attacked, or a line
//     in the log says why it did not.
//   - The plotting board (ruleset.Planner): the plan of any order text is CheckOrder's answer field for
//     field, a legal default order has a track to draw, every orderable unit has help on its notation,
//     and the reach never names what the side has not seen (the twins compare plans and help too).
//   - No order text, however hostile, panics CheckOrder (a fixed corpus here, and FuzzCheckOrder for a
//     fuzz target).
//
// The kit is told things by the ruleset's test and finds the rest itself:
//
//	func TestConformance(t *testing.T) {
//		rulesettest.Run(t, Ruleset{}, bundled, rulesettest.Oracle{...})
//	}
package rulesettest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode"

	"sortie/rules/dice"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
)

// Secret is something a side must not read: an enemy unit's name, its position as the ruleset writes
// positions, or a roll's label, with a word saying what it is (for the failure message).
type Secret struct {
	Text string
	What string
	// Position marks a position: it is not looked for in an order check's preview, which is the
	// forecast of the player's own unit and may pass through any place.
	Position bool
}

// Play is a game the kit plays: a scenario and, per round, the order texts by unit (a unit with no
// order follows its default, as when no order came). Dice, if set, gives the dice of a round (a scripted
// source for a particular roll); otherwise the kit throws seeded dice.
type Play struct {
	Name     string
	Scenario []byte
	Rounds   []map[string]string
	Dice     func(round int) dice.Source
}

// Oracle is the little the kit must be told by the ruleset's test, which can look inside its own game.
type Oracle struct {
	// Secrets lists what side must not read in anything it receives once the round in log has been
	// resolved from prev into g (prev and log are nil for the opening report): the enemy units it saw
	// neither before nor after the round, their positions, the labels of the enemy's rolls. A position
	// the side knows for another reason (one of its own units stands there or flew through it) must be
	// left out.
	Secrets func(prev, g ruleset.Game, log *ruleset.Log, side string) []Secret
	// EventKinds lists every event kind the ruleset can put in a log; the kit fails if one is never
	// produced by the plays, or a play produces one not listed.
	EventKinds []string
	// Kinds reads the kinds of a log's events; by default the log's events are read as a JSON array of
	// objects with a "kind" field.
	Kinds func(log *ruleset.Log) ([]string, error)
	// Plays are games that between them produce every event kind (the bundled scenarios are played too,
	// on default orders).
	Plays []Play
	// Doomed says whether a unit has no legal order left (say, a plane too low and too slow to stay off
	// the ground): its default order may then fail CheckOrder, because any order would.
	Doomed func(g ruleset.Game, unit string) bool
	// Twins are pairs of games that differ only in what one side could not see (twins.go); the kit
	// requires at least one, since a fog of war that only leaves out names and hexes may still let
	// a side's report or its computer pilot read what it never saw.
	Twins []Twins
	// View, if set, is the side's view of g as the ruleset builds its reports and its pilot's orders
	// from it; the twins must give the same.
	View func(g ruleset.Game, side string) any
	// Rounds is how many rounds each bundled scenario is played (default 4).
	Rounds int
	// Seed seeds the dice (default 1).
	Seed uint64
	// Fire, when set, has the kit check that every fire order owed an answer gets one (FireCheck);
	// the kit fails if no play ever owes one.
	Fire *FireCheck

	fireChecked *int // the answers the fire check has checked, across plays
}

// Nasty is the corpus of hostile order texts every CheckOrder must answer without panicking.
var Nasty = []string{
	"", " ", "\t", "\n", "\r\n", "\x00", "\xff\xfe", "\xc3\x28", "💥", "ＦＩＲＥ", "İ", "ǅ",
	"FIRE", "HOLD", "FIRE FIRE FIRE", "FIRE AT", "FIRE AT AT", ":", "::", ": :", "#", "//", "--", "..", "-1",
	"0", "00", "-0", "+0", "99999999999999999999999999", "-99999999999999999999", "1e309", "NaN", "Inf",
	"0x10", "1.5", "1/2", "1,2", "(1,2)", "[1,2]", "{}", "null", "true", "%s%d%v%!", "\\", "\"", "'",
	"<script>", "${x}", "$(rm)", "`x`", "TL", "TR", "S", "L", "R", "D", "C", "TL TL TL TL TL TL TL TL TL TL",
	strings.Repeat("1 ", 500), strings.Repeat("TL", 300), strings.Repeat("(", 200), strings.Repeat(")", 200),
	strings.Repeat("9", 4000), strings.Repeat("x", 10000), strings.Repeat("FIRE AT ", 200),
	"1 S M 1 FIRE ANY", "6 FIRE ANY", "2 S M 2 HOLD", "COURSE", "COURSE 1 S M 1 ; 1 S M 1",
	"1;2;3", "1 | 2", "FIRE AT \x00", "FIRE AT 💥", "\u202e1 TL", "\u200b", "1\u00a0TL",
}

// Run plays every bundled scenario and every play of the oracle and checks the ruleset against them.
func Run(t *testing.T, rs ruleset.Ruleset, scenarios map[string][]byte, o Oracle) {
	t.Helper()
	if o.Secrets == nil {
		t.Fatal("rulesettest: the oracle has no Secrets: the kit cannot check fog of war")
	}
	if len(scenarios) == 0 {
		t.Fatal("rulesettest: no bundled scenarios")
	}
	if len(o.Twins) == 0 {
		t.Fatal("rulesettest: the oracle has no Twins: the kit cannot check that what a side could not see changes nothing it is told")
	}
	if o.Rounds == 0 {
		o.Rounds = 4
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Kinds == nil {
		o.Kinds = jsonKinds
	}
	plays := []Play{}
	for _, name := range sortedKeys(scenarios) {
		plays = append(plays, Play{Name: "bundled " + name, Scenario: scenarios[name], Rounds: make([]map[string]string, o.Rounds)})
	}
	plays = append(plays, o.Plays...)
	produced := map[string]string{}
	fireChecked := 0
	o.fireChecked = &fireChecked
	for _, p := range plays {
		t.Run(p.Name, func(t *testing.T) {
			for _, k := range runPlay(t, rs, p, o) {
				if _, ok := produced[k]; !ok {
					produced[k] = p.Name
				}
			}
		})
	}
	checkTwins(t, rs, o)
	if o.Fire != nil && fireChecked == 0 {
		t.Error("no play owed an answer to a fire order: the fire check never ran")
	}
	listed := map[string]bool{}
	for _, k := range o.EventKinds {
		listed[k] = true
		if _, ok := produced[k]; !ok {
			t.Errorf("event kind %q was never produced: no play walks its fog-of-war rule", k)
		}
	}
	for k, by := range produced {
		if !listed[k] {
			t.Errorf("event kind %q (produced by %s) is not in the oracle's EventKinds", k, by)
		}
	}
}

// runPlay plays one game twice from the same seed and checks it round by round; it returns the event
// kinds produced.
func runPlay(t *testing.T, rs ruleset.Ruleset, p Play, o Oracle) []string {
	t.Helper()
	first, err := rs.NewGame(p.Scenario, nil, "scenario.yaml")
	if err != nil {
		t.Fatalf("NewGame: %v", err)
	}
	checkRoundTrip(t, rs, first, "the first state")
	checkDefaults(t, first, o)
	checkNasty(t, first)
	checkFog(t, nil, first, nil, o)
	checkScene(t, first, nil)

	var kinds []string
	saves, logs := playOnce(t, rs, first, p, o, &kinds, true)
	again, err := rs.NewGame(p.Scenario, nil, "scenario.yaml")
	if err != nil {
		t.Fatalf("NewGame again: %v", err)
	}
	saves2, logs2 := playOnce(t, rs, again, p, o, nil, false)
	if len(saves) != len(saves2) {
		t.Fatalf("the same seed played %d rounds, then %d", len(saves), len(saves2))
	}
	for i := range saves {
		if !bytes.Equal(saves[i], saves2[i]) {
			t.Errorf("round %d: the same seed and orders gave two different states:\n%s\n%s", i+1, saves[i], saves2[i])
		}
		if !bytes.Equal(logs[i], logs2[i]) {
			t.Errorf("round %d: the same seed and orders gave two different logs:\n%s\n%s", i+1, logs[i], logs2[i])
		}
	}
	return kinds
}

func playOnce(t *testing.T, rs ruleset.Ruleset, g ruleset.Game, p Play, o Oracle, kinds *[]string, check bool) (saves, logs [][]byte) {
	t.Helper()
	seed := dice.SeedFromUint64(o.Seed)
	for i, given := range p.Rounds {
		if over, _ := g.Over(); over {
			break
		}
		round := g.Round()
		orders := roundOrders(g, given)
		var d dice.Source = dice.NewSeeded(seed.Stream(fmt.Sprintf("round %d", i+1)))
		if p.Dice != nil {
			d = p.Dice(i + 1)
		}
		before := mustSave(t, g, fmt.Sprintf("round %d: Save", round))
		next, log, err := g.Resolve(orders, d)
		if err != nil {
			t.Fatalf("round %d: Resolve: %v", round, err)
		}
		if after := mustSave(t, g, fmt.Sprintf("round %d: Save", round)); !bytes.Equal(before, after) {
			t.Errorf("round %d: Resolve changed its input state", round)
		}
		save := mustSave(t, next, fmt.Sprintf("round %d: Save of the next state", round))
		lb, err := json.Marshal(log)
		if err != nil {
			t.Fatalf("round %d: the log does not marshal: %v", round, err)
		}
		saves, logs = append(saves, save), append(logs, lb)
		if check {
			ks, err := o.Kinds(log)
			if err != nil {
				t.Fatalf("round %d: reading the log's event kinds: %v", round, err)
			}
			*kinds = append(*kinds, ks...)
			checkRoundTrip(t, rs, next, fmt.Sprintf("after round %d", round))
			if over, _ := next.Over(); !over {
				checkDefaults(t, next, o)
			}
			checkFog(t, g, next, log, o)
			checkScene(t, next, log)
			if o.Fire != nil {
				*o.fireChecked += checkFire(t, o.Fire, g, next, orders, log)
			}
		}
		g = next
	}
	return saves, logs
}

// mustSave is g's saved state; a failure to save ends the test, the message beginning with what.
func mustSave(t *testing.T, g ruleset.Game, what string) []byte {
	t.Helper()
	b, err := g.Save()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return b
}

func checkRoundTrip(t *testing.T, rs ruleset.Ruleset, g ruleset.Game, when string) {
	t.Helper()
	a := mustSave(t, g, when+": Save")
	h, err := rs.Load(a)
	if err != nil {
		t.Fatalf("%s: Load of a saved state: %v", when, err)
	}
	b := mustSave(t, h, when+": Save after Load")
	if !bytes.Equal(a, b) {
		t.Errorf("%s: Save, Load, Save is not byte-identical:\n%s\n%s", when, a, b)
	}
	if g.Hash() != h.Hash() {
		t.Errorf("%s: the hash changed through Load", when)
	}
}

func checkDefaults(t *testing.T, g ruleset.Game, o Oracle) {
	t.Helper()
	for _, p := range g.Players() {
		for _, u := range g.Units(p.ID) {
			d := g.DefaultOrder(u)
			c := g.CheckOrder(p.ID, u, d)
			if !c.OK() && o.Doomed != nil && o.Doomed(g, u) {
				continue
			}
			if !c.OK() {
				t.Errorf("round %d: %s's default order for %s, %q, fails CheckOrder: %+v", g.Round(), p.ID, u, d, c.Errors)
				continue
			}
			if c2 := g.CheckOrder(p.ID, u, c.Canonical); !c2.OK() || c2.Canonical != c.Canonical {
				t.Errorf("round %d: the canonical text of %s's default order, %q, does not read back to itself: %q %+v", g.Round(), u, c.Canonical, c2.Canonical, c2.Errors)
			}
			checkPlan(t, g, p.ID, u, d, c)
		}
		if pl, ok := g.(ruleset.Planner); ok {
			for _, u := range ruleset.OrderableUnits(g, p.ID) {
				if len(pl.PlotHelp(p.ID, u)) == 0 {
					t.Errorf("round %d: the plotting board has no help on writing an order for %s's %s", g.Round(), p.ID, u)
				}
			}
		}
	}
}

// checkPlan checks the plotting board's plan of a legal order (ruleset.Planner): its check is
// CheckOrder's, field for field, and it has a track to draw, starting where the unit stands.
func checkPlan(t testing.TB, g ruleset.Game, player, unit, text string, c ruleset.OrderCheck) {
	t.Helper()
	pl, ok := g.(ruleset.Planner)
	if !ok {
		return
	}
	plan := pl.Plan(player, unit, text)
	if !reflect.DeepEqual(plan.Check, c) {
		t.Errorf("round %d: the board's plan of %s's order %q for %s is not CheckOrder's answer:\nplan  %+v\ncheck %+v", g.Round(), player, text, unit, plan.Check, c)
	}
	if c.OK() && len(plan.Path) == 0 {
		t.Errorf("round %d: the board's plan of %s's legal order %q for %s has no track", g.Round(), player, text, unit)
	}
}

// checkNasty runs the corpus through CheckOrder for every unit, as its own player and as another.
func checkNasty(t *testing.T, g ruleset.Game) {
	t.Helper()
	for _, text := range Nasty {
		checkOne(t, g, text)
	}
}

func checkOne(t testing.TB, g ruleset.Game, text string) {
	t.Helper()
	players := g.Players()
	for _, p := range players {
		units := append(g.Units(p.ID), text, "", "\x00")
		for _, u := range units {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("CheckOrder or Plan(%q, %q, %q) panicked: %v", p.ID, u, text, r)
					}
				}()
				c := g.CheckOrder(p.ID, u, text)
				if pl, ok := g.(ruleset.Planner); ok {
					if plan := pl.Plan(p.ID, u, text); !reflect.DeepEqual(plan.Check, c) {
						t.Errorf("the board's plan of %q for %s's %q is not CheckOrder's answer:\nplan  %+v\ncheck %+v", text, p.ID, u, plan.Check, c)
					}
					pl.PlotHelp(p.ID, u)
				}
			}()
		}
	}
}

// FuzzCheckOrder is the body of a fuzz target: a ruleset's test wraps it as
//
//	func FuzzCheckOrder(f *testing.F) { rulesettest.FuzzCheckOrder(f, Ruleset{}, scenario) }
//
// and every text the fuzzer makes is checked as an order for every unit of the scenario's first state.
func FuzzCheckOrder(f *testing.F, rs ruleset.Ruleset, scenario []byte) {
	g, err := rs.NewGame(scenario, nil, "scenario.yaml")
	if err != nil {
		f.Fatalf("NewGame: %v", err)
	}
	for _, s := range Nasty {
		f.Add(s)
	}
	for _, p := range g.Players() {
		for _, u := range g.Units(p.ID) {
			f.Add(g.DefaultOrder(u))
		}
	}
	f.Fuzz(func(t *testing.T, text string) { checkOne(t, g, text) })
}

// checkFog reads everything each player receives after a round and looks for the oracle's secrets in
// it: the report, and the check of every unit's default order and of the hostile corpus (previews,
// warnings, errors, canonical text).
func checkFog(t *testing.T, prev, g ruleset.Game, log *ruleset.Log, o Oracle) {
	t.Helper()
	for _, p := range g.Players() {
		secrets := o.Secrets(prev, g, log, p.Side)
		if len(secrets) == 0 {
			continue
		}
		type text struct{ where, all, noPreview string }
		var texts []text
		r := g.Report(p.ID, log)
		rep, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("the report for %s does not marshal: %v", p.ID, err)
		}
		texts = append(texts, text{"report", string(rep), string(rep)})
		if sc := sceneText(r.Picture()); sc != "" {
			texts = append(texts, text{"map picture", sc, sc})
		}
		for _, u := range g.Units(p.ID) {
			for _, order := range append([]string{g.DefaultOrder(u), "FIRE AT x", "x"}, Nasty[:20]...) {
				c := g.CheckOrder(p.ID, u, order)
				all, _ := json.Marshal(c)
				c.Preview = nil
				noPreview, _ := json.Marshal(c)
				texts = append(texts, text{fmt.Sprintf("check of %q for %s", order, u), string(all), string(noPreview)})
				if pl, ok := g.(ruleset.Planner); ok {
					// What the board adds: the reach names enemy units, so every secret is looked for in it.
					reach, _ := json.Marshal(pl.Plan(p.ID, u, order).Reach)
					texts = append(texts, text{fmt.Sprintf("board's reach of %q for %s", order, u), string(reach), string(reach)})
				}
			}
		}
		for _, tx := range texts {
			for _, s := range secrets {
				in := tx.all
				if s.Position {
					in = tx.noPreview
				}
				if s.Text != "" && containsWord(in, s.Text) {
					t.Errorf("round %d: %s (side %s) reads %s %q, which its side has not seen, in its %s: %s", g.Round(), p.ID, p.Side, s.What, s.Text, tx.where, clip(in))
				}
			}
		}
	}
}

// checkScene checks that a report's map picture, when the ruleset draws one, holds every unit the report
// lists (its own units and its contacts), so no own unit is ever left off the picture.
func checkScene(t *testing.T, g ruleset.Game, log *ruleset.Log) {
	t.Helper()
	for _, p := range g.Players() {
		r := g.Report(p.ID, log)
		if r.Scene == nil {
			continue
		}
		on := map[string]bool{}
		for _, u := range r.Scene.Units {
			on[u.Label] = true
		}
		for _, u := range append(append([]ruleset.Unit{}, r.Own...), r.Contacts...) {
			if !on[u.Name] {
				t.Errorf("round %d: %s's report lists %s but its map picture does not show it", g.Round(), p.ID, u.Name)
			}
		}
	}
}

// sceneText writes what a report's map picture shows of units, lines and marks, each with its hex as
// reports write hexes, so the secrets' names and positions are looked for in the picture's data too. The
// clouds are left out: they are the scenario's weather, not a sighting.
func sceneText(sc *hex.Scene) string {
	if sc == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(sc.Title + "\n")
	for _, u := range sc.Units {
		fmt.Fprintf(&b, "unit %s at %s %s", u.Label, u.Hex, strings.Join(u.Notes, " "))
		for _, h := range u.Track {
			fmt.Fprintf(&b, " %s", h)
		}
		b.WriteString("\n")
	}
	for _, l := range sc.Lines {
		fmt.Fprintf(&b, "line %s %s\n", l.From, l.To)
	}
	for _, m := range sc.Marks {
		fmt.Fprintf(&b, "mark %s %s\n", m.Label, m.Hex)
	}
	for _, c := range sc.Caption {
		b.WriteString(c + "\n")
	}
	return b.String()
}

// containsWord says whether s holds word with no letter or digit touching it on either side, so that
// a unit called A1 is not found inside A12.
func containsWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		if !wordRune(lastRune(s[:start])) && !wordRune(firstRune(s[end:])) {
			return true
		}
		i = start + 1
	}
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return ' '
}

func lastRune(s string) rune {
	r := ' '
	for _, c := range s {
		r = c
	}
	return r
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

func jsonKinds(log *ruleset.Log) ([]string, error) {
	var events []struct {
		Kind string `json:"kind"`
	}
	if len(log.Events) == 0 || string(log.Events) == "null" {
		return nil, nil
	}
	if err := json.Unmarshal(log.Events, &events); err != nil {
		return nil, err
	}
	var out []string
	for _, e := range events {
		out = append(out, e.Kind)
	}
	return out, nil
}

func sortedKeys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FixedDice throws every die high (its top face) or low (1), for plays that must reach the rare results:
// a plane shot down, an engine or the guns knocked out, a crew baling out.
func FixedDice(high bool) func(int) dice.Source {
	return func(int) dice.Source { return &fixedSource{high: high} }
}

type fixedSource struct {
	high bool
	log  []dice.Roll
}

func (f *fixedSource) Roll(label string, sides int) int {
	v := 1
	if f.high {
		v = sides
	}
	f.log = append(f.log, dice.Roll{Label: label, Sides: sides, Value: v})
	return v
}

func (f *fixedSource) Log() []dice.Roll { return f.log }

// CyclingDice throws 1, 2, 3 … each die's faces in turn, so one play meets many different results.
func CyclingDice(int) dice.Source { return &cyclingSource{} }

type cyclingSource struct {
	n   int
	log []dice.Roll
}

func (c *cyclingSource) Roll(label string, sides int) int {
	c.n++
	v := c.n%sides + 1
	c.log = append(c.log, dice.Roll{Label: label, Sides: sides, Value: v})
	return v
}

func (c *cyclingSource) Log() []dice.Roll { return c.log }

// BundledScenarios reads every scenario a ruleset ships (ruleset.Bundled), by name, for Run.
func BundledScenarios(t testing.TB, rs ruleset.Ruleset) map[string][]byte {
	t.Helper()
	b, ok := rs.(ruleset.Bundled)
	if !ok {
		t.Fatalf("rulesettest: the %s ruleset ships no scenarios (ruleset.Bundled)", rs.Name())
	}
	out := map[string][]byte{}
	matches, err := fs.Glob(b.Scenarios(), "*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range matches {
		data, err := fs.ReadFile(b.Scenarios(), m)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(m, ".yaml")] = data
	}
	if len(out) == 0 {
		t.Fatalf("rulesettest: the %s ruleset's scenario folder is empty", rs.Name())
	}
	return out
}

// FuzzBundledCheckOrder is FuzzCheckOrder on the ruleset's default bundled scenario (ruleset.Bundled).
func FuzzBundledCheckOrder(f *testing.F, rs interface {
	ruleset.Ruleset
	ruleset.Bundled
}) {
	b, err := fs.ReadFile(rs.Scenarios(), rs.DefaultScenario()+".yaml")
	if err != nil {
		f.Fatal(err)
	}
	FuzzCheckOrder(f, rs, b)
}
