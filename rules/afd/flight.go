// Package afd is the Air Force / Dauntless ruleset with the 30-degree turn variant of seed 000. This file
// holds the state a plane carries from turn to turn; move.go flies a plot from it.
package afd

import (
	"sortie/rules/afd/notation"
	"sortie/rules/hex"
)

// Tenths is a speed in tenths of a speed point (seed 000 rule (1): speed is kept to 0.1).
type Tenths int

// Round is the speed used for movement: the nearest whole point, with .5 rounding down (rule (1)).
func (t Tenths) Round() int {
	if t <= 0 {
		return 0
	}
	return int(t+4) / 10
}

// Float is the speed as a decimal number of points, e.g. 6.4.
func (t Tenths) Float() float64 { return float64(t) / 10 }

// LastTurn is what a plane did last turn that limits what it may do now (seed 000 rules (20), (22)-(25)).
type LastTurn struct {
	SteepClimb bool `json:"steep_climb,omitempty"`
	SteepDive  bool `json:"steep_dive,omitempty"`
	Vert       bool `json:"vert,omitempty"`
	Power      bool `json:"power,omitempty"`   // wrote P into its plot (rule (25))
	DiveFt     int  `json:"dive_ft,omitempty"` // feet lost last turn, 0 if it did not dive
	// Speed is last turn's rounded movement speed, which sets last turn's maximum shallow dive for rule
	// (20). Zero means unknown: the current speed is used instead.
	Speed int `json:"speed,omitempty"`
}

// Flight is a plane's flying state at the start of a turn.
type Flight struct {
	Hex    hex.Hex       `json:"hex"`
	Facing hex.Dir       `json:"facing"`
	Phase  hex.Phase     `json:"phase"` // across-the-grain alternation (rule (8))
	Speed  Tenths        `json:"speed"`
	Alt    int           `json:"alt"`
	Bank   notation.Bank `json:"bank"`
	Loaded bool          `json:"loaded,omitempty"` // carrying bombs, a torpedo or other stores
	// NoPower is set when a multi-engine plane has lost an engine: it has no power factors (seed 000
	// combat example).
	NoPower bool     `json:"no_power,omitempty"`
	Last    LastTurn `json:"last"`
	// Straight is the number of hexes flown since the last manoeuvre of any kind, carried across turns
	// (docs/rulings.md: turn modes).
	Straight int `json:"straight"`
}

// Plenty is a Straight count long enough for any manoeuvre: what a plane has at the start of a game.
const Plenty = 99

// upward reports whether a bank is one of the three upward banks N, RB, LB (docs/rulings.md: bank circle).
func upward(b notation.Bank) bool {
	return b == notation.BankN || b == notation.BankRB || b == notation.BankLB
}

// rollPoints returns the signed number of roll points from a to b the short way round the bank circle
// N → RB → IR → I → IL → LB → N: positive to the right. Three points (N to I) returns 3.
func rollPoints(a, b notation.Bank) int {
	d := ((int(b)-int(a))%6 + 6) % 6
	if d > 3 {
		d -= 6
	}
	return d
}

// rollBank rolls n points to the right (negative: left).
func rollBank(b notation.Bank, n int) notation.Bank {
	return notation.Bank(((int(b)+n)%6 + 6) % 6)
}

// bankSide says which side a bank leans to: +1 right (RB, IR), -1 left (LB, IL), 0 for N and I.
func bankSide(b notation.Bank) int {
	switch b {
	case notation.BankRB, notation.BankIR:
		return 1
	case notation.BankLB, notation.BankIL:
		return -1
	}
	return 0
}

// halfRolled is the bank after a half roll: three roll points, the attitude turned over (rule (11)).
func halfRolled(b notation.Bank) notation.Bank { return rollBank(b, 3) }

// immelmannBank is the bank after an Immelmann (rule (6)): inverted compared with the start but on the
// same side. LB↔IL, RB↔IR.
func immelmannBank(b notation.Bank) notation.Bank {
	switch b {
	case notation.BankLB:
		return notation.BankIL
	case notation.BankRB:
		return notation.BankIR
	case notation.BankIL:
		return notation.BankLB
	case notation.BankIR:
		return notation.BankRB
	}
	return b
}
