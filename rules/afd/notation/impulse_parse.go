package notation

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sortie/parser"
)

// Diagnostic codes of impulse orders (docs/notation.md: impulse orders).
const (
	CodeImpulseEmpty     = "impulse-empty"      // an order, or a manoeuvre between semicolons, with no movement
	CodeImpulseRun       = "impulse-run"        // a straight run of 2 or more: each impulse is one box
	CodeImpulseForwards  = "impulse-forwards"   // 1 inside a longer manoeuvre
	CodeImpulseOpen      = "impulse-open"       // a manoeuvre of straight hexes only: it has no end
	CodeImpulseAfterEnd  = "impulse-after-end"  // boxes after the token that completes the manoeuvre
	CodeImpulseFlag      = "impulse-flag"       // STEEP, VERT or BOMB in an impulse order
	CodeImpulseTwoAlts   = "impulse-two-alts"   // two altitudes written for one impulse
	CodeImpulseAltitude  = "impulse-altitude"   // an absolute altitude that is no multiple of 100, or too high
	CodeImpulseTooMany   = "impulse-too-many"   // more manoeuvres queued than Sortie takes
	CodeImpulseQuoteMark = "impulse-quote-mark" // warning: ' or a typographic quote read as `
	CodeImpulseNoBox     = "impulse-no-box"     // an altitude or factor before any movement token
)

// MaxImpulseRunes is the longest impulse order Sortie reads; MaxQueued the most manoeuvres one order
// may queue.
const (
	MaxImpulseRunes = 600
	MaxQueued       = 12
)

// ParseImpulseOrder reads one aircraft's impulse order: one or more manoeuvres separated by `;`, then
// optionally a fire clause as in a plain order (without one it reads as FIRE ANY, Fire.Default set).
// A manoeuvre is written one box per impulse: "`" for a straight hex inside the manoeuvre, `1` for
// the forwards manoeuvre, or a manoeuvre token of the plain notation; after each, optionally an
// altitude (an absolute one in feet such as 12900, or a change such as -1 for -100 ft) and power or
// brake factors. Every problem is reported with its column.
func ParseImpulseOrder(text string) (ImpulseOrder, []parser.Diagnostic) {
	var o ImpulseOrder
	if n := utf8.RuneCountInString(strings.TrimSpace(text)); n > MaxImpulseRunes {
		return o, []parser.Diagnostic{{Code: parser.CodeTooLong, Severity: parser.SeverityError,
			Message: fmt.Sprintf("the order has %d characters; Sortie reads impulse orders of up to %d", n, MaxImpulseRunes)}}
	}
	cut, col := parser.FireStart(text)
	moveText, fireText := text, ""
	if cut >= 0 {
		moveText, fireText = text[:cut], text[cut:]
	}
	ip := &impulseParser{text: moveText}
	ip.run()
	o.Manoeuvres = ip.order
	ds := ip.ds
	if cut < 0 {
		o.Fire = parser.Fire{Mode: parser.FireAny, Default: true}
	} else {
		f, fds := parser.ParseFire(fireText, col)
		o.Fire = f
		ds = append(ds, fds...)
	}
	return o, ds
}

// ParseImpulseOrderLine reads "<callsign>: <impulse order>", columns counted from the start of the
// line, as ParseOrderLine does for plain orders.
func ParseImpulseOrderLine(line string) (string, ImpulseOrder, []parser.Diagnostic) {
	return parseOrderLine(line, "its manoeuvres, e.g. RED1: ` ` TR FIRE ANY", ParseImpulseOrder, func(o *ImpulseOrder, offset int) *parser.Fire {
		for mi := range o.Manoeuvres {
			m := &o.Manoeuvres[mi]
			m.Col += offset
			for bi := range m.Boxes {
				b := &m.Boxes[bi]
				for _, c := range []*int{&b.Col, &b.AltCol, &b.PowerCol, &b.BrakeCol} {
					if *c > 0 {
						*c += offset
					}
				}
			}
		}
		return &o.Fire
	})
}

