package swarm

import (
	"fmt"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// Event kinds. Every kind has a visibility rule in view.go (EventsFor); the view test walks them all, and
// a kind without a rule is shown to nobody.
const (
	EvInitiative   = "initiative"    // a squadron's place in the turn's move order
	EvMove         = "move"          // a squadron flew its plot
	EvCourse       = "course"        // a squadron flew the next turn of its plotted course (cloud cover)
	EvNMR          = "nmr"           // no order came: the squadron flew straight on
	EvIllegalOrder = "illegal-order" // the order broke a rule: the squadron flew straight on
	EvContact      = "contact"       // an enemy came in sight: the rest of a plotted course is cancelled
	EvSpotted      = "spotted"       // a side saw an enemy squadron come in sight
	EvLostSight    = "lost-sight"    // a side lost sight of an enemy squadron
	EvFire         = "fire"          // a squadron attacked another (forward guns or rear gunner)
	EvBomb         = "bomb"          // a squadron bombed or strafed a ground target
	EvDestroyed    = "destroyed"     // a squadron's last pip was filled
	EvGameOver     = "game-over"     // the game ended
)

// EventKinds lists every kind, for tests and documentation.
var EventKinds = []string{EvInitiative, EvMove, EvCourse, EvNMR, EvIllegalOrder, EvContact, EvSpotted,
	EvLostSight, EvFire, EvBomb, EvDestroyed, EvGameOver,
	EvNoFire}

// Event is one thing that happened in a turn, structured so that reports and archives can be built from
// it and views can filter it (invariant 4, docs/architecture.md).
type Event struct {
	Turn   int    `json:"turn"`
	Kind   string `json:"kind"`
	Unit   string `json:"unit,omitempty"`   // who acted, or whom it happened to
	Side   string `json:"side,omitempty"`   // that squadron's side, or the side that saw
	Target string `json:"target,omitempty"` // the other squadron, or the ground target
	// TargetSide is the side of the squadron attacked, or the side defending the ground target.
	TargetSide string `json:"target_side,omitempty"`
	Player     string `json:"player,omitempty"` // nmr: the player who sent no order
	// Text is a one-line summary, safe for everyone who may see the event.
	Text string      `json:"text"`
	Dice []dice.Roll `json:"dice,omitempty"`

	Initiative *InitiativeDetail `json:"initiative,omitempty"`
	Move       *MoveDetail       `json:"move,omitempty"`
	Fire       *FireDetail       `json:"fire,omitempty"`
	Bomb       *BombDetail       `json:"bomb,omitempty"`
	Problems   []Problem         `json:"problems,omitempty"`
	Outcome    *Outcome          `json:"outcome,omitempty"`
	Cancelled  int               `json:"cancelled,omitempty"` // contact: plotted turns cancelled
}

// InitiativeDetail is a squadron's initiative: its roll, the tie-break roll if it needed one, and its
// place in the move order (1 moves first).
type InitiativeDetail struct {
	Roll  int `json:"roll"`
	Tie   int `json:"tie,omitempty"`
	Order int `json:"order"`
}

// MoveDetail is a squadron's movement this turn.
type MoveDetail struct {
	Order string       `json:"order"` // the one-turn order flown, canonical
	Tack  Tack         `json:"tack"`
	From  Position     `json:"from"`
	To    Position     `json:"to"`
	Path  []hexmap.Hex `json:"path"`
}

// FireDetail is one attack: the dice of the firepower read against the range, and the target's evasive
// saves for those that scored.
type FireDetail struct {
	Rear      bool  `json:"rear"`      // the rear gunner's extra 1D6 attack
	Range     int   `json:"range"`     // hexes, at least 1
	Firepower int   `json:"firepower"` // dice thrown
	Attacks   []int `json:"attacks"`   // each die; it scores if it equals or beats the range
	Scored    int   `json:"scored"`
	SaveNeed  int   `json:"save_need"` // on the evasive-save chart at this range
	SaveMod   int   `json:"save_mod"`  // pilots and durability
	Saves     []int `json:"saves"`     // one D6 per scoring attack (fewer if the target was destroyed first)
	Filled    int   `json:"filled"`    // pips filled by this attack
}

// BombDetail is an attack on a ground target.
type BombDetail struct {
	Band   string `json:"band"`
	Need   int    `json:"need"`
	Rolls  []int  `json:"rolls"`
	Hits   int    `json:"hits"`
	Damage int    `json:"damage"` // the target's damage after the attack
	Gone   bool   `json:"destroyed"`
}

// pipsText is a squadron's damage as its report says it: the pips filled on its control sheet, and what
// they mean to its player, the pip at which its firepower next falls and the last one, at which it is
// out of the fight (seed 004: each hit not saved fills a pip; the firepower falls from 3D6 to 2D6 to 1D6
// as the rows are filled, and a squadron with every pip filled is no longer combat effective).
func pipsText(t *Type, filled int) string {
	s := fmt.Sprintf("damage pips %d of %d filled (", filled, t.Pips())
	// The next row down that has pips (a sheet may skip one).
	for d := t.Firepower(filled) - 1; d >= 1; d-- {
		if at := t.FirstPipAt(d); at > filled {
			s += fmt.Sprintf("at %d its firepower falls to %dD6; ", at, d)
			break
		}
	}
	return s + fmt.Sprintf("at %d it is out of the fight)", t.Pips())
}
