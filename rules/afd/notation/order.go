package notation

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"sortie/parser"
)

// Order is one aircraft's orders for a turn: its plot and its standing fire order.
type Order struct {
	Plot Plot
	Fire parser.Fire
}

// String prints the order canonically; parsing it gives an equal Order.
func (o Order) String() string {
	p := o.Plot.String()
	if p == "" {
		return o.Fire.String()
	}
	return p + " " + o.Fire.String()
}

// Equal compares two orders, ignoring columns.
func (o Order) Equal(x Order) bool { return o.Plot.Equal(x.Plot) && o.Fire.Equal(x.Fire) }

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
	p, ds := ParsePlot(plotText)
	o.Plot = p
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
	cs, text, offset, ds, ok := splitOrderLine(line, "its plot, e.g. RED1: 2R 1 TR FIRE ANY")
	if !ok {
		return "", Order{}, ds
	}
	o, ods := ParseOrder(text)
	ds = shiftDiagnostics(ds, ods, offset)
	if o.Fire.Col > 0 {
		o.Fire.Col += offset
	}
	for k := range o.Plot.Elements {
		o.Plot.Elements[k].Col += offset
	}
	for k, v := range o.Plot.FlagCols {
		o.Plot.FlagCols[k] = v + offset
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

// shiftDiagnostics appends the order's diagnostics to the line's, their columns moved by offset.
func shiftDiagnostics(ds, order []parser.Diagnostic, offset int) []parser.Diagnostic {
	for _, d := range order {
		if d.Col > 0 {
			d.Col += offset
		}
		ds = append(ds, d)
	}
	return ds
}
