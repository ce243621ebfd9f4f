// Package notation reads the Thunderbolt & Lightning order line (seed 003; docs/notation.md, "Thunderbolt
// & Lightning"): one unit's whole turn, both movement phases and the standing fire order, written at
// once. The unit's aircraft fly it in formation, each from its own hex; an aircraft may be given a plot of
// its own after a semicolon:
//
//	DIVE 2 TL 5 / 7 FIRE ANY; BLUE3 4 TL 1 / 5
//
// A phase is a list of steps: a number of hexes straight ahead, and the manoeuvres TL TR (turn one
// hexside), RL RR (roll: one hex forward to that side, then inverted), SL SR (slip: the same hex, one
// hex of speed more), INV (invert, or roll upright again) and HL (half loop: turn about, inverted). The
// parser knows the notation only; the rules (rules/tnl) check the plot against the aircraft.
package notation

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sortie/parser"
)

// Limits of an order line.
const (
	MaxRunes    = 600 // characters in one unit's order text
	MaxSegments = 12  // the unit's plot and an aircraft's own plots
	MaxRun      = 30  // the longest straight run written as one number
)

// Diagnostic codes.
const (
	CodeTooLong      = "too-long"        // more than MaxRunes characters
	CodeBadChar      = "bad-char"        // a character that is no part of the notation
	CodeUnknownWord  = "unknown-word"    // a word that is no step, altitude change, attack or fire order
	CodeRunRange     = "run-range"       // a straight run of 0 or more than MaxRun
	CodeNoSlash      = "no-slash"        // the two movement phases are not separated by /
	CodeSlashTwice   = "slash-twice"     // more than two phases
	CodeAltPlace     = "alt-place"       // DIVE or CLIMB elsewhere than before phase 1
	CodeAttackPlace  = "attack-place"    // BOMB or TORPEDO elsewhere than after phase 2
	CodeAttackTarget = "attack-target"   // BOMB or TORPEDO without a ship's callsign
	CodeFirePlace    = "fire-place"      // words after the fire order, or a step after it
	CodeFireTarget   = "fire-target"     // FIRE without ANY, 2 or a callsign
	CodeSegment      = "segment"         // a segment after ; that does not start with an aircraft's callsign
	CodeTooMany      = "too-many"        // more than MaxSegments segments
	CodeEmptySegment = "empty-segment"   // nothing between two semicolons
	CodeSameAircraft = "same-aircraft"   // one aircraft given two plots
	CodeFireDefault  = "fire-default"    // warning: no fire order given, read as FIRE ANY
	CodeAirForceWord = "air-force-token" // a word of the Air Force notation (SL/SR mean slips here, but VR, BR, ...)
)

// StepKind is a step of a phase.
type StepKind int

// The steps.
const (
	Straight StepKind = iota // N hexes ahead
	TurnL                    // TL: one hexside left
	TurnR                    // TR: one hexside right
	RollL                    // RL: forward-left hex, inverted
	RollR                    // RR: forward-right hex, inverted
	SlipL                    // SL: forward-left hex, one more hex of speed
	SlipR                    // SR
	Invert                   // INV
	HalfLoop                 // HL
)

var stepWords = map[string]StepKind{"TL": TurnL, "TR": TurnR, "RL": RollL, "RR": RollR, "SL": SlipL, "SR": SlipR, "INV": Invert, "HL": HalfLoop}

var stepNames = map[StepKind]string{TurnL: "TL", TurnR: "TR", RollL: "RL", RollR: "RR", SlipL: "SL", SlipR: "SR", Invert: "INV", HalfLoop: "HL"}

// Step is one step of a phase.
type Step struct {
	Kind StepKind
	N    int // hexes, for Straight
	Col  int
}

// Token is the step as written canonically.
func (s Step) Token() string {
	if s.Kind == Straight {
		return strconv.Itoa(s.N)
	}
	return stepNames[s.Kind]
}

// Manoeuvre reports whether the step is one of the seed's five manoeuvres (a fly-straight run must come
// before it).
func (s Step) Manoeuvre() bool { return s.Kind != Straight }

