package afd

// The plotting board (ruleset.Planner, docs/web.md): the plan of an order is the receipt's own check
// (game.check, which CheckOrder is too) with the track the unit would fly, the facing it would end
// with, and what its weapons could reach from there. The reach is worked out from the side's view
// (ViewOf: the enemy as the side last saw it, never the state) with the fire rules the turn itself
// uses (fixedBears, gunCharts, groundAhead, lightFlakReaches, heavyFlakReaches).

import (
	"fmt"
	"slices"
	"strings"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// planOut is what the board adds to an order check; game.check fills it when it is given one.
type planOut struct {
	path   []hexmap.Hex
	facing hexmap.Dir
	faced  bool
	reach  []string
	// attacks are the impulse order's boxes that attack the ground, where the plane is when it does.
	attacks []boxAttack
}

// boxAttack is a ground attack of an impulse order: the box's kind and where the plane flies it.
type boxAttack struct {
	at                   Flight
	bomb, rocket, strafe bool
}

// flown sets the track from the start hex through the hex of every step, a hex entered once (a step
// that stays in its hex, a bank or a vertical point, adds none), ending facing facing.
func (po *planOut) flown(start hexmap.Hex, steps []Step, facing hexmap.Dir) {
	po.path = append(po.path[:0], start)
	for _, s := range steps {
		if s.Hex != po.path[len(po.path)-1] {
			po.path = append(po.path, s.Hex)
		}
	}
	po.facing, po.faced = facing, true
}

// Plan is the board's plan of an order for one of the player's units (ruleset.Planner): CheckOrder's
// answer, the track and facing, and the reach.
func (g *game) Plan(player, unit, text string) ruleset.Plan {
	var po planOut
	c := g.check(player, unit, text, &po)
	return ruleset.Plan{Check: c, Path: po.path, Facing: po.facing, Faced: po.faced, Reach: po.reach}
}

// seenText places a unit as the side last saw it from a plane at from: "KURT as last seen, 2 hexes
// away at 12 o'clock, 1,000 ft below". withAlt false leaves the height out (a unit on the ground).
func seenText(name string, from Flight, h hexmap.Hex, alt int, withAlt bool) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteString(" as last seen, ")
	d := hexmap.Distance(from.Hex, h)
	if d == 0 {
		b.WriteString("in the same hex")
	} else {
		fmt.Fprintf(&b, "%d hex%s away at %d o'clock", d, plural2(d), hexmap.Clock(from.Hex, from.Facing, h))
	}
	if withAlt {
		switch dAlt := alt - from.Alt; {
		case dAlt > 0:
			fmt.Fprintf(&b, ", %s ft above", feetText(dAlt))
		case dAlt < 0:
			fmt.Fprintf(&b, ", %s ft below", feetText(-dAlt))
		default:
			b.WriteString(", at the same height")
		}
	}
	return b.String()
}

// gunBlocks is why a plane's fixed or flexible guns would not fire at planes after its plot, "" when
// they may.
type gunBlocks struct{ fixed, flex string }

// planeReach is the reach of a plane's order in the plain game: from where the plot ends (sh, having
// climbed climb this turn), the enemy planes and ground units as its side last saw them that its guns,
// rockets or bombs would reach.
func (g *game) planeReach(p *Plane, card *aircraft.Card, sh Flight, climb int, o notation.Order) []string {
	var out []string
	if o.Fire.Mode == parser.FireHold {
		out = append(out, "HOLD: its guns hold fire at planes, whatever is in reach")
	}
	var bl gunBlocks
	if o.Plot.Bomb || o.Plot.Rocket || o.Plot.Strafe {
		// Seed 002, "Fighters and Bombing": no fixed guns at planes the turn the pilot attacks the ground.
		bl.fixed = "its fixed guns do not fire at planes the turn it attacks the ground"
	}
	v := ViewOf(g.st, p.Side)
	air, none := g.airReach(p, card, sh, climb, o.Fire.Guns, bl, v.Enemies)
	ground, found := groundReach(p, card, sh, p.Rockets, o.Plot.Bomb, o.Plot.Rocket, o.Plot.Strafe, o.At.Unit, v.Ground)
	out = append(append(out, air...), ground...)
	if none != "" && !found {
		out = append(out, none)
	}
	return out
}