// impulseParser reads the manoeuvres of one impulse order.
type impulseParser struct {
	text  string
	toks  []parser.Token
	order []Manoeuvre
	ds    []parser.Diagnostic
}

func (p *impulseParser) errorf(col int, code, suggest, format string, args ...any) {
	p.ds = append(p.ds, parser.Errorf(col, code, suggest, format, args...))
}

func (p *impulseParser) warnf(col int, code, suggest, format string, args ...any) {
	p.ds = append(p.ds, parser.Warnf(col, code, suggest, format, args...))
}

// isBacktick says a quote token stands for the straight box "`".
func isBacktick(s string) bool { return s == "`" || s == "'" || s == "‘" || s == "’" }

// run splits the text into manoeuvres at semicolons and reads each.
func (p *impulseParser) run() {
	p.toks = parser.Lex(p.text, make([]parser.Token, 0, len(p.text)/2+2))
	start := 0
	semis, lastSemi := 0, 0
	for i := 0; i <= len(p.toks); i++ {
		end := i == len(p.toks)
		if !end && !(p.toks[i].Kind == parser.TokPunct && strings.Contains(p.toks[i].Text, ";")) {
			continue
		}
		if !end {
			semis++
			lastSemi = p.toks[i].Col
		}
		if i > start {
			p.manoeuvre(p.toks[start:i])
		} else if !end || semis > 0 {
			// Nothing before this semicolon, or after the last one: the fault is at that semicolon.
			col := lastSemi
			if !end {
				col = p.toks[i].Col
			}
			p.errorf(col, CodeImpulseEmpty, "", "an empty manoeuvre: write one between each pair of semicolons, or leave the extra ; out")
		}
		if !end {
			// Other punctuation glued to the semicolon, and a second semicolon, are faults of their own.
			if t := p.toks[i].Text; t != ";" {
				if strings.Count(t, ";") > 1 {
					p.errorf(p.toks[i].Col, CodeImpulseEmpty, ";", "%q: an empty manoeuvre between semicolons", t)
				} else {
					p.errorf(p.toks[i].Col, parser.CodePunctuation, ";", "%q: only ; goes between manoeuvres", t)
				}
			}
		}
		start = i + 1
	}
	if len(p.order) == 0 && !parser.HasErrors(p.ds) {
		p.errorf(0, CodeImpulseEmpty, "1", "an impulse order needs at least one manoeuvre, e.g. 1 (the forwards manoeuvre) or ` ` TR")
	}
	if len(p.order) > MaxQueued {
		p.errorf(p.order[MaxQueued].Col, CodeImpulseTooMany, "", "%d manoeuvres queued: Sortie takes at most %d in one order", len(p.order), MaxQueued)
		p.order = p.order[:MaxQueued]
	}
}

// manoeuvre reads the tokens of one manoeuvre into boxes.
func (p *impulseParser) manoeuvre(toks []parser.Token) {
	m := Manoeuvre{Col: toks[0].Col}
	// Split the tokens into boxes: a box starts at each movement token.
	type span struct{ from, to int }
	var spans []span
	for i, t := range toks {
		// A number glued to the token before it belongs to that token (a sign's figure, a factor's
		// count: -1, K3), never a box of its own.
		glued := i > 0 && t.Sep == "" && (toks[i-1].Kind == parser.TokSign || toks[i-1].Kind == parser.TokWord)
		if p.startsBox(t, glued) {
			if len(spans) > 0 {
				spans[len(spans)-1].to = i
			}
			spans = append(spans, span{from: i, to: len(toks)})
		} else if len(spans) == 0 {
			p.errorf(t.Col, CodeImpulseNoBox, "", "%q comes before any movement: each impulse starts with ` (a straight hex), 1 (forwards) or a manoeuvre token, and its altitude and factors follow it", t.Text)
			return
		}
	}
	ok := true
	for _, s := range spans {
		b, good := p.box(toks[s.from:s.to])
		ok = ok && good
		m.Boxes = append(m.Boxes, b)
		if b.Move.Kind == HalfRoll {
			m.Boxes = append(m.Boxes, Box{Cont: true, Move: Element{Kind: Straight, N: 1}})
		}
	}
	if !ok || len(m.Boxes) == 0 {
		p.order = append(p.order, m)
		return
	}
	p.shape(m)
	p.order = append(p.order, m)
}

