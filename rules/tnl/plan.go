package tnl

// The plotting board (ruleset.Planner, docs/web.md): a unit's order tried before it is sent. The board's
// plan and the receipt's check are one function, plan, so the board can never say of an order what the
// receipt would not: Plan adds the track of the unit's lead aircraft and what each aircraft's guns
// could reach from where the plot ends, as the side last saw the enemy (its View, never the state).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/tnl/notation"
)

// Plan is the order's check, as CheckOrder answers it, with the track the unit's lead aircraft (its
// first aircraft in the air) flies through both movement phases, its facing at the end, and the reach.
func (g *game) Plan(player, unit, text string) ruleset.Plan { return g.plan(player, unit, text, true) }

// plan checks one unit's order (the receipt's check), and for the board (board true) flies it too: the
// lead aircraft's hexes, start to end, as the preview lists its phases, flown as far as the plot reads
// even when it breaks a rule, and the reach of every aircraft of the unit.
func (g *game) plan(player, unit, text string, board bool) ruleset.Plan {
	out := ruleset.NewOrderCheck()
	name := strings.ToUpper(strings.TrimSpace(unit))
	u := g.st.UnitNamed(name)
	if u == nil || u.Player != player {
		out.Errors = append(out.Errors, ruleset.NotYours(name, "units", g.Units(player)))
		return ruleset.Plan{Check: out}
	}
	flying := g.st.Flying(u)
	if len(flying) == 0 {
		out.Errors = append(out.Errors, ruleset.Problem{Code: "not-flying", Message: fmt.Sprintf("%s has no aircraft left in the air", name)})
		return ruleset.Plan{Check: out}
	}
	o, ds := notation.Parse(text)
	if !out.Diagnosed(ds) {
		return ruleset.Plan{Check: out}
	}
	c := CheckOrder(g.d, g.st, u, o)
	out.Errors = append(out.Errors, c.Errors...)
	out.Warnings = append(out.Warnings, c.Warnings...)
	// The canonical order, then the forecast, are lines of one buffer (ruleset.Lines).
	var l ruleset.Lines
	l.Grow(1+2*len(flying), 48)
	l.B = o.Append(l.B)
	l.End()
	for _, a := range flying {
		pc, ok := c.Plots[a.Callsign]
		if !ok {
			continue
		}
		for ph, r := range pc.Phases {
			// "%s phase %d: %d hexes to %s facing %s%s"
			b := strconv.AppendInt(append(append(l.B, a.Callsign...), " phase "...), int64(ph+1), 10)
			b = strconv.AppendInt(append(b, ": "...), int64(pc.Speeds[ph]), 10)
			b = r.End.Hex.Append(append(b, " hexes to "...))
			l.B = append(append(append(b, " facing "...), r.End.Facing.String()...), invText(r.End.Inverted)...)
			l.End()
		}
		if pc.Level != a.Level {
			// "%s reaches %s at the end of phase 1 (no combat for it in phase 1)"
			l.B = append(append(append(l.B, a.Callsign...), " reaches "...), pc.Level.String()...)
			l.B = append(l.B, " at the end of phase 1 (no combat for it in phase 1)"...)
			l.End()
		}
	}
	l.Check(&out)
	p := ruleset.Plan{Check: out}
	if !board {
		return p
	}
	for _, a := range flying {
		pc, ok := c.Plots[a.Callsign]
		if !ok {
			continue
		}
		p.Path = make([]hexmap.Hex, 0, 1+len(pc.Phases[0].Track)+len(pc.Phases[1].Track))
		p.Path = append(append(append(p.Path, a.Hex), pc.Phases[0].Track...), pc.Phases[1].Track...)
		p.Facing, p.Faced = pc.Phases[1].End.Facing, true
		break
	}
	v := ViewOf(g.st, g.st.SideOf(player))
	for _, a := range flying {
		if pc, ok := c.Plots[a.Callsign]; ok {
			p.Reach = append(p.Reach, g.reach(&v, a, pc, o.For(a.Callsign))...)
		}
	}
	return p
}