// impulseReach is the reach of an impulse order: from where this turn's boxes of it end (sh, having
// climbed climb in its last impulse), and for each box that attacks the ground, from where it does.
func (g *game) impulseReach(p *Plane, card *aircraft.Card, sh Flight, climb int, o notation.ImpulseOrder, attacks []boxAttack) []string {
	var out []string
	if o.Fire.Mode == parser.FireHold {
		out = append(out, "HOLD: its guns hold fire at planes, whatever is in reach")
	}
	var bl gunBlocks
	switch {
	case p.Imp != nil && p.Imp.FixedFired:
		// Seed 001 VII.2: fixed guns fire once a turn; VIII.3: not the turn the plane drops its bombs.
		bl.fixed = "its fixed guns have fired (or it has released its load) this turn"
	case len(attacks) > 0:
		bl.fixed = "its fixed guns do not fire at planes the turn it attacks the ground"
	}
	if p.Imp != nil && p.Imp.FlexFired {
		// Seed 001 VII.4: flexible guns fire once a turn.
		bl.flex = "its flexible guns have fired this turn"
	}
	v := ViewOf(g.st, p.Side)
	air, none := g.airReach(p, card, sh, climb, o.Fire.Guns, bl, v.Enemies)
	out = append(out, air...)
	rocketsLeft, anyFound := p.Rockets, false
	for _, a := range attacks {
		// An impulse order names no target: the nearest in reach is attacked (docs/notation.md).
		ground, found := groundReach(p, card, a.at, rocketsLeft, a.bomb, a.rocket, a.strafe, "", v.Ground)
		out, anyFound = append(out, ground...), anyFound || found
		if a.rocket {
			rocketsLeft = 0 // every salvo goes at once (rocketAttack)
		}
	}
	if none != "" && !anyFound {
		out = append(out, none)
	}
	return out
}

// airReach lists the enemy planes as last seen that a plane's guns (those its order's GUNS allows)
// would bear on from sh, a line each with the guns that would fire; none is the line to give when
// nothing at all is in reach, saying why ("" when a plane is in reach). The geometry and the guns are
// the turn's own (fixedBears, gunCharts).
func (g *game) airReach(p *Plane, card *aircraft.Card, sh Flight, climb int, allowed []string, bl gunBlocks, enemies []Contact) (out []string, none string) {
	fixed := gunsFor(nil, card, p, true, allowed)
	flex := gunsFor(nil, card, p, false, allowed)
	if len(fixed)+len(flex) == 0 {
		return nil, "none in reach: " + noGunsWhy(p, card, allowed)
	}
	if bl.fixed != "" && len(fixed) > 0 {
		out = append(out, bl.fixed)
		fixed = nil
	}
	if bl.flex != "" && len(flex) > 0 {
		out = append(out, bl.flex)
		flex = nil
	}
	seen := slices.Clone(enemies)
	slices.SortStableFunc(seen, func(a, b Contact) int {
		if da, db := hexmap.Distance(sh.Hex, a.Hex), hexmap.Distance(sh.Hex, b.Hex); da != db {
			return da - db
		}
		return strings.Compare(a.Callsign, b.Callsign)
	})
	gc := gunCharts{t: g.env.Tables}
	found := false
	for _, c := range seen {
		tg := Flight{Hex: c.Hex, Facing: c.Facing, Alt: c.Alt}
		var with []string
		if len(fixed) > 0 {
			// The side never saw which way across the grain the enemy would step next (Flight.Phase):
			// the guns bear if they bear either way.
			for _, ph := range []hexmap.Phase{hexmap.RightFront, hexmap.LeftFront} {
				tg.Phase = ph
				if rangeAdj, ok := fixedBears(sh, climb, tg); ok {
					if shot, ok := gc.fixedShot(card, fixed, rangeAdj, sh, tg, false); ok {
						with = append(with, fmt.Sprintf("its fixed guns (%s) at range %d", strings.Join(shot.Guns, ", "), shot.Range))
						break
					}
				}
			}
		}
		if len(flex) > 0 {
			if shot, _, ok := gc.flexShot(card, flex, nil, sh, tg, false); ok {
				with = append(with, fmt.Sprintf("its flexible guns (%s) at range %d", strings.Join(shot.Guns, ", "), shot.Range))
			}
		}
		if len(with) > 0 {
			found = true
			out = append(out, seenText(c.Callsign, sh, c.Hex, c.Alt, true)+": in reach of "+strings.Join(with, " and "))
		}
	}
	switch {
	case found:
	case len(fixed)+len(flex) == 0:
		// The lines above say why its guns may not fire.
	case len(enemies) == 0:
		none = "none in reach: no enemy plane is in sight"
	default:
		none = "none in reach: no enemy plane as last seen would be in reach of its guns from where the plot ends"
	}
	return out, none
}

