package swarm

// The plotting board (ruleset.Planner, docs/web.md): a squadron's order tried before it is sent. The
// board's plan and the receipt's check are one function, plan, so the board can never say of an order
// what the receipt would not: Plan adds the hexes of the whole plotted course and what the squadron could
// attack from where it ends, as the side last saw the enemy (its View, never the state).

import (
	"fmt"
	"sort"
	"strings"

	"sortie/parser"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/swarm/notation"
)

// Plan is the order's check, as CheckOrder answers it, with the hexes of every turn the order plots (a
// course of several turns, all of it), the facing at its end, and the reach.
func (g *game) Plan(player, unit, text string) ruleset.Plan { return g.plan(player, unit, text, true) }

// plan checks one squadron's order (the receipt's check), and for the board (board true) flies it too:
// the hexes from the squadron's own to the end of its last plotted turn, the turns the preview lists,
// flown as far as the order reads even when it breaks a rule, and the reach from the end.
func (g *game) plan(player, unit, text string, board bool) ruleset.Plan {
	out := ruleset.NewOrderCheck()
	cs := strings.ToUpper(strings.TrimSpace(unit))
	q := g.st.Squadron(cs)
	switch {
	case q == nil || q.Player != player:
		out.Errors = append(out.Errors, ruleset.NotYours(cs, "squadrons", g.Units(player)))
		return ruleset.Plan{Check: out}
	case !q.InPlay():
		out.Errors = append(out.Errors, ruleset.Problem{Code: "not-flying", Message: fmt.Sprintf("%s is %s and takes no more orders", cs, q.Status)})
		return ruleset.Plan{Check: out}
	case len(q.Queue) > 0:
		out.Errors = append(out.Errors, ruleset.Problem{Code: "on-course", Message: fmt.Sprintf("%s is flying its plotted course (%d more turn%s) and takes no order until it sights the enemy or the course runs out",
			cs, len(q.Queue), plural(len(q.Queue)))})
		return ruleset.Plan{Check: out}
	}
	o, ds := notation.ParseSwarmOrder(text)
	if !out.Diagnosed(ds) {
		return ruleset.Plan{Check: out}
	}
	c := CheckOrder(g.d, g.st, q, o)
	for _, p := range c.Errors {
		out.Add(true, p.Code, p.Message, p.Col, p.Suggestion)
	}
	for _, p := range c.Warnings {
		out.Add(false, p.Code, p.Message, p.Col, p.Suggestion)
	}
	// The canonical order, then the forecast, are lines of one buffer (ruleset.Lines).
	var l ruleset.Lines
	l.Grow(1, 64)
	l.B = o.Append(l.B)
	l.End()
	appendPreview(&l, g.st.Turn, q.Pos, c.Moves)
	l.Check(&out)
	p := ruleset.Plan{Check: out}
	if !board || len(c.Moves) == 0 {
		return p
	}
	p.Path = []hexmap.Hex{q.Pos.Hex}
	for _, m := range c.Moves {
		p.Path = append(p.Path, m.Hexes[1:]...)
	}
	last := c.Moves[len(c.Moves)-1]
	p.Facing, p.Faced = last.End.Facing, true
	if t, ok := g.d.Type(q.Type); ok {
		v := ViewOf(g.st, q.Side)
		p.Reach = g.reach(&v, q, t, o, c.Moves)
	}
	return p
}

