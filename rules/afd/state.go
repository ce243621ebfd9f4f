package afd

import (
	"encoding/json"

	"sortie/rules/afd/aircraft"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// Status is where a plane stands in the game.
type Status string

const (
	Flying     Status = "flying"
	ShotDown   Status = "shot-down"  // shot down this turn or earlier; its crew may bail out
	Destroyed  Status = "destroyed"  // down, crew out or lost: off the board
	Crashed    Status = "crashed"    // flew into the ground
	Disengaged Status = "disengaged" // left the map through an edge (docs/rulings.md: map edges)
)

// Plane is one aircraft in a game.
type Plane struct {
	Callsign string `json:"callsign"`
	Type     string `json:"type"`
	Side     string `json:"side"`
	Player   string `json:"player"`
	Pilot    string `json:"pilot"` // green, regular, veteran, ace
	Flight   Flight `json:"flight"`
	Status   Status `json:"status"`
	// Damage holds the boxes filled in each of the card's damage systems, in the card's order.
	Damage []int `json:"damage"`
	// Ammo holds the bursts left in each gun position, by the position's id.
	Ammo Ammo `json:"ammo"`
	Crew int  `json:"crew"` // crew still aboard
	// Saved counts crew who bailed out safely.
	Saved int `json:"saved,omitempty"`
	// DownTurn is the turn the plane was shot down, 0 if it was not.
	DownTurn int    `json:"down_turn,omitempty"`
	ExitEdge string `json:"exit_edge,omitempty"`
	// Bombed records the hex and turn of its bomb release, for victory conditions.
	Bombed *BombRelease `json:"bombed,omitempty"`
	// Rockets is the rocket salvos it has left; Attacked the turn of its last attack on the ground
	// (bombs, rockets or strafing), when its pilot fires no fixed guns at planes (seed 002).
	Rockets  int `json:"rockets,omitempty"`
	Attacked int `json:"attacked,omitempty"`
	// GroundAttack: a purpose-built ground-attack aircraft, as the scenario says (seed 002).
	GroundAttack bool `json:"ground_attack,omitempty"`
	// Ground is set while the plane is on the ground (an impulse game: ground_planes.go).
	Ground *OnGround `json:"on_ground,omitempty"`
	// Moves holds the plane's last turn: its steps and where it was at each of the twelve sub-steps.
	Track []hexmap.Hex `json:"track,omitempty"`
	// Imp is the plane's part of an impulse game (impulse_game.go); nil in the plain game.
	Imp *PlaneImpulse `json:"imp,omitempty"`
}

// BombRelease is where and how a plane released its bombs.
type BombRelease struct {
	Turn int        `json:"turn"`
	Hex  hexmap.Hex `json:"hex"`
	Alt  int        `json:"alt"`
	Dive bool       `json:"dive"` // with dive-bomb accuracy (rule 21)
	// Target is the primary target the order named (AT), "" if none.
	Target string `json:"target,omitempty"`
}

// InPlay reports whether the plane still flies and fights.
func (p *Plane) InPlay() bool { return p.Status == Flying }

// fate is how a plane out of play left it, as the game's end reason says it (ruleset.Fate).
func (p *Plane) fate() string {
	switch {
	case p.Status == Disengaged && p.ExitEdge == "withdrawn":
		return "withdrawn"
	case p.Status == Disengaged:
		return "left the map"
	case p.Status == Crashed:
		return "crashed"
	case p.Status == Destroyed && p.Ground != nil:
		return "destroyed on the ground"
	case p.Status == Destroyed && p.Saved > 0:
		return "bailed out"
	}
	return "shot down"
}

// Sighting is what one side knows of one enemy plane.
type Sighting struct {
	Spotted    bool `json:"spotted"`
	Identified bool `json:"identified"`
	// Turn is the last turn the plane was in sight.
	Turn int `json:"turn,omitempty"`
}

// State is a whole Air Force game between turns. It serialises to JSON losslessly and stably: the same
// state always gives the same bytes (slices in a fixed order, maps with sorted keys), so its SHA-256 is a
// fingerprint players can compare.
type State struct {
	Ruleset   string      `json:"ruleset"`
	Scenario  string      `json:"scenario"`
	Turn      int         `json:"turn"` // the turn to be plotted next, from 1
	TurnLimit int         `json:"turn_limit"`
	Options   Options     `json:"options"`
	Map       *Edges      `json:"map,omitempty"`
	Clouds    []Cloud     `json:"clouds,omitempty"`
	Sides     []string    `json:"sides"`
	Players   []Player    `json:"players"`
	Planes    []Plane     `json:"planes"`
	Victory   []Condition `json:"victory,omitempty"`
	// Sight maps a side to what it knows of each enemy plane, by callsign.
	Sight map[string]map[string]Sighting `json:"sight"`
	Over  bool                           `json:"over"`
	// TablesData is the moderator's replacement tables file, kept with the game so it resolves the same
	// everywhere (docs/tables.md).
	TablesData string `json:"tables_data,omitempty"`
	// Outcome is set when the game is over: the winning side, or "draw", and the score.
	Outcome *Outcome `json:"outcome,omitempty"`
	// Ground holds the trucks, tanks and ships the scenario placed; Roads the road hexes (ground.go).
	Ground []GroundUnit `json:"ground,omitempty"`
	// Torpedoes are the torpedoes running (torpedo.go).
	Torpedoes []Torpedo    `json:"torpedoes,omitempty"`
	Roads     []hexmap.Hex `json:"roads,omitempty"`
	// Clock is where an impulse game stands within its turn; nil in the plain game.
	Clock *ImpulseClock `json:"clock,omitempty"`
}

// Options are the scenario's rule options.
type Options struct {
	FogOfWar        bool   `json:"fog_of_war" yaml:"fog_of_war"`
	SimpleCriticals bool   `json:"simple_criticals" yaml:"simple_criticals"`
	Tables          string `json:"tables,omitempty" yaml:"tables"` // a moderator's replacement tables file
	// Impulse plays the Delta-T impulse game (seed 001): twelve impulses a turn, one manoeuvre at a time.
	Impulse bool `json:"impulse,omitempty" yaml:"impulse"`
}

// Player is a person playing one side.
type Player = ruleset.Player

// Edges bound the map: columns q from MinQ to MaxQ and rows from MinRow to MaxRow, where a hex's row is
// r + (q - q mod 2) / 2 (so rows run straight across the flat-topped map).
type Edges struct {
	MinQ   int `json:"min_q" yaml:"min_q"`
	MaxQ   int `json:"max_q" yaml:"max_q"`
	MinRow int `json:"min_row" yaml:"min_row"`
	MaxRow int `json:"max_row" yaml:"max_row"`
}

// Row is the map row of a hex (offset coordinates for flat-topped hexes).
func Row(h hexmap.Hex) int { return hexmap.Row(h) }

// Outside names the edge a hex lies beyond ("north", "south", "east", "west"), or "".
func (e *Edges) Outside(h hexmap.Hex) string {
	if e == nil {
		return ""
	}
	row := Row(h)
	switch {
	case row < e.MinRow:
		return "north"
	case row > e.MaxRow:
		return "south"
	case h.Q > e.MaxQ:
		return "east"
	case h.Q < e.MinQ:
		return "west"
	}
	return ""
}

// Cloud is a bank of cloud over a round patch of hexes, between a base and a top altitude.
type Cloud struct {
	Center hexmap.Hex `json:"center"`
	Radius int        `json:"radius"`
	Base   int        `json:"base"`
	Top    int        `json:"top"`
}

// Contains reports whether a point at hex h and altitude alt is inside the cloud.
func (c Cloud) Contains(h hexmap.Hex, alt int) bool {
	return alt >= c.Base && alt <= c.Top && hexmap.Distance(c.Center, h) <= c.Radius
}

// Condition is one victory condition: a side scores Points for each plane that meets it.
type Condition struct {
	Side     string     `json:"side" yaml:"side"`
	Kind     string     `json:"kind" yaml:"kind"` // destroy, exit, survive, bomb
	Aircraft []string   `json:"aircraft,omitempty" yaml:"aircraft"`
	Edge     string     `json:"edge,omitempty" yaml:"edge"`
	Target   hexmap.Hex `json:"target,omitempty" yaml:"-"`
	// Ground names the ground units a knock-out condition counts: each heavily damaged or destroyed scores.
	Ground []string `json:"ground,omitempty" yaml:"-"`
	Points int      `json:"points" yaml:"points"`
}

// Outcome is the end of a game.
type Outcome = ruleset.Outcome

// Plane returns the plane with a callsign.
func (s *State) Plane(callsign string) *Plane {
	return ruleset.Find(s.Planes, callsign, func(p *Plane) string { return p.Callsign })
}

// SideOf returns a player's side.
func (s *State) SideOf(player string) string { return ruleset.SideOf(s.Players, player) }

// JSON is the state's canonical serialisation.
func (s *State) JSON() ([]byte, error) { return json.Marshal(s) }

// Hash is the SHA-256 of the canonical JSON, in hex.
func (s *State) Hash() string { return ruleset.HashJSON(s) }

// Clone returns a deep copy.
func (s *State) Clone() *State { return s.clone(false) }

// clone is Clone; with flying set it leaves out the tracks of the planes in play, which the turn being
// resolved replaces.
func (s *State) clone(flying bool) *State {
	c := *s
	if s.Map != nil {
		m := *s.Map
		c.Map = &m
	}
	c.Clouds = append([]Cloud(nil), s.Clouds...)
	c.Sides = append([]string(nil), s.Sides...)
	c.Players = append([]Player(nil), s.Players...)
	c.Victory = make([]Condition, len(s.Victory))
	for i, v := range s.Victory {
		v.Aircraft = append([]string(nil), v.Aircraft...)
		v.Ground = append([]string(nil), v.Ground...)
		c.Victory[i] = v
	}
	c.Planes = make([]Plane, len(s.Planes))
	// The planes' damage boxes, ammunition and tracks are copied into one block of each, every plane's
	// part capped at its length.
	nDamage, nAmmo, nTrack := 0, 0, 0
	for i := range s.Planes {
		nDamage += len(s.Planes[i].Damage)
		nAmmo += len(s.Planes[i].Ammo)
		if keepsTrack(&s.Planes[i], flying) {
			nTrack += len(s.Planes[i].Track)
		}
	}
	damage, ammo, track := make([]int, 0, nDamage), make(Ammo, 0, nAmmo), make([]hexmap.Hex, 0, nTrack)
	for i, p := range s.Planes {
		if len(p.Damage) > 0 {
			damage = append(damage, p.Damage...)
			p.Damage = damage[len(damage)-len(p.Damage) : len(damage) : len(damage)]
		} else {
			p.Damage = nil
		}
		ammo = append(ammo, p.Ammo...)
		p.Ammo = ammo[len(ammo)-len(p.Ammo) : len(ammo) : len(ammo)]
		if p.Bombed != nil {
			b := *p.Bombed
			p.Bombed = &b
		}
		if keepsTrack(&p, flying) {
			track = append(track, p.Track...)
			p.Track = track[len(track)-len(p.Track) : len(track) : len(track)]
		} else {
			p.Track = nil
		}
		p.Imp = p.Imp.clone()
		if p.Ground != nil {
			g := *p.Ground
			if g.Order != nil {
				o := *g.Order
				g.Order = &o
			}
			p.Ground = &g
		}
		c.Planes[i] = p
	}
	c.Sight = ruleset.CloneSight(s.Sight)
	c.Outcome = s.Outcome.Clone()
	c.Roads = append([]hexmap.Hex(nil), s.Roads...)
	c.Ground = make([]GroundUnit, len(s.Ground))
	for i, u := range s.Ground {
		u.Route = append([]hexmap.Hex(nil), u.Route...)
		if u.Flak != nil {
			f := *u.Flak
			if f.Order != nil {
				o := *f.Order
				o.Aims = append([]FlakAim(nil), o.Aims...)
				f.Order = &o
			}
			u.Flak = &f
		}
		c.Ground[i] = u
	}
	if s.Ground == nil {
		c.Ground = nil
	}
	c.Torpedoes = nil
	for _, t := range s.Torpedoes {
		t.Passed = append([]string(nil), t.Passed...)
		c.Torpedoes = append(c.Torpedoes, t)
	}
	if s.Clock != nil {
		clock := *s.Clock
		if s.Clock.Unseen != nil {
			clock.Unseen = make(map[string][]Event, len(s.Clock.Unseen))
			for k, v := range s.Clock.Unseen {
				clock.Unseen[k] = append([]Event(nil), v...)
			}
		}
		c.Clock = &clock
	}
	return &c
}

// keepsTrack says whether a clone copies a plane's track: every one it has, but with flying those of
// planes in play.
func keepsTrack(p *Plane, flying bool) bool { return len(p.Track) > 0 && !(flying && p.InPlay()) }

// Cards finds aircraft cards by key. Get hands out a card the caller may change.
type Cards interface {
	Get(key string) (*aircraft.Card, bool)
}

// sharedCards is Cards that can also hand out a card without copying it, read only
// (aircraft.Registry.Card).
type sharedCards interface {
	Card(key string) (*aircraft.Card, bool)
}

// Card is the card of an aircraft type for reading only: the registry's own when the cards can share
// it (aircraft.Registry), a copy otherwise. Resolving a turn and checking an order read cards and never
// change them, so they use this rather than Cards.Get, which copies the card every call.
func (e *Env) Card(key string) (*aircraft.Card, bool) {
	if s, ok := e.Cards.(sharedCards); ok {
		return s.Card(key)
	}
	return e.Cards.Get(key)
}
