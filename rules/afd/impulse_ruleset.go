package afd

// The impulse game behind the ruleset interface: a round is one run of the engine (impulse_game.go),
// the units to order are the planes waiting for a manoeuvre, and an order is an impulse order
// (docs/notation.md: impulse orders).

import (
	"fmt"
	"strconv"
	"strings"

	"sortie/parser"

	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// RoundNoun is "round" in an impulse game, whose rounds are the engine's stops (ruleset.RoundNamer).
func (g *game) RoundNoun() string {
	if g.st.Options.Impulse {
		return "round"
	}
	return "turn"
}

// clockAfter is where an impulse game's clock stands after a round, in game time: the turn and impulse
// last played, as "turn 1, impulse 6" ("" before the first). A game that ended inside an impulse stopped
// the clock there; one that reached its turn limit ended with the last turn's impulse 12.
func clockAfter(st *State) (turn int, text string) {
	if st.Clock == nil {
		return 0, ""
	}
	turn, imp := st.Turn, st.Clock.Impulse-1
	if st.Over && st.Turn <= st.TurnLimit {
		imp = st.Clock.Impulse
	}
	if imp == 0 {
		turn, imp = turn-1, 12
	}
	if turn < 1 {
		return 0, ""
	}
	return turn, fmt.Sprintf("turn %d, impulse %d", turn, imp)
}

// LastTurn is the last game turn played (ruleset.TurnKeeper): in an impulse game, the turn of the
// clock's last impulse.
func (g *game) LastTurn() int {
	if g.st.Clock != nil {
		turn, _ := clockAfter(g.st)
		return turn
	}
	return max(g.st.Turn-1, 0)
}

// DiceStream is one stream for the whole of an impulse game (ruleset.DiceStreamer): its roll labels
// carry the turn and the impulse, so no two rounds share one, and how often the engine stopped for a
// hidden enemy does not change anyone's dice.
func (g *game) DiceStream() string {
	if g.st.Options.Impulse {
		return "impulse"
	}
	return ""
}

// AsksOnly says an impulse game asks only the owners of the planes waiting for a manoeuvre
// (ruleset.Selective).
func (g *game) AsksOnly() bool { return g.st.Options.Impulse }

// impulseCheck reads an impulse order and checks it from where the plane stands: the first manoeuvre
// and those queued after it, as far as this turn goes (what lies in a later turn is checked when the
// plane gets there), with the impulse-by-impulse forecast.
func (g *game) impulseCheck(p *Plane, text string, out ruleset.OrderCheck, po *planOut) ruleset.OrderCheck {
	if p.Ground != nil {
		return g.groundCheck(p, text, out, po)
	}
	o, ds := notation.ParseImpulseOrder(text)
	if !out.Diagnosed(ds) {
		if prefix := readablePrefix(text, ds); po != nil && prefix != "" && len(prefix) < len(text) {
			// The board draws the part before the first mistake as the receipt would fly it.
			var part planOut
			g.impulseCheck(p, prefix, ruleset.NewOrderCheck(), &part)
			po.path, po.facing, po.faced = part.path, part.facing, part.faced
		}
		return out
	}
	card, ok := g.env.Card(p.Type)
	if !ok {
		out.Errors = append(out.Errors, ruleset.Problem{Code: "card", Message: "no card for " + p.Type})
		return out
	}
	// The canonical order, then the forecast, are lines of one buffer (ruleset.Lines).
	var l ruleset.Lines
	l.Grow(12, 64)
	l.B = o.Append(l.B)
	l.End()
	if o.Fire.Default {
		out.Warnings = append(out.Warnings, ruleset.Problem{Code: "fire-default", Message: "no fire order given: read as FIRE ANY (write HOLD to hold fire)"})
	}
	for _, m := range o.Manoeuvres {
		for _, b := range m.Boxes {
			if b.Rocket || b.Strafe {
				out.Errors = append(out.Errors, problems(attackProblems(g.st, p, card, b.Rocket, b.Strafe, notation.GroundTarget{}, b.Col))...)
			}
		}
	}
	r := &impulseRun{resolution: resolution{env: g.env, ns: g.st}}
	pt := r.planeTurn(p, card)
	imps := remainingImpulses(p.Imp.Start.Speed.Round(), g.st.Clock.Impulse)
	k := 0
	// The board's track: the steps the forecast lists, in order, and the last box's climb (plan.go).
	var track []Step
	lastClimb := 0
	for mi, m := range o.Manoeuvres {
		if pt.left == 0 {
			// "manoeuvre %d (%s) is flown next turn and checked then"
			l.B = strconv.AppendInt(append(l.B, "manoeuvre "...), int64(mi+1), 10)
			l.B = m.Append(append(l.B, " ("...))
			l.B = append(l.B, ") is flown next turn and checked then"...)
			l.End()
			continue
		}
		fc := tryManoeuvre(pt, m, 0)
		out.Errors = append(out.Errors, problems(fc.errors)...)
		out.Warnings = append(out.Warnings, problems(fc.warnings)...)
		for bi, b := range fc.boxes {
			steps := fc.res.Steps
			at := len(pt.flown) + bi
			if at < len(steps) && k < len(imps) {
				l.B = appendImpulseLine(l.B, g.st.Turn, imps[k], b.Token, steps[at], b.Alt)
				l.End()
				if po != nil {
					s := steps[at]
					s.Alt = b.Alt
					track, lastClimb = append(track, s), b.Climb+b.Mandatory // a manoeuvre's 100 ft does not tilt the nose (impulseFire)
					if b.Bomb || b.Rocket || b.Strafe {
						at := p.Flight
						at.Hex, at.Facing, at.Alt = s.Hex, s.Facing, s.Alt
						po.attacks = append(po.attacks, boxAttack{at: at, bomb: b.Bomb, rocket: b.Rocket, strafe: b.Strafe})
					}
				}
			}
			k++
		}
		if fc.rest > 0 {
			// "manoeuvre %d goes on into turn %d for %d more impulse%s"
			l.B = strconv.AppendInt(append(l.B, "manoeuvre "...), int64(mi+1), 10)
			l.B = strconv.AppendInt(append(l.B, " goes on into turn "...), int64(g.st.Turn+1), 10)
			l.B = strconv.AppendInt(append(l.B, " for "...), int64(fc.rest), 10)
			l.B = append(append(l.B, " more impulse"...), plural(fc.rest)...)
			l.End()
		}
		pt.flown = append(append([]FlownBox(nil), pt.flown...), fc.boxes...)
		pt.left -= len(fc.boxes)
		if len(fc.boxes) > 0 {
			pt.alt = fc.boxes[len(fc.boxes)-1].Alt
			if n := len(fc.res.Steps); n > 0 {
				pt.bank = fc.res.Steps[n-1].Bank
			}
		}
	}
	// A plane moving twice in an impulse whose orders end with the first move flies the second as the
	// forwards manoeuvre (impulseRun.movePlane; seed 001 III, X.E.1): it is asked for its next order
	// only once the impulse is over.
	if len(o.Manoeuvres) > 0 && pt.left > 0 && k > 0 && k < len(imps) && imps[k] == imps[k-1] {
		fc := tryManoeuvre(pt, forwards(), 0)
		if len(fc.boxes) > 0 && len(pt.flown) < len(fc.res.Steps) {
			b := fc.boxes[0]
			l.B = appendImpulseLine(l.B, g.st.Turn, imps[k], b.Token, fc.res.Steps[len(pt.flown)], b.Alt)
			l.End()
			if po != nil {
				s := fc.res.Steps[len(pt.flown)]
				s.Alt = b.Alt
				track, lastClimb = append(track, s), b.Climb+b.Mandatory // a manoeuvre's 100 ft does not tilt the nose (impulseFire)
			}
			// "it moves twice in impulse %d: with nothing more plotted, it flies its second move forwards"
			l.B = strconv.AppendInt(append(l.B, "it moves twice in impulse "...), int64(imps[k]), 10)
			l.B = append(l.B, ": your orders end with its first move there, so it flies the second one hex straight ahead (the forwards manoeuvre) before it takes its next order"...)
			l.End()
		}
	}
	l.Check(&out)
	if po != nil {
		end := p.Flight
		if n := len(track); n > 0 {
			end.Hex, end.Facing, end.Alt, end.Bank = track[n-1].Hex, track[n-1].Facing, track[n-1].Alt, track[n-1].Bank
		} else {
			lastClimb = 0
		}
		po.flown(p.Flight.Hex, track, end.Facing)
		po.reach = g.impulseReach(p, card, end, lastClimb, o, po.attacks)
	}
	return out
}

// remainingImpulses are the active impulses of speed s from impulse from on.
func remainingImpulses(s, from int) []int {
	var out []int
	for _, i := range Impulses(s) {
		if i >= from {
			out = append(out, i)
		}
	}
	return out
}

// impulseDefault is the order of a plane that gets none: the forwards manoeuvre with its standing fire
// order.
// groundCheck reads a ground plane's order for this turn and says what it will do.
func (g *game) groundCheck(p *Plane, text string, out ruleset.OrderCheck, po *planOut) ruleset.OrderCheck {
	if po != nil {
		// On the ground the plane stays in its hex this turn; it turns on the spot if its order says so.
		po.path, po.facing, po.faced = []hexmap.Hex{p.Flight.Hex}, p.Flight.Facing, true
		// House rule (impulseFire): planes on the ground do not fire.
		po.reach = []string{p.Callsign + " is on the ground: it fires no guns until it flies"}
	}
	o, ds := ParseGroundOrder(text)
	if !out.Diagnosed(ds) {
		return out
	}
	out.Errors = append(out.Errors, problems(groundProblems(g.st, p, o))...)
	out.Canonical = o.String()
	speed := p.Flight.Speed.Round()
	if o.Turn != 0 {
		out.Preview = append(out.Preview, fmt.Sprintf("turns %s at the start of the turn to face %s", o.String(), p.Flight.Facing.Turn(2*o.Turn)))
	}
	switch {
	case !p.Ground.Engine:
		out.Preview = append(out.Preview, fmt.Sprintf("tries to start its engine in impulse 7 (a D6 of %d or more)", EngineStartNeed))
	case o.Power:
		speed++
		out.Preview = append(out.Preview, fmt.Sprintf("a power factor in impulse 7: speed %d next turn", speed))
	case o.Brake:
		speed--
		out.Preview = append(out.Preview, fmt.Sprintf("a brake factor in impulse 7: speed %d next turn", speed))
	}
	if card, ok := g.env.Card(p.Type); ok {
		if need := takeoffSpeed(card, g.st.carrierSpeed(p)); speed >= need {
			out.Preview = append(out.Preview, fmt.Sprintf("leaves the ground at the end of the turn (speed %d, %d needed) and flies from next turn", speed, need))
		} else {
			out.Preview = append(out.Preview, fmt.Sprintf("takes off at speed %d", need))
		}
	}
	if po != nil {
		po.facing = p.Flight.Facing.Turn(2 * o.Turn)
	}
	return out
}

// withGroundOrders takes the orders of planes on the ground out of a round's orders and gives them to
// the planes, on a copy of the state.
func (g *game) withGroundOrders(orders map[string]string) (*State, map[string]string) {
	return g.takeOrders(orders, func(st *State, unit string) bool {
		p := st.Plane(unit)
		return p != nil && p.Ground != nil && p.NeedsOrders()
	}, func(st *State, unit, text string) {
		o, ds := ParseGroundOrder(text)
		p := st.Plane(unit)
		if parser.HasErrors(ds) || len(groundProblems(st, p, o)) > 0 {
			return // checked when it came in; one that no longer holds leaves the plane idle
		}
		p.Ground.Order = &o
	})
}

func (g *game) impulseDefault(p *Plane) string {
	if p.Ground != nil {
		return "IDLE"
	}
	fire := "FIRE ANY"
	if p.Imp != nil && p.Imp.Fire != "" {
		fire = p.Imp.Fire
	}
	return ForwardsOrder + " " + fire
}

// impulseResolve runs the engine to its next stop.
func (g *game) impulseResolve(orders map[string]string, d dice.Source) (ruleset.Game, *ruleset.Log, error) {
	st, orders := g.withFlakOrders(orders)
	st, orders = (&game{env: g.env, st: st}).withGroundOrders(orders)
	parsed := parseOrders(orders, notation.ParseImpulseOrder, func(p *Plane) bool { return p.NeedsOrders() && p.Ground == nil }, st)
	before := len(d.Log())
	next, events, err := ResolveImpulse(g.env, st, parsed, d)
	if err != nil {
		return nil, nil, err
	}
	log, err := roundLog(g.st.Clock.Stop+1, events, d, before)
	if err != nil {
		return nil, nil, err
	}
	return &game{env: g.env, st: next}, log, nil
}

// impulseDetail is what a report says of a plane's place in the impulse game.
func impulseDetail(st *State, p *Plane) []string {
	if p.Imp == nil || !p.InPlay() {
		return nil
	}
	s := p.Imp.Start.Speed.Round()
	imps := make([]string, 0, s)
	for _, i := range Impulses(s) {
		imps = append(imps, fmt.Sprint(i))
	}
	active := "active in impulses " + strings.Join(imps, " ")
	if s == 0 {
		// Speed 0 moves in no impulse (seed 001 IV: a plane moves in as many impulses as its speed).
		active = "stationary, it moves in no impulse this turn"
	}
	out := []string{fmt.Sprintf("turn %d, next impulse %d; initial speed %d: %s", st.Turn, st.Clock.Impulse, s, active)}
	if len(p.Imp.Queue) > 0 {
		var q []string
		for i, m := range p.Imp.Queue {
			t := m.String()
			if i == 0 && p.Imp.Done > 0 {
				t += fmt.Sprintf(" (%d of %d impulses flown)", p.Imp.Done, m.Impulses())
			}
			q = append(q, t)
		}
		out = append(out, "manoeuvres to fly: "+strings.Join(q, "; "))
	} else {
		out = append(out, "waiting for its next manoeuvre")
	}
	if p.Imp.FixedFired || p.Imp.FlexFired {
		var f []string
		if p.Imp.FixedFired {
			f = append(f, "fixed")
		}
		if p.Imp.FlexFired {
			f = append(f, "flexible")
		}
		out = append(out, "fired this turn: "+strings.Join(f, " and ")+" guns")
	}
	return out
}
