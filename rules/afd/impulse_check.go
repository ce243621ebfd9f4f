package afd

// Checking an impulse game's manoeuvre (seed 001 X): tryManoeuvre and what it needs, shared by the
// receipt's check (impulse_ruleset.go), the calculator (cli_impulse.go) and the run of the impulses
// (impulse_game.go), which flies what it checks.

import (
	"fmt"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
)

// turnPlot is the plain plot the boxes flown make: straight hexes joined, manoeuvre tokens as parsed,
// power and brake summed, the altitude figure the net change from start.
func turnPlot(start Flight, flown []FlownBox) notation.Plot {
	var p notation.Plot
	for _, b := range flown {
		p.Power += b.Power
		p.Brake += b.Brake
		switch b.Token {
		case "+":
			continue
		case "`", "1":
			if k := len(p.Elements) - 1; k >= 0 && p.Elements[k].Kind == notation.Straight {
				p.Elements[k].N++
			} else {
				p.Elements = append(p.Elements, notation.Element{Kind: notation.Straight, N: 1})
			}
		default:
			if q, ds := notation.ParsePlot(b.Token); !parser.HasErrors(ds) && len(q.Elements) == 1 {
				p.Elements = append(p.Elements, q.Elements[0])
			}
		}
	}
	if len(flown) > 0 {
		p.Alt = flown[len(flown)-1].Alt - start.Alt
	}
	return p
}

// boxToken is the FlownBox token of a box.
func boxToken(b notation.Box) string {
	switch {
	case b.Cont:
		return "+"
	case b.Forwards:
		return "1"
	case b.Move.Kind == notation.Straight:
		return "`"
	}
	return b.Move.Token()
}

// altShare is a turn's climb or dive shared among the hexes a plane moves in the turn, one an active
// impulse (seed 001 X.D.1): every move may take Base feet, and Extra of them one hundred feet more, the
// player choosing which; together they never take more than the turn's figure (X.D.2).
type altShare struct {
	Turn  int // the turn's figure in feet, a multiple of 100
	Speed int // the initial speed: the plane moves once in each of that many impulses
	Base  int // feet every move may take
	Extra int // how many moves may take 100 ft more than Base
}

// shareOf shares a turn's figure among the moves of a plane of initial speed s.
func shareOf(turn, s int) altShare {
	a := altShare{Turn: turn, Speed: s}
	if s > 0 {
		units := turn / 100
		a.Base, a.Extra = units/s*100, units%s
	}
	return a
}

// usedText is "it" for one, "them" for more.
func usedText(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// most is the most one move may take.
func (a altShare) most() int {
	if a.Extra > 0 {
		return a.Base + 100
	}
	return a.Base
}

// unit names one move: an impulse, or above speed 12 (twice in some impulses) a move.
func (a altShare) unit() string {
	if a.Speed > 12 {
		return "move"
	}
	return "impulse"
}

// perUnit is "an impulse", or above speed 12 "a move".
func (a altShare) perUnit() string {
	if a.Speed > 12 {
		return "a move"
	}
	return "an impulse"
}

// explain says how the turn's figure is shared, its numbers adding up: "800 ft, shared among the 4
// impulses it moves in at speed 4: 200 ft each".
func (a altShare) explain() string {
	among := fmt.Sprintf("the %d impulse%s it moves in at speed %d", a.Speed, plural(a.Speed), a.Speed)
	if a.Speed > 12 {
		among = fmt.Sprintf("its %d moves at speed %d (twice in %d of the impulses)", a.Speed, a.Speed, a.Speed-12)
	}
	var each string
	switch {
	case a.Speed <= 0:
		return fmt.Sprintf("%s ft, and it moves in no impulse at speed 0", feetText(a.Turn))
	case a.Extra == 0 && a.Speed == 1:
		each = fmt.Sprintf("%s ft in it", feetText(a.Base))
	case a.Extra == 0:
		each = fmt.Sprintf("%s ft each", feetText(a.Base))
	case a.Base == 0:
		each = fmt.Sprintf("100 ft in %d of them and none in the other %d", a.Extra, a.Speed-a.Extra)
	default:
		each = fmt.Sprintf("%s ft in %d of them and %s ft in the other %d", feetText(a.Base+100), a.Extra, feetText(a.Base), a.Speed-a.Extra)
	}
	return fmt.Sprintf("%s ft, shared among %s: %s", feetText(a.Turn), among, each)
}

// partialCodes are the plain game's faults that only make sense for a whole turn: a turn under way is
// checked for the rest.
var partialCodes = map[string]bool{
	"plot-length": true, "climb-limit": true, "dive-limit": true, "below-minimum-speed": true,
	"pull-out-steep": true, "pull-out-vert": true, "level-off": true, "ground": true,
	// An impulse game's loop has its own rule (seed 001 X.E.4, tryManoeuvre), not the plain game's STEEP.
	"loop-needs-steep": true,
}

// isLoop says a box is a half loop or an Immelmann.
func isLoop(tok string) bool { return tok == "V" || tok == "VRR" || tok == "VLL" }

// loopDir is +1 when the turn's flown boxes hold a half loop (or Immelmann) flown climbing, -1 diving,
// 0 with none: how the plain game's rules read the loop (moveWith).
func loopDir(flown []FlownBox) int {
	for _, b := range flown {
		if isLoop(b.Token) {
			switch {
			case b.Climb > 0:
				return 1
			case b.Climb < 0:
				return -1
			}
		}
	}
	return 0
}

// wholeTurnOnly keeps the faults of a turn's plot that a turn under way can already have.
func wholeTurnOnly(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !partialCodes[p.Code] {
			out = append(out, p)
		}
	}
	return out
}

