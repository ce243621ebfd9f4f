package tnl

// The combat phases of a turn (seed 003, "Combat", "Anti Aircraft Guns", "Attacking Ships"): every
// aircraft and AA gun that may fire picks its target, all dice are thrown, then all saving rolls and
// damage, and in phase 2 the attacks on ships.

import (
	"fmt"
	"sort"
	"strings"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/tnl/notation"
)

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

// bearing is the dice aircraft a brings to bear on an enemy aircraft in hex h at level lv: none unless
// both are at the same level (seed 003, "Altitude"), h is within the table's visibility when the
// scenario sets one, and some gun reaches it (groupsAt). The turn's combat and the plotting board's
// reach (Plan) both ask it, so the board never promises a shot the turn would not take.
func bearing(sh *Sheet, a *Aircraft, h hexmap.Hex, lv Level, visibility int) []group {
	if lv != a.Level || visibility > 0 && hexmap.Distance(a.Hex, h) > visibility {
		return nil
	}
	return groupsAt(sh, a, h)
}

// groupsAt works out the dice an aircraft brings to bear on a target in hex h: its fixed guns when the
// target is in the forward arc, each flexible mount, with the score each needs (seed 003, "Combat");
// groups that cannot hit are left out.
func groupsAt(sh *Sheet, a *Aircraft, h hexmap.Hex) []group {
	rng := max(hexmap.Distance(a.Hex, h), 1)
	base := ToHit{Range: rng, Inverted: a.Inverted, Training: a.Training, Aim: a.Has(SkillAim), Gunsight: a.Gunsight}
	var out []group
	if InForwardArc(a.Hex, a.Facing, h) {
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
		if _, plotted := r.plots[a.Callsign]; plotted && a.Status == Destroyed && a.DownTurn == r.turn && !r.fired[a.Callsign] && !r.goneTold[a.Callsign] {
			// Destroyed in the phase before this one (seed 003, "Effects of Hits"): it fires no more.
			r.noFire[a.Callsign] = fmt.Sprintf("it was destroyed in combat phase %d before it fired", ph)
			r.goneTold[a.Callsign] = true
		}
		if !a.InPlay() || r.fired[a.Callsign] || !fireAllowed(f, ph) {
			continue
		}
		if !r.engageable(a, ph) {
			r.noFire[a.Callsign], _ = r.noFireWhy(a, f, ph)
			continue
		}
		sh := r.sheet(a)
		var best *Aircraft
		var bestGroups []group
		bestW, bestD := 0, 0
		for j := range st.Aircraft {
			t := &st.Aircraft[j]
			if t.Side == a.Side || !r.engageable(t, ph) {
				continue
			}
			if f.Mode == notation.FireTarget && t.Callsign != f.Target && t.Unit != f.Target {
				continue
			}
			gs := bearing(sh, a, t.Hex, t.Level, st.Visibility)
			w := worth(gs)
			if w == 0 {
				continue
			}
			dist := hexmap.Distance(a.Hex, t.Hex)
			if best == nil || w > bestW || w == bestW && dist < bestD {
				best, bestGroups, bestW, bestD = t, gs, w, dist
			}
		}
		if best == nil {
			r.noFire[a.Callsign], _ = r.noFireWhy(a, f, ph)
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
			Text: fmt.Sprintf("combat phase %d: %s fired at %s at range %d: %s%s", ph+1, who, t.Callsign, s.rng, groupsText(res.groups), savesText(d, len(res.hits), t.Callsign))})
	}
	if ph == 1 {
		r.shipAttacks()
		r.tellNoFire(r.noFire)
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

// savesText is what a shot's hits did, to follow the dice: "" when none hit; each hit's saving roll
// and effect; or, when the target was destroyed by other fire of the same phase before these hits were
// saved (all fire is simultaneous, seed 003 "Combat"), that they found it gone. It begins with "; ".
func savesText(d *ShotDetail, hits int, target string) string {
	if len(d.Saves) == 0 {
		if hits == 0 {
			return ""
		}
		return fmt.Sprintf("; %s was already destroyed by other fire, so the hit%s did nothing more", target, plural(hits))
	}
	parts := []string{""}
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

// canDiveBomb says whether aircraft a, where it ends movement phase 2, can dive-bomb ship g (seed 003,
// "Dive Bombing"): over the ship or beside it, at Low or Very Low, on a dive begun at Medium. The turn and
// the plotting board's reach both ask it.
func canDiveBomb(a *Aircraft, g *Ground) bool {
	return hexmap.Distance(a.Hex, g.Hex) <= 1 && a.Level <= Low && a.DiveRun
}

// torpedoRun is the torpedo attack of aircraft a on ship g from where a ends movement phase 2: its range
// and where a is seen from the ship (seed 003, "Torpedo Bombing").
func torpedoRun(a *Aircraft, g *Ground) Torpedo {
	return Torpedo{Range: hexmap.Distance(a.Hex, g.Hex), Clock: hexmap.Clock(g.Hex, g.Facing, a.Hex)}
}

// canLaunch says whether aircraft a can launch torpedo attack t: from Very Low, 5 to 20 hexes from the
// ship (seed 003, "Torpedo Bombing").
func canLaunch(a *Aircraft, t Torpedo) bool { return t.Need() != 0 && a.Level == VeryLow }

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

// torpedoSides is, for each ship, the sides of it (port, starboard) that torpedoes are launched from in
// this phase, for the +1 of a ship attacked from both sides at the same time (seed 003, "Torpedo
// Bombing"; docs/rulings.md T12). Only a torpedo that is launched counts: its aircraft still carries it
// at the end of movement phase 2 (attacks holds no other), at Very Low, 5 to 20 hexes from the ship (a
// ship sunk before the attacks takes none: shipAttacks turns each away). An aircraft out of range
// launches nothing and gives no other its +1. The sides are settled before any die is thrown (each
// torpedo's +1 hangs on the others, which go in at the same time), so a torpedo whose ship is sunk by an
// attack resolved before it still counts for the others.
func torpedoSides(st *State, attacks []attack) map[string]map[string]bool {
	sides := map[string]map[string]bool{}
	for _, at := range attacks {
		g := st.GroundNamed(at.seg.Attack.Target)
		if at.seg.Attack.Kind != "TORPEDO" || g == nil {
			continue
		}
		t := torpedoRun(at.a, g)
		if s := t.Side(); s != "" && canLaunch(at.a, t) {
			if sides[g.Callsign] == nil {
				sides[g.Callsign] = map[string]bool{}
			}
			sides[g.Callsign][s] = true
		}
	}
	return sides
}

// shipAttacks makes the dive-bombing and torpedo attacks written for the end of movement phase 2.
func (r *resolver) shipAttacks() {
	st := r.st
	sidesAt := torpedoSides(st, r.attacks)
	r.attacksNotMade()
	sunk := map[string]bool{}
	for _, at := range r.attacks {
		a, g := at.a, st.GroundNamed(at.seg.Attack.Target)
		if g == nil || g.Sunk() {
			r.emit(Event{Kind: EvNoFire, Phase: 2, Unit: a.Callsign, Side: a.Side, Target: at.seg.Attack.Target,
				Text: fmt.Sprintf("%s made no attack on %s: %s had sunk before the attack", a.Callsign, at.seg.Attack.Target, at.seg.Attack.Target)})
			continue
		}
		base := Event{Phase: 2, Unit: a.Callsign, Side: a.Side, Target: g.Callsign, TargetSide: g.Side}
		switch at.seg.Attack.Kind {
		case "BOMB":
			base.Kind = EvBomb
			dist := hexmap.Distance(a.Hex, g.Hex)
			if !canDiveBomb(a, g) {
				base.Text = fmt.Sprintf("%s could not dive-bomb %s: it must end phase 2 over the ship or beside it (it is %d hexes away) at Low or Very Low on a dive begun at Medium", a.Callsign, g.Callsign, dist)
				r.emit(base)
				continue
			}
			b := DiveBomb{Level: a.Level, SideOn: a.Facing%6 != g.Facing%6, Chased: r.chased(a)}
			v := r.roll(fmt.Sprintf("turn %d %s dive-bombs %s", r.turn, a.Callsign, g.Callsign))
			base.Dice = []dice.Roll{r.lastRoll()}
			a.Loaded, a.DiveRun = false, false
			base.Text = fmt.Sprintf("%s dive-bombed %s from %s: needs %d, modifier %+d, rolled %d: ", a.Callsign, g.Callsign, a.Level, b.Need(), b.Mod(), v)
			r.emitShipAttack(base, g, v+b.Mod() >= b.Need(), BombPoints(a.Load))
		case "TORPEDO":
			base.Kind = EvTorpedo
			t := torpedoRun(a, g)
			t.Chased, t.Both = r.chased(a), sidesAt[g.Callsign]["port"] && sidesAt[g.Callsign]["starboard"]
			if !canLaunch(a, t) {
				base.Text = fmt.Sprintf("%s could not launch at %s: a torpedo goes from Very Low at 5 to 20 hexes (it is %d hexes away at %s)", a.Callsign, g.Callsign, t.Range, a.Level)
				r.emit(base)
				continue
			}
			v := r.roll(fmt.Sprintf("turn %d %s torpedoes %s", r.turn, a.Callsign, g.Callsign))
			base.Dice = []dice.Roll{r.lastRoll()}
			a.Loaded = false
			aspect, _ := t.Aspect()
			base.Text = fmt.Sprintf("%s launched a torpedo at %s from %d hexes (%s): needs %d, modifier %+d, rolled %d: ", a.Callsign, g.Callsign, t.Range, aspect, t.Need(), t.Mod(), v)
			r.emitShipAttack(base, g, v+t.Mod() >= t.Need(), TorpedoPoints)
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

// emitShipAttack ends a bomb's or torpedo's line with what it did to the ship g, pts damage points for
// a hit (seed 003, "Attacking Ships"), and emits it.
func (r *resolver) emitShipAttack(e Event, g *Ground, hit bool, pts int) {
	if hit {
		g.Damage += pts
		e.Hit = true
		e.Text += fmt.Sprintf("a hit, %d damage points (%d of %d)", pts, g.Damage, g.Points)
	} else {
		e.Text += "a miss"
	}
	r.emit(e)
}
