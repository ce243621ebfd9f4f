// Package ruleset is the one interface every game system implements (invariant 5, docs/architecture.md: rulesets
// are peers). The adjudicator runs games only through it: it stores a game's state as the bytes the
// ruleset saves, asks the ruleset to check each order, to resolve a round, and to tell each side what it
// may know. So a new ruleset touches nothing outside rules/ but a line in rules/registry.
package ruleset

import (
	"io/fs"

	"sortie/rules/dice"
	"sortie/rules/hex"
)

// Ruleset creates and loads games of one system.
type Ruleset interface {
	// Name is the ruleset's key in scenarios and the registry, e.g. "afd".
	Name() string
	// NewGame checks a scenario (YAML) and returns its first state; every problem is in the error. Files
	// it includes (a tables file, say) are read from files, the scenario's own folder, and only from
	// there: rules code reads no disk of its own. files is nil for a scenario that may include nothing.
	NewGame(scenario []byte, files fs.FS, source string) (Game, error)
	// Load reads a state written by Game.Save.
	Load(state []byte) (Game, error)
	// Version names the rules data games of this ruleset depend on (cards, tables), for archives.
	Version() (string, error)
}

// Player is a seat in a game as the scenario names it: a person playing one side.
type Player struct {
	ID   string `json:"id" yaml:"id"`
	Name string `json:"name" yaml:"name"`
	Side string `json:"side" yaml:"side"`
}

// Problem is one thing wrong with an order, positioned in the order text (Col counts runes from 1; 0
// means the whole order).
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Col     int    `json:"column"`
}

// OrderCheck is what the ruleset says about one unit's order: how it read it, where it takes the unit
// (for the receipt's forecast, from the player's own knowledge only), and what is wrong with it.
type OrderCheck struct {
	Canonical string    `json:"canonical"`
	Preview   []string  `json:"preview"`
	Errors    []Problem `json:"errors"`
	Warnings  []Problem `json:"warnings"`
}

// OK reports whether the order can be stored.
func (c OrderCheck) OK() bool { return len(c.Errors) == 0 }

// Game is one game's state between rounds. Implementations are values: methods never change the
// receiver; Resolve returns a new Game.
type Game interface {
	// Save is the canonical serialisation: the same state always gives the same bytes.
	Save() ([]byte, error)
	// Hash is the SHA-256 of Save, in hex. It is for the archive's chain of states, never for a
	// player: a plain hash lets anyone who knows the open engine test guesses of hidden units against
	// it. Players are shown the adjudicator's keyed commitment instead.
	Hash() string
	// Name is the scenario's name.
	Name() string
	// Round is the number of the round to be ordered next (the game turn for most rulesets).
	Round() int
	// RoundLimit is the last round, 0 if none.
	RoundLimit() int
	// Over says whether the game has ended, and how.
	Over() (bool, string)
	Players() []Player
	// Units lists the units a player must give orders for this round.
	Units(player string) []string
	// CheckOrder reads and validates the order text for one of the player's units against that unit
	// only.
	CheckOrder(player, unit, text string) OrderCheck
	// DefaultOrder is the order a unit follows when none came (docs/rulings.md: NMR), as canonical text.
	DefaultOrder(unit string) string
	// Resolve plays the round from the given orders (canonical texts by unit; missing units follow
	// their default) with the dice given, and returns the next state and the round's log.
	Resolve(orders map[string]string, d dice.Source) (Game, *Log, error)
	// Report is what one player may know after a round: built from that player's side's view only.
	// log is the round just resolved, or nil for the opening report.
	Report(player string, log *Log) Report
}

// Log is a resolved round: the ruleset's own events (opaque JSON, kept in the archive) and every die
// thrown.
type Log struct {
	Round  int         `json:"round"`
	Events []byte      `json:"events"`
	Dice   []dice.Roll `json:"dice"`
	// Missed lists the players who sent no order for some unit (announced to everyone).
	Missed []string `json:"missed,omitempty"`
}

// Report is one player's report, ready for a template: plain lines the ruleset wrote from the player's
// view.
type Report struct {
	Side      string `json:"side"`
	Round     int    `json:"round"`      // the round just resolved (0 for the opening report)
	NextRound int    `json:"next_round"` // the round to order next
	Own       []Unit `json:"own"`
	Contacts  []Unit `json:"contacts"`
	// Ground holds the trucks, tanks, ships and targets the side sees, its own and the enemy's.
	Ground []Unit   `json:"ground,omitempty"`
	Events []string `json:"events"`
	Dice   []string `json:"dice"`
	Map    string   `json:"map"`
	// Scene is the same view as data for the report's map picture (package rules/hex/picture draws it);
	// nil when the ruleset draws none.
	Scene  *hex.Scene `json:"scene,omitempty"`
	Over   bool       `json:"over"`
	Result string     `json:"result"`
	// OrderLines are the lines of a ready-to-fill order block for the next round, one per unit.
	OrderLines []string `json:"order_lines"`
	// Noun is the game's word for a round, where it is not "turn" (RoundNoun: the impulse game's
	// "round"); LastTurn is the last game turn the round played, where a round may play several (a
	// Swarm squadron's plotted course: round 1 played turns 1 to 3) or is not a turn; When is where the
	// game's clock stood after a round that is not a turn, in its rules' words ("turn 1, impulse 6").
	// Title, NextTitle and Played name the rounds from them (naming.go).
	Noun     string `json:"noun,omitempty"`
	LastTurn int    `json:"last_turn,omitempty"`
	When     string `json:"when,omitempty"`
}

// Picture is the report's map picture as data: the ruleset's Scene with the report's events as its
// caption, so the picture tells the round on its own. nil when the ruleset draws none.
func (r *Report) Picture() *hex.Scene {
	if r.Scene == nil {
		return nil
	}
	sc := *r.Scene
	sc.Caption = append([]string(nil), r.Events...)
	if r.Over && r.Result != "" {
		sc.Caption = append(sc.Caption, r.Result)
	}
	return &sc
}

// Unit is one line (and its details) about a unit in a report.
type Unit struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Summary string   `json:"summary"`
	Detail  []string `json:"detail"`
}

// Withdrawer is a game whose ruleset can take a player's units out of play: what happens when a player
// drops out under the dropout NMR policy. A ruleset without it keeps flying the units on their default
// orders.
type Withdrawer interface {
	Withdraw(player string) (Game, error)
}
