package afd

import (
	"fmt"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// View is what one side may know after a turn (invariant 4, docs/architecture.md): its own planes in full, enemy
// planes only while spotted, their type only once identified, and never their plot, speed, damage or
// ammunition. Reports are rendered from a View, never from the State.
type View struct {
	Side      string    `json:"side"`
	Scenario  string    `json:"scenario"`
	Turn      int       `json:"turn"` // the turn to be plotted next
	TurnLimit int       `json:"turn_limit"`
	Own       []Plane   `json:"own"`
	Enemies   []Contact `json:"enemies"`
	// Downed are enemy planes the side had in sight when they left play this turn (shot down, crashed,
	// off the map): where they were last seen, for the map picture's marks.
	Downed  []Contact `json:"downed,omitempty"`
	Clouds  []Cloud   `json:"clouds,omitempty"`
	Map     *Edges    `json:"map,omitempty"`
	Over    bool      `json:"over"`
	Outcome *Outcome  `json:"outcome,omitempty"`
	// Ground holds the side's own ground units and ships and the enemy's its aircraft see.
	Ground []GroundUnit `json:"ground,omitempty"`
}

// Contact is an enemy plane as a side sees it: exactly what its report shows of it (the enemy list and
// the map), and nothing else, so that whatever is built from a View — the report, the picture, the
// computer pilot's orders — is a function of what the side was told (docs/operations.md, Security).
// Not its bank, which no report shows, nor how far it flew: a plane first spotted at the end of a turn
// was not watched on its way, and even one seen at both ends was not seen between them.
// TestContactIsWhatTheReportShows holds every field here to a line of the report.
type Contact struct {
	Callsign string     `json:"callsign"`
	Type     string     `json:"type,omitempty"` // only once identified
	Hex      hexmap.Hex `json:"hex"`
	Facing   hexmap.Dir `json:"facing"`
	Alt      int        `json:"alt"`
}

// seenPlane is what a side sees of an enemy plane it has spotted: where it is, which way it faces, its
// height, and its type once identified. Every enemy plane of a View is made here.
func seenPlane(p *Plane, s Sighting) Contact {
	c := Contact{Callsign: p.Callsign, Hex: p.Flight.Hex, Facing: p.Flight.Facing, Alt: p.Flight.Alt}
	if s.Identified {
		c.Type = p.Type
	}
	return c
}

// seenGround is what a side sees of an enemy truck, tank, ship or gun: what it is, where, which way it
// faces if it moves, and the damage it shows. Not its route, speed, defence, armour, torpedo hits or
// guns' orders.
func seenGround(u *GroundUnit) GroundUnit {
	g := GroundUnit{Callsign: u.Callsign, Kind: u.Kind, Side: u.Side, Hex: u.Hex, Damage: u.Damage}
	if moves(u.Kind) {
		g.Facing = u.Facing
	}
	return g
}

// ViewOf builds a side's view of the state: its own planes and ground units in full, and of the enemy's
// only what seenPlane and seenGround keep.
func ViewOf(st *State, side string) View {
	v := View{Side: side, Scenario: st.Scenario, Turn: st.Turn, TurnLimit: st.TurnLimit, Clouds: st.Clouds, Map: st.Map,
		Over: st.Over, Outcome: st.Outcome, Own: []Plane{}, Enemies: []Contact{}}
	for i := range st.Planes {
		p := &st.Planes[i]
		if p.Side == side {
			v.Own = append(v.Own, *p)
			continue
		}
		s := st.Sight[side][p.Callsign]
		if !s.Spotted {
			continue
		}
		c := seenPlane(p, s)
		if !p.InPlay() {
			c.Type = "" // where it was last seen, for the map picture's marks
			v.Downed = append(v.Downed, c)
			continue
		}
		v.Enemies = append(v.Enemies, c)
	}
	for i := range st.Ground {
		u := st.Ground[i]
		if !groundSeen(st, side, &u) {
			continue
		}
		if u.Side != side {
			u = seenGround(&u)
		}
		v.Ground = append(v.Ground, u)
	}
	return v
}

// sawPlane reports whether a side had an enemy plane spotted when the turn ended (sightings of planes
// lost this turn are kept until the next turn starts, so their fall can be reported).
func sawPlane(st *State, side, callsign string) bool {
	return st.Sight[side][callsign].Spotted
}

// EventsFor filters a turn's events for one side, given the state after the turn. Each kind has its
// rule: a side's own planes' events in full; spotting news only for the side that spotted; of a burst
// that hits one of its planes, a side learns that it was hit, by whom if it has the shooter spotted, and
// where; of an enemy plane going down or leaving, only if it had that plane in sight. A missed order is
// announced to everyone, by player only, once a player and turn (ruleset.NMRNotices).
func EventsFor(st *State, side string, events []Event) []Event {
	var out []Event
	var nmr ruleset.NMRNotices
	for _, e := range events {
		own := e.Side == side
		switch e.Kind {
		case EvMove, EvIllegalOrder, EvOutOfAmmo, EvDamage, EvEngineOut, EvGunsOut, EvBombs, EvEngineStart:
			if own {
				out = append(out, e)
			}
		case EvNoFire:
			// Why a fire order did not fire: the firing side's own news, told from its view.
			if own {
				out = append(out, e)
			}
		case EvSpotted, EvIdentified, EvLostSight:
			if own {
				out = append(out, e)
			}
		case EvNMR:
			if own {
				out = append(out, e)
			} else if text, ok := nmr.Notice(e.Turn, e.Player); ok {
				out = append(out, Event{Turn: e.Turn, Impulse: e.Impulse, Kind: EvNMR, Player: e.Player, Text: text})
			}
		case EvFire:
			if own {
				out = append(out, e)
				continue
			}
			tg := st.Plane(e.Target)
			if tg == nil || tg.Side != side || e.Fire == nil {
				continue
			}
			shooter := "an unseen enemy"
			if sawPlane(st, side, e.Plane) {
				shooter = e.Plane
			}
			r := Event{Turn: e.Turn, Impulse: e.Impulse, Kind: EvFire, Target: e.Target,
				Fire: &FireDetail{Hits: e.Fire.Hits, Locations: e.Fire.Locations, Critical: e.Fire.Critical},
				Text: fmt.Sprintf("%s fired at %s: %d hit%s", shooter, e.Target, e.Fire.Hits, plural(e.Fire.Hits))}
			if shooter != "an unseen enemy" {
				r.Plane = e.Plane
			}
			out = append(out, r)
		case EvShotDown, EvBailOut, EvCrash, EvDisengaged:
			if own {
				out = append(out, e)
			} else if sawPlane(st, side, e.Plane) {
				r := Event{Turn: e.Turn, Impulse: e.Impulse, Kind: e.Kind, Plane: e.Plane, Text: e.Text}
				if edge := e.Extras().Edge; edge != "" {
					r.Extra = &Extra{Edge: edge}
				}
				if e.Kind == EvBailOut {
					r.Text = fmt.Sprintf("parachutes seen from %s", e.Plane)
					if e.Extras().Saved == 0 {
						r.Text = fmt.Sprintf("no parachutes seen from %s", e.Plane)
					}
				}
				out = append(out, r)
			}
		case EvGameOver:
			out = append(out, Event{Turn: e.Turn, Impulse: e.Impulse, Kind: EvGameOver, Extra: &Extra{Outcome: e.Extras().Outcome}, Text: e.Text})
		case EvGroundDamage:
			// The target's side sees its unit hit, and by whom if it has the bomber in sight, with its own
			// defence roll; the bomber's side sees what its bombs did to a unit it sees, with its attack
			// roll. Neither sees the other's die.
			u, bomber := st.groundUnit(e.Plane), st.Plane(e.Target)
			d := e.Extras().Ground
			if u == nil || bomber == nil || d == nil {
				continue
			}
			switch {
			case own:
				who := "an unseen bomber"
				if sawPlane(st, side, bomber.Callsign) {
					who = bomber.Callsign
				}
				weapon := d.Weapon
				if weapon == "" {
					weapon = "bombs"
				}
				r := Event{Turn: e.Turn, Impulse: e.Impulse, Kind: e.Kind, Plane: u.Callsign, Side: side,
					Text: fmt.Sprintf("%s (%s) was hit by %s from %s: %s", u.Callsign, u.Kind, weapon, who, d.Result)}
				if len(e.Dice) == 2 {
					r.Dice = e.Dice[1:]
				}
				out = append(out, r)
			case bomber.Side == side && groundSeen(st, side, u):
				weapon := d.Weapon
				if weapon == "" {
					weapon = "bombs"
				}
				r := Event{Turn: e.Turn, Impulse: e.Impulse, Kind: e.Kind, Plane: u.Callsign, Target: bomber.Callsign,
					Text: fmt.Sprintf("%s's %s on %s (%s): %s", bomber.Callsign, weapon, u.Callsign, u.Kind, d.Result)}
				if len(e.Dice) == 2 {
					r.Dice = e.Dice[:1]
				}
				out = append(out, r)
			}
		case EvTorpedo:
			// A side's own torpedoes: the drop, and what they did (hits reach the ship's side as ground
			// damage).
			if own {
				out = append(out, e)
			}
		case EvFlak:
			if r, ok := flakSeen(st, side, e); ok {
				out = append(out, r)
			}
		case EvGroundMove:
			// A truck, tank or ship: the side's own, or an enemy's its aircraft see now.
			if u := st.groundUnit(e.Plane); own || u != nil && groundSeen(st, side, u) {
				out = append(out, e)
			}
		}
	}
	return out
}
