package afd

// Torpedoes (seed 002, torpedo attacks; seed 001 V.D). A torpedo bomber's BOMB drops its torpedo: at
// altitude level 0 (under 500 ft), speed 2 or less, with an enemy ship 1 to 4 hexes away. A good drop
// runs one hex straight ahead at once, then one hex a turn in impulse 7; a torpedo that enters an enemy
// ship's hex rolls to hit, and a hit on the side counts as a direct hit, on the bow or stern as on target
// (docs/rulings.md: air to ground).

import (
	"fmt"
	"strings"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/strike"
	hexmap "sortie/rules/hex"
)

// EvTorpedo is a torpedo dropped, running into a ship's hex, hitting or missing.
const EvTorpedo = "torpedo"

// MaxTorpedoTurns is how many turns a torpedo runs before it sinks (house rule: the seed lets it run
// until it meets a ship or leaves the map, and an unbounded map has no edge).
const MaxTorpedoTurns = 10

// Torpedo is a torpedo running.
type Torpedo struct {
	ID      string       `json:"id"`    // e.g. "T-TBF1-3": the bomber and the turn it was dropped
	Side    string       `json:"side"`  // the bomber's side
	Owner   string       `json:"owner"` // the bomber's callsign
	Hex     hexmap.Hex   `json:"hex"`
	Facing  hexmap.Dir   `json:"facing"`
	Phase   hexmap.Phase `json:"phase"`
	Turns   int          `json:"turns"`   // turns run so far
	Dropped int          `json:"dropped"` // the turn it was dropped
	Crew    strike.Crew  `json:"crew"`
	Passed  []string     `json:"passed,omitempty"` // ships whose hex it has entered already
}

// carriesTorpedo says a card's load is a torpedo.
func carriesTorpedo(card *aircraft.Card) bool {
	return card.Loaded != nil && strings.Contains(strings.ToLower(card.Loaded.Stores), "torpedo")
}

// dropTorpedo is a torpedo bomber's release: the seed's conditions, the launch roll, and a good drop's
// first hex.
func (r *resolution) dropTorpedo(p *Plane, card *aircraft.Card, atImpulse int) {
	level := strike.Level(p.Flight.Alt)
	target, dist := nearestEnemyShip(r.ns, p.Side, p.Flight.Hex)
	if named := namedTarget(p); named != "" {
		// The ship the order named (AT), when it is an enemy ship afloat 1 to 4 hexes off.
		if u := r.ns.groundUnit(named); u != nil && u.Kind == Ship && u.Side != p.Side && u.Damage != strike.Destroyed {
			if d := hexmap.Distance(p.Flight.Hex, u.Hex); d >= 1 && d <= 4 {
				target, dist = u, d
			}
		}
	}
	tp := strike.Torpedo{Crew: strike.CrewOf(p.Pilot), Crippled: crippled(card, p), USBefore1943: card.Nation == "USA" && card.Year < 1943,
		Level: level, Speed: p.Flight.Speed.Round(), Range: dist, TorpedoBomber: true}
	if target == nil {
		tp.Range = 0
	}
	if why := tp.Check(); why != "" {
		p.Flight.Loaded = true
		r.emit(Event{Turn: r.turn, Impulse: atImpulse, Kind: EvIllegalOrder, Plane: p.Callsign, Side: p.Side, Player: p.Player,
			Text: fmt.Sprintf("%s kept its torpedo: %s", p.Callsign, why)})
		return
	}
	p.Flight.Loaded = false
	label := fmt.Sprintf("turn %d %s drops a torpedo", r.turn, p.Callsign)
	die := r.d.Roll(label+": d10", 10)
	mods := tp.Modifiers()
	text := fmt.Sprintf("%s dropped a torpedo toward %s: d10 %d %s", p.Callsign, target.Callsign, die, modsSum(mods))
	if !strike.Runs(die + mods.Sum()) {
		r.emit(Event{Turn: r.turn, Impulse: atImpulse, Kind: EvTorpedo, Plane: p.Callsign, Side: p.Side, Dice: r.d.Log()[len(r.d.Log())-1:],
			Text: text + ": a poor drop or a faulty torpedo, lost"})
		return
	}
	t := Torpedo{ID: fmt.Sprintf("T-%s-%d", p.Callsign, r.turn), Side: p.Side, Owner: p.Callsign, Hex: p.Flight.Hex, Facing: p.Flight.Facing,
		Phase: p.Flight.Phase, Crew: tp.Crew, Dropped: r.turn}
	r.emit(Event{Turn: r.turn, Impulse: atImpulse, Kind: EvTorpedo, Plane: p.Callsign, Side: p.Side, Dice: r.d.Log()[len(r.d.Log())-1:],
		Text: text + ": it runs straight and normal"})
	r.ns.Torpedoes = append(r.ns.Torpedoes, t)
	r.runTorpedo(len(r.ns.Torpedoes)-1, atImpulse) // one hex at once (seed 001 V.D.1)
}

// nearestEnemyShip is the nearest enemy ship afloat and its distance (nil beyond 4 hexes or in the
// plane's own hex).
func nearestEnemyShip(st *State, side string, h hexmap.Hex) (*GroundUnit, int) {
	var best *GroundUnit
	bestD := 5
	for i := range st.Ground {
		u := &st.Ground[i]
		if u.Kind != Ship || u.Side == side || u.Damage == strike.Destroyed {
			continue
		}
		if d := hexmap.Distance(h, u.Hex); d >= 1 && d < bestD {
			best, bestD = u, d
		}
	}
	return best, bestD
}

