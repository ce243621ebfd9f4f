package tnl

import (
	"fmt"
	"sort"
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
		changing: map[string]bool{}, fired: map[string]bool{}, jinx: map[string]bool{}, straight: map[string]int{}, base: map[string]int{}}
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
		switch {
		case seg.Alt == notation.Dive && a.Level == Medium:
			a.DiveRun = true
		case seg.Alt == notation.Dive && a.DiveRun:
		default:
			a.DiveRun = false
		}
	}
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
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i].Name, order[j].Name
		if first[a] != first[b] {
			return first[a] < first[b]
		}
		if tie[a] != tie[b] {
			return tie[a] < tie[b]
		}
		return a < b
	})
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
		n := (g.Speed + 1) / 2
		if ph == 1 {
			n = g.Speed / 2
		}
		for k := 0; k < n; k++ {
			g.Hex = g.Hex.Neighbor(g.Facing)
		}
	}
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

// fireAllowed says whether the aircraft's fire order lets it fire in combat phase ph (0 or 1).
func fireAllowed(f notation.Fire, ph int) bool {
	switch f.Mode {
	case notation.FireHold:
		return false
	case notation.FireLate:
		return ph == 1
	case notation.FireTarget:
		return !f.Late || ph == 1
	}
	return true
}

// shot is one attack on an aircraft, planned before any die is thrown (all fire in a phase is
// simultaneous).
type shot struct {
	firer  string // an aircraft's callsign, or a ship's or site's with the AA class
	side   string
	target *Aircraft
	rng    int
	groups []group
	aa     string // the AA class, for AA fire
	deadly bool
	from   *Aircraft
}

type group struct {
	colour Colour
	pivot  bool
	n      int
	need   int
}

// engageable reports whether an aircraft can be fired at in this combat phase: in play, and not diving
// or climbing in phase 1.
func (r *resolver) engageable(a *Aircraft, ph int) bool {
	return a.InPlay() && !(ph == 0 && r.changing[a.Callsign])
}

// groupsAt works out the dice an aircraft brings to bear on a target: its fixed guns when the target is
// in the forward arc, each flexible mount, with the score each needs; groups that cannot hit are left out.
func groupsAt(sh *Sheet, a *Aircraft, t *Aircraft) []group {
	rng := max(hexmap.Distance(a.Hex, t.Hex), 1)
	base := ToHit{Range: rng, Inverted: a.Inverted, Training: a.Training, Aim: a.Has(SkillAim), Gunsight: a.Gunsight}
	var out []group
	if InForwardArc(a.Hex, a.Facing, t.Hex) {
		for c := White; c <= Blue; c++ {
			if n := sh.Fixed[c]; n > 0 {
				if need := base.Need(); need <= 6 {
					out = append(out, group{colour: c, n: n, need: need})
				}
			}
		}
	}
	for _, m := range sh.Flexible {
		th := base
		th.Pivot = m.Pivot
		th.Gunsight = "" // gun sights are for the pilot's fixed guns
		if need := th.Need(); need <= 6 {
			merged := false
			for i := range out {
				if out[i].colour == m.Colour && out[i].pivot == m.Pivot && out[i].need == need {
					out[i].n++
					merged = true
				}
			}
			if !merged {
				out = append(out, group{colour: m.Colour, pivot: m.Pivot, n: 1, need: need})
			}
		}
	}
	return out
}

// worth is the hits a batch of dice is expected to score, in sixths.
func worth(gs []group) int {
	w := 0
	for _, g := range gs {
		w += g.n * (7 - g.need)
	}
	return w
}

