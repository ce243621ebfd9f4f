package afd

// Rockets and strafing (seed 002): a plane whose plot says ROCKET fires its rocket salvos, and one whose
// plot says STRAFE its fixed guns, at a ground unit or ship ahead of it: rockets from 1 to 3 hexes away
// at altitude level 1 or lower, read on the standard bombing table (near misses and scatters do
// nothing); strafing from 1 or 2 hexes at level 0 or 1, the gun factor against the target's defence.
// The target is the one the order names (AT), else the nearest enemy unit in reach. In the plain game
// the attack is made from where the plot ends, after the ground units have moved; in the impulse game,
// in the bomb phase of the impulse whose box says so.

import (
	"fmt"
	"sort"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	hexmap "sortie/rules/hex"
)

// How far rockets and strafing reach (seed 002): rockets from 1 to 3 hexes, strafing from 1 or 2, both
// from altitude level 1 or lower, at a target ahead (groundAhead). The turn and the plotting board's
// reach (plan.go) both ask these.
const (
	rocketMinRange, rocketMaxRange = 1, 3
	strafeMinRange, strafeMaxRange = 1, 2
	groundAttackMaxLevel           = 1
)

// groundAhead says a ground unit in hex h lies ahead of a plane at f for a rocket or strafing attack:
// at its 11, 12 or 1 o'clock.
func groundAhead(f Flight, h hexmap.Hex) bool {
	c := hexmap.Clock(f.Hex, f.Facing, h)
	return c == 11 || c == 12 || c == 1
}

// strafable says strafing can hurt a kind of target (strike.Strafable, which the calculator asks too).
func strafable(kind string) bool { return strike.Strafable(kind) }

// GunFactor is a plane's gun factor for strafing (house rule, docs/rulings.md): its fixed forward guns
// counted with seed 002's flak values per barrel (a rifle-calibre gun 0.25, a heavy machine gun 0.5, a
// 20 mm cannon 1, 30 mm 1.5, 37 mm 2), rounded half up; 0 without fixed forward guns.
func GunFactor(card *aircraft.Card) int {
	mix := card.FixedMix()
	if mix == "" {
		return 0
	}
	counts, err := aircraft.ParseMix(mix)
	if err != nil {
		return 0
	}
	per := map[string]float64{aircraft.Kind30M: 0.25, aircraft.Kind50M: 0.5, aircraft.Kind20C: 1, aircraft.Kind30C: 1.5, aircraft.Kind37C: 2}
	v := 0.0
	for i, n := range counts {
		v += float64(n) * per[aircraft.MixKinds[i]]
	}
	return max(1, strike.Round(v))
}

// attackTarget picks the target of a rocket or strafing attack from a plane at f: the named one, or the
// nearest enemy unit in reach ahead of it (11 to 1 o'clock), and the others in the target's hex. why
// says what stopped the attack when there is no target.
func (r *resolution) attackTarget(p *Plane, f Flight, at notation.GroundTarget, minR, maxR int, strafe bool) (targets []*GroundUnit, dist int, why string) {
	ahead := func(u *GroundUnit) bool { return groundAhead(f, u.Hex) }
	usable := func(u *GroundUnit) bool {
		return u.Side != p.Side && u.Damage != strike.Destroyed && (!strafe || strafable(u.Kind))
	}
	var primary *GroundUnit
	if at.Unit != "" {
		u := r.ns.groundUnit(at.Unit)
		switch {
		case u == nil || u.Side == p.Side || !groundSeen(r.ns, p.Side, u):
			return nil, 0, fmt.Sprintf("%s is not an enemy unit %s can see", at.Unit, p.Callsign)
		case u.Damage == strike.Destroyed:
			return nil, 0, fmt.Sprintf("%s is already destroyed", u.Callsign)
		case strafe && !strafable(u.Kind):
			return nil, 0, fmt.Sprintf("strafing cannot hurt a %s (seed 002)", u.Kind)
		}
		d := hexmap.Distance(f.Hex, u.Hex)
		if d < minR || d > maxR {
			return nil, 0, fmt.Sprintf("%s was %d hexes away, and the attack reaches %d to %d", u.Callsign, d, minR, maxR)
		}
		if !ahead(u) {
			return nil, 0, fmt.Sprintf("%s was not ahead of %s (11 to 1 o'clock)", u.Callsign, p.Callsign)
		}
		primary = u
	} else {
		var cands []*GroundUnit
		for i := range r.ns.Ground {
			u := &r.ns.Ground[i]
			if d := hexmap.Distance(f.Hex, u.Hex); usable(u) && d >= minR && d <= maxR && ahead(u) {
				cands = append(cands, u)
			}
		}
		if len(cands) == 0 {
			return nil, 0, fmt.Sprintf("no enemy target %d to %d hexes ahead of %s", minR, maxR, p.Callsign)
		}
		sort.SliceStable(cands, func(a, b int) bool {
			return hexmap.Distance(f.Hex, cands[a].Hex) < hexmap.Distance(f.Hex, cands[b].Hex)
		})
		primary = cands[0]
	}
	targets = append(targets, primary)
	for i := range r.ns.Ground {
		if u := &r.ns.Ground[i]; u != primary && u.Hex == primary.Hex && u.Damage != strike.Destroyed && (!strafe || strafable(u.Kind)) {
			targets = append(targets, u)
		}
	}
	return targets, hexmap.Distance(f.Hex, primary.Hex), ""
}

