// Package parser turns players' text into structure. This file holds the Air Force / Dauntless plot: the
// movement line of one aircraft for one turn, in the classic log notation (docs/rulings.md: plot notation). The
// parser knows nothing about aircraft: it yields a Plot, and the rules decide whether the plane can fly it.
package notation

import (
	"strconv"
	"strings"
)

// Kind is what one plot element does.
type Kind int

const (
	Straight  Kind = iota // N hexes straight ahead (a digit run)
	Turn                  // TR / TL: enter the hex ahead, then turn 30° to Side
	Slip                  // SR / SL: enter the hex to Side (seed 000 rule (9))
	SkidTurn              // SRTL / SLTR: slip to Side plus a 30° turn to the other side (rule (10))
	HalfRoll              // HR / HL (also RR / RL): two hexes displaced to Side, bank inverted (rules (4), (9), (11))
	HalfLoop              // V: 180° reversal, bank N<->I (rule (5))
	Immelmann             // VRR / VLL: 120° toward Side, bank inverted keeping its side (rule (6))
	BankTo                // RB LB N I IR IL: roll to the named attitude (rule (2))
	Roll                  // BR / BL: roll one point toward Side (rule (2))
)

// Side is the side of a manoeuvre: +1 right, -1 left (the same values as hex.Side).
type Side int

const (
	Right Side = 1
	Left  Side = -1
)

func (s Side) letter() string { return s.pick("L", "R") }

// pick is left for the left side, right otherwise: a token's spelling, written out whole so that
// naming a manoeuvre costs nothing.
func (s Side) pick(left, right string) string {
	if s == Left {
		return left
	}
	return right
}

// Bank is a bank attitude named in a plot (docs/rulings.md: bank circle).
type Bank int

const (
	BankN  Bank = iota // level
	BankRB             // right bank
	BankIR             // inverted right
	BankI              // inverted (flat)
	BankIL             // inverted left
	BankLB             // left bank
)

var bankNames = [...]string{"N", "RB", "IR", "I", "IL", "LB"}

func (b Bank) String() string {
	if b < 0 || int(b) >= len(bankNames) {
		return "?"
	}
	return bankNames[b]
}

// ParseBank reads a bank attitude name (upper case).
func ParseBank(s string) (Bank, bool) {
	for i, n := range bankNames {
		if n == s {
			return Bank(i), true
		}
	}
	return 0, false
}

// Element is one token of the plot's movement.
type Element struct {
	Kind Kind
	N    int  // Straight: number of hexes (>= 1)
	Side Side // Turn, Slip, SkidTurn (the slip's side), HalfRoll, Immelmann, Roll
	Bank Bank // BankTo: the attitude reached
	Col  int  // 1-based column (in runes) of the token in the plot text; not part of equality
	// Alias records that the player wrote an accepted alias (bare R/L, RR/RL) so echoes can say so;
	// it is not part of equality.
	Alias string
}

// MPs is the number of movement points the element records.
func (e Element) MPs() int {
	switch e.Kind {
	case Straight:
		return e.N
	case HalfRoll:
		return 2
	default:
		return 1
	}
}

// Token is the canonical text of the element.
func (e Element) Token() string {
	switch e.Kind {
	case Straight:
		return strconv.Itoa(e.N)
	case Turn:
		return e.Side.pick("TL", "TR")
	case Slip:
		return e.Side.pick("SL", "SR")
	case SkidTurn:
		return "S" + e.Side.letter() + "T" + (-e.Side).letter()
	case HalfRoll:
		return e.Side.pick("HL", "HR")
	case HalfLoop:
		return "V"
	case Immelmann:
		return e.Side.pick("VLL", "VRR")
	case BankTo:
		return e.Bank.String()
	case Roll:
		return e.Side.pick("BL", "BR")
	}
	return "?"
}

// IsManeuver reports whether the element is a manoeuvre for turn-mode counting (docs/rulings.md: turn modes
// count from the previous manoeuvre of any kind, banks included).
func (e Element) IsManeuver() bool { return e.Kind != Straight }

// Plot is one aircraft's movement for one turn.
type Plot struct {
	Elements []Element
	Steep    bool // STEEP (or SC / SD): steep climb or dive, by the sign of Alt (rules (18), (19))
	Vert     bool // VERT (or VD): vertical dive (rule (20))
	Bomb     bool // BOMB: release bombs this turn (rule (21))
	Rocket   bool // ROCKET: fire the plane's rocket salvos at a ground target (seed 002)
	Strafe   bool // STRAFE: fire the fixed guns at a ground target (seed 002)
	Power    int  // power factors applied (P = 1, PP = 2, P3 = 3 ...)
	Brake    int  // brake factors applied (K = 1, KK = 2, K3 = 3 ...)
	Alt      int  // altitude change in feet, a multiple of 100; 0 = no figure given
	// FlagCols holds the columns of the turn flags and adjustments, for positioned errors from the
	// rules: keys "STEEP", "VERT", "BOMB", "P", "K", "ALT". Not part of equality.
	FlagCols map[string]int
}

// MPs is the number of movement points the plot records.
func (p Plot) MPs() int {
	n := 0
	for _, e := range p.Elements {
		n += e.MPs()
	}
	return n
}

// Col returns the column of a flag or adjustment ("STEEP", "VERT", "BOMB", "P", "K", "ALT"), or 0.
func (p Plot) Col(flag string) int { return p.FlagCols[flag] }

// Equal compares two plots, ignoring columns and alias notes.
func (p Plot) Equal(o Plot) bool {
	if p.Steep != o.Steep || p.Vert != o.Vert || p.Bomb != o.Bomb || p.Rocket != o.Rocket || p.Strafe != o.Strafe || p.Power != o.Power ||
		p.Brake != o.Brake || p.Alt != o.Alt || len(p.Elements) != len(o.Elements) {
		return false
	}
	for i, e := range p.Elements {
		f := o.Elements[i]
		if e.Kind != f.Kind || e.N != f.N || e.Side != f.Side || e.Bank != f.Bank {
			return false
		}
	}
	return true
}

// String prints the plot in canonical form: movement tokens separated by spaces, then STEEP, VERT,
// BOMB, power, brake and the altitude figure in feet. Parsing the result gives an equal Plot.
func (p Plot) String() string { return string(p.Append(nil)) }

// Append appends the plot as String prints it to b.
func (p Plot) Append(b []byte) []byte {
	start := len(b)
	word := func(w string) {
		if len(b) > start {
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	for _, e := range p.Elements {
		word(e.Token())
	}
	if p.Steep {
		word("STEEP")
	}
	if p.Vert {
		word("VERT")
	}
	if p.Bomb {
		word("BOMB")
	}
	if p.Rocket {
		word("ROCKET")
	}
	if p.Strafe {
		word("STRAFE")
	}
	if p.Power > 0 {
		word(repeatFactor("P", p.Power))
	}
	if p.Brake > 0 {
		word(repeatFactor("K", p.Brake))
	}
	if p.Alt != 0 {
		sign := ""
		if p.Alt > 0 {
			sign = "+"
		}
		word(sign)
		b = strconv.AppendInt(b, int64(p.Alt), 10)
	}
	return b
}

func repeatFactor(letter string, n int) string {
	if n <= 2 {
		return strings.Repeat(letter, n)
	}
	return letter + strconv.Itoa(n)
}