// Alt is an altitude change declared at the start of movement phase 1.
type Alt int

// The changes.
const (
	Level Alt = iota
	Dive
	Climb
)

// FireMode is the standing fire order.
type FireMode int

// The fire orders.
const (
	FireAny    FireMode = iota // fire at the first chance, phase 1 or 2
	FireLate                   // hold in combat phase 1, fire in phase 2
	FireTarget                 // fire at the named unit or aircraft only, at the first chance
	FireHold                   // do not fire
)

// Fire is a standing fire order.
type Fire struct {
	Mode    FireMode
	Target  string // FireTarget: a unit's name or an aircraft's callsign, upper case
	Late    bool   // FireTarget ... 2: in phase 2 only
	Default bool   // nothing was written: FIRE ANY
	Col     int
}

// String is the fire order's canonical text.
func (f Fire) String() string {
	switch f.Mode {
	case FireHold:
		return "HOLD"
	case FireLate:
		return "FIRE 2"
	case FireTarget:
		return string(f.Append(nil))
	}
	return "FIRE ANY"
}

// Append appends the fire order as String prints it to b.
func (f Fire) Append(b []byte) []byte {
	switch f.Mode {
	case FireHold:
		return append(b, "HOLD"...)
	case FireLate:
		return append(b, "FIRE 2"...)
	case FireTarget:
		b = append(append(b, "FIRE "...), f.Target...)
		if f.Late {
			b = append(b, " 2"...)
		}
		return b
	}
	return append(b, "FIRE ANY"...)
}

// Attack is a dive-bombing or torpedo attack on a ship (seed 003, "Attacking Ships"), made at the end of
// movement phase 2.
type Attack struct {
	Kind   string // BOMB or TORPEDO; "" for none
	Target string
	Col    int
}

// Segment is a plot: the unit's own (Callsign "") or one aircraft's.
type Segment struct {
	Callsign string
	Col      int
	Alt      Alt
	AltCol   int
	Phases   [2][]Step
	PhaseCol [2]int
	Attack   Attack
	Fire     Fire
}

// Hexes is the speed a phase uses: every hex flown, a slip counting one more (seed 003, "Slipping").
func Hexes(steps []Step) int {
	n := 0
	for _, s := range steps {
		switch s.Kind {
		case Straight:
			n += s.N
		case RollL, RollR:
			n++
		case SlipL, SlipR:
			n += 2
		}
	}
	return n
}

// String is the segment's canonical text, without its callsign.
func (s Segment) String() string {
	var buf [64]byte
	return string(s.Append(buf[:0]))
}

// Append appends the segment as String prints it to b: its words, each followed by a space, then the
// fire order.
func (s Segment) Append(b []byte) []byte {
	switch s.Alt {
	case Dive:
		b = append(b, "DIVE "...)
	case Climb:
		b = append(b, "CLIMB "...)
	}
	for i, ph := range s.Phases {
		if i == 1 {
			b = append(b, "/ "...)
		}
		for _, st := range ph {
			b = append(append(b, st.Token()...), ' ')
		}
	}
	if s.Attack.Kind != "" {
		b = append(append(append(append(b, s.Attack.Kind...), ' '), s.Attack.Target...), ' ')
	}
	return s.Fire.Append(b)
}

// Order is one unit's order: the unit's plot and the plots of aircraft that fly their own.
type Order struct {
	Segments []Segment
}

// Unit is the unit's own plot.
func (o Order) Unit() Segment { return o.Segments[0] }

// For returns the plot an aircraft flies: its own, or the unit's.
func (o Order) For(callsign string) Segment {
	for _, s := range o.Segments[1:] {
		if s.Callsign == callsign {
			return s
		}
	}
	return o.Segments[0]
}

// String is the order's canonical text.
func (o Order) String() string {
	var buf [128]byte
	return string(o.Append(buf[:0]))
}

