package afd

import (
	"fmt"
	"strings"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// Event kinds. Every kind has a visibility rule in view.go; the view test walks them all.
const (
	EvMove         = "move"          // a plane flew its plot
	EvNMR          = "nmr"           // no order came: the plane flew the default
	EvIllegalOrder = "illegal-order" // the order broke a rule: the plane flew the default
	EvSpotted      = "spotted"       // a side spotted an enemy plane
	EvIdentified   = "identified"    // a side identified an enemy plane's type
	EvLostSight    = "lost-sight"    // a side lost sight of an enemy plane
	EvFire         = "fire"          // a plane fired at another
	EvOutOfAmmo    = "out-of-ammo"   // a gun position fired its last burst
	EvDamage       = "damage"        // a plane's systems took hits
	EvShotDown     = "shot-down"     // a plane was shot down
	EvEngineOut    = "engine-out"    // a multi-engine plane lost an engine: jettison, no power
	EvGunsOut      = "guns-out"      // a gun position was destroyed
	EvBailOut      = "bail-out"      // the crew of a downed plane jumped (or could not)
	EvCrash        = "crash"         // a plane hit the ground
	EvDisengaged   = "disengaged"    // a plane left the map
	EvBombs        = "bombs"         // a plane released its bombs
	EvGameOver     = "game-over"     // the game ended
	EvGroundMove   = "ground-move"   // a truck, tank or ship moved (seed 001 V)
	// EvGroundDamage (bombing.go): a ground unit or target hit by bombs (seed 002).
)

// EventKinds lists every kind, for tests and documentation.
var EventKinds = []string{EvMove, EvNMR, EvIllegalOrder, EvSpotted, EvIdentified, EvLostSight, EvFire,
	EvOutOfAmmo, EvDamage, EvShotDown, EvEngineOut, EvGunsOut, EvBailOut, EvCrash, EvDisengaged, EvBombs, EvGameOver, EvGroundMove, EvGroundDamage, EvTorpedo, EvFlak, EvEngineStart,
	EvNoFire}

// Event is one thing that happened in a turn, structured so reports and archives can be built from it
// and views can filter it (invariant 4, docs/architecture.md).
type Event struct {
	Turn int `json:"turn"`
	// Impulse is the impulse of the turn it happened in, in an impulse game (seed 001); 0 otherwise.
	Impulse int    `json:"impulse,omitempty"`
	Kind    string `json:"kind"`
	Plane   string `json:"plane,omitempty"`  // who acted (or whom it happened to)
	Side    string `json:"side,omitempty"`   // that plane's side, or the side that spotted
	Target  string `json:"target,omitempty"` // the other plane
	Player  string `json:"player,omitempty"` // for nmr: the player who sent no order
	// Text is a one-line summary in plain English, safe for everyone who may see the event.
	Text string      `json:"text"`
	Dice []dice.Roll `json:"dice,omitempty"`

	Move *MoveDetail `json:"move,omitempty"`
	Fire *FireDetail `json:"fire,omitempty"`
	Hit  *HitDetail  `json:"hit,omitempty"`
	// Extra holds what only a few kinds of event carry; nil when the event has none of it. Its fields
	// are saved as the event's own (JSON flattens an embedded struct), after Hit as they always were,
	// and an event without them is 96 bytes smaller: a turn of a hundred aircraft makes some four
	// hundred events, and most have none. Read them through Extras, which gives zeros for nil: a
	// promoted field read through a nil Extra panics.
	*Extra
}

// Extra is the part of an event that only a few kinds of event carry (Event.Extra).
type Extra struct {
	// Problems are the broken rules of an illegal order.
	Problems []Problem     `json:"problems,omitempty"`
	Outcome  *Outcome      `json:"outcome,omitempty"`
	Saved    int           `json:"saved,omitempty"` // bail-out: crew who got out
	Lost     int           `json:"lost,omitempty"`  // bail-out: crew lost
	Edge     string        `json:"edge,omitempty"`
	Ground   *GroundDetail `json:"ground,omitempty"`
	Gun      string        `json:"gun,omitempty"`
	Flak     *FlakDetail   `json:"flak,omitempty"`
}

// Extras is the event's Extra, zero when it has none.
func (e *Event) Extras() Extra {
	if e.Extra == nil {
		return Extra{}
	}
	return *e.Extra
}

// MoveDetail is a plane's movement this turn.
type MoveDetail struct {
	Plot  string       `json:"plot"`
	Path  []hexmap.Hex `json:"path"`
	From  hexmap.Hex   `json:"from"`
	To    hexmap.Hex   `json:"to"`
	Alt   int          `json:"alt"`
	Speed Tenths       `json:"speed"` // next turn's speed
}

// FireDetail is one shot: what fired, on which chart, the roll and the hits.
type FireDetail struct {
	Guns     []string `json:"guns"`
	Flexible bool     `json:"flexible"`
	Chart    string   `json:"chart"`
	Range    int      `json:"range"` // adjusted for height (+1 per full 500 ft)
	Column   string   `json:"column"`
	Clock    int      `json:"clock"` // the shooter's clock position seen from the target
	Row      string   `json:"deflection_row"`
	DRM      int      `json:"drm"`
	Red      int      `json:"red"`
	White    int      `json:"white"`
	Modified int      `json:"modified_row"`
	Hits     int      `json:"hits"`
	// Locations are the hit-location results, one per block of up to four hits, e.g. "WFEE*".
	Locations []string `json:"locations,omitempty"`
	Critical  int      `json:"critical"` // extra hits from the red die
}

// HitDetail is the damage a plane took this turn: per system hit, boxes added and whether it is now
// destroyed.
type HitDetail struct {
	Systems []SystemHit `json:"systems"`
	Effects []string    `json:"effects,omitempty"`
}

// SystemHit is hits on one damage system.
type SystemHit struct {
	Letter    string `json:"letter"`
	Side      string `json:"side,omitempty"`
	Name      string `json:"name"`
	Hits      int    `json:"hits"`
	Filled    int    `json:"filled"`
	Boxes     int    `json:"boxes"`
	Destroyed bool   `json:"destroyed"`
}

// eventLine is an event as its side's report reads it. Only the impulse game (seed 001, an option) names
// the impulse a thing happened in: a plain game's player plots whole turns and never sees impulses,
// though trucks, ships and flak keep the impulse chart's rhythm inside the turn. Of the side's own shots
// it adds the chart, the dice and the hit locations; of any shot with a critical hit, what the critical
// added (seed 000, hit location: a red 5 or 6 adds 1 or 2 hits to the starred system of a shot of 2
// hits or more), so the hits told and the boxes marked add up.
func eventLine(e *Event, side string, opt Options) string {
	line := e.Text
	if e.Impulse > 0 && opt.Impulse {
		line = fmt.Sprintf("turn %d impulse %d: %s", e.Turn, e.Impulse, line)
	}
	if e.Kind != EvFire || e.Fire == nil {
		return line
	}
	f := e.Fire
	own := e.Side == side
	if own {
		line += fmt.Sprintf(" [%s, range %d (column %s), %s deflection %+d, red %d + white %d = row %d]",
			f.Chart, f.Range, f.Column, f.Row, f.DRM, f.Red, f.White, f.Modified)
		if len(f.Locations) > 0 {
			line += " hit location " + strings.Join(f.Locations, " ")
		}
	}
	starred := starredSystem(f.Locations)
	if opt.SimpleCriticals {
		// The older rule's critical falls on the hit C, L or E system closest to destruction, not on a
		// starred one.
		starred = ""
	}
	switch {
	case f.Critical > 0 && starred != "" && own:
		line += fmt.Sprintf("; the starred %s was a critical hit: red %d added %d more hit%s to it", starred, f.Red, f.Critical, plural(f.Critical))
	case f.Critical > 0 && own:
		line += fmt.Sprintf("; a critical hit: red %d added %d more hit%s", f.Red, f.Critical, plural(f.Critical))
	case f.Critical > 0:
		line += fmt.Sprintf(", and a critical hit added %d more", f.Critical)
	case starred != "" && own && !opt.SimpleCriticals:
		line += fmt.Sprintf("; the starred %s would have been a critical hit on a red 5 or 6 with 2 hits or more", starred)
	}
	return line
}

// starredSystem is the letter marked critical-eligible (a '*' after it) in a shot's first hit location
// that has one, "" when none has.
func starredSystem(locations []string) string {
	for _, l := range locations {
		if i := strings.IndexByte(l, '*'); i > 0 {
			return l[i-1 : i]
		}
	}
	return ""
}

// flakRate is how often a flak gun fires, n attacks in each of the impulses it fires in (of twelve):
// the impulse game's player sees the impulses; a plain game's player plots whole turns, and reads the
// same rate as attacks a turn (seed 002: light flak every impulse, heavy flak every even impulse).
func flakRate(n, impulses int, impulseGame bool) string {
	if !impulseGame {
		return fmt.Sprintf("up to %d attack%s a turn", n*impulses, plural(n*impulses))
	}
	if impulses == 12 {
		return fmt.Sprintf("%d attack%s an impulse", n, plural(n))
	}
	return fmt.Sprintf("%d attack%s every even impulse", n, plural(n))
}
