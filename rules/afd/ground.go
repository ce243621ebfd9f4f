package afd

// Ground units and ships (seed 001 V: non-plotted movement). A scenario places them with a route to
// follow; they are no one's to order. Every turn is divided into the twelve impulses of the Delta-T
// chart for them, in the plain game as in the impulse game, so a truck moves in impulses 4 and 9 in
// both (docs/rulings.md: ground units).

import (
	"fmt"

	"sortie/rules/afd/strike"
	"sortie/rules/ruleset"

	hex "sortie/rules/hex"
)

// Ground unit kinds: the ones that move, and targets that stay where the scenario puts them (seed 002's
// sample targets).
const (
	Truck = "truck"
	Tank  = "tank"
	Ship  = "ship"
)

// GroundKinds are the kinds a scenario may place.
var GroundKinds = []string{Truck, Tank, Ship, "gun", "infantry", "small-building", "large-building", "bridge"}

// moves says a kind of ground unit moves on a route.
func moves(kind string) bool { return kind == Truck || kind == Tank || kind == Ship }

// GroundUnit is a truck, a tank or a ship.
type GroundUnit struct {
	Callsign string  `json:"callsign"`
	Kind     string  `json:"kind"`
	Side     string  `json:"side"`
	Hex      hex.Hex `json:"hex"`
	// Facing is a hexside direction (0, 2, 4, 6, 8 or 10: 60° steps).
	Facing hex.Dir `json:"facing"`
	// Route holds the hexes still to drive through, in order; empty once the unit is where it was going.
	Route []hex.Hex `json:"route,omitempty"`
	// Speed and TurnRate are a ship's hexes a turn and hexsides it may turn a turn (the scenario's, as
	// the ship tables the seed names are not part of it).
	Speed    int `json:"speed,omitempty"`
	TurnRate int `json:"turn_rate,omitempty"`
	// EvenTurns: the ship moves only in even-numbered turns (seed 002's slow ships under attack: one hex
	// forward in every even turn).
	EvenTurns bool `json:"even_turns,omitempty"`
	// Defence is the unit's defence value against bombs (seed 002: the scenario's, else the seed's sample
	// for its kind); Damage what it has taken. Heavily damaged, it may no longer be used: it stops.
	Defence int           `json:"defence"`
	Damage  strike.Damage `json:"damage,omitempty"`
	// Size is a ship's size for torpedo hits ("large", "small", "very-small"); Bulge says it has torpedo
	// bulges; TorpedoPort and TorpedoStarboard count the torpedo hits on each side (seed 002).
	Size             string `json:"size,omitempty"`
	Bulge            bool   `json:"bulge,omitempty"`
	TorpedoPort      int    `json:"torpedo_port,omitempty"`
	TorpedoStarboard int    `json:"torpedo_starboard,omitempty"`
	// Armoured says strafing cannot hurt the ship (a battleship: seed 002, strafing).
	Armoured bool `json:"armoured,omitempty"`
	// Flak is the unit's flak, nil if it has none (flak.go); Player the seat that may order it, "" if
	// it fires on its own.
	Flak   *Flak  `json:"flak,omitempty"`
	Player string `json:"player,omitempty"`
}

// Arrived says the unit has driven its whole route.
func (u *GroundUnit) Arrived() bool { return len(u.Route) == 0 }

// onRoad says a hex is a road hex of the scenario.
func (st *State) onRoad(h hex.Hex) bool {
	for _, r := range st.Roads {
		if r == h {
			return true
		}
	}
	return false
}

// sideToward is the hexside direction from a to its neighbour b, and whether b is a neighbour.
func sideToward(a, b hex.Hex) (hex.Dir, bool) {
	for d := hex.Dir(0); d < 12; d += 2 {
		if a.Neighbor(d) == b {
			return d, true
		}
	}
	return 0, false
}

// turnToward is the facing one hexside (60°) nearer to want, the short way round.
func turnToward(f, want hex.Dir) hex.Dir {
	diff := (int(want) - int(f) + 12) % 12
	if diff <= 6 {
		return f.Turn(2)
	}
	return f.Turn(-2)
}

