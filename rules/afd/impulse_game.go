package afd

// The Delta-T impulse game (seed 001, `impulse: true` in a scenario; docs/notation.md "Impulse orders", docs/rulings.md "Delta-T"). A turn is
// twelve impulses; a plane moves one hex in each of its active impulses (the impulse table of its
// initial speed, impulse.go) and flies one complete manoeuvre at a time. The engine plays impulse
// after impulse, each in the order of seed 001 III, and stops at the end of an impulse in which some
// plane has completed its manoeuvre and has nothing queued: only that plane's owner is asked for its
// next one. A round of the service is one such run of the engine.
//
// The movement of a turn is the plain game's (seed 001 VI.3): the boxes a plane has flown this turn
// make a plot of the plain game, flown from the plane's state at the start of the turn by Move, and
// the plane stands where that plot's last step leaves it. At the end of the turn the whole turn's plot
// gives next turn's initial speed as in the plain game (XI.A); the altitude is the last one written
// (XI.B) and the bank the one at the end of the last completed manoeuvre (XI.C).

import (
	"fmt"
	"strings"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// ImpulseClock is where an impulse game stands within its turn.
type ImpulseClock struct {
	// Impulse is the next impulse to play, 1 to 12, of State.Turn.
	Impulse int `json:"impulse"`
	// Stop counts the engine's stops: the service's round is Stop+1.
	Stop int `json:"stop"`
	// Unseen holds, by player, the events of their side that they have not been sent yet: a player is
	// mailed only when asked for an order, and that report tells all that happened meanwhile.
	Unseen map[string][]Event `json:"unseen,omitempty"`
}

// PlaneImpulse is a plane's part of an impulse game.
type PlaneImpulse struct {
	// Start is the plane's state at the start of this turn; Plane.Flight is where it stands now.
	Start Flight `json:"start"`
	// Queue holds the manoeuvres still to fly; the first is in progress, Done of its boxes flown.
	Queue []notation.Manoeuvre `json:"queue,omitempty"`
	Done  int                  `json:"done,omitempty"`
	// Flown are the boxes flown this turn, in order.
	Flown []FlownBox `json:"flown,omitempty"`
	// Fire is the standing fire order, canonical.
	Fire string `json:"fire"`
	// FixedFired and FlexFired say the plane has fired that kind of gun this turn (seed 001 VII.2, VII.4).
	FixedFired bool `json:"fixed_fired,omitempty"`
	FlexFired  bool `json:"flex_fired,omitempty"`
	// Fired says the plane has fired a burst this turn; NoFire is, until it has, why its fire order
	// did not fire in the last impulse it was tried, told to its side at the end of the turn.
	Fired  bool   `json:"fired,omitempty"`
	NoFire string `json:"no_fire,omitempty"`
	// PrevAlt is the altitude before the plane's last active impulse, for its nose attitude (VII.3):
	// NoseLoss is the part of the change that was a manoeuvre's 100 ft, which does not tilt the nose.
	PrevAlt  int `json:"prev_alt"`
	NoseLoss int `json:"nose_loss,omitempty"`
	// DownAt is the impulse (turn*12+impulse) the plane was shot down, for its bail-out (IX).
	DownAt int `json:"down_at,omitempty"`
	// SlipLast says the last manoeuvre before this turn's boxes was a slip (or a skid turn), with only
	// straight hexes since: a turn flown next is no maximum-performance turn (seed 001 X.E.3.b).
	SlipLast bool `json:"slip_last,omitempty"`
}

// FlownBox is one impulse a plane flew: its movement token ("`" or "1" for a straight hex, "+" for the
// second impulse of a half roll, else the manoeuvre token), the altitude after it and its factors.
type FlownBox struct {
	Token string `json:"token"`
	Alt   int    `json:"alt"`
	Power int    `json:"power,omitempty"`
	Brake int    `json:"brake,omitempty"`
	// Climb is the change of altitude in the impulse, in feet; Mandatory is the part of a dive that a
	// banked forwards manoeuvre or a maximum-performance turn or slip required (X.E).
	Climb     int `json:"climb"`
	Mandatory int `json:"mandatory,omitempty"`
	// Bomb: the plane released its bombs in this impulse; Rocket and Strafe: it attacked the ground.
	Bomb   bool `json:"bomb,omitempty"`
	Rocket bool `json:"rocket,omitempty"`
	Strafe bool `json:"strafe,omitempty"`
}

// impulseID numbers an impulse across turns.
func impulseID(turn, impulse int) int { return turn*12 + impulse }

// activeTimes is how many times a plane of initial speed s moves in impulse i (0, 1, or 2 above 12).
func activeTimes(s, i int) int {
	n := 0
	for _, x := range Impulses(s) {
		if x == i {
			n++
		}
	}
	return n
}

// engines is how many engines a plane has working.
func engines(card *aircraft.Card, f Flight) int {
	n := max(card.Engines.Count, 1)
	if f.NoPower {
		return 0
	}
	return n
}

// impulseState makes sure every plane in play carries its impulse part.
func impulseState(st *State) {
	if st.Clock == nil {
		st.Clock = &ImpulseClock{Impulse: 1}
	}
	for i := range st.Planes {
		p := &st.Planes[i]
		if p.Imp == nil {
			p.Imp = &PlaneImpulse{Start: p.Flight, Fire: "FIRE ANY", PrevAlt: p.Flight.Alt}
		}
	}
}

// NeedsOrders says the plane is in play and has no manoeuvre to fly: its owner is asked for one.
func (p *Plane) NeedsOrders() bool {
	if p.Ground != nil {
		return p.InPlay() && p.Imp != nil && p.Ground.Order == nil
	}
	return p.InPlay() && p.Imp != nil && len(p.Imp.Queue) == 0
}

// ForwardsOrder is the order a plane flies when its owner sends none in an impulse game: the forwards
// manoeuvre (docs/rulings.md: Delta-T missed orders).
const ForwardsOrder = "1"

// impulseRun is one run of the engine, from where the game stands to its next stop.
type impulseRun struct {
	resolution
	stopped  map[string]bool // planes that completed their manoeuvre this impulse with nothing queued
	releases []*Plane        // planes releasing their bombs this impulse (phase E)
	attacks  []groundAttack  // rocket and strafing attacks this impulse (phase E)
	// flew, when set, hears of every box a plane flies, after it is flown (the calculator's rows).
	flew func(p *Plane, f flownBox)
}

// groundAttack is a plane's rocket or strafing attack waiting for the bomb phase.
type groundAttack struct {
	p      *Plane
	strafe bool
}

// ResolveImpulse runs an impulse game from where it stands until some plane has completed its
// manoeuvre with nothing queued (or the game ends), after taking the orders given for the planes
// that were waiting. A plane waiting without an order flies the forwards manoeuvre.
func ResolveImpulse(env *Env, st *State, orders map[string]notation.ImpulseOrder, d dice.Source) (*State, []Event, error) {
	if st.Over {
		return nil, nil, ErrGameOver
	}
	ns := st.Clone()
	impulseState(ns)
	d = &impulseDice{inner: d, clock: ns.Clock}
	r := &impulseRun{resolution: resolution{env: env, ns: ns, d: d, turn: ns.Turn, cards: map[string]*aircraft.Card{},
		climbs: map[string]int{}, hits: map[string][]int{}}, stopped: map[string]bool{}}
	for key := range orders {
		if p := ns.Plane(key); p == nil || !p.InPlay() {
			return nil, nil, fmt.Errorf("afd: an order for %s, which is not a plane in play", key)
		}
	}
	// The players asked at the last stop have had their report: what they saw is told.
	for _, pl := range ns.Players {
		for i := range ns.Planes {
			if p := &ns.Planes[i]; p.Player == pl.ID && p.NeedsOrders() {
				delete(ns.Clock.Unseen, pl.ID)
				break
			}
		}
	}
	if err := r.takeOrders(orders); err != nil {
		return nil, nil, err
	}
	for guard := 0; guard < 12*1000; guard++ {
		if err := r.impulse(); err != nil {
			return nil, nil, err
		}
		if ns.Over || len(r.stopped) > 0 || !r.anyInPlay() {
			break
		}
	}
	ns.Clock.Stop++
	for _, pl := range ns.Players {
		if seen := EventsFor(ns, ns.SideOf(pl.ID), r.events); len(seen) > 0 {
			if ns.Clock.Unseen == nil {
				ns.Clock.Unseen = map[string][]Event{}
			}
			ns.Clock.Unseen[pl.ID] = append(ns.Clock.Unseen[pl.ID], seen...)
		}
	}
	return ns, r.events, nil
}

func (r *impulseRun) anyInPlay() bool {
	for i := range r.ns.Planes {
		if r.ns.Planes[i].InPlay() {
			return true
		}
	}
	return false
}

// takeOrders queues the orders of the planes that were waiting; a waiting plane without one flies the
// forwards manoeuvre, and a manoeuvre that cannot be flown from where the plane stands is replaced by
// it, with an event saying so.
func (r *impulseRun) takeOrders(orders map[string]notation.ImpulseOrder) error {
	ns := r.ns
	return r.eachPlane((*Plane).NeedsOrders, func(p *Plane, card *aircraft.Card) {
		if p.Ground != nil {
			// Its order came with the state (game.withGroundOrders); without one it stays idle.
			r.emit(Event{Turn: ns.Turn, Kind: EvNMR, Player: p.Player, Side: p.Side, Plane: p.Callsign, Impulse: ns.Clock.Impulse,
				Text: fmt.Sprintf("no order from %s for %s: it stays as it is on the ground this turn", p.Player, p.Callsign)})
			p.Ground.Order = &GroundOrder{}
			return
		}
		o, ok := orders[p.Callsign]
		if !ok {
			r.emit(Event{Turn: ns.Turn, Kind: EvNMR, Player: p.Player, Side: p.Side, Plane: p.Callsign, Impulse: ns.Clock.Impulse,
				Text: fmt.Sprintf("no order from %s for %s: it flew the forwards manoeuvre", p.Player, p.Callsign)})
			p.Imp.Queue = []notation.Manoeuvre{forwards()}
			p.Imp.Done = 0
			return
		}
		p.Imp.Fire = o.Fire.String()
		p.Imp.Queue = append(p.Imp.Queue, o.Manoeuvres...)
		p.Imp.Done = 0
		if probs := r.checkCurrent(p, card); len(probs) > 0 {
			r.emit(Event{Turn: ns.Turn, Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player, Impulse: ns.Clock.Impulse,
				Extra: &Extra{Problems: probs}, Text: fmt.Sprintf("%s's manoeuvre broke the rules and it flew the forwards manoeuvre instead", p.Callsign)})
			p.Imp.Queue = []notation.Manoeuvre{forwards()}
		}
	})
}

// checkCurrent checks the plane's current manoeuvre from where it stands, as far as this turn goes.
func (r *impulseRun) checkCurrent(p *Plane, card *aircraft.Card) []Problem {
	pt := r.planeTurn(p, card)
	return tryManoeuvre(pt, p.Imp.Queue[0], p.Imp.Done).errors
}

// planeTurn is the plane's turn so far, from the impulse about to be played.
func (r *impulseRun) planeTurn(p *Plane, card *aircraft.Card) planeTurn {
	s := p.Imp.Start.Speed.Round()
	left := 0
	for _, x := range Impulses(s) {
		if x >= r.ns.Clock.Impulse {
			left++
		}
	}
	return planeTurn{card: card, start: p.Imp.Start, flown: p.Imp.Flown, left: left, alt: p.Flight.Alt, bank: p.Flight.Bank, engine: engines(card, p.Imp.Start), loaded: p.Flight.Loaded,
		slipLast: p.Imp.SlipLast}
}

// forwards is the forwards manoeuvre `1` (seed 001 X.E.1).
func forwards() notation.Manoeuvre {
	return notation.Manoeuvre{Boxes: []notation.Box{{Move: notation.Element{Kind: notation.Straight, N: 1}, Forwards: true}}}
}

// impulse plays the next impulse, phase by phase (seed 001 III), and moves the clock on.
func (r *impulseRun) impulse() error {
	ns := r.ns
	imp := ns.Clock.Impulse
	r.turn = ns.Turn
	first := len(r.events)
	defer func() {
		// Every event of the impulse says when it happened, the plain game's included.
		for i := first; i < len(r.events); i++ {
			if r.events[i].Impulse == 0 {
				r.events[i].Impulse = imp
			}
		}
	}()
	// A. Spotting (IV.1): once a turn, in impulse 7, from where everyone stands. Without fog of war
	// everyone sees everyone all the time.
	if imp == 7 || !ns.Options.FogOfWar {
		climbs := map[string]int{}
		for i := range ns.Planes {
			p := &ns.Planes[i]
			if p.InPlay() {
				climbs[p.Callsign] = p.Flight.Alt - p.Imp.Start.Alt
			}
		}
		r.spotPhase(climbs)
	}
	// Planes on the ground (IV.2-7): free turns at the start of the turn, engine starts and power or
	// brake in impulse 7.
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if p.Ground == nil || !p.InPlay() {
			continue
		}
		if imp == 1 {
			r.groundTurnStart(p)
		}
		if imp == 7 {
			r.groundImpulse7(p)
		}
	}
	// B. Non-plotted movement (V): trucks, tanks and ships on their routes, and the planes on their decks.
	r.events = append(r.events, moveGround(ns, imp)...)
	ns.carryPlanes()
	r.moveTorpedoes(imp)
	// C. Plotted movement (VI): every plane active in this impulse flies the next box of its manoeuvre.
	moved := map[string]bool{}
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if !p.InPlay() {
			continue
		}
		if err := r.movePlane(p, imp, moved); err != nil {
			return err
		}
	}
	// D. Firing (VII): fixed guns once a turn in an active impulse, flexible guns once a turn in any;
	// the results count at once.
	if err := r.impulseFire(moved); err != nil {
		return err
	}
	// Flak (seed 002) fires after the planes' guns and before bombs.
	r.flakPhase(imp, func(p *Plane) (Flight, bool) { return p.Flight, p.InPlay() }, func(p *Plane) (Flight, bool) {
		if p.Imp == nil {
			return p.Flight, p.InPlay()
		}
		return p.Imp.Start, p.InPlay()
	})
	r.damage()
	// E. Bombs (VIII): released in this impulse, results at once.
	for _, p := range r.releases {
		if card, err := r.cardOf(p.Type); err == nil {
			r.bombingAt(p, card, p.Imp.Start.Alt, false)
		}
	}
	r.releases = nil
	for _, a := range r.attacks {
		card, err := r.cardOf(a.p.Type)
		if err != nil {
			continue
		}
		if !a.p.InPlay() {
			// Shot down by this impulse's guns or flak, which fire before the bomb phase (VIII).
			r.refuse(a.p, imp, attackWord(a.strafe), "it "+goneText(a.p)+" before the bomb phase of the impulse")
			continue
		}
		if a.strafe {
			r.strafe(a.p, card, notation.GroundTarget{}, imp)
		} else {
			r.rocketAttack(a.p, card, notation.GroundTarget{}, imp)
		}
	}
	r.attacks = nil
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if p.Status == ShotDown && p.Imp.DownAt == 0 {
			p.Imp.DownAt = impulseID(ns.Turn, imp)
		}
		if p.InPlay() && p.Flight.NoPower {
			r.erasePower(p)
		}
	}
	// F. Bail out (IX): on the plane's next active impulse after it was shot down.
	r.impulseBailOut(imp)
	// A side with nothing left flying ends the game at once, not at the end of the turn, once the
	// crews of planes shot down have had their bail-out.
	if flyingSides(ns) < 2 && !crewsWaiting(ns) {
		if out := checkVictory(ns); out != nil {
			ns.Over, ns.Outcome = true, out
			r.impulseNoFireTold() // the turn ends here
			r.emit(Event{Turn: ns.Turn, Impulse: imp, Kind: EvGameOver, Extra: &Extra{Outcome: out}, Text: "the game is over: " + out.Reason})
			return nil
		}
	}
	// The clock moves on; after impulse 12 the turn ends (XI) and what is queued is checked again.
	if imp == 12 {
		if err := r.endImpulseTurn(); err != nil {
			return err
		}
	} else {
		ns.Clock.Impulse = imp + 1
	}
	// G. Plotting (X): planes whose manoeuvre is done take the next one queued; the engine stops after
	// this impulse for those with none.
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if p.NeedsOrders() {
			r.stopped[p.Callsign] = true
		}
	}
	return nil
}