// reach says what aircraft a could fire at from where its plot pc ends, at the level it ends at: each
// enemy aircraft as the side last saw it (v) that its guns would bear on there, as the turn's combat
// reads it (bearing: the same level, within the visibility, in range and arc), nearest first; or that
// none would; or that it has no guns. A HOLD is said first.
func (g *game) reach(v *View, a *Aircraft, pc PlotCheck, seg notation.Segment) []string {
	sh, ok := g.d.Sheet(a.Type)
	if !ok {
		return nil
	}
	end := *a
	end.Hex, end.Facing, end.Inverted, end.Level = pc.Phases[1].End.Hex, pc.Phases[1].End.Facing, pc.Phases[1].End.Inverted, pc.Level
	end.DiveRun = diveRunAfter(a, seg)
	var out []string
	if at := seg.Attack; at.Kind != "" && a.Loaded {
		for i := range v.Ground {
			if s := v.Ground[i]; s.Callsign == at.Target && s.Kind == "ship" && s.Side != a.Side && !s.Sunk() {
				s.Hex = shipAfter(&s, 0)
				s.Hex = shipAfter(&s, 1)
				out = append(out, shipReach(&end, &s, at.Kind))
			}
		}
	}
	if seg.Fire.Mode == notation.FireHold {
		out = append(out, a.Callsign+" holds its fire this turn (HOLD)")
	}
	if sh.Fixed.Total() == 0 && len(sh.Flexible) == 0 {
		return append(out, fmt.Sprintf("%s has no guns: the %s cannot fire at aircraft", a.Callsign, sh.Name))
	}
	type target struct {
		c  *Contact
		gs []group
		d  int
	}
	var in []target
	for i := range v.Enemies {
		c := &v.Enemies[i]
		if gs := bearing(sh, &end, c.Hex, c.Level, v.Visibility); len(gs) > 0 {
			in = append(in, target{c: c, gs: gs, d: hexmap.Distance(end.Hex, c.Hex)})
		}
	}
	if len(in) == 0 {
		return append(out, a.Callsign+": no enemy aircraft in reach from where this plot ends")
	}
	sort.SliceStable(in, func(i, j int) bool { return in[i].d < in[j].d })
	for _, t := range in {
		where := "in the same hex"
		if t.d > 0 {
			where = fmt.Sprintf("%d hex%s away at %d o'clock", t.d, pluralEs(t.d), hexmap.Clock(end.Hex, end.Facing, t.c.Hex))
		}
		out = append(out, fmt.Sprintf("%s could fire at %s where it was last seen: %s, %s", a.Callsign, t.c.Callsign, where, diceText(t.gs)))
	}
	return out
}

// shipReach says whether aircraft a, where its plot ends (end of movement phase 2, when the attacks go
// in), could make its attack (BOMB or TORPEDO) on ship s where the ship will be after its own move, as
// the turn decides it (canDiveBomb, canLaunch).
func shipReach(a *Aircraft, s *Ground, kind string) string {
	d := hexmap.Distance(a.Hex, s.Hex)
	where := fmt.Sprintf("%d hex%s away at %s", d, pluralEs(d), a.Level)
	if d == 0 {
		where = "over it at " + a.Level.String()
	}
	if kind == "TORPEDO" {
		t := torpedoRun(a, s)
		if !canLaunch(a, t) {
			return fmt.Sprintf("%s could not launch at %s where the ship will be after its move: it would be %s, and a torpedo goes from Very Low at 5 to 20 hexes", a.Callsign, s.Callsign, where)
		}
		aspect, mod := t.Aspect()
		return fmt.Sprintf("%s could launch at %s where the ship will be after its move: %s, needing %d or more with %+d for the angle (%s)", a.Callsign, s.Callsign, where, t.Need(), mod, aspect)
	}
	if !canDiveBomb(a, s) {
		return fmt.Sprintf("%s could not dive-bomb %s where the ship will be after its move: it would be %s, and it must end over the ship or beside it at Low or Very Low on a dive begun at Medium", a.Callsign, s.Callsign, where)
	}
	return fmt.Sprintf("%s could dive-bomb %s where the ship will be after its move: %s, needing %d or more before the modifiers", a.Callsign, s.Callsign, where, DiveBomb{Level: a.Level}.Need())
}

// diceText says which dice a burst would throw and what each needs: "4 white dice needing 4 or more".
func diceText(gs []group) string {
	parts := make([]string, 0, len(gs))
	for _, gr := range gs {
		dice := "dice"
		if gr.n == 1 {
			dice = "die"
		}
		pivot := ""
		if gr.pivot {
			pivot = " on a pivot mount"
		}
		parts = append(parts, fmt.Sprintf("%d %s %s%s needing %d or more", gr.n, gr.colour, dice, pivot, gr.need))
	}
	return strings.Join(parts, ", ")
}

// PlotHelp is how a unit's order is written (docs/notation.md, "Thunderbolt & Lightning"), with each of
// its aircraft's fly-straight rating and the speeds it may fly in phase 1 now.
func (g *game) PlotHelp(player, unit string) []string {
	u := g.st.UnitNamed(strings.ToUpper(strings.TrimSpace(unit)))
	if u == nil || u.Player != player {
		return nil
	}
	out := []string{
		"One line is the unit's whole turn: phase 1, a slash, phase 2, e.g. 3 TL 4 / 6.",
		"A number is hexes straight ahead; TL or TR turns one hexside; HL half loops (turns about, inverted).",
		"RL or RR rolls into the hex ahead on that side (inverted after); SL or SR slips there for a hex more of speed; INV inverts or rights.",
		"Before each of those, fly the fly-straight rating in hexes straight ahead; three times it before HL.",
		"DIVE or CLIMB first changes level by one (no combat in phase 1); BOMB or TORPEDO and a ship after phase 2 attacks it.",
		"Last the fire order: HOLD, FIRE ANY, FIRE 2 (phase 2 only) or FIRE and an enemy. After a semicolon, one aircraft's callsign and a plot of its own.",
	}
	for _, a := range g.st.Flying(u) {
		sh, ok := g.d.Sheet(a.Type)
		if !ok {
			continue
		}
		lo, hi := SpeedRange(sh, a, 0, a.Speed, g.st.LoadedModifiers)
		out = append(out, fmt.Sprintf("%s (%s): fly-straight %d; phase 1 speed %d to %d hexes (a dive or climb adds its rating)", a.Callsign, sh.Name, FS(sh, a, g.st.LoadedModifiers), lo, hi))
	}
	return out
}
