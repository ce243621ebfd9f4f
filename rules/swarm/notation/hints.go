package notation

import (
	"strings"

	"sortie/parser"
)

// BlockHints is the Swarm notation's part in reading an order block (parser.Notation): a line that
// parses as a Swarm order is one whose callsign or colon is missing.
type BlockHints struct{}

var _ parser.Notation = BlockHints{}

// LooksLikeOrder reports whether text reads, without error, as a Swarm order with a plot or a fire order.
func (BlockHints) LooksLikeOrder(text string) bool {
	o, ds := ParseSwarmOrder(text)
	return !parser.HasErrors(ds) && strings.TrimSpace(o.String()) != "" && strings.TrimSpace(text) != ""
}

// ExampleOrder is a Swarm order line.
func (BlockHints) ExampleOrder() string { return "TIGER: 2 S M 2; 2 S M 2 FIRE ANY" }
