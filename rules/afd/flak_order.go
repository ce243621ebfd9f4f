package afd

// Flak orders: the side that commands a flak unit (the scenario gives it to one of the side's players)
// may write a standing order for its guns, which holds until the player writes another:
//
//	FLAK1: HOLD                      the guns stay silent
//	FLAK1: FIRE ANY                  light guns pick the nearest plane, heavy guns lay on it (the default)
//	FLAK1: FIRE RED2                 light guns fire at RED2 first when it is in reach
//	HEAVY1: AIM 3,-4 9000            heavy guns fire at hex (3,-4), 9,000 ft, in every even impulse
//	SHIP1: AIM 3,-4 9000 AIM 4,-5 12000   one aim for each heavy attack the ship has
//
// FIRE and AIM may be written together; HOLD stands alone.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sortie/parser"
	"sortie/rules/afd/strike"
	hexmap "sortie/rules/hex"
)

// Codes of flak order mistakes.
const (
	CodeFlakWord   = "flak-word"   // a word that is not HOLD, FIRE or AIM
	CodeFlakTarget = "flak-target" // FIRE without a target, or a target that is too long
	CodeFlakAim    = "flak-aim"    // AIM without a hex and an altitude, or out of the guns' reach
	CodeFlakHold   = "flak-hold"   // HOLD with anything else
	CodeFlakGuns   = "flak-guns"   // an order the unit's guns cannot carry out
)

// MaxFlakOrder is the longest flak order read, in runes.
const MaxFlakOrder = 200