// movePlane is one plane's plotted movement in impulse imp (phase C): each of its moves in the impulse
// (two in some above speed 12), straight ahead on the ground. A plane whose manoeuvre ends with the first
// of two moves, with nothing queued, flies the second as the forwards manoeuvre (seed 001 X.E.1): the
// plotting phase comes after movement (seed 001 III), so no new manoeuvre can be written between them.
func (r *impulseRun) movePlane(p *Plane, imp int, moved map[string]bool) error {
	times := activeTimes(p.Imp.Start.Speed.Round(), imp)
	for k := 0; k < times && p.InPlay(); k++ {
		if p.Ground != nil {
			r.groundRoll(p) // on the ground: straight ahead (IV.5)
			continue
		}
		if err := r.fly(p); err != nil {
			return err
		}
		moved[p.Callsign] = true
	}
	return nil
}

// flownBox is what fly reports of one move to impulseRun.flew: the box flown, the check of its
// manoeuvre from where the plane stood, whether the forwards manoeuvre was flown because nothing was
// queued, and whether the box completed its manoeuvre.
type flownBox struct {
	box       notation.Box
	check     flyCheck
	unplotted bool
	completed bool
}

// fly moves a plane one hex: the next box of its manoeuvre.
func (r *impulseRun) fly(p *Plane) error {
	card, err := r.cardOf(p.Type)
	if err != nil {
		return err
	}
	unplotted := len(p.Imp.Queue) == 0
	if unplotted {
		p.Imp.Queue = []notation.Manoeuvre{forwards()}
	}
	m := p.Imp.Queue[0]
	pt := r.planeTurn(p, card)
	pt.left = 1
	fc := tryManoeuvre(pt, m, p.Imp.Done)
	if len(fc.boxes) == 0 {
		return nil
	}
	box := m.Boxes[p.Imp.Done]
	completed := p.Imp.Done == len(m.Boxes)-1
	if r.flew != nil {
		defer func() { r.flew(p, flownBox{box: box, check: fc, unplotted: unplotted, completed: completed}) }()
	}
	fb := fc.boxes[0]
	p.Imp.PrevAlt, p.Imp.NoseLoss = p.Flight.Alt, fb.Mandatory
	p.Imp.Flown = append(p.Imp.Flown, fb)
	res := fc.res // the turn's plot with this box, flown by tryManoeuvre
	if n := len(res.Steps); n > 0 {
		// The plane stands where this box's own movement point put it (the receipt's forecast reads the
		// same step): the first impulse of a half roll ends in the hex between, not at the roll's end.
		s := res.Steps[min(len(pt.flown), n-1)]
		p.Flight.Hex, p.Flight.Facing, p.Flight.Bank = s.Hex, s.Facing, s.Bank
		p.Flight.Phase = res.End.Phase
	}
	p.Flight.Alt = fb.Alt
	p.Imp.Done++
	if fb.Bomb {
		r.release(p)
	}
	if fb.Rocket || fb.Strafe {
		// Like bombs, rockets and strafing take the turn's fixed guns (seed 001 VIII.3, seed 002).
		what := "rocket attack"
		if fb.Strafe {
			what = "strafing attack"
		}
		if p.Imp.FixedFired {
			r.refuse(p, r.ns.Clock.Impulse, what, "it fired its fixed guns this turn, and a plane may not do both in one turn (seed 001 VIII.3)")
		} else {
			p.Imp.FixedFired = true
			r.attacks = append(r.attacks, groundAttack{p: p, strafe: fb.Strafe})
		}
	}
	if p.Imp.Done >= len(m.Boxes) {
		r.emit(Event{Turn: r.ns.Turn, Impulse: r.ns.Clock.Impulse, Kind: EvMove, Plane: p.Callsign, Side: p.Side,
			Move: &MoveDetail{Plot: m.String(), To: p.Flight.Hex, Alt: p.Flight.Alt, Speed: p.Imp.Start.Speed},
			Text: fmt.Sprintf("%s flew %s", p.Callsign, m.String())})
		p.Imp.Queue = p.Imp.Queue[1:]
		p.Imp.Done = 0
		if len(p.Imp.Queue) > 0 {
			r.nextQueued(p, card)
		}
	}
	if p.Flight.Alt < 0 {
		p.Flight.Alt = 0
		p.Status = Crashed
		r.emit(Event{Turn: r.ns.Turn, Impulse: r.ns.Clock.Impulse, Kind: EvCrash, Plane: p.Callsign, Side: p.Side, Text: p.Callsign + " flew into the ground"})
		return nil
	}
	if edge := r.ns.Map.Outside(p.Flight.Hex); edge != "" {
		p.Status, p.ExitEdge = Disengaged, edge
		r.emit(Event{Turn: r.ns.Turn, Impulse: r.ns.Clock.Impulse, Kind: EvDisengaged, Plane: p.Callsign, Side: p.Side, Extra: &Extra{Edge: edge},
			Text: fmt.Sprintf("%s left the map by the %s edge", p.Callsign, edge)})
	}
	return nil
}

