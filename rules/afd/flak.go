package afd

// Flak (seed 002, "Flak Rules"): light and medium flak fires in every impulse at planes up to 2 hexes
// away and up to altitude level 2; heavy flak fires in every other impulse at a hex and an altitude,
// hitting every plane there with its full value and planes one hex or one level off with the smaller
// one; a ship's flak is worked out from its guns and shrinks as the ship is damaged or its flak is
// strafed. In the plain game a turn is divided into the Delta-T chart's twelve impulses for flak as for
// everything on the ground, a plane standing in each impulse where its lock-step movement has it; in the
// impulse game flak fires after air-to-air fire and before bombs, with results at once.

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/strike"
	hexmap "sortie/rules/hex"
)

// EvFlak is a flak attack on a plane.
const EvFlak = "flak"

// Flak is a ground unit's or ship's flak, worked out when the game starts (strike.Naval for a ship;
// for a land unit one light attack an impulse and one heavy attack every other impulse).
type Flak struct {
	strike.NavalFlak
	// Ship says the values are a ship's (naval flak: attacks on each side, shrinking with ship damage).
	Ship bool `json:"ship,omitempty"`
	// Ammo is how many attacks the unit may still make (0 with Limited: out of ammunition); Limited says
	// the scenario rationed them.
	Ammo    int  `json:"ammo,omitempty"`
	Limited bool `json:"limited,omitempty"`
	// StrafedLight counts the light attacks strafing left with the light damage modifier; LostLight
	// and LostHeavy the attacks strafing took away (seed 002, shipboard flak damage).
	StrafedLight int `json:"strafed_light,omitempty"`
	LostLight    int `json:"lost_light,omitempty"`
	LostHeavy    int `json:"lost_heavy,omitempty"`
	// Order is the side's standing order for the guns, if it gave one.
	Order *FlakOrder `json:"order,omitempty"`
}

// FlakOrder is a side's standing order for a flak unit: hold fire, the plane the light guns fire at
// first, and the hex and altitude heavy attacks are aimed at (one aim an attack; without one, the
// gunners lay on the nearest enemy plane in reach, where it was when the turn began).
type FlakOrder struct {
	Hold   bool      `json:"hold,omitempty"`
	Target string    `json:"target,omitempty"`
	Aims   []FlakAim `json:"aims,omitempty"`
	// TargetCol is where the order names its target (for messages; not kept).
	TargetCol int `json:"-"`
}

// FlakAim is a heavy flak attack's aim: a hex and an altitude in feet.
type FlakAim struct {
	Hex hexmap.Hex `json:"hex"`
	Alt int        `json:"alt"`
	Col int        `json:"-"` // where the order's AIM is written (for messages; not kept)
}

// FlakRange and HeavyFlakRange are how far light and heavy flak reach; FlakSightRange is how far flak
// crews watch the sky (house rule: they see every plane their heavy guns could reach, with no roll).
const (
	FlakRange      = 2
	HeavyFlakRange = 4
	FlakSightRange = 4
)

// lightFlakReaches says light flak in hex at reaches a plane at f (seed 002, light flak): within
// FlakRange hexes, at altitude level 2 or lower, in sight past the clouds. The turn and the plotting
// board's reach (plan.go) both ask it.
func lightFlakReaches(clouds []Cloud, at hexmap.Hex, f Flight) bool {
	return hexmap.Distance(at, f.Hex) <= FlakRange && strike.Level(f.Alt) <= 2 && lineOfSight(clouds, Flight{Hex: at}, f)
}

// heavyFlakReaches says heavy flak in hex at, whose ceiling is ceiling, reaches a plane at f (seed 002,
// heavy flak; strike.HeavyFlakCheck), in sight past the clouds; it fires only in even impulses.
func heavyFlakReaches(clouds []Cloud, at hexmap.Hex, f Flight, ceiling int) bool {
	return strike.HeavyFlakCheck(strike.Level(f.Alt), hexmap.Distance(at, f.Hex), ceiling) == "" && lineOfSight(clouds, Flight{Hex: at}, f)
}

// flakNow is what a unit's flak can do now: its values after damage (to the ship, or to a land unit's
// guns) and strafing. ok false: it fires no more.
type flakNow struct {
	light, heavyAimed, heavySplash, ceiling int
	lightPerSide, lightTotal, heavyAttacks  int
	damagedAll                              bool // every light attack takes the light damage modifier
	damagedSome                             int  // so many light attacks take it (strafed flak)
}