// startsBox says a token begins an impulse box.
func (p *impulseParser) startsBox(t parser.Token, signed bool) bool {
	switch t.Kind {
	case parser.TokQuote:
		return isBacktick(t.Text)
	case parser.TokNumber:
		return !signed && len(t.Text) < 3
	case parser.TokWord:
		if !parser.IsASCII(t.Text) {
			return false
		}
		kw, ok := lookup(t.Text)
		return ok && kw.kind == wordElement
	}
	return false
}

// box reads one impulse box: its movement token, then its altitude and factors, through the plain
// plot parser (the rest of the order blanked, so columns stay those of the order).
func (p *impulseParser) box(toks []parser.Token) (Box, bool) {
	first := toks[0]
	b := Box{Col: first.Col}
	// The text the plain parser reads: this box only, from its first token; a backtick becomes 1, and
	// an absolute altitude is taken out first. Its columns are shifted back to the order's.
	shift := first.Col - 1
	last := toks[len(toks)-1]
	src := p.text[first.Pos : last.Pos+len(last.Text)]
	// The box's runes, copied only when one must change: most boxes are read as written.
	var masked []rune
	runes := func() []rune {
		if masked == nil {
			masked = []rune(src)
		}
		return masked
	}
	if first.Kind == parser.TokQuote {
		runes()[0] = '1'
	}
	ok := true
	for i, t := range toks {
		if t.Kind != parser.TokNumber || len(t.Text) < 3 || (i > 0 && toks[i-1].Kind == parser.TokSign && t.Sep == "") {
			continue
		}
		n, err := strconv.Atoi(t.Text)
		switch {
		case err != nil || len(t.Text) > 5 || n > 60000:
			p.errorf(t.Col, CodeImpulseAltitude, "", "%s: an altitude is at most 60,000 ft", t.Text)
			ok = false
		case n < 100:
			p.errorf(t.Col, CodeImpulseAltitude, "", "%s: an altitude is written in feet, 100 or more (e.g. 12900); a change is written -1 or +2", t.Text)
			ok = false
		case n%100 != 0:
			p.errorf(t.Col, CodeImpulseAltitude, strconv.Itoa(n/100*100), "%s: altitudes are written in steps of 100 ft", t.Text)
			ok = false
		case b.AltSet:
			p.errorf(t.Col, CodeImpulseTwoAlts, "", "a second altitude for one impulse: write one per impulse")
			ok = false
		default:
			b.Alt, b.AltAbs, b.AltSet, b.AltCol = n, true, true, t.Col
		}
		for k := 0; k < utf8.RuneCountInString(t.Text); k++ {
			runes()[t.Col-1-shift+k] = ' '
		}
	}
	text := src
	if masked != nil || !utf8.ValidString(src) { // a copy of broken UTF-8 reads it as U+FFFD, as before
		text = string(runes())
	}
	plot, ds := ParsePlot(text)
	for i := range plot.Elements {
		plot.Elements[i].Col += shift
	}
	for k, v := range plot.FlagCols {
		plot.FlagCols[k] = v + shift
	}
	for _, d := range ds {
		switch d.Code {
		case parser.CodeEmpty:
			continue
		}
		if d.Col > 0 {
			d.Col += shift
		}
		p.ds = append(p.ds, d)
		if d.Severity == parser.SeverityError {
			ok = false
		}
	}
	if first.Kind == parser.TokQuote && first.Text != "`" {
		p.warnf(first.Col, CodeImpulseQuoteMark, "`", "%q was read as ` (a straight hex inside the manoeuvre)", first.Text)
	}
	if plot.Steep || plot.Vert {
		col := plot.Col("STEEP")
		if plot.Vert {
			col = plot.Col("VERT")
		}
		p.errorf(col, CodeImpulseFlag, "", "STEEP and VERT are not used in impulse orders: climbs and dives are written impulse by impulse")
		ok = false
	}
	b.Bomb, b.BombCol = plot.Bomb, plot.Col("BOMB")
	b.Rocket, b.Strafe = plot.Rocket, plot.Strafe
	if plot.Alt != 0 {
		if b.AltSet {
			p.errorf(plot.Col("ALT"), CodeImpulseTwoAlts, "", "a second altitude for one impulse: write one per impulse")
			ok = false
		} else {
			b.Alt, b.AltSet, b.AltCol = plot.Alt, true, plot.Col("ALT")
		}
	}
	b.Power, b.PowerCol = plot.Power, plot.Col("P")
	b.Brake, b.BrakeCol = plot.Brake, plot.Col("K")
	if len(plot.Elements) == 0 {
		return b, false
	}
	if len(plot.Elements) > 1 {
		p.errorf(plot.Elements[1].Col, CodeImpulseAfterEnd, "", "one movement token per impulse")
		return b, false
	}
	e := plot.Elements[0]
	b.Move = e
	if e.Kind == Straight {
		if e.N != 1 {
			p.errorf(e.Col, CodeImpulseRun, strings.TrimSpace(strings.Repeat("` ", e.N)),
				"in an impulse order each impulse is one box: write %s for %d straight hexes", strings.TrimSpace(strings.Repeat("` ", e.N)), e.N)
			return b, false
		}
		b.Forwards = first.Kind == parser.TokNumber
	}
	return b, ok
}

