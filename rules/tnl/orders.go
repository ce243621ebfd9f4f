package tnl

import (
	"fmt"
	"sort"
	"strings"

	"sortie/parser"
	"sortie/rules/tnl/notation"
)

// Check is what the rules say about one unit's order: each aircraft's plot flown from where it is, and
// every rule broken.
type Check struct {
	Plots    map[string]PlotCheck
	Errors   []Problem
	Warnings []Problem
}

// CheckOrder validates a unit's order against the unit only: each aircraft's plot (CheckPlot), the
// attacks on ships and the fire order. Resolve uses the same checks.
func CheckOrder(d *Data, st *State, u *Unit, o notation.Order) Check {
	flying := st.Flying(u)
	c := Check{Plots: make(map[string]PlotCheck, len(flying)), Errors: []Problem{}, Warnings: []Problem{}}
	member := map[string]bool{}
	for _, a := range flying {
		member[a.Callsign] = true
	}
	for _, s := range o.Segments[1:] {
		if !member[s.Callsign] {
			c.Errors = append(c.Errors, Problem{Code: "not-in-unit", Col: s.Col,
				Message: fmt.Sprintf("%s is not an aircraft of %s in the air (its aircraft: %s)", s.Callsign, u.Name, callsigns(flying))})
		}
	}
	// A problem the unit's plot gives several aircraft is said once, naming them.
	type shared struct {
		p   Problem
		who []string
	}
	var unitProblems []*shared
	byKey := map[string]*shared{}
	addUnit := func(cs string, p Problem) {
		k := fmt.Sprintf("%d/%s/%s", p.Col, p.Code, p.Message)
		if byKey[k] == nil {
			byKey[k] = &shared{p: p}
			unitProblems = append(unitProblems, byKey[k])
		}
		byKey[k].who = append(byKey[k].who, cs)
	}
	unitFlyers := 0
	for _, a := range flying {
		if o.For(a.Callsign).Callsign == "" {
			unitFlyers++
		}
	}
	for _, a := range flying {
		sh, ok := d.Sheet(a.Type)
		if !ok {
			c.Errors = append(c.Errors, Problem{Code: "type", Message: "no type " + a.Type})
			continue
		}
		seg := o.For(a.Callsign)
		pc := CheckPlot(sh, a, seg, st.LoadedModifiers)
		c.Plots[a.Callsign] = pc
		for _, p := range append(append([]Problem(nil), pc.Errors...), attackProblems(st, a, seg, pc.Level)...) {
			if seg.Callsign == "" {
				addUnit(a.Callsign, p)
			} else {
				c.Errors = append(c.Errors, p)
			}
		}
		if f := seg.Fire; f.Mode == notation.FireTarget {
			if t := st.UnitNamed(f.Target); t != nil && t.Side == a.Side {
				c.Warnings = append(c.Warnings, Problem{Code: "fire-own", Col: f.Col, Message: fmt.Sprintf("%s is on your side: this fire order will never fire", f.Target)})
			} else if p := st.Plane(f.Target); p != nil && p.Side == a.Side {
				c.Warnings = append(c.Warnings, Problem{Code: "fire-own", Col: f.Col, Message: fmt.Sprintf("%s is on your side: this fire order will never fire", f.Target)})
			}
		}
	}
	for _, u := range unitProblems {
		p := u.p
		if len(flying) > 1 && len(u.who) < unitFlyers {
			p.Message = strings.Join(u.who, ", ") + ": " + p.Message
		}
		c.Errors = append(c.Errors, p)
	}
	c.Errors = dedupe(c.Errors)
	c.Warnings = dedupe(c.Warnings)
	sort.SliceStable(c.Errors, func(i, j int) bool { return c.Errors[i].Col < c.Errors[j].Col })
	return c
}