// runTorpedo moves torpedo i one hex ahead and checks for a ship in its new hex.
func (r *resolution) runTorpedo(i, atImpulse int) {
	t := &r.ns.Torpedoes[i]
	t.Hex, t.Phase = hexmap.Forward(t.Hex, t.Facing, t.Phase)
	for k := range r.ns.Ground {
		u := &r.ns.Ground[k]
		if u.Kind != Ship || u.Side == t.Side || u.Hex != t.Hex || u.Damage == strike.Destroyed || contains(t.Passed, u.Callsign) {
			continue
		}
		t.Passed = append(t.Passed, u.Callsign)
		if r.torpedoHit(t, u, atImpulse) {
			t.Turns = MaxTorpedoTurns + 1 // spent
			return
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// torpedoHit rolls a torpedo's hit on a ship whose hex it entered, and its damage.
func (r *resolution) torpedoHit(t *Torpedo, u *GroundUnit, atImpulse int) bool {
	d := (int(t.Facing) - int(u.Facing) + 12) % 12
	bowStern := d <= 1 || d >= 11 || (d >= 5 && d <= 7)
	h := strike.TorpedoHit{Size: u.Size, BowStern: bowStern}
	label := fmt.Sprintf("turn %d %s torpedo hits %s", r.turn, t.Owner, u.Callsign)
	die := r.d.Roll(label+": d10", 10)
	mods := h.Modifiers()
	if !strike.Hits(die + mods.Sum()) {
		r.emit(Event{Turn: r.turn, Impulse: atImpulse, Kind: EvTorpedo, Plane: t.Owner, Side: t.Side, Target: u.Callsign, Dice: r.d.Log()[len(r.d.Log())-1:],
			Text: fmt.Sprintf("%s's torpedo ran through %s's hex and missed: d10 %d %s", t.Owner, u.Callsign, die, modsSum(mods))})
		return false
	}
	res := strike.TorpedoResult(bowStern)
	attack := strike.ModifiedAttack(10, 1, res)
	dv := strike.Defence(u.Defence, u.Damage)
	if !bowStern {
		if d < 6 {
			dv = strike.SideDefence(dv, u.Bulge, u.TorpedoStarboard)
			u.TorpedoStarboard++
		} else {
			dv = strike.SideDefence(dv, u.Bulge, u.TorpedoPort)
			u.TorpedoPort++
		}
	}
	ad := r.d.Roll(label+": attack d10", 10)
	// The defender's die names no attacker: the ship's side may not have seen the bomber.
	dd := r.d.Roll(fmt.Sprintf("turn %d %s defends against a torpedo: d10", r.turn, u.Callsign), 10)
	dmg := strike.DamageOf(attack+ad, dv+dd)
	u.Damage = strike.Worse(u.Damage, dmg)
	where := "on the side"
	if bowStern {
		where = "on the bow or stern"
	}
	r.emit(Event{Turn: r.turn, Impulse: atImpulse, Kind: EvGroundDamage, Plane: u.Callsign, Side: u.Side, Target: t.Owner,
		Dice: r.d.Log()[len(r.d.Log())-2:], Extra: &Extra{Ground: &GroundDetail{Kind: u.Kind, To: u.Hex, Result: dmg.String(), Weapon: "torpedo"}},
		Text: fmt.Sprintf("%s's torpedo hit %s %s (d10 %d %s): attack %d + %d against defence %d + %d: %s", t.Owner, u.Callsign, where, die, modsSum(mods), attack, ad, dv, dd, dmg)})
	return true
}

// moveTorpedoes runs every torpedo one hex in impulse 7 of every turn after its drop (seed 001 V.D.2-3),
// and takes out those that hit, left the map or ran their course.
func (r *resolution) moveTorpedoes(imp int) {
	if imp != 7 {
		return
	}
	for i := range r.ns.Torpedoes {
		t := &r.ns.Torpedoes[i]
		if t.Turns > MaxTorpedoTurns || t.Dropped == r.ns.Turn {
			continue // spent, or dropped this turn: it moved its first hex when it was dropped
		}
		r.runTorpedo(i, imp)
		hit := t.Turns > MaxTorpedoTurns
		t.Turns++
		if !hit {
			r.torpedoRuns(t, imp)
		}
	}
	kept := r.ns.Torpedoes[:0]
	for _, t := range r.ns.Torpedoes {
		if t.Turns <= MaxTorpedoTurns && r.ns.Map.Outside(t.Hex) == "" {
			kept = append(kept, t)
		}
	}
	r.ns.Torpedoes = kept
}

// torpedoRuns tells the side that dropped a torpedo where it ran this turn, or that its run is over: a
// torpedo runs unseen by its player for turns (seed 001 V.D.2-3), and its first news must not be, turns
// later, that it missed a ship. Only its own side is told (view.go: a side's own torpedoes), for the
// seeds give the enemy no sight of a running torpedo.
func (r *resolution) torpedoRuns(t *Torpedo, imp int) {
	where := fmt.Sprintf("hex (%d,%d)", t.Hex.Q, t.Hex.R)
	text := fmt.Sprintf("%s's torpedo (dropped in turn %d) ran on to %s, heading %s", t.Owner, t.Dropped, where, t.Facing)
	switch {
	case t.Turns > MaxTorpedoTurns:
		text = fmt.Sprintf("%s's torpedo (dropped in turn %d) ran its course and sank in %s", t.Owner, t.Dropped, where)
	case r.ns.Map.Outside(t.Hex) != "":
		text = fmt.Sprintf("%s's torpedo (dropped in turn %d) ran off the map at %s", t.Owner, t.Dropped, where)
	}
	r.emit(Event{Turn: r.turn, Impulse: imp, Kind: EvTorpedo, Plane: t.Owner, Side: t.Side, Text: text})
}
