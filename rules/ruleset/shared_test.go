package ruleset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"sortie/parser"
	"sortie/rules/yamlpath"
)

func TestOutcomeWinnerAndText(t *testing.T) {
	sides := []string{"RAF", "Luftwaffe"}
	if r := EndReason(5, 8, sides, map[string]bool{"RAF": true, "Luftwaffe": true}, nil); r != "" {
		t.Errorf("a game with two sides in the air before its limit goes on: %q", r)
	}
	o := NewOutcome(sides, EndReason(9, 8, sides, map[string]bool{"RAF": true, "Luftwaffe": true}, nil))
	o.Score["Luftwaffe"] = 2
	o.Decide(sides)
	if o.Winner != "Luftwaffe" || o.Text(sides) != "Luftwaffe wins (RAF 0, Luftwaffe 2): the turn limit (8) was reached" {
		t.Errorf("%+v: %s", o, o.Text(sides))
	}
	o.Score["RAF"] = 2
	o.Decide(sides)
	if o.Winner != "draw" || !strings.HasPrefix(o.Text(sides), "a draw (RAF 2, Luftwaffe 2)") {
		t.Errorf("a shared best score is a draw: %+v", o)
	}
	c := o.Clone()
	c.Score["RAF"] = 9
	if o.Score["RAF"] != 2 || (*Outcome)(nil).Clone() != nil || (*Outcome)(nil).Text(sides) != "" {
		t.Error("Clone must copy the scores")
	}
	if over, text := OverText(true, o, sides); !over || text == "" {
		t.Error("an ended game has its outcome's text")
	}
	if over, text := OverText(false, nil, sides); over || text != "" {
		t.Error("a game going on has no text")
	}
}

type scen struct {
	Ruleset string   `yaml:"ruleset"`
	Name    string   `yaml:"name"`
	Turns   int      `yaml:"turns"`
	Sides   []string `yaml:"sides"`
	Players []Player `yaml:"players"`
	Units   []struct {
		Callsign string `yaml:"callsign"`
		Side     string `yaml:"side"`
		Player   string `yaml:"player"`
	} `yaml:"units"`
	lines yamlpath.Lines
}

// Every problem of a scenario comes back at once, on its line, in line order.
func TestScenarioChecksGiveLines(t *testing.T) {
	var bad scen
	err := DecodeScenario([]byte("ruleset: toy\nname: x\ncolour: red\n"), "x.yaml", &bad, &bad.lines)
	var se *ScenarioError
	if !errors.As(err, &se) || len(se.Problems) != 1 || se.Problems[0].Line != 3 || !strings.Contains(se.Error(), "x.yaml: 1 problem\n  line 3: ") {
		t.Fatalf("an unknown key is an error with its line: %v", err)
	}
	src := `ruleset: other
name: ""
turns: 0
sides: [A, B]
players:
  - {id: ann, side: A}
  - {id: bob, side: B}
units:
  - {callsign: red1, side: A, player: ann}
  - {callsign: RED1, side: B, player: ann}
  - {callsign: "bad call", side: C, player: zed}
`
	var s scen
	if err := DecodeScenario([]byte(src), "toy.yaml", &s, &s.lines); err != nil {
		t.Fatal(err)
	}
	fail := &ScenarioError{File: "toy.yaml"}
	add := fail.Adder(s.lines)
	r := NewRoster(s.Sides, s.Players, add)
	for i, u := range s.Units {
		path := "units[" + string(rune('0'+i)) + "]"
		r.Seat(path, r.Callsign(path, u.Callsign), u.Side, u.Player)
	}
	names, points := r.Condition("units[0]", "A", 0, "units", "a unit", []string{"red1", "blue9"})
	CheckHead(add, s.Ruleset, "toy", s.Name, s.Turns)
	err = fail.Err()
	if err == nil {
		t.Fatal("no problems found")
	}
	if strings.Join(names, ",") != "RED1,BLUE9" || points != 1 {
		t.Errorf("condition: %v %d", names, points)
	}
	want := []struct {
		line int
		text string
	}{
		{1, `ruleset is "other"; this scenario format is for toy`},
		{2, "the scenario needs a name"},
		{3, "turns (the turn limit) must be 1 to 999, got 0"},
		{9, `victory condition names "blue9", which is not a unit of the scenario`},
		{10, `callsign "RED1" is given twice`},
		{10, `RED1: player "ann" plays A, not B`},
		{11, `callsign "bad call" must be 1-24 letters`},
		{11, `BAD CALL: side "C" is not one of the sides`},
		{11, `BAD CALL: player "zed" is not one of the players`},
	}
	if len(fail.Problems) != len(want) {
		t.Fatalf("%d problems, want %d:\n%v", len(fail.Problems), len(want), err)
	}
	for i, w := range want {
		if p := fail.Problems[i]; p.Line != w.line || !strings.HasPrefix(p.Msg, w.text) {
			t.Errorf("problem %d: line %d %q, want line %d %q", i+1, p.Line, p.Msg, w.line, w.text)
		}
	}
	if (&ScenarioError{}).Err() != nil {
		t.Error("no problems is no error")
	}
}

