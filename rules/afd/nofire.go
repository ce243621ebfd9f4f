package afd

// Why a fire order did not fire. A standing fire order (docs/rulings.md: declared with the plot, resolved
// after movement) that fires no burst is answered in its own side's report with the reason, told only
// from what that side could see: a target out of sight is "not in sight", never where it was.

import (
	"fmt"
	"strings"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	hexmap "sortie/rules/hex"
)

// EvNoFire is a fire order that fired no burst, with the reason; only the firing side sees it.
const EvNoFire = "no-fire"

// goneText says how a plane that left play went, for "did not fire: it ..." and "KURT ...".
func goneText(p *Plane) string {
	switch p.Status {
	case Crashed:
		return "had gone into the ground"
	case Disengaged:
		return "had left the map"
	default:
		return "had been shot down"
	}
}

// answersFire says whether a fire order that fired nothing may be owed a reason: it named a target, or
// it was FIRE ANY (written, or read so from an order without a fire clause), which is owed one only
// with an enemy plane in sight within 8 hexes, the most any gun reaches (noFireText: farther, no one
// expects a burst). HOLD fires nothing on purpose, and a plane that got no order at all answers to
// nobody's order.
func answersFire(fire parser.Fire, nmr bool) bool {
	return fire.Mode != parser.FireHold && !nmr
}

// nearestSeen is the nearest enemy plane in play that p's side has in sight within MaxFireRange hexes
// of p: the least range counting the height difference, then the first callsign, as the fire phase
// orders its candidates (compareCandidates). nil when there is none.
func nearestSeen(st *State, p *Plane) *Plane {
	var best candidate
	for i := range st.Planes {
		tg := &st.Planes[i]
		if tg.Side == p.Side || !tg.InPlay() || !st.Sight[p.Side][tg.Callsign].Spotted {
			continue
		}
		d := hexmap.Distance(p.Flight.Hex, tg.Flight.Hex)
		if d > MaxFireRange {
			continue
		}
		c := candidate{p: tg, rangeAdj: AdjustedRange(d, tg.Flight.Alt-p.Flight.Alt)}
		if best.p == nil || compareCandidates(c, best) < 0 {
			best = c
		}
	}
	return best.p
}

// fireChance is what a plane's guns could do at the moment its fire order was tried: whether its fixed
// guns may fire at all now, and why not (seed 002: not the turn the pilot attacked the ground; seed 001
// VII.2: only in an impulse the plane moves, once a turn), and whether its flexible guns may (seed 001
// VII.4: once a turn).
type fireChance struct {
	fixedBlocked string // why the fixed guns may not fire this turn at all; "" when they may
	fixedIdle    string // why they may not fire in this impulse, told only when they bore
	flexBlocked  string // why the flexible guns may not fire now
}

// noFireText says why plane f fired no burst under its order, from its side's view: the order's
// target, or for FIRE ANY the nearest enemy in sight, and what stopped each kind of gun. ok is false
// when nothing is owed (FIRE ANY with no enemy in sight). The line is written in the turn's text.
func (r *resolution) noFireText(f *flown, ch fireChance) (target, text string, ok bool) {
	p, fire, t := f.p, f.fire, &r.text
	var tg *Plane
	if fire.Mode == parser.FireTarget {
		tg = r.ns.Plane(fire.Target)
		t.start().str(p.Callsign).str(" did not fire at ").str(fire.Target).str(": ")
		if tg == nil || tg.Side == p.Side || !r.ns.Sight[p.Side][tg.Callsign].Spotted {
			// Seed 000 and docs/rulings.md: a plane fires only at an enemy its side has spotted.
			return fire.Target, t.str(fire.Target).str(" was not an enemy plane in sight").String(), true
		}
		if !tg.InPlay() {
			return tg.Callsign, t.str(tg.Callsign).str(" ").str(goneText(tg)).String(), true
		}
		t.str(tg.Callsign)
	} else {
		if tg = nearestSeen(r.ns, p); tg == nil {
			return "", "", false
		}
		t.start().str(p.Callsign).str(" did not fire: no enemy in sight was in reach of its guns; the nearest, ").str(tg.Callsign).str(",")
	}
	r.whyNotAt(f, tg, ch)
	return tg.Callsign, t.String(), true
}

// whyNotAt writes, after tg's callsign in the turn's text, why plane f's guns did not fire at tg, an
// enemy its side sees: "KURT" then " was 3 hexes away at 11 o'clock: outside the cone of its fixed
// guns".
func (r *resolution) whyNotAt(f *flown, tg *Plane, ch fireChance) {
	p, fire, t := f.p, f.fire, &r.text
	d := hexmap.Distance(p.Flight.Hex, tg.Flight.Hex)
	if d == 0 {
		// Seed 000, "Main combat rule changes": the cone starts in the hex ahead; flexible guns too
		// need a range of at least 1.
		t.str(" was in the same hex, where no gun can bear")
		return
	}
	clock := hexmap.Clock(p.Flight.Hex, p.Flight.Facing, tg.Flight.Hex)
	t.str(" was ").num(d).str(" hex").str(plural2(d)).str(" away at ").num(clock).str(" o'clock")
	dAlt := tg.Flight.Alt - p.Flight.Alt
	switch {
	case dAlt > 0:
		t.b = appendFeet(t.str(", ").b, dAlt)
		t.str(" ft higher")
	case dAlt < 0:
		t.b = appendFeet(t.str(", ").b, -dAlt)
		t.str(" ft lower")
	}
	rangeAdj := AdjustedRange(d, dAlt)
	var fixedBuf, flexBuf [8]int
	fixed := gunsFor(fixedBuf[:0], f.card, p, true, fire.Guns)
	flex := gunsFor(flexBuf[:0], f.card, p, false, fire.Guns)
	t.str(": ")
	switch {
	case len(fixed)+len(flex) == 0:
		t.str(r.noGunsText(f))
	case rangeAdj > MaxFireRange:
		// Seed 000, "Main combat rule changes" and "Firing vertical attitude": 8 hexes at most, one
		// more for each full 500 ft of height difference.
		t.str("range ").num(rangeAdj).str(" counting the height difference, and no gun reaches beyond ").num(MaxFireRange)
	case fire.MaxRange > 0 && rangeAdj > fire.MaxRange:
		t.str("range ").num(rangeAdj).str(", beyond the MAX ").num(fire.MaxRange).str(" of its fire order")
	default:
		if len(fixed) > 0 {
			t.str(r.fixedWhy(f, tg, fixed, rangeAdj, ch))
		}
		if len(flex) > 0 {
			if len(fixed) > 0 {
				t.str("; ")
			}
			t.str(flexWhy(f, clock, flex, rangeAdj, ch.flexBlocked))
		}
	}
}

