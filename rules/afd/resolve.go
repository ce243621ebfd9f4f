package afd

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	"sortie/rules/afd/tables"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// Env is what resolving a turn needs besides the state: the aircraft cards and the tables in force.
type Env struct {
	Cards  Cards
	Tables *tables.Tables
}

// DefaultEnv is the shipped cards and house tables.
func DefaultEnv() (*Env, error) {
	cards, err := aircraft.Default()
	if err != nil {
		return nil, err
	}
	t, err := tables.Default()
	if err != nil {
		return nil, err
	}
	return &Env{Cards: cards, Tables: t}, nil
}

// ErrGameOver is returned when a turn is resolved for a game that has ended.
var ErrGameOver = errors.New("afd: the game is over")

// DefaultPlot is the plot a plane flies when no legal order came (docs/rulings.md: a missed plot flies straight
// and level with no power): straight ahead for its whole speed, diving only as much as its last turn or
// its speed forces it to (rules (22), (23) and the minimum-speed house rule).
func DefaultPlot(card *aircraft.Card, f Flight) notation.Plot {
	c, _ := Apply(card, f)
	s := f.Speed.Round()
	var p notation.Plot
	if s > 0 {
		p.Elements = []notation.Element{{Kind: notation.Straight, N: s}}
	}
	dive := 0
	if f.Last.Vert {
		dive = 100 * s
	}
	if f.Last.SteepDive || stalling(c) {
		dive = max(dive, 300)
	}
	p.Alt = -dive
	return p
}

type flown struct {
	p     *Plane
	card  *aircraft.Card
	order notation.Order
	res   Result
	climb int
}

// resolution is one turn being resolved: the new state being written, the events so far, and what one
// phase leaves for the next (the flights, the climbs spotting needs, the hits damage applies).
type resolution struct {
	env    *Env
	ns     *State
	d      dice.Source
	turn   int
	cards  map[string]*aircraft.Card
	events []Event
	moved  []*flown
	climbs map[string]int
	hits   map[string][]int
	// subs are the plain game's lock-step positions of each plane, sub-step by sub-step, and from where
	// it started: where flak finds it in each of the turn's twelve impulses.
	subs  map[string][12]Step
	start map[string]Flight
}

// Resolve plays one turn (docs/rulings.md; invariant 3, docs/architecture.md): every plane flies its order (or the default)
// in lock step, sides spot from the final positions, then every gun fires at once from those positions,
// damage is marked simultaneously (a plane shot down this turn still fired), downed crews bail out, and
// next turn's state is written. The same state, orders and dice give byte-identical events and state.
func Resolve(env *Env, st *State, orders map[string]notation.Order, d dice.Source) (*State, []Event, error) {
	if st.Over {
		return nil, nil, ErrGameOver
	}
	ns := st.Clone()
	for key := range orders {
		if p := ns.Plane(key); p == nil || !p.InPlay() {
			return nil, nil, fmt.Errorf("afd: an order for %s, which is not a plane in play", key)
		}
	}
	r := &resolution{env: env, ns: ns, d: d, turn: ns.Turn, cards: map[string]*aircraft.Card{},
		events: make([]Event, 0, 8*len(ns.Planes)+8), climbs: map[string]int{}, hits: map[string][]int{}}
	r.forgetGone()
	if err := r.orders(orders); err != nil {
		return nil, nil, err
	}
	r.movement()
	// Ground units and ships move on the impulses of the Delta-T chart in the plain game too (seed 001 V).
	// Flak fires in each of them too, at the planes where their lock-step movement has them.
	pos := func(imp int) func(*Plane) (Flight, bool) {
		return func(p *Plane) (Flight, bool) {
			if !p.InPlay() {
				return Flight{}, false
			}
			if imp == 0 {
				f, ok := r.start[p.Callsign]
				return f, ok
			}
			s, ok := r.subs[p.Callsign]
			if !ok {
				return Flight{}, false
			}
			at := s[imp-1]
			return Flight{Hex: at.Hex, Facing: at.Facing, Alt: at.Alt}, true
		}
	}
	for imp := 1; imp <= 12; imp++ {
		r.events = append(r.events, moveGround(ns, imp)...)
		r.moveTorpedoes(imp)
		r.flakPhase(imp, pos(imp), pos(0))
	}
	for _, f := range r.moved {
		if b := f.p.Bombed; b != nil && b.Turn == r.turn {
			r.bombing(f.p, f.card, f.p.Flight.Alt-f.climb)
		}
	}
	// Rockets and strafing from where the plots end (seed 002).
	for _, f := range r.moved {
		if !f.p.InPlay() || !f.res.Legal() {
			continue
		}
		switch {
		case f.order.Plot.Rocket:
			r.rocketAttack(f.p, f.card, f.order.At, 0)
		case f.order.Plot.Strafe:
			r.strafe(f.p, f.card, f.order.At, 0)
		}
	}
	r.events = spotPhase(ns, env.Tables, r.climbs, d, r.events)
	if err := r.fire(); err != nil {
		return nil, nil, err
	}
	r.damage()
	r.bailOut()
	r.endTurn()
	return ns, r.events, nil
}