// reach says what squadron q could attack where its plotted turns (moves) end: each enemy squadron as the
// side last saw it (v) in reach of its forward guns, then of its rear gunner, as the turn's fire reads it
// (CanAttack), nearest first; or that none is. A HOLD on the last turn is said first. Each turn with
// BOMB says which ground target lies under its path (TargetUnder), as the turn would find it.
func (g *game) reach(v *View, q *Squadron, t *Type, o notation.SwarmOrder, moves []MoveResult) []string {
	var out []string
	several := len(moves) > 1
	for i, m := range moves {
		if i >= len(o.Turns) || !o.Turns[i].Bomb {
			continue
		}
		when := ""
		if several {
			when = fmt.Sprintf("turn %d: ", g.st.Turn+i)
		}
		switch tg := TargetUnder(v.Targets, m.Hexes); {
		case tg == nil:
			out = append(out, fmt.Sprintf("%s%s finds no ground target under its path: BOMB would do nothing", when, q.Callsign))
		case tg.Side == q.Side:
			out = append(out, fmt.Sprintf("%s%s would attack %s under its path, a target of your own side", when, q.Callsign, tg.Name))
		default:
			out = append(out, fmt.Sprintf("%s%s would attack %s under its path", when, q.Callsign, tg.Name))
		}
	}
	last := moves[len(moves)-1]
	if n := len(o.Turns); n > 0 && o.Turns[n-1].Fire.Mode == parser.FireHold {
		when := "this turn"
		if several {
			when = "on the last turn of this plot"
		}
		out = append(out, q.Callsign+" holds its fire "+when+" (HOLD)")
	}
	n := t.Firepower(q.Filled)
	if n == 0 && !t.RearGunner {
		return append(out, q.Callsign+" has no firepower left: it cannot attack")
	}
	band := last.Tack.Band
	type target struct {
		c    *Contact
		d    int
		rear bool
	}
	var in []target
	for _, rear := range []bool{false, true} {
		if rear && !t.RearGunner || !rear && n == 0 {
			continue
		}
		for i := range v.Enemies {
			c := &v.Enemies[i]
			if g.d.CanAttack(last.End, band, c.Pos.Hex, c.Band, v.Visibility, rear) {
				in = append(in, target{c: c, d: hexmap.Distance(last.End.Hex, c.Pos.Hex), rear: rear})
			}
		}
	}
	if len(in) == 0 {
		return append(out, q.Callsign+": no enemy squadron in reach from where this plot ends")
	}
	sort.SliceStable(in, func(i, j int) bool {
		if in[i].rear != in[j].rear {
			return !in[i].rear // the forward guns first
		}
		return in[i].d < in[j].d
	})
	for _, e := range in {
		rng := max(e.d, 1)
		where := "in the same hex"
		if e.d > 0 {
			where = fmt.Sprintf("%d hex%s away", e.d, pluralEs(e.d))
		}
		if e.rear {
			out = append(out, fmt.Sprintf("%s's rear gunner could attack %s where it was last seen: %s at %d o'clock, 1D6 scoring on %d or more",
				q.Callsign, e.c.Callsign, where, hexmap.Clock(last.End.Hex, last.End.Facing, e.c.Pos.Hex), rng))
			continue
		}
		out = append(out, fmt.Sprintf("%s could attack %s where it was last seen: %s in its field of fire, %dD6 each scoring on %d or more",
			q.Callsign, e.c.Callsign, where, n, rng))
	}
	return out
}

// PlotHelp is how a squadron's order is written (docs/notation.md, "Swarm"), with where its tacks may
// go from where they stand and how many turns it plots now.
func (g *game) PlotHelp(player, unit string) []string {
	q := g.st.Squadron(strings.ToUpper(strings.TrimSpace(unit)))
	if q == nil || q.Player != player {
		return nil
	}
	t, ok := g.d.Type(q.Type)
	if !ok {
		return nil
	}
	turns := "The enemy is in sight: plot this turn only."
	if !q.Contact {
		turns = fmt.Sprintf("No enemy in sight: plot a course of %d to %d turns at once, separated by ;.", MinCourse, MaxCourse)
	}
	return []string{
		"A turn is the new tack (speed 1 to 3, L S or R, band H M or L), then the path, e.g. 2 R M 1 R 1.",
		fmt.Sprintf("The tack moves one space at most, diagonals too, and the band one step: from %d %s it may go to %s; from %s to %s.",
			q.Tack.Speed, q.Tack.Man, strings.Join(Reachable(q.Tack, t.MaxSpeed()), ", "), bandName(q.Tack.Band), bandsFrom(q.Tack.Band)),
		"The path flies exactly the speed in segments. Each L or R in it turns 60 degrees, earned one per segment flown before it; an L or R tack turns at least once, to its side; an S tack never turns.",
		"Then BOMB if it attacks the ground (bombers, or any squadron at Low), and the fire order: FIRE ANY, FIRE and a squadron, or HOLD.",
		turns,
	}
}

// bandsFrom names the bands the altitude tack may go to from band: itself and the bands next to it.
func bandsFrom(band string) string {
	var out []string
	for _, b := range []string{"H", "M", "L"} {
		if absInt(level(b)-level(band)) <= 1 {
			out = append(out, bandName(b))
		}
	}
	if len(out) == 2 {
		return out[0] + " or " + out[1]
	}
	return out[0] + ", " + out[1] + " or " + out[2]
}