// Append appends the order as String prints it to b: the unit's segment, then each aircraft's after
// its callsign, separated by "; ".
func (o Order) Append(b []byte) []byte {
	for i, s := range o.Segments {
		if i > 0 {
			b = append(append(append(b, "; "...), s.Callsign...), ' ')
		}
		b = s.Append(b)
	}
	return b
}

type word struct {
	text string // upper case
	raw  string
	col  int
}

// words splits the text into words, with '/' and ';' as words of their own; a character outside the
// notation is reported.
func words(text string) ([]word, []parser.Diagnostic) {
	var out []word
	var ds []parser.Diagnostic
	col, start, startCol := 0, -1, 0
	flush := func(end int) {
		if start >= 0 {
			raw := text[start:end]
			out = append(out, word{text: parser.UpperASCII(raw), raw: raw, col: startCol})
			start = -1
		}
	}
	for i, r := range text {
		col++
		switch {
		case r == ' ' || r == '\t' || r == ',':
			flush(i)
		case r == '/' || r == ';':
			flush(i)
			out = append(out, word{text: string(r), raw: string(r), col: col})
		case parser.IsWordRune(r):
			if start < 0 {
				start, startCol = i, col
			}
		default:
			flush(i)
			what := fmt.Sprintf("%q", string(r))
			if r == utf8.RuneError || r < ' ' || r > '~' {
				what = parser.DescribeRunes(string(r))
			}
			ds = append(ds, parser.Diagnostic{Code: CodeBadChar, Col: col, Severity: parser.SeverityError,
				Message: fmt.Sprintf("%s is no part of an order: write hexes, TL TR RL RR SL SR INV HL, / between the phases, then FIRE ANY, FIRE 2, FIRE <target> or HOLD", what)})
		}
	}
	flush(len(text))
	return out, ds
}

// Parse reads one unit's order text.
func Parse(text string) (Order, []parser.Diagnostic) {
	var o Order
	errorf := func(ds *[]parser.Diagnostic, col int, code, sugg, format string, args ...any) {
		*ds = append(*ds, parser.Diagnostic{Code: code, Col: col, Severity: parser.SeverityError, Message: fmt.Sprintf(format, args...), Suggestion: sugg})
	}
	var ds []parser.Diagnostic
	if n := utf8.RuneCountInString(strings.TrimSpace(text)); n > MaxRunes {
		errorf(&ds, 0, CodeTooLong, "", "a unit's order is at most %d characters (this one has %d)", MaxRunes, n)
		return o, ds
	}
	ws, bad := words(text)
	ds = append(ds, bad...)
	// Split at semicolons into segments.
	var segs [][]word
	var semiCols []int
	cur := []word{}
	for _, w := range ws {
		if w.text == ";" {
			segs = append(segs, cur)
			semiCols = append(semiCols, w.col)
			cur = []word{}
			continue
		}
		cur = append(cur, w)
	}
	segs = append(segs, cur)
	if len(segs) > MaxSegments {
		errorf(&ds, semiCols[MaxSegments-1], CodeTooMany, "", "at most %d plots in one unit's order (the unit's and %d aircraft's own)", MaxSegments, MaxSegments-1)
		return o, ds
	}
	seen := map[string]bool{}
	for i, seg := range segs {
		if len(seg) == 0 {
			col := 0
			if i > 0 {
				col = semiCols[i-1]
			}
			if i == len(segs)-1 && i > 0 {
				ds = append(ds, parser.Diagnostic{Code: CodeEmptySegment, Col: col, Severity: parser.SeverityWarning, Message: "a ; at the end with nothing after it: ignored"})
				continue
			}
			errorf(&ds, col, CodeEmptySegment, "", "nothing to read here: the unit's plot comes first, then ; and an aircraft's callsign with its own plot")
			continue
		}
		var cs string
		csCol := 0
		if i > 0 {
			first := seg[0]
			if _, isStep := stepWords[first.text]; isStep || isNumber(first.text) || first.text == "/" || first.text == "DIVE" || first.text == "CLIMB" || first.text == "FIRE" || first.text == "HOLD" {
				errorf(&ds, first.col, CodeSegment, "", "after ; comes the callsign of one of the unit's aircraft, then the plot it flies instead of the unit's (e.g. ; BLUE3 5 TL / 6)")
				continue
			}
			cs, csCol = first.text, first.col
			if seen[cs] {
				errorf(&ds, first.col, CodeSameAircraft, "", "%s is given its own plot twice", cs)
			}
			seen[cs] = true
			seg = seg[1:]
		}
		s, sds := parseSegment(seg, csCol)
		s.Callsign, s.Col = cs, csCol
		ds = append(ds, sds...)
		o.Segments = append(o.Segments, s)
	}
	if len(o.Segments) == 0 && !parser.HasErrors(ds) {
		errorf(&ds, 0, CodeNoSlash, "", "the order is empty: write both movement phases, e.g. 4 TL 3 / 7 FIRE ANY")
	}
	return o, ds
}