func (r *resolution) emit(e Event) { r.events = append(r.events, e) }

// cardOf is the card of an aircraft type, looked up once a turn.
func (r *resolution) cardOf(key string) (*aircraft.Card, error) {
	if c, ok := r.cards[key]; ok {
		return c, nil
	}
	c, ok := r.env.Cards.Get(key)
	if !ok {
		return nil, fmt.Errorf("afd: no card for aircraft type %q", key)
	}
	r.cards[key] = c
	return c, nil
}

// forgetGone drops the sightings of planes that left play last turn: they were kept for that turn's
// reports only.
func (r *resolution) forgetGone() {
	ns := r.ns
	for _, side := range ns.Sides {
		for cs := range ns.Sight[side] {
			if p := ns.Plane(cs); p == nil || !p.InPlay() {
				delete(ns.Sight[side], cs)
			}
		}
	}
}

// orders takes every plane in play's order and flies it on paper: an illegal order, or none, is
// replaced by the default plot, with an event saying so.
func (r *resolution) orders(orders map[string]notation.Order) error {
	ns := r.ns
	flights := make([]flown, 0, len(ns.Planes))
	r.moved = make([]*flown, 0, len(ns.Planes))
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if !p.InPlay() {
			continue
		}
		card, err := r.cardOf(p.Type)
		if err != nil {
			return err
		}
		flights = append(flights, flown{p: p, card: card})
		f := &flights[len(flights)-1]
		o, ok := orders[p.Callsign]
		if ok {
			f.order = o
			f.res = CheckOrder(card, p.Flight, o)
			if !f.res.Legal() {
				r.emit(Event{Turn: r.turn, Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player,
					Problems: f.res.Errors, Text: fmt.Sprintf("%s's order broke the rules and it flew straight on instead", p.Callsign)})
				fire := o.Fire
				fire.Guns = nil
				f.order = notation.Order{Plot: DefaultPlot(card, p.Flight), Fire: fire}
				f.res = Move(card, p.Flight, f.order.Plot)
			}
		} else {
			r.emit(Event{Turn: r.turn, Kind: EvNMR, Player: p.Player, Side: p.Side, Plane: p.Callsign,
				Text: fmt.Sprintf("no order from %s for %s: it flew straight on", p.Player, p.Callsign)})
			f.order = notation.Order{Plot: DefaultPlot(card, p.Flight), Fire: parser.Fire{Mode: parser.FireAny, Default: true}}
			f.res = Move(card, p.Flight, f.order.Plot)
		}
		f.climb = f.res.End.Alt - p.Flight.Alt
		r.moved = append(r.moved, f)
	}
	return nil
}