// missedGround is why a rocket or strafing attack an order makes would find nothing, after the
// order's word for it: the target it names (AT named) would be out of reach (of what, how far), the
// plane would be above 3,000 ft (at alt; how the attack is made), or no enemy ground unit lies in reach
// (where).
func missedGround(named string, low bool, alt int, reach, made, where string) string {
	switch {
	case named != "":
		return " AT " + named + ": " + named + " would not be in reach of " + reach + ", from under 3,000 ft)"
	case !low:
		return ": " + made + " from under 3,000 ft, and it would be at " + feetText(alt) + " ft"
	}
	return ": no enemy ground unit " + where + " (11 to 1 o'clock)"
}

// groundReach lists the enemy ground units as last seen (ground, from the side's view) that a plane
// at sh could attack there: with the rockets it has left (rockets salvos) and with its fixed forward guns (strafing), at
// altitude level 1 or lower, 1 to 3 (rockets) or 1 to 2 (strafing) hexes ahead (seed 002; the turn's
// own groundAhead and ranges); and, for an order that drops bombs there, what stands in that hex.
// An order that attacks the ground and would find nothing is told why, and one that names its target
// (AT named) when that target would be out of reach. found says a unit is in reach.
func groundReach(p *Plane, card *aircraft.Card, sh Flight, rockets int, bomb, rocket, strafe bool, named string, ground []GroundUnit) (out []string, found bool) {
	low := strike.Level(sh.Alt) <= groundAttackMaxLevel
	canRocket := rockets > 0
	canStrafe := GunFactor(card) > 0 && slices.ContainsFunc(card.Guns, func(gp aircraft.GunPosition) bool {
		return gp.Kind == "FF" && p.Ammo.Left(gp.ID) > 0 && !gunDestroyed(card, p, gp.ID)
	})
	var rocketFound, strafeFound, namedRocket, namedStrafe bool
	var under []string
	for i := range ground {
		u := &ground[i]
		if u.Side == p.Side || u.Damage == strike.Destroyed {
			continue
		}
		if u.Hex == sh.Hex {
			under = append(under, u.Callsign+" ("+u.Kind+")")
		}
		if !low || !groundAhead(sh, u.Hex) {
			continue
		}
		d := hexmap.Distance(sh.Hex, u.Hex)
		var with []string
		if canRocket && d >= rocketMinRange && d <= rocketMaxRange {
			with, rocketFound = append(with, "its rockets"), true
			namedRocket = namedRocket || u.Callsign == named
		}
		if canStrafe && d >= strafeMinRange && d <= strafeMaxRange && strafable(u.Kind) {
			with, strafeFound = append(with, "strafing"), true
			namedStrafe = namedStrafe || u.Callsign == named
		}
		if len(with) > 0 {
			out = append(out, seenText(u.Callsign+" ("+u.Kind+")", sh, u.Hex, 0, false)+": in reach of "+strings.Join(with, " and "))
		}
	}
	// The turn attacks only the target an order names (attackTarget).
	if named != "" {
		rocketFound, strafeFound = namedRocket, namedStrafe
	}
	if rocket && canRocket && !rocketFound {
		out = append(out, "ROCKET"+missedGround(named, low, sh.Alt,
			fmt.Sprintf("its rockets (%d to %d hexes ahead", rocketMinRange, rocketMaxRange), "rockets are fired",
			fmt.Sprintf("as last seen lies %d to %d hexes ahead", rocketMinRange, rocketMaxRange)))
	}
	if strafe && canStrafe && !strafeFound {
		out = append(out, "STRAFE"+missedGround(named, low, sh.Alt,
			fmt.Sprintf("strafing (%d or %d hexes ahead", strafeMinRange, strafeMaxRange), "strafing is done",
			fmt.Sprintf("strafing can hurt lies, as last seen, %d to %d hexes ahead", strafeMinRange, strafeMaxRange)))
	}
	if bomb {
		switch {
		case carriesTorpedo(card):
			// The torpedo runs at the nearest enemy ship 1 to 4 hexes off (nearestEnemyShip), here as seen.
			if ship, d := nearestEnemyShip(&State{Ground: ground}, p.Side, sh.Hex); ship != nil {
				found = true
				out = append(out, fmt.Sprintf("BOMB: it would drop its torpedo in hex %s toward %s, %d hex%s off as last seen", sh.Hex, ship.Callsign, d, plural2(d)))
			} else {
				out = append(out, fmt.Sprintf("BOMB: no enemy ship as last seen lies 1 to 4 hexes from hex %s for its torpedo", sh.Hex))
			}
		case len(under) > 0:
			found = true
			out = append(out, fmt.Sprintf("BOMB: its bombs would fall on hex %s, where %s stood as last seen", sh.Hex, strings.Join(under, ", ")))
		default:
			out = append(out, fmt.Sprintf("BOMB: its bombs would fall on hex %s, where no enemy ground unit was seen", sh.Hex))
		}
	}
	return out, found || rocketFound || strafeFound
}