func (u *GroundUnit) flakNow() (flakNow, bool) {
	f := u.Flak
	if f == nil || (f.Limited && f.Ammo <= 0) {
		return flakNow{}, false
	}
	n := f.NavalFlak
	damaged := false
	if f.Ship {
		var ok bool
		if n, damaged, ok = n.Damaged(u.Damage); !ok {
			return flakNow{}, false
		}
	} else {
		switch u.Damage {
		case strike.Light:
			damaged = true
		case strike.Heavy, strike.Destroyed:
			return flakNow{}, false // a heavily damaged unit may not be used (seed 002, target damage)
		}
	}
	out := flakNow{light: n.Light, heavyAimed: n.HeavyAimed, heavySplash: n.HeavySplash, ceiling: n.HeavyCeiling,
		lightPerSide: n.LightPerSide, lightTotal: n.LightTotal, heavyAttacks: max(0, n.HeavyAttacks-f.LostHeavy),
		damagedAll: damaged, damagedSome: f.StrafedLight}
	// Strafing takes light attacks away one at a time: from each side's count for a ship that fires by
	// side, else from the total.
	if out.lightPerSide > 0 {
		out.lightPerSide = max(0, out.lightPerSide-f.LostLight)
	} else {
		out.lightTotal = max(0, out.lightTotal-f.LostLight)
	}
	if out.light == 0 {
		out.lightPerSide, out.lightTotal = 0, 0
	}
	return out, out.lightPerSide+out.lightTotal+out.heavyAttacks > 0
}

// flakCrews says whether a unit has flak crews that can still fire: they watch the sky for their side.
func (u *GroundUnit) flakCrews() bool {
	_, ok := u.flakNow()
	return ok
}

// FlakDetail is one flak attack on a plane.
type FlakDetail struct {
	Heavy     bool       `json:"heavy,omitempty"`
	Value     int        `json:"value"`
	Modifiers []string   `json:"modifiers,omitempty"`
	Attack    int        `json:"attack"`  // the flak's d10
	Defence   int        `json:"defence"` // the plane's flak defence value
	Roll      int        `json:"roll"`    // the plane's d10
	Hits      int        `json:"hits"`
	Locations []string   `json:"locations,omitempty"`
	From      hexmap.Hex `json:"from"`
}

// flakSeen is what a side is told of a flak attack (EventsFor): the flak's side its own attack with its
// die, never the plane's; the plane's side the attack on its plane with the plane's dice, naming the
// flak unit only if it sees it.
func flakSeen(st *State, side string, e Event) (Event, bool) {
	u, p := st.groundUnit(e.Plane), st.Plane(e.Target)
	if u == nil || p == nil || e.Extras().Flak == nil {
		return Event{}, false
	}
	d := *e.Extra.Flak
	kind := "light"
	if d.Heavy {
		kind = "heavy"
	}
	out := Event{Turn: e.Turn, Impulse: e.Impulse, Kind: EvFlak, Target: p.Callsign}
	switch {
	case u.Side == side:
		out.Plane, out.Side = u.Callsign, side
		out.Extra = &Extra{Flak: &FlakDetail{Heavy: d.Heavy, Value: d.Value, Modifiers: d.Modifiers, Attack: d.Attack, Hits: d.Hits, From: d.From}}
		if len(e.Dice) > 0 {
			out.Dice = e.Dice[:1]
		}
		out.Text = fmt.Sprintf("%s's %s flak fired at %s (value %d, d10 %d): %d hit%s", u.Callsign, kind, p.Callsign, d.Value, d.Attack, d.Hits, plural(d.Hits))
		if p.Side == side {
			// Heavy flak bursts hit every plane there, the side's own too: then it also sees the damage.
			out.Flak = &d
			out.Dice = e.Dice
		}
	case p.Side == side:
		from := "the ground"
		out.Extra = &Extra{Flak: &FlakDetail{Heavy: d.Heavy, Defence: d.Defence, Roll: d.Roll, Hits: d.Hits, Locations: d.Locations}}
		if groundSeen(st, side, u) {
			from, out.Plane = u.Callsign, u.Callsign
			out.Flak.From = d.From
		}
		if len(e.Dice) > 1 {
			out.Dice = e.Dice[1:]
		}
		out.Text = fmt.Sprintf("%s came under %s flak from %s (defence %d + d10 %d): %d hit%s", p.Callsign, kind, from, d.Defence, d.Roll, d.Hits, plural(d.Hits))
	default:
		return Event{}, false
	}
	return out, true
}

