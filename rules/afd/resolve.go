package afd

import (
	"errors"
	"fmt"
	"slices"
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

// flown is what the phases after movement need of a plane's turn as its plot flew it on paper: the
// fire order it flew under (its own, or Sortie's with the default plot), whether its plot released
// bombs or fired rockets or strafed and at what, its move written down (the event's detail and line),
// the height it gained (negative: lost), and whether the plot was legal; in a game with flak, where it
// was for the flak in each impulse.
type flown struct {
	p                    *Plane
	card                 *aircraft.Card
	fire                 parser.Fire
	at                   notation.GroundTarget
	move                 *MoveDetail
	moveText             string
	climb                int
	flak                 *lockStep
	bomb, rocket, strafe bool
	legal                bool
	diveBombing          bool
	// nmr says no order came for the plane: its FIRE ANY is Sortie's, not a player's.
	nmr bool
}

// lockStep is where a plane was when the turn began (0) and where the plain game's lock-step movement
// has it at the end of each of the turn's twelve sub-steps (1 to 12): where flak finds it in each
// impulse, and where heavy flak aims by default. Flak reads a plane's hex, facing and height only.
type lockStep [13]stepAt

// stepAt is where a plane is at one point of its lock-step movement.
type stepAt struct {
	hex    hexmap.Hex
	facing hexmap.Dir
	alt    int
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
	// flights is every plane in play's flight this turn, in the order of the planes.
	flights []flown
	climbs  map[string]int
	hits    map[string][]int
	// byCallsign finds a plane's flight, for flak; made when first needed.
	byCallsign map[string]*flown

	// Scratch reused from plane to plane and shot to shot: the steps of the plot being flown, the
	// hexes of paths and tracks and the bursts' details and hit locations (handed out in blocks, and
	// kept by the state and the events), a plane's guns, a shot's hits and the damage they are read
	// against, the candidate targets, and the text being written.
	steps          []Step
	hexes          blocks[hexmap.Hex]
	bursts         blocks[FireDetail]
	locations      blocks[string]
	guns           []int
	shotHits, work []int
	cands          []candidate
	text           textBuf
	charts         gunCharts

	// Scratch of a plain turn's phases: the boxes of the hits, the fire phase's index of the shooters'
	// positions, the planes hit, and the spotting phase's.
	hitBoxes  []int
	fireGrid  grid
	hitPlanes []string
	spot      spotScratch
	flak      flakScratch
}

// Resolve plays one turn (docs/rulings.md; invariant 3, docs/architecture.md): every plane flies its order (or the default)
// in lock step, sides spot from the final positions, then every gun fires at once from those positions,
// damage is marked simultaneously (a plane shot down this turn still fired), downed crews bail out, and
// next turn's state is written. The same state, orders and dice give byte-identical events and state.
func Resolve(env *Env, st *State, orders map[string]notation.Order, d dice.Source) (*State, []Event, error) {
	if st.Over {
		return nil, nil, ErrGameOver
	}
	for key := range orders {
		if p := st.Plane(key); p == nil || !p.InPlay() {
			return nil, nil, fmt.Errorf("afd: an order for %s, which is not a plane in play", key)
		}
	}
	// Every plane in play flies this turn and gets a new track: the old ones are not copied.
	ns := st.clone(true)
	// A turn's resolution, with its scratch, is made afresh each turn: a turn runs about once a day, and
	// nothing a turn leaves behind can reach the next (invariant 3).
	r := &resolution{env: env, ns: ns, d: d, turn: ns.Turn, cards: map[string]*aircraft.Card{},
		hits: map[string][]int{}, climbs: make(map[string]int, len(ns.Planes))}
	if err := r.resolve(orders); err != nil {
		return nil, nil, err
	}
	return ns, slices.Clip(r.events), nil
}

// resolve plays the turn's phases in order.
func (r *resolution) resolve(orders map[string]notation.Order) error {
	ns := r.ns
	r.forgetGone()
	r.events = make([]Event, 0, eventRoom(ns))
	if err := r.orders(orders); err != nil {
		return err
	}
	r.movement()
	// Ground units and ships move on the impulses of the Delta-T chart in the plain game too (seed 001 V).
	// Flak fires in each of them too, at the planes where their lock-step movement has them.
	pos := func(imp int) func(*Plane) (Flight, bool) {
		return func(p *Plane) (Flight, bool) {
			if !p.InPlay() {
				return Flight{}, false
			}
			f := r.flightOf(p)
			if f == nil || f.flak == nil {
				return Flight{}, false
			}
			at := f.flak[imp]
			return Flight{Hex: at.hex, Facing: at.facing, Alt: at.alt}, true
		}
	}
	for imp := 1; imp <= 12; imp++ {
		r.events = append(r.events, moveGround(ns, imp)...)
		r.moveTorpedoes(imp)
		r.flakPhase(imp, pos(imp), pos(0))
	}
	for i := range r.flights {
		if f := &r.flights[i]; f.p.Bombed != nil && f.p.Bombed.Turn == r.turn {
			r.bombing(f.p, f.card, f.p.Flight.Alt-f.climb)
		}
	}
	// Rockets and strafing from where the plots end (seed 002).
	for i := range r.flights {
		f := &r.flights[i]
		if !f.legal {
			continue // the illegal-order event said the plot was not flown
		}
		if !f.p.InPlay() {
			if f.rocket || f.strafe {
				r.refuse(f.p, 0, attackWord(f.strafe), "it "+goneText(f.p))
			}
			continue
		}
		switch {
		case f.rocket:
			r.rocketAttack(f.p, f.card, f.at, 0)
		case f.strafe:
			r.strafe(f.p, f.card, f.at, 0)
		}
	}
	// The dice log is sized ahead for the rest of the turn: every roll spotting may make, and two a
	// plane for the fire phase (a burst rolls two dice and a D10 for every four hits, and not every
	// plane fires), so that it is seldom copied as it grows.
	inPlay := 0
	for i := range ns.Planes {
		if ns.Planes[i].InPlay() {
			inPlay++
		}
	}
	dice.Reserve(r.d, spotRolls(ns)+2*inPlay)
	r.spotPhase(r.climbs)
	if err := r.fire(); err != nil {
		return err
	}
	r.damage()
	r.bailOut()
	r.endTurn()
	return nil
}

func (r *resolution) emit(e Event) { r.events = append(r.events, e) }

// eventRoom is how many events a plain turn of st is given room for before it starts, so that the
// events slice is allocated once and seldom grows: a move for each plane in play; for each side and
// each enemy in play, two sighting events (spotted, identified) while it is not yet spotted, one
// after (identified, or sight lost); a shot or a word that it held its fire for each plane; and half
// a plane's worth for damage, losses and bail-outs. A turn that needs more grows the slice as append
// does.
func eventRoom(st *State) int {
	inPlay := 0
	for i := range st.Planes {
		if st.Planes[i].InPlay() {
			inPlay++
		}
	}
	n := 2*inPlay + inPlay/2
	for _, side := range st.Sides {
		known := st.Sight[side]
		for i := range st.Planes {
			if p := &st.Planes[i]; p.InPlay() && p.Side != side {
				if known[p.Callsign].Spotted {
					n++
				} else {
					n += 2
				}
			}
		}
	}
	return n
}

// eachPlane does do with every plane of the new state that take picks, in order, and its card; a
// plane whose card is missing stops it with the error.
func (r *resolution) eachPlane(take func(*Plane) bool, do func(p *Plane, card *aircraft.Card)) error {
	for i := range r.ns.Planes {
		p := &r.ns.Planes[i]
		if !take(p) {
			continue
		}
		card, err := r.cardOf(p.Type)
		if err != nil {
			return err
		}
		do(p, card)
	}
	return nil
}

// cardOf is the card of an aircraft type, looked up once a turn.
func (r *resolution) cardOf(key string) (*aircraft.Card, error) {
	if c, ok := r.cards[key]; ok {
		return c, nil
	}
	c, ok := r.env.Card(key)
	if !ok {
		return nil, fmt.Errorf("afd: no card for aircraft type %q", key)
	}
	r.cards[key] = c
	return c, nil
}

// gunCharts is the turn's gun charts (gunCharts), read from the tables in force.
func (r *resolution) gunCharts() *gunCharts {
	r.charts.t = r.env.Tables
	return &r.charts
}

// flightOf is the flight a plane flew this turn, nil if it flew none.
func (r *resolution) flightOf(p *Plane) *flown {
	if r.byCallsign == nil {
		r.byCallsign = make(map[string]*flown, len(r.flights))
		for i := range r.flights {
			r.byCallsign[r.flights[i].p.Callsign] = &r.flights[i]
		}
	}
	return r.byCallsign[p.Callsign]
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

// orders takes every plane in play's order and flies it on paper from where the plane began the turn,
// then puts the plane where its flight ended, with its new track: an illegal order, or none, is
// replaced by the default plot, with an event saying so. No plane's flight reads where another is, so
// moving each as it is flown is every plane moving at once.
func (r *resolution) orders(orders map[string]notation.Order) error {
	ns := r.ns
	flak := false
	for i := range ns.Ground {
		flak = flak || ns.Ground[i].Flak != nil
	}
	// Room for every plane in play's flight, its lock-step positions when there is flak (a flight points
	// into that list, which must not move), its move's detail (kept by its event), and its track and
	// path: twelve sub-steps, and a step for each point of its speed (a legal plot records exactly that
	// many, and so does the default).
	inPlay, room := 0, 0
	for i := range ns.Planes {
		if p := &ns.Planes[i]; p.InPlay() {
			inPlay++
			room += 12 + p.Flight.Speed.Round()
		}
	}
	flights := make([]flown, 0, inPlay)
	details := make([]MoveDetail, inPlay)
	var lockSteps []lockStep // the flights point into it: room for every plane, so it never moves
	if flak {
		lockSteps = make([]lockStep, 0, inPlay)
	}
	r.hexes.block = make([]hexmap.Hex, 0, room)
	r.steps = slices.Grow(r.steps[:0], 16)
	err := r.eachPlane((*Plane).InPlay, func(p *Plane, card *aircraft.Card) {
		flights = append(flights, flown{p: p, card: card})
		f := &flights[len(flights)-1]
		var res Result
		o, ok := orders[p.Callsign]
		if ok {
			res = checkOrder(card, p.Flight, o, r.steps)
			if !res.Legal() {
				r.emit(Event{Turn: r.turn, Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player,
					Extra: &Extra{Problems: res.Errors}, Text: r.text.start().str(p.Callsign).str("'s order broke the rules and it flew straight on instead").String()})
				fire := o.Fire
				fire.Guns = nil
				o = notation.Order{Plot: DefaultPlot(card, p.Flight), Fire: fire}
				res = moveInto(card, p.Flight, o.Plot, res.Steps)
			}
		} else {
			r.emit(Event{Turn: r.turn, Kind: EvNMR, Player: p.Player, Side: p.Side, Plane: p.Callsign,
				Text: r.text.start().str("no order from ").str(p.Player).str(" for ").str(p.Callsign).str(": it flew straight on").String()})
			o = notation.Order{Plot: DefaultPlot(card, p.Flight), Fire: parser.Fire{Mode: parser.FireAny, Default: true}}
			f.nmr = true
			res = moveInto(card, p.Flight, o.Plot, r.steps)
		}
		r.steps = res.Steps
		f.fire, f.at = o.Fire, o.At
		f.bomb, f.rocket, f.strafe = o.Plot.Bomb, o.Plot.Rocket, o.Plot.Strafe
		subs := r.flew(f, &o.Plot, &res, &details[len(flights)-1])
		if flak {
			lockSteps = append(lockSteps, lockStep{})
			f.flak = &lockSteps[len(lockSteps)-1]
			f.flak[0] = stepAt{p.Flight.Hex, p.Flight.Facing, p.Flight.Alt}
			for i, s := range subs {
				f.flak[i+1] = stepAt{s.Hex, s.Facing, s.Alt}
			}
		}
		p.Flight = res.End
	})
	if err != nil {
		return err
	}
	r.flights = flights
	return nil
}

// flew writes down plane f's flight res of plot from where it began the turn: its legality and climb,
// its new track, and its move's detail m (its path, where it began and ended) and line, the hexes
// carved from the turn's blocks. It returns where the plane was at each sub-step. res.Steps is scratch,
// reused after this.
func (r *resolution) flew(f *flown, plot *notation.Plot, res *Result, m *MoveDetail) [12]Step {
	p, start := f.p, f.p.Flight
	f.legal, f.diveBombing = res.Legal(), res.DiveBombing
	f.climb = res.End.Alt - start.Alt
	path := r.hexes.take(len(res.Steps), hexBlock)
	for i, s := range res.Steps {
		path[i] = s.Hex
	}
	subs := SubSteps(Step{Hex: start.Hex, Facing: start.Facing, Alt: start.Alt}, res.Steps)
	p.Track = r.hexes.take(len(subs), hexBlock)
	for i, s := range subs {
		p.Track[i] = s.Hex
	}
	// The line says what the detail does: "P1 flew 2 TR 2", the plot its tail.
	r.text.start().str(p.Callsign).str(" flew ")
	at := len(r.text.b)
	r.text.b = plot.Append(r.text.b)
	f.moveText = r.text.String()
	*m = MoveDetail{Plot: f.moveText[at:], Path: path, From: start.Hex, To: res.End.Hex, Alt: res.End.Alt, Speed: res.End.Speed}
	f.move = m
	return subs
}

// movement reports every plane's move, in the order of the planes, now that all have moved: bombs
// released, planes that flew into the ground or off the map.
func (r *resolution) movement() {
	turn := r.turn
	for i := range r.flights {
		f := &r.flights[i]
		p := f.p
		r.emit(Event{Turn: turn, Kind: EvMove, Plane: p.Callsign, Side: p.Side, Move: f.move, Text: f.moveText})
		r.climbs[p.Callsign] = f.climb
		if f.bomb && f.legal {
			// The bombs fall once everything has moved (bombing, after the ground units' movement).
			p.Bombed = &BombRelease{Turn: turn, Hex: p.Flight.Hex, Alt: p.Flight.Alt, Dive: f.diveBombing, Target: f.at.Unit}
			p.Attacked = turn
		}
		if p.Flight.Alt < 0 {
			p.Flight.Alt = 0
			p.Status = Crashed
			r.emit(Event{Turn: turn, Kind: EvCrash, Plane: p.Callsign, Side: p.Side, Text: r.text.start().str(p.Callsign).str(" flew into the ground").String()})
			continue
		}
		if edge := r.ns.Map.Outside(p.Flight.Hex); edge != "" {
			p.Status, p.ExitEdge = Disengaged, edge
			r.emit(Event{Turn: turn, Kind: EvDisengaged, Plane: p.Callsign, Side: p.Side, Extra: &Extra{Edge: edge},
				Text: r.text.start().str(p.Callsign).str(" left the map by the ").str(edge).str(" edge").String()})
		}
	}
}

// fire has every gun fire at once from the final positions: each plane still in play shoots its fixed
// guns at the nearest spotted enemy it can bear on, then its flexible guns at every enemy they reach.
// Hits are only counted here; damage applies them.
func (r *resolution) fire() error {
	// The planes still in play and their hexes, each list made once at its most.
	shooters := make([]*flown, 0, len(r.flights))
	targets := make([]hexmap.Hex, 0, len(r.flights))
	for i := range r.flights {
		if f := &r.flights[i]; f.p.InPlay() {
			shooters = append(shooters, f)
			targets = append(targets, f.p.Flight.Hex)
		}
	}
	idx := &r.fireGrid
	idx.build(targets, MaxFireRange)
	for i := range r.flights {
		if f := &r.flights[i]; !f.p.InPlay() {
			// It crashed or left the map while moving: its fire order is answered.
			r.noFire(f, 0, fireChance{})
		}
	}
	for _, f := range shooters {
		if f.fire.Mode == parser.FireHold {
			continue
		}
		before := len(r.events)
		cands := r.cands[:0]
		sight := r.ns.Sight[f.p.Side]
		idx.near(f.p.Flight.Hex, MaxFireRange, targets, func(i int) {
			tg := shooters[i].p
			if tg.Side == f.p.Side || !sight[tg.Callsign].Spotted {
				return
			}
			d := hexmap.Distance(f.p.Flight.Hex, tg.Flight.Hex)
			if d == 0 {
				return
			}
			cands = append(cands, candidate{p: tg, rangeAdj: AdjustedRange(d, tg.Flight.Alt-f.p.Flight.Alt)})
		})
		r.cands = cands
		sortCandidates(cands)
		if err := r.fireFixed(f, cands); err != nil {
			return err
		}
		if err := r.fireFlex(f, cands); err != nil {
			return err
		}
		if !firedSince(r.events[before:]) {
			var ch fireChance
			if f.p.Attacked == r.turn {
				// Seed 002, "Fighters and Bombing": no air-to-air fire by the pilot the turn he attacks the ground.
				ch.fixedBlocked = "do not fire the turn it attacks the ground"
			}
			r.noFire(f, 0, ch)
		}
	}
	return nil
}

// firedSince says whether events hold a burst fired.
func firedSince(events []Event) bool {
	for i := range events {
		if events[i].Kind == EvFire {
			return true
		}
	}
	return false
}

// fireFixed fires a plane's fixed guns at the first candidate they bear on, if any.
func (r *resolution) fireFixed(f *flown, cands []candidate) error {
	fire := f.fire
	fixed := gunsFor(r.guns[:0], f.card, f.p, true, fire.Guns)
	r.guns = fixed
	if len(fixed) == 0 || f.p.Attacked == r.turn {
		// A pilot who attacked the ground this turn fires no fixed guns at planes (seed 002).
		return nil
	}
	for _, c := range cands {
		rangeAdj, ok := fixedBears(f.p.Flight, f.climb, c.p.Flight)
		if !ok || !fireAllowed(fire, c.p.Callsign, rangeAdj) {
			continue
		}
		tcard, _ := r.cardOf(c.p.Type)
		shot, ok := r.gunCharts().fixedShot(f.card, fixed, rangeAdj, f.p.Flight, c.p.Flight, tcard.MultiEngine())
		if !ok {
			continue
		}
		return r.shoot(f, c.p, tcard, shot)
	}
	return nil
}

// fireFlex fires a plane's flexible guns, each position at most once, at every candidate one bears on.
func (r *resolution) fireFlex(f *flown, cands []candidate) error {
	fire := f.fire
	flex := gunsFor(r.guns[:0], f.card, f.p, false, fire.Guns)
	r.guns = flex
	if len(flex) == 0 {
		return nil
	}
	var usedBuf [16]int
	used := usedBuf[:0]
	for _, c := range cands {
		if !fireAllowed(fire, c.p.Callsign, c.rangeAdj) {
			continue
		}
		tcard, _ := r.cardOf(c.p.Type)
		shot, pos, ok := r.gunCharts().flexShot(f.card, flex, used, f.p.Flight, c.p.Flight, tcard.MultiEngine())
		if !ok {
			continue
		}
		used = append(used, pos...)
		if err := r.shoot(f, c.p, tcard, shot); err != nil {
			return err
		}
	}
	return nil
}

// shoot fires one burst and records its events: the shot, and any gun position it left without
// ammunition. Its hits are added to the turn's, to be marked by damage.
func (r *resolution) shoot(f *flown, tg *Plane, tcard *aircraft.Card, shot Shot) error {
	turn := r.ns.Turn
	// readShot writes the dice's labels after the label, in the buffer's room: room it must have, or
	// each label would grow a copy of the buffer.
	r.text.b = slices.Grow(r.text.b[:0], 256)
	label := r.text.start().str("turn ").num(turn).str(" ").str(f.p.Callsign).str(" fires at ").str(tg.Callsign).b
	n := len(tcard.Systems)
	r.shotHits, r.work = slices.Grow(r.shotHits[:0], n)[:n], slices.Grow(r.work[:0], n)[:n]
	clear(r.shotHits)
	res := shotResult{hits: r.shotHits, locations: &r.locations}
	if err := readShot(r.env.Tables, tcard, tg.Damage, shot, r.d, label, &r.text.out, r.ns.Options.SimpleCriticals, &res, r.work, false); err != nil {
		return err
	}
	for i, n := range res.hits {
		if n == 0 {
			continue
		}
		r.hitsOn(tg.Callsign, len(tcard.Systems))[i] += n
	}
	detail := &r.bursts.take(1, burstBlock)[0]
	*detail = res.detail
	text := r.text.start().str(f.p.Callsign).str(" fired at ").str(tg.Callsign).str(" at range ").num(shot.Range).
		str(" (").str(shot.Chart).str(" chart): ").num(detail.Hits).str(" hit")
	if detail.Hits != 1 {
		text.str("s")
	}
	r.emit(Event{Turn: turn, Kind: EvFire, Plane: f.p.Callsign, Side: f.p.Side, Target: tg.Callsign, Fire: detail, Dice: res.rolls, Text: text.String()})
	for _, g := range shot.Guns {
		if f.p.Ammo.Spend(g) == 0 {
			r.emit(Event{Turn: turn, Kind: EvOutOfAmmo, Plane: f.p.Callsign, Side: f.p.Side, Extra: &Extra{Gun: g},
				Text: r.text.start().str(f.p.Callsign).str("'s guns ").str(g).str(" are out of ammunition").String()})
		}
	}
	return nil
}

// hitsOn is the hits a plane has taken so far, by system, to be marked by damage: n zeros when it
// takes its first. The lists are carved from one block, reused until damage has marked them.
func (r *resolution) hitsOn(callsign string, n int) []int {
	if h, ok := r.hits[callsign]; ok {
		return h
	}
	if cap(r.hitBoxes)-len(r.hitBoxes) < n {
		r.hitBoxes = make([]int, 0, max(n, 2*cap(r.hitBoxes), 64))
	}
	at := len(r.hitBoxes)
	r.hitBoxes = r.hitBoxes[:at+n]
	h := r.hitBoxes[at : at+n : at+n]
	clear(h)
	r.hits[callsign] = h
	return h
}

// damage applies the turn's hits simultaneously, plane by plane in callsign order: systems hit, engines
// and guns knocked out, planes shot down (a plane shot down this turn still fired).
func (r *resolution) damage() {
	turn := r.turn
	hitPlanes := slices.Grow(r.hitPlanes[:0], len(r.hits))
	for cs := range r.hits {
		hitPlanes = append(hitPlanes, cs)
	}
	slices.Sort(hitPlanes)
	r.hitPlanes = hitPlanes
	// The events' details and their systems, one block of each for all.
	details := make([]HitDetail, len(hitPlanes))
	n := 0
	for _, cs := range hitPlanes {
		for _, h := range r.hits[cs] {
			if h > 0 {
				n++
			}
		}
	}
	systems := make([]SystemHit, 0, n)
	for i, cs := range hitPlanes {
		p := r.ns.Plane(cs)
		card, _ := r.cardOf(p.Type)
		var res damageResult
		res, systems = applyDamageTo(card, p, r.hits[cs], systems)
		details[i] = res.detail
		r.text.start().str(cs).str(" was hit: ")
		writeDamage(&r.text, res.detail)
		r.emit(Event{Turn: turn, Kind: EvDamage, Plane: cs, Side: p.Side, Hit: &details[i], Text: r.text.String()})
		for _, side := range res.engines {
			p.Flight.NoPower = true
			text := cs + " lost its " + strings.TrimSpace(sideWord2(side)) + " engine: no power, flying as loaded"
			if p.Flight.Loaded {
				p.Flight.Loaded = false
				text += ", bombs jettisoned"
			}
			r.emit(Event{Turn: turn, Kind: EvEngineOut, Plane: cs, Side: p.Side, Text: text})
		}
		for _, g := range res.guns {
			r.emit(Event{Turn: turn, Kind: EvGunsOut, Plane: cs, Side: p.Side, Extra: &Extra{Gun: g},
				Text: r.text.start().str(cs).str("'s guns ").str(g).str(" were knocked out").String()})
		}
		if res.shotDown && p.Status == Flying {
			p.Status, p.DownTurn = ShotDown, turn
			r.emit(Event{Turn: turn, Kind: EvShotDown, Plane: cs, Side: p.Side, Text: r.text.start().str(cs).str(" was shot down").String()})
		}
	}
	// Marked once: the impulse game applies damage after every impulse's fire, and must not mark
	// earlier impulses' hits again.
	clear(r.hits)
	r.hitBoxes = r.hitBoxes[:0]
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
				label := r.text.start().str("turn ").num(r.turn).str(" ").str(p.Callsign).str(" bail-out, crew ").num(c).str(": D6").String()
				if r.d.Roll(label, 6) >= need {
					saved++
				}
			}
			rolls = r.d.Log()[len(r.d.Log())-p.Crew:]
		}
		lost := p.Crew - saved
		p.Saved += saved
		p.Crew = 0
		p.Status = Destroyed
		text := r.text.start().str(p.Callsign).str(": ").num(saved).str(" of the crew bailed out").String()
		if !possible {
			text = p.Callsign + " went down too low for anyone to bail out"
		}
		r.emit(Event{Turn: r.turn, Kind: EvBailOut, Plane: p.Callsign, Side: p.Side, Extra: &Extra{Saved: saved, Lost: lost}, Dice: rolls, Text: text})
	}
}

