package afd

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sortie/rules/ruleset"
	"sortie/rules/yamlpath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"sortie/parser"
	"sortie/rules/afd/tables"
	hexmap "sortie/rules/hex"
)

// Scenario is a game's starting point as a moderator writes it (docs/scenarios.md).
type Scenario struct {
	Ruleset     string          `yaml:"ruleset"`
	Name        string          `yaml:"name"`
	Description string          `yaml:"description"`
	Options     Options         `yaml:"options"`
	Map         *Edges          `yaml:"map"`
	Clouds      []scenarioCloud `yaml:"clouds"`
	Sides       []string        `yaml:"sides"`
	Players     []Player        `yaml:"players"`
	Aircraft    []ScenarioPlane `yaml:"aircraft"`
	Turns       int             `yaml:"turns"`
	Victory     []scenarioVictory
	// Service holds what the mail service needs (players' addresses, the moderator, deadlines); the
	// rules do not read it (docs/scenarios.md).
	Service yaml.Node `yaml:"service"`
	// Dir is the folder the scenario was read from, for relative file names (tables).
	Dir string `yaml:"-"`

	lines yamlpath.Lines
}

type scenarioCloud struct {
	Center [2]int `yaml:"center"`
	Radius int    `yaml:"radius"`
	Base   int    `yaml:"base"`
	Top    int    `yaml:"top"`
}

type scenarioVictory struct {
	Side     string   `yaml:"side"`
	Kind     string   `yaml:"kind"`
	Aircraft []string `yaml:"aircraft"`
	Edge     string   `yaml:"edge"`
	Target   *[2]int  `yaml:"target"`
	Points   int      `yaml:"points"`
}

// ScenarioPlane is one aircraft's starting state.
type ScenarioPlane struct {
	Callsign string  `yaml:"callsign"`
	Type     string  `yaml:"type"`
	Side     string  `yaml:"side"`
	Player   string  `yaml:"player"`
	Hex      [2]int  `yaml:"hex"`
	Facing   int     `yaml:"facing"`
	Alt      int     `yaml:"alt"`
	Speed    float64 `yaml:"speed"`
	Bank     string  `yaml:"bank"`
	Loaded   bool    `yaml:"loaded"`
	Pilot    string  `yaml:"pilot"`
}

// ScenarioError lists every problem found in a scenario, each with its line where the file gives one.
type ScenarioError struct {
	File     string
	Problems []ScenarioProblem
}

// ScenarioProblem is one problem in a scenario file.
type ScenarioProblem struct {
	Line int
	Msg  string
}

func (e *ScenarioError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem", e.File, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		if p.Line > 0 {
			fmt.Fprintf(&b, "line %d: ", p.Line)
		}
		b.WriteString(p.Msg)
	}
	return b.String()
}

