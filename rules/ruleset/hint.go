package ruleset

import "sortie/parser"

// Hinter is a ruleset whose order notation helps read an order block: asked whether a line the block
// cannot place reads as an order, it lets the hint name the missing callsign or colon and show an order
// line in that game's own notation. Without it the hints are generic.
type Hinter interface {
	BlockNotation() parser.Notation
}
