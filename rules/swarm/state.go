package swarm

import (
	"encoding/json"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// Status is where a squadron stands in the game.
type Status string

const (
	Flying    Status = "flying"
	Destroyed Status = "destroyed" // every pip filled: no longer combat effective, removed from play
	Withdrawn Status = "withdrawn" // its player dropped out
)

// Squadron is one playing piece: a squadron of aircraft and its line on the control sheet.
type Squadron struct {
	Callsign string   `json:"callsign"`       // the control number on the model's base
	Name     string   `json:"name,omitempty"` // the squadron's name, e.g. "No. 74 Squadron"
	Type     string   `json:"type"`           // a key of data/types.yaml
	Side     string   `json:"side"`
	Player   string   `json:"player"`
	Pilots   string   `json:"pilots"` // green, regular, veteran, ace
	Pos      Position `json:"pos"`
	Tack     Tack     `json:"tack"`
	// Filled counts the pips filled on the sheet, left to right; the firepower follows from it.
	Filled int    `json:"filled"`
	Status Status `json:"status"`
	// Queue holds the turns of a plotted course still to fly (cloud cover), as canonical one-turn orders,
	// the next one first.
	Queue []string `json:"queue,omitempty"`
	// Contact says an enemy squadron was within visibility of this squadron when the last turn ended.
	Contact bool `json:"contact"`
	// Bombed says a bomber has dropped its load.
	Bombed   bool `json:"bombed,omitempty"`
	DownTurn int  `json:"down_turn,omitempty"`
	// Track is the last turn's hexes: where it started and every hex it entered.
	Track []hexmap.Hex `json:"track,omitempty"`
}

// InPlay reports whether the squadron still flies and fights.
func (s *Squadron) InPlay() bool { return s.Status == Flying }

// Target is a ground target bombers (and squadrons at Low) may attack.
type Target struct {
	Name     string     `json:"name"`
	Side     string     `json:"side"` // the side that defends it
	Hex      hexmap.Hex `json:"hex"`
	Strength int        `json:"strength"` // hits that destroy it
	Damage   int        `json:"damage"`
}

// Destroyed reports whether the target has taken its strength in hits.
func (t *Target) Destroyed() bool { return t.Damage >= t.Strength }

// Player is a person playing one side.
type Player = ruleset.Player

// Condition is one victory condition: a side scores Points for each listed squadron that meets it, or
// once for a destroyed target.
type Condition struct {
	Side      string   `json:"side"`
	Kind      string   `json:"kind"` // destroy, survive, bomb
	Squadrons []string `json:"squadrons,omitempty"`
	Target    string   `json:"target,omitempty"`
	Points    int      `json:"points"`
}

// Outcome is the end of a game.
type Outcome = ruleset.Outcome

// State is a whole Swarm game between rounds. It serialises to JSON stably (slices in a fixed order,
// maps with sorted keys), so its SHA-256 is a fingerprint players can compare.
type State struct {
	Ruleset   string `json:"ruleset"`
	Scenario  string `json:"scenario"`
	Turn      int    `json:"turn"` // the turn to be plotted next, from 1
	TurnLimit int    `json:"turn_limit"`
	// Visibility is how far squadrons see, in hexes; 0 is unlimited (seed 004, "Cloud Cover").
	Visibility int `json:"visibility"`
	// Evasion is the scenario's own evasive-save chart, replacing the house chart for this game.
	Evasion   []int       `json:"evasion,omitempty"`
	Sides     []string    `json:"sides"`
	Players   []Player    `json:"players"`
	Squadrons []Squadron  `json:"squadrons"`
	Targets   []Target    `json:"targets,omitempty"`
	Victory   []Condition `json:"victory,omitempty"`
	// Sight maps a side to the enemy squadrons it had in sight when the last turn ended.
	Sight   map[string]map[string]bool `json:"sight"`
	Over    bool                       `json:"over"`
	Outcome *Outcome                   `json:"outcome,omitempty"`
}

// Squadron returns the squadron with a callsign.
func (s *State) Squadron(callsign string) *Squadron {
	return ruleset.Find(s.Squadrons, callsign, func(q *Squadron) string { return q.Callsign })
}

// Target returns the ground target with a name.
func (s *State) Target(name string) *Target {
	return ruleset.Named(s.Targets, name, func(t *Target) string { return t.Name })
}

// SideOf returns a player's side.
func (s *State) SideOf(player string) string { return ruleset.SideOf(s.Players, player) }

// JSON is the state's canonical serialisation.
func (s *State) JSON() ([]byte, error) { return json.Marshal(s) }

// Hash is the SHA-256 of the canonical JSON, in hex.
func (s *State) Hash() string { return ruleset.HashJSON(s) }

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Evasion = append([]int(nil), s.Evasion...)
	c.Sides = append([]string(nil), s.Sides...)
	c.Players = append([]Player(nil), s.Players...)
	c.Targets = append([]Target(nil), s.Targets...)
	c.Victory = make([]Condition, len(s.Victory))
	for i, v := range s.Victory {
		v.Squadrons = append([]string(nil), v.Squadrons...)
		c.Victory[i] = v
	}
	c.Squadrons = make([]Squadron, len(s.Squadrons))
	for i, q := range s.Squadrons {
		q.Queue = append([]string(nil), q.Queue...)
		q.Track = append([]hexmap.Hex(nil), q.Track...)
		c.Squadrons[i] = q
	}
	c.Sight = ruleset.CloneSight(s.Sight)
	c.Outcome = s.Outcome.Clone()
	return &c
}