// flakPhase is one impulse's flak: every unit's light attacks, and in even impulses its heavy ones.
// pos says where a plane is in this impulse, and was where it was when the turn began (for the default
// heavy aim); both give ok false for a plane out of play.
func (r *resolution) flakPhase(imp int, pos, was func(*Plane) (Flight, bool)) {
	for i := range r.ns.Ground {
		u := &r.ns.Ground[i]
		now, ok := u.flakNow()
		if !ok || (u.Flak.Order != nil && u.Flak.Order.Hold) {
			continue
		}
		r.lightFlak(u, now, imp, pos)
		if imp%2 == 0 && now.heavyAttacks > 0 {
			r.heavyFlak(u, now, imp, pos, was)
		}
	}
}

// flakCandidate is a plane a light flak unit may fire at.
type flakCandidate struct {
	p     *Plane
	f     Flight
	dist  int
	level int
	clock int // the plane seen from the ship's bow: 12 ahead; 0 in the same hex
}

// enemyAt is where pos puts plane p for a flak unit of side: ok is false for a plane of that side, and
// for one pos puts nowhere.
func enemyAt(p *Plane, side string, pos func(*Plane) (Flight, bool)) (Flight, bool) {
	if p.Side == side {
		return Flight{}, false
	}
	return pos(p)
}

// lightFlak fires a unit's light attacks of this impulse: a land unit's one at the nearest plane in
// reach (the ordered target first); a ship's on each side at the planes on that side, the bow and stern
// counting as either (seed 002, naval flak), the side's attacks shared out nearest first.
func (r *resolution) lightFlak(u *GroundUnit, now flakNow, imp int, pos func(*Plane) (Flight, bool)) {
	if now.lightPerSide+now.lightTotal == 0 {
		return
	}
	// The candidates, a ship's side's and the attacks' lists are the turn's scratch (flakScratch).
	sc := &r.flak
	defer sc.drop()
	cands := sc.cands[:0]
	for i := range r.ns.Planes {
		p := &r.ns.Planes[i]
		f, ok := enemyAt(p, u.Side, pos)
		if !ok {
			continue
		}
		d, lv := hexmap.Distance(u.Hex, f.Hex), strike.Level(f.Alt)
		if !lightFlakReaches(r.ns.Clouds, u.Hex, f) {
			continue
		}
		cands = append(cands, flakCandidate{p: p, f: f, dist: d, level: lv, clock: hexmap.Clock(u.Hex, u.Facing, f.Hex)})
	}
	sc.cands = cands
	if len(cands) == 0 {
		return
	}
	target := ""
	if u.Flak.Order != nil {
		target = u.Flak.Order.Target
	}
	slices.SortStableFunc(cands, func(ca, cb flakCandidate) int {
		if (ca.p.Callsign == target) != (cb.p.Callsign == target) {
			if ca.p.Callsign == target {
				return -1
			}
			return 1
		}
		if ca.dist != cb.dist {
			return cmp.Compare(ca.dist, cb.dist)
		}
		if ca.level != cb.level {
			return cmp.Compare(ca.level, cb.level)
		}
		return strings.Compare(ca.p.Callsign, cb.p.Callsign)
	})
	shots := sc.shots[:0]
	defer func() { sc.shots = shots }()
	if now.lightPerSide > 0 {
		for _, starboard := range []bool{true, false} {
			side := sc.side[:0]
			for _, c := range cands {
				bowStern := c.clock == 0 || c.clock == 12 || c.clock == 6
				if bowStern || (c.clock < 6) == starboard {
					side = append(side, c)
				}
			}
			for k := 0; k < now.lightPerSide && len(side) > 0; k++ {
				shots = append(shots, side[k%len(side)])
			}
			sc.side = side
		}
	} else {
		for k := 0; k < now.lightTotal; k++ {
			shots = append(shots, cands[k%len(cands)])
		}
	}
	for k, c := range shots {
		if !r.flakAmmo(u, imp) {
			return
		}
		// Straight at the plane's front or rear: the unit lies dead ahead or dead astern of it.
		clk := hexmap.Clock(c.f.Hex, c.f.Facing, u.Hex)
		lf := strike.LightFlak{Level: c.level, Range: c.dist, FrontRear: clk == 12 || clk == 6,
			Damaged: now.damagedAll || k < now.damagedSome}
		mods := lf.Modifiers()
		r.flakAttack(u, c.p, c.f, imp, false, now.light, mods)
	}
}