// nextQueued checks the manoeuvre that has just become current: one that can no longer be flown from
// where the plane now stands is dropped with the rest of the queue, and the owner is told why and
// asked again.
func (r *impulseRun) nextQueued(p *Plane, card *aircraft.Card) {
	saved := r.ns.Clock.Impulse
	if saved == 12 {
		return // it starts next turn, and is checked when the turn begins (endImpulseTurn)
	}
	r.ns.Clock.Impulse++ // the next manoeuvre starts in a later impulse
	probs := r.checkCurrent(p, card)
	r.ns.Clock.Impulse = saved
	r.dropIllegal(p, probs, saved)
}

// dropIllegal clears a plane's queue when its current manoeuvre cannot be flown, and says why.
func (r *impulseRun) dropIllegal(p *Plane, probs []Problem, saved int) {
	if len(probs) == 0 {
		return
	}
	var why []string
	for _, pr := range probs {
		why = append(why, pr.Message)
	}
	r.emit(Event{Turn: r.ns.Turn, Impulse: saved, Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player, Extra: &Extra{Problems: probs},
		Text: fmt.Sprintf("%s's queued manoeuvre %s can no longer be flown (%s): its queue was cleared and a new order is needed", p.Callsign, p.Imp.Queue[0].String(), strings.Join(why, "; "))})
	p.Imp.Queue = nil
}