// spendMP spends one movement point of a truck or tank on its route: a 60° turn toward the next hex if
// it does not face it, else the move into it (seed 001 V.A.1: turning 60° costs one, entering a hex one).
// It says what the unit did, "" if nothing (route done, or the next hex is no neighbour).
func spendMP(u *GroundUnit) string {
	if u.Arrived() {
		return ""
	}
	want, ok := sideToward(u.Hex, u.Route[0])
	if !ok {
		u.Route = nil // a route that jumps: the scenario check refuses it, so this is only a safeguard
		return ""
	}
	if u.Facing != want {
		u.Facing = turnToward(u.Facing, want)
		return "turned"
	}
	u.Hex, u.Route = u.Route[0], u.Route[1:]
	return "moved"
}

// moveGround is the non-plotted movement phase of one impulse (seed 001 V): trucks 2 MP a turn on a road
// (impulses 4 and 9) or 1 off it (impulse 7); tanks 1 MP in impulse 7 on a road, off it only on even
// turns, plus one free hexside turn in impulse 7; ships in impulse 7, forward movement before turning.
func moveGround(st *State, imp int) []Event {
	var events []Event
	for i := range st.Ground {
		u := &st.Ground[i]
		if u.Arrived() || u.Damage >= strike.Heavy {
			continue
		}
		from := u.Hex
		switch u.Kind {
		case Truck:
			if st.onRoad(u.Hex) {
				if imp == 4 || imp == 9 {
					spendMP(u)
				}
			} else if imp == 7 {
				spendMP(u)
			}
		case Tank:
			if imp != 7 {
				continue
			}
			// The free hexside turn comes first when the tank does not face its next hex, else after the move.
			if want, ok := sideToward(u.Hex, u.Route[0]); ok && u.Facing != want {
				u.Facing = turnToward(u.Facing, want)
			}
			if st.onRoad(u.Hex) || st.Turn%2 == 0 {
				if want, ok := sideToward(u.Hex, u.Route[0]); ok && u.Facing == want {
					spendMP(u)
					if !u.Arrived() {
						if want, ok := sideToward(u.Hex, u.Route[0]); ok && u.Facing != want {
							u.Facing = turnToward(u.Facing, want)
						}
					}
				}
			}
		case Ship:
			if imp != 7 || u.EvenTurns && st.Turn%2 != 0 {
				continue
			}
			// Ahead as far as the route runs straight, up to the speed; then turn toward the next hex.
			for n := 0; n < u.Speed && !u.Arrived(); n++ {
				want, ok := sideToward(u.Hex, u.Route[0])
				if !ok || want != u.Facing {
					break
				}
				u.Hex, u.Route = u.Route[0], u.Route[1:]
			}
			for n := 0; n < u.TurnRate && !u.Arrived(); n++ {
				want, ok := sideToward(u.Hex, u.Route[0])
				if !ok || want == u.Facing {
					break
				}
				u.Facing = turnToward(u.Facing, want)
			}
		}
		if u.Hex != from {
			text := fmt.Sprintf("%s (%s) moved to %v", u.Callsign, u.Kind, u.Hex)
			if u.Arrived() {
				text += ", the end of its route"
			}
			events = append(events, Event{Turn: st.Turn, Impulse: imp, Kind: EvGroundMove, Plane: u.Callsign, Side: u.Side, Text: text,
				Extra: &Extra{Ground: &GroundDetail{Kind: u.Kind, From: from, To: u.Hex, Facing: u.Facing}}})
		}
	}
	return events
}

// GroundDetail is a ground unit's movement in an impulse.
type GroundDetail struct {
	Kind   string  `json:"kind"`
	From   hex.Hex `json:"from"`
	To     hex.Hex `json:"to"`
	Facing hex.Dir `json:"facing"`
	// Result is the damage of a bombing or torpedo, for ground-damage events, and Weapon which it was.
	Result string `json:"result,omitempty"`
	Weapon string `json:"weapon,omitempty"`
}

// GroundSightRange is how far, in hexes, a side's aircraft see ground units and ships (house rule:
// docs/rulings.md, ground units).
const GroundSightRange = 10

// groundSeen says whether a side sees a ground unit: its own always, an enemy's when one of its planes
// in play is within GroundSightRange.
func groundSeen(st *State, side string, u *GroundUnit) bool {
	if u.Side == side {
		return true
	}
	for i := range st.Planes {
		p := &st.Planes[i]
		if p.Side == side && p.InPlay() && hex.Distance(p.Flight.Hex, u.Hex) <= GroundSightRange {
			return true
		}
	}
	return false
}

// groundUnit finds a ground unit by callsign.
func (st *State) groundUnit(cs string) *GroundUnit {
	return ruleset.Named(st.Ground, cs, func(u *GroundUnit) string { return u.Callsign })
}