func TestFindAndSideOf(t *testing.T) {
	type unit struct{ CS string }
	units := []unit{{"A1"}, {"B2"}, {"C3"}}
	key := func(u *unit) string { return u.CS }
	if u := Find(units, "B2", key); u != &units[1] {
		t.Errorf("B2: %v", u)
	}
	if Find(units, "B1", key) != nil || Find(units, "Z", key) != nil || Find[unit](nil, "A1", key) != nil {
		t.Error("a callsign not there is nil")
	}
	// Named reads a list in any order: the first with the callsign.
	shuffled := []unit{{"C3"}, {"A1"}, {"C3"}}
	if u := Named(shuffled, "C3", key); u != &shuffled[0] {
		t.Errorf("C3: %v", u)
	}
	if u := Named(shuffled, "A1", key); u != &shuffled[1] {
		t.Errorf("A1: %v", u)
	}
	if Named(shuffled, "B2", key) != nil || Named[unit](nil, "A1", key) != nil {
		t.Error("Named: a callsign not there is nil")
	}
	ps := []Player{{ID: "ann", Side: "A"}}
	if SideOf(ps, "ann") != "A" || SideOf(ps, "zed") != "" {
		t.Error("SideOf")
	}
	sight := map[string]map[string]bool{"A": {"X": true}, "B": nil}
	c := CloneSight(sight)
	c["A"]["X"] = false
	if !sight["A"]["X"] || c["B"] == nil {
		t.Errorf("CloneSight must copy deeply and give every side a map: %v", c)
	}
}

func TestBundleAndSavedState(t *testing.T) {
	b := Bundle{FS: fstest.MapFS{
		"s/b.yaml": {Data: []byte("two")}, "s/a.yaml": {Data: []byte("one")}, "s/notes.txt": {Data: []byte("-")},
	}, Dir: "s"}
	if got := strings.Join(b.Names(), ","); got != "a,b" {
		t.Errorf("names %s", got)
	}
	if data, err := b.File("b"); err != nil || string(data) != "two" {
		t.Errorf("file: %q %v", data, err)
	}
	if data, err := fs.ReadFile(b.Folder(), "a.yaml"); err != nil || string(data) != "one" {
		t.Errorf("folder: %q %v", data, err)
	}
	if _, err := b.File("c"); err == nil {
		t.Error("a missing scenario is an error")
	}
	var st struct {
		Ruleset string `json:"ruleset"`
	}
	if err := DecodeState([]byte(`{"ruleset":"toy"}`), "toy", &st, &st.Ruleset); err != nil {
		t.Error(err)
	}
	if err := DecodeState([]byte(`{"ruleset":"afd"}`), "toy", &st, &st.Ruleset); err == nil || err.Error() != `toy: the saved game is for ruleset "afd"` {
		t.Errorf("another ruleset's game: %v", err)
	}
	if err := DecodeState([]byte(`{`), "toy", &st, &st.Ruleset); err == nil || !strings.HasPrefix(err.Error(), "toy: reading a saved game: ") {
		t.Errorf("broken JSON: %v", err)
	}
}