// movement puts every plane where its flight ended, all at once: its track, bombs released, planes that
// flew into the ground or off the map.
func (r *resolution) movement() {
	turn := r.turn
	for _, f := range r.moved {
		p, res := f.p, f.res
		path := make([]hexmap.Hex, len(res.Steps))
		for i, s := range res.Steps {
			path[i] = s.Hex
		}
		subs := SubSteps(Step{Hex: p.Flight.Hex, Facing: p.Flight.Facing, Alt: p.Flight.Alt}, res.Steps)
		if r.subs == nil {
			r.subs, r.start = map[string][12]Step{}, map[string]Flight{}
		}
		r.subs[p.Callsign], r.start[p.Callsign] = subs, p.Flight
		p.Track = make([]hexmap.Hex, 0, len(subs))
		for _, s := range subs {
			p.Track = append(p.Track, s.Hex)
		}
		r.emit(Event{Turn: turn, Kind: EvMove, Plane: p.Callsign, Side: p.Side,
			Move: &MoveDetail{Plot: f.order.Plot.String(), Path: path, From: p.Flight.Hex, To: res.End.Hex, Alt: res.End.Alt, Speed: res.End.Speed},
			Text: fmt.Sprintf("%s flew %s", p.Callsign, f.order.Plot.String())})
		p.Flight = res.End
		r.climbs[p.Callsign] = f.climb
		if f.order.Plot.Bomb && res.Legal() {
			// The bombs fall once everything has moved (bombing, after the ground units' movement).
			p.Bombed = &BombRelease{Turn: turn, Hex: res.End.Hex, Alt: res.End.Alt, Dive: res.DiveBombing, Target: f.order.At.Unit}
			p.Attacked = turn
		}
		if p.Flight.Alt < 0 {
			p.Flight.Alt = 0
			p.Status = Crashed
			r.emit(Event{Turn: turn, Kind: EvCrash, Plane: p.Callsign, Side: p.Side, Text: p.Callsign + " flew into the ground"})
			continue
		}
		if edge := r.ns.Map.Outside(p.Flight.Hex); edge != "" {
			p.Status, p.ExitEdge = Disengaged, edge
			r.emit(Event{Turn: turn, Kind: EvDisengaged, Plane: p.Callsign, Side: p.Side, Edge: edge,
				Text: fmt.Sprintf("%s left the map by the %s edge", p.Callsign, edge)})
		}
	}
}

// fire has every gun fire at once from the final positions: each plane still in play shoots its fixed
// guns at the nearest spotted enemy it can bear on, then its flexible guns at every enemy they reach.
// Hits are only counted here; damage applies them.
func (r *resolution) fire() error {
	var shooters []*flown
	for _, f := range r.moved {
		if f.p.InPlay() {
			shooters = append(shooters, f)
		}
	}
	var targets []hexmap.Hex
	for _, f := range shooters {
		targets = append(targets, f.p.Flight.Hex)
	}
	idx := newGrid(targets, MaxFireRange)
	for _, f := range shooters {
		if f.order.Fire.Mode == parser.FireHold {
			continue
		}
		var cands []candidate
		idx.near(f.p.Flight.Hex, MaxFireRange, targets, func(i int) {
			tg := shooters[i].p
			if tg.Side == f.p.Side || !r.ns.Sight[f.p.Side][tg.Callsign].Spotted {
				return
			}
			d := hexmap.Distance(f.p.Flight.Hex, tg.Flight.Hex)
			if d == 0 {
				return
			}
			cands = append(cands, candidate{p: tg, rangeAdj: AdjustedRange(d, tg.Flight.Alt-f.p.Flight.Alt)})
		})
		sortCandidates(cands)
		if err := r.fireFixed(f, cands); err != nil {
			return err
		}
		if err := r.fireFlex(f, cands); err != nil {
			return err
		}
	}
	return nil
}

// fireFixed fires a plane's fixed guns at the first candidate they bear on, if any.
func (r *resolution) fireFixed(f *flown, cands []candidate) error {
	fire := f.order.Fire
	fixed := gunsFor(f.card, f.p, true, fire.Guns)
	if len(fixed) == 0 || f.p.Attacked == r.turn {
		// A pilot who attacked the ground this turn fires no fixed guns at planes (seed 002).
		return nil
	}
	for _, c := range cands {
		rangeAdj, ok, _ := FixedGeometry(f.p.Flight, f.climb, c.p.Flight)
		if !ok || !fireAllowed(fire, c.p.Callsign, rangeAdj) {
			continue
		}
		tcard, _ := r.cardOf(c.p.Type)
		shot, ok := fixedShot(r.env.Tables, fixed, rangeAdj, f.p.Flight, c.p.Flight, tcard.MultiEngine())
		if !ok {
			continue
		}
		return r.shoot(f, c.p, tcard, shot)
	}
	return nil
}

