package afd

// Bombs on the ground (seed 002): a plane that releases its bombs (BOMB in its plot, seed 000 rule 21)
// attacks what stands in the hex where it releases them, on the standard bombing table at its altitude
// level: dive bombing after a vertical dive, glide bombing after a dive, level bombing otherwise. A
// scatter moves the bombs by the house rule; every truck, tank, ship or target in the hex where they
// land takes the attack, the first the scenario lists as the primary target and the others at half
// (docs/rulings.md: air to ground).

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/strike"
	hexmap "sortie/rules/hex"
)

// EvGroundDamage is a ground unit or target hit by bombs.
const EvGroundDamage = "ground-damage"

var storesRE = regexp.MustCompile(`(\d+)\s*[×x]\s*([\d,]+)\s*(lb|kg)`)

// BombLoad is the weapon class and number of bombs a loaded card carries, read from its stores (house
// rule, docs/rulings.md: air to ground): the first "N × W lb (kg)" group, a bomb of 900 lb or more
// counted as seed 002's 1,000 lb class, of 450 lb or more as 500 lb, smaller ones as 250 lb; a load
// given only by its weight is so many 500 lb bombs. ok is false for a card with no bombs (a torpedo).
func BombLoad(card *aircraft.Card) (weapon string, count int, ok bool) {
	if card.Loaded == nil {
		return "", 0, false
	}
	stores := strings.ToLower(card.Loaded.Stores)
	if strings.Contains(stores, "torpedo") {
		return "", 0, false
	}
	if m := storesRE.FindStringSubmatch(stores); m != nil {
		n, _ := strconv.Atoi(m[1])
		w, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
		if m[3] == "kg" {
			w = w * 22 / 10
		}
		switch {
		case w >= 900:
			return "1000lb", n, n > 0
		case w >= 450:
			return "500lb", n, n > 0
		}
		return "250lb", n, n > 0
	}
	if m := regexp.MustCompile(`([\d,]+)\s*(lb|kg)`).FindStringSubmatch(stores); m != nil {
		w, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		if m[2] == "kg" {
			w = w * 22 / 10
		}
		return "500lb", max(1, w/500), true
	}
	return "", 0, false
}

// systemFill is how full a plane's systems with a letter are: any box filled, and more than half of
// one of them.
func systemFill(card *aircraft.Card, p *Plane, letter string) (hit, overHalf bool) {
	for i, s := range card.Systems {
		if s.Letter != letter || i >= len(p.Damage) {
			continue
		}
		hit = hit || p.Damage[i] > 0
		overHalf = overHalf || 2*p.Damage[i] > s.Boxes
	}
	return hit, overHalf
}

// crippled says more than half of one of a plane's systems is filled.
func crippled(card *aircraft.Card, p *Plane) bool {
	for i, s := range card.Systems {
		if i < len(p.Damage) && 2*p.Damage[i] > s.Boxes {
			return true
		}
	}
	return false
}

// bombing resolves a plane's bombs released this turn (after its movement, from where it released them).
func (r *resolution) bombing(p *Plane, card *aircraft.Card, startAlt int) {
	r.bombingAt(p, card, startAlt, true)
}