// airborne says a plane is in play and in the air, not on the ground or a carrier's deck.
func airborne(p *Plane) bool { return p.InPlay() && p.Ground == nil }

// impulseFire fires what may fire this impulse.
func (r *impulseRun) impulseFire(moved map[string]bool) error {
	ns := r.ns
	var shooters []*flown
	// Planes on the ground do not fire (house rule).
	err := r.eachPlane(airborne, func(p *Plane, card *aircraft.Card) {
		fire, ds := parser.ParseFire(p.Imp.Fire, 1)
		if parser.HasErrors(ds) {
			fire = parser.Fire{Mode: parser.FireAny}
		}
		climb := p.Flight.Alt - p.Imp.PrevAlt + p.Imp.NoseLoss
		if !moved[p.Callsign] {
			climb = 0
		}
		shooters = append(shooters, &flown{p: p, card: card, fire: fire, climb: climb})
	})
	if err != nil {
		return err
	}
	for _, f := range shooters {
		if f.fire.Mode == parser.FireHold {
			continue
		}
		var cands []candidate
		for _, g := range shooters {
			tg := g.p
			if tg.Side == f.p.Side || !ns.Sight[f.p.Side][tg.Callsign].Spotted {
				continue
			}
			d := hexmap.Distance(f.p.Flight.Hex, tg.Flight.Hex)
			if d == 0 || d > MaxFireRange {
				continue
			}
			cands = append(cands, candidate{p: tg, rangeAdj: AdjustedRange(d, tg.Flight.Alt-f.p.Flight.Alt)})
		}
		if len(cands) == 0 {
			r.impulseNoFire(f, moved[f.p.Callsign])
			continue
		}
		sortCandidates(cands)
		if moved[f.p.Callsign] && !f.p.Imp.FixedFired {
			before := len(r.events)
			if err := r.fireFixed(f, cands); err != nil {
				return err
			}
			f.p.Imp.FixedFired = len(r.events) > before
			f.p.Imp.Fired = f.p.Imp.Fired || len(r.events) > before
		}
		if !f.p.Imp.FlexFired {
			before := len(r.events)
			if err := r.fireFlex(f, cands); err != nil {
				return err
			}
			f.p.Imp.FlexFired = len(r.events) > before
			f.p.Imp.Fired = f.p.Imp.Fired || len(r.events) > before
		}
		r.impulseNoFire(f, moved[f.p.Callsign])
	}
	return nil
}

