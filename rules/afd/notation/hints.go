package notation

import "sortie/parser"

// BlockHints is the plot notation's part in reading an order block (parser.Notation): a line that
// parses as a plot or fire order is one whose callsign or colon is missing.
type BlockHints struct{}

var _ parser.Notation = BlockHints{}

// LooksLikeOrder reports whether text reads as a plot or a fire order: it has an element or a fire
// clause, and every word in it is a word of the notation (mistakes in how they are written, such as
// TRTR, still count as an order).
func (BlockHints) LooksLikeOrder(text string) bool {
	o, ds := ParseOrder(text)
	if len(o.Plot.Elements) == 0 && o.Fire.Default {
		return false
	}
	for _, d := range ds {
		switch d.Code {
		case parser.CodeUnknownToken, parser.CodeNonASCII, parser.CodePunctuation, parser.CodeBadChar, parser.CodeEmpty, parser.CodeTooLong:
			return false
		}
	}
	return true
}

// ExampleOrder is an Air Force order line.
func (BlockHints) ExampleOrder() string { return "RED1: 2R 1 TR FIRE ANY" }
