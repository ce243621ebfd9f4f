package notation

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"sortie/parser"
)

// Order is one aircraft's orders for a turn: its plot, the ground target of its attack, and its
// standing fire order.
type Order struct {
	Plot Plot
	At   GroundTarget
	Fire parser.Fire
}

// GroundTarget is the target a plot's BOMB, ROCKET or STRAFE is aimed at, written after the plot as
// `AT <callsign>`, and for STRAFE at a ship, `FLAK` or `HEAVY` to strafe its light or heavy flak
// rather than the ship (seed 002). Empty: the engine picks the target (docs/rulings.md).
type GroundTarget struct {
	Unit string
	Part string // "", "FLAK" or "HEAVY"
	Col  int    // column of AT; not part of equality
}

// String is the clause as the order prints it: "AT DD1 FLAK", or "".
func (g GroundTarget) String() string {
	if g.Unit == "" {
		return ""
	}
	if g.Part != "" {
		return "AT " + g.Unit + " " + g.Part
	}
	return "AT " + g.Unit
}

// Append appends the clause as String prints it to b.
func (g GroundTarget) Append(b []byte) []byte {
	if g.Unit == "" {
		return b
	}
	b = append(append(b, "AT "...), g.Unit...)
	if g.Part != "" {
		b = append(append(b, ' '), g.Part...)
	}
	return b
}

// String prints the order canonically; parsing it gives an equal Order.
func (o Order) String() string {
	var buf [64]byte
	return string(o.Append(buf[:0]))
}

// Append appends the order as String prints it to b: the plot, the target and the fire order, each
// that is not empty, separated by spaces.
func (o Order) Append(b []byte) []byte {
	start := len(b)
	b = o.Plot.Append(b)
	if o.At.Unit != "" {
		if len(b) > start {
			b = append(b, ' ')
		}
		b = o.At.Append(b)
	}
	if len(b) > start {
		b = append(b, ' ')
	}
	return o.Fire.Append(b)
}

// Equal compares two orders, ignoring columns.
func (o Order) Equal(x Order) bool {
	return o.Plot.Equal(x.Plot) && o.At.Unit == x.At.Unit && o.At.Part == x.At.Part && o.Fire.Equal(x.Fire)
}

// cutTarget finds an AT clause in a plot's text: the text before it, and the target it names, with
// its faults. base is the column of the text's first rune.
func cutTarget(text string, base int) (string, GroundTarget, []parser.Diagnostic) {
	if !hasATWord(text) {
		return text, GroundTarget{}, nil
	}
	return readTarget(text, base)
}