// flakReach is the reach of a flak unit's guns under its order: the enemy planes as its side last saw
// them that its light and heavy guns would reach from its hex (lightFlakReaches, heavyFlakReaches: the
// turn's own), and for each AIM, which of them would be in the burst.
func (g *game) flakReach(u *GroundUnit, o FlakOrder) []string {
	now, ok := u.flakNow()
	if !ok {
		return nil
	}
	var out []string
	if o.Hold {
		out = append(out, "HOLD: the guns hold fire, whatever is in reach")
	}
	v := ViewOf(g.st, u.Side)
	seen := slices.Clone(v.Enemies)
	slices.SortStableFunc(seen, func(a, b Contact) int {
		if da, db := hexmap.Distance(u.Hex, a.Hex), hexmap.Distance(u.Hex, b.Hex); da != db {
			return da - db
		}
		return strings.Compare(a.Callsign, b.Callsign)
	})
	light := now.light > 0 && now.lightPerSide+now.lightTotal > 0
	heavy := now.heavyAttacks > 0
	found := false
	for _, c := range seen {
		f := Flight{Hex: c.Hex, Facing: c.Facing, Alt: c.Alt}
		var with []string
		if light && lightFlakReaches(v.Clouds, u.Hex, f) {
			with = append(with, "the light guns")
		}
		if heavy && heavyFlakReaches(v.Clouds, u.Hex, f, now.ceiling) {
			with = append(with, "the heavy guns")
		}
		if len(with) > 0 {
			found = true
			d := hexmap.Distance(u.Hex, c.Hex)
			out = append(out, fmt.Sprintf("%s as last seen, %d hex%s away at %s ft: in reach of %s", c.Callsign, d, plural2(d), feetText(c.Alt), strings.Join(with, " and ")))
		}
	}
	for _, a := range o.Aims {
		var in []string
		for _, c := range seen {
			f := Flight{Hex: c.Hex, Facing: c.Facing, Alt: c.Alt}
			// Seed 002, heavy flak: the aimed hex and level, and the splash around it (strike.HeavyAt).
			if heavyFlakReaches(v.Clouds, u.Hex, f, now.ceiling) &&
				strike.HeavyAt(now.heavyAimed, now.heavySplash, hexmap.Distance(a.Hex, c.Hex), strike.Level(a.Alt), strike.Level(c.Alt)) > 0 {
				in = append(in, c.Callsign)
			}
		}
		what := "no enemy plane as last seen would be in the burst"
		if len(in) > 0 {
			what = strings.Join(in, ", ") + " as last seen would be in the burst"
		}
		out = append(out, fmt.Sprintf("AIM hex %s at %s ft: %s", a.Hex, feetText(a.Alt), what))
	}
	if !found {
		var parts []string
		if light {
			parts = append(parts, fmt.Sprintf("within %d hexes and under 7,000 ft for the light guns", FlakRange))
		}
		if heavy {
			parts = append(parts, fmt.Sprintf("within %d hexes at levels 2 to %d for the heavy guns", HeavyFlakRange, now.ceiling))
		}
		out = append(out, "none in reach: no enemy plane as last seen is "+strings.Join(parts, ", or "))
	}
	return out
}