func dedupe(ps []Problem) []Problem {
	seen := map[string]bool{}
	out := []Problem{}
	for _, p := range ps {
		k := fmt.Sprintf("%d/%s/%s", p.Col, p.Code, p.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// attackProblems checks an attack on a ship: the ship named (targetProblems), then the aircraft's load
// and height (LoadProblems).
func attackProblems(st *State, a *Aircraft, seg notation.Segment, after Level) []Problem {
	return append(targetProblems(st, a, seg), LoadProblems(a, seg, after)...)
}

// targetProblems checks the ship an attack names: an enemy ship of the game, afloat (seed 003,
// "Attacking Ships").
func targetProblems(st *State, a *Aircraft, seg notation.Segment) []Problem {
	at := seg.Attack
	if at.Kind == "" {
		return nil
	}
	bad := func(format string, args ...any) []Problem {
		return []Problem{{Code: "attack-target", Col: at.Col, Message: fmt.Sprintf(format, args...)}}
	}
	g := st.GroundNamed(at.Target)
	switch {
	case g == nil || g.Kind != "ship":
		return bad("%s is not a ship of the game", at.Target)
	case g.Side == a.Side:
		return bad("%s is on your side", at.Target)
	case g.Sunk():
		return bad("%s has sunk", at.Target)
	}
	return nil
}

// LoadProblems checks an attack on a ship against the aircraft, whatever the ship: a bomb for BOMB, a
// torpedo for TORPEDO, and the height: a dive bomber releases at Low or Very Low on a dive begun at
// Medium, a torpedo goes from Very Low (seed 003, "Attacking Ships"). after is the level the plot ends
// at. The receipt and the calculator both check an attack with it.
func LoadProblems(a *Aircraft, seg notation.Segment, after Level) []Problem {
	at := seg.Attack
	var out []Problem
	bad := func(code, format string, args ...any) {
		out = append(out, Problem{Code: code, Col: at.Col, Message: fmt.Sprintf(format, args...)})
	}
	switch at.Kind {
	case "BOMB":
		switch {
		case !a.Loaded || (a.Load != "1000lb" && a.Load != "500lb"):
			bad("no-bomb", "%s carries no bomb", a.Callsign)
		case seg.Alt != notation.Dive || !(a.Level == Medium || a.DiveRun && a.Level < Medium):
			bad("dive-run", "%s dive-bombs on a dive begun at Medium: write DIVE, from Medium, or from Low when it dived from Medium last turn", a.Callsign)
		case after > Low:
			bad("dive-run", "%s releases its bomb at Low or Very Low", a.Callsign)
		}
	case "TORPEDO":
		switch {
		case !a.Loaded || a.Load != "torpedo":
			bad("no-torpedo", "%s carries no torpedo", a.Callsign)
		case after != VeryLow || seg.Alt == notation.Climb:
			bad("torpedo-height", "%s launches its torpedo from Very Low (it will be at %s)", a.Callsign, after)
		}
	}
	return out
}

func callsigns(as []*Aircraft) string {
	s := ""
	for i, a := range as {
		if i > 0 {
			s += ", "
		}
		s += a.Callsign
	}
	return s
}

// DefaultSegment is what an aircraft flies when no usable order came (docs/rulings.md: NMR): straight
// ahead, level, in each phase at the speed nearest its last that the rules allow, with fire as given.
func DefaultSegment(sh *Sheet, a *Aircraft, loadedMods bool, fire notation.Fire) notation.Segment {
	s := notation.Segment{Fire: fire}
	prev := a.Speed
	for ph := 0; ph < 2; ph++ {
		lo, hi := SpeedRange(sh, a, ph, prev, loadedMods)
		v := min(max(prev, lo), hi)
		s.Phases[ph] = []notation.Step{{Kind: notation.Straight, N: v}}
		prev = v
	}
	return s
}

// DefaultOrder is a unit's default order: each aircraft's default segment, written once for the unit
// when they agree and with each aircraft that differs after a semicolon.
func DefaultOrder(d *Data, st *State, u *Unit) notation.Order {
	return defaultOrder(d, st.LoadedModifiers, st.Flying(u), u.Fire)
}

func defaultOrder(d *Data, loadedMods bool, flying []*Aircraft, standing string) notation.Order {
	fire, ds := parseFire(standing)
	if parser.HasErrors(ds) {
		fire = notation.Fire{Mode: notation.FireAny}
	}
	var o notation.Order
	for _, a := range flying {
		sh, ok := d.Sheet(a.Type)
		if !ok {
			continue
		}
		s := DefaultSegment(sh, a, loadedMods, fire)
		if len(o.Segments) == 0 {
			o.Segments = append(o.Segments, s)
			continue
		}
		if s.String() != o.Segments[0].String() {
			s.Callsign = a.Callsign
			o.Segments = append(o.Segments, s)
		}
	}
	if len(o.Segments) == 0 {
		o.Segments = []notation.Segment{{Phases: [2][]notation.Step{{{N: 1}}, {{N: 1}}}, Fire: fire}}
	}
	return o
}

// parseFire reads a fire order alone (a unit's standing one).
func parseFire(text string) (notation.Fire, []parser.Diagnostic) {
	o, ds := notation.Parse("1 / 1 " + text)
	if parser.HasErrors(ds) || len(o.Segments) == 0 {
		return notation.Fire{Mode: notation.FireAny}, ds
	}
	return o.Segments[0].Fire, ds
}

type notationOrder = notation.Order

// parseOrder reads a unit's order (for tests and tools in this package).
func parseOrder(text string) (notation.Order, []parser.Diagnostic) { return notation.Parse(text) }
