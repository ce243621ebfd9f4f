package tnl

import (
	"fmt"
	"strings"

	"sortie/parser"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/tnl/notation"
)

// Resolve plays one turn (seed 003, "Turn Sequence"): initiative, movement phase 1, combat phase 1,
// movement phase 2, combat phase 2 with the attacks on ships, then units that have drifted apart split,
// sight and victory. It never changes st and draws every random number from src with a label.
func Resolve(d *Data, st *State, orders map[string]string, src dice.Source) (*State, []Event, error) {
	r := &resolver{d: d, st: st.Clone(), src: src, turn: st.Turn, plots: map[string]notation.Segment{},
		changing: map[string]bool{}, fired: map[string]bool{}, jinx: map[string]bool{}, straight: map[string]int{}, base: map[string]int{},
		noFire: map[string]string{}, goneTold: map[string]bool{}}
	r.play(orders)
	return r.st, r.events, nil
}

type resolver struct {
	d        *Data
	st       *State
	src      dice.Source
	events   []Event
	turn     int
	plots    map[string]notation.Segment // each aircraft's plot this turn
	changing map[string]bool             // diving or climbing in phase 1: no combat
	fired    map[string]bool
	jinx     map[string]bool // the jinx skill used this turn
	straight map[string]int  // straight hexes carried from phase 1
	base     map[string]int  // speed flown in phase 1 without the altitude modifier
	attacks  []attack
	// noFire holds, for each aircraft whose fire order has fired nothing yet this turn, why not in
	// the last combat phase it was tried; goneTold the aircraft already answered for as destroyed.
	noFire   map[string]string
	goneTold map[string]bool
}

type attack struct {
	a   *Aircraft
	seg notation.Segment
}

func (r *resolver) emit(e Event) {
	e.Turn = r.turn
	r.events = append(r.events, e)
}

func (r *resolver) sheet(a *Aircraft) *Sheet {
	sh, ok := r.d.Sheet(a.Type)
	if !ok {
		panic("tnl: no type " + a.Type) // NewGame and Load refuse unknown types
	}
	return sh
}

func (r *resolver) roll(label string) int { return r.src.Roll(label, 6) }

func (r *resolver) lastRoll() dice.Roll {
	l := r.src.Log()
	return l[len(l)-1]
}

func (r *resolver) play(orders map[string]string) {
	st := r.st
	for i := range st.Aircraft {
		st.Aircraft[i].Track = nil
	}
	for i := range st.Ground {
		st.Ground[i].HeavyFired = false
	}
	var active []*Unit
	for i := range st.Units {
		if u := &st.Units[i]; len(st.Flying(u)) > 0 {
			active = append(active, u)
		}
	}
	for _, u := range active {
		r.takeOrder(u, orders)
	}
	order := r.initiative(active)
	for ph := 0; ph < 2; ph++ {
		r.moveShips(ph)
		for _, u := range order {
			for _, a := range st.Flying(u) {
				r.fly(a, ph)
			}
		}
		if ph == 0 {
			for i := range st.Aircraft {
				a := &st.Aircraft[i]
				if a.InPlay() && r.changing[a.Callsign] {
					switch r.plots[a.Callsign].Alt {
					case notation.Dive:
						a.Level--
					case notation.Climb:
						a.Level++
					}
				}
			}
		}
		r.combat(ph)
	}
	r.split()
	updateSight(st, r.emit)
	st.Turn++
	if out := checkVictory(st); out != nil {
		st.Over, st.Outcome = true, out
		r.emit(Event{Kind: EvGameOver, Outcome: out, Text: "the game is over: " + out.Text(st.Sides)})
	}
}