// PlotHelp is a few lines on writing an order for one of the player's units, in the notation of its
// mode (ruleset.Planner): a plain plot (docs/notation.md), an impulse order, a ground order for a plane
// on the ground, or a flak order. nil for a unit that is not the player's to order.
func (g *game) PlotHelp(player, unit string) []string {
	name := strings.ToUpper(unit)
	if u := g.st.groundUnit(name); u != nil {
		if u.Player != player || u.Flak == nil {
			return nil
		}
		return flakHelp(u)
	}
	p := g.st.Plane(name)
	if p == nil || p.Player != player || !p.InPlay() {
		return nil
	}
	card, _ := g.env.Card(p.Type)
	switch {
	case g.st.Options.Impulse && p.Ground != nil:
		return []string{
			p.Callsign + " is on the ground: write IDLE to wait, or a turn on the spot of one to three hexsides (R1 to R3, L1 to L3).",
			"Add P for a power factor (once its engine runs) or K for a brake factor; it takes off once its speed reaches its flying speed.",
		}
	case g.st.Options.Impulse:
		return impulseHelp(p)
	}
	return plotHelp(p, card)
}

// fireHelp is the help line on the fire order every aircraft's order ends with.
const fireHelp = "End with the fire order: FIRE ANY (the default), FIRE and a callsign, or HOLD; GUNS and position names, or MAX and a range, narrow it."

// plotHelp is the help on a plain plot (seed 000 rules (1)-(29), docs/notation.md).
func plotHelp(p *Plane, card *aircraft.Card) []string {
	s := p.Flight.Speed.Round()
	out := []string{
		fmt.Sprintf("One token for each movement point, read left to right: at speed %.1f the plot records %d point%s.", p.Flight.Speed.Float(), s, plural(s)),
		"A digit flies that many hexes straight ahead; TR or TL enters a hex and turns 30 degrees; SR or SL slips into the front hex on that side; HR or HL half-rolls over two hexes; V half-loops; VRR or VLL is an Immelmann.",
		"RB, LB, N, I, IR and IL name the bank reached; BR or BL rolls one point.",
		"Climb or dive with +n or -n in hundreds of feet (+5 is 500 ft up); STEEP marks a steep climb or dive and VERT a vertical dive; P, PP or P2 for power, K or KK for brakes.",
	}
	var ground []string
	if p.Flight.Loaded {
		ground = append(ground, "BOMB drops the load where the plot ends")
	}
	if p.Rockets > 0 {
		ground = append(ground, "ROCKET fires the rockets at a target 1 to 3 hexes ahead")
	}
	if card != nil && GunFactor(card) > 0 {
		ground = append(ground, "STRAFE fires the fixed forward guns at a target 1 or 2 hexes ahead")
	}
	if len(ground) > 0 {
		out = append(out, strings.Join(ground, "; ")+"; AT and a callsign names the target.")
	}
	return append(out, fireHelp)
}

