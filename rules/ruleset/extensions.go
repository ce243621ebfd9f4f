package ruleset

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"text/tabwriter"

	"sortie/parser"
	"sortie/rules/hex"
)

// What follows are the optional parts of a ruleset: interfaces a Ruleset value may also implement for
// what only some game systems offer. The service and the command line find them by type assertion
// through the registry, so they never name a game.

// Command is one command a ruleset adds to the command line: a calculator subcommand (`sortie calc
// NAME`) or a top-level one (`sortie NAME`).
type Command struct {
	// Name is the word that selects it, e.g. "move".
	Name string
	// Synopsis is its one line in `sortie --help`, e.g. "fly a plot and show it hex by hex".
	Synopsis string
	// Run runs it with the arguments after its name, writing its answer to stdout. It returns a
	// UsageError for a mistake in the command line and ErrIllegal when the answer was printed but
	// breaks a rule (exit statuses 2 and 1).
	Run func(args []string, stdout io.Writer) error
}

// Calculator is a ruleset with a rules calculator: `sortie calc NAME --ruleset RULESET ...`.
type Calculator interface {
	CalcCommands() []Command
}

// Tools is a ruleset with top-level commands of its own, e.g. a list of its aircraft.
type Tools interface {
	Commands() []Command
}

// Bundled is a ruleset that ships scenarios: a folder of NAME.yaml files (and the files they include),
// one of which a demo plays by default.
type Bundled interface {
	// Scenarios is the folder of bundled scenarios.
	Scenarios() fs.FS
	// DefaultScenario names the scenario `sortie demo` plays when none is asked for.
	DefaultScenario() string
}

// DemoPilot is a ruleset whose games `sortie demo` can play by mail: given the text of a report and
// the ready-to-fill order block it carries, it returns the order block a player would send back
// (usually the block with some orders changed), or "" to send nothing for this round.
type DemoPilot interface {
	DemoOrders(report, block string) string
}

// Vocabulary is a ruleset that names its units for the mails: e.g. "aircraft"/"aircraft" or
// "squadron"/"squadrons". Without it the mails say "unit"/"units".
type Vocabulary interface {
	UnitNoun() (singular, plural string)
}

// UnitNouns returns a ruleset's words for its units, or "unit"/"units".
func UnitNouns(r Ruleset) (singular, plural string) {
	if v, ok := r.(Vocabulary); ok {
		if s, p := v.UnitNoun(); s != "" && p != "" {
			return s, p
		}
	}
	return "unit", "units"
}

// ErrIllegal is what a Command returns when its answer was printed but breaks a rule.
var ErrIllegal = errors.New("illegal")

// UsageError is a mistake in a command line.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

// CalcProblem is a problem as the calculators print it in their JSON answers.
type CalcProblem struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	Column     int    `json:"column"`
	Suggestion string `json:"suggestion,omitempty"`
}

// CalcDiagnosed adds what the parser said about an order to a calculator's answer, the errors to errs
// and the warnings to warnings (dropped when warnings is nil), and reports whether the order read
// without an error.
func CalcDiagnosed(errs, warnings *[]CalcProblem, ds []parser.Diagnostic) bool {
	for _, d := range ds {
		p := CalcProblem{Code: d.Code, Message: d.Message, Column: d.Col, Suggestion: d.Suggestion}
		if d.Severity == parser.SeverityError {
			*errs = append(*errs, p)
		} else if warnings != nil {
			*warnings = append(*warnings, p)
		}
	}
	return !parser.HasErrors(ds)
}

// DescribeProblem is a calculator problem as one line of text: the column, the message, the suggestion.
func DescribeProblem(p CalcProblem) string {
	s := p.Message
	if p.Column > 0 {
		s = fmt.Sprintf("column %d: %s", p.Column, s)
	}
	if p.Suggestion != "" && !strings.Contains(s, p.Suggestion) {
		s += fmt.Sprintf(" (did you mean %s?)", p.Suggestion)
	}
	return s
}

// WriteJSON writes v as a calculator's JSON answer: indented by two spaces, a newline at the end.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteTable writes a calculator's table after a blank line: header, then n rows (row writes row i),
// the columns two spaces apart; nothing when n is 0.
func WriteTable(w io.Writer, header string, n int, row func(tw io.Writer, i int)) {
	if n == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for i := range n {
		row(tw, i)
	}
	tw.Flush()
}

// PluralS is "s" unless n is 1.
func PluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ParseCommandFlags parses a command's flags the way every calculator does: a bad flag is a usage
// error followed by the command's help, --help prints the help (done is then true), and a stray
// argument is a usage error, with hint after it when the command has a likely cause to name.
func ParseCommandFlags(fs *flag.FlagSet, args []string, name, help, hint string, stdout io.Writer) (done bool, err error) {
	fs.SetOutput(io.Discard)
	asked := fs.Bool("help", false, "")
	if err := fs.Parse(args); err != nil {
		return false, Usagef("%s: %v\n\n%s", name, err, help)
	}
	if *asked {
		fmt.Fprint(stdout, help)
		return true, nil
	}
	if fs.NArg() > 0 {
		if hint != "" {
			hint = " " + hint
		}
		return false, Usagef("%s: unexpected argument %q%s", name, fs.Arg(0), hint)
	}
	return false, nil
}

// Selective is a game whose rounds may concern only some of its players: the Delta-T impulse game stops
// whenever an aircraft has completed its manoeuvre, and only its owner is asked for the next. When
// AsksOnly is true, the service mails the round's report only to the players who have units to order
// (Units), and to everyone once the game is over; the others hear nothing until they are asked, and
// their next report carries what they saw meanwhile.
type Selective interface {
	AsksOnly() bool
}