// flyCheck is a manoeuvre tried from where a plane stands: the boxes it adds this turn, where they
// leave it, and everything wrong with them.
type flyCheck struct {
	boxes    []FlownBox // the boxes this turn (the rest of the manoeuvre continues next turn)
	rest     int        // boxes left for next turn
	res      Result     // the turn's plot so far, with these boxes
	errors   []Problem
	warnings []Problem
}

// planeTurn is what checking and flying a plane's boxes needs: its card, start of turn, boxes flown
// and the active impulses left this turn.
type planeTurn struct {
	card   *aircraft.Card
	start  Flight
	flown  []FlownBox
	left   int           // active impulses left this turn, counting the current one if it has not flown yet
	alt    int           // the altitude now
	bank   notation.Bank // the bank now
	engine int           // working engines, for power per impulse
	loaded bool          // still carrying its bombs
	// slipLast: the last manoeuvre before this turn's boxes was a slip (PlaneImpulse.SlipLast).
	slipLast bool
}

// tryManoeuvre checks the first boxes of m (as many as the turn has impulses left, from box done on)
// against the impulse rules and the plain game's movement rules, without changing anything.
func tryManoeuvre(pt planeTurn, m notation.Manoeuvre, done int) flyCheck {
	var fc flyCheck
	errf := func(col int, code, format string, args ...any) {
		fc.errors = append(fc.errors, Problem{Code: code, Col: col, Message: fmt.Sprintf(format, args...)})
	}
	warnf := func(col int, code, format string, args ...any) {
		fc.warnings = append(fc.warnings, Problem{Code: code, Col: col, Message: fmt.Sprintf(format, args...)})
	}
	c, err := Apply(pt.card, pt.start)
	if err != nil {
		errf(0, "altitude", "%v", err)
		return fc
	}
	s := pt.start.Speed.Round()
	// The turn's climb is the card's (rule 16) and its dive the plain game's shallow dive (rule 17), the
	// same limits a plain plot has, shared among the moves (seed 001 X.D.1).
	climbWhat, diveWhat, cite := "its climb this turn,", "its shallow dive this turn,", "seed 001 X.D.1"
	climbShare, diveShare := shareOf(c.MaxClimb, s), shareOf(shallowDiveLimit(c, s), s)
	if stalling(c) && 200*s < diveShare.Turn {
		diveWhat = "its dive this turn, below its lowest flying speed,"
	}
	// A half loop (or Immelmann) climbs or dives at its maximum rate in every impulse of the loop, across
	// turns (seed 001 X.E.4): the plain game's steep rates (rules 18, 19) shared among the impulses.
	looping := len(m.Boxes) > 0 && isLoop(boxToken(m.Last()))
	loopSign := 0
	if looping {
		climbWhat, diveWhat, cite = "a half loop's steep climb this turn,", "a half loop's steep dive this turn,", "seed 001 X.D.1, X.E.4"
		climbShare, diveShare = shareOf(min(200*s, 1000), s), shareOf(200*s, s)
	}
	climbBase, diveBase := climbShare.Base, diveShare.Base
	usedClimbExtra, usedDiveExtra := 0, 0
	for _, b := range pt.flown {
		if b.Climb > climbBase {
			usedClimbExtra++
		}
		if d := -b.Climb - b.Mandatory; d > diveBase {
			usedDiveExtra++
		}
	}
	// shared checks a move's climb or dive (verb) of ft feet against the turn's share of it: at most
	// its most, and more than its Base in no more than Extra of the turn's moves (used counts them).
	shared := func(col, ft int, verb string, share altShare, used *int, what string) {
		switch {
		case ft > share.most():
			errf(col, "impulse-"+verb, "the %s may %s at most %s ft in one %s, not %s ft (%s %s; %s)",
				pt.card.Name, verb, feetText(share.most()), share.unit(), feetText(ft), what, share.explain(), cite)
		case ft > share.Base:
			*used++
			if *used > share.Extra {
				errf(col, "impulse-"+verb+"-extra", "only %d %s%s of this turn may %s %s ft, and the %s has used %s (%s %s; %s)",
					share.Extra, share.unit(), plural(share.Extra), verb, feetText(share.Base+100), pt.card.Name, usedText(share.Extra), what, share.explain(), cite)
			}
		}
	}
	flown := append([]FlownBox(nil), pt.flown...)
	alt := pt.alt
	straight := hexesSinceManoeuvre(pt.start, pt.flown)
	boxes := m.Boxes[done:]
	n := min(len(boxes), pt.left)
	for i := 0; i < n; i++ {
		b := boxes[i]
		fb := FlownBox{Token: boxToken(b), Power: b.Power, Brake: b.Brake, Bomb: b.Bomb, Rocket: b.Rocket, Strafe: b.Strafe}
		if b.Bomb {
			if !pt.loaded {
				errf(b.BombCol, "bomb-unloaded", "BOMB: the %s carries no bombs (or has released them)", pt.card.Name)
			}
			pt.loaded = false
		}

		want := alt
		if b.AltSet {
			if b.AltAbs {
				want = b.Alt
			} else {
				want = alt + b.Alt
			}
		}
		// A banked forwards manoeuvre, and a turn or slip flown after only the minimum of hexes, lose
		// 100 ft in their impulse, and may not climb in it (X.E.1.f, X.E.2.a, X.E.3.a).
		mandatory := ""
		if b.Forwards && bankSide(bankAt(pt, flown)) != 0 {
			mandatory = "a forwards manoeuvre in a bank (seed 001 X.E.1.f)"
		}
		if what, need := maxPerformance(c, b, straight, pt.slipLast, flown); what != "" {
			mandatory = fmt.Sprintf("a maximum-performance %s after only the minimum %d hex%s (seed 001 X.E)", what, need, plural2(need))
		}
		if mandatory != "" {
			switch {
			case !b.AltSet:
				want = alt - 100
				warnf(b.Col, "impulse-loss", "%s loses 100 ft in its impulse: read as %s ft", mandatory, feetText(want))
			case want > alt-100:
				errf(b.AltCol, "impulse-loss", "%s must lose 100 ft in its impulse and may not climb; write %s or lower", mandatory, feetText(alt-100))
			}
			fb.Mandatory = 100
		}
		change := want - alt
		fb.Climb, fb.Alt = change, want
		if looping {
			sign, base := 0, climbBase
			switch {
			case change > 0:
				sign = 1
			case change < 0:
				sign, base = -1, diveBase
			}
			if loopSign == 0 {
				loopSign = sign
			}
			if sign == 0 || sign != loopSign || abs(change) < base {
				errf(b.Col, "impulse-loop-rate", "a half loop climbs or dives in every %s of the loop, all one way, and at least its share of the steep rate: %s ft %s climbing (%s %s) or %s ft %s diving (%s %s; seed 001 X.E.4)",
					climbShare.unit(), feetText(max(climbBase, 100)), climbShare.perUnit(), climbWhat, climbShare.explain(),
					feetText(max(diveBase, 100)), diveShare.perUnit(), diveWhat, diveShare.explain())
			}
		}
		if change%100 != 0 {
			errf(b.AltCol, "impulse-altitude", "altitudes go in steps of 100 ft, not %s", feetText(want))
		}
		if change > 0 {
			shared(b.AltCol, change, "climb", climbShare, &usedClimbExtra, climbWhat)
		}
		if d := -change - fb.Mandatory; d > 0 {
			shared(b.AltCol, d, "dive", diveShare, &usedDiveExtra, diveWhat)
		}
		// Power and brake per impulse (X.C): one power factor per working engine, one brake factor.
		if b.Power > pt.engine {
			errf(b.PowerCol, "impulse-power", "%d power factors in one impulse; the %s may apply one per working engine (%d; seed 001 X.C.1)", b.Power, pt.card.Name, pt.engine)
		}
		if b.Brake > 1 {
			errf(b.BrakeCol, "impulse-brake", "%d brake factors in one impulse; one an impulse at most (seed 001 X.C.2)", b.Brake)
		}
		if want < 0 {
			errf(b.AltCol, "ground", "%s is below the ground", feetText(want))
		}
		if !b.Cont && b.Move.Kind != notation.Straight {
			straight = 0
		} else {
			straight++
		}
		alt = want
		flown = append(flown, fb)
		fc.boxes = append(fc.boxes, fb)
	}
	fc.rest = len(boxes) - n
	if fc.rest > 0 && n > 0 && boxes[n-1].Move.Kind == notation.HalfRoll && !boxes[n-1].Cont {
		errf(boxes[n-1].Col, "impulse-half-roll", "a half roll takes two impulses and the turn has one left: fly it next turn (Sortie's ruling)")
	}
	plot := turnPlot(pt.start, flown)
	fc.res = moveWith(pt.card, pt.start, plot, loopDir(flown))
	for _, p := range wholeTurnOnly(fc.res.Errors) {
		// The plain game's checks speak of the turn's plot: point them at the manoeuvre.
		p.Col = m.Col
		fc.errors = append(fc.errors, p)
	}
	// Power and brake for the turn as a whole stay within the card (X.C).
	if plot.Power > c.Power {
		errf(0, "power", "the turn's power factors come to %d; the %s has %d this turn (seed 001 X.C.1)", plot.Power, pt.card.Name, c.Power)
	}
	if plot.Brake > c.Band.Brake {
		errf(0, "brake", "the turn's brake factors come to %d; the %s has %d (seed 001 X.C.2)", plot.Brake, pt.card.Name, c.Band.Brake)
	}
	return fc
}

