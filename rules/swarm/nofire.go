package swarm

// Why an attack was not made. A squadron's fire order that makes no forward attack in its activation,
// and a bombing or low-level attack that is not made, are answered in its own side's report with the
// reason, from what that side could see: a squadron out of sight is "not in sight", never where it was.

import (
	"fmt"
	"strings"

	"sortie/parser"
	hexmap "sortie/rules/hex"
)

// EvNoFire is a fire order that made no attack, or a bombing or low-level attack not made, with the
// reason; only the side that gave the order sees it.
const EvNoFire = "no-fire"

// inSightOf says whether squadron q can see e: the scenario's visibility, when it sets one (seed 004,
// "Cloud Cover").
func (r *resolver) inSightOf(q, e *Squadron) bool {
	return r.st.Visibility == 0 || hexmap.Distance(q.Pos.Hex, e.Pos.Hex) <= r.st.Visibility
}

// whyNotAt says why squadron q's forward guns did not attack e.
func (r *resolver) whyNotAt(q, e *Squadron) string {
	if !r.inSightOf(q, e) {
		return fmt.Sprintf("%s was not in sight of %s (visibility %d hexes)", e.Callsign, q.Callsign, r.st.Visibility)
	}
	if !e.InPlay() {
		return e.Callsign + " was no longer combat effective"
	}
	if e.Tack.Band != q.Tack.Band {
		// Seed 004, "Targeting and Firepower": squadrons fire only within their own altitude level.
		return fmt.Sprintf("%s was at %s and %s at %s, and squadrons fire only at their own altitude", e.Callsign, bandName(e.Tack.Band), q.Callsign, bandName(q.Tack.Band))
	}
	dist := hexmap.Distance(q.Pos.Hex, e.Pos.Hex)
	if max(dist, 1) > r.d.House.MaxRange {
		// Seed 004, "Targeting and Firepower": a die scores when it equals or beats the distance.
		return fmt.Sprintf("%s was %d hexes away, and an attack die scores only within %d", e.Callsign, dist, r.d.House.MaxRange)
	}
	// Seed 004, "Targeting and Firepower": the field of fire is the sixty degrees ahead.
	return fmt.Sprintf("%s was %d hex%s away at %d o'clock, outside %s's field of fire ahead", e.Callsign, dist, pluralEs(dist),
		hexmap.Clock(q.Pos.Hex, q.Pos.Facing, e.Pos.Hex), q.Callsign)
}

func pluralEs(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// noAttack tells squadron q's side why its fire order f made no forward attack, when a reason is owed:
// it named a target, or it was FIRE ANY with an enemy squadron in sight within attack range.
func (r *resolver) noAttack(q *Squadron, f parser.Fire) {
	var near *Squadron
	nearD := 0
	for i := range r.st.Squadrons {
		e := &r.st.Squadrons[i]
		if e.Side == q.Side {
			continue
		}
		d := hexmap.Distance(q.Pos.Hex, e.Pos.Hex)
		if f.Mode == parser.FireTarget {
			if e.Callsign != f.Target {
				continue
			}
		} else if !e.InPlay() || !r.inSightOf(q, e) || max(d, 1) > r.d.House.MaxRange {
			continue
		}
		if near == nil || d < nearD {
			near, nearD = e, d
		}
	}
	var text string
	switch {
	case near == nil && f.Mode == parser.FireTarget:
		text = fmt.Sprintf("%s did not attack: %s was not an enemy squadron in sight", q.Callsign, f.Target)
	case near == nil:
		return
	case f.Mode == parser.FireTarget:
		text = q.Callsign + " did not attack: " + r.whyNotAt(q, near)
	default:
		text = q.Callsign + " did not attack: no enemy it could attack; the nearest, " + near.Callsign + "," +
			strings.TrimPrefix(r.whyNotAt(q, near), near.Callsign)
	}
	r.emit(Event{Kind: EvNoFire, Unit: q.Callsign, Side: q.Side, Target: f.Target, Text: text})
}

// notActivated tells the side of a squadron put out of action before its activation this turn that it
// neither moved nor attacked (seed 004: losses count at once).
func (r *resolver) notActivated(q *Squadron, p plotted) {
	if p.fire.Mode == parser.FireHold && !p.bomb {
		return
	}
	r.emit(Event{Kind: EvNoFire, Unit: q.Callsign, Side: q.Side, Target: p.fire.Target,
		Text: fmt.Sprintf("%s made no attack: it was put out of action before its turn to move", q.Callsign)})
}

// plotted is what a squadron's plot asked of its guns and bombs.
type plotted struct {
	fire parser.Fire
	bomb bool
}

// noBombing tells a squadron's side why its BOMB made no attack (seed 004, "Addendum: Bombing and low
// level attacks"): a bomber bombs once, and other squadrons attack the ground only from Low.
func (r *resolver) noBombing(q *Squadron, why string) {
	r.emit(Event{Kind: EvNoFire, Unit: q.Callsign, Side: q.Side, Text: q.Callsign + " made no attack on the ground: " + why})
}