// fireFlex fires a plane's flexible guns, each position at most once, at every candidate one bears on.
func (r *resolution) fireFlex(f *flown, cands []candidate) error {
	fire := f.order.Fire
	flex := gunsFor(f.card, f.p, false, fire.Guns)
	if len(flex) == 0 {
		return nil
	}
	used := map[string]bool{}
	for _, c := range cands {
		if !fireAllowed(fire, c.p.Callsign, c.rangeAdj) {
			continue
		}
		tcard, _ := r.cardOf(c.p.Type)
		shot, ok := flexShot(r.env.Tables, flex, used, f.p.Flight, c.p.Flight, tcard.MultiEngine())
		if !ok {
			continue
		}
		for _, g := range shot.Guns {
			used[g] = true
		}
		if err := r.shoot(f, c.p, tcard, shot); err != nil {
			return err
		}
	}
	return nil
}

// shoot fires one burst (fireOne) and records its events.
func (r *resolution) shoot(f *flown, tg *Plane, tcard *aircraft.Card, shot Shot) error {
	ev, err := fireOne(r.env, r.ns, f, tg, tcard, shot, r.hits, r.d)
	if err != nil {
		return err
	}
	r.events = append(r.events, ev...)
	return nil
}

// damage applies the turn's hits simultaneously, plane by plane in callsign order: systems hit, engines
// and guns knocked out, planes shot down (a plane shot down this turn still fired).
func (r *resolution) damage() {
	turn := r.turn
	var hitPlanes []string
	for cs := range r.hits {
		hitPlanes = append(hitPlanes, cs)
	}
	sort.Strings(hitPlanes)
	for _, cs := range hitPlanes {
		p := r.ns.Plane(cs)
		card, _ := r.cardOf(p.Type)
		res := applyDamage(card, p, r.hits[cs])
		detail := res.detail
		r.emit(Event{Turn: turn, Kind: EvDamage, Plane: cs, Side: p.Side, Hit: &detail,
			Text: fmt.Sprintf("%s was hit: %s", cs, damageText(detail))})
		for _, side := range res.engines {
			p.Flight.NoPower = true
			text := fmt.Sprintf("%s lost its %s engine: no power, flying as loaded", cs, strings.TrimSpace(sideWord2(side)))
			if p.Flight.Loaded {
				p.Flight.Loaded = false
				text += ", bombs jettisoned"
			}
			r.emit(Event{Turn: turn, Kind: EvEngineOut, Plane: cs, Side: p.Side, Text: text})
		}
		for _, g := range res.guns {
			r.emit(Event{Turn: turn, Kind: EvGunsOut, Plane: cs, Side: p.Side, Gun: g,
				Text: fmt.Sprintf("%s's guns %s were knocked out", cs, g)})
		}
		if res.shotDown && p.Status == Flying {
			p.Status, p.DownTurn = ShotDown, turn
			r.emit(Event{Turn: turn, Kind: EvShotDown, Plane: cs, Side: p.Side, Text: cs + " was shot down"})
		}
	}
	// Marked once: the impulse game applies damage after every impulse's fire, and must not mark
	// earlier impulses' hits again.
	clear(r.hits)
}

// bailOut rolls for the crews of planes shot down, at their first chance (docs/rulings.md: house roll, none
// below 500 ft); the plane is then destroyed.
func (r *resolution) bailOut() {
	for i := range r.ns.Planes {
		p := &r.ns.Planes[i]
		if p.Status != ShotDown {
			continue
		}
		need, possible := r.env.Tables.BailOutNeed(p.Flight.Alt)
		saved := 0
		var rolls []dice.Roll
		if possible {
			for c := 1; c <= p.Crew; c++ {
				if r.d.Roll(fmt.Sprintf("turn %d %s bail-out, crew %d: D6", r.turn, p.Callsign, c), 6) >= need {
					saved++
				}
			}
			rolls = r.d.Log()[len(r.d.Log())-p.Crew:]
		}
		lost := p.Crew - saved
		p.Saved += saved
		p.Crew = 0
		p.Status = Destroyed
		text := fmt.Sprintf("%s: %d of the crew bailed out", p.Callsign, saved)
		if !possible {
			text = fmt.Sprintf("%s went down too low for anyone to bail out", p.Callsign)
		}
		r.emit(Event{Turn: r.turn, Kind: EvBailOut, Plane: p.Callsign, Side: p.Side, Saved: saved, Lost: lost, Dice: rolls, Text: text})
	}
}