func TestReportAndOrderCheckHelpers(t *testing.T) {
	c := NewOrderCheck()
	c.Add(true, "x", "TX is not a manoeuvre", 3, "TR")
	c.Add(false, "y", "read TR as TR", 5, "TR")
	if c.OK() || c.Errors[0].Message != "TX is not a manoeuvre (did you mean TR?)" || c.Warnings[0].Message != "read TR as TR" {
		t.Errorf("%+v", c)
	}
	c = NewOrderCheck()
	if !c.Diagnosed([]parser.Diagnostic{{Code: "w", Severity: parser.SeverityWarning, Message: "note"}}) || len(c.Warnings) != 1 {
		t.Errorf("a warning leaves the order to check: %+v", c)
	}
	if c.Diagnosed([]parser.Diagnostic{{Code: "e", Severity: parser.SeverityError, Message: "bad", Col: 2}}) || c.Errors[0].Col != 2 {
		t.Errorf("an error stops the check: %+v", c)
	}
	if r := NewReport("A", 2, false, nil); r.Round != 0 || r.Own == nil || r.Events == nil || r.OrderLines == nil {
		t.Errorf("opening report: %+v", r)
	}
	log, _ := NewLog(3, []map[string]string{{"text": "hello"}}, nil, nil)
	r := NewReport("A", 4, false, log)
	events, ok := Events[map[string]string](log)
	if !ok || r.Round != 3 || events[0]["text"] != "hello" {
		t.Errorf("events %v %v round %d", events, ok, r.Round)
	}
	if _, ok := Events[int](log); ok {
		t.Error("events of another shape cannot be read")
	}
	r.Event("RED1 flew")
	r.Problem(4, "no such gun")
	if strings.Join(r.Events, "|") != "RED1 flew|    column 4: no such gun" {
		t.Errorf("%q", r.Events)
	}
}

// A calculator's answer files the parser's errors and warnings apart, each with its column and
// suggestion, and says whether the order read without an error; a calculator that shows no warnings
// passes none to be filled.
func TestCalcDiagnosed(t *testing.T) {
	ds := []parser.Diagnostic{
		{Code: "w", Message: "a warning", Col: 2, Severity: parser.SeverityWarning},
		{Code: "e", Message: "an error", Col: 5, Severity: parser.SeverityError, Suggestion: "TR"},
	}
	var errs, warns []CalcProblem
	if CalcDiagnosed(&errs, &warns, ds) {
		t.Error("an order with an error read as one without")
	}
	if len(errs) != 1 || errs[0] != (CalcProblem{Code: "e", Message: "an error", Column: 5, Suggestion: "TR"}) {
		t.Errorf("errors %+v", errs)
	}
	if len(warns) != 1 || warns[0] != (CalcProblem{Code: "w", Message: "a warning", Column: 2}) {
		t.Errorf("warnings %+v", warns)
	}
	errs = nil
	if !CalcDiagnosed(&errs, nil, ds[:1]) || len(errs) != 0 {
		t.Errorf("a warning alone: %+v", errs)
	}
}

// A calculator's JSON answer is indented by two spaces and ends with a newline.
func TestWriteJSON(t *testing.T) {
	var b strings.Builder
	if err := WriteJSON(&b, map[string]any{"legal": true, "errors": []CalcProblem{}}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"errors\": [],\n  \"legal\": true\n}\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// A calculator's table follows a blank line, its columns two spaces apart; a table of no rows is not
// written at all.
func TestWriteTable(t *testing.T) {
	var b strings.Builder
	rows := [][2]string{{"1", "(0,1)"}, {"12", "(10,-3)"}}
	WriteTable(&b, "  MP\tHEX\t", len(rows), func(tw io.Writer, i int) { fmt.Fprintf(tw, "  %s\t%s\t\n", rows[i][0], rows[i][1]) })
	if want := "\n  MP  HEX      \n  1   (0,1)    \n  12  (10,-3)  \n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	WriteTable(&b, "  MP\t", 0, nil)
	if b.Len() != 0 {
		t.Errorf("no rows: %q", b.String())
	}
}
