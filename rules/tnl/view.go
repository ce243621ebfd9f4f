package tnl

import (
	"fmt"
	"strings"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// saw reports whether a side had an enemy aircraft in sight when the turn ended.
func saw(st *State, side, cs string) bool { return st.Sight[side][cs] }

// EventsFor filters a turn's events for one side, given the state after the turn. A side's own events in
// full; of an enemy's fire at one of its aircraft, the range, the hits and its own saving rolls, with
// the shooter named only when it is in sight (its dice tell its guns, so they are not shown); of an
// attack on its ship, the result; of an enemy aircraft's loss, only when in sight or when the side
// caused it; a ship's sinking to all (ships are on the briefing map). A missed order is announced by
// player only (ruleset.NMRNotices). A kind without a rule here is shown to nobody.
func EventsFor(st *State, side string, events []Event) []Event {
	var out []Event
	var nmr ruleset.NMRNotices
	hitBy := map[string]bool{}   // enemy aircraft the side hit this turn
	ownRolls := map[[2]int]int{} // the side's own initiative totals: turn and total, how many units
	for _, e := range events {
		if e.Kind == EvInitiative && e.Side == side {
			ownRolls[[2]int{e.Turn, e.Roll}]++
		}
		if (e.Kind == EvFire || e.Kind == EvAA) && e.Side == side && e.Shot != nil && e.Shot.Suffered > 0 {
			hitBy[e.Target] = true
		}
	}
	for _, e := range events {
		own := e.Side == side
		switch e.Kind {
		case EvInitiative:
			// Only the side's own rolls; and a tie-break only when two of its own units tied: one that a
			// tie with an enemy caused would tell that an enemy unit, seen or not, rolled the same.
			if own {
				if len(e.Dice) > 2 && ownRolls[[2]int{e.Turn, e.Roll}] < 2 {
					e.Dice = e.Dice[:2]
					e.Text = fmt.Sprintf("%s rolled %d for initiative", e.Unit, e.Roll)
				}
				out = append(out, e)
			}
		case EvNoFire:
			// Why a fire order or an attack did not happen: the ordering side's own news.
			if own {
				out = append(out, e)
			}
		case EvMove, EvIllegalOrder, EvSplit, EvSpotted, EvLostSight:
			if own {
				out = append(out, e)
			}
		case EvNMR:
			if own {
				out = append(out, e)
			} else if text, ok := nmr.Notice(e.Turn, e.Player); ok {
				out = append(out, Event{Turn: e.Turn, Kind: EvNMR, Player: e.Player, Text: text})
			}
		case EvFire, EvAA:
			if own {
				out = append(out, e)
				continue
			}
			if e.TargetSide != side || e.Shot == nil {
				continue
			}
			who := "an unseen enemy"
			r := Event{Turn: e.Turn, Phase: e.Phase, Kind: e.Kind, Target: e.Target, TargetSide: e.TargetSide}
			if e.Kind == EvAA || saw(st, side, e.Unit) {
				who, r.Unit, r.Side = e.Unit, e.Unit, e.Side
			}
			hits := 0
			for _, g := range e.Shot.Groups {
				hits += g.Hits
			}
			r.Shot = &ShotDetail{Range: e.Shot.Range, SR: e.Shot.SR, Saves: e.Shot.Saves, Suffered: e.Shot.Suffered, Groups: []GroupDetail{}}
			r.Text = fmt.Sprintf("combat phase %d: %s fired at %s at range %d: %d hit%s%s", e.Phase, who, e.Target, e.Shot.Range, hits, plural(hits), savesText(e.Shot, hits, e.Target))
			for _, d := range e.Dice {
				if strings.Contains(d.Label, e.Target+" saving roll") {
					r.Dice = append(r.Dice, d)
				}
			}
			out = append(out, r)
		case EvBomb, EvTorpedo:
			if own {
				out = append(out, e)
			} else if e.TargetSide == side {
				who := "an unseen aircraft"
				if saw(st, side, e.Unit) {
					who = e.Unit
				}
				text := e.Text
				if i := strings.Index(text, ": "); i >= 0 {
					text = text[strings.LastIndex(text, ": ")+2:]
				}
				out = append(out, Event{Turn: e.Turn, Phase: e.Phase, Kind: e.Kind, Target: e.Target, TargetSide: e.TargetSide,
					Text: fmt.Sprintf("%s attacked %s with a %s: %s", who, e.Target, strings.ToLower(e.Kind), text)})
			}
		case EvDestroyed:
			if own || saw(st, side, e.Unit) || hitBy[e.Unit] {
				out = append(out, Event{Turn: e.Turn, Phase: e.Phase, Kind: EvDestroyed, Unit: e.Unit, Side: e.Side, Text: e.Text})
			}
		case EvSunk, EvGameOver:
			out = append(out, Event{Turn: e.Turn, Phase: e.Phase, Kind: e.Kind, Unit: e.Unit, Side: e.Side, Outcome: e.Outcome, Text: e.Text})
		}
	}
	return out
}

// diceOf lists the rolls of the events a side may see.
func diceOf(events []Event) []dice.Roll {
	return ruleset.Rolls(events, func(e *Event) []dice.Roll { return e.Dice })
}

// View is what one side may know (fog of war by construction): its own aircraft and units in full,
// enemy aircraft only while in sight and of those only what a pilot sees on the table — type, place,
// facing, level, whether inverted, and the smoke of hits — and the ships and sites of the briefing map,
// with the guns of its own only. Reports and the computer pilot are built from a View, never from the
// State.
type View struct {
	Side            string     `json:"side"`
	Scenario        string     `json:"scenario"`
	Turn            int        `json:"turn"`
	TurnLimit       int        `json:"turn_limit"`
	Visibility      int        `json:"visibility"`
	LoadedModifiers bool       `json:"loaded_modifiers,omitempty"`
	Own             []Aircraft `json:"own"`
	Units           []Unit     `json:"units"`
	Enemies         []Contact  `json:"enemies"`
	Ground          []Ground   `json:"ground"`
	Over            bool       `json:"over"`
	Outcome         *Outcome   `json:"outcome,omitempty"`
}

// Contact is an enemy aircraft as a side sees it: exactly what its report shows of it, so whatever is
// built from a View (the report, the picture, the computer pilot's orders) is a function of what the
// side was told (docs/operations.md, Security).
type Contact struct {
	Callsign string     `json:"callsign"`
	Type     string     `json:"type"`
	Hex      hexmap.Hex `json:"hex"`
	Facing   hexmap.Dir `json:"facing"`
	Level    Level      `json:"level"`
	Inverted bool       `json:"inverted,omitempty"`
	Hits     int        `json:"hits,omitempty"`
	// Speed is the hexes it flew in its last phase, known only when the side sees the whole table
	// (visibility 0) and so watched it fly; 0 otherwise: sight is taken when a turn ends (seed 003
	// has no sighting rule; docs/tnl.md, Fog of war), and an aircraft seen then was not watched on its
	// way, however far it came.
	Speed int `json:"speed,omitempty"`
}

// seenAircraft is what a side sees of an enemy aircraft in sight: its type, place, facing, level,
// whether inverted and the smoke of its hits, and its speed only when the whole table is in view.
// Every enemy aircraft of a View is made here.
func seenAircraft(st *State, a *Aircraft) Contact {
	c := Contact{Callsign: a.Callsign, Type: a.Type, Hex: a.Hex, Facing: a.Facing, Level: a.Level, Inverted: a.Inverted, Hits: a.Hits}
	if st.Visibility == 0 {
		c.Speed = a.Speed
	}
	return c
}

// ViewOf builds a side's view of the state.
func ViewOf(st *State, side string) View {
	v := View{Side: side, Scenario: st.Scenario, Turn: st.Turn, TurnLimit: st.TurnLimit, Visibility: st.Visibility,
		LoadedModifiers: st.LoadedModifiers, Over: st.Over, Outcome: st.Outcome.Clone(),
		Own: []Aircraft{}, Units: []Unit{}, Enemies: []Contact{}, Ground: []Ground{}}
	for _, a := range st.Aircraft {
		if a.Side == side {
			a.Skills = append([]string(nil), a.Skills...)
			a.Track = append([]hexmap.Hex(nil), a.Track...)
			v.Own = append(v.Own, a)
		} else if a.InPlay() && st.Sight[side][a.Callsign] {
			v.Enemies = append(v.Enemies, seenAircraft(st, &a))
		}
	}
	for _, u := range st.Units {
		if u.Side == side {
			u.Members = append([]string(nil), u.Members...)
			v.Units = append(v.Units, u)
		}
	}
	for _, g := range st.Ground {
		if g.Side != side {
			g.AA, g.Radar, g.HeavyFired = AA{}, false, false
			if !g.Sunk() {
				g.Damage = 0 // the enemy's damage to its own ship is not seen until it sinks
			}
		}
		v.Ground = append(v.Ground, g)
	}
	return v
}

// Plane returns one of the side's own aircraft, or nil.
func (v *View) Plane(cs string) *Aircraft {
	return ruleset.Named(v.Own, cs, func(a *Aircraft) string { return a.Callsign })
}

// Flying lists a unit's aircraft in play.
func (v *View) Flying(u *Unit) []*Aircraft { return flying(u, v.Plane) }
