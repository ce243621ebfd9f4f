// Package tnl is the Thunderbolt & Lightning ruleset (seed 003, Mark Cleaver's fast-play rules for twenty
// aircraft and more): units of aircraft that share an initiative roll, two movement and two combat
// phases a turn, a fly-straight rating, coloured dice for firepower, saving rolls, four altitude levels,
// pilot skills, AA guns and attacks on ships. By mail every unit plots its whole turn at once; the turn
// then plays out in initiative order as the seed says (docs/tnl.md).
package tnl

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"sortie/parser"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/tnl/notation"
)

// Ruleset is Thunderbolt & Lightning behind the common interface. Its zero value uses the shipped data.
type Ruleset struct{}

// Name is "tnl".
func (Ruleset) Name() string { return "tnl" }

// BlockNotation gives the order block the notation's hints (ruleset.Hinter).
func (Ruleset) BlockNotation() parser.Notation { return notation.BlockHints{} }

// UnitNoun names the units in mails (ruleset.Vocabulary).
func (Ruleset) UnitNoun() (string, string) { return "unit", "units" }

// shipped is Thunderbolt & Lightning's NewGame, Load and Version: its shipped data, its scenarios, its saved states.
func shipped() ruleset.Shipped[*Data, *Scenario, State] {
	return ruleset.Shipped[*Data, *Scenario, State]{Name: "tnl", Data: DefaultData,
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

// Version names the rules data games depend on: "tnl@sha256:…" over the shipped data.
func (Ruleset) Version() (string, error) { return shipped().Version() }

// checkSaved readies a state read back: every side has its sightings, and every aircraft's type is
// in the data.
func checkSaved(d *Data, st *State) error {
	st.Sight = ruleset.SightFor(st.Sight, st.Sides)
	for _, a := range st.Aircraft {
		if _, ok := d.Sheet(a.Type); !ok {
			return fmt.Errorf("has an aircraft of unknown type %q", a.Type)
		}
	}
	return nil
}

type game struct {
	d  *Data
	st *State
}

func (g *game) Save() ([]byte, error) { return g.st.JSON() }
func (g *game) Hash() string          { return g.st.Hash() }
func (g *game) Name() string          { return g.st.Scenario }
func (g *game) Round() int            { return g.st.Turn }
func (g *game) RoundLimit() int       { return g.st.TurnLimit }
func (g *game) Over() (bool, string)  { return ruleset.OverText(g.st.Over, g.st.Outcome, g.st.Sides) }
func (g *game) Players() []ruleset.Player {
	return append([]ruleset.Player(nil), g.st.Players...)
}

// Units lists the player's units with aircraft in the air.
func (g *game) Units(player string) []string {
	var out []string
	for i := range g.st.Units {
		u := &g.st.Units[i]
		if u.Player == player && len(g.st.Flying(u)) > 0 {
			out = append(out, u.Name)
		}
	}
	return out
}

// CheckOrder reads one unit's order and checks it against that unit only, with a forecast of where each
// aircraft ends each phase (nothing about anyone else). It is the plotting board's plan without the track
// and the reach: one code path (plan.go).
func (g *game) CheckOrder(player, unit, text string) ruleset.OrderCheck {
	return g.plan(player, unit, text, false).Check
}

func invText(inv bool) string {
	if inv {
		return ", inverted"
	}
	return ""
}

// DefaultOrder is what a unit flies when no order came.
func (g *game) DefaultOrder(unit string) string {
	u := g.st.UnitNamed(unit)
	if u == nil {
		return ""
	}
	return DefaultOrder(g.d, g.st, u).String()
}

// Resolve plays the turn.
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

// Report builds one player's report from their side's view only.
func (g *game) Report(player string, log *ruleset.Log) ruleset.Report {
	side := g.st.SideOf(player)
	v := ViewOf(g.st, side)
	r := ruleset.NewReport(side, v.Turn, v.Over, log)
	if v.Over && v.Outcome != nil {
		r.Result = v.Outcome.Text(g.st.Sides)
	}
	var mine []Event
	if events, ok := ruleset.Events[Event](log); ok {
		mine = EventsFor(g.st, side, events)
		for _, e := range mine {
			r.Event(e.Text)
			for _, p := range e.Problems {
				r.Problem(p.Col, p.Message)
			}
		}
		r.Roll(diceOf(mine)...)
	}
	for i := range v.Units {
		u := &v.Units[i]
		for _, cs := range u.Members {
			a := v.Plane(cs)
			sh, _ := g.d.Sheet(a.Type)
			unit := ruleset.Unit{Name: a.Callsign, Type: a.Type}
			if !a.InPlay() {
				unit.Summary = string(a.Status)
				r.Own = append(r.Own, unit)
				continue
			}
			fs := FS(sh, a, v.LoadedModifiers)
			unit.Summary = fmt.Sprintf("unit %s: hex %s facing %s, %s%s, speed %d; %s, FS %d, %s, SR %d+, hits %d of %d",
				u.Name, a.Hex, a.Facing, a.Level, invText(a.Inverted), a.Speed, topSpeedText(sh.SP, [2]int{PhaseMax(sh, a, 0, v.LoadedModifiers), PhaseMax(sh, a, 1, v.LoadedModifiers)}),
				fs, firepowerText(sh), sh.SR, a.Hits, sh.Hits)
			var traits []string
			traits = append(traits, sh.Name, a.Training+" pilot")
			if len(a.Skills) > 0 {
				traits = append(traits, "skills "+strings.Join(a.Skills, ", "))
			}
			if a.Gunsight != "" {
				traits = append(traits, a.Gunsight+" gun sight")
			}
			if a.Loaded {
				traits = append(traits, "carrying "+a.Load)
			}
			traits = append(traits, fmt.Sprintf("dive %+d/%+d, climb %+d/%+d, up to %s", sh.Dive[0], sh.Dive[1], sh.Climb[0], sh.Climb[1], sh.MaxLevel))
			unit.Detail = append(unit.Detail, strings.Join(traits, "; "))
			r.Own = append(r.Own, unit)
		}
		if fl := v.Flying(u); u.Player == player && len(fl) > 0 && !v.Over {
			r.OrderLines = append(r.OrderLines, u.Name+": "+defaultOrder(g.d, v.LoadedModifiers, fl, u.Fire).String())
		}
	}
	for _, e := range v.Enemies {
		sh, _ := g.d.Sheet(e.Type)
		flying := "" // its speed only when the side watched it fly (seenAircraft)
		if e.Speed > 0 {
			flying = fmt.Sprintf(", seen flying %d hexes a phase", e.Speed)
		}
		unit := ruleset.Unit{Name: e.Callsign, Type: e.Type,
			Summary: fmt.Sprintf("%s: hex %s facing %s, %s%s%s%s", sh.Name, e.Hex, e.Facing, e.Level, invText(e.Inverted), flying, damageText(e.Hits))}
		// From the three nearest of the side's aircraft: a line from each of twenty would bury the rest.
		var from []*Aircraft
		for _, cs := range r.Own {
			if o := v.Plane(cs.Name); o != nil && o.InPlay() {
				from = append(from, o)
			}
		}
		sort.SliceStable(from, func(i, j int) bool {
			return hexmap.Distance(from[i].Hex, e.Hex) < hexmap.Distance(from[j].Hex, e.Hex)
		})
		for _, o := range from[:min(3, len(from))] {
			where := fmt.Sprintf("at %d o'clock", hexmap.Clock(o.Hex, o.Facing, e.Hex))
			level := "same level"
			if o.Level != e.Level {
				level = "at " + e.Level.String()
			}
			unit.Detail = append(unit.Detail, fmt.Sprintf("from %s: %d hexes %s, %s", o.Callsign, hexmap.Distance(o.Hex, e.Hex), where, level))
		}
		r.Contacts = append(r.Contacts, unit)
	}
	for _, gr := range v.Ground {
		u := ruleset.Unit{Name: gr.Callsign, Type: gr.Kind, Summary: fmt.Sprintf("%s of %s: hex %s facing %s", gr.Kind, gr.Side, gr.Hex, gr.Facing)}
		if gr.Kind == "ship" {
			u.Summary += fmt.Sprintf(", speed %d", gr.Speed)
			if gr.Sunk() {
				u.Summary += ", sunk"
			} else if gr.Side == side {
				u.Summary += fmt.Sprintf(", damage %d of %d points", gr.Damage, gr.Points)
			}
		}
		if gr.Side == side && !gr.AA.Empty() {
			u.Detail = append(u.Detail, fmt.Sprintf("AA guns: heavy %d, medium %d, light %d, very light %d%s", gr.AA.Heavy, gr.AA.Medium, gr.AA.Light, gr.AA.VeryLight, map[bool]string{true: ", radar controlled"}[gr.Radar]))
		}
		r.Ground = append(r.Ground, u)
	}
	r.Scene = sceneOf(v, player, mine)
	r.Map = r.Scene.ASCII()
	return r
}

func damageText(hits int) string {
	if hits == 0 {
		return ""
	}
	return fmt.Sprintf(", smoking (%d hit%s)", hits, plural(hits))
}

func firepowerText(sh *Sheet) string {
	s := sh.Fixed.String()
	var flex []string
	for _, m := range sh.Flexible {
		p := ""
		if m.Pivot {
			p = " pivot"
		}
		flex = append(flex, m.Colour.String()+p)
	}
	if len(flex) > 0 {
		s += " forward, flexible " + strings.Join(flex, ", ")
	}
	return "firepower " + s
}

// Withdraw takes a player's aircraft out of the game.
func (g *game) Withdraw(player string) (ruleset.Game, error) {
	st := g.st.Clone()
	for i := range st.Aircraft {
		if a := &st.Aircraft[i]; a.Player == player && a.InPlay() {
			a.Status = Withdrawn
		}
	}
	updateSight(st, nil)
	if out := checkVictory(st); out != nil && !st.Over {
		st.Over, st.Outcome = true, out
	}
	return &game{d: g.d, st: st}, nil
}
