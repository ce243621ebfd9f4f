// Package swarm is the Swarm ruleset (seed 004, Kenneth M. Van Pelt's squadron-level rules on the Gnatz
// system): each piece is a squadron with a plotting board (speed, manoeuvre and altitude tacks) and a row
// of pips whose firepower falls from 3D6 to 2D6 to 1D6 as they are filled. By mail every squadron plots
// its turn at once; the turn then plays out in initiative order, each squadron moving and firing in turn
// (docs/rulings.md: Swarm; docs/swarm.md).
package swarm

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"sortie/parser"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/swarm/notation"
)

// Ruleset is Swarm behind the common interface (invariant 5, docs/architecture.md). Its zero value uses the shipped
// types and house tables.
type Ruleset struct{}

// Name is "swarm".
// BlockNotation gives the order block the notation's hints (ruleset.Hinter).
func (Ruleset) BlockNotation() parser.Notation { return notation.BlockHints{} }

func (Ruleset) Name() string { return "swarm" }

// shipped is Swarm's NewGame, Load and Version: its shipped data, its scenarios, its saved states.
func shipped() ruleset.Shipped[*Data, *Scenario, State] {
	return ruleset.Shipped[*Data, *Scenario, State]{Name: "swarm", Data: DefaultData,
		Sum: func(d *Data) string { return d.sum }, Parse: ParseScenario, Start: NewGame,
		Saved: func(st *State) *string { return &st.Ruleset }, Check: checkSaved,
		Game: func(d *Data, st *State) ruleset.Game { return &game{d: d, st: st} }}
}

// NewGame checks a scenario and builds its first turn.
func (Ruleset) NewGame(scenario []byte, _ fs.FS, source string) (ruleset.Game, error) {
	return shipped().NewGame(scenario, source)
}

// Load reads a state saved by Save.
func (Ruleset) Load(data []byte) (ruleset.Game, error) { return shipped().Load(data) }

// Version names the rules data games depend on: "swarm@sha256:…" over the shipped data.
func (Ruleset) Version() (string, error) { return shipped().Version() }

// checkSaved readies a state read back: every side has its sightings, and every squadron's type is
// in the data.
func checkSaved(d *Data, st *State) error {
	st.Sight = ruleset.SightFor(st.Sight, st.Sides)
	for _, q := range st.Squadrons {
		if _, ok := d.Type(q.Type); !ok {
			return fmt.Errorf("has a squadron of unknown type %q", q.Type)
		}
	}
	return nil
}

type game struct {
	d  *Data
	st *State
}

// State returns the game's state (for tests and tools in this module).
func (g *game) State() *State { return g.st }

func (g *game) Save() ([]byte, error) { return g.st.JSON() }
func (g *game) Hash() string          { return g.st.Hash() }
func (g *game) Name() string          { return g.st.Scenario }
func (g *game) Round() int            { return g.st.Turn }
func (g *game) RoundLimit() int       { return g.st.TurnLimit }

func (g *game) Over() (bool, string) { return ruleset.OverText(g.st.Over, g.st.Outcome, g.st.Sides) }

func (g *game) Players() []ruleset.Player { return append([]ruleset.Player(nil), g.st.Players...) }

// Units lists the player's squadrons in play that need an order: those not flying a plotted course.
func (g *game) Units(player string) []string {
	var out []string
	for _, q := range g.st.Squadrons {
		if q.Player == player && q.InPlay() && len(q.Queue) == 0 {
			out = append(out, q.Callsign)
		}
	}
	return out
}

// CheckOrder reads one squadron's order and checks it against that squadron only, with a turn-by-turn
// forecast from the squadron's own position (nothing about anyone else). It is the plotting board's plan
// without the track and the reach: one code path (plan.go).
func (g *game) CheckOrder(player, unit, text string) ruleset.OrderCheck {
	return g.plan(player, unit, text, false).Check
}