// takeOrder reads a unit's order and gives each aircraft its plot; a missing or broken order flies the
// default.
func (r *resolver) takeOrder(u *Unit, orders map[string]string) {
	st := r.st
	def := DefaultOrder(r.d, st, u)
	text, ok := orders[u.Name]
	o := def
	if !ok {
		r.emit(Event{Kind: EvNMR, Unit: u.Name, Side: u.Side, Player: u.Player,
			Text: fmt.Sprintf("no order came for %s: it flies straight on (%s)", u.Name, def)})
	} else {
		parsed, ds := notation.Parse(text)
		var problems []Problem
		for _, d := range ds {
			if d.Severity == parser.SeverityError {
				problems = append(problems, Problem{Code: d.Code, Col: d.Col, Message: d.Message})
			}
		}
		if len(problems) == 0 {
			problems = CheckOrder(r.d, st, u, parsed).Errors
		}
		if len(problems) > 0 {
			r.emit(Event{Kind: EvIllegalOrder, Unit: u.Name, Side: u.Side, Problems: problems,
				Text: fmt.Sprintf("the order for %s breaks a rule, so it flies straight on (%s)", u.Name, def)})
		} else {
			o = parsed
		}
	}
	u.Fire = o.Unit().Fire.String()
	for _, a := range st.Flying(u) {
		seg := o.For(a.Callsign)
		r.plots[a.Callsign] = seg
		r.changing[a.Callsign] = seg.Alt != notation.Level
		a.DiveRun = diveRunAfter(a, seg)
	}
}

// diveRunAfter says whether aircraft a is on a dive run once it flies seg, and so may dive-bomb: it dives
// from Medium, or dives on from a dive run (seed 003, "Dive Bombing": the dive starts at Medium).
func diveRunAfter(a *Aircraft, seg notation.Segment) bool {
	return seg.Alt == notation.Dive && (a.Level == Medium || a.DiveRun)
}

// initiative rolls 2D6 for each unit: the lowest moves first (seed 003, "Deciding Initiative"). Units
// that tie roll 2D6 again among themselves; a second tie goes by the units' names (docs/tnl.md).
func (r *resolver) initiative(active []*Unit) []*Unit {
	first, tie := map[string]int{}, map[string]int{}
	rolls := map[string][]dice.Roll{}
	count := map[int]int{}
	two := func(label, name string) int {
		a := r.roll(label)
		rolls[name] = append(rolls[name], r.lastRoll())
		b := r.roll(label)
		rolls[name] = append(rolls[name], r.lastRoll())
		return a + b
	}
	for _, u := range active {
		first[u.Name] = two(fmt.Sprintf("turn %d initiative %s", r.turn, u.Name), u.Name)
		count[first[u.Name]]++
	}
	for _, u := range active {
		if count[first[u.Name]] > 1 {
			tie[u.Name] = two(fmt.Sprintf("turn %d initiative tie-break %s", r.turn, u.Name), u.Name)
		}
	}
	order := append([]*Unit(nil), active...)
	ruleset.InitiativeOrder(order, func(u *Unit) string { return u.Name }, first, tie)
	for _, u := range order {
		text := fmt.Sprintf("%s rolled %d for initiative", u.Name, first[u.Name])
		if t, ok := tie[u.Name]; ok {
			text += fmt.Sprintf(", and %d to break a tie", t)
		}
		r.emit(Event{Kind: EvInitiative, Unit: u.Name, Side: u.Side, Roll: first[u.Name], Dice: rolls[u.Name], Text: text})
	}
	return order
}

// moveShips moves each ship afloat straight ahead: half its speed in each movement phase, the odd hex in
// the first.
func (r *resolver) moveShips(ph int) {
	for i := range r.st.Ground {
		g := &r.st.Ground[i]
		if g.Kind != "ship" || g.Sunk() || g.Speed == 0 {
			continue
		}
		g.Hex = shipAfter(g, ph)
	}
}

// shipAfter is the hex a ship afloat reaches in movement phase ph, straight ahead: half its speed, the
// odd hex in the first phase.
func shipAfter(g *Ground, ph int) hexmap.Hex {
	n := (g.Speed + 1) / 2
	if ph == 1 {
		n = g.Speed / 2
	}
	h := g.Hex
	for k := 0; k < n; k++ {
		h = h.Neighbor(g.Facing)
	}
	return h
}