// bankAt is the plane's bank after the boxes flown this turn: the bank it has now, unless boxes were
// added since.
func bankAt(pt planeTurn, flown []FlownBox) notation.Bank {
	if len(flown) == len(pt.flown) {
		return pt.bank
	}
	if len(flown) == 0 {
		return pt.start.Bank
	}
	res := moveWith(pt.card, pt.start, turnPlot(pt.start, flown), loopDir(flown))
	if len(res.Steps) == 0 {
		return pt.start.Bank
	}
	return res.Steps[len(res.Steps)-1].Bank
}

// maxPerformance says a box is a maximum-performance turn or slip, flown after only the minimum of
// hexes its turn mode asks (straight is the count before it), and names it with that minimum; "" if it
// is not. A turn straight after a slip is none (seed 001 X.E.3.b). A skid turn is a slip with a turn in
// its hex: at its minimum it is a maximum-performance slip when that minimum is the slip's own (not a
// longer turn mode's), and its turn, flown with the slip, adds nothing (X.E.3.a, b; docs/rulings.md).
func maxPerformance(c Card, b notation.Box, straight int, slipLast bool, flown []FlownBox) (string, int) {
	if b.Cont {
		return "", 0
	}
	need := c.TurnMode(b.Move, 0)
	if straight+1 != need {
		return "", 0
	}
	switch b.Move.Kind {
	case notation.Turn:
		if !afterSlip(slipLast, flown, b) {
			return "turn", need
		}
	case notation.Slip:
		return "slip", need
	case notation.SkidTurn:
		if c.TurnMode(notation.Element{Kind: notation.Slip, Side: b.Move.Side}, 0) == need {
			return "slip (in a skid turn)", need
		}
	}
	return "", 0
}