// Preview writes the forecast of turns flown from start, one line per turn, first turn numbered turn.
func Preview(turn int, start Position, moves []MoveResult) []string {
	var l ruleset.Lines
	appendPreview(&l, turn, start, moves)
	return l.Strings()
}

// appendPreview writes Preview's lines to l, each as
// "turn %d: tack %s (%s) from %s facing %s: %s; ends in %s facing %s", the path being the hex each
// segment enters and token→facing for each facing change.
func appendPreview(l *ruleset.Lines, turn int, start Position, moves []MoveResult) {
	l.Grow(len(moves), 96)
	pos := start
	for i, m := range moves {
		b := strconv.AppendInt(append(l.B, "turn "...), int64(turn+i), 10)
		b = m.Tack.Append(append(b, ": tack "...))
		b = append(append(append(b, " ("...), bandName(m.Tack.Band)...), ") from "...)
		b = append(append(pos.Hex.Append(b), " facing "...), pos.Facing.String()...)
		b = append(b, ": "...)
		for k, s := range m.Steps {
			if k > 0 {
				b = append(b, ' ')
			}
			if s.Token == "1" {
				b = s.Hex.Append(b)
			} else {
				b = append(append(append(b, s.Token...), "→"...), s.Facing.String()...)
			}
		}
		b = m.End.Hex.Append(append(b, "; ends in "...))
		l.B = append(append(b, " facing "...), m.End.Facing.String()...)
		l.End()
		pos = m.End
	}
}

// DefaultOrder is what a squadron flies when no order came: straight on at its speed and band, firing at
// will, for one turn (a squadron without sight of the enemy is asked again next turn).
func (g *game) DefaultOrder(unit string) string {
	q := g.st.Squadron(unit)
	if q == nil {
		return ""
	}
	// Without an enemy in sight a squadron's order must be a course of several turns (seed 004, "Cloud
	// Cover"), so the default is the shortest such course: an order the squadron could have been given.
	return readyLine(q)
}

// readyLine is the order line a report offers for a squadron: the default turn, repeated for the
// shortest course when the squadron has no enemy in sight.
func readyLine(q *Squadron) string {
	line := turnText(DefaultTurn(q))
	if q.Contact {
		return line
	}
	turns := make([]string, MinCourse)
	for i := range turns {
		turns[i] = line
	}
	return strings.Join(turns, "; ")
}

// Resolve plays the round. Orders that do not parse are treated as missing (the adjudicator stores only
// orders that passed CheckOrder).
func (g *game) Resolve(orders map[string]string, d dice.Source) (ruleset.Game, *ruleset.Log, error) {
	before := len(d.Log())
	next, events, err := Resolve(g.d, g.st, orders, d)
	if err != nil {
		return nil, nil, err
	}
	log, err := ruleset.RoundLog(g.st.Turn, events, d, before, func(e Event) (string, bool) { return e.Player, e.Kind == EvNMR })
	if err != nil {
		return nil, nil, err
	}
	return &game{d: g.d, st: next}, log, nil
}