// endTurn advances the turn and ends the game if a victory condition says so.
func (r *resolution) endTurn() {
	r.ns.Turn++
	if out := checkVictory(r.ns); out != nil {
		r.ns.Over, r.ns.Outcome = true, out
		r.emit(Event{Turn: r.turn, Kind: EvGameOver, Extra: &Extra{Outcome: out}, Text: "the game is over: " + out.Reason})
	}
}

// writeDamage lists the hits on each system, e.g. "2 on wings, 1 on engine (destroyed)".
func writeDamage(t *textBuf, h HitDetail) {
	for i, s := range h.Systems {
		if i > 0 {
			t.str(", ")
		}
		t.num(s.Hits).str(" on ").str(s.Name)
		if s.Destroyed {
			t.str(" (destroyed)")
		}
	}
}

// checkVictory ends the game at the turn limit or when no more than one side has planes in play, and
// scores the victory conditions.
func checkVictory(st *State) *Outcome {
	out := ruleset.Ended(st.Turn, st.TurnLimit, st.Sides, st.Planes, func(p *Plane) (string, bool, ruleset.Fate) {
		return p.Side, p.InPlay(), ruleset.Fate{Unit: p.Callsign, How: p.fate()}
	})
	if out == nil {
		return nil
	}
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
	return checkOrder(card, f, o, nil)
}

// checkOrder is CheckOrder flying the plot into steps (moveInto).
func checkOrder(card *aircraft.Card, f Flight, o notation.Order, steps []Step) Result {
	r := moveInto(card, f, o.Plot, steps)
	for _, g := range o.Fire.Guns {
		if !card.HasGun(g) {
			r.errorf(o.Fire.Col, "fire-guns", "GUNS %s: the %s has no gun position %q (it has %s)", g, card.Name, g, card.GunList())
		}
	}
	return r
}