// attackWord names a rocket or strafing attack for refuse.
func attackWord(strafe bool) string {
	if strafe {
		return "strafing attack"
	}
	return "rocket attack"
}

// refuse tells a plane's owner why its attack on the ground was not made.
func (r *resolution) refuse(p *Plane, imp int, what, why string) {
	r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player,
		Text: fmt.Sprintf("%s made no %s: %s", p.Callsign, what, why)})
}

// rocketAttack fires all the plane's rocket salvos at one target (house rule: the seed lets the player
// say how many; Sortie fires them all at once).
func (r *resolution) rocketAttack(p *Plane, card *aircraft.Card, at notation.GroundTarget, imp int) {
	f := p.Flight
	level := strike.Level(f.Alt)
	if p.Rockets == 0 {
		r.refuse(p, imp, "rocket attack", "it has no rockets left")
		return
	}
	targets, dist, ok := r.lowAttackTarget(p, at, imp, "rocket attack", "rockets are fired from altitude level 1 or lower (under 3,000 ft)", rocketMinRange, rocketMaxRange, false)
	if !ok {
		return
	}
	salvos := p.Rockets
	p.Rockets = 0
	p.Attacked = r.turn
	a := strike.Attack{Kind: strike.Rockets, Crew: strike.CrewOf(p.Pilot), Range: dist}
	a.CrewHit, a.WingOrFuselageHalf = r.crewAndWings(p, card)
	label := fmt.Sprintf("turn %d %s rockets", r.turn, p.Callsign)
	die := r.d.Roll(label+": d10", 10)
	mods := a.Modifiers()
	res, hit := strike.Rocket(level, die+mods.Sum())
	text := fmt.Sprintf("%s fired %d rocket salvo%s at %s, %d hexes off, from %s ft (level %d): d10 %d %s = %s", p.Callsign, salvos, plural(salvos),
		targets[0].Callsign, dist, feetText(f.Alt), level, die, modsSum(mods), res)
	if !hit {
		text += ": no damage"
	}
	r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvBombs, Plane: p.Callsign, Side: p.Side, Text: text, Dice: r.d.Log()[len(r.d.Log())-1:]})
	if !hit {
		return
	}
	av, _ := strike.AttackValue("rocket")
	attack := strike.ModifiedAttack(av, salvos, res)
	for k, u := range targets {
		v := attack
		if k > 0 {
			v = strike.Secondary(attack)
		}
		r.hitGround(p, u, v, strike.Defence(u.Defence, u.Damage), "rockets", label, imp, "")
	}
}

// lowAttackTarget is attackTarget for an attack (what) made from low down, as rockets and strafing are:
// a plane above altitude level 1 (low says how low it must be) or without a target is refused, told
// why, and ok is false.
func (r *resolution) lowAttackTarget(p *Plane, at notation.GroundTarget, imp int, what, low string, minR, maxR int, strafe bool) (targets []*GroundUnit, dist int, ok bool) {
	f := p.Flight
	why := ""
	if strike.Level(f.Alt) > groundAttackMaxLevel {
		why = fmt.Sprintf("%s, and it was at %s ft", low, feetText(f.Alt))
	} else {
		targets, dist, why = r.attackTarget(p, f, at, minR, maxR, strafe)
	}
	if why != "" {
		r.refuse(p, imp, what, why)
		return nil, 0, false
	}
	return targets, dist, true
}