// ReportsTo says whether a player gets a report after a round of g: always, unless g asks only some
// players and this one has nothing to order.
func ReportsTo(g Game, player string) bool {
	if over, _ := g.Over(); over {
		return true
	}
	if s, ok := g.(Selective); ok && s.AsksOnly() {
		return len(g.Units(player)) > 0
	}
	return true
}

// RoundNamer is a game whose rounds are not its turns: the Delta-T impulse game's rounds are the stops
// of its engine, many to a turn. RoundNoun is the word the mails use for a round ("round"); without it
// they say "turn".
type RoundNamer interface {
	RoundNoun() string
}

// RoundNoun is g's word for a round: "turn" unless g says otherwise.
func RoundNoun(g Game) string {
	if n, ok := g.(RoundNamer); ok {
		if w := n.RoundNoun(); w != "" {
			return w
		}
	}
	return "turn"
}

// TurnKeeper is a game whose rounds do not say which game turn it has reached (the impulse game's
// stops): LastTurn is the last game turn played, in whole or in part (0 before the first).
type TurnKeeper interface {
	LastTurn() int
}

// LastTurn is the last game turn g has played, in whole or in part: for most games the turn before the
// round to order next (Round), 0 before the first.
func LastTurn(g Game) int {
	if t, ok := g.(TurnKeeper); ok {
		return t.LastTurn()
	}
	return max(g.Round()-1, 0)
}

// DiceStreamer is a game whose dice are not keyed by its rounds: in the impulse game the engine stops
// more often when a hidden enemy finishes more manoeuvres, so dice keyed by the stop would differ with
// the enemy's hidden moves. DiceStream names the stream the next round draws from ("" for the round's
// own); the game's roll labels must then be unique across rounds (the impulse game's carry turn and
// impulse).
type DiceStreamer interface {
	DiceStream() string
}

// DiceStream is the stream g's next round draws from, "" for the round's own.
func DiceStream(g Game) string {
	if d, ok := g.(DiceStreamer); ok {
		return d.DiceStream()
	}
	return ""
}

// Standing is a game in which a player may also give orders to units the rounds do not wait for: an Air
// Force game's flak guns, which fire on their own unless their side orders otherwise. An order for
// such a unit is checked by CheckOrder like any other, passed to Resolve with the round's orders, and
// stands until the player writes another; a round never waits for one, and none is ever missed.
type Standing interface {
	StandingUnits(player string) []string
}

// OrderableUnits is every unit a player may give an order this round: those the round waits for, then
// the standing ones.
func OrderableUnits(g Game, player string) []string {
	out := g.Units(player)
	if s, ok := g.(Standing); ok {
		out = append(append([]string(nil), out...), s.StandingUnits(player)...)
	}
	return out
}

// Piloted is a game whose ruleset has a computer pilot: it writes orders for a player's units from that
// player's side's view alone (never the state), as canonical order texts by unit. The service uses it for
// the autopilot NMR policy and for bot seats.
type Piloted interface {
	PilotOrders(player string) map[string]string
}

// WriteVerdict ends a calculator's text answer on an order: each warning on a line of its own, then
// "Legal.", or "Illegal:" and each error on a line.
func WriteVerdict(w io.Writer, legal bool, warnings, errs []CalcProblem) {
	for _, p := range warnings {
		fmt.Fprintf(w, "Warning:  %s\n", DescribeProblem(p))
	}
	if legal {
		fmt.Fprintln(w, "Legal.")
		return
	}
	fmt.Fprintln(w, "Illegal:")
	for _, p := range errs {
		fmt.Fprintf(w, "  - %s\n", DescribeProblem(p))
	}
}

// Verdict is what a calculator's command returns for an order: ErrIllegal when it is not legal.
func Verdict(legal bool) error {
	if legal {
		return nil
	}
	return ErrIllegal
}

// Planner is a game whose orders can be tried on the plotting board (docs/web.md): before sending a
// plot, a player sees on the map where it takes the unit and what it could attack from there. Plan
// answers for one order text exactly what CheckOrder answers (the receipt's own check: one code path,
// never a copy), with the track and the reach added. Like CheckOrder it reads the player's own unit and
// what the side has seen, nothing else: two games that differ only in what the side could not see give
// the same Plan (the conformance kit's twins check it).
type Planner interface {
	Plan(player, unit, text string) Plan
	// PlotHelp is a few short lines on how an order for this unit is written in the ruleset's own
	// notation (the impulse game's, a flak gun's, a squadron's course), shown beside its plot field.
	PlotHelp(player, unit string) []string
}

// Plan is one order tried on the plotting board.
type Plan struct {
	// Check is CheckOrder's answer for the same player, unit and text, field for field.
	Check OrderCheck `json:"check"`
	// Path is the hexes the unit passes through in order, from the hex it starts in to the hex it ends
	// in (a unit that stays has one hex); empty when the order cannot be read far enough to fly it. A
	// plot that breaks a rule is still flown as far as it reads, so the player sees where it goes wrong.
	Path []hex.Hex `json:"path,omitempty"`
	// Facing is the unit's facing at the end of Path, when Faced.
	Facing hex.Dir `json:"facing"`
	Faced  bool    `json:"faced"`
	// Reach says, a line each, what the unit could attack from where the plot ends: the enemy units as
	// the side last saw them that would be in its weapons' range and arc, or that none would be. Empty
	// for a unit with nothing to attack with.
	Reach []string `json:"reach,omitempty"`
}
