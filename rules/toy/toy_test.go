// Package toy is a third game system that lives in this one folder of test files: it proves that a new
// ruleset needs nothing outside its folder but one registry call. Its tests register it, run the
// conformance kit on it, and play a game of it by mail through the adjudicator.
//
// The folder holds only _test.go files, which Go allows: the package is built for its tests alone, so
// the toy never ships in the binary.
//
// The game: two sides on a line of cells. Each turn a unit moves up to two cells (MOVE -2 … MOVE 2) and
// may fire (FIRE or HOLD) at an enemy in the next cell, hitting on a d6 of 4 or more. A side sees enemy
// units within three cells of one of its own.
package toy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.yaml.in/yaml/v3"

	"sortie/adjudicator"
	"sortie/rules/dice"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
	"sortie/storage"
	"sortie/templates"
)

const sightRange = 3

type Ruleset struct{}

func (Ruleset) Name() string             { return "toy" }
func (Ruleset) Version() (string, error) { return "toy-1", nil }

type unit struct {
	Callsign string `json:"callsign" yaml:"callsign"`
	Side     string `json:"side" yaml:"side"`
	Player   string `json:"player" yaml:"player"`
	At       int    `json:"at" yaml:"at"`
	Down     bool   `json:"down,omitempty" yaml:"-"`
}

type state struct {
	Name    string           `json:"name" yaml:"name"`
	Turn    int              `json:"turn" yaml:"-"`
	Turns   int              `json:"turns" yaml:"turns"`
	Sides   []string         `json:"sides" yaml:"sides"`
	Players []ruleset.Player `json:"players" yaml:"players"`
	Units   []unit           `json:"units" yaml:"units"`
	Over    bool             `json:"over,omitempty" yaml:"-"`
	Result  string           `json:"result,omitempty" yaml:"-"`
}

type event struct {
	Kind   string `json:"kind"`
	Unit   string `json:"unit"`
	Side   string `json:"side"`
	Target string `json:"target,omitempty"`
	Roll   int    `json:"roll,omitempty"`
	Text   string `json:"text"`
}

type game struct{ st state }

func (Ruleset) NewGame(scenario []byte, _ fs.FS, source string) (ruleset.Game, error) {
	var st state
	if err := yaml.Unmarshal(scenario, &st); err != nil {
		return nil, fmt.Errorf("%s: %v", source, err)
	}
	if len(st.Sides) != 2 || len(st.Units) == 0 || st.Turns < 1 {
		return nil, fmt.Errorf("%s: a toy game needs two sides, units and turns", source)
	}
	st.Turn = 1
	return &game{st: st}, nil
}

func (Ruleset) Load(b []byte) (ruleset.Game, error) {
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, err
	}
	return &game{st: st}, nil
}