// crewAndWings reads the card's damage for attack modifiers: crew hit, and more than half the wing or
// fuselage boxes filled.
func (r *resolution) crewAndWings(p *Plane, card *aircraft.Card) (crewHit, wingsHalf bool) {
	crewHit, _ = systemFill(card, p, "C")
	_, wingsHalf = systemFill(card, p, "W")
	if _, fuse := systemFill(card, p, "F"); fuse {
		wingsHalf = true
	}
	return crewHit, wingsHalf
}

// strafe fires the plane's fixed forward guns at a ground target: one burst from each position that
// has one left (seed 002: strafing uses an ammunition factor).
func (r *resolution) strafe(p *Plane, card *aircraft.Card, at notation.GroundTarget, imp int) {
	f := p.Flight
	level := strike.Level(f.Alt)
	var guns []string
	for _, g := range card.Guns {
		if g.Kind == "FF" && p.Ammo.Left(g.ID) > 0 && !gunDestroyed(card, p, g.ID) {
			guns = append(guns, g.ID)
		}
	}
	gf := GunFactor(card)
	if len(guns) == 0 || gf == 0 {
		r.refuse(p, imp, "strafing attack", "it has no fixed forward guns with ammunition")
		return
	}
	targets, dist, ok := r.lowAttackTarget(p, at, imp, "strafing attack", "strafing is done from altitude level 0 or 1 (under 3,000 ft)", strafeMinRange, strafeMaxRange, true)
	if !ok {
		return
	}
	p.Attacked = r.turn
	for _, g := range guns {
		if p.Ammo.Spend(g) == 0 {
			r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvOutOfAmmo, Plane: p.Callsign, Side: p.Side, Extra: &Extra{Gun: g},
				Text: fmt.Sprintf("%s's guns %s are out of ammunition", p.Callsign, g)})
		}
	}
	s := strike.Strafe{GunFactor: gf, Crew: strike.CrewOf(p.Pilot), Level: level, Range: dist, GroundAttack: p.GroundAttack}
	mods := s.Modifiers()
	attack := s.Attack()
	primary := targets[0]
	part := at.Part
	if primary.Kind != Ship || at.Unit != primary.Callsign {
		part = ""
	}
	aim := primary.Callsign
	if part != "" {
		aim += "'s " + map[string]string{"FLAK": "light flak", "HEAVY": "heavy flak"}[part]
	}
	r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvBombs, Plane: p.Callsign, Side: p.Side,
		Text: fmt.Sprintf("%s strafed %s, %d hexes off, from %s ft: gun factor %d %s = %d", p.Callsign, aim, dist, feetText(f.Alt), gf, modsSum(mods), attack)})
	label := fmt.Sprintf("turn %d %s strafes", r.turn, p.Callsign)
	// The primary target, and one other in its hex at half the attack value (seed 002).
	for k, u := range targets[:min(2, len(targets))] {
		v := attack
		if k > 0 {
			v = strike.Secondary(attack)
		}
		dv := strike.Defence(u.Defence, u.Damage)
		thisPart := ""
		if k == 0 {
			thisPart = part
		}
		if u.Kind == Ship && thisPart == "" {
			var ok bool
			if dv, ok = strike.StrafedShipDefence(dv, u.Armoured); !ok {
				r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvBombs, Plane: p.Callsign, Side: p.Side,
					Text: fmt.Sprintf("%s is armoured: strafing cannot hurt it (seed 002)", u.Callsign)})
				continue
			}
		}
		r.hitGround(p, u, v, dv, "strafing", label, imp, thisPart)
	}
}

