package tnl

import (
	"encoding/json"
	"sort"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/tnl/notation"
)

// Status is where an aircraft stands in the game.
type Status string

const (
	Flying    Status = "flying"
	Destroyed Status = "destroyed"
	Withdrawn Status = "withdrawn" // its player dropped out
)

// Skills a veteran, ace or multi-ace pilot chooses (seed 003, "Skill List"), in the seed's order.
const (
	SkillAim    = "aim"    // 1) +1 to hit
	SkillAgile  = "agile"  // 2) -1 to the aircraft's fly-straight rating, never below 1
	SkillLucky  = "lucky"  // 3) +1 to the pilot's saving rolls
	SkillDeadly = "deadly" // 4) -1 to the saving rolls against the pilot's hits
	SkillJinx   = "jinx"   // 5) once a turn, the first enemy die that hits the pilot's aircraft is rolled again
)

// SkillNames lists the skills in the seed's order.
var SkillNames = []string{SkillAim, SkillAgile, SkillLucky, SkillDeadly, SkillJinx}

// Training levels (seed 003, "Training & Skill") and the skills each brings.
var Trainings = map[string]int{"very-green": 0, "poor": 0, "trained": 0, "veteran": 1, "ace": 2, "multi-ace": 3}

// TrainingNames lists the training levels, worst first.
var TrainingNames = []string{"very-green", "poor", "trained", "veteran", "ace", "multi-ace"}

// Aircraft is one model on the table.
type Aircraft struct {
	Callsign string     `json:"callsign"`
	Type     string     `json:"type"`
	Side     string     `json:"side"`
	Player   string     `json:"player"`
	Unit     string     `json:"unit"`
	Hex      hexmap.Hex `json:"hex"`
	Facing   hexmap.Dir `json:"facing"` // a hexside: 0, 2, ... 10 (000°, 060° ...)
	Level    Level      `json:"level"`
	// Speed is the hexes flown in the last movement phase, without the dive or climb rating.
	Speed    int      `json:"speed"`
	Inverted bool     `json:"inverted,omitempty"`
	Hits     int      `json:"hits,omitempty"` // hits suffered (not saved)
	Status   Status   `json:"status"`
	Training string   `json:"training"`
	Skills   []string `json:"skills,omitempty"`
	Gunsight string   `json:"gunsight,omitempty"` // "", gyro (+1 to hit) or radar (+2)
	// Load is what the aircraft carries for ships: 1000lb, 500lb or torpedo; Loaded says it still does.
	Load   string `json:"load,omitempty"`
	Loaded bool   `json:"loaded,omitempty"`
	// DiveRun says the aircraft has dived from Medium and kept diving: it may dive-bomb.
	DiveRun  bool         `json:"dive_run,omitempty"`
	DownTurn int          `json:"down_turn,omitempty"`
	Track    []hexmap.Hex `json:"track,omitempty"` // last turn: the start and every hex entered
}

// InPlay reports whether the aircraft flies and fights.
func (a *Aircraft) InPlay() bool { return a.Status == Flying }

// fate is how an aircraft out of play left it, as the game's end reason says it (ruleset.Fate).
func (a *Aircraft) fate() string {
	if a.Status == Destroyed {
		return "shot down"
	}
	return string(a.Status)
}

// Has reports whether the pilot has a skill.
func (a *Aircraft) Has(skill string) bool {
	for _, s := range a.Skills {
		if s == skill {
			return true
		}
	}
	return false
}

// Unit is a group of aircraft sharing initiative (seed 003, "Starting a game"), ordered by one line.
type Unit struct {
	Name    string   `json:"name"`
	Side    string   `json:"side"`
	Player  string   `json:"player"`
	Members []string `json:"members"` // callsigns, in the scenario's order
	// Fire is the unit's standing fire order, offered again in the next order block.
	Fire string `json:"fire"`
}

// AA is a site's or ship's anti-aircraft guns by class (seed 003, "Anti Aircraft Guns").
type AA struct {
	Heavy     int `json:"heavy,omitempty" yaml:"heavy"`
	Medium    int `json:"medium,omitempty" yaml:"medium"`
	Light     int `json:"light,omitempty" yaml:"light"`
	VeryLight int `json:"very_light,omitempty" yaml:"very_light"`
}

// Empty reports whether there are no guns.
func (a AA) Empty() bool { return a.Heavy+a.Medium+a.Light+a.VeryLight == 0 }

// Ground is a ship or an AA site: a ship moves, can be attacked and sunk; both may fire AA.
type Ground struct {
	Callsign string     `json:"callsign"`
	Name     string     `json:"name,omitempty"`
	Kind     string     `json:"kind"` // ship or site
	Side     string     `json:"side"`
	Hex      hexmap.Hex `json:"hex"`
	Facing   hexmap.Dir `json:"facing"`
	Speed    int        `json:"speed,omitempty"`  // hexes a turn, ships only
	Points   int        `json:"points,omitempty"` // damage points that sink a ship
	Damage   int        `json:"damage,omitempty"`
	AA       AA         `json:"aa"`
	Radar    bool       `json:"radar,omitempty"`
	// HeavyFired says the heavy guns have fired this turn (they fire once a turn).
	HeavyFired bool `json:"heavy_fired,omitempty"`
}

