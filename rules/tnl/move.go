package tnl

import (
	"fmt"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/tnl/notation"
)

// Problem is one broken rule in an order, positioned in the order text.
type Problem = ruleset.Problem

// Pos is where an aircraft is and how it flies: hex, facing (a hexside), inverted or not.
type Pos struct {
	Hex      hexmap.Hex `json:"hex"`
	Facing   hexmap.Dir `json:"facing"`
	Inverted bool       `json:"inverted,omitempty"`
}

// StepResult is where a step left the aircraft.
type StepResult struct {
	Token string `json:"token"`
	Pos
}

// PhaseResult is one movement phase flown: each step, the end, the hexes of speed used, the straight
// hexes flown since the last manoeuvre (they carry into phase 2 of the same turn, never into the next
// turn: seed 003, "Movement"), and the rules broken.
type PhaseResult struct {
	Steps    []StepResult `json:"steps"`
	End      Pos          `json:"end"`
	Hexes    int          `json:"hexes"`
	Straight int          `json:"straight"`
	Track    []hexmap.Hex `json:"track"`
	Errors   []Problem    `json:"errors"`
}

// FlyPhase flies a phase's steps from start, with straight hexes already flown since the last manoeuvre
// and the aircraft's fly-straight rating fs (seed 003, "Movement"): each manoeuvre needs fs hexes straight
// before it, a half loop three times fs; turns and inverting cost no hex, a roll or a slip moves to the
// hex ahead on that side (a slip costing one hex more), and a roll or a half loop leaves the aircraft
// inverted.
func FlyPhase(start Pos, straight int, steps []notation.Step, fs int) PhaseResult {
	r := PhaseResult{End: start, Straight: straight, Errors: []Problem{}, Steps: make([]StepResult, 0, len(steps))}
	if n := notation.Hexes(steps); n > 0 { // the track's hexes, or more (a slip counts two): one allocation
		r.Track = make([]hexmap.Hex, 0, n)
	}
	p := start
	for _, s := range steps {
		if s.Manoeuvre() {
			need := fs
			what := "fly-straight rating"
			if s.Kind == notation.HalfLoop {
				need, what = 3*fs, "three times the fly-straight rating"
			}
			if r.Straight < need {
				r.Errors = append(r.Errors, Problem{Code: "fly-straight", Col: s.Col,
					Message: fmt.Sprintf("%s needs %d hexes straight ahead first (%s %d); only %d flown since the last manoeuvre", s.Token(), need, what, fs, r.Straight)})
			}
			r.Straight = 0
		}
		switch s.Kind {
		case notation.Straight:
			for i := 0; i < s.N; i++ {
				p.Hex = p.Hex.Neighbor(p.Facing)
				r.Track = append(r.Track, p.Hex)
			}
			r.Straight += s.N
			r.Hexes += s.N
		case notation.TurnL:
			p.Facing = p.Facing.Turn(-2)
		case notation.TurnR:
			p.Facing = p.Facing.Turn(2)
		case notation.RollL, notation.SlipL:
			p.Hex = p.Hex.Neighbor(p.Facing.Turn(-2))
			r.Track = append(r.Track, p.Hex)
		case notation.RollR, notation.SlipR:
			p.Hex = p.Hex.Neighbor(p.Facing.Turn(2))
			r.Track = append(r.Track, p.Hex)
		case notation.Invert:
			p.Inverted = !p.Inverted
		case notation.HalfLoop:
			p.Facing = p.Facing.Turn(6)
			p.Inverted = true
		}
		switch s.Kind {
		case notation.RollL, notation.RollR:
			p.Inverted = true
			r.Hexes++
		case notation.SlipL, notation.SlipR:
			r.Hexes += 2
		}
		r.Steps = append(r.Steps, StepResult{Token: s.Token(), Pos: p})
	}
	r.End = p
	return r
}

// FS is an aircraft's fly-straight rating now: the sheet's, +1 once its damage ladder says so, +1 for a
// very green pilot, +1 for a loaded fighter-bomber under the loaded modifiers, -1 for the agile skill,
// never below 1 (seed 003, "Effects of Hits", "Training & Skill", "Loaded Modifiers").
func FS(sh *Sheet, a *Aircraft, loadedMods bool) int {
	fs := sh.FS
	if e := Effects(sh.Hits, a.Hits); e.FS {
		fs++
	}
	if a.Training == "very-green" {
		fs++
	}
	if loadedMods && a.Loaded && !sh.Bomber() {
		fs++
	}
	if a.Has(SkillAgile) {
		fs--
	}
	return max(fs, 1)
}

// PhaseMax is the most hexes an aircraft may fly in a phase before its dive or climb rating: the sheet's,
// -2 once its damage ladder says so, -1 when loaded under the loaded modifiers; at least 1.
func PhaseMax(sh *Sheet, a *Aircraft, phase int, loadedMods bool) int {
	m := sh.SP[phase]
	if e := Effects(sh.Hits, a.Hits); e.SP {
		m -= 2
	}
	if loadedMods && a.Loaded {
		m--
	}
	return max(m, 1)
}

