package notation

import (
	"strconv"

	"sortie/parser"
)

// The Delta-T impulse game (seed 001, docs/notation.md: impulse orders) replaces the turn's plot by one
// complete manoeuvre at a time, written impulse by impulse: each of the plane's active impulses gets one
// box, and a manoeuvre is the boxes from the first hex after the previous manoeuvre to the one that
// completes it. An impulse order is one or more manoeuvres (queued, flown one after the other) and a
// standing fire order.

// Box is one impulse of a manoeuvre: the movement made in it and what the player wrote beside it.
type Box struct {
	// Move is the movement of the impulse: a straight hex (Kind Straight, N 1) or a manoeuvre token.
	// A half roll records two movement points and so fills two impulses: its second box is a Straight
	// with Cont set.
	Move Element
	// Forwards marks the forwards manoeuvre `1` (seed 001 X.E.1): one hex ahead, complete in itself.
	Forwards bool
	// Cont marks the second impulse of a two-point token (a half roll): no notation of its own.
	Cont bool
	// Alt is the altitude written for the impulse: AltAbs says it is absolute (feet above the ground,
	// "12900"), otherwise a change in feet ("+1", "-2" are +100 and -200); AltSet says one was written.
	Alt    int
	AltAbs bool
	AltSet bool
	// Power and Brake are the factors applied in this impulse (seed 001 X.C).
	Power, Brake int
	// Bomb releases the plane's bombs in this impulse (seed 001 VIII).
	Bomb    bool
	BombCol int
	// Rocket fires the plane's rockets and Strafe its fixed guns at a ground target in this impulse's
	// bomb phase (seed 002, seed 001 VIII).
	Rocket, Strafe bool
	// Col is the 1-based column (in runes) of the box's movement token in the order text.
	Col int
	// AltCol, PowerCol and BrakeCol are the columns of the figures, 0 when not written.
	AltCol, PowerCol, BrakeCol int
}

// Manoeuvre is one complete manoeuvre: its boxes in impulse order.
type Manoeuvre struct {
	Boxes []Box
	// Col is the column of the manoeuvre's first token.
	Col int
}

// ImpulseOrder is one aircraft's order in an impulse game: manoeuvres to fly one after the other, and
// the standing fire order.
type ImpulseOrder struct {
	Manoeuvres []Manoeuvre
	Fire       parser.Fire
}

// Last is the box that completes the manoeuvre.
func (m Manoeuvre) Last() Box { return m.Boxes[len(m.Boxes)-1] }

// Impulses is the number of active impulses the manoeuvre takes.
func (m Manoeuvre) Impulses() int { return len(m.Boxes) }

// Plot is the manoeuvre as a plot of the plain game: its movement elements (straight hexes joined),
// its power and brake factors summed. The altitude is left to the impulse rules.
func (m Manoeuvre) Plot() Plot {
	var p Plot
	for _, b := range m.Boxes {
		if b.Cont {
			continue
		}
		e := b.Move
		if e.Kind == Straight {
			if k := len(p.Elements) - 1; k >= 0 && p.Elements[k].Kind == Straight {
				p.Elements[k].N++
				continue
			}
			e.N = 1
		}
		p.Elements = append(p.Elements, e)
	}
	for _, b := range m.Boxes {
		p.Power += b.Power
		p.Brake += b.Brake
	}
	return p
}

// String prints the manoeuvre canonically: one token per impulse, "`" for a straight hex inside a
// manoeuvre, "1" for the forwards manoeuvre, each followed by its altitude and factors.
func (m Manoeuvre) String() string {
	var buf [64]byte
	return string(m.Append(buf[:0]))
}

// Append appends the manoeuvre as String prints it to b.
func (m Manoeuvre) Append(b []byte) []byte {
	first := true
	for _, x := range m.Boxes {
		if x.Cont {
			continue
		}
		if !first {
			b = append(b, ' ')
		}
		first = false
		switch {
		case x.Forwards:
			b = append(b, '1')
		case x.Move.Kind == Straight:
			b = append(b, '`')
		default:
			b = append(b, x.Move.Token()...)
		}
		if x.AltSet {
			switch {
			case x.AltAbs:
				b = strconv.AppendInt(append(b, ' '), int64(x.Alt), 10)
			case x.Alt >= 0:
				b = strconv.AppendInt(append(b, " +"...), int64(x.Alt/100), 10)
			default:
				b = strconv.AppendInt(append(b, ' '), int64(x.Alt/100), 10)
			}
		}
		if x.Power > 0 {
			b = append(append(b, ' '), repeatFactor("P", x.Power)...)
		}
		if x.Brake > 0 {
			b = append(append(b, ' '), repeatFactor("K", x.Brake)...)
		}
		if x.Bomb {
			b = append(b, " BOMB"...)
		}
		if x.Rocket {
			b = append(b, " ROCKET"...)
		}
		if x.Strafe {
			b = append(b, " STRAFE"...)
		}
	}
	return b
}

// String prints the order canonically: the manoeuvres separated by "; ", then the fire order. Parsing
// the result gives an equal order.
func (o ImpulseOrder) String() string {
	var buf [64]byte
	return string(o.Append(buf[:0]))
}

// Append appends the order as String prints it to b.
func (o ImpulseOrder) Append(b []byte) []byte {
	start := len(b)
	for i, m := range o.Manoeuvres {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = m.Append(b)
	}
	if len(b) > start {
		b = append(b, ' ')
	}
	return o.Fire.Append(b)
}