// noGunsText says why a plane has no gun that can fire: every position its order lets fire is out of
// ammunition or knocked out.
func (r *resolution) noGunsText(f *flown) string {
	return noGunsWhy(f.p, f.card, f.fire.Guns)
}

// noGunsWhy is noGunsText for plane p flying card, whose fire order lets the positions allowed fire
// (all when empty); the plotting board's reach (plan.go) says it too.
func noGunsWhy(p *Plane, card *aircraft.Card, allowed []string) string {
	empty, out := 0, 0
	for _, g := range card.Guns {
		if len(allowed) > 0 && !containsID(allowed, g.ID) {
			continue
		}
		if gunDestroyed(card, p, g.ID) {
			out++
		} else if p.Ammo.Left(g.ID) <= 0 {
			empty++
		}
	}
	which := "its guns"
	if len(allowed) > 0 {
		which = "the guns its order names (" + strings.Join(allowed, ", ") + ")"
	}
	switch {
	case out == 0 && empty == 0:
		return "it has no guns"
	case out == 0:
		return which + " are out of ammunition"
	case empty == 0:
		return which + " have been knocked out"
	}
	return which + " are out of ammunition or knocked out"
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// fixedWhy says why the fixed guns did not fire at tg, in range of some gun.
func (r *resolution) fixedWhy(f *flown, tg *Plane, fixed []int, rangeAdj int, ch fireChance) string {
	if ch.fixedBlocked != "" {
		return "its fixed guns " + ch.fixedBlocked
	}
	_, fault := fixedGeometry(f.p.Flight, f.climb, tg.Flight)
	// Seed 000, "Main combat rule changes" (the cone and its lead) and "Firing vertical attitude".
	switch fault {
	case outsideCone:
		return "outside the cone of its fixed guns"
	case climbingAtLower:
		return "its fixed guns cannot fire down at a lower plane while it climbs"
	case divingAtHigher:
		return "its fixed guns cannot fire up at a higher plane while it dives"
	case tooSteep:
		return "flying level, its fixed guns reach no more than 300 ft of height a hex of range"
	}
	for _, i := range fixed {
		if f.card.Guns[i].Range >= rangeAdj {
			if ch.fixedIdle != "" {
				return "its fixed guns bore, but " + ch.fixedIdle
			}
			return "its fixed guns could not fire on their combined weapon mix"
		}
	}
	return fmt.Sprintf("beyond the reach of its fixed guns (range %d)", rangeAdj)
}

// flexWhy says why the flexible guns did not fire at a target at clock and rangeAdj.
func flexWhy(f *flown, clock int, flex []int, rangeAdj int, blocked string) string {
	if blocked != "" {
		return "its flexible guns " + blocked
	}
	inArc := false
	for _, i := range flex {
		g := f.card.Guns[i]
		for _, a := range g.Arcs {
			if a == clock {
				inArc = true
				if g.Range >= rangeAdj {
					return "its flexible guns that cover it had fired at another plane"
				}
			}
		}
	}
	if !inArc {
		// Seed 000, "Flex gun limitations": each position covers its own clock positions.
		return "none of its flexible guns covers that clock position"
	}
	return fmt.Sprintf("beyond the reach of its flexible guns (range %d)", rangeAdj)
}

// noFire tells plane f's side why its fire order fired nothing this turn, when a reason is owed.
func (r *resolution) noFire(f *flown, imp int, ch fireChance) {
	if target, text, ok := r.noFireLine(f, ch); ok {
		r.emit(Event{Turn: r.turn, Impulse: imp, Kind: EvNoFire, Plane: f.p.Callsign, Side: f.p.Side, Player: f.p.Player, Target: target, Text: text})
	}
}

// noFireLine is noFire's line, and whether one is owed.
func (r *resolution) noFireLine(f *flown, ch fireChance) (target, text string, ok bool) {
	p := f.p
	if !p.InPlay() {
		if !answersFire(f.fire, f.nmr) {
			return "", "", false
		}
		return f.fire.Target, r.text.start().str(p.Callsign).str(" did not fire: it ").str(goneText(p)).String(), true
	}
	if !answersFire(f.fire, f.nmr) {
		return "", "", false
	}
	return r.noFireText(f, ch) // FIRE ANY with no enemy in sight is owed nothing: ok false
}
