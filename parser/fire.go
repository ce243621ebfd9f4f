package parser

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The standing fire order: written after a unit's movement in every game that has one, it says
// whether and at what the unit fires when the chance comes.

// FireMode is the standing fire order given with a plot (docs/rulings.md: fire is declared with the plot as a
// standing, conditional order, resolved after movement).
type FireMode int

const (
	FireAny    FireMode = iota // fire at any enemy the guns bear on
	FireTarget                 // fire only at the named aircraft
	FireHold                   // do not fire
)

// Fire is the fire part of an order.
type Fire struct {
	Mode     FireMode
	Target   string   // callsign, upper case, for FireTarget
	Guns     []string // gun positions allowed to fire (lower case ids); empty means all
	MaxRange int      // fire only at this range or closer; 0 means the guns' own limits
	// Default is set when the player wrote no fire clause: Sortie then reads FIRE ANY. Not part of
	// equality.
	Default bool
	Col     int // column of FIRE / HOLD; not part of equality
}

// String prints the fire order canonically: "FIRE ANY", "FIRE RED-2 GUNS nose,tail MAX 4", "HOLD".
func (f Fire) String() string {
	if f.Mode == FireHold {
		return "HOLD"
	}
	var buf [64]byte
	return string(f.Append(buf[:0]))
}

// Append appends the fire order as String prints it to b.
func (f Fire) Append(b []byte) []byte {
	if f.Mode == FireHold {
		return append(b, "HOLD"...)
	}
	b = append(b, "FIRE "...)
	if f.Mode == FireTarget {
		b = append(b, f.Target...)
	} else {
		b = append(b, "ANY"...)
	}
	for i, g := range f.Guns {
		if i == 0 {
			b = append(b, " GUNS "...)
		} else {
			b = append(b, ',')
		}
		b = append(b, g...)
	}
	if f.MaxRange > 0 {
		b = append(b, " MAX "...)
		b = strconv.AppendInt(b, int64(f.MaxRange), 10)
	}
	return b
}

// Equal compares two fire orders, ignoring Default and Col.
func (f Fire) Equal(o Fire) bool {
	if f.Mode != o.Mode || f.Target != o.Target || f.MaxRange != o.MaxRange || len(f.Guns) != len(o.Guns) {
		return false
	}
	for i := range f.Guns {
		if f.Guns[i] != o.Guns[i] {
			return false
		}
	}
	return true
}

// FireStart finds the first whole word FIRE or HOLD (any case): its byte offset and rune column, or -1.
func FireStart(text string) (int, int) {
	col, wordStart, wordCol := 0, -1, 0
	check := func(end int) (int, int, bool) {
		if wordStart >= 0 {
			// A word here is ASCII (IsWordRune), so folding its case is what upper-casing it did.
			if w := text[wordStart:end]; strings.EqualFold(w, "FIRE") || strings.EqualFold(w, "HOLD") {
				return wordStart, wordCol, true
			}
		}
		return 0, 0, false
	}
	for i, r := range text {
		col++
		if IsWordRune(r) {
			if wordStart < 0 {
				wordStart, wordCol = i, col
			}
			continue
		}
		if at, c, ok := check(i); ok {
			return at, c
		}
		wordStart = -1
	}
	if at, c, ok := check(len(text)); ok {
		return at, c
	}
	return -1, 0
}

type fireWord struct {
	text string
	col  int
}

// fireWords splits the fire clause at spaces and commas, keeping rune columns, appending the words to ws
// (a buffer of the caller's).
func fireWords(text string, col0 int, ws []fireWord) ([]fireWord, []Diagnostic) {
	var ds []Diagnostic
	col := col0 - 1
	start, startCol := -1, 0
	flush := func(end int) {
		if start >= 0 {
			ws = append(ws, fireWord{text[start:end], startCol})
			start = -1
		}
	}
	for i, r := range text {
		col++
		switch {
		case r == ' ' || r == '\t' || r == ',' || r == '\u00a0':
			flush(i)
		case IsWordRune(r):
			if start < 0 {
				start, startCol = i, col
			}
		default:
			flush(i)
			if r == '.' && strings.TrimSpace(text[i+1:]) == "" {
				continue
			}
			ds = append(ds, Diagnostic{Code: CodeFireSyntax, Col: col, Severity: SeverityError,
				Message: fmt.Sprintf("unexpected %q in the fire order: write FIRE ANY, FIRE <callsign>, optionally GUNS <positions> and MAX <range>, or HOLD", r)})
		}
	}
	flush(len(text))
	return ws, ds
}

// isFireKeyword says a word is one of the fire clause's own words that never follows FIRE AT.
func isFireKeyword(w string) bool {
	switch strings.ToUpper(w) {
	case "GUNS", "GUN", "MAX", "FIRE", "HOLD":
		return true
	}
	return false
}

