package afd

import (
	"fmt"
	"io/fs"
	"maps"
	"sort"
	"strings"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// Ruleset is the Air Force / Dauntless ruleset behind the common interface (invariant 5, docs/architecture.md).
type Ruleset struct {
	Env *Env // the shipped cards and house tables; a scenario's tables file replaces tables per game
}

// Name is "afd".
// BlockNotation gives the order block the notation's hints (ruleset.Hinter).
func (Ruleset) BlockNotation() parser.Notation { return notation.BlockHints{} }

func (Ruleset) Name() string { return "afd" }

// NewGame checks a scenario and builds its first turn. A tables file the scenario names (relative to
// source's folder) is read now and kept in the state, so the game resolves the same way wherever it is
// archived or re-run.
func (r Ruleset) NewGame(scenario []byte, files fs.FS, source string) (ruleset.Game, error) {
	s, err := ParseScenario(scenario, source)
	if err != nil {
		return nil, err
	}
	st, err := NewGame(s, r.Env.Cards)
	if err != nil {
		return nil, err
	}
	env := r.Env
	if s.Options.Tables != "" {
		data, err := ruleset.ReadInclude(files, s.Options.Tables)
		if err != nil {
			return nil, fmt.Errorf("%s: tables: %w", source, err)
		}
		st.TablesData = string(data)
		if env, err = r.envFor(st); err != nil {
			return nil, err
		}
	}
	return &game{env: env, st: st}, nil
}

func (r Ruleset) envFor(st *State) (*Env, error) {
	if st.TablesData == "" {
		return r.Env, nil
	}
	t, err := r.Env.Tables.With(map[string][]byte{st.Options.Tables: []byte(st.TablesData)})
	if err != nil {
		return nil, err
	}
	return &Env{Cards: r.Env.Cards, Tables: t}, nil
}

// Load reads a state saved by Save.
func (r Ruleset) Load(data []byte) (ruleset.Game, error) {
	var st State
	if err := ruleset.DecodeState(data, "afd", &st, &st.Ruleset); err != nil {
		return nil, err
	}
	if st.Sight == nil {
		st.Sight = map[string]map[string]Sighting{}
	}
	env, err := r.envFor(&st)
	if err != nil {
		return nil, err
	}
	return &game{env: env, st: &st}, nil
}

type game struct {
	env *Env
	st  *State
}

func (g *game) Save() ([]byte, error) { return g.st.JSON() }
func (g *game) Hash() string          { return g.st.Hash() }
func (g *game) Name() string          { return g.st.Scenario }

// Round is the turn to plot next; in an impulse game, the engine's stop to be ordered next.
func (g *game) Round() int {
	if g.st.Clock != nil {
		return g.st.Clock.Stop + 1
	}
	return g.st.Turn
}

// RoundLimit is the turn limit; an impulse game's stops have none (its turns do).
func (g *game) RoundLimit() int {
	if g.st.Clock != nil {
		return 0
	}
	return g.st.TurnLimit
}

func (g *game) Over() (bool, string) { return ruleset.OverText(g.st.Over, g.st.Outcome, g.st.Sides) }

func outcomeText(st *State) string { return st.Outcome.Text(st.Sides) }

func (g *game) Players() []ruleset.Player { return append([]ruleset.Player(nil), g.st.Players...) }

// StandingUnits are the player's flak units that can still fire: their orders stand until changed, and
// no round waits for them (ruleset.Standing).
func (g *game) StandingUnits(player string) []string {
	var out []string
	for i := range g.st.Ground {
		if u := &g.st.Ground[i]; u.Player == player && u.flakCrews() {
			out = append(out, u.Callsign)
		}
	}
	return out
}

// withFlakOrders takes the flak orders out of a round's orders and gives them to their units, on a
// copy of the state: the rest are the planes'.
func (g *game) withFlakOrders(orders map[string]string) (*State, map[string]string) {
	return g.takeOrders(orders, func(st *State, unit string) bool {
		u := st.groundUnit(unit)
		return u != nil && u.Flak != nil
	}, func(st *State, unit, text string) {
		_ = st.setFlakOrder(unit, text) // checked when it came in; one that no longer holds is dropped
	})
}

// takeOrders takes the orders of the units mine picks out of a round's orders and gives each to its
// unit with give, on a copy of the state made at the first: the rest are for others. With none, the
// state and the orders are the game's own.
func (g *game) takeOrders(orders map[string]string, mine func(st *State, unit string) bool, give func(st *State, unit, text string)) (*State, map[string]string) {
	st, rest := g.st, orders
	for unit, text := range orders {
		if !mine(st, unit) {
			continue
		}
		if st == g.st {
			st, rest = g.st.Clone(), maps.Clone(orders)
		}
		delete(rest, unit)
		give(st, unit, text)
	}
	return st, rest
}

// Units are the player's planes a round waits for: in the plain game those in play, in the impulse
// game those waiting for a manoeuvre.
func (g *game) Units(player string) []string {
	asks := (*Plane).InPlay
	if g.st.Options.Impulse {
		asks = (*Plane).NeedsOrders
	}
	var out []string
	for i := range g.st.Planes {
		if p := &g.st.Planes[i]; p.Player == player && asks(p) {
			out = append(out, p.Callsign)
		}
	}
	return out
}

func problems(ps []Problem) []ruleset.Problem {
	out := []ruleset.Problem{}
	for _, p := range ps {
		out = append(out, ruleset.Problem{Code: p.Code, Message: p.Message, Col: p.Col})
	}
	return out
}

// CheckOrder reads one aircraft's order and checks it against that aircraft only, giving the player the
// hex-by-hex forecast of the plot (from the plane's own state: nothing about anyone else). It is the
// plotting board's check without the board's additions (check, Plan).
func (g *game) CheckOrder(player, unit, text string) ruleset.OrderCheck {
	return g.check(player, unit, text, nil)
}

// check is CheckOrder and, when po is not nil, the plotting board's plan of the same order (plan.go):
// one code path for the receipt and the board.
func (g *game) check(player, unit, text string, po *planOut) ruleset.OrderCheck {
	out := ruleset.NewOrderCheck()
	if u := g.st.groundUnit(strings.ToUpper(unit)); u != nil {
		return g.checkFlakOrder(player, u, text, out, po)
	}
	p := g.st.Plane(strings.ToUpper(unit))
	if p == nil || p.Player != player {
		out.Errors = append(out.Errors, ruleset.NotYours(strings.ToUpper(unit), "aircraft", g.Units(player)))
		return out
	}
	if !p.InPlay() {
		out.Errors = append(out.Errors, ruleset.Problem{Code: "not-flying", Message: fmt.Sprintf("%s is %s and takes no more orders", p.Callsign, p.Status)})
		return out
	}
	if g.st.Options.Impulse {
		return g.impulseCheck(p, text, out, po)
	}
	o, ds := notation.ParseOrder(text)
	if !out.Diagnosed(ds) {
		if po != nil {
			g.planReadable(p, text, ds, po)
		}
		return out
	}
	card, ok := g.env.Card(p.Type)
	if !ok {
		out.Errors = append(out.Errors, ruleset.Problem{Code: "card", Message: "no card for " + p.Type})
		return out
	}
	// Flown into a buffer of the check's own, the plot keeps no speed log: the forecast does not show one.
	r := checkOrder(card, p.Flight, o, make([]Step, 0, o.Plot.MPs()))
	out.Errors = append(out.Errors, problems(r.Errors)...)
	out.Errors = append(out.Errors, problems(orderAttackProblems(g.st, p, card, o))...)
	out.Warnings = append(out.Warnings, problems(r.Warnings)...)
	if o.Fire.Default {
		out.Warnings = append(out.Warnings, ruleset.Problem{Code: "fire-default", Message: "no fire order given: read as FIRE ANY (write HOLD to hold fire)"})
	}
	out.Canonical, out.Preview = checkText(o, r)
	if po != nil {
		po.flown(p.Flight.Hex, r.Steps, r.End.Facing)
		po.reach = g.planeReach(p, card, r.End, r.End.Alt-p.Flight.Alt, o)
	}
	return out
}

func (g *game) DefaultOrder(unit string) string {
	p := g.st.Plane(unit)
	if p == nil {
		return ""
	}
	if g.st.Options.Impulse {
		return g.impulseDefault(p)
	}
	card, ok := g.env.Card(p.Type)
	if !ok {
		return ""
	}
	return notation.Order{Plot: DefaultPlot(card, p.Flight), Fire: parser.Fire{Mode: parser.FireAny}}.String()
}

// Resolve plays the turn. Orders that do not parse are treated as missing (the adjudicator stores only
// orders that passed CheckOrder).
func (g *game) Resolve(orders map[string]string, d dice.Source) (ruleset.Game, *ruleset.Log, error) {
	if g.st.Options.Impulse {
		return g.impulseResolve(orders, d)
	}
	st, orders := g.withFlakOrders(orders)
	parsed := parseOrders(orders, notation.ParseOrder, (*Plane).InPlay, st)
	before := len(d.Log())
	next, events, err := Resolve(g.env, st, parsed, d)
	if err != nil {
		return nil, nil, err
	}
	log, err := roundLog(g.st.Turn, events, d, before)
	if err != nil {
		return nil, nil, err
	}
	return &game{env: g.env, st: next}, log, nil
}

// Report builds one player's report from their side's view only (invariant 4, docs/architecture.md).
func (g *game) Report(player string, log *ruleset.Log) ruleset.Report {
	st := g.st
	side := st.SideOf(player)
	v := ViewOf(st, side)
	r := ruleset.NewReport(side, g.Round(), st.Over, log)
	if st.Over && st.Outcome != nil {
		r.Result = outcomeText(st)
	}
	var seen []Event
	if st.Options.Impulse {
		if st.Clock != nil {
			seen = st.Clock.Unseen[player]
		}
	} else if events, ok := ruleset.Events[Event](log); ok {
		seen = EventsFor(st, side, events)
	}
	eventLines(&r, side, seen, st.Options)
	for _, p := range v.Own {
		card, _ := g.env.Card(p.Type)
		f := p.Flight
		u := ruleset.Unit{Name: p.Callsign, Type: p.Type}
		if p.InPlay() {
			u.Summary = fmt.Sprintf("hex (%d,%d) facing %s, %s ft, speed %.1f, bank %s", f.Hex.Q, f.Hex.R, f.Facing, feetText(f.Alt), f.Speed.Float(), f.Bank)
		} else {
			u.Summary = string(p.Status)
		}
		if card != nil {
			var dmg []string
			for i, s := range card.Systems {
				if i < len(p.Damage) && p.Damage[i] > 0 {
					dmg = append(dmg, fmt.Sprintf("%s %d/%d", s.Name, min(p.Damage[i], s.Boxes), s.Boxes))
				}
			}
			if len(dmg) > 0 {
				u.Detail = append(u.Detail, "damage: "+strings.Join(dmg, ", "))
			}
			var ammo []string
			for _, gpos := range card.Guns {
				ammo = append(ammo, fmt.Sprintf("%s %d", gpos.ID, p.Ammo.Left(gpos.ID)))
			}
			if len(ammo) > 0 && p.InPlay() {
				u.Detail = append(u.Detail, "ammunition (bursts): "+strings.Join(ammo, ", "))
			}
		}
		if f.Loaded && p.InPlay() {
			u.Detail = append(u.Detail, "loaded")
		}
		if p.Rockets > 0 && p.InPlay() {
			u.Detail = append(u.Detail, fmt.Sprintf("rockets: %d salvo%s", p.Rockets, plural(p.Rockets)))
		}
		if f.NoPower && p.InPlay() {
			u.Detail = append(u.Detail, "engine out: no power, flies as loaded")
		}
		if p.InPlay() {
			last := []string{}
			if f.Last.SteepClimb {
				last = append(last, "steep climb")
			}
			if f.Last.SteepDive {
				last = append(last, "steep dive")
			}
			if f.Last.Vert {
				last = append(last, "vertical dive")
			}
			if f.Last.DiveFt > 0 && !f.Last.SteepDive && !f.Last.Vert {
				last = append(last, "dived "+feetText(f.Last.DiveFt)+" ft")
			}
			if f.Last.Power {
				last = append(last, "used power")
			}
			if len(last) > 0 {
				u.Detail = append(u.Detail, "last turn: "+strings.Join(last, ", "))
			}
			if f.Straight < Plenty {
				u.Detail = append(u.Detail, fmt.Sprintf("hexes since last manoeuvre: %d", f.Straight))
			}
			u.Detail = append(u.Detail, impulseDetail(st, &p)...)
			u.Detail = append(u.Detail, groundDetail(st, g.env, &p)...)
			if p.Player == player && (!st.Options.Impulse || p.NeedsOrders()) {
				r.OrderLines = append(r.OrderLines, p.Callsign+": "+g.DefaultOrder(p.Callsign))
			}
		}
		r.Own = append(r.Own, u)
	}
	for _, c := range v.Enemies {
		typ := c.Type
		if typ == "" {
			typ = "unidentified"
		}
		u := ruleset.Unit{Name: c.Callsign, Type: typ,
			Summary: fmt.Sprintf("hex (%d,%d) facing %s, %s ft", c.Hex.Q, c.Hex.R, c.Facing, feetText(c.Alt))}
		for _, p := range v.Own {
			if p.InPlay() {
				u.Detail = append(u.Detail, fmt.Sprintf("from %s: %d hexes at %d o'clock", p.Callsign, hexmap.Distance(p.Flight.Hex, c.Hex), hexmap.Clock(p.Flight.Hex, p.Flight.Facing, c.Hex)))
			}
		}
		r.Contacts = append(r.Contacts, u)
	}
	for _, u := range v.Ground {
		unit := ruleset.Unit{Name: u.Callsign, Type: u.Kind + ", yours", Summary: fmt.Sprintf("hex (%d,%d) facing %s", u.Hex.Q, u.Hex.R, u.Facing)}
		if !moves(u.Kind) {
			unit.Summary = fmt.Sprintf("hex (%d,%d)", u.Hex.Q, u.Hex.R)
		}
		if u.Damage != strike.NoDamage {
			unit.Summary += ", " + u.Damage.String()
		}
		if u.Side == side {
			if u.Flak != nil {
				unit.Detail = append(unit.Detail, flakSummary(&u, st.Options.Impulse))
				if u.Player == player && u.flakCrews() {
					order := "FIRE ANY"
					if u.Flak.Order != nil {
						order = u.Flak.Order.String()
					}
					unit.Detail = append(unit.Detail, "standing order: "+order)
					r.OrderLines = append(r.OrderLines, u.Callsign+": "+order)
				}
			}
			switch {
			case !moves(u.Kind):
				unit.Detail = append(unit.Detail, fmt.Sprintf("defence %d", u.Defence))
			case u.Arrived():
				unit.Detail = append(unit.Detail, "at the end of its route")
			default:
				unit.Detail = append(unit.Detail, fmt.Sprintf("%d hexes of its route to go", len(u.Route)))
			}
		} else {
			unit.Type = u.Kind + ", enemy"
			// Where it lies from each of the player's aircraft, as for enemy aircraft.
			for _, p := range v.Own {
				if p.InPlay() && p.Player == player {
					unit.Detail = append(unit.Detail, fmt.Sprintf("seen from %s: %d hexes at %d o'clock", p.Callsign, hexmap.Distance(p.Flight.Hex, u.Hex), hexmap.Clock(p.Flight.Hex, p.Flight.Facing, u.Hex)))
				}
			}
		}
		r.Ground = append(r.Ground, unit)
	}
	when := ""
	if st.Options.Impulse {
		// A round is a stop of the engine, not a turn (ruleset.RoundNamer): the report names it by the
		// game's clock, and its number is the player's own count (the service sets it).
		r.Noun = g.RoundNoun()
		r.LastTurn, r.When = clockAfter(st)
		when = r.When
		if when == "" {
			when = hexmap.After(1)
		}
	}
	r.Scene = sceneOf(v, player, seen, when)
	r.Map = r.Scene.ASCII()
	return r
}

// eventLines writes a side's events into its report: each event's text (with the details of its own
// side's shots), the problems of its orders and the dice.
func eventLines(r *ruleset.Report, side string, events []Event, opt Options) {
	for i := range events {
		e := &events[i]
		r.Event(eventLine(e, side, opt))
		for _, p := range e.Extras().Problems {
			r.Problem(p.Col, p.Message)
		}
		r.Roll(e.Dice...)
	}
}

// Withdraw takes a player's aircraft out of the game (a player who dropped out): they leave the map and
// count as disengaged for victory.
func (g *game) Withdraw(player string) (ruleset.Game, error) {
	st := g.st.Clone()
	for i := range st.Planes {
		p := &st.Planes[i]
		if p.Player == player && p.InPlay() {
			p.Status, p.ExitEdge = Disengaged, "withdrawn"
		}
	}
	if out := checkVictory(st); out != nil && !st.Over {
		st.Over, st.Outcome = true, out
	}
	return &game{env: g.env, st: st}, nil
}

// parseOrders reads the stored orders of the planes that take them (the adjudicator stores only orders
// that passed CheckOrder; one that no longer reads is left out, and its plane flies the default).
func parseOrders[O any](orders map[string]string, parse func(string) (O, []parser.Diagnostic), takes func(*Plane) bool, st *State) map[string]O {
	parsed := map[string]O{}
	keys := make([]string, 0, len(orders))
	for k := range orders {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, unit := range keys {
		o, ds := parse(orders[unit])
		if parser.HasErrors(ds) {
			continue
		}
		if p := st.Plane(unit); p != nil && takes(p) {
			parsed[unit] = o
		}
	}
	return parsed
}

// roundLog is the round's log, with missed orders by player.
func roundLog(round int, events []Event, d dice.Source, before int) (*ruleset.Log, error) {
	return ruleset.RoundLog(round, events, d, before, func(e Event) (string, bool) { return e.Player, e.Kind == EvNMR })
}

// checkFlakOrder checks a player's order for one of their flak units.
func (g *game) checkFlakOrder(player string, u *GroundUnit, text string, out ruleset.OrderCheck, po *planOut) ruleset.OrderCheck {
	switch {
	case u.Player != player || u.Flak == nil:
		out.Errors = append(out.Errors, ruleset.Problem{Code: "not-yours", Message: fmt.Sprintf("%s is not one of your units", u.Callsign)})
		return out
	case !u.flakCrews():
		out.Errors = append(out.Errors, ruleset.Problem{Code: "not-flying", Message: fmt.Sprintf("%s's flak can no longer fire (%s) and takes no more orders", u.Callsign, flakGone(u))})
		return out
	}
	if po != nil {
		// The guns stay where they are, whatever the order says.
		po.path, po.facing, po.faced = []hexmap.Hex{u.Hex}, u.Facing, moves(u.Kind)
	}
	o, ds := ParseFlakOrder(text)
	if !out.Diagnosed(ds) {
		return out
	}
	out.Errors = append(out.Errors, problems(u.checkFlakOrder(o))...)
	out.Canonical = o.String()
	out.Preview = append(out.Preview, flakSummary(u, g.st.Options.Impulse))
	switch {
	case o.Hold:
		out.Preview = append(out.Preview, "the guns hold fire until you order otherwise")
	default:
		if o.Target != "" {
			out.Preview = append(out.Preview, fmt.Sprintf("light guns fire at %s first whenever it is within %d hexes and up to 6,900 ft", o.Target, FlakRange))
		}
		for _, a := range o.Aims {
			out.Preview = append(out.Preview, fmt.Sprintf("heavy guns fire at hex (%d,%d), %s ft (level %d), in every even impulse", a.Hex.Q, a.Hex.R, feetText(a.Alt), strike.Level(a.Alt)))
		}
		if len(o.Aims) == 0 && u.Flak.HeavyAttacks > 0 {
			out.Preview = append(out.Preview, "heavy guns lay on the nearest enemy plane in reach, where it was when the turn began")
		}
	}
	out.Preview = append(out.Preview, "the order stands until you write another")
	if po != nil {
		po.reach = g.flakReach(u, o)
	}
	return out
}

// flakGone says why a unit's flak fires no more.
func flakGone(u *GroundUnit) string {
	if u.Flak != nil && u.Flak.Limited && u.Flak.Ammo <= 0 {
		return "out of ammunition"
	}
	return u.Damage.String()
}

// flakSummary describes a unit's flak as it stands, for its own side.
func flakSummary(u *GroundUnit, impulseGame bool) string {
	now, ok := u.flakNow()
	if !ok {
		return "flak: silent (" + flakGone(u) + ")"
	}
	var parts []string
	if now.light > 0 && now.lightPerSide+now.lightTotal > 0 {
		n := flakRate(now.lightTotal, 12, impulseGame)
		if now.lightPerSide > 0 {
			n = flakRate(now.lightPerSide, 12, impulseGame) + " on each side"
		}
		parts = append(parts, fmt.Sprintf("light %d, %s, up to %d hexes and 6,900 ft", now.light, n, FlakRange))
	}
	if now.heavyAttacks > 0 {
		parts = append(parts, fmt.Sprintf("heavy %d/%d, %s, up to %d hexes and level %d", now.heavyAimed, now.heavySplash, flakRate(now.heavyAttacks, 6, impulseGame), HeavyFlakRange, now.ceiling))
	}
	s := "flak: " + strings.Join(parts, "; ")
	if now.damagedAll {
		s += " (damaged: -3 on light flak)"
	}
	if u.Flak.Limited {
		s += fmt.Sprintf("; ammunition for %d more attack%s", u.Flak.Ammo, plural(u.Flak.Ammo))
	}
	return s
}
