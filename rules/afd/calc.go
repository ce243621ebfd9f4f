package afd

import (
	"fmt"
	"slices"
	"strings"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/tables"
	"sortie/rules/dice"
)

// FireReport is one burst worked out for the calculator (sortie calc fire): what a player would read
// off the tables at the table, and the damage it does to a fresh target.
type FireReport struct {
	Guns      []string       `json:"guns"`
	Chart     string         `json:"chart"`
	Range     int            `json:"range"`
	Column    string         `json:"column"`
	Row       string         `json:"deflection_row"`
	DRM       int            `json:"drm"`
	Red       int            `json:"red"`
	White     int            `json:"white"`
	Modified  int            `json:"row"`
	Hits      int            `json:"hits"`
	Locations []string       `json:"locations"`
	Critical  int            `json:"critical"`
	Damage    []string       `json:"damage"`
	Effects   []string       `json:"effects"`
	ShotDown  bool           `json:"shot_down"`
	Systems   []SystemStatus `json:"systems"`
	Dice      []dice.Roll    `json:"dice"`
}

// SystemStatus is one damage system's boxes after the hits.
type SystemStatus struct {
	Letter    string `json:"letter"`
	Side      string `json:"side,omitempty"`
	Name      string `json:"name"`
	Filled    int    `json:"filled"`
	Boxes     int    `json:"boxes"`
	Destroyed bool   `json:"destroyed"`
}

// CalcFire resolves one burst from shooter at target, with the geometry given directly: range in hexes,
// the height difference in feet, and the shooter's clock position seen from the target. guns names the
// firing positions; empty means every fixed forward position. Fixed positions fire together on the chart
// of their combined mix; flexible ones by the best-single-position rule.
func CalcFire(env *Env, shooter, target *aircraft.Card, guns []string, rangeHexes, heightDiff, clock int, d dice.Source, simple bool) (FireReport, error) {
	return CalcFireRow(env, shooter, target, guns, rangeHexes, heightDiff, clock, "", d, simple)
}

// CalcFireRow is CalcFire with the deflection row of a flexible gun's shot given: "5-7", "4/8" or
// "9-3". A flexible gun's row follows from both planes' headings, not from the clock alone (seed 000,
// the deflection DRM rules; FlexDeflectionRow), so a flexible shot needs it; a fixed gun's row is its
// clock's, and row must be empty or that one.
func CalcFireRow(env *Env, shooter, target *aircraft.Card, guns []string, rangeHexes, heightDiff, clock int, row string, d dice.Source, simple bool) (FireReport, error) {
	if clock < 1 || clock > 12 {
		return FireReport{}, fmt.Errorf("the clock position is 1 to 12, got %d", clock)
	}
	if rangeHexes < 1 {
		return FireReport{}, fmt.Errorf("the range is at least 1 hex, got %d", rangeHexes)
	}
	rangeAdj := AdjustedRange(rangeHexes, heightDiff)
	if rangeAdj > MaxFireRange {
		return FireReport{}, fmt.Errorf("range %d (%d hexes, +%d for height) is beyond the %d-hex limit", rangeAdj, rangeHexes, rangeAdj-rangeHexes, MaxFireRange)
	}
	var fixed, flex []aircraft.GunPosition
	for _, g := range shooter.Guns {
		if len(guns) > 0 && !slices.Contains(guns, g.ID) {
			continue
		}
		if g.Kind == "FF" || g.Kind == "FH" || g.Kind == "FL" {
			fixed = append(fixed, g)
		} else if len(guns) > 0 {
			flex = append(flex, g)
		}
	}
	for _, id := range guns {
		if !shooter.HasGun(id) {
			return FireReport{}, fmt.Errorf("the %s has no gun position %q (it has %s)", shooter.Name, id, shooter.GunList())
		}
	}
	me := target.MultiEngine()
	var shot Shot
	switch {
	case len(fixed) > 0:
		chart, ids, ok := fixedChart(fixed, rangeAdj)
		if !ok {
			return FireReport{}, fmt.Errorf("no chosen gun reaches range %d", rangeAdj)
		}
		if row != "" && row != tables.DeflectionRow(clock) {
			return FireReport{}, fmt.Errorf("fixed guns at clock %d read deflection row %s, not %s", clock, tables.DeflectionRow(clock), row)
		}
		shot = Shot{Guns: ids, Chart: chart, Range: rangeAdj, Clock: clock, Row: tables.DeflectionRow(clock), DRM: env.Tables.DRM(clock, me)}
	case len(flex) > 0:
		chart, ids, ok := bestFlex(env.Tables, flex, rangeAdj)
		if !ok {
			return FireReport{}, fmt.Errorf("no chosen gun reaches range %d", rangeAdj)
		}
		if row == "" {
			return FireReport{}, fmt.Errorf("a flexible gun's deflection row depends on both headings: give it (5-7, 4/8 or 9-3)")
		}
		drm, err := env.Tables.DRMRow(row, me)
		if err != nil {
			return FireReport{}, err
		}
		shot = Shot{Guns: ids, Flexible: true, Chart: chart, Range: rangeAdj, Clock: clock, Row: row, DRM: drm}
	default:
		return FireReport{}, fmt.Errorf("the %s has no fixed forward guns; name the positions with --guns", shooter.Name)
	}
	p := &Plane{Damage: make([]int, len(target.Systems))}
	res, err := resolveShot(env.Tables, target, p.Damage, shot, d, "calc fire", simple)
	if err != nil {
		return FireReport{}, err
	}
	r := applyDamage(target, p, res.hits)
	f := res.detail
	out := FireReport{Guns: f.Guns, Chart: f.Chart, Range: f.Range, Column: f.Column, Row: f.Row, DRM: f.DRM, Red: f.Red, White: f.White,
		Modified: f.Modified, Hits: f.Hits, Locations: f.Locations, Critical: f.Critical, Effects: r.detail.Effects, ShotDown: r.shotDown,
		Dice: res.rolls, Damage: append([]string{}, res.applied...)}
	if out.Locations == nil {
		out.Locations = []string{}
	}
	if out.Effects == nil {
		out.Effects = []string{}
	}
	out.Systems = systemStatus(target, p.Damage)
	return out, nil
}