// readTarget is cutTarget without its quick look for the word AT: it reads text rune by rune.
func readTarget(text string, base int) (string, GroundTarget, []parser.Diagnostic) {
	var g GroundTarget
	var ds []parser.Diagnostic
	// Find the word AT by its rune column.
	runes := []rune(text)
	at := -1
	for i := 0; i < len(runes); i++ {
		if (i == 0 || runes[i-1] == ' ' || runes[i-1] == '\t') && i+1 < len(runes) && (runes[i] == 'A' || runes[i] == 'a') &&
			(runes[i+1] == 'T' || runes[i+1] == 't') && (i+2 == len(runes) || runes[i+2] == ' ' || runes[i+2] == '\t') {
			at = i
			break
		}
	}
	if at < 0 {
		return text, g, nil
	}
	g.Col = base + at
	errorf := func(col int, format string, args ...any) {
		ds = append(ds, parser.Diagnostic{Code: CodeAttackTarget, Col: col, Severity: parser.SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	rest := strings.Fields(string(runes[at+2:]))
	switch {
	case len(rest) == 0:
		errorf(g.Col, "AT needs the callsign of the ground unit or ship to attack, e.g. AT BRIDGE")
	case len(rest) > 2:
		errorf(g.Col, "AT names one target, then FLAK or HEAVY to strafe a ship's flak: %q is too much", strings.Join(rest, " "))
	default:
		u := strings.ToUpper(rest[0])
		if utf8.RuneCountInString(u) > parser.MaxCallsign {
			errorf(g.Col, "%q is too long for a callsign (at most %d characters)", rest[0], parser.MaxCallsign)
		} else {
			g.Unit = u
		}
		if len(rest) == 2 {
			switch p := strings.ToUpper(rest[1]); p {
			case "FLAK", "HEAVY":
				g.Part = p
			default:
				errorf(g.Col, "after the target, write FLAK or HEAVY to strafe a ship's light or heavy flak, not %q", rest[1])
			}
		}
	}
	return string(runes[:at]), g, ds
}

// hasATWord reports whether text holds the word AT (any case) between spaces or tabs, as cutTarget looks
// for it: most plots have none, and are then read without a copy. Spaces, tabs and the letters are
// ASCII, which UTF-8 never uses inside another character, so looking at bytes finds what looking at
// runes finds.
func hasATWord(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		if (i == 0 || text[i-1] == ' ' || text[i-1] == '\t') && text[i]|0x20 == 'a' && text[i+1]|0x20 == 't' &&
			(i+2 == len(text) || text[i+2] == ' ' || text[i+2] == '\t') {
			return true
		}
	}
	return false
}

// ParseOrder reads one aircraft's order: a plot, then optionally a fire clause. The fire clause is
// `HOLD`, or `FIRE` followed by a target (`ANY` or a callsign), then optionally `GUNS` and a comma list of
// gun positions, then optionally `MAX` and a range in hexes (1-8). Without a fire clause the order reads
// as FIRE ANY, and Fire.Default says so. Columns in the diagnostics count from the start of text.
func ParseOrder(text string) (Order, []parser.Diagnostic) {
	var o Order
	cut, col := parser.FireStart(text)
	plotText, fireText := text, ""
	if cut >= 0 {
		plotText, fireText = text[:cut], text[cut:]
	}
	plotText, at, ads := cutTarget(plotText, 1)
	p, ds := ParsePlot(plotText)
	o.Plot, o.At = p, at
	ds = append(ds, ads...)
	if at.Col > 0 && !parser.HasErrors(ads) {
		switch {
		case !p.Bomb && !p.Rocket && !p.Strafe:
			ds = append(ds, parser.Diagnostic{Code: CodeAttackTarget, Col: at.Col, Severity: parser.SeverityError,
				Message: "AT names the target of BOMB, ROCKET or STRAFE, and the plot has none of them"})
		case at.Part != "" && !p.Strafe:
			ds = append(ds, parser.Diagnostic{Code: CodeAttackTarget, Col: at.Col, Severity: parser.SeverityError,
				Message: at.Part + " after the target is for STRAFE: only strafing picks a ship's flak"})
		}
	}
	if cut < 0 {
		o.Fire = parser.Fire{Mode: parser.FireAny, Default: true}
		return o, ds
	}
	f, fds := parser.ParseFire(fireText, col)
	o.Fire = f
	return o, append(ds, fds...)
}

// ParseOrderLine reads one line of an order block, "<callsign>: <plot> [fire order]", and returns the
// callsign in upper case and the order. Columns count from the start of the line.
func ParseOrderLine(line string) (string, Order, []parser.Diagnostic) {
	return parseOrderLine(line, "its plot, e.g. RED1: 2R 1 TR FIRE ANY", ParseOrder, func(o *Order, offset int) *parser.Fire {
		if o.At.Col > 0 {
			o.At.Col += offset
		}
		for k := range o.Plot.Elements {
			o.Plot.Elements[k].Col += offset
		}
		for k, v := range o.Plot.FlagCols {
			o.Plot.FlagCols[k] = v + offset
		}
		return &o.Fire
	})
}

// parseOrderLine reads "<callsign>: <order>" with parse, then counts the columns of the order and of
// its diagnostics from the start of the line: shift moves the order's own columns by offset and gives
// its fire clause, whose column moves too. shape ends the message for a line without a colon.
func parseOrderLine[O any](line, shape string, parse func(string) (O, []parser.Diagnostic), shift func(o *O, offset int) *parser.Fire) (string, O, []parser.Diagnostic) {
	cs, text, offset, ds, ok := splitOrderLine(line, shape)
	if !ok {
		var none O
		return "", none, ds
	}
	o, ods := parse(text)
	for _, d := range ods {
		if d.Col > 0 {
			d.Col += offset
		}
		ds = append(ds, d)
	}
	if f := shift(&o, offset); f.Col > 0 {
		f.Col += offset
	}
	return cs, o, ds
}

// splitOrderLine splits "<callsign>: <order>" at its colon: the callsign in upper case, the order's text,
// the column offset of that text in the line, and the line's own faults; ok is false without a colon.
// shape ends the message for a line without one ("its plot, e.g. RED1: 2R 1 TR").
func splitOrderLine(line, shape string) (cs, text string, offset int, ds []parser.Diagnostic, ok bool) {
	i := strings.IndexByte(line, ':')
	if i < 0 {
		return "", "", 0, []parser.Diagnostic{{Code: parser.CodeOrderLine, Col: 1, Severity: parser.SeverityError,
			Message: "an order line is the aircraft's callsign, a colon, then " + shape}}, false
	}
	cs = strings.ToUpper(strings.TrimSpace(line[:i]))
	if cs == "" || utf8.RuneCountInString(cs) > parser.MaxCallsign || strings.IndexFunc(cs, func(r rune) bool { return !parser.IsWordRune(r) }) >= 0 {
		ds = append(ds, parser.Diagnostic{Code: parser.CodeOrderLine, Col: 1, Severity: parser.SeverityError,
			Message: fmt.Sprintf("%q is not a callsign: callsigns are letters, digits, - and _", strings.TrimSpace(line[:i]))})
	}
	return cs, line[i+1:], utf8.RuneCountInString(line[:i+1]), ds, true
}