func (g *game) Save() ([]byte, error) { return json.Marshal(g.st) }
func (g *game) Hash() string {
	b, _ := g.Save()
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
func (g *game) Name() string              { return g.st.Name }
func (g *game) Round() int                { return g.st.Turn }
func (g *game) RoundLimit() int           { return g.st.Turns }
func (g *game) Over() (bool, string)      { return g.st.Over, g.st.Result }
func (g *game) Players() []ruleset.Player { return g.st.Players }

func (g *game) side(player string) string {
	for _, p := range g.st.Players {
		if p.ID == player {
			return p.Side
		}
	}
	return ""
}

func (g *game) Units(player string) []string {
	var out []string
	for _, u := range g.st.Units {
		if u.Player == player && !u.Down {
			out = append(out, u.Callsign)
		}
	}
	return out
}

type order struct {
	move int
	fire bool
}

func (o order) String() string {
	f := "HOLD"
	if o.fire {
		f = "FIRE"
	}
	return fmt.Sprintf("MOVE %d %s", o.move, f)
}

// parse reads "MOVE n [FIRE|HOLD]"; problems carry the column of the word they concern.
func parse(text string) (order, []ruleset.Problem) {
	o := order{fire: true}
	var probs []ruleset.Problem
	words := strings.Fields(strings.ToUpper(text))
	col := func(i int) int {
		n := 0
		for k, f := range strings.Fields(text) {
			if k == i {
				return strings.Index(text, f) + 1
			}
			n++
		}
		return 0
	}
	if len(words) == 0 || words[0] != "MOVE" {
		return o, []ruleset.Problem{{Code: "toy-move", Message: "an order is MOVE <-2..2> and then FIRE or HOLD", Col: 1}}
	}
	if len(words) < 2 {
		return o, []ruleset.Problem{{Code: "toy-move", Message: "MOVE needs a number of cells, -2 to 2", Col: 1}}
	}
	n, err := strconv.Atoi(words[1])
	if err != nil || n < -2 || n > 2 {
		probs = append(probs, ruleset.Problem{Code: "toy-move", Message: "a move is -2 to 2 cells", Col: col(1)})
	}
	o.move = n
	if len(words) > 2 {
		switch words[2] {
		case "FIRE":
		case "HOLD":
			o.fire = false
		default:
			probs = append(probs, ruleset.Problem{Code: "toy-fire", Message: "after the move comes FIRE or HOLD", Col: col(2)})
		}
	}
	if len(words) > 3 {
		probs = append(probs, ruleset.Problem{Code: "toy-extra", Message: "nothing comes after FIRE or HOLD", Col: col(3)})
	}
	return o, probs
}

func (g *game) CheckOrder(player, unitName, text string) ruleset.OrderCheck {
	c := ruleset.OrderCheck{Preview: []string{}, Errors: []ruleset.Problem{}, Warnings: []ruleset.Problem{}}
	u := g.unit(unitName)
	if u == nil || u.Player != player || u.Down {
		c.Errors = append(c.Errors, ruleset.Problem{Code: "toy-unit", Message: "you have no unit of that name in play"})
		return c
	}
	o, probs := parse(text)
	c.Errors = append(c.Errors, probs...)
	if len(probs) == 0 {
		c.Canonical = o.String()
		c.Preview = []string{fmt.Sprintf("%s ends at cell %d", u.Callsign, u.At+o.move)}
	}
	return c
}

func (g *game) DefaultOrder(string) string { return "MOVE 0 FIRE" }

func (g *game) unit(cs string) *unit {
	for i := range g.st.Units {
		if g.st.Units[i].Callsign == cs {
			return &g.st.Units[i]
		}
	}
	return nil
}

// sees says whether side has one of its own units within sight range of u.
func (st *state) sees(side string, u unit) bool {
	if u.Side == side {
		return true
	}
	for _, o := range st.Units {
		if o.Side == side && !o.Down && abs(o.At-u.At) <= sightRange {
			return true
		}
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func (g *game) Resolve(orders map[string]string, d dice.Source) (ruleset.Game, *ruleset.Log, error) {
	next := &game{st: g.st}
	next.st.Units = slices.Clone(g.st.Units)
	st := &next.st
	var events []event
	var missed []string
	parsed := map[string]order{}
	for i := range st.Units {
		u := &st.Units[i]
		if u.Down {
			continue
		}
		text, ok := orders[u.Callsign]
		if !ok {
			missed = append(missed, u.Player)
			text = g.DefaultOrder(u.Callsign)
		}
		o, probs := parse(text)
		if len(probs) > 0 {
			o = order{fire: true}
		}
		parsed[u.Callsign] = o
		u.At += o.move
		events = append(events, event{Kind: "move", Unit: u.Callsign, Side: u.Side, Text: fmt.Sprintf("%s moved to cell %d", u.Callsign, u.At)})
	}
	var downs []string
	for _, u := range st.Units {
		if u.Down || !parsed[u.Callsign].fire {
			continue
		}
		for _, t := range st.Units {
			if t.Down || t.Side == u.Side || abs(t.At-u.At) > 1 {
				continue
			}
			roll := d.Roll(fmt.Sprintf("turn %d %s fires at %s", st.Turn, u.Callsign, t.Callsign), 6)
			events = append(events, event{Kind: "fire", Unit: u.Callsign, Side: u.Side, Target: t.Callsign, Roll: roll,
				Text: fmt.Sprintf("%s fired at %s: %d", u.Callsign, t.Callsign, roll)})
			if roll >= 4 {
				downs = append(downs, t.Callsign)
			}
			break
		}
	}
	for _, cs := range downs {
		if u := next.unit(cs); u != nil && !u.Down {
			u.Down = true
			events = append(events, event{Kind: "down", Unit: cs, Side: u.Side, Text: cs + " was knocked out"})
		}
	}
	st.Turn++
	alive := map[string]int{}
	for _, u := range st.Units {
		if !u.Down {
			alive[u.Side]++
		}
	}
	if st.Turn > st.Turns || alive[st.Sides[0]] == 0 || alive[st.Sides[1]] == 0 {
		st.Over = true
		switch {
		case alive[st.Sides[0]] > alive[st.Sides[1]]:
			st.Result = st.Sides[0] + " wins"
		case alive[st.Sides[1]] > alive[st.Sides[0]]:
			st.Result = st.Sides[1] + " wins"
		default:
			st.Result = "a draw"
		}
		events = append(events, event{Kind: "game-over", Text: "game over: " + st.Result})
	}
	log, err := ruleset.NewLog(g.st.Turn, events, d.Log(), missed)
	return next, log, err
}

// visible says whether side may read an event: its own, or one about an enemy it sees (a fire event at
// one of its own units reveals the firer, who is next to it and so in sight anyway).
func (st *state) visible(side string, e event, before *state) bool {
	switch e.Kind {
	case "game-over":
		return true
	case "move", "down":
		u := st.unitOf(e.Unit)
		return e.Side == side || st.sees(side, u) || before.sees(side, before.unitOf(e.Unit))
	case "fire":
		t := st.unitOf(e.Target)
		return e.Side == side || t.Side == side || st.sees(side, st.unitOf(e.Unit))
	}
	return false
}

func (st *state) unitOf(cs string) unit {
	for _, u := range st.Units {
		if u.Callsign == cs {
			return u
		}
	}
	return unit{}
}

func (g *game) Report(player string, log *ruleset.Log) ruleset.Report {
	st := &g.st
	side := g.side(player)
	r := ruleset.NewReport(side, st.Turn, st.Over, log)
	r.Result = st.Result
	for _, u := range st.Units {
		line := ruleset.Unit{Name: u.Callsign, Type: "toy", Summary: fmt.Sprintf("cell %d", u.At)}
		if u.Down {
			line.Summary += ", knocked out"
		}
		switch {
		case u.Side == side:
			r.Own = append(r.Own, line)
			if u.Player == player && !u.Down && !st.Over {
				r.OrderLines = append(r.OrderLines, u.Callsign+": "+g.DefaultOrder(u.Callsign))
			}
		case st.sees(side, u):
			r.Contacts = append(r.Contacts, line)
		}
	}
	if log != nil {
		var events []event
		json.Unmarshal(log.Events, &events)
		before := *st // the state the round started from is not kept; this view uses the state after it
		for _, e := range events {
			if st.visible(side, e, &before) {
				r.Event(e.Text)
			}
		}
		for _, d := range log.Dice {
			if strings.Contains(d.Label, " "+ownOf(st, side, d.Label)+" ") {
				r.Roll(d)
			}
		}
	}
	return r
}

// ownOf returns the callsign of side's unit that threw a roll (the word after the turn number), or "".
func ownOf(st *state, side, label string) string {
	f := strings.Fields(label)
	if len(f) > 2 && st.unitOf(f[2]).Side == side {
		return f[2]
	}
	return "\x00"
}

const skirmish = `
ruleset: toy
name: Toy skirmish
turns: 5
sides: [north, south]
players: [{id: alice, side: north}, {id: bob, side: south}]
units:
  - {callsign: N1, side: north, player: alice, at: 0}
  - {callsign: N2, side: north, player: alice, at: 1}
  - {callsign: S1, side: south, player: bob, at: 4}
  - {callsign: FAR, side: south, player: bob, at: 40}
`

// toySecrets: the enemy units a side sees neither before nor after the round, and their rolls.
func toySecrets(prev, g ruleset.Game, log *ruleset.Log, side string) []rulesettest.Secret {
	st := &g.(*game).st
	// A unit that fired at one of the side's own is known to it, in sight or not.
	fought := map[string]bool{}
	own := map[int]bool{}
	for _, u := range st.Units {
		if u.Side == side {
			own[u.At] = true
		}
	}
	if log != nil {
		var events []event
		json.Unmarshal(log.Events, &events)
		for _, e := range events {
			if e.Kind == "fire" && st.unitOf(e.Target).Side == side {
				fought[e.Unit] = true
			}
		}
	}
	var out []rulesettest.Secret
	for _, u := range st.Units {
		seenBefore := prev != nil && prev.(*game).st.sees(side, prev.(*game).st.unitOf(u.Callsign))
		if u.Side == side || st.sees(side, u) || seenBefore || fought[u.Callsign] {
			continue
		}
		out = append(out, rulesettest.Secret{Text: u.Callsign, What: "the unseen enemy unit"})
		if !own[u.At] {
			out = append(out, rulesettest.Secret{Text: fmt.Sprintf("cell %d", u.At), What: "the cell of unseen " + u.Callsign, Position: true})
		}
	}
	return out
}

// The kit passes on the toy: the one check a new ruleset must pass before it is done.
func TestToyPassesTheConformanceKit(t *testing.T) {
	set, err := registry.Shipped().With(Ruleset{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := set.Get("toy")
	if err != nil {
		t.Fatal(err)
	}
	rulesettest.Run(t, rs, map[string][]byte{"skirmish": []byte(skirmish)}, rulesettest.Oracle{
		Secrets:    toySecrets,
		EventKinds: []string{"move", "fire", "down", "game-over"},
		Rounds:     5,
		Plays: []rulesettest.Play{{Name: "close fight", Scenario: []byte(skirmish), Dice: rulesettest.FixedDice(true),
			Rounds: []map[string]string{{"N1": "MOVE 2 FIRE", "N2": "MOVE 2 FIRE", "S1": "MOVE -1 FIRE"}, nil}}},
		// FAR, which north never sees, starts at cell 40 or 30: north must be told the same.
		Twins: []rulesettest.Twins{{Name: "FAR at 40 or 30", Side: "north",
			A: rulesettest.Play{Scenario: []byte(skirmish), Rounds: make([]map[string]string, 3)},
			B: rulesettest.Play{Scenario: []byte(strings.Replace(skirmish, "at: 40", "at: 30", 1)), Rounds: make([]map[string]string, 3)}}},
	})
}

func FuzzToyCheckOrder(f *testing.F) { rulesettest.FuzzCheckOrder(f, Ruleset{}, []byte(skirmish)) }

// A game of the toy by mail through the adjudicator, with nothing of the toy known outside this folder:
// welcome mails, orders checked by the toy's CheckOrder, a turn resolved, and each side's report showing
// what it sees and not the far unit.
func TestToyByMail(t *testing.T) {
	set, err := registry.Shipped().With(Ruleset{})
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(filepath.Join(t.TempDir(), "toy.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	svc := adjudicator.New(db, tmpl, adjudicator.Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour}, zerolog.Nop(),
		adjudicator.WithClock(func() time.Time { return now }), adjudicator.WithRulesets(set))
	scn := skirmish + `
service:
  moderator: mod@players.test
  players:
    alice: {email: alice@players.test, secret: toy-alice-secret-1}
    bob: {email: bob@players.test, secret: toy-bob-secret-22}
`
	if _, err := svc.NewGame([]byte(scn), "toy.yaml", "t1"); err != nil {
		t.Fatal(err)
	}
	n := 0
	mail := func(from, text string) adjudicator.Outcome {
		n++
		o, err := svc.Submit(adjudicator.Envelope{From: from, MessageID: fmt.Sprintf("m%d@players.test", n), Text: text, Size: len(text), To: []string{"sortie@sortie.test"}})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	mails := func(addr string) []storage.Outgoing {
		if _, err := svc.DrawPictures(); err != nil { // what the sender does before each pass
			t.Fatal(err)
		}
		items, err := db.Pending(now.Add(10000*time.Hour), 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []storage.Outgoing
		for _, it := range items {
			if it.To == addr {
				out = append(out, it)
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return false })
		return out
	}
	if o := mail("alice@players.test", "GAME t1 TURN 1 SECRET toy-alice-secret-1\nN1: MOVE 7\nN2: MOVE 1 HOLD\nEND"); o != adjudicator.Accepted {
		t.Fatalf("alice's mail: %v", o)
	}
	receipt := mails("alice@players.test")
	last := receipt[len(receipt)-1].Body
	if !strings.Contains(last, "a move is -2 to 2 cells") || !strings.Contains(last, "N2 ends at cell 2") {
		t.Fatalf("the receipt must carry the toy's own check of each order:\n%s", last)
	}
	mail("alice@players.test", "GAME t1 TURN 1 SECRET toy-alice-secret-1\nN1: MOVE 1\nEND")
	mail("bob@players.test", "GAME t1 TURN 1 SECRET toy-bob-secret-22\nS1: MOVE -1 HOLD\nFAR: MOVE 2\nEND")
	if _, err := svc.ResolveGame("t1", false); err != nil {
		t.Fatal(err)
	}
	var report string
	for _, m := range mails("alice@players.test") {
		if strings.Contains(m.Subject, "turn 1") && strings.Contains(m.Subject, "report") {
			report = m.Body
		}
	}
	if report == "" {
		t.Fatalf("alice got no turn 1 report: %v", mails("alice@players.test"))
	}
	if !strings.Contains(report, "S1") || strings.Contains(report, "FAR") {
		t.Errorf("alice's report must show S1 (in sight) and never FAR (40 cells off):\n%s", report)
	}
}