// impulseNoFire keeps, for a plane that has fired nothing yet this turn, why its fire order did not
// fire in this impulse; the last such reason is told at the end of the turn (endImpulseTurn), since a
// standing order may still fire in a later impulse (seed 001 VII.2, VII.4).
func (r *impulseRun) impulseNoFire(f *flown, moved bool) {
	p := f.p
	if p.Imp.Fired {
		p.Imp.NoFire = ""
		return
	}
	var ch fireChance
	switch {
	case p.Imp.FixedFired:
		// Only a release of bombs, rockets or a torpedo sets it without a burst (release, fly).
		ch.fixedBlocked = "do not fire the turn it releases bombs, rockets or a torpedo (seed 001 VIII.3)"
	case !moved:
		ch.fixedIdle = "they fire only in an impulse in which the plane moves (seed 001 VII.2)"
	}
	_, text, ok := r.noFireLine(f, ch)
	if !ok {
		return
	}
	p.Imp.NoFire = fmt.Sprintf("%s (impulse %d, the last it was tried in)", text, r.ns.Clock.Impulse)
}

// impulseNoFireTold tells, at the end of an impulse game's turn, each side why its planes' fire
// orders fired nothing that turn, and why a plane shot down this turn before it had fired did not.
func (r *impulseRun) impulseNoFireTold() {
	ns := r.ns
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if p.Imp == nil || p.Imp.Fired || p.Ground != nil {
			continue
		}
		text := p.Imp.NoFire
		fire, ds := parser.ParseFire(p.Imp.Fire, 1)
		if !p.InPlay() {
			text = ""
			if p.Imp.DownAt > impulseID(ns.Turn, 0) && !parser.HasErrors(ds) &&
				(fire.Mode == parser.FireTarget || fire.Mode == parser.FireAny && p.Imp.NoFire != "") {
				text = p.Callsign + " did not fire: it had been shot down"
			}
		}
		if text == "" {
			continue
		}
		r.emit(Event{Turn: ns.Turn, Impulse: ns.Clock.Impulse, Kind: EvNoFire, Plane: p.Callsign, Side: p.Side, Player: p.Player, Target: fire.Target, Text: text})
	}
}