// SpeedRange is the speeds an aircraft may fly in a phase, before its dive or climb rating, having
// flown prev in the last: down by up to 3, up by up to 2 (German jets 1), never above the phase's
// maximum nor below a third of the sheet's speed for the phase (seed 003, "Changing Speed"). When the
// maximum has fallen more than 3 below prev (damage), the maximum is the only speed; when a third of
// the sheet's speed is more than 2 above prev, that third is.
func SpeedRange(sh *Sheet, a *Aircraft, phase, prev int, loadedMods bool) (lo, hi int) {
	top := PhaseMax(sh, a, phase, loadedMods)
	least := min((sh.SP[phase]+2)/3, top)
	inc := incOf(sh)
	lo, hi = max(least, prev-3), min(top, prev+inc)
	if lo > hi {
		if prev-3 > top {
			lo = hi
		} else {
			hi = lo
		}
	}
	return lo, hi
}

func isGerman(sh *Sheet) bool { return sh.Nation == "Germany" }

// AltMod is the change a dive or climb makes to the phase's speed: the dive rating or the climb rating
// for the phase (seed 003, "Altitude").
func AltMod(sh *Sheet, alt notation.Alt, phase int) int {
	switch alt {
	case notation.Dive:
		return sh.Dive[phase]
	case notation.Climb:
		return sh.Climb[phase]
	}
	return 0
}

// PlotCheck is one aircraft's plot checked against it: both phases flown, the speeds, and every rule
// broken.
type PlotCheck struct {
	Phases [2]PhaseResult `json:"phases"`
	Speeds [2]int         `json:"speeds"` // hexes flown in each phase
	Bases  [2]int         `json:"bases"`  // the same without the dive or climb rating
	Level  Level          `json:"level"`  // the level after the turn
	Errors []Problem      `json:"errors"`
}

// CheckPlot flies an aircraft's plot for a whole turn from where it is and checks every movement rule:
// the fly-straight rating before each manoeuvre, the speed of each phase against the last, the altitude
// change and its speed modifier (seed 003, "Movement", "Changing Speed", "Altitude").
func CheckPlot(sh *Sheet, a *Aircraft, seg notation.Segment, loadedMods bool) PlotCheck {
	c := PlotCheck{Errors: []Problem{}, Level: a.Level}
	fs := FS(sh, a, loadedMods)
	switch seg.Alt {
	case notation.Dive:
		if a.Level == VeryLow {
			c.Errors = append(c.Errors, Problem{Code: "dive-floor", Col: seg.AltCol, Message: fmt.Sprintf("%s is at Very Low: it cannot dive lower", a.Callsign)})
		} else {
			c.Level = a.Level - 1
		}
	case notation.Climb:
		if a.Level >= sh.MaxLevel {
			c.Errors = append(c.Errors, Problem{Code: "climb-ceiling", Col: seg.AltCol, Message: fmt.Sprintf("%s is at %s, as high as the %s goes", a.Callsign, a.Level, sh.Name)})
		} else {
			c.Level = a.Level + 1
		}
	}
	pos := Pos{Hex: a.Hex, Facing: a.Facing, Inverted: a.Inverted}
	straight, prev := 0, a.Speed
	for ph := 0; ph < 2; ph++ {
		r := FlyPhase(pos, straight, seg.Phases[ph], fs)
		c.Phases[ph] = r
		c.Errors = append(c.Errors, r.Errors...)
		mod := AltMod(sh, seg.Alt, ph)
		c.Speeds[ph] = r.Hexes
		base := r.Hexes - mod
		c.Bases[ph] = base
		lo, hi := SpeedRange(sh, a, ph, prev, loadedMods)
		if base < lo || base > hi {
			col := seg.PhaseCol[ph]
			modText := ""
			if mod != 0 {
				modText = fmt.Sprintf(" with its %+d for the %s", mod, map[notation.Alt]string{notation.Dive: "dive", notation.Climb: "climb"}[seg.Alt])
			}
			want := fmt.Sprintf("%d to %d hexes", lo+mod, hi+mod)
			if lo == hi {
				want = fmt.Sprintf("%d hexes", lo+mod)
			}
			c.Errors = append(c.Errors, Problem{Code: "speed", Col: col,
				Message: fmt.Sprintf("%s flies %d hexes in phase %d; having flown %d in the last phase it may fly %s%s (down 3 or up %d a phase, at most %d, at least a third of %d)",
					a.Callsign, r.Hexes, ph+1, prev, want, modText, incOf(sh), PhaseMax(sh, a, ph, loadedMods), sh.SP[ph])})
		}
		pos, straight, prev = r.End, r.Straight, max(base, 1)
	}
	return c
}

func incOf(sh *Sheet) int {
	if sh.Jet && isGerman(sh) {
		return 1
	}
	return 2
}
