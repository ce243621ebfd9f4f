package tnl

import (
	"fmt"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// Event kinds. Every kind has a visibility rule in view.go (EventsFor); a kind without one is shown to
// nobody.
const (
	EvInitiative   = "initiative"    // a unit's initiative roll
	EvMove         = "move"          // an aircraft flew a movement phase
	EvNMR          = "nmr"           // no order came: the unit flew straight on
	EvIllegalOrder = "illegal-order" // the order broke a rule: the aircraft flew straight on
	EvFire         = "fire"          // an aircraft fired at another
	EvAA           = "aa"            // a ship's or site's AA guns fired at an aircraft
	EvBomb         = "bomb"          // a dive-bombing attack on a ship
	EvTorpedo      = "torpedo"       // a torpedo attack on a ship
	EvDestroyed    = "destroyed"     // an aircraft was destroyed
	EvSunk         = "sunk"          // a ship took its damage points
	EvSplit        = "split"         // aircraft ended more than 2 hexes from their unit: a new unit
	EvSpotted      = "spotted"       // a side saw an enemy aircraft come in sight
	EvLostSight    = "lost-sight"    // a side lost sight of one
	EvGameOver     = "game-over"     // the game ended
)

// EventKinds lists every kind.
var EventKinds = []string{EvInitiative, EvMove, EvNMR, EvIllegalOrder, EvFire, EvAA, EvBomb, EvTorpedo,
	EvDestroyed, EvSunk, EvSplit, EvSpotted, EvLostSight, EvGameOver,
	EvNoFire}

// Event is one thing that happened in a turn.
type Event struct {
	Turn  int    `json:"turn"`
	Phase int    `json:"phase,omitempty"` // 1 or 2 for movement and combat
	Kind  string `json:"kind"`
	Unit  string `json:"unit,omitempty"` // the aircraft, unit, ship or site that acted or was hit
	Side  string `json:"side,omitempty"`
	// Target is the aircraft or ship attacked; TargetSide its side.
	Target     string      `json:"target,omitempty"`
	TargetSide string      `json:"target_side,omitempty"`
	Player     string      `json:"player,omitempty"`
	Text       string      `json:"text"`
	Dice       []dice.Roll `json:"dice,omitempty"`
	Problems   []Problem   `json:"problems,omitempty"`
	Shot       *ShotDetail `json:"shot,omitempty"`
	Move       *MoveDetail `json:"move,omitempty"`
	Outcome    *Outcome    `json:"outcome,omitempty"`
	Roll       int         `json:"roll,omitempty"` // initiative
	// Hit says a bomb or torpedo struck its ship.
	Hit     bool     `json:"hit,omitempty"`
	Members []string `json:"members,omitempty"`
}

// MoveDetail is a phase flown.
type MoveDetail struct {
	Order string       `json:"order"`
	From  Pos          `json:"from"`
	To    Pos          `json:"to"`
	Level Level        `json:"level"`
	Path  []hexmap.Hex `json:"path"`
}

// GroupDetail is a batch of dice of one colour and need.
type GroupDetail struct {
	Colour Colour `json:"colour"`
	Pivot  bool   `json:"pivot,omitempty"`
	Need   int    `json:"need"`
	Rolls  []int  `json:"rolls"`
	Hits   int    `json:"hits"`
}

// SaveDetail is one saving roll against a hit.
type SaveDetail struct {
	Colour Colour `json:"colour"`
	Mod    int    `json:"mod"`
	Roll   int    `json:"roll"`
	Saved  bool   `json:"saved"`
	Effect string `json:"effect,omitempty"` // what the hit did when not saved
}

// ShotDetail is an attack on an aircraft: the dice thrown, the saving rolls, the hits suffered.
type ShotDetail struct {
	Range    int           `json:"range"`
	Groups   []GroupDetail `json:"groups"`
	Rerolled bool          `json:"rerolled,omitempty"` // the target's jinx skill made a hit roll again
	SR       int           `json:"sr"`
	Saves    []SaveDetail  `json:"saves"`
	Suffered int           `json:"suffered"`
}

// topSpeedText is an aircraft's top speed in each movement phase, as its sheet gives it and, when damage
// or a load cuts it (seed 003, "Changing Speed", "Effects of Hits", "Loaded Modifiers"), as it is now:
// "top speed 7 hexes in phase 1 and 6 in phase 2", "..., cut to 5 and 4 now". A "now" that says the
// same as the sheet tells the player nothing.
func topSpeedText(sheet, now [2]int) string {
	s := fmt.Sprintf("top speed %d hexes in phase 1 and %d in phase 2", sheet[0], sheet[1])
	if now != sheet {
		s += fmt.Sprintf(", cut to %d and %d now", now[0], now[1])
	}
	return s
}