func isNumber(s string) bool {
	if s == "" || len(s) > 7 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseSegment reads one plot: [DIVE|CLIMB] phase / phase [BOMB|TORPEDO ship] [fire].
func parseSegment(ws []word, startCol int) (Segment, []parser.Diagnostic) {
	var s Segment
	var ds []parser.Diagnostic
	errorf := func(col int, code, sugg, format string, args ...any) {
		ds = append(ds, parser.Diagnostic{Code: code, Col: col, Severity: parser.SeverityError, Message: fmt.Sprintf(format, args...), Suggestion: sugg})
	}
	phase := 0
	slash := false
	fireSeen := false
	s.PhaseCol = [2]int{startCol, 0}
	if len(ws) > 0 {
		s.PhaseCol[0] = ws[0].col
	}
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if fireSeen {
			errorf(w.col, CodeFirePlace, "", "%q comes after the fire order, which ends the plot", w.raw)
			break
		}
		switch {
		case w.text == "/":
			if slash {
				errorf(w.col, CodeSlashTwice, "", "a turn has two movement phases: one / between them, no more")
				continue
			}
			if s.Attack.Kind != "" {
				errorf(s.Attack.Col, CodeAttackPlace, "", "%s goes after phase 2, at the end of the plot", s.Attack.Kind)
			}
			slash, phase = true, 1
			s.PhaseCol[1] = w.col + 1
		case w.text == "DIVE" || w.text == "CLIMB":
			if phase != 0 || len(s.Phases[0]) > 0 || s.Alt != Level {
				errorf(w.col, CodeAltPlace, "", "%s is declared at the start of movement phase 1: write it first", w.text)
				continue
			}
			s.Alt, s.AltCol = Dive, w.col
			if w.text == "CLIMB" {
				s.Alt = Climb
			}
			if i+1 < len(ws) {
				s.PhaseCol[0] = ws[i+1].col
			}
		case w.text == "BOMB" || w.text == "TORPEDO":
			if s.Attack.Kind != "" {
				errorf(w.col, CodeAttackPlace, "", "one attack on a ship a turn")
				continue
			}
			s.Attack = Attack{Kind: w.text, Col: w.col}
			if !slash {
				errorf(w.col, CodeAttackPlace, "", "%s is made at the end of movement phase 2: write it after the second phase", w.text)
			}
			if i+1 >= len(ws) || !parser.IsCallsign(ws[i+1].text) || ws[i+1].text == "FIRE" || ws[i+1].text == "HOLD" || ws[i+1].text == "/" {
				errorf(w.col, CodeAttackTarget, "", "%s needs the callsign of the ship it attacks, e.g. %s CV6", w.text, w.text)
				continue
			}
			i++
			s.Attack.Target = ws[i].text
		case w.text == "FIRE" || w.text == "HOLD":
			fireSeen = true
			s.Fire.Col = w.col
			if w.text == "HOLD" {
				s.Fire.Mode = FireHold
				continue
			}
			if i+1 >= len(ws) || ws[i+1].text == "/" {
				errorf(w.col, CodeFireTarget, "ANY", "FIRE needs ANY, 2 (phase 2 only) or the unit or aircraft to fire at")
				continue
			}
			i++
			switch t := ws[i].text; {
			case t == "ANY":
				s.Fire.Mode = FireAny
			case t == "2":
				s.Fire.Mode = FireLate
			case parser.IsCallsign(t) && !isNumber(t):
				s.Fire.Mode, s.Fire.Target = FireTarget, t
				if i+1 < len(ws) && ws[i+1].text == "2" {
					s.Fire.Late = true
					i++
				}
			default:
				errorf(ws[i].col, CodeFireTarget, "ANY", "FIRE %s: fire at ANY, in phase 2 only (2), or at a unit or aircraft by its callsign", ws[i].raw)
			}
			if i+1 < len(ws) && ws[i+1].text == "ANY" && s.Fire.Mode == FireLate {
				i++
			}
		case isNumber(w.text):
			n := parser.DigitsValue(w.text)
			if n < 1 || n > MaxRun {
				errorf(w.col, CodeRunRange, "", "a straight run is 1 to %d hexes, got %s", MaxRun, w.raw)
				continue
			}
			if s.Attack.Kind != "" {
				errorf(w.col, CodeAttackPlace, "", "%s ends the movement: write it after phase 2's last step", s.Attack.Kind)
			}
			s.Phases[phase] = append(s.Phases[phase], Step{Kind: Straight, N: n, Col: w.col})
		default:
			k, ok := stepWords[w.text]
			if !ok {
				code, msg, sugg := CodeUnknownWord, fmt.Sprintf("%q is not a step of the plot: hexes ahead (a number), TL TR (turn), RL RR (roll), SL SR (slip), INV (invert), HL (half loop)", w.raw), nearest(w.text)
				switch w.text {
				case "VR", "VL", "BR", "BL", "SS", "D", "C", "L", "R", "T":
					code = CodeAirForceWord
					msg = fmt.Sprintf("%q is not Thunderbolt & Lightning notation: turns are TL TR, rolls RL RR, slips SL SR, and altitude changes DIVE or CLIMB at the start", w.raw)
				}
				errorf(w.col, code, sugg, "%s", msg)
				continue
			}
			if s.Attack.Kind != "" {
				errorf(w.col, CodeAttackPlace, "", "%s ends the movement: write it after phase 2's last step", s.Attack.Kind)
			}
			s.Phases[phase] = append(s.Phases[phase], Step{Kind: k, Col: w.col})
		}
	}
	if !slash && !parser.HasErrors(ds) {
		col := startCol
		if len(ws) > 0 {
			col = ws[len(ws)-1].col
		}
		errorf(col, CodeNoSlash, "", "write both movement phases with / between them, e.g. 4 TL 3 / 7 (a turn has two)")
	}
	if !fireSeen {
		s.Fire = Fire{Mode: FireAny, Default: true}
		ds = append(ds, parser.Diagnostic{Code: CodeFireDefault, Severity: parser.SeverityWarning, Message: "no fire order given: read as FIRE ANY (write HOLD to hold fire)"})
	}
	return s, ds
}

// nearest suggests the step word closest to w, if one is close.
func nearest(w string) string {
	best, bestD := "", 2
	for k := range stepWords {
		if d := parser.EditDistance(w, k); d < bestD || d == bestD && best != "" && k < best {
			best, bestD = k, d
		}
	}
	for _, k := range []string{"DIVE", "CLIMB", "FIRE", "HOLD", "BOMB", "TORPEDO"} {
		if d := parser.EditDistance(w, k); d < bestD {
			best, bestD = k, d
		}
	}
	if bestD >= 2 {
		return ""
	}
	return best
}

// BlockHints is the notation's part in reading an order block (parser.Notation).
type BlockHints struct{}

var _ parser.Notation = BlockHints{}

// LooksLikeOrder reports whether text reads as an order without error.
func (BlockHints) LooksLikeOrder(text string) bool {
	if strings.TrimSpace(text) == "" {
		return false
	}
	_, ds := Parse(text)
	return !parser.HasErrors(ds)
}

// ExampleOrder is an order line.
func (BlockHints) ExampleOrder() string { return "SPITS: 2 TL 6 / 7 FIRE ANY" }
