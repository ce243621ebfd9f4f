package afd

import (
	"fmt"
	"strings"

	"sortie/rules/afd/aircraft"
)

func destroyed(card *aircraft.Card, dmg []int, i int) bool { return dmg[i] >= card.Systems[i].Boxes }

// chooseSystem picks the system a hit on letter goes to (seed 000, hit location): sided systems by the
// D10's parity, centre-line ones only once both outboard ones are destroyed. Several systems on one
// side (four-engine bombers) take hits on the first still intact. A letter the card lacks hits the
// fuselage. It returns -1 only for a card with neither.
func chooseSystem(card *aircraft.Card, dmg []int, letter byte, odd bool) int {
	var cands []int
	for i, s := range card.Systems {
		if len(s.Letter) == 1 && s.Letter[0] == letter {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		if letter == 'F' {
			return -1
		}
		return chooseSystem(card, dmg, 'F', odd)
	}
	if len(cands) == 1 {
		return cands[0]
	}
	want := "R"
	if odd {
		want = "L"
	}
	var side, other, centre []int
	for _, i := range cands {
		switch card.Systems[i].Side {
		case want:
			side = append(side, i)
		case "L", "R":
			other = append(other, i)
		default:
			centre = append(centre, i)
		}
	}
	allGone := func(ix []int) bool {
		for _, i := range ix {
			if !destroyed(card, dmg, i) {
				return false
			}
		}
		return true
	}
	firstIntact := func(ix []int) int {
		for _, i := range ix {
			if !destroyed(card, dmg, i) {
				return i
			}
		}
		return ix[0]
	}
	if len(centre) > 0 && allGone(side) && allGone(other) {
		return firstIntact(centre)
	}
	if len(side) == 0 {
		if len(other) > 0 {
			return firstIntact(other)
		}
		return firstIntact(centre)
	}
	return firstIntact(side)
}

// damageResult is what a turn's hits did to one plane.
type damageResult struct {
	detail   HitDetail
	shotDown bool
	engines  []string // engine systems newly destroyed (side)
	guns     []string // gun positions newly destroyed
}

// applyDamage marks hits on a plane, all at once, and works out their effects (seed 000; docs/rulings.md:
// damage): a system is destroyed when its boxes are full; C, L, F or W destroyed, or the engine of a
// one-engine plane, shoots it down; an engine lost on a multi-engine plane means jettison, no power,
// flying as loaded (and the last engine lost shoots it down); a destroyed gun position cannot fire.
func applyDamage(card *aircraft.Card, p *Plane, hits []int) damageResult {
	r, _ := applyDamageTo(card, p, hits, nil)
	return r
}

// applyDamageTo is applyDamage writing the detail's systems into systems' room when it has enough
// (the turn gives one block for every plane hit); it returns systems past them.
func applyDamageTo(card *aircraft.Card, p *Plane, hits []int, systems []SystemHit) (damageResult, []SystemHit) {
	var r damageResult
	var buf [16]int
	before := append(buf[:0], p.Damage...)
	for i, n := range hits {
		if n > 0 {
			p.Damage[i] += n
		}
	}
	enginesLeft, hit, lost := 0, 0, 0
	for i, s := range card.Systems {
		if s.Letter == "E" && !destroyed(card, p.Damage, i) {
			enginesLeft++
		}
		if hits[i] > 0 {
			hit++
			if destroyed(card, p.Damage, i) && before[i] < s.Boxes {
				lost++
			}
		}
	}
	// The detail's lists at their size (and nil when empty, as JSON has them): a system line for each
	// system hit, and up to two effects for each system lost and one for being shot down.
	switch {
	case hit == 0:
	case cap(systems)-len(systems) >= hit:
		r.detail.Systems = systems[len(systems) : len(systems) : len(systems)+hit]
		systems = systems[:len(systems)+hit]
	default:
		r.detail.Systems = make([]SystemHit, 0, hit)
	}
	if lost > 0 {
		r.detail.Effects = make([]string, 0, 2*lost+1)
	}
	for i, s := range card.Systems {
		if hits[i] == 0 {
			continue
		}
		now := destroyed(card, p.Damage, i)
		was := before[i] >= s.Boxes
		filled := min(p.Damage[i], s.Boxes)
		r.detail.Systems = append(r.detail.Systems, SystemHit{Letter: s.Letter, Side: s.Side, Name: s.Name, Hits: hits[i], Filled: filled, Boxes: s.Boxes, Destroyed: now})
		if !now || was {
			continue
		}
		switch s.Effect {
		case aircraft.EffectShotDown:
			r.shotDown = true
			r.detail.Effects = append(r.detail.Effects, s.Name+" destroyed")
		case aircraft.EffectEngineOut:
			side := sideWord2(s.Side)
			r.detail.Effects = append(r.detail.Effects, strings.TrimSpace(side+" engine destroyed"))
			r.engines = append(r.engines, s.Side)
			if enginesLeft == 0 || !card.MultiEngine() {
				r.shotDown = true
			} else {
				r.detail.Effects = append(r.detail.Effects, "bombs jettisoned, no power factors, flies as loaded")
			}
		case aircraft.EffectGunsOut:
			r.guns = append(r.guns, s.Guns)
			r.detail.Effects = append(r.detail.Effects, fmt.Sprintf("guns %s destroyed", s.Guns))
		default:
			r.detail.Effects = append(r.detail.Effects, s.Name+" destroyed")
		}
	}
	if r.shotDown {
		r.detail.Effects = append(r.detail.Effects, "shot down")
	}
	return r, systems
}

func sideWord2(s string) string {
	switch s {
	case "L":
		return "left"
	case "R":
		return "right"
	}
	return ""
}

// gunDestroyed reports whether a gun position's damage system is destroyed.
func gunDestroyed(card *aircraft.Card, p *Plane, id string) bool {
	for i, s := range card.Systems {
		if s.Effect == aircraft.EffectGunsOut && s.Guns == id && destroyed(card, p.Damage, i) {
			return true
		}
	}
	return false
}
