package ruleset

import (
	"encoding/json"
	"fmt"
	"strings"

	"sortie/parser"
	"sortie/rules/dice"
)

// What follows helps a ruleset's adapter: reading its saved state and writing a player's report.

// DecodeState reads a state saved as JSON into st and checks that ruleset name saved it: saved points
// at st's own ruleset field.
func DecodeState(data []byte, name string, st any, saved *string) error {
	if err := json.Unmarshal(data, st); err != nil {
		return fmt.Errorf("%s: reading a saved game: %w", name, err)
	}
	if *saved != name {
		return fmt.Errorf("%s: the saved game is for ruleset %q", name, *saved)
	}
	return nil
}

// NewReport starts a player's report: the side, the round to order next, whether the game is over, the
// round just resolved when log is not nil, and empty (not nil) lists.
func NewReport(side string, next int, over bool, log *Log) Report {
	r := Report{Side: side, NextRound: next, Over: over,
		Own: []Unit{}, Contacts: []Unit{}, Events: []string{}, Dice: []string{}, OrderLines: []string{}}
	if log != nil {
		r.Round = log.Round
	}
	return r
}

// Events decodes a round's events into the ruleset's event type: false when there is no log or its
// events cannot be read.
func Events[E any](log *Log) ([]E, bool) {
	if log == nil {
		return nil, false
	}
	var events []E
	if err := json.Unmarshal(log.Events, &events); err != nil {
		return nil, false
	}
	return events, true
}

// Event adds an event's line to the report.
func (r *Report) Event(line string) { r.Events = append(r.Events, line) }

// Problem adds, under the event just added, one problem of the order it is about.
func (r *Report) Problem(col int, msg string) {
	r.Events = append(r.Events, fmt.Sprintf("    column %d: %s", col, msg))
}

// Roll adds dice to the report's dice lines.
func (r *Report) Roll(rolls ...dice.Roll) {
	for _, d := range rolls {
		r.Dice = append(r.Dice, d.String())
	}
}

// Add adds a problem the parser or the rules found with an order: an error or a warning, its message
// ending with the suggestion "(did you mean …?)" unless it names it already.
func (c *OrderCheck) Add(isError bool, code, msg string, col int, suggestion string) {
	if suggestion != "" && !strings.Contains(msg, suggestion) {
		msg += fmt.Sprintf(" (did you mean %s?)", suggestion)
	}
	p := Problem{Code: code, Message: msg, Col: col}
	if isError {
		c.Errors = append(c.Errors, p)
	} else {
		c.Warnings = append(c.Warnings, p)
	}
}

// Diagnosed adds what the parser said about an order (errors and warnings, with their suggestions) and
// reports whether the order read without an error, so the rules may check it.
func (c *OrderCheck) Diagnosed(ds []parser.Diagnostic) bool {
	for _, d := range ds {
		c.Add(d.Severity == parser.SeverityError, d.Code, d.Message, d.Col, d.Suggestion)
	}
	return !parser.HasErrors(ds)
}

// NewOrderCheck is an order check with empty (not nil) lists of errors and warnings.
func NewOrderCheck() OrderCheck {
	return OrderCheck{Errors: []Problem{}, Warnings: []Problem{}}
}

// OverText is what Game.Over answers for a state: whether the game is over, and its outcome's text when
// there is one.
func OverText(over bool, o *Outcome, sides []string) (bool, string) {
	if !over || o == nil {
		return over, ""
	}
	return true, o.Text(sides)
}