// endTurn advances the turn and ends the game if a victory condition says so.
func (r *resolution) endTurn() {
	r.ns.Turn++
	if out := checkVictory(r.ns); out != nil {
		r.ns.Over, r.ns.Outcome = true, out
		r.emit(Event{Turn: r.turn, Kind: EvGameOver, Outcome: out, Text: "the game is over: " + out.Reason})
	}
}

func fireOne(env *Env, st *State, f *flown, tg *Plane, tcard *aircraft.Card, shot Shot, hits map[string][]int, d dice.Source) ([]Event, error) {
	label := fmt.Sprintf("turn %d %s fires at %s", st.Turn, f.p.Callsign, tg.Callsign)
	res, err := resolveShot(env.Tables, tcard, tg.Damage, shot, d, label, st.Options.SimpleCriticals)
	if err != nil {
		return nil, err
	}
	for i, n := range res.hits {
		if n == 0 {
			continue
		}
		if hits[tg.Callsign] == nil {
			hits[tg.Callsign] = make([]int, len(tcard.Systems))
		}
		hits[tg.Callsign][i] += n
	}
	detail := res.detail
	text := fmt.Sprintf("%s fired at %s at range %d (%s chart): %d hit", f.p.Callsign, tg.Callsign, shot.Range, shot.Chart, detail.Hits)
	if detail.Hits != 1 {
		text += "s"
	}
	events := []Event{{Turn: st.Turn, Kind: EvFire, Plane: f.p.Callsign, Side: f.p.Side, Target: tg.Callsign, Fire: &detail, Dice: res.rolls, Text: text}}
	for _, g := range shot.Guns {
		f.p.Ammo[g]--
		if f.p.Ammo[g] == 0 {
			events = append(events, Event{Turn: st.Turn, Kind: EvOutOfAmmo, Plane: f.p.Callsign, Side: f.p.Side, Gun: g,
				Text: fmt.Sprintf("%s's guns %s are out of ammunition", f.p.Callsign, g)})
		}
	}
	return events, nil
}

func damageText(h HitDetail) string {
	var parts []string
	for _, s := range h.Systems {
		part := fmt.Sprintf("%d on %s", s.Hits, s.Name)
		if s.Destroyed {
			part += " (destroyed)"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// checkVictory ends the game at the turn limit or when no more than one side has planes in play, and
// scores the victory conditions.
func checkVictory(st *State) *Outcome {
	flying := map[string]bool{}
	for _, p := range st.Planes {
		if p.InPlay() {
			flying[p.Side] = true
		}
	}
	reason := ruleset.EndReason(st.Turn, st.TurnLimit, len(flying))
	if reason == "" {
		return nil
	}
	out := ruleset.NewOutcome(st.Sides, reason)
	for _, c := range st.Victory {
		for _, cs := range c.Ground {
			// Seed 002: heavy damage leaves a target unusable, destroyed knocks it out.
			if u := st.groundUnit(cs); u != nil && u.Damage >= strike.Heavy {
				out.Score[c.Side] += c.Points
			}
		}
		for _, cs := range c.Aircraft {
			p := st.Plane(cs)
			if p == nil {
				continue
			}
			met := false
			switch c.Kind {
			case "destroy":
				met = p.Status == ShotDown || p.Status == Destroyed || p.Status == Crashed
			case "survive":
				met = p.Status == Flying || p.Status == Disengaged
			case "exit":
				met = p.Status == Disengaged && p.ExitEdge == c.Edge
			case "bomb":
				met = p.Bombed != nil && hexmap.Distance(p.Bombed.Hex, c.Target) == 0
			}
			if met {
				out.Score[c.Side] += c.Points
			}
		}
	}
	out.Decide(st.Sides)
	return out
}

// CheckOrder validates one aircraft's order against that aircraft only: its plot flown from its state,
// and the gun positions its fire order names. It is what a receipt reports; Resolve uses the same
// checks.
func CheckOrder(card *aircraft.Card, f Flight, o notation.Order) Result {
	r := Move(card, f, o.Plot)
	for _, g := range o.Fire.Guns {
		found := false
		for _, cg := range card.Guns {
			found = found || cg.ID == g
		}
		if !found {
			var ids []string
			for _, cg := range card.Guns {
				ids = append(ids, cg.ID)
			}
			r.errorf(o.Fire.Col, "fire-guns", "GUNS %s: the %s has no gun position %q (it has %s)", g, card.Name, g, strings.Join(ids, ", "))
		}
	}
	return r
}