var callsignRE = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_-]{0,23}$`)

// Pilot qualities. Seed 000 keeps gunnery free of any modifier but deflection, so pilot quality acts
// only on spotting (docs/tables.md).
var pilotQualities = map[string]int{"green": -1, "regular": 0, "veteran": 1, "ace": 1}

// LoadScenario reads a scenario file.
func LoadScenario(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseScenario(data, path)
	if err != nil {
		return nil, err
	}
	s.Dir = filepath.Dir(path)
	return s, nil
}

// ParseScenario reads a scenario and checks it against the cards: every problem is listed, with its
// line, and nothing is half-loaded.
func ParseScenario(data []byte, name string) (*Scenario, error) {
	fail := &ScenarioError{File: name}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		fail.Problems = append(fail.Problems, yamlProblem(err)...)
		return nil, fail
	}
	var s Scenario
	dec = yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		fail.Problems = append(fail.Problems, yamlProblem(err)...)
		return nil, fail
	}
	s.lines = yamlpath.Index(&root)
	return &s, nil
}

func yamlProblem(err error) []ScenarioProblem {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		var out []ScenarioProblem
		for _, m := range te.Errors {
			out = append(out, ScenarioProblem{Line: lineOf(m), Msg: m})
		}
		return out
	}
	return []ScenarioProblem{{Line: lineOf(err.Error()), Msg: err.Error()}}
}

var lineRE = regexp.MustCompile(`line (\d+)`)

func lineOf(msg string) int {
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func (s *Scenario) line(path string) int { return s.lines.At(path) }

// NewGame checks the scenario against the aircraft cards and builds turn 1's state. Every problem is
// listed; a scenario with any problem gives no state.
func NewGame(s *Scenario, cards Cards) (*State, error) {
	fail := &ScenarioError{File: s.Name}
	add := func(path, format string, args ...any) {
		fail.Problems = append(fail.Problems, ScenarioProblem{Line: s.line(path), Msg: fmt.Sprintf(format, args...)})
	}
	if s.Ruleset != "afd" {
		add("ruleset", "ruleset is %q; this scenario format is for afd", s.Ruleset)
	}
	if strings.TrimSpace(s.Name) == "" {
		add("name", "the scenario needs a name")
	}
	if s.Turns < 1 || s.Turns > 999 {
		add("turns", "turns (the turn limit) must be 1 to 999, got %d", s.Turns)
	}
	seats := make([]ruleset.Player, len(s.Players))
	for i, p := range s.Players {
		seats[i] = ruleset.Player(p)
	}
	sides, players := ruleset.CheckSeats(s.Sides, seats, add)
	if m := s.Map; m != nil && (m.MinQ >= m.MaxQ || m.MinRow >= m.MaxRow) {
		add("map", "map edges must have min_q < max_q and min_row < max_row")
	}
	st := &State{
		Ruleset: "afd", Scenario: s.Name, Turn: 1, TurnLimit: s.Turns, Options: s.Options, Map: s.Map,
		Sides: append([]string(nil), s.Sides...), Players: append([]Player(nil), s.Players...),
		Sight: map[string]map[string]Sighting{},
	}
	for i, c := range s.Clouds {
		if c.Base >= c.Top || c.Base < 0 || c.Radius < 0 {
			add(fmt.Sprintf("clouds[%d]", i), "a cloud needs 0 <= base < top and a radius of 0 or more")
		}
		st.Clouds = append(st.Clouds, Cloud{Center: hexmap.Hex{Q: c.Center[0], R: c.Center[1]}, Radius: c.Radius, Base: c.Base, Top: c.Top})
	}
	seen := map[string]bool{}
	for i, a := range s.Aircraft {
		path := fmt.Sprintf("aircraft[%d]", i)
		cs := strings.ToUpper(a.Callsign)
		if !callsignRE.MatchString(cs) {
			add(path+".callsign", "callsign %q must be 1-24 letters, digits, - or _, starting with a letter or digit", a.Callsign)
		} else if seen[cs] {
			add(path+".callsign", "callsign %q is given twice", a.Callsign)
		}
		seen[cs] = true
		card, ok := cards.Get(a.Type)
		if !ok {
			add(path+".type", "%s: unknown aircraft type %q (sortie aircraft list)", cs, a.Type)
		}
		if !sides[a.Side] {
			add(path+".side", "%s: side %q is not one of the sides", cs, a.Side)
		}
		if ps, ok := players[a.Player]; !ok {
			add(path+".player", "%s: player %q is not one of the players", cs, a.Player)
		} else if ps != a.Side {
			add(path+".player", "%s: player %q plays %s, not %s", cs, a.Player, ps, a.Side)
		}
		if a.Facing < 0 || a.Facing > 11 {
			add(path+".facing", "%s: facing is 0 to 11 (30° steps clockwise from north), got %d", cs, a.Facing)
		}
		if a.Alt < 0 || a.Alt%100 != 0 || a.Alt > 60000 {
			add(path+".alt", "%s: altitude must be 0 to 60,000 ft in steps of 100, got %d", cs, a.Alt)
		}
		tenths := Tenths(a.Speed*10 + 0.5)
		if a.Speed < 0 || a.Speed > 30 || math.Abs(a.Speed*10-float64(tenths)) > 1e-6 {
			add(path+".speed", "%s: speed is 0 to 30 to one decimal place, got %v", cs, a.Speed)
		}
		bank := parser.BankN
		if a.Bank != "" {
			b, ok := parser.ParseBank(strings.ToUpper(a.Bank))
			if !ok {
				add(path+".bank", "%s: bank must be N, RB, LB, I, IR or IL, got %q", cs, a.Bank)
			}
			bank = b
		}
		pilot := a.Pilot
		if pilot == "" {
			pilot = "regular"
		}
		if _, ok := pilotQualities[pilot]; !ok {
			add(path+".pilot", "%s: pilot is green, regular, veteran or ace, got %q", cs, a.Pilot)
		}
		h := hexmap.Hex{Q: a.Hex[0], R: a.Hex[1]}
		if edge := s.Map.Outside(h); edge != "" {
			add(path+".hex", "%s starts off the map, beyond the %s edge", cs, edge)
		}
		if !ok {
			continue
		}
		if a.Loaded && card.Loaded == nil {
			add(path+".loaded", "%s: the %s carries no bombs or torpedo", cs, card.Name)
		}
		if tenths.Round() > 0 {
			if b, err := card.BandAt(a.Alt); err == nil && tenths.Round() > b.Dive.Max {
				add(path+".speed", "%s: speed %.1f is past the %s's maximum dive speed %d at %d ft", cs, a.Speed, card.Name, b.Dive.Max, a.Alt)
			}
		}
		p := Plane{
			Callsign: cs, Type: card.Key, Side: a.Side, Player: a.Player, Pilot: pilot, Status: Flying,
			Flight: Flight{Hex: h, Facing: hexmap.Dir(a.Facing), Speed: tenths, Alt: a.Alt, Bank: bank, Loaded: a.Loaded, Straight: Plenty},
			Damage: make([]int, len(card.Systems)), Ammo: map[string]int{}, Crew: max(card.Crew, 1),
		}
		for _, g := range card.Guns {
			p.Ammo[g.ID] = g.Ammo
		}
		st.Planes = append(st.Planes, p)
	}
	if len(s.Aircraft) == 0 {
		add("aircraft", "the scenario has no aircraft")
	}
	for i, v := range s.Victory {
		path := fmt.Sprintf("victory[%d]", i)
		if !sides[v.Side] {
			add(path+".side", "victory condition for unknown side %q", v.Side)
		}
		c := Condition{Side: v.Side, Kind: v.Kind, Edge: v.Edge, Points: v.Points}
		if c.Points == 0 {
			c.Points = 1
		}
		for _, a := range v.Aircraft {
			cs := strings.ToUpper(a)
			if !seen[cs] {
				add(path+".aircraft", "victory condition names %q, which is not an aircraft of the scenario", a)
			}
			c.Aircraft = append(c.Aircraft, cs)
		}
		switch v.Kind {
		case "destroy", "survive":
		case "exit":
			if v.Edge != "north" && v.Edge != "south" && v.Edge != "east" && v.Edge != "west" {
				add(path+".edge", "an exit condition needs edge: north, south, east or west")
			}
			if s.Map == nil {
				add(path, "an exit condition needs map edges")
			}
		case "bomb":
			if v.Target == nil {
				add(path+".target", "a bomb condition needs target: [q, r]")
			} else {
				c.Target = hexmap.Hex{Q: v.Target[0], R: v.Target[1]}
			}
		default:
			add(path+".kind", "victory kind is destroy, exit, survive or bomb, got %q", v.Kind)
		}
		if len(c.Aircraft) == 0 {
			add(path+".aircraft", "a victory condition names the aircraft it counts")
		}
		st.Victory = append(st.Victory, c)
	}
	if len(fail.Problems) > 0 {
		sort.SliceStable(fail.Problems, func(i, j int) bool { return fail.Problems[i].Line < fail.Problems[j].Line })
		return nil, fail
	}
	sort.Slice(st.Planes, func(i, j int) bool { return st.Planes[i].Callsign < st.Planes[j].Callsign })
	for _, side := range st.Sides {
		st.Sight[side] = map[string]Sighting{}
	}
	return st, nil
}

// Env returns the environment a game of this scenario resolves in: base, with the tables replaced by
// the scenario's own tables file if it names one (relative to the scenario's folder).
func (s *Scenario) Env(base *Env) (*Env, error) {
	if s.Options.Tables == "" {
		return base, nil
	}
	data, err := ruleset.ReadInclude(s.Dir, s.Options.Tables)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: tables: %w", s.Name, err)
	}
	t, err := tables.Parse(map[string][]byte{s.Options.Tables: data})
	if err != nil {
		return nil, fmt.Errorf("scenario %s: tables: %w", s.Name, err)
	}
	return &Env{Cards: base.Cards, Tables: t}, nil
}
