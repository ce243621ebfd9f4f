package tnl

import (
	"math"
	"sort"

	hexmap "sortie/rules/hex"
	"sortie/rules/tnl/notation"
)

// The computer pilot (docs/bots.md): for each unit it tries the plans a player would consider — a speed
// for each phase, straight or with one or two turns, a half loop, a dive or a climb — keeps those every
// aircraft of the unit can fly, and picks the one that scores best on the side's View alone:
//
//	score = Σ over the unit's aircraft and both phases of
//	        (expected hits it could score at the end of the phase − ThreatWeight × expected hits the enemy
//	        could score on it there) − ApproachWeight × hexes to the nearest enemy at the end of the turn
//	        (fighters) − TurnCost × manoeuvres (bombers, which keep their course)
//	        + AttackWeight × the chance that a torpedo or a dive bomb written with the plan hits its ship
//
// The enemy is assumed to fly straight ahead at the speed it was seen to fly (its sheet's top speed in
// each phase when the side did not watch it fly: only a side that sees the whole table does): at the
// end of phase 1 that many hexes ahead of where it was seen, at the end of phase 2 twice as many. A diving or climbing aircraft neither scores nor is threatened in phase 1 (seed 003,
// "Altitude").

// Weights of the pilot's evaluation.
const (
	ThreatWeight   = 1.2
	ApproachWeight = 0.04
	TurnCost       = 0.05
	AttackWeight   = 4.0
)

// PlanOption is a plan a pilot considers for a unit: its segment, as flown by the unit's lead aircraft.
type PlanOption struct {
	Seg   notation.Segment
	Score float64
}

// phasePlans lists the step lists of a phase of n hexes for an aircraft with fly-straight fs: straight,
// one or two turns either way after the fly-straight run, inverting (or righting), a half loop.
func phasePlans(n, fs int) [][]notation.Step {
	st := func(k int) notation.Step { return notation.Step{Kind: notation.Straight, N: k} }
	m := func(k notation.StepKind) notation.Step { return notation.Step{Kind: k} }
	tail := func(steps []notation.Step, k int) []notation.Step {
		if k > 0 {
			steps = append(steps, st(k))
		}
		return steps
	}
	out := [][]notation.Step{{st(n)}}
	if n >= fs {
		for _, t := range []notation.StepKind{notation.TurnL, notation.TurnR} {
			out = append(out, tail([]notation.Step{st(fs), m(t)}, n-fs))
			if n >= 2*fs {
				out = append(out, tail([]notation.Step{st(fs), m(t), st(fs), m(t)}, n-2*fs))
			}
		}
	}
	if n >= fs {
		out = append(out, tail([]notation.Step{st(fs), m(notation.Invert)}, n-fs))
	}
	if n >= 3*fs {
		out = append(out, tail([]notation.Step{st(3 * fs), m(notation.HalfLoop)}, n-3*fs))
	}
	return out
}

// speeds picks up to three speeds of a range: the top, the middle and the bottom.
func speeds(lo, hi int) []int {
	out := []int{hi}
	if mid := (lo + hi) / 2; mid != hi && mid != lo {
		out = append(out, mid)
	}
	if lo != hi {
		out = append(out, lo)
	}
	return out
}

// Candidates lists the plans a pilot considers for a unit, each checked against every aircraft of it.
func Candidates(d *Data, v *View, u *Unit) []notation.Segment {
	fl := v.Flying(u)
	if len(fl) == 0 {
		return nil
	}
	lead := fl[0]
	sh, ok := d.Sheet(lead.Type)
	if !ok {
		return nil
	}
	fs := FS(sh, lead, v.LoadedModifiers)
	fire := notation.Fire{Mode: notation.FireAny}
	var out []notation.Segment
	for _, alt := range []notation.Alt{notation.Level, notation.Dive, notation.Climb} {
		if alt == notation.Dive && lead.Level == VeryLow || alt == notation.Climb && lead.Level >= sh.MaxLevel {
			continue
		}
		lo1, hi1 := SpeedRange(sh, lead, 0, lead.Speed, v.LoadedModifiers)
		for _, s1 := range speeds(lo1, hi1) {
			n1 := s1 + AltMod(sh, alt, 0)
			lo2, hi2 := SpeedRange(sh, lead, 1, s1, v.LoadedModifiers)
			for _, p1 := range phasePlans(n1, fs) {
				for _, s2 := range speeds(lo2, hi2) {
					n2 := s2 + AltMod(sh, alt, 1)
					for _, p2 := range phasePlans(n2, fs) {
						out = append(out, notation.Segment{Alt: alt, Phases: [2][]notation.Step{p1, p2}, Fire: fire})
					}
				}
			}
		}
	}
	// A unit carrying a torpedo or bombs also considers each plan with an attack on each enemy ship.
	if lead.Loaded && (lead.Load == "torpedo" || lead.Load == "1000lb" || lead.Load == "500lb") {
		kind := "BOMB"
		if lead.Load == "torpedo" {
			kind = "TORPEDO"
		}
		n := len(out)
		for _, g := range v.Ground {
			if g.Kind != "ship" || g.Side == v.Side || g.Sunk() {
				continue
			}
			for _, seg := range out[:n] {
				seg.Attack = notation.Attack{Kind: kind, Target: g.Callsign}
				out = append(out, seg)
			}
		}
	}
	// Keep the plans every aircraft of the unit can fly, and whose attacks the rules allow.
	ships := &State{Ground: v.Ground}
	legal := out[:0]
	for _, seg := range out {
		ok := true
		for _, a := range fl {
			ash, _ := d.Sheet(a.Type)
			pc := CheckPlot(ash, a, seg, v.LoadedModifiers)
			if len(pc.Errors) > 0 || len(attackProblems(ships, a, seg, pc.Level)) > 0 {
				ok = false
				break
			}
		}
		if ok {
			legal = append(legal, seg)
		}
	}
	return legal
}