// flakScratch is what light flak reuses from attack to attack: the planes in reach, those on one side
// of a ship, and the attacks to fire.
type flakScratch struct {
	cands, side, shots []flakCandidate
}

// drop forgets the planes the lists point to; they keep their room.
func (sc *flakScratch) drop() {
	clear(sc.cands)
	clear(sc.side)
	clear(sc.shots)
}

// heavyFlak fires a unit's heavy attacks of this even impulse, each at its aim: the order's, else the
// hex and altitude level where the nearest enemy plane in reach was when the turn began (the next
// nearest for a second attack): heavy guns fire a barrage laid before the planes move, as an order
// would be. Every plane in the burst is attacked, friend or foe (seed 002: all aircraft in
// the hex).
func (r *resolution) heavyFlak(u *GroundUnit, now flakNow, imp int, pos, was func(*Plane) (Flight, bool)) {
	type aim struct {
		hex   hexmap.Hex
		level int
	}
	var aims []aim
	if u.Flak.Order != nil && len(u.Flak.Order.Aims) > 0 {
		for _, a := range u.Flak.Order.Aims {
			aims = append(aims, aim{a.Hex, strike.Level(a.Alt)})
		}
	} else {
		type seen struct {
			p    *Plane
			f    Flight
			dist int
		}
		var in []seen
		for i := range r.ns.Planes {
			p := &r.ns.Planes[i]
			f, ok := enemyAt(p, u.Side, was)
			if !ok {
				continue
			}
			d := hexmap.Distance(u.Hex, f.Hex)
			if imp%2 != 0 || !heavyFlakReaches(r.ns.Clouds, u.Hex, f, now.ceiling) {
				continue
			}
			in = append(in, seen{p, f, d})
		}
		sort.SliceStable(in, func(a, b int) bool {
			if in[a].dist != in[b].dist {
				return in[a].dist < in[b].dist
			}
			return in[a].p.Callsign < in[b].p.Callsign
		})
		for k := 0; k < len(in); k++ {
			aims = append(aims, aim{in[k].f.Hex, strike.Level(in[k].f.Alt)})
		}
	}
	if len(aims) == 0 {
		return
	}
	for k := 0; k < now.heavyAttacks; k++ {
		a := aims[k%len(aims)]
		if !r.flakAmmo(u, imp) {
			return
		}
		for i := range r.ns.Planes {
			p := &r.ns.Planes[i]
			f, ok := pos(p)
			if !ok {
				continue
			}
			lv := strike.Level(f.Alt)
			if !strike.HeavyFlakReaches(lv, hexmap.Distance(u.Hex, f.Hex), now.ceiling, imp) {
				continue
			}
			if v := strike.HeavyAt(now.heavyAimed, now.heavySplash, hexmap.Distance(a.hex, f.Hex), a.level, lv); v > 0 {
				r.flakAttack(u, p, f, imp, true, v, nil)
			}
		}
	}
}

// flakAmmo spends one attack of a unit with rationed ammunition; false when it has none left (told
// once, to its side).
func (r *resolution) flakAmmo(u *GroundUnit, imp int) bool {
	if !u.Flak.Limited {
		return true
	}
	if u.Flak.Ammo <= 0 {
		return false
	}
	u.Flak.Ammo--
	if u.Flak.Ammo == 0 {
		r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvOutOfAmmo, Plane: u.Callsign, Side: u.Side, Extra: &Extra{Gun: "flak"},
			Text: fmt.Sprintf("%s's flak is out of ammunition", u.Callsign)})
	}
	return true
}

// impulseOf is the impulse an event of the plain game's ground phases is stamped with: none (the plain
// game's events carry no impulse), the impulse in an impulse game.
func (r *resolution) impulseOf(imp int) int {
	if r.ns.Clock != nil {
		return imp
	}
	return 0
}