// impulseHelp is the help on an impulse order (seed 001, docs/notation.md: impulse orders).
func impulseHelp(p *Plane) []string {
	s := p.Flight.Speed.Round()
	if p.Imp != nil {
		s = p.Imp.Start.Speed.Round()
	}
	var imps []string
	for _, i := range Impulses(s) {
		imps = append(imps, fmt.Sprint(i))
	}
	active := fmt.Sprintf("This turn (initial speed %d) it moves in impulses %s.", s, strings.Join(imps, " "))
	if len(imps) == 0 {
		active = fmt.Sprintf("At initial speed %d it moves in no impulse this turn.", s)
	}
	out := []string{
		"Write one manoeuvre, one box for each impulse it moves in: a backtick ` is a straight hex that leads into the manoeuvre, and 1 alone is one hex straight ahead.",
		"The last box completes it with a movement token: TR, TL, SR, SL, SRTL, SLTR, HR or HL (two impulses), V, VRR, VLL, or a bank RB, LB, N, I, IR, IL, BR, BL.",
		"After a box, its altitude (12900, or +1 or -1 in hundreds of feet) and P or K for power or brake; BOMB, ROCKET or STRAFE attacks the ground in that box.",
		"Queue more manoeuvres after a semicolon. " + active,
	}
	return append(out, fireHelp)
}

// flakHelp is the help on a flak unit's standing order (flak_order.go).
func flakHelp(u *GroundUnit) []string {
	out := []string{"The order stands until you write another. HOLD keeps the guns silent; FIRE ANY (the default) fires at the nearest enemy plane in reach."}
	if u.Flak.Light > 0 {
		out = append(out, fmt.Sprintf("FIRE and a callsign: the light guns fire at that plane first whenever it is within %d hexes and under 7,000 ft.", FlakRange))
	}
	if u.Flak.HeavyAttacks > 0 {
		out = append(out, fmt.Sprintf("AIM q,r and a height in feet (AIM 3,-4 9000): the heavy guns fire there in every even impulse, within %d hexes and at levels 2 to %d; up to %d aim%s.", HeavyFlakRange, u.Flak.HeavyCeiling, u.Flak.HeavyAttacks, plural(u.Flak.HeavyAttacks)))
	}
	return out
}

// readablePrefix is the text before the first error the notation found, the part of an order that
// reads; "" when an error concerns the whole text (no column).
func readablePrefix(text string, ds []parser.Diagnostic) string {
	first := 0
	for _, d := range ds {
		if d.Severity != parser.SeverityError {
			continue
		}
		if d.Col <= 0 {
			return ""
		}
		if first == 0 || d.Col < first {
			first = d.Col
		}
	}
	r := []rune(text)
	if first == 0 || first-1 > len(r) {
		return text
	}
	return string(r[:first-1])
}

// planReadable sets the track of a plain plot the notation could not read whole: the part before its
// first error, flown as the receipt would fly it, so the board shows how far the plot goes before it
// stops reading. Nothing when that part does not read either.
func (g *game) planReadable(p *Plane, text string, ds []parser.Diagnostic, po *planOut) {
	o, ds := notation.ParseOrder(readablePrefix(text, ds))
	card, ok := g.env.Card(p.Type)
	if parser.HasErrors(ds) || len(o.Plot.Elements) == 0 || !ok {
		return
	}
	r := checkOrder(card, p.Flight, o, make([]Step, 0, o.Plot.MPs()))
	po.flown(p.Flight.Hex, r.Steps, r.End.Facing)
}