// ParseFire reads a fire clause that starts at rune column col of its line.
func ParseFire(text string, col int) (Fire, []Diagnostic) {
	f := Fire{Mode: FireAny, Col: col}
	var buf [8]fireWord // a fire clause has a few words: no allocation for them
	ws, ds := fireWords(text, col, buf[:0])
	errorf := func(col int, code, suggest, format string, args ...any) {
		ds = append(ds, Diagnostic{Code: code, Col: col, Severity: SeverityError, Suggestion: suggest, Message: fmt.Sprintf(format, args...)})
	}
	if len(ws) == 0 {
		return f, ds
	}
	head := strings.ToUpper(ws[0].text)
	if head == "HOLD" {
		f.Mode = FireHold
		// Every word after HOLD is a fault; a second FIRE or HOLD starts another fire order, whose own
		// words are not blamed again.
		for _, w := range ws[1:] {
			up := strings.ToUpper(w.text)
			if up == "FIRE" || up == "HOLD" {
				errorf(w.col, CodeFireTwice, "", "%q: give one fire order, FIRE or HOLD, not both", w.text)
				break
			}
			errorf(w.col, CodeFireAfterEnd, "", "%q after HOLD: HOLD ends the order", w.text)
		}
		return f, ds
	}
	if len(ws) < 2 {
		errorf(ws[0].col, CodeFireTarget, "FIRE ANY", "FIRE needs a target: FIRE ANY, or FIRE and the callsign of the enemy aircraft")
		return f, ds
	}
	next := 1
	if strings.EqualFold(ws[1].text, "AT") && len(ws) > 2 && !isFireKeyword(ws[2].text) {
		// "FIRE AT KURT", as one says it: read as FIRE KURT, and said so.
		ds = append(ds, Diagnostic{Code: CodeFireSyntax, Col: ws[1].col, Severity: SeverityWarning,
			Message: fmt.Sprintf("FIRE AT %s was read as FIRE %s", strings.ToUpper(ws[2].text), strings.ToUpper(ws[2].text))})
		next = 2
	}
	tgt := ws[next]
	up := strings.ToUpper(tgt.text)
	switch {
	case up == "ANY":
		f.Mode = FireAny
	case up == "GUNS" || up == "MAX" || up == "FIRE" || up == "HOLD":
		errorf(tgt.col, CodeFireTarget, "FIRE ANY", "FIRE needs a target before %s: ANY or an enemy callsign", up)
		return f, ds
	case utf8.RuneCountInString(tgt.text) > MaxCallsign:
		errorf(tgt.col, CodeFireTarget, "", "%q is too long for a callsign (at most %d characters)", tgt.text, MaxCallsign)
	default:
		f.Mode, f.Target = FireTarget, up
	}
	i := next + 1
	seenGuns, seenMax := false, false
	for i < len(ws) {
		w := ws[i]
		switch strings.ToUpper(w.text) {
		case "GUNS", "GUN":
			if seenGuns {
				errorf(w.col, CodeFireSyntax, "", "GUNS is given twice in the fire order")
			}
			seenGuns = true
			i++
			n := 0
			for i < len(ws) {
				u := strings.ToUpper(ws[i].text)
				if u == "MAX" || u == "GUNS" || u == "FIRE" || u == "HOLD" {
					break
				}
				if utf8.RuneCountInString(ws[i].text) > MaxCallsign {
					errorf(ws[i].col, CodeFireSyntax, "", "%q is too long for a gun position", ws[i].text)
				} else {
					f.Guns = append(f.Guns, strings.ToLower(ws[i].text))
				}
				i++
				n++
			}
			if n == 0 {
				errorf(w.col, CodeFireSyntax, "", "GUNS needs the gun positions to fire, e.g. GUNS nose,tail")
			}
		case "MAX":
			if seenMax {
				errorf(w.col, CodeFireSyntax, "", "MAX is given twice in the fire order")
			}
			seenMax = true
			if i+1 >= len(ws) {
				errorf(w.col, CodeFireRange, "MAX 4", "MAX needs a range in hexes, 1 to 8, e.g. MAX 4")
				i++
				continue
			}
			n, err := strconv.Atoi(ws[i+1].text)
			if err != nil || n < 1 || n > 8 {
				errorf(ws[i+1].col, CodeFireRange, "", "%q: MAX takes a range in hexes, 1 to 8", ws[i+1].text)
			} else {
				f.MaxRange = n
			}
			i += 2
		case "FIRE", "HOLD":
			errorf(w.col, CodeFireTwice, "", "%q: give one fire order per aircraft", w.text)
			i = len(ws)
		default:
			errorf(w.col, CodeFireSyntax, "", "%q in the fire order: after the target come only GUNS <positions> and MAX <range>", w.text)
			i++
		}
	}
	return f, ds
}
