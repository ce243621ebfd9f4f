package tnl

// Why a fire order or an attack on a ship was not made. Every aircraft's standing fire order that fires
// no dice in the turn, and every attack on a ship that is not made, is answered in its own side's report
// with the reason, from what that side could see: a target out of sight is "not in sight", never where
// it was.

import (
	"fmt"
	"strings"

	hexmap "sortie/rules/hex"
	"sortie/rules/tnl/notation"
)

// EvNoFire is a fire order that fired no dice in the turn, or an attack on a ship not made, with the
// reason; only the side that gave the order sees it.
const EvNoFire = "no-fire"

// noFireRange is the farthest an enemy may be for FIRE ANY to owe a reason: at 6 hexes a die needs 7
// before modifiers (seed 003, "Combat": range plus one), and the best modifiers take 2 off.
const noFireRange = 6

// inSightOf says whether aircraft a can see t: the table's visibility, when the scenario sets one.
func (r *resolver) inSightOf(a, t *Aircraft) bool {
	return r.st.Visibility == 0 || hexmap.Distance(a.Hex, t.Hex) <= r.st.Visibility
}

// whyNotAt says why aircraft a brought no die to bear on t in combat phase ph (0 or 1).
func (r *resolver) whyNotAt(a, t *Aircraft, ph int) string {
	if !r.inSightOf(a, t) {
		return fmt.Sprintf("%s was not in sight of %s (visibility %d hexes)", t.Callsign, a.Callsign, r.st.Visibility)
	}
	if !t.InPlay() {
		return t.Callsign + " had been destroyed"
	}
	if t.Level != a.Level {
		// Seed 003, "Altitude levels": combat only between aircraft at the same level.
		return fmt.Sprintf("%s was at %s and %s at %s, and aircraft fight only at the same level", t.Callsign, t.Level, a.Callsign, a.Level)
	}
	if ph == 0 && r.changing[t.Callsign] {
		// Seed 003, "Altitude levels": in the phase 1 dive or climb no one engages or is engaged.
		return t.Callsign + " was diving or climbing in phase 1, and could not be engaged"
	}
	rng := max(hexmap.Distance(a.Hex, t.Hex), 1)
	sh := r.sheet(a)
	if !InForwardArc(a.Hex, a.Facing, t.Hex) && len(sh.Flexible) == 0 {
		return fmt.Sprintf("%s was %d hex%s away at %d o'clock, outside %s's forward arc (11 to 1 o'clock), and it has no flexible guns",
			t.Callsign, rng, pluralEs(rng), hexmap.Clock(a.Hex, a.Facing, t.Hex), a.Callsign)
	}
	// Seed 003, "Combat": a die needs the range plus one, after its modifiers; above 6 none can hit.
	return fmt.Sprintf("%s was %d hex%s away at %d o'clock, where none of %s's dice could hit (a 6 is the most a die scores)",
		t.Callsign, rng, pluralEs(rng), hexmap.Clock(a.Hex, a.Facing, t.Hex), a.Callsign)
}

func pluralEs(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// noFireWhy says why aircraft a, which may fire in phase ph, found no target under its order f: the
// named target (the nearest of a named unit's aircraft), or for FIRE ANY the nearest enemy within
// noFireRange hexes. ok is false when no reason is owed (FIRE ANY with no enemy near).
func (r *resolver) noFireWhy(a *Aircraft, f notation.Fire, ph int) (text string, ok bool) {
	if ph == 0 && r.changing[a.Callsign] {
		return a.Callsign + " was diving or climbing in phase 1, and could not fire then", true
	}
	var near *Aircraft
	nearD := 0
	for i := range r.st.Aircraft {
		t := &r.st.Aircraft[i]
		if t.Side == a.Side {
			continue
		}
		if f.Mode == notation.FireTarget {
			if t.Callsign != f.Target && t.Unit != f.Target {
				continue
			}
		} else if !t.InPlay() || !r.inSightOf(a, t) || hexmap.Distance(a.Hex, t.Hex) > noFireRange {
			continue
		}
		d := hexmap.Distance(a.Hex, t.Hex)
		// An aircraft in play before one destroyed, then the nearest.
		if near == nil || t.InPlay() && !near.InPlay() || t.InPlay() == near.InPlay() && d < nearD {
			near, nearD = t, d
		}
	}
	switch {
	case near == nil && f.Mode == notation.FireTarget:
		return f.Target + " was not an enemy aircraft or unit in sight", true
	case near == nil:
		return "", false
	case f.Mode == notation.FireTarget:
		return r.whyNotAt(a, near, ph), true
	}
	return "no enemy it could fire at; the nearest, " + near.Callsign + "," + strings.TrimPrefix(r.whyNotAt(a, near, ph), near.Callsign), true
}

// tellNoFire answers, at the end of the turn's combat, each aircraft's fire order that fired no dice:
// why not, as things stood in the last phase it could fire in, or that it was destroyed first.
func (r *resolver) tellNoFire(why map[string]string) {
	for i := range r.st.Aircraft {
		a := &r.st.Aircraft[i]
		seg, ok := r.plots[a.Callsign]
		if !ok || r.fired[a.Callsign] || seg.Fire.Mode == notation.FireHold {
			continue
		}
		text := why[a.Callsign]
		if text == "" {
			continue
		}
		r.emit(Event{Kind: EvNoFire, Phase: 2, Unit: a.Callsign, Side: a.Side, Target: seg.Fire.Target,
			Text: fmt.Sprintf("%s did not fire: %s", a.Callsign, text)})
	}
}

// attacksNotMade answers the attacks on ships plotted by aircraft destroyed before the end of movement
// phase 2, when the attacks go in (seed 003, "Attacking Ships"), and by aircraft with nothing left to
// drop.
func (r *resolver) attacksNotMade() {
	going := map[string]bool{}
	for _, at := range r.attacks {
		going[at.a.Callsign] = true
	}
	for i := range r.st.Aircraft {
		a := &r.st.Aircraft[i]
		seg, ok := r.plots[a.Callsign]
		if !ok || seg.Attack.Kind == "" || going[a.Callsign] {
			continue
		}
		why := "it had nothing left to drop"
		if !a.InPlay() {
			why = "it was destroyed before it could attack"
		}
		r.emit(Event{Kind: EvNoFire, Phase: 2, Unit: a.Callsign, Side: a.Side, Target: seg.Attack.Target,
			Text: fmt.Sprintf("%s made no attack on %s: %s", a.Callsign, seg.Attack.Target, why)})
	}
}