// bombingAt resolves a release: atDiveEnd says the bombs fell at the end of the turn's dive (the seed's
// change phase: the plain game), not in the middle of a manoeuvre (an impulse).
func (r *resolution) bombingAt(p *Plane, card *aircraft.Card, startAlt int, atDiveEnd bool) {
	if carriesTorpedo(card) {
		imp := 0
		if !atDiveEnd && r.ns.Clock != nil {
			imp = r.ns.Clock.Impulse
		}
		r.dropTorpedo(p, card, imp)
		return
	}
	b := p.Bombed
	weapon, count, ok := BombLoad(card)
	if !ok {
		imp := 0
		if !atDiveEnd && r.ns.Clock != nil {
			imp = r.ns.Clock.Impulse
		}
		r.refuse(p, imp, "bombing attack", "its card gives it no bomb load to drop")
		return
	}
	level := strike.Level(b.Alt)
	a := strike.Attack{Kind: strike.LevelBombing, Crew: strike.CrewOf(p.Pilot)}
	switch {
	case b.Dive:
		a.Kind = strike.DiveBombing
	case b.Alt < startAlt:
		a.Kind = strike.GlideBombing
		a.ChangePhase = atDiveEnd
	}
	a.LevelsDived = max(0, strike.Level(startAlt)-level)
	a.CrewHit, _ = systemFill(card, p, "C")
	a.WingHit, a.WingOrFuselageHalf = systemFill(card, p, "W")
	if _, fuse := systemFill(card, p, "F"); fuse {
		a.WingOrFuselageHalf = true
	}
	a.Crippled = crippled(card, p)
	label := fmt.Sprintf("turn %d %s bombs", r.turn, p.Callsign)
	die := r.d.Roll(label+": d10", 10)
	mods := a.Modifiers()
	res := strike.Bomb(level, die+mods.Sum())
	rolls := []int{die}
	land := b.Hex
	text := fmt.Sprintf("%s %s-bombed hex %v from %s ft (level %d): d10 %d %s = %s", p.Callsign, a.Kind, b.Hex, feetText(b.Alt), level, die, modsSum(mods), res)
	if res == strike.Scatter {
		sd := r.d.Roll(label+" scatter: d10", 10)
		rolls = append(rolls, sd)
		if side, moved := strike.ScatterHex(int(p.Flight.Facing), sd); moved {
			land = b.Hex.Neighbor(hexmap.Dir(side))
			text += fmt.Sprintf(", scattered into hex %v", land)
		} else {
			text += ", scattered within the hex"
		}
	}
	av, _ := strike.AttackValue(weapon)
	attack := strike.ModifiedAttack(av, count, res)
	var targets []*GroundUnit
	for i := range r.ns.Ground {
		if u := &r.ns.Ground[i]; u.Hex == land && u.Damage != strike.Destroyed {
			targets = append(targets, u)
		}
	}
	// The target the order named is the primary one when it is there; the rest take half (seed 002).
	sort.SliceStable(targets, func(a, b int) bool {
		return targets[a].Callsign == namedTarget(p) && targets[b].Callsign != namedTarget(p)
	})
	if len(targets) == 0 {
		text += ": nothing there"
	}
	r.emit(Event{Turn: r.turn, Kind: EvBombs, Plane: p.Callsign, Side: p.Side, Text: text, Dice: r.d.Log()[len(r.d.Log())-len(rolls):]})
	for k, u := range targets {
		av := attack
		if k > 0 {
			av = strike.Secondary(attack)
		}
		ad := r.d.Roll(fmt.Sprintf("%s %s: attack d10", label, u.Callsign), 10)
		// The defender's die names no attacker: the target's side may not have seen the bomber.
		dd := r.d.Roll(fmt.Sprintf("turn %d %s defends against bombs: d10", r.turn, u.Callsign), 10)
		dv := strike.Defence(u.Defence, u.Damage)
		dmg := strike.DamageOf(av+ad, dv+dd)
		u.Damage = strike.Worse(u.Damage, dmg)
		r.emit(Event{Turn: r.turn, Kind: EvGroundDamage, Plane: u.Callsign, Side: u.Side, Target: p.Callsign,
			Dice: r.d.Log()[len(r.d.Log())-2:], Extra: &Extra{Ground: &GroundDetail{Kind: u.Kind, To: u.Hex, Result: dmg.String(), Weapon: "bombs"}},
			Text: fmt.Sprintf("%s's bombs on %s (%s): attack %d + %d against defence %d + %d: %s", p.Callsign, u.Callsign, u.Kind, av, ad, dv, dd, dmg)})
	}
}

// namedTarget is the primary target a plane's release named, "" if none.
func namedTarget(p *Plane) string {
	if p.Bombed == nil {
		return ""
	}
	return p.Bombed.Target
}

// modsSum is the modifiers as a report's event adds them up: modsText's list, or +0 for none.
func modsSum(m strike.Mods) string {
	if len(m) == 0 {
		return "+0"
	}
	return modsText(m)
}