// flakAttack rolls one flak attack on a plane: the flak's d10 plus its value and modifiers against the
// plane's d10 plus its defence; the hits (strike.FlakHits) fall on the card as gunfire's do, by the
// hit-location tables, one D10 a block. The flak's die is labelled with the unit, the plane's with the
// plane only, so neither side's dice name what it has not seen.
func (r *resolution) flakAttack(u *GroundUnit, p *Plane, f Flight, imp int, heavy bool, value int, mods strike.Mods) {
	card, err := r.cardOf(p.Type)
	if err != nil {
		return
	}
	kind := "light"
	if heavy {
		kind = "heavy"
	}
	before := len(r.d.Log())
	t := &r.text
	ad := r.d.Roll(t.start().str("turn ").num(r.turn).str(" ").str(u.Callsign).str(" ").str(kind).str(" flak at ").str(p.Callsign).
		str(" in impulse ").num(imp).str(": d10").String(), 10)
	dd := r.d.Roll(t.start().str("turn ").num(r.turn).str(" ").str(p.Callsign).str(" against flak in impulse ").num(imp).str(": d10").String(), 10)
	dv := strike.PlaneDefence(card.MultiEngine())
	attack := value + mods.Sum()
	n := strike.FlakHits(attack+ad, dv+dd)
	// The event's Extra and its flak detail are one allocation.
	x := &struct {
		extra  Extra
		detail FlakDetail
	}{detail: FlakDetail{Heavy: heavy, Value: value, Attack: ad, Defence: dv, Roll: dd, Hits: n, From: u.Hex}}
	detail := &x.detail
	x.extra.Flak = detail
	if n > 0 {
		detail.Locations = r.flakHits(p, card, n, t.start().str("turn ").num(r.turn).str(" ").str(p.Callsign).str(" hit by flak in impulse ").num(imp).
			str(": hit-location D10").String())
	}
	rolls := r.d.Log()[before:]
	// The text lists the modifiers as modsSum does; each is also a string of the detail's, the same
	// characters of the text.
	t.start().str(u.Callsign).str("'s ").str(kind).str(" flak fired at ").str(p.Callsign).str(" (value ").num(value).str(" ")
	var buf [16]int
	marks := buf[:0] // where each modifier begins and ends
	if len(mods) == 0 {
		t.str("+0")
	}
	for i, m := range mods {
		if i > 0 {
			t.str(", ")
		}
		marks = append(marks, len(t.b))
		t.signed(m.Value).str(" ").str(m.What)
		marks = append(marks, len(t.b))
	}
	t.str("): d10 ").num(ad).str(" against ").num(dv).str(" + d10 ").num(dd).str(": ").num(n).str(" hit").str(plural(n))
	text := t.String()
	if len(marks) > 0 {
		detail.Modifiers = make([]string, 0, len(marks)/2)
	}
	for i := 0; i < len(marks); i += 2 {
		detail.Modifiers = append(detail.Modifiers, text[marks[i]:marks[i+1]])
	}
	r.emit(Event{Turn: r.turn, Impulse: r.impulseOf(imp), Kind: EvFlak, Plane: u.Callsign, Side: u.Side, Target: p.Callsign,
		Dice: rolls, Extra: &x.extra, Text: text})
}

// flakHits reads n flak hits on the plane's hit-location tables (blocks of up to four, a D10 each, odd
// left and even right) and adds them to the hits damage applies; it returns the locations read. label
// is the D10's.
func (r *resolution) flakHits(p *Plane, card *aircraft.Card, n int, label string) []string {
	hits := r.hitsOn(p.Callsign, len(card.Systems))
	work := append(r.work[:0], p.Damage...)
	r.work = work
	for i, h := range hits {
		if i < len(work) {
			work[i] += h
		}
	}
	var locs []string
	d10 := r.d.Roll(label, 10)
	loc, err := r.env.Tables.Location(card.MultiEngine(), n, d10)
	if err != nil {
		return nil
	}
	locs = append(locs, loc.String())
	for li := 0; li < len(loc.Letters); li++ {
		if i := chooseSystem(card, work, loc.Letters[li], d10%2 == 1); i >= 0 {
			hits[i]++
			work[i]++
		}
	}
	return locs
}
