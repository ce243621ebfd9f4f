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
	i := strings.IndexByte(line, ':')
	if i < 0 {
		return "", Order{}, []parser.Diagnostic{{Code: parser.CodeOrderLine, Col: 1, Severity: parser.SeverityError,
			Message: "an order line is the aircraft's callsign, a colon, then its plot, e.g. RED1: 2R 1 TR FIRE ANY"}}
	}
	cs := strings.ToUpper(strings.TrimSpace(line[:i]))
	var ds []parser.Diagnostic
	if cs == "" || utf8.RuneCountInString(cs) > parser.MaxCallsign || strings.IndexFunc(cs, func(r rune) bool { return !parser.IsWordRune(r) }) >= 0 {
		ds = append(ds, parser.Diagnostic{Code: parser.CodeOrderLine, Col: 1, Severity: parser.SeverityError,
			Message: fmt.Sprintf("%q is not a callsign: callsigns are letters, digits, - and _", strings.TrimSpace(line[:i]))})
	}
	offset := utf8.RuneCountInString(line[:i+1])
	o, ods := ParseOrder(line[i+1:])
	for _, d := range ods {
		if d.Col > 0 {
			d.Col += offset
		}
		ds = append(ds, d)
	}
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
