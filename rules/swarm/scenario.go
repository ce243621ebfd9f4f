package swarm

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sortie/parser"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/swarm/notation"
	"sortie/rules/yamlpath"
)

// Scenario is a Swarm game's starting point as a moderator writes it (docs/swarm.md, "Scenarios").
type Scenario struct {
	Ruleset     string `yaml:"ruleset"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Visibility is the distance squadrons see, in hexes; 0 or absent is unlimited (seed 004, "Cloud
	// Cover").
	Visibility int                 `yaml:"visibility"`
	Turns      int                 `yaml:"turns"`
	Sides      []string            `yaml:"sides"`
	Players    []Player            `yaml:"players"`
	Squadrons  []ScenarioSquadron  `yaml:"squadrons"`
	Targets    []ScenarioTarget    `yaml:"targets"`
	Victory    []ScenarioCondition `yaml:"victory"`
	// Evasion replaces the house evasive-save chart: the need at range 1, 2, ...
	Evasion []int `yaml:"evasion"`

	lines yamlpath.Lines
}

// ScenarioSquadron is one squadron's starting state.
type ScenarioSquadron struct {
	Callsign string `yaml:"callsign"`
	Name     string `yaml:"name"`
	Type     string `yaml:"type"`
	Side     string `yaml:"side"`
	Player   string `yaml:"player"`
	Hex      [2]int `yaml:"hex"`
	// Facing is the hex corner the base points to: 30, 90, 150, 210, 270 or 330 degrees (or the odd
	// direction number 1, 3, 5, 7, 9, 11).
	Facing int    `yaml:"facing"`
	Tack   string `yaml:"tack"` // e.g. "2 S M"
	Pilots string `yaml:"pilots"`
	// Filled starts the squadron with pips already filled; Firepower ("2D6") is the shortcut for the
	// first pip at that firepower.
	Filled    int    `yaml:"filled"`
	Firepower string `yaml:"firepower"`
}

// ScenarioTarget is a ground target.
type ScenarioTarget struct {
	Name     string `yaml:"name"`
	Side     string `yaml:"side"`
	Hex      [2]int `yaml:"hex"`
	Strength int    `yaml:"strength"`
}

// ScenarioCondition is one victory condition.
type ScenarioCondition struct {
	Side      string   `yaml:"side"`
	Kind      string   `yaml:"kind"`
	Squadrons []string `yaml:"squadrons"`
	Target    string   `yaml:"target"`
	Points    int      `yaml:"points"`
}

// ScenarioError lists every problem found in a scenario, each with its line where the file gives one.
type ScenarioError = ruleset.ScenarioError

// ScenarioProblem is one problem in a scenario file.
type ScenarioProblem = ruleset.ScenarioProblem

// ParseScenario reads a scenario file (YAML, unknown keys refused).
func ParseScenario(data []byte, name string) (*Scenario, error) {
	var s Scenario
	if err := ruleset.DecodeScenario(data, name, &s, &s.lines); err != nil {
		return nil, err
	}
	return &s, nil
}

// facingOf reads a scenario facing: a hex-corner bearing (30, 90 ... 330) or an odd direction number.
func facingOf(n int) (hexmap.Dir, bool) {
	switch {
	case n >= 1 && n <= 11 && n%2 == 1:
		return hexmap.Dir(n), true
	case n >= 30 && n <= 330 && n%60 == 30:
		return hexmap.Dir(n / 30), true
	}
	return 0, false
}

// NewGame checks a scenario against the squadron types and builds turn 1's state. Every problem is
// listed with its line; a scenario with any problem gives no state.
func NewGame(s *Scenario, d *Data) (*State, error) {
	fail := &ScenarioError{File: s.Name}
	add := fail.Adder(s.lines)
	ruleset.CheckHead(add, s.Ruleset, "swarm", s.Name, s.Turns)
	if s.Visibility < 0 || s.Visibility > 99 {
		add("visibility", "visibility is 0 (unlimited) to 99 hexes, got %d", s.Visibility)
	}
	if s.Evasion != nil {
		if err := checkChart(s.Evasion); err != nil {
			add("evasion", "evasion: %v", err)
		}
	}
	roster := ruleset.NewRoster(s.Sides, s.Players, add)
	sides := roster.Sides
	st := &State{Ruleset: "swarm", Scenario: s.Name, Turn: 1, TurnLimit: s.Turns, Visibility: s.Visibility,
		Evasion: append([]int(nil), s.Evasion...), Sides: append([]string(nil), s.Sides...),
		Players: append([]Player(nil), s.Players...), Sight: map[string]map[string]bool{}}
	for i, q := range s.Squadrons {
		path := fmt.Sprintf("squadrons[%d]", i)
		cs := roster.Callsign(path, q.Callsign)
		t, ok := d.Type(q.Type)
		if !ok {
			add(path+".type", "%s: unknown squadron type %q (known: %s)", cs, q.Type, strings.Join(d.TypeKeys(), ", "))
		}
		roster.Seat(path, cs, q.Side, q.Player)
		facing, fok := facingOf(q.Facing)
		if !fok {
			add(path+".facing", "%s: facing is a hex corner, 30, 90, 150, 210, 270 or 330 (or 1, 3, 5, 7, 9, 11), got %d", cs, q.Facing)
		}
		pilots := q.Pilots
		if pilots == "" {
			pilots = "regular"
		}
		if _, ok := d.House.Pilots.Mods[pilots]; !ok {
			add(path+".pilots", "%s: pilots are %s, got %q", cs, strings.Join(PilotQualities, ", "), q.Pilots)
		}
		pt, ds := notation.ParseSwarmTack(q.Tack)
		if parser.HasErrors(ds) || q.Tack == "" {
			msg := "give the tack as speed, manoeuvre and band, e.g. tack: \"2 S M\""
			for _, d := range ds {
				if d.Severity == parser.SeverityError {
					msg = d.Error()
					break
				}
			}
			add(path+".tack", "%s: tack %q: %s", cs, q.Tack, msg)
		}
		tack := TackOf(pt)
		if !ok {
			continue
		}
		if tack.Valid() && tack.Speed > t.MaxSpeed() {
			add(path+".tack", "%s: the %s (%d mph) has speeds 1 to %d on its board: speed %d is crossed off", cs, t.Name, t.MPH, t.MaxSpeed(), tack.Speed)
		}
		filled := q.Filled
		if q.Firepower != "" {
			n := 0
			if fp := strings.ToUpper(strings.TrimSpace(q.Firepower)); len(fp) == 3 && strings.HasSuffix(fp, "D6") {
				n, _ = strconv.Atoi(fp[:1])
			}
			switch at := t.FirstPipAt(n); {
			case n < 1 || n > 3:
				add(path+".firepower", "%s: firepower is 3D6, 2D6 or 1D6, got %q", cs, q.Firepower)
			case q.Filled != 0:
				add(path+".firepower", "%s: give filled or firepower, not both", cs)
			case at < 0:
				add(path+".firepower", "%s: the %s's sheet has no pip at %dD6", cs, t.Name, n)
			default:
				filled = at
			}
		}
		if filled < 0 || filled >= t.Pips() {
			add(path+".filled", "%s: filled is the pips already filled, 0 to %d (the %s has %d), got %d", cs, t.Pips()-1, t.Name, t.Pips(), filled)
		}
		st.Squadrons = append(st.Squadrons, Squadron{Callsign: cs, Name: q.Name, Type: t.Key, Side: q.Side, Player: q.Player,
			Pilots: pilots, Pos: Position{Hex: hexmap.Hex{Q: q.Hex[0], R: q.Hex[1]}, Facing: facing}, Tack: tack,
			Filled: filled, Status: Flying})
	}
	if len(s.Squadrons) == 0 {
		add("squadrons", "the scenario has no squadrons")
	}
	targets := map[string]bool{}
	for i, tg := range s.Targets {
		path := fmt.Sprintf("targets[%d]", i)
		name := strings.ToUpper(tg.Name)
		if !ruleset.CallsignRE.MatchString(name) || targets[name] {
			add(path+".name", "target name %q must be 1-24 letters, digits, - or _, and not given twice", tg.Name)
		}
		targets[name] = true
		if !sides[tg.Side] {
			add(path+".side", "target %s: side %q is not one of the sides", name, tg.Side)
		}
		if tg.Strength < 1 || tg.Strength > 99 {
			add(path+".strength", "target %s: strength (the hits that destroy it) is 1 to 99, got %d", name, tg.Strength)
		}
		st.Targets = append(st.Targets, Target{Name: name, Side: tg.Side, Hex: hexmap.Hex{Q: tg.Hex[0], R: tg.Hex[1]}, Strength: tg.Strength})
	}
	for i, v := range s.Victory {
		path := fmt.Sprintf("victory[%d]", i)
		c := Condition{Side: v.Side, Kind: v.Kind, Target: strings.ToUpper(v.Target)}
		c.Squadrons, c.Points = roster.Condition(path, v.Side, v.Points, "squadrons", "a squadron", v.Squadrons)
		switch v.Kind {
		case "destroy", "survive":
			if len(c.Squadrons) == 0 {
				add(path+".squadrons", "a %s condition names the squadrons it counts", v.Kind)
			}
		case "bomb":
			if !targets[c.Target] {
				add(path+".target", "a bomb condition names one of the targets, got %q", v.Target)
			}
		default:
			add(path+".kind", "victory kind is destroy, survive or bomb, got %q", v.Kind)
		}
		st.Victory = append(st.Victory, c)
	}
	if err := fail.Err(); err != nil {
		return nil, err
	}
	sort.Slice(st.Squadrons, func(i, j int) bool { return st.Squadrons[i].Callsign < st.Squadrons[j].Callsign })
	for _, side := range st.Sides {
		st.Sight[side] = map[string]bool{}
	}
	updateSight(st, nil)
	return st, nil
}