// attackWorth is what an attack on a ship at the end of the plan is worth to the pilot: the chance the
// die makes it (seed 003's needs and modifiers, the ship assumed where it is seen), times AttackWeight;
// nothing when it could not be made from there.
func attackWorth(v *View, a *Aircraft, seg notation.Segment, pc PlotCheck) float64 {
	if seg.Attack.Kind == "" {
		return 0
	}
	var ship *Ground
	for i := range v.Ground {
		if v.Ground[i].Callsign == seg.Attack.Target {
			ship = &v.Ground[i]
		}
	}
	if ship == nil {
		return 0
	}
	end := pc.Phases[1].End
	need := 7
	switch seg.Attack.Kind {
	case "TORPEDO":
		t := Torpedo{Range: hexmap.Distance(end.Hex, ship.Hex), Clock: hexmap.Clock(ship.Hex, ship.Facing, end.Hex)}
		if t.Need() == 0 {
			return 0
		}
		need = t.Need() - t.Mod()
	case "BOMB":
		if hexmap.Distance(end.Hex, ship.Hex) > 1 {
			return 0
		}
		b := DiveBomb{Level: pc.Level, SideOn: end.Facing%6 != ship.Facing%6}
		need = b.Need() - b.Mod()
	}
	p := float64(7-min(max(need, 1), 7)) / 6
	return AttackWeight * p
}

// pilotEnemy is an enemy aircraft with its sheet and where it may be at the end of each phase.
type pilotEnemy struct {
	c  Contact
	sh *Sheet
	at [2]hexmap.Hex
}

// Score rates a plan for a unit on the side's view (the evaluation above).
func Score(d *Data, v *View, u *Unit, seg notation.Segment) float64 {
	var enemies []pilotEnemy
	for _, c := range v.Enemies {
		sh, ok := d.Sheet(c.Type)
		if !ok {
			continue
		}
		e := pilotEnemy{c: c, sh: sh}
		h := c.Hex
		for ph := 0; ph < 2; ph++ {
			speed := c.Speed
			if speed == 0 {
				speed = sh.SP[ph] // not watched: as fast as it can
			}
			for k := 0; k < max(speed, 1); k++ {
				h = h.Neighbor(c.Facing)
			}
			e.at[ph] = h
		}
		enemies = append(enemies, e)
	}
	total := 0.0
	for _, a := range v.Flying(u) {
		sh, ok := d.Sheet(a.Type)
		if !ok {
			continue
		}
		pc := CheckPlot(sh, a, seg, v.LoadedModifiers)
		total += attackWorth(v, a, seg, pc)
		for ph := 0; ph < 2; ph++ {
			if ph == 0 && seg.Alt != notation.Level {
				continue // out of combat while changing level
			}
			level := a.Level
			if ph == 1 {
				level = pc.Level
			}
			end := pc.Phases[ph].End
			me := *a
			me.Hex, me.Facing, me.Inverted, me.Level = end.Hex, end.Facing, end.Inverted, level
			best, threat := 0.0, 0.0
			for _, e := range enemies {
				if e.c.Level != level {
					continue
				}
				eh := e.at[ph]
				them := Aircraft{Callsign: e.c.Callsign, Type: e.c.Type, Hex: eh, Facing: e.c.Facing, Level: e.c.Level, Inverted: e.c.Inverted, Training: "trained"}
				if w := float64(worth(groupsAt(sh, &me, them.Hex))) / 6; w > best {
					best = w
				}
				threat += float64(worth(groupsAt(e.sh, &them, me.Hex))) / 6
			}
			total += best - ThreatWeight*threat
		}
		if sh.Fighter() {
			nearest := math.MaxFloat64
			for _, e := range enemies {
				d := float64(hexmap.Distance(pc.Phases[1].End.Hex, e.at[1]) + 3*abs(int(e.c.Level)-int(pc.Level)))
				nearest = min(nearest, d)
			}
			if nearest < math.MaxFloat64 {
				total -= ApproachWeight * nearest
			}
		} else {
			for _, ph := range seg.Phases {
				for _, s := range ph {
					if s.Manoeuvre() {
						total -= TurnCost
					}
				}
			}
			if seg.Alt != notation.Level {
				total -= TurnCost
			}
		}
	}
	return total
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Pilot writes orders for every unit of a player from the side's view alone: for each, the best-scoring
// plan every aircraft of the unit can fly, firing at will; the default order when none can.
func Pilot(d *Data, v View, player string) map[string]string {
	out := map[string]string{}
	for i := range v.Units {
		u := &v.Units[i]
		if u.Player != player || len(v.Flying(u)) == 0 {
			continue
		}
		cands := Candidates(d, &v, u)
		if len(cands) == 0 {
			out[u.Name] = defaultOrder(d, v.LoadedModifiers, v.Flying(u), u.Fire).String()
			continue
		}
		scored := make([]PlanOption, len(cands))
		for k, c := range cands {
			scored[k] = PlanOption{Seg: c, Score: Score(d, &v, u, c)}
		}
		// Best score first; between equals the plan written first (straight, top speed, level) wins.
		sort.SliceStable(scored, func(i, j int) bool { return scored[i].Score > scored[j].Score })
		out[u.Name] = notation.Order{Segments: []notation.Segment{scored[0].Seg}}.String()
	}
	return out
}

// PilotOrders is the computer pilot's orders for a player's units (ruleset.Piloted): from the player's
// side's view only.
func (g *game) PilotOrders(player string) map[string]string {
	return Pilot(g.d, ViewOf(g.st, g.st.SideOf(player)), player)
}