// hitGround rolls one attack on a ground unit (seed 002, target damage): attack value plus a d10
// against defence value plus a d10, on the damage ladder. part "FLAK" or "HEAVY" is a strafing attack
// on a ship's flak, which damages the flak and not the ship.
func (r *resolution) hitGround(p *Plane, u *GroundUnit, attack, dv int, weapon, label string, imp int, part string) {
	ad := r.d.Roll(fmt.Sprintf("%s %s: attack d10", label, u.Callsign), 10)
	// The defender's die names no attacker: the target's side may not have seen the plane.
	dd := r.d.Roll(fmt.Sprintf("turn %d %s defends against %s: d10", r.turn, u.Callsign, weapon), 10)
	dmg := strike.DamageOf(attack+ad, dv+dd)
	what := u.Callsign
	if part != "" && u.Flak != nil && dmg != strike.NoDamage {
		what += "'s flak"
		light := part == "FLAK"
		switch {
		case dmg == strike.Light && light:
			u.Flak.StrafedLight++
		case dmg >= strike.Heavy && light:
			u.Flak.LostLight++
		case dmg >= strike.Heavy:
			u.Flak.LostHeavy++
		}
	} else if part == "" {
		u.Damage = strike.Worse(u.Damage, dmg)
	}
	if part != "" {
		weapon = map[string]string{"FLAK": "strafing of its light flak", "HEAVY": "strafing of its heavy flak"}[part]
	}
	r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvGroundDamage, Plane: u.Callsign, Side: u.Side, Target: p.Callsign,
		Dice: r.d.Log()[len(r.d.Log())-2:], Extra: &Extra{Ground: &GroundDetail{Kind: u.Kind, To: u.Hex, Result: dmg.String(), Weapon: weapon}},
		Text: fmt.Sprintf("%s's %s on %s (%s): attack %d + %d against defence %d + %d: %s", p.Callsign, weapon, what, u.Kind, attack, ad, dv, dd, dmg)})
}

// orderAttackProblems is attackProblems for the ground attack of an order, if it has one: the receipt
// (CheckOrder) and the calculator (calc move, which knows no ground units) both ask it.
func orderAttackProblems(st *State, p *Plane, card *aircraft.Card, o notation.Order) []Problem {
	pl := o.Plot
	if !pl.Rocket && !pl.Strafe && o.At.Unit == "" {
		return nil
	}
	return attackProblems(st, p, card, pl.Rocket, pl.Strafe, o.At, pl.Col("ROCKET")+pl.Col("STRAFE"))
}

// attackProblems checks an order's ground attack against what the plane carries and what its side can
// see: rockets left, fixed forward guns to strafe with, and a named target that is an enemy unit in
// sight (the same answer for one that does not exist and one the side has not seen).
func attackProblems(st *State, p *Plane, card *aircraft.Card, rocket, strafe bool, at notation.GroundTarget, col int) []Problem {
	var out []Problem
	if rocket && p.Rockets == 0 {
		out = append(out, Problem{Code: "no-rockets", Col: col, Message: fmt.Sprintf("ROCKET: %s carries no rockets (or has fired them)", p.Callsign)})
	}
	if strafe && GunFactor(card) == 0 {
		out = append(out, Problem{Code: "no-guns", Col: col, Message: fmt.Sprintf("STRAFE: the %s has no fixed forward guns", card.Name)})
	}
	if at.Unit != "" {
		u := st.groundUnit(at.Unit)
		switch {
		case u != nil && u.Side == p.Side:
			out = append(out, Problem{Code: "own-target", Col: at.Col, Message: fmt.Sprintf("AT %s: that is your own side's %s", u.Callsign, u.Kind)})
		case u == nil || !groundSeen(st, p.Side, u):
			out = append(out, Problem{Code: "unknown-target", Col: at.Col, Message: fmt.Sprintf("AT %s: no enemy ground unit or ship of that name is in sight", at.Unit)})
		case strafe && !strafable(u.Kind):
			out = append(out, Problem{Code: "not-strafable", Col: at.Col, Message: fmt.Sprintf("AT %s: strafing cannot hurt a %s (seed 002: vehicles, guns, troops, small buildings and ships)", u.Callsign, u.Kind)})
		case at.Part != "" && (u.Kind != Ship || u.Flak == nil):
			out = append(out, Problem{Code: "no-flak", Col: at.Col, Message: fmt.Sprintf("AT %s %s: only a ship's flak is strafed apart from the ship", u.Callsign, at.Part)})
		}
	}
	return out
}