// impulseBailOut lets the crews of planes shot down in an earlier impulse jump, at the plane's next
// active impulse (seed 001 IX.3).
func (r *impulseRun) impulseBailOut(imp int) {
	ns := r.ns
	now := impulseID(ns.Turn, imp)
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if p.Status != ShotDown || p.Imp == nil || p.Imp.DownAt == 0 || p.Imp.DownAt >= now {
			continue
		}
		if activeTimes(p.Imp.Start.Speed.Round(), imp) == 0 && p.Imp.Start.Speed.Round() > 0 {
			continue
		}
		r.bailOne(p)
	}
}

// bailOne is the plain game's bail-out for one plane (bailOut), now.
func (r *impulseRun) bailOne(p *Plane) {
	status := map[string]Status{}
	for i := range r.ns.Planes {
		q := &r.ns.Planes[i]
		status[q.Callsign] = q.Status
		if q != p && q.Status == ShotDown {
			q.Status = "waiting"
		}
	}
	r.bailOut()
	for i := range r.ns.Planes {
		q := &r.ns.Planes[i]
		if q != p && status[q.Callsign] == ShotDown {
			q.Status = ShotDown
		}
	}
}

// endImpulseTurn closes the turn after impulse 12 (XI): every plane's turn plot gives its new initial
// speed as in the plain game; its altitude is the last written and its bank the one at the end of its
// last completed manoeuvre; the turn's firing and the clock start again.
func (r *impulseRun) endImpulseTurn() error {
	ns := r.ns
	r.impulseNoFireTold()
	for i := range ns.Planes {
		p := &ns.Planes[i]
		if p.Imp == nil {
			continue
		}
		if p.InPlay() && p.Ground != nil {
			card, err := r.cardOf(p.Type)
			if err != nil {
				return err
			}
			r.groundTurnEnd(p, card)
		} else if p.InPlay() {
			card, err := r.cardOf(p.Type)
			if err != nil {
				return err
			}
			plot := turnPlot(p.Imp.Start, p.Imp.Flown)
			res := moveWith(card, p.Imp.Start, plot, loopDir(p.Imp.Flown))
			end := res.End
			end.Alt = p.Flight.Alt
			end.Hex, end.Facing, end.Bank = p.Flight.Hex, p.Flight.Facing, p.Flight.Bank
			end.Straight = hexesSinceManoeuvre(p.Imp.Start, p.Imp.Flown)
			end.NoPower = p.Flight.NoPower
			p.Flight = end
		}
		p.Imp.Start = p.Flight
		p.Imp.SlipLast = lastWasSlip(p.Imp.SlipLast, p.Imp.Flown)
		p.Imp.Flown = nil
		p.Imp.FixedFired, p.Imp.FlexFired = false, false
		p.Imp.Fired, p.Imp.NoFire = false, ""
	}
	ns.Clock.Impulse = 1
	r.endTurn()
	// A manoeuvre under way, or next in the queue, is checked again from the new initial values.
	return r.eachPlane(func(p *Plane) bool { return airborne(p) && len(p.Imp.Queue) > 0 }, func(p *Plane, card *aircraft.Card) {
		r.turn = ns.Turn
		r.dropIllegal(p, r.checkCurrent(p, card), 1)
	})
}