// fly moves an aircraft through one movement phase of its plot. Phase 2 is checked again against the
// aircraft as it is then: damage taken in combat phase 1 may forbid it, and it then flies straight on.
func (r *resolver) fly(a *Aircraft, ph int) {
	sh := r.sheet(a)
	seg := r.plots[a.Callsign]
	fs := FS(sh, a, r.st.LoadedModifiers)
	steps := seg.Phases[ph]
	mod := AltMod(sh, seg.Alt, ph)
	prev := a.Speed
	start := Pos{Hex: a.Hex, Facing: a.Facing, Inverted: a.Inverted}
	res := FlyPhase(start, r.straight[a.Callsign], steps, fs)
	lo, hi := SpeedRange(sh, a, ph, prev, r.st.LoadedModifiers)
	if base := res.Hexes - mod; len(res.Errors) > 0 || base < lo || base > hi {
		v := min(max(prev, lo), hi)
		steps = []notation.Step{{Kind: notation.Straight, N: v + mod}}
		res = FlyPhase(start, r.straight[a.Callsign], steps, fs)
		r.emit(Event{Kind: EvIllegalOrder, Phase: ph + 1, Unit: a.Callsign, Side: a.Side,
			Text: fmt.Sprintf("%s cannot fly its phase %d plot as it is now (fly-straight %d, speed %d to %d): it flies straight on %d", a.Callsign, ph+1, fs, lo+mod, hi+mod, v+mod)})
	}
	a.Hex, a.Facing, a.Inverted = res.End.Hex, res.End.Facing, res.End.Inverted
	a.Speed = max(res.Hexes-mod, 1)
	r.straight[a.Callsign] = res.Straight
	if ph == 0 {
		a.Track = append(a.Track, start.Hex)
	}
	a.Track = append(a.Track, res.Track...)
	var toks []string
	for _, s := range steps {
		toks = append(toks, s.Token())
	}
	change := ""
	if ph == 0 && seg.Alt == notation.Dive {
		change = fmt.Sprintf(", diving to %s", a.Level-1)
	} else if ph == 0 && seg.Alt == notation.Climb {
		change = fmt.Sprintf(", climbing to %s", a.Level+1)
	}
	inv := ""
	if a.Inverted {
		inv = ", inverted"
	}
	r.emit(Event{Kind: EvMove, Phase: ph + 1, Unit: a.Callsign, Side: a.Side,
		Move: &MoveDetail{Order: strings.Join(toks, " "), From: start, To: res.End, Level: a.Level, Path: res.Track},
		Text: fmt.Sprintf("phase %d: %s flew %s from %s to %s, facing %s at %s%s%s", ph+1, a.Callsign, strings.Join(toks, " "), start.Hex, a.Hex, facingText(a.Facing), a.Level, change, inv)})
	if ph == 1 && seg.Attack.Kind != "" && a.Loaded {
		r.attacks = append(r.attacks, attack{a: a, seg: seg})
	}
}

func facingText(d hexmap.Dir) string { return d.String() }