// ParseFlakOrder reads a flak order. Columns count runes from 1.
func ParseFlakOrder(text string) (FlakOrder, []parser.Diagnostic) {
	var o FlakOrder
	var ds []parser.Diagnostic
	errorf := func(col int, code, format string, args ...any) {
		ds = append(ds, parser.Diagnostic{Code: code, Col: col, Severity: parser.SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	if utf8.RuneCountInString(text) > MaxFlakOrder {
		errorf(0, parser.CodeTooLong, "a flak order is at most %d characters", MaxFlakOrder)
		return o, ds
	}
	type word struct {
		text string
		col  int
	}
	var ws []word
	start := -1
	runes := []rune(text)
	for i := 0; i <= len(runes); i++ {
		if i == len(runes) || runes[i] == ' ' || runes[i] == '\t' {
			if start >= 0 {
				ws = append(ws, word{string(runes[start:i]), start + 1})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if len(ws) == 0 {
		errorf(0, CodeFlakWord, "a flak order is HOLD, FIRE ANY, FIRE and a plane's callsign, or AIM, a hex and an altitude (AIM 3,-4 9000)")
		return o, ds
	}
	fired := false
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		switch strings.ToUpper(w.text) {
		case "HOLD":
			if len(ws) > 1 {
				errorf(w.col, CodeFlakHold, "HOLD stands alone: the guns hold fire, so there is nothing to aim")
				return o, ds
			}
			o.Hold = true
		case "FIRE":
			if fired {
				errorf(w.col, CodeFlakTarget, "FIRE is given twice")
			}
			fired = true
			if i+1 >= len(ws) || strings.EqualFold(ws[i+1].text, "AIM") {
				errorf(w.col, CodeFlakTarget, "FIRE needs a target: ANY, or the callsign of an enemy plane")
				continue
			}
			i++
			t := strings.ToUpper(ws[i].text)
			switch {
			case t == "ANY":
			case utf8.RuneCountInString(t) > parser.MaxCallsign:
				errorf(ws[i].col, CodeFlakTarget, "%q is too long for a callsign (at most %d characters)", ws[i].text, parser.MaxCallsign)
			default:
				o.Target, o.TargetCol = t, ws[i].col
			}
		case "AIM":
			if i+2 >= len(ws) {
				errorf(w.col, CodeFlakAim, "AIM needs a hex and an altitude in feet, e.g. AIM 3,-4 9000")
				return o, ds
			}
			h, ok := parseHexWord(ws[i+1].text)
			if !ok {
				errorf(ws[i+1].col, CodeFlakAim, "%q is not a hex: write its two numbers with a comma, e.g. 3,-4", ws[i+1].text)
			}
			alt, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSuffix(strings.ToUpper(ws[i+2].text), "FT"), "_", ""))
			if err != nil || alt < 0 || alt > 60000 {
				errorf(ws[i+2].col, CodeFlakAim, "%q is not an altitude: write it in feet, 0 to 60000, e.g. 9000", ws[i+2].text)
			}
			o.Aims = append(o.Aims, FlakAim{Hex: h, Alt: alt, Col: w.col})
			i += 2
		default:
			errorf(w.col, CodeFlakWord, "%q: a flak order is HOLD, FIRE and a target, or AIM, a hex and an altitude", w.text)
			return o, ds
		}
	}
	return o, ds
}

// parseHexWord reads "3,-4" (or "(3,-4)").
func parseHexWord(s string) (hexmap.Hex, bool) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return hexmap.Hex{}, false
	}
	q, err1 := strconv.Atoi(a)
	r, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || q < -9999 || q > 9999 || r < -9999 || r > 9999 {
		return hexmap.Hex{}, false
	}
	return hexmap.Hex{Q: q, R: r}, true
}

// String prints the order canonically; parsing it gives an equal order.
func (o FlakOrder) String() string {
	if o.Hold {
		return "HOLD"
	}
	var parts []string
	if o.Target != "" {
		parts = append(parts, "FIRE "+o.Target)
	} else if len(o.Aims) == 0 {
		parts = append(parts, "FIRE ANY")
	}
	for _, a := range o.Aims {
		parts = append(parts, fmt.Sprintf("AIM %d,%d %d", a.Hex.Q, a.Hex.R, a.Alt))
	}
	return strings.Join(parts, " ")
}

// checkFlakOrder checks an order against the unit's guns: aims within four hexes and between level 2 and
// the guns' ceiling, no more aims than heavy attacks, no target for guns without light flak.
func (u *GroundUnit) checkFlakOrder(o FlakOrder) []Problem {
	var out []Problem
	f := u.Flak
	if f == nil {
		return []Problem{{Code: CodeFlakGuns, Message: fmt.Sprintf("%s has no flak", u.Callsign)}}
	}
	if o.Target != "" && f.Light == 0 {
		out = append(out, Problem{Code: CodeFlakGuns, Col: o.TargetCol, Message: fmt.Sprintf("%s has no light flak to fire at %s: its heavy guns are aimed with AIM", u.Callsign, o.Target)})
	}
	if len(o.Aims) > 0 && f.HeavyAttacks == 0 {
		out = append(out, Problem{Code: CodeFlakGuns, Message: fmt.Sprintf("%s has no heavy flak to aim: its light guns fire at planes in reach (FIRE ANY or FIRE and a callsign)", u.Callsign)})
		return out
	}
	if n := len(o.Aims); n > f.HeavyAttacks {
		out = append(out, Problem{Code: CodeFlakGuns, Message: fmt.Sprintf("%s's heavy guns make %d attack%s at a time: give at most %d aim%s, not %d", u.Callsign, f.HeavyAttacks, plural(f.HeavyAttacks), f.HeavyAttacks, plural(f.HeavyAttacks), n)})
	}
	for _, a := range o.Aims {
		if d := hexmap.Distance(u.Hex, a.Hex); d > HeavyFlakRange {
			out = append(out, Problem{Code: CodeFlakAim, Col: a.Col, Message: fmt.Sprintf("hex (%d,%d) is %d hexes from %s: heavy flak reaches %d", a.Hex.Q, a.Hex.R, d, u.Callsign, HeavyFlakRange)})
		}
		if lv := strike.Level(a.Alt); lv < 2 || lv > f.HeavyCeiling {
			out = append(out, Problem{Code: CodeFlakAim, Col: a.Col, Message: fmt.Sprintf("%s ft is altitude level %d: %s's heavy guns fire at levels 2 to %d (3,000 ft and up%s)", feetText(a.Alt), lv, u.Callsign, f.HeavyCeiling, ceilingNote(f.HeavyCeiling))})
		}
	}
	return out
}

func ceilingNote(ceiling int) string {
	if ceiling == 5 {
		return ", under 25,000 ft"
	}
	return ""
}

// setFlakOrder reads and checks an order and makes it the unit's standing order.
func (st *State) setFlakOrder(unit, text string) error {
	u := st.groundUnit(unit)
	if u == nil {
		return fmt.Errorf("%s is not a ground unit", unit)
	}
	o, ds := ParseFlakOrder(text)
	if parser.HasErrors(ds) {
		return fmt.Errorf("%s: %s", unit, ds[0].Message)
	}
	if ps := u.checkFlakOrder(o); len(ps) > 0 {
		return fmt.Errorf("%s: %s", unit, ps[0].Message)
	}
	if !o.Hold && o.Target == "" && len(o.Aims) == 0 {
		u.Flak.Order = nil
		return nil
	}
	u.Flak.Order = &o
	return nil
}