func (pi *PlaneImpulse) clone() *PlaneImpulse {
	if pi == nil {
		return nil
	}
	c := *pi
	c.Queue = make([]notation.Manoeuvre, len(pi.Queue))
	for i, m := range pi.Queue {
		m.Boxes = append([]notation.Box(nil), m.Boxes...)
		c.Queue[i] = m
	}
	if pi.Queue == nil {
		c.Queue = nil
	}
	c.Flown = append([]FlownBox(nil), pi.Flown...)
	return &c
}

// flyingSides counts the sides with a plane in play.
func flyingSides(st *State) int {
	sides := map[string]bool{}
	for _, p := range st.Planes {
		if p.InPlay() {
			sides[p.Side] = true
		}
	}
	return len(sides)
}

// crewsWaiting says a plane shot down still waits for its crew's bail-out.
func crewsWaiting(st *State) bool {
	for _, p := range st.Planes {
		if p.Status == ShotDown {
			return true
		}
	}
	return false
}

// erasePower takes the power factors out of what a plane that has lost an engine still has to fly, and
// tells its owner (seed 001 X.C.3).
func (r *impulseRun) erasePower(p *Plane) {
	erased := 0
	for qi := range p.Imp.Queue {
		m := &p.Imp.Queue[qi]
		boxes := append([]notation.Box(nil), m.Boxes...)
		from := 0
		if qi == 0 {
			from = p.Imp.Done
		}
		for bi := from; bi < len(boxes); bi++ {
			erased += boxes[bi].Power
			boxes[bi].Power, boxes[bi].PowerCol = 0, 0
		}
		m.Boxes = boxes
	}
	if erased > 0 {
		r.emit(Event{Turn: r.ns.Turn, Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player,
			Text: fmt.Sprintf("%s has lost an engine: the %d power factor%s still to come in its manoeuvres were erased (seed 001 X.C.3)", p.Callsign, erased, plural(erased))})
	}
}