// afterSlip says a turn comes immediately after a slip: the plane's last manoeuvre before it was a slip
// or a skid turn, with only straight hexes (forwards manoeuvres included) between. Such a turn keeps the
// plain game's rule and loses no height for being flown at the minimum (seed 001 X.E.3.b; docs/rulings.md).
// slipLast is what the turn began with (PlaneImpulse.SlipLast).
func afterSlip(slipLast bool, flown []FlownBox, b notation.Box) bool {
	return b.Move.Kind == notation.Turn && lastWasSlip(slipLast, flown)
}

// lastWasSlip says the last manoeuvre flown, this turn's boxes read backwards past straight hexes and then
// what the turn began with, was a slip or a skid turn.
func lastWasSlip(slipLast bool, flown []FlownBox) bool {
	for i := len(flown) - 1; i >= 0; i-- {
		switch tok := flown[i].Token; tok {
		case "`", "1":
		case "SR", "SL", "SRTL", "SLTR":
			return true
		default:
			return false
		}
	}
	return slipLast
}

// hexesSinceManoeuvre counts the hexes flown since the last manoeuvre: the count at the start of the
// turn, then this turn's boxes.
func hexesSinceManoeuvre(start Flight, flown []FlownBox) int {
	n := start.Straight
	for _, b := range flown {
		switch b.Token {
		case "`", "1":
			n++
		case "+":
		default:
			n = 0
		}
	}
	return n
}