// split makes a new unit of the aircraft of a unit that ended the turn more than 2 hexes from the rest
// (seed 003, "Starting a game"): aircraft within 2 hexes of one another, directly or through others,
// fly together; the group with the unit's first aircraft keeps its name, and each other group becomes a
// unit named after its own first aircraft.
func (r *resolver) split() {
	st := r.st
	var added []Unit
	for i := range st.Units {
		u := &st.Units[i]
		fl := st.Flying(u)
		if len(fl) < 2 {
			continue
		}
		group := map[string]int{}
		n := 0
		for _, a := range fl {
			if _, ok := group[a.Callsign]; ok {
				continue
			}
			group[a.Callsign] = n
			queue := []*Aircraft{a}
			for len(queue) > 0 {
				x := queue[0]
				queue = queue[1:]
				for _, b := range fl {
					if _, ok := group[b.Callsign]; !ok && hexmap.Distance(x.Hex, b.Hex) <= 2 {
						group[b.Callsign] = n
						queue = append(queue, b)
					}
				}
			}
			n++
		}
		if n == 1 {
			continue
		}
		var keep []string
		newUnits := make([]Unit, n)
		for _, cs := range u.Members {
			k, ok := group[cs]
			switch {
			case !ok || k == 0:
				keep = append(keep, cs)
			default:
				nu := &newUnits[k]
				if nu.Name == "" {
					*nu = Unit{Name: cs, Side: u.Side, Player: u.Player, Fire: u.Fire}
				}
				nu.Members = append(nu.Members, cs)
				st.Plane(cs).Unit = nu.Name
			}
		}
		u.Members = keep
		for _, nu := range newUnits[1:] {
			added = append(added, nu)
			r.emit(Event{Kind: EvSplit, Unit: nu.Name, Side: nu.Side, Members: nu.Members,
				Text: fmt.Sprintf("%s ended more than 2 hexes from the rest of %s: from next turn %s flies as unit %s", strings.Join(nu.Members, ", "), u.Name, strings.Join(nu.Members, ", "), nu.Name)})
		}
	}
	st.Units = append(st.Units, added...)
	st.sortUnits()
}

// updateSight works out which enemy aircraft each side sees when a turn ends: every one when visibility
// is the whole table, else those within visibility of one of its aircraft in play, ships or sites.
// Aircraft destroyed this turn stay in sight where they fell. emit, if not nil, gets the changes.
func updateSight(st *State, emit func(Event)) {
	for _, side := range st.Sides {
		old := st.Sight[side]
		now := map[string]bool{}
		for i := range st.Aircraft {
			e := &st.Aircraft[i]
			if e.Side == side || !(e.InPlay() || e.Status == Destroyed && e.DownTurn == st.Turn) {
				continue
			}
			seen := st.Visibility == 0
			for j := 0; !seen && j < len(st.Aircraft); j++ {
				o := &st.Aircraft[j]
				seen = o.Side == side && o.InPlay() && hexmap.Distance(o.Hex, e.Hex) <= st.Visibility
			}
			for j := 0; !seen && j < len(st.Ground); j++ {
				g := &st.Ground[j]
				seen = g.Side == side && !g.Sunk() && hexmap.Distance(g.Hex, e.Hex) <= st.Visibility
			}
			if seen {
				now[e.Callsign] = true
			}
			if emit == nil || !e.InPlay() {
				continue
			}
			switch {
			case seen && !old[e.Callsign]:
				emit(Event{Kind: EvSpotted, Unit: e.Callsign, Side: side, Text: fmt.Sprintf("%s came in sight at %s at %s", e.Callsign, e.Hex, e.Level)})
			case !seen && old[e.Callsign]:
				emit(Event{Kind: EvLostSight, Unit: e.Callsign, Side: side, Text: fmt.Sprintf("%s was lost to sight", e.Callsign)})
			}
		}
		st.Sight[side] = now
	}
}

// checkVictory ends the game at the turn limit or when at most one side has aircraft in play, and scores
// the victory conditions.
func checkVictory(st *State) *Outcome {
	out := ruleset.Ended(st.Turn, st.TurnLimit, st.Sides, st.Aircraft, func(a *Aircraft) (string, bool, ruleset.Fate) {
		return a.Side, a.InPlay(), ruleset.Fate{Unit: a.Callsign, How: a.fate()}
	})
	if out == nil {
		return nil
	}
	for _, c := range st.Victory {
		if c.Kind == "sink" {
			if g := st.GroundNamed(c.Ship); g != nil && g.Sunk() {
				out.Score[c.Side] += c.Points
			}
			continue
		}
		for _, cs := range c.Aircraft {
			a := st.Plane(cs)
			if a == nil {
				continue
			}
			if c.Kind == "destroy" && a.Status == Destroyed || c.Kind == "survive" && a.InPlay() {
				out.Score[c.Side] += c.Points
			}
		}
	}
	out.Decide(st.Sides)
	return out
}