func systemStatus(card *aircraft.Card, dmg []int) []SystemStatus {
	var out []SystemStatus
	for i, s := range card.Systems {
		out = append(out, SystemStatus{Letter: s.Letter, Side: s.Side, Name: s.Name, Filled: min(dmg[i], s.Boxes), Boxes: s.Boxes, Destroyed: dmg[i] >= s.Boxes})
	}
	return out
}

// DamageReport is a hit string applied to a fresh aircraft (sortie calc damage).
type DamageReport struct {
	Hits     string         `json:"hits"`
	Critical int            `json:"critical"`
	Damage   []string       `json:"damage"`
	Effects  []string       `json:"effects"`
	ShotDown bool           `json:"shot_down"`
	Systems  []SystemStatus `json:"systems"`
}

// CalcDamage applies a hit-location string such as "WFEE*" to a fresh aircraft: side picks the side of
// sided systems (L or R, as an odd or even D10 would), and red is the red die, whose 5 or 6 adds 1 or 2
// hits to the starred system when the string holds at least two hits (seed 000).
func CalcDamage(card *aircraft.Card, hitString string, red int, side string, simple bool) (DamageReport, error) {
	letters := strings.ToUpper(strings.TrimSpace(hitString))
	crit := -1
	var clean []byte
	for i := 0; i < len(letters); i++ {
		c := letters[i]
		switch {
		case c == '*':
			if len(clean) == 0 || crit >= 0 {
				return DamageReport{}, fmt.Errorf("%q: a * follows the one letter open to a critical", hitString)
			}
			crit = len(clean) - 1
		case strings.IndexByte(tables.SystemLetters, c) >= 0:
			clean = append(clean, c)
		default:
			return DamageReport{}, fmt.Errorf("%q: hit letters are %s, with * after a critical one", hitString, tables.SystemLetters)
		}
	}
	if len(clean) == 0 {
		return DamageReport{}, fmt.Errorf("no hit letters given")
	}
	if crit >= 0 && strings.IndexByte(tables.CriticalLetters, clean[crit]) < 0 {
		return DamageReport{}, fmt.Errorf("%q: only C, L or E can carry the critical mark", hitString)
	}
	if red < 0 || red > 6 {
		return DamageReport{}, fmt.Errorf("the red die shows 1 to 6, got %d", red)
	}
	odd := true
	switch strings.ToUpper(side) {
	case "", "L":
	case "R":
		odd = false
	default:
		return DamageReport{}, fmt.Errorf("--side is L or R, got %q", side)
	}
	dmg := make([]int, len(card.Systems))
	hits := make([]int, len(card.Systems))
	rep := DamageReport{Hits: hitString}
	var cle []int
	rep.Damage = []string{}
	for i, l := range clean {
		k := chooseSystem(card, dmg, l, odd)
		if k < 0 {
			continue
		}
		hits[k]++
		dmg[k]++
		rep.Damage = append(rep.Damage, systemLabel(card, k))
		if l == 'C' || l == 'L' || l == 'E' {
			cle = append(cle, k)
		}
		if !simple && i == crit && len(clean) >= 2 && red >= 5 {
			hits[k] += red - 4
			dmg[k] += red - 4
			rep.Critical = red - 4
			for n := 0; n < red-4; n++ {
				rep.Damage = append(rep.Damage, systemLabel(card, k))
			}
		}
	}
	if simple && red >= 5 && len(cle) > 0 {
		best := cle[0]
		for _, k := range cle[1:] {
			if card.Systems[k].Boxes-dmg[k] < card.Systems[best].Boxes-dmg[best] {
				best = k
			}
		}
		hits[best] += red - 4
		rep.Critical = red - 4
		for n := 0; n < red-4; n++ {
			rep.Damage = append(rep.Damage, systemLabel(card, best))
		}
	}
	p := &Plane{Damage: make([]int, len(card.Systems))}
	r := applyDamage(card, p, hits)
	rep.Effects = r.detail.Effects
	if rep.Effects == nil {
		rep.Effects = []string{}
	}
	rep.ShotDown = r.shotDown
	rep.Systems = systemStatus(card, p.Damage)
	return rep, nil
}