// impulseDice names every roll with its impulse, "turn 2 impulse 7 RED1 spots BLUE1: D6", so labels are
// unique across the engine's stops (ruleset.DiceStreamer).
type impulseDice struct {
	inner dice.Source
	clock *ImpulseClock
}

func (d *impulseDice) Roll(label string, sides int) int {
	if rest, ok := strings.CutPrefix(label, "turn "); ok {
		if n, after, ok := strings.Cut(rest, " "); ok {
			return d.inner.Roll(fmt.Sprintf("turn %s impulse %d %s", n, d.clock.Impulse, after), sides)
		}
	}
	return d.inner.Roll(fmt.Sprintf("impulse %d %s", d.clock.Impulse, label), sides)
}

func (d *impulseDice) Log() []dice.Roll { return d.inner.Log() }

// Reserve gives the log room for n more rolls (dice.Reserve).
func (d *impulseDice) Reserve(n int) { dice.Reserve(d.inner, n) }

// release readies a plane's bombs for this impulse's bomb phase (seed 001 VIII): only in an active
// impulse (it is flying one), and no fixed guns the turn it drops them (VIII.3): a plane that fired its
// fixed guns earlier in the turn keeps its bombs, and one that drops them fires no fixed guns after.
func (r *impulseRun) release(p *Plane) {
	if !p.Flight.Loaded {
		// Its load went earlier: dropped, or jettisoned with an engine lost (docs/rulings.md, damage).
		r.refuse(p, r.ns.Clock.Impulse, "bomb release", "it had nothing left to drop")
		return
	}
	if p.Imp.FixedFired {
		r.emit(Event{Turn: r.ns.Turn, Impulse: r.ns.Clock.Impulse, Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player,
			Text: fmt.Sprintf("%s kept its bombs: it fired its fixed guns this turn, and a plane may not do both in one turn (seed 001 VIII.3)", p.Callsign)})
		return
	}
	p.Imp.FixedFired = true
	p.Bombed = &BombRelease{Turn: r.ns.Turn, Hex: p.Flight.Hex, Alt: p.Flight.Alt}
	p.Flight.Loaded = false
	r.releases = append(r.releases, p)
}