// shape checks that the boxes make one complete manoeuvre: a lone 1, or straight boxes then the
// manoeuvre token that completes it.
func (p *impulseParser) shape(m Manoeuvre) {
	boxes := m.Boxes
	end := -1
	for i, b := range boxes {
		if b.Cont {
			continue
		}
		if end >= 0 {
			what := boxes[end].Move.Token()
			if boxes[end].Forwards {
				what = "1"
			}
			p.errorf(b.Col, CodeImpulseAfterEnd, ";", "the manoeuvre was complete with %s: put ; before this box to queue another manoeuvre", what)
			return
		}
		switch {
		case b.Forwards && i == 0:
			end = i
		case b.Forwards:
			p.errorf(b.Col, CodeImpulseForwards, "`", "1 is the forwards manoeuvre, complete in itself: a straight hex inside a longer manoeuvre is `")
			return
		case b.Move.Kind != Straight:
			end = i
		}
	}
	if end < 0 {
		p.errorf(m.Col, CodeImpulseOpen, "", "a manoeuvre ends with its turn, slip, roll, loop or bank; straight flight is the forwards manoeuvre 1, one per hex")
	}
}

// Equal compares two impulse orders, ignoring columns.
func (o ImpulseOrder) Equal(x ImpulseOrder) bool {
	if !o.Fire.Equal(x.Fire) || len(o.Manoeuvres) != len(x.Manoeuvres) {
		return false
	}
	for i, m := range o.Manoeuvres {
		n := x.Manoeuvres[i]
		if len(m.Boxes) != len(n.Boxes) {
			return false
		}
		for j, a := range m.Boxes {
			b := n.Boxes[j]
			if a.Forwards != b.Forwards || a.Cont != b.Cont || a.Alt != b.Alt || a.AltAbs != b.AltAbs || a.AltSet != b.AltSet ||
				a.Power != b.Power || a.Brake != b.Brake || a.Bomb != b.Bomb || a.Rocket != b.Rocket || a.Strafe != b.Strafe || a.Move.Kind != b.Move.Kind || a.Move.N != b.Move.N ||
				a.Move.Side != b.Move.Side || a.Move.Bank != b.Move.Bank {
				return false
			}
		}
	}
	return true
}
