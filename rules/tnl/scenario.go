package tnl

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/yamlpath"
)

// Scenario is a game's starting point as a moderator writes it (docs/tnl.md, "Scenarios").
type Scenario struct {
	Ruleset     string `yaml:"ruleset"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Turns       int    `yaml:"turns"`
	// Visibility is how far aircraft, ships and guns see, in hexes; 0 or absent is the whole table.
	Visibility int `yaml:"visibility"`
	Options    struct {
		LoadedModifiers bool `yaml:"loaded_modifiers"`
	} `yaml:"options"`
	Sides    []string            `yaml:"sides"`
	Players  []Player            `yaml:"players"`
	Aircraft []ScenarioAircraft  `yaml:"aircraft"`
	Ships    []ScenarioGround    `yaml:"ships"`
	Sites    []ScenarioGround    `yaml:"sites"`
	Victory  []ScenarioCondition `yaml:"victory"`

	lines yamlpath.Lines
}

// ScenarioAircraft is one aircraft's starting state.
type ScenarioAircraft struct {
	Callsign string   `yaml:"callsign"`
	Type     string   `yaml:"type"`
	Side     string   `yaml:"side"`
	Player   string   `yaml:"player"`
	Unit     string   `yaml:"unit"` // the unit it flies with; its own callsign when absent
	Hex      [2]int   `yaml:"hex"`
	Facing   int      `yaml:"facing"` // degrees: 0, 60, 120, 180, 240, 300
	Level    string   `yaml:"level"`  // VL, L, M, H
	Speed    int      `yaml:"speed"`  // hexes in the last phase; the sheet's phase 2 speed when absent
	Inverted bool     `yaml:"inverted"`
	Hits     int      `yaml:"hits"`
	Training string   `yaml:"training"`
	Skills   []string `yaml:"skills"`
	Gunsight string   `yaml:"gunsight"`
	Load     string   `yaml:"load"` // 1000lb, 500lb, torpedo or none; the type's own load when absent
}

// ScenarioGround is a ship or an AA site.
type ScenarioGround struct {
	Callsign string `yaml:"callsign"`
	Name     string `yaml:"name"`
	Side     string `yaml:"side"`
	Hex      [2]int `yaml:"hex"`
	Facing   int    `yaml:"facing"`
	Speed    int    `yaml:"speed"`
	Points   int    `yaml:"points"`
	AA       AA     `yaml:"aa"`
	Radar    bool   `yaml:"radar"`
}

// ScenarioCondition is a victory condition.
type ScenarioCondition struct {
	Side     string   `yaml:"side"`
	Kind     string   `yaml:"kind"`
	Aircraft []string `yaml:"aircraft"`
	Ship     string   `yaml:"ship"`
	Points   int      `yaml:"points"`
}

// ParseScenario reads a scenario file (strict YAML).
func ParseScenario(data []byte, name string) (*Scenario, error) {
	var s Scenario
	if err := ruleset.DecodeScenario(data, name, &s, &s.lines); err != nil {
		return nil, err
	}
	return &s, nil
}

func facingOf(deg int) (hexmap.Dir, bool) {
	if deg < 0 || deg > 300 || deg%60 != 0 {
		return 0, false
	}
	return hexmap.Dir(deg / 30), true
}

// NewGame checks a scenario against the stat sheets and builds turn 1. Every problem is listed with its
// line.
func NewGame(s *Scenario, d *Data) (*State, error) {
	fail := &ruleset.ScenarioError{File: s.Name}
	add := fail.Adder(s.lines)
	ruleset.CheckHead(add, s.Ruleset, "tnl", s.Name, s.Turns)
	if s.Visibility < 0 || s.Visibility > 999 {
		add("visibility", "visibility is 0 (the whole table) to 999 hexes, got %d", s.Visibility)
	}
	roster := ruleset.NewRoster(s.Sides, s.Players, add)
	st := &State{Ruleset: "tnl", Scenario: s.Name, Turn: 1, TurnLimit: s.Turns, Visibility: s.Visibility,
		LoadedModifiers: s.Options.LoadedModifiers, Sides: append([]string(nil), s.Sides...),
		Players: append([]Player(nil), s.Players...), Sight: map[string]map[string]bool{}}
	units := map[string]*Unit{}
	var unitOrder []string
	unitPath := map[string]string{}
	for i, sa := range s.Aircraft {
		path := fmt.Sprintf("aircraft[%d]", i)
		cs := roster.Callsign(path, sa.Callsign)
		roster.Seat(path, cs, sa.Side, sa.Player)
		sh, ok := d.Sheet(sa.Type)
		if !ok {
			add(path+".type", "%s: unknown type %q (known: %s)", cs, sa.Type, strings.Join(d.Keys(), ", "))
		}
		facing, fok := facingOf(sa.Facing)
		if !fok {
			add(path+".facing", "%s: facing is a hexside, 0, 60, 120, 180, 240 or 300 degrees, got %d", cs, sa.Facing)
		}
		lvl, lok := ParseLevel(sa.Level)
		if !lok {
			add(path+".level", "%s: level is VL, L, M or H (very low, low, medium, high), got %q", cs, sa.Level)
		}
		training := sa.Training
		if training == "" {
			training = "trained"
		}
		nSkills, tok := Trainings[training]
		if !tok {
			add(path+".training", "%s: training is %s, got %q", cs, strings.Join(TrainingNames, ", "), sa.Training)
		}
		var skills []string
		seenSkill := map[string]bool{}
		for _, k := range sa.Skills {
			k = strings.ToLower(strings.TrimSpace(k))
			valid := false
			for _, n := range SkillNames {
				valid = valid || n == k
			}
			if !valid || seenSkill[k] {
				add(path+".skills", "%s: skill %q is unknown or given twice (the skills are %s)", cs, k, strings.Join(SkillNames, ", "))
			}
			seenSkill[k] = true
			skills = append(skills, k)
		}
		if tok && len(skills) != nSkills {
			add(path+".skills", "%s: a %s pilot chooses %d skill%s (seed 003, Training & Skill), got %d", cs, training, nSkills, plural(nSkills), len(skills))
		}
		switch sa.Gunsight {
		case "", "gyro", "radar":
		default:
			add(path+".gunsight", "%s: gunsight is gyro or radar (or absent), got %q", cs, sa.Gunsight)
		}
		unit := strings.ToUpper(strings.TrimSpace(sa.Unit))
		if unit == "" {
			unit = cs
		}
		if !ruleset.CallsignRE.MatchString(unit) {
			add(path+".unit", "%s: unit name %q must be 1-24 letters, digits, - or _", cs, sa.Unit)
		}
		u := units[unit]
		if u == nil {
			u = &Unit{Name: unit, Side: sa.Side, Player: sa.Player, Fire: defaultFire}
			units[unit] = u
			unitOrder = append(unitOrder, unit)
			unitPath[unit] = path
		} else if u.Side != sa.Side || u.Player != sa.Player {
			add(path+".unit", "%s: unit %s is %s's (%s); an aircraft of another player or side cannot fly in it", cs, unit, u.Player, u.Side)
		}
		u.Members = append(u.Members, cs)
		a := Aircraft{Callsign: cs, Side: sa.Side, Player: sa.Player, Unit: unit,
			Hex: hexmap.Hex{Q: sa.Hex[0], R: sa.Hex[1]}, Facing: facing, Level: lvl, Inverted: sa.Inverted,
			Hits: sa.Hits, Status: Flying, Training: training, Skills: skills, Gunsight: sa.Gunsight}
		if !ok {
			continue
		}
		a.Type = sh.Key
		if lok && lvl > sh.MaxLevel {
			add(path+".level", "%s: the %s flies up to %s (its ceiling), not %s", cs, sh.Name, sh.MaxLevel, lvl)
		}
		a.Speed = sa.Speed
		if a.Speed == 0 {
			a.Speed = sh.SP[1]
		}
		if a.Speed < 1 || a.Speed > max(sh.SP[0], sh.SP[1]) {
			add(path+".speed", "%s: speed is the hexes flown in the last phase, 1 to %d for the %s (%d/%d), got %d", cs, max(sh.SP[0], sh.SP[1]), sh.Name, sh.SP[0], sh.SP[1], sa.Speed)
		}
		if sa.Hits < 0 || sa.Hits >= sh.Hits {
			add(path+".hits", "%s: hits already taken are 0 to %d (the %s is destroyed by %d), got %d", cs, sh.Hits-1, sh.Name, sh.Hits, sa.Hits)
		}
		switch load := strings.ToLower(sa.Load); load {
		case "":
			a.Load = defaultLoad(sh)
		case "none":
		case "1000lb", "500lb":
			if sh.BombLb == 0 {
				add(path+".load", "%s: the %s carries no bombs", cs, sh.Name)
			}
			a.Load = load
		case "torpedo":
			if !sh.Torpedo {
				add(path+".load", "%s: the %s carries no torpedo", cs, sh.Name)
			}
			a.Load = load
		default:
			add(path+".load", "%s: load is 1000lb, 500lb, torpedo or none, got %q", cs, sa.Load)
		}
		a.Loaded = a.Load != ""
		st.Aircraft = append(st.Aircraft, a)
	}
	if len(s.Aircraft) == 0 {
		add("aircraft", "the scenario has no aircraft")
	}
	for _, name := range unitOrder {
		if roster.Seen[name] && !slices.Contains(units[name].Members, name) {
			add(unitPath[name]+".unit", "unit name %s is the callsign of an aircraft of another unit: choose another", name)
		}
		st.Units = append(st.Units, *units[name])
	}
	groundSeen := map[string]bool{}
	addGround := func(list []ScenarioGround, key, kind string) {
		for i, g := range list {
			path := fmt.Sprintf("%s[%d]", key, i)
			cs := strings.ToUpper(g.Callsign)
			if !ruleset.CallsignRE.MatchString(cs) || groundSeen[cs] || roster.Seen[cs] || units[cs] != nil {
				add(path+".callsign", "callsign %q must be 1-24 letters, digits, - or _, and not used by anything else", g.Callsign)
			}
			groundSeen[cs] = true
			if !roster.Sides[g.Side] {
				add(path+".side", "%s: side %q is not one of the sides", cs, g.Side)
			}
			facing, fok := facingOf(g.Facing)
			if !fok {
				add(path+".facing", "%s: facing is 0, 60, 120, 180, 240 or 300 degrees, got %d", cs, g.Facing)
			}
			if g.AA.Heavy < 0 || g.AA.Medium < 0 || g.AA.Light < 0 || g.AA.VeryLight < 0 || g.AA.Heavy+g.AA.Medium+g.AA.Light+g.AA.VeryLight > 400 {
				add(path+".aa", "%s: guns are counted 0 to 400 in all", cs)
			}
			gr := Ground{Callsign: cs, Name: g.Name, Kind: kind, Side: g.Side, Hex: hexmap.Hex{Q: g.Hex[0], R: g.Hex[1]}, Facing: facing, AA: g.AA, Radar: g.Radar}
			if kind == "ship" {
				gr.Speed, gr.Points = g.Speed, g.Points
				if g.Speed < 0 || g.Speed > 6 {
					add(path+".speed", "%s: a ship moves 0 to 6 hexes a turn, got %d", cs, g.Speed)
				}
				if g.Points < 1 || g.Points > 999 {
					add(path+".points", "%s: damage points are 1 to 999 (seed 003 tries 100 for a fleet carrier, 30 for a destroyer), got %d", cs, g.Points)
				}
			} else if g.Speed != 0 || g.Points != 0 {
				add(path, "%s: a site neither moves nor has damage points", cs)
			}
			st.Ground = append(st.Ground, gr)
		}
	}
	addGround(s.Ships, "ships", "ship")
	addGround(s.Sites, "sites", "site")
	for i, v := range s.Victory {
		path := fmt.Sprintf("victory[%d]", i)
		c := Condition{Side: v.Side, Kind: v.Kind, Ship: strings.ToUpper(v.Ship)}
		c.Aircraft, c.Points = roster.Condition(path, v.Side, v.Points, "aircraft", "an aircraft", v.Aircraft)
		switch v.Kind {
		case "destroy", "survive":
			if len(c.Aircraft) == 0 {
				add(path+".aircraft", "a %s condition names the aircraft it counts", v.Kind)
			}
		case "sink":
			if g := st.GroundNamed(c.Ship); g == nil || g.Kind != "ship" {
				add(path+".ship", "a sink condition names one of the ships, got %q", v.Ship)
			}
		default:
			add(path+".kind", "victory kind is destroy, survive or sink, got %q", v.Kind)
		}
		st.Victory = append(st.Victory, c)
	}
	if err := fail.Err(); err != nil {
		return nil, err
	}
	sort.Slice(st.Aircraft, func(i, j int) bool { return st.Aircraft[i].Callsign < st.Aircraft[j].Callsign })
	st.sortUnits()
	for _, side := range st.Sides {
		st.Sight[side] = map[string]bool{}
	}
	updateSight(st, nil)
	return st, nil
}

// defaultLoad is what a type carries against ships when the scenario does not say: its torpedo, or its
// bombs as 1000 lb or 500 lb (1,000 lb of bombs or more counts as 1000 lb). A fighter carries bombs only
// when the scenario gives it some.
func defaultLoad(sh *Sheet) string {
	switch {
	case sh.Fighter():
		return ""
	case sh.Torpedo:
		return "torpedo"
	case sh.BombLb >= 1000:
		return "1000lb"
	case sh.BombLb > 0:
		return "500lb"
	}
	return ""
}

func plural(n int) string { return ruleset.PluralS(n) }