// Sunk reports whether a ship has taken its damage points.
func (g *Ground) Sunk() bool { return g.Kind == "ship" && g.Points > 0 && g.Damage >= g.Points }

// Condition is one victory condition: Points for each listed aircraft destroyed or surviving, or for a
// ship sunk.
type Condition struct {
	Side     string   `json:"side"`
	Kind     string   `json:"kind"` // destroy, survive, sink
	Aircraft []string `json:"aircraft,omitempty"`
	Ship     string   `json:"ship,omitempty"`
	Points   int      `json:"points"`
}

// Player is a person playing one side.
type Player = ruleset.Player

// Outcome is the end of a game.
type Outcome = ruleset.Outcome

// State is a whole game between turns, serialised stably.
type State struct {
	Ruleset    string `json:"ruleset"`
	Scenario   string `json:"scenario"`
	Turn       int    `json:"turn"`
	TurnLimit  int    `json:"turn_limit"`
	Visibility int    `json:"visibility"` // hexes; 0 is the whole table
	// LoadedModifiers is the optional rule: loaded aircraft lose speed (seed 003, "Loaded Modifiers").
	LoadedModifiers bool        `json:"loaded_modifiers,omitempty"`
	Sides           []string    `json:"sides"`
	Players         []Player    `json:"players"`
	Aircraft        []Aircraft  `json:"aircraft"` // sorted by callsign
	Units           []Unit      `json:"units"`    // sorted by name
	Ground          []Ground    `json:"ground,omitempty"`
	Victory         []Condition `json:"victory,omitempty"`
	// Sight maps a side to the enemy aircraft it saw when the last turn ended.
	Sight   map[string]map[string]bool `json:"sight"`
	Over    bool                       `json:"over"`
	Outcome *Outcome                   `json:"outcome,omitempty"`
}

// Plane returns the aircraft with a callsign, or nil.
func (s *State) Plane(cs string) *Aircraft {
	return ruleset.Find(s.Aircraft, cs, func(a *Aircraft) string { return a.Callsign })
}

// UnitNamed returns the unit with a name, or nil.
func (s *State) UnitNamed(name string) *Unit {
	return ruleset.Find(s.Units, name, func(u *Unit) string { return u.Name })
}

// GroundNamed returns the ship or site with a callsign, or nil.
func (s *State) GroundNamed(cs string) *Ground {
	return ruleset.Named(s.Ground, cs, func(g *Ground) string { return g.Callsign })
}

// Flying lists a unit's aircraft in play.
func (s *State) Flying(u *Unit) []*Aircraft { return flying(u, s.Plane) }

// flying lists the aircraft in play of a unit's members, each found by plane.
func flying(u *Unit, plane func(cs string) *Aircraft) []*Aircraft {
	var out []*Aircraft
	for _, cs := range u.Members {
		if a := plane(cs); a != nil && a.InPlay() {
			out = append(out, a)
		}
	}
	return out
}

// SideOf returns a player's side.
func (s *State) SideOf(player string) string { return ruleset.SideOf(s.Players, player) }

// JSON is the canonical serialisation.
func (s *State) JSON() ([]byte, error) { return json.Marshal(s) }

// Hash is the SHA-256 of the canonical JSON.
func (s *State) Hash() string { return ruleset.HashJSON(s) }

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Sides = append([]string(nil), s.Sides...)
	c.Players = append([]Player(nil), s.Players...)
	c.Aircraft = make([]Aircraft, len(s.Aircraft))
	for i, a := range s.Aircraft {
		a.Skills = append([]string(nil), a.Skills...)
		a.Track = append([]hexmap.Hex(nil), a.Track...)
		c.Aircraft[i] = a
	}
	c.Units = make([]Unit, len(s.Units))
	for i, u := range s.Units {
		u.Members = append([]string(nil), u.Members...)
		c.Units[i] = u
	}
	c.Ground = append([]Ground(nil), s.Ground...)
	c.Victory = make([]Condition, len(s.Victory))
	for i, v := range s.Victory {
		v.Aircraft = append([]string(nil), v.Aircraft...)
		c.Victory[i] = v
	}
	c.Sight = ruleset.CloneSight(s.Sight)
	c.Outcome = s.Outcome.Clone()
	return &c
}

func (s *State) sortUnits() {
	sort.Slice(s.Units, func(i, j int) bool { return s.Units[i].Name < s.Units[j].Name })
}

// defaultFire is the fire order a unit stands on until told otherwise.
var defaultFire = notation.Fire{Mode: notation.FireAny}.String()