// Report builds one player's report from their side's view only (invariant 4, docs/architecture.md).
func (g *game) Report(player string, log *ruleset.Log) ruleset.Report {
	st := g.st
	side := st.SideOf(player)
	v := ViewOf(st, side)
	r := ruleset.NewReport(side, st.Turn, st.Over, log)
	if log != nil {
		// A round flies on through the turns of the squadrons' plotted courses: it is named by the turns
		// it played (ruleset.Report.Title), from its first (log.Round) to the one before the next to order.
		r.LastTurn = st.Turn - 1
	}
	if st.Over {
		r.Result = outcomeText(st)
	}
	var mine []Event
	if events, ok := ruleset.Events[Event](log); ok {
		mine = EventsFor(st, side, events)
		several := false
		for _, e := range mine {
			several = several || e.Turn != log.Round
		}
		for _, e := range mine {
			line := e.Text
			if several {
				line = fmt.Sprintf("turn %d: %s", e.Turn, line)
			}
			r.Event(line)
			for _, p := range e.Problems {
				r.Problem(p.Col, p.Message)
			}
		}
		r.Roll(diceOf(mine)...)
	}
	for i := range v.Own {
		q := &v.Own[i]
		t, _ := g.d.Type(q.Type)
		u := ruleset.Unit{Name: q.Callsign, Type: q.Type}
		if !q.InPlay() {
			u.Summary = string(q.Status)
			r.Own = append(r.Own, u)
			continue
		}
		u.Summary = fmt.Sprintf("hex %s facing %s, tack %s (%s), firepower %dD6, %s",
			q.Pos.Hex, q.Pos.Facing, q.Tack, bandName(q.Tack.Band), t.Firepower(q.Filled), pipsText(t, q.Filled))
		var traits []string
		if q.Name != "" {
			traits = append(traits, q.Name)
		}
		traits = append(traits, t.Name, q.Pilots+" pilots")
		if t.MaxSpeed() < 3 {
			traits = append(traits, fmt.Sprintf("speeds 1-%d", t.MaxSpeed()))
		}
		if t.Durable {
			traits = append(traits, "durable (+1 evasive saves)")
		}
		if t.RearGunner {
			traits = append(traits, "rear gunner")
		}
		if t.Bomber {
			if q.Bombed {
				traits = append(traits, "bomber, bombs dropped")
			} else {
				traits = append(traits, "bomber, bombs aboard")
			}
		}
		u.Detail = append(u.Detail, strings.Join(traits, "; "))
		if n := len(q.Queue); n > 0 {
			u.Detail = append(u.Detail, fmt.Sprintf("flying its plotted course: %d more turn%s (%s)", n, plural(n), strings.Join(q.Queue, "; ")))
		} else if !q.Contact {
			u.Detail = append(u.Detail, fmt.Sprintf("no enemy in sight (visibility %d hexes): plot %d to %d turns at once", st.Visibility, MinCourse, MaxCourse))
		}
		if q.Player == player && len(q.Queue) == 0 && !st.Over {
			r.OrderLines = append(r.OrderLines, q.Callsign+": "+readyLine(q))
		}
		r.Own = append(r.Own, u)
	}
	for _, c := range v.Enemies {
		u := ruleset.Unit{Name: c.Callsign, Type: "squadron",
			Summary: fmt.Sprintf("hex %s facing %s, %s", c.Pos.Hex, c.Pos.Facing, bandName(c.Band))}
		for _, q := range v.Own {
			if !q.InPlay() {
				continue
			}
			d := hexmap.Distance(q.Pos.Hex, c.Pos.Hex)
			where := fmt.Sprintf("at %d o'clock", hexmap.Clock(q.Pos.Hex, q.Pos.Facing, c.Pos.Hex))
			if InFieldOfFire(q.Pos.Hex, q.Pos.Facing, c.Pos.Hex) {
				where = "in its field of fire"
			}
			band := "same band"
			if q.Tack.Band != c.Band {
				band = "other band"
			}
			u.Detail = append(u.Detail, fmt.Sprintf("from %s: %d hexes, %s, %s", q.Callsign, d, where, band))
		}
		r.Contacts = append(r.Contacts, u)
	}
	r.Scene = sceneOf(v, player, mine)
	r.Map = r.Scene.ASCII()
	return r
}

// Withdraw takes a player's squadrons out of the game (a player who dropped out).
func (g *game) Withdraw(player string) (ruleset.Game, error) {
	st := g.st.Clone()
	for i := range st.Squadrons {
		if q := &st.Squadrons[i]; q.Player == player && q.InPlay() {
			q.Status, q.Queue = Withdrawn, nil
		}
	}
	updateSight(st, nil)
	if out := checkVictory(st); out != nil && !st.Over {
		st.Over, st.Outcome = true, out
	}
	return &game{d: g.d, st: st}, nil
}