// combat plays a combat phase: every aircraft that may fire and has not fired this turn picks its
// target, every AA gun that may fire picks one, and then all dice are thrown and all hits saved or
// suffered at once (seed 003: all fire in a phase is simultaneous). In phase 2 the attacks on ships go in
// too.
func (r *resolver) combat(ph int) {
	st := r.st
	var shots []shot
	for i := range st.Aircraft {
		a := &st.Aircraft[i]
		f := r.plots[a.Callsign].Fire
		if !r.engageable(a, ph) || r.fired[a.Callsign] || !fireAllowed(f, ph) {
			continue
		}
		sh := r.sheet(a)
		var best *Aircraft
		var bestGroups []group
		bestW, bestD := 0, 0
		for j := range st.Aircraft {
			t := &st.Aircraft[j]
			if t.Side == a.Side || t.Level != a.Level || !r.engageable(t, ph) {
				continue
			}
			if f.Mode == notation.FireTarget && t.Callsign != f.Target && t.Unit != f.Target {
				continue
			}
			dist := hexmap.Distance(a.Hex, t.Hex)
			if st.Visibility > 0 && dist > st.Visibility {
				continue
			}
			gs := groupsAt(sh, a, t)
			w := worth(gs)
			if w == 0 {
				continue
			}
			if best == nil || w > bestW || w == bestW && dist < bestD {
				best, bestGroups, bestW, bestD = t, gs, w, dist
			}
		}
		if best == nil {
			continue
		}
		r.fired[a.Callsign] = true
		shots = append(shots, shot{firer: a.Callsign, side: a.Side, from: a, target: best, rng: max(bestD, 1), groups: bestGroups, deadly: a.Has(SkillDeadly)})
	}
	shots = append(shots, r.aaShots(ph)...)
	// Throw every to-hit die.
	type result struct {
		s        shot
		groups   []GroupDetail
		hits     []Colour
		rerolled bool
		dice     []dice.Roll
	}
	var results []result
	for _, s := range shots {
		res := result{s: s}
		for _, g := range s.groups {
			gd := GroupDetail{Colour: g.colour, Pivot: g.pivot, Need: g.need}
			for k := 0; k < g.n; k++ {
				v := r.roll(fmt.Sprintf("turn %d phase %d %s fires at %s: %s die", r.turn, ph+1, s.firer, s.target.Callsign, g.colour))
				res.dice = append(res.dice, r.lastRoll())
				if Hits(v, g.need) && s.target.Has(SkillJinx) && !r.jinx[s.target.Callsign] {
					r.jinx[s.target.Callsign] = true
					res.rerolled = true
					v = r.roll(fmt.Sprintf("turn %d phase %d %s fires at %s: %s die rolled again (jinx)", r.turn, ph+1, s.firer, s.target.Callsign, g.colour))
					res.dice = append(res.dice, r.lastRoll())
				}
				gd.Rolls = append(gd.Rolls, v)
				if Hits(v, g.need) {
					gd.Hits++
					res.hits = append(res.hits, g.colour)
				}
			}
			res.groups = append(res.groups, gd)
		}
		results = append(results, res)
	}
	// Saving rolls and damage, target by target in the order the shots were planned.
	destroyed := map[string]bool{}
	for _, res := range results {
		s, t := res.s, res.s.target
		tsh := r.sheet(t)
		d := &ShotDetail{Range: s.rng, Groups: res.groups, Rerolled: res.rerolled, SR: tsh.SR, Saves: []SaveDetail{}}
		evDice := append([]dice.Roll(nil), res.dice...)
		for _, c := range res.hits {
			if t.Status != Flying {
				break
			}
			sv := Save{SR: tsh.SR, Colour: c, Lucky: t.Has(SkillLucky), Deadly: s.deadly}
			v := r.roll(fmt.Sprintf("turn %d phase %d %s saving roll", r.turn, ph+1, t.Callsign))
			evDice = append(evDice, r.lastRoll())
			sd := SaveDetail{Colour: c, Mod: sv.Mod(), Roll: v, Saved: sv.Saved(v)}
			if !sd.Saved {
				t.Hits++
				d.Suffered++
				sd.Effect = HitText(tsh.Hits, t.Hits)
				if Effects(tsh.Hits, t.Hits).Destroyed {
					t.Status, t.DownTurn = Destroyed, r.turn
					destroyed[t.Callsign] = true
				}
			}
			d.Saves = append(d.Saves, sd)
		}
		kind, who := EvFire, s.firer
		if s.aa != "" {
			kind, who = EvAA, fmt.Sprintf("%s's %s AA", s.firer, s.aa)
		}
		r.emit(Event{Kind: kind, Phase: ph + 1, Unit: s.firer, Side: s.side, Target: t.Callsign, TargetSide: t.Side, Shot: d, Dice: evDice,
			Text: fmt.Sprintf("combat phase %d: %s fired at %s at range %d: %s; %s", ph+1, who, t.Callsign, s.rng, groupsText(res.groups), savesText(d))})
	}
	if ph == 1 {
		r.shipAttacks()
	}
	for _, cs := range sortedKeys(destroyed) {
		a := st.Plane(cs)
		r.emit(Event{Kind: EvDestroyed, Phase: ph + 1, Unit: cs, Side: a.Side, Text: fmt.Sprintf("%s (%s) was destroyed", cs, r.sheet(a).Name)})
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func groupsText(gs []GroupDetail) string {
	var parts []string
	for _, g := range gs {
		p := ""
		if g.Pivot {
			p = " (pivot mount)"
		}
		parts = append(parts, fmt.Sprintf("%d %s%s needing %d: %s, %d hit%s", len(g.Rolls), g.Colour, p, g.Need, ints(g.Rolls), g.Hits, plural(g.Hits)))
	}
	return strings.Join(parts, "; ")
}

func savesText(d *ShotDetail) string {
	if len(d.Saves) == 0 {
		return "no hit"
	}
	var parts []string
	for _, s := range d.Saves {
		res := "saved"
		if !s.Saved {
			res = s.Effect
		}
		parts = append(parts, fmt.Sprintf("%s hit: save %d%+d against %d, %s", s.Colour, s.Roll, s.Mod, d.SR, res))
	}
	return strings.Join(parts, "; ")
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}

// aaShots plans the AA fire of a phase: each ship's and site's class of guns fires at one aircraft in its
// reach, an aircraft attacking that ship first, then the nearest; heavy guns once a turn, the others in
// each phase (seed 003, "Anti Aircraft Guns"). A ship's dice are shared by arc (ShipArc).
func (r *resolver) aaShots(ph int) []shot {
	st := r.st
	attacking := map[string]string{}
	if ph == 1 {
		for _, at := range r.attacks {
			attacking[at.a.Callsign] = at.seg.Attack.Target
		}
	}
	var out []shot
	for i := range st.Ground {
		g := &st.Ground[i]
		if g.Sunk() || g.AA.Empty() {
			continue
		}
		for _, c := range AAClasses {
			guns := g.AA.Guns(c.Name)
			if guns == 0 || c.EachTurn && g.HeavyFired {
				continue
			}
			var best *Aircraft
			bestScore := 0
			for j := range st.Aircraft {
				t := &st.Aircraft[j]
				if t.Side == g.Side || t.Level > c.Ceiling || !r.engageable(t, ph) {
					continue
				}
				dist := hexmap.Distance(g.Hex, t.Hex)
				if c.Range > 0 && dist > c.Range || st.Visibility > 0 && dist > st.Visibility {
					continue
				}
				score := 1000 - dist
				if attacking[t.Callsign] == g.Callsign {
					score += 1000
				}
				if best == nil || score > bestScore {
					best, bestScore = t, score
				}
			}
			if best == nil {
				continue
			}
			n := c.Dice(guns)
			if g.Kind == "ship" {
				n, _ = ShipArc(hexmap.Clock(g.Hex, g.Facing, best.Hex), n)
			}
			if n == 0 {
				continue
			}
			if c.EachTurn {
				g.HeavyFired = true
			}
			out = append(out, shot{firer: g.Callsign, side: g.Side, target: best, rng: max(hexmap.Distance(g.Hex, best.Hex), 1), aa: c.Name,
				groups: []group{{colour: c.Colour, n: n, need: AANeed(g.Radar)}}})
		}
	}
	return out
}

// chased reports whether an enemy fighter chases an aircraft: at its level, within 3 hexes, with the
// aircraft in its forward arc (Sortie's reading of the seed's "chased by enemy fighter").
func (r *resolver) chased(a *Aircraft) bool {
	for i := range r.st.Aircraft {
		e := &r.st.Aircraft[i]
		if e.InPlay() && e.Side != a.Side && e.Level == a.Level && r.sheet(e).Fighter() &&
			hexmap.Distance(e.Hex, a.Hex) <= 3 && InForwardArc(e.Hex, e.Facing, a.Hex) && e.Hex != a.Hex {
			return true
		}
	}
	return false
}

// shipAttacks makes the dive-bombing and torpedo attacks written for the end of movement phase 2.
func (r *resolver) shipAttacks() {
	st := r.st
	// Torpedoes at the same ship from both sides in this phase get +1.
	sidesAt := map[string]map[string]bool{}
	for _, at := range r.attacks {
		g := st.GroundNamed(at.seg.Attack.Target)
		if at.seg.Attack.Kind == "TORPEDO" && g != nil {
			t := Torpedo{Clock: hexmap.Clock(g.Hex, g.Facing, at.a.Hex)}
			if sidesAt[g.Callsign] == nil {
				sidesAt[g.Callsign] = map[string]bool{}
			}
			if s := t.Side(); s != "" {
				sidesAt[g.Callsign][s] = true
			}
		}
	}
	sunk := map[string]bool{}
	for _, at := range r.attacks {
		a, g := at.a, st.GroundNamed(at.seg.Attack.Target)
		if g == nil || g.Sunk() {
			continue
		}
		base := Event{Phase: 2, Unit: a.Callsign, Side: a.Side, Target: g.Callsign, TargetSide: g.Side}
		switch at.seg.Attack.Kind {
		case "BOMB":
			base.Kind = EvBomb
			dist := hexmap.Distance(a.Hex, g.Hex)
			if dist > 1 || a.Level > Low || !a.DiveRun {
				base.Text = fmt.Sprintf("%s could not dive-bomb %s: it must end phase 2 over the ship or beside it (it is %d hexes away) at Low or Very Low on a dive begun at Medium", a.Callsign, g.Callsign, dist)
				r.emit(base)
				continue
			}
			b := DiveBomb{Level: a.Level, SideOn: a.Facing%6 != g.Facing%6, Chased: r.chased(a)}
			v := r.roll(fmt.Sprintf("turn %d %s dive-bombs %s", r.turn, a.Callsign, g.Callsign))
			base.Dice = []dice.Roll{r.lastRoll()}
			a.Loaded, a.DiveRun = false, false
			hit := v+b.Mod() >= b.Need()
			base.Text = fmt.Sprintf("%s dive-bombed %s from %s: needs %d, modifier %+d, rolled %d: ", a.Callsign, g.Callsign, a.Level, b.Need(), b.Mod(), v)
			if hit {
				pts := BombPoints(a.Load)
				g.Damage += pts
				base.Text += fmt.Sprintf("a hit, %d damage points (%d of %d)", pts, g.Damage, g.Points)
			} else {
				base.Text += "a miss"
			}
			r.emit(base)
		case "TORPEDO":
			base.Kind = EvTorpedo
			t := Torpedo{Range: hexmap.Distance(a.Hex, g.Hex), Clock: hexmap.Clock(g.Hex, g.Facing, a.Hex), Chased: r.chased(a),
				Both: sidesAt[g.Callsign]["port"] && sidesAt[g.Callsign]["starboard"]}
			if t.Need() == 0 || a.Level != VeryLow {
				base.Text = fmt.Sprintf("%s could not launch at %s: a torpedo goes from Very Low at 5 to 20 hexes (it is %d hexes away at %s)", a.Callsign, g.Callsign, t.Range, a.Level)
				r.emit(base)
				continue
			}
			v := r.roll(fmt.Sprintf("turn %d %s torpedoes %s", r.turn, a.Callsign, g.Callsign))
			base.Dice = []dice.Roll{r.lastRoll()}
			a.Loaded = false
			aspect, _ := t.Aspect()
			base.Text = fmt.Sprintf("%s launched a torpedo at %s from %d hexes (%s): needs %d, modifier %+d, rolled %d: ", a.Callsign, g.Callsign, t.Range, aspect, t.Need(), t.Mod(), v)
			if v+t.Mod() >= t.Need() {
				g.Damage += TorpedoPoints
				base.Text += fmt.Sprintf("a hit, %d damage points (%d of %d)", TorpedoPoints, g.Damage, g.Points)
			} else {
				base.Text += "a miss"
			}
			r.emit(base)
		}
		if g.Sunk() && !sunk[g.Callsign] {
			sunk[g.Callsign] = true
		}
	}
	for _, cs := range sortedKeys(sunk) {
		g := st.GroundNamed(cs)
		r.emit(Event{Kind: EvSunk, Phase: 2, Unit: cs, Side: g.Side, Text: fmt.Sprintf("%s has sunk", cs)})
	}
	r.attacks = nil
}

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
	flying := map[string]bool{}
	for i := range st.Aircraft {
		if st.Aircraft[i].InPlay() {
			flying[st.Aircraft[i].Side] = true
		}
	}
	reason := ruleset.EndReason(st.Turn, st.TurnLimit, len(flying))
	if reason == "" {
		return nil
	}
	out := ruleset.NewOutcome(st.Sides, reason)
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
