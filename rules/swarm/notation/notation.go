package notation

// This file holds the Swarm order line (seed 004; docs/notation.md, "Swarm"): one squadron's plot for one
// or more turns. Each turn is the new position of the plotting-board tacks — speed 1-3, manoeuvre L/S/R,
// altitude band H/M/L — then the path flown: digit runs are straight segments, L and R one facing change
// each. Turns are separated by ';' (cloud cover: a squadron without sight of the enemy plots several turns
// at once). Each turn may carry BOMB and a fire order (FIRE ANY, FIRE <callsign>, HOLD).
//
// The parser knows the notation only. Whether the tack may move that far, whether the path flies exactly
// the speed and earns its facing changes, is for the rules (rules/swarm), which know the squadron.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sortie/parser"
	"sortie/rules/hex"
)

// Limits of a Swarm order line.
const (
	MaxSwarmRunes = 480 // characters in one squadron's order line (leading and trailing spaces not counted)
	MaxSwarmTurns = 6   // turns plotted at once (seed 004: "suggest 3 to 6 turns of plotting")
	MaxSwarmSpeed = 3   // the fast row of the plotting board
	MaxSwarmRun   = 3   // the longest straight run a turn can hold (speed 3)
)

// Diagnostic codes of the Swarm notation. The Air Force codes for characters, case, quotes and the fire
// clause (punctuation, bad-char, lowercase, quotes, trailing-dot, fire-target ...) mean the same here.
const (
	CodeTackSpeed     = "tack-speed"         // the turn does not start with a speed of 1, 2 or 3
	CodeTackManoeuvre = "tack-manoeuvre"     // the manoeuvre after the speed is missing or not L, S or R
	CodeTackBand      = "tack-band"          // the altitude band after the manoeuvre is missing or not H, M or L
	CodeTackOrder     = "tack-order"         // the tack's three parts written in another order (S 2 M)
	CodeRunRange      = "run-range"          // a straight run of 0, or runs adding up to more than 3
	CodePathToken     = "path-token"         // S, H or M in the path: the path is digits, L and R
	CodeAltFigure     = "alt-figure"         // +1 / -2: altitude is a band in the tack, not a figure
	CodeAirForceToken = "air-force-token"    // TR, TL, SR ...: Air Force notation in a Swarm plot
	CodeEmptyTurn     = "empty-turn"         // nothing between two semicolons
	CodeTooManyTurns  = "too-many-turns"     // more than MaxSwarmTurns turns
	CodeDefaultPath   = "default-path"       // warning: no path given, read as the default
	CodeTrailingSemi  = "trailing-semicolon" // warning: a ';' at the end, ignored
)

// SwarmManoeuvre is a column of the plotting board.
type SwarmManoeuvre byte

// The manoeuvres: Left, Straight, Right.
const (
	SwarmLeft     SwarmManoeuvre = 'L'
	SwarmStraight SwarmManoeuvre = 'S'
	SwarmRight    SwarmManoeuvre = 'R'
)

// SwarmBand is an altitude band.
type SwarmBand byte

// The altitude bands: High, Medium, Low.
const (
	SwarmHigh   SwarmBand = 'H'
	SwarmMedium SwarmBand = 'M'
	SwarmLow    SwarmBand = 'L'
)

// SwarmTack is where a squadron's two tacks stand on its plotting board: speed and manoeuvre on one,
// altitude band on the other.
type SwarmTack struct {
	Speed int // 1 slow, 2 cruising, 3 fast (150 mph a point)
	Man   SwarmManoeuvre
	Band  SwarmBand
}

// String prints the tack as the seed writes it, "2 S L".
func (t SwarmTack) String() string {
	var buf [16]byte
	return string(t.Append(buf[:0]))
}

// Append appends the tack as String prints it to b.
func (t SwarmTack) Append(b []byte) []byte {
	b = strconv.AppendInt(b, int64(t.Speed), 10)
	b = utf8.AppendRune(append(b, ' '), rune(t.Man))
	return utf8.AppendRune(append(b, ' '), rune(t.Band))
}

// SwarmStep is one token of a turn's path: a straight run of N segments, or (N == 0) one facing change
// of 60° to Turn.
type SwarmStep struct {
	N    int
	Turn Side
	Col  int // 1-based column of the token; not part of equality
}

// Token is the step's canonical text: "2", "L" or "R".
func (s SwarmStep) Token() string {
	if s.N > 0 {
		return strconv.Itoa(s.N)
	}
	return s.Turn.String()
}

// SwarmTurn is one turn of a squadron's order.
type SwarmTurn struct {
	Tack SwarmTack
	Path []SwarmStep
	Bomb bool
	Fire parser.Fire
	// DefaultPath says the player gave no path and the parser filled in the default one: all straight,
	// and for L or R one facing change after the last segment. Not part of equality.
	DefaultPath bool
	Col         int // column of the tack's first character; not part of equality
	BombCol     int // column of BOMB; not part of equality
}

// Segments is the number of straight segments the path flies.
func (t SwarmTurn) Segments() int {
	n := 0
	for _, s := range t.Path {
		n += s.N
	}
	return n
}

// Changes is the number of facing changes in the path.
func (t SwarmTurn) Changes() int {
	n := 0
	for _, s := range t.Path {
		if s.N == 0 {
			n++
		}
	}
	return n
}

// String prints the turn canonically: "3 R M 1 R 2 BOMB FIRE ANY".
func (t SwarmTurn) String() string {
	var buf [64]byte
	return string(t.Append(buf[:0]))
}

// Append appends the turn as String prints it to b.
func (t SwarmTurn) Append(b []byte) []byte {
	b = t.Tack.Append(b)
	for _, s := range t.Path {
		b = append(b, ' ')
		if s.N > 0 {
			b = strconv.AppendInt(b, int64(s.N), 10)
		} else {
			b = append(b, s.Turn.String()...)
		}
	}
	if t.Bomb {
		b = append(b, " BOMB"...)
	}
	return t.Fire.Append(append(b, ' '))
}

// Equal compares two turns, ignoring columns and how the path came about.
func (t SwarmTurn) Equal(o SwarmTurn) bool {
	if t.Tack != o.Tack || t.Bomb != o.Bomb || !t.Fire.Equal(o.Fire) || len(t.Path) != len(o.Path) {
		return false
	}
	for i, s := range t.Path {
		if s.N != o.Path[i].N || s.Turn != o.Path[i].Turn {
			return false
		}
	}
	return true
}

// SwarmOrder is one squadron's order: one turn, or (under cloud cover) several turns flown one after
// the other.
type SwarmOrder struct {
	Turns []SwarmTurn
}

// String prints the order canonically, turns separated by "; ". Parsing it gives an equal order.
func (o SwarmOrder) String() string {
	var buf [128]byte
	return string(o.Append(buf[:0]))
}

// Append appends the order as String prints it to b: its turns separated by "; ".
func (o SwarmOrder) Append(b []byte) []byte {
	for i, t := range o.Turns {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = t.Append(b)
	}
	return b
}

// Equal compares two orders, ignoring columns.
func (o SwarmOrder) Equal(x SwarmOrder) bool {
	return slices.EqualFunc(o.Turns, x.Turns, SwarmTurn.Equal)
}

// ParseSwarmTack reads a tack position alone, "2 S L" (spaces optional), as the calculator's --tack
// flag gives it.
func ParseSwarmTack(text string) (SwarmTack, []parser.Diagnostic) {
	o, ds := ParseSwarmOrder(text)
	if parser.HasErrors(ds) {
		return SwarmTack{}, ds
	}
	var out []parser.Diagnostic
	for _, d := range ds {
		if d.Code != CodeDefaultPath && d.Code != CodeFireDefault {
			out = append(out, d)
		}
	}
	t := o.Turns[0]
	switch {
	case len(o.Turns) > 1:
		out = append(out, parser.Diagnostic{Code: CodeTooManyTurns, Severity: parser.SeverityError, Message: "a tack position is one turn's: speed, manoeuvre and band, e.g. 2 S L"})
	case !t.DefaultPath:
		out = append(out, parser.Diagnostic{Code: CodePathToken, Col: t.Path[0].Col, Severity: parser.SeverityError, Message: "a tack position is speed, manoeuvre and band only, e.g. 2 S L: no path"})
	case t.Bomb || !t.Fire.Default:
		out = append(out, parser.Diagnostic{Code: parser.CodeFireSyntax, Col: max(t.BombCol, t.Fire.Col), Severity: parser.SeverityError, Message: "a tack position is speed, manoeuvre and band only, e.g. 2 S L: no BOMB or fire order"})
	}
	return t.Tack, out
}

// CodeFireDefault is the code of the remark that a turn without a fire order reads as FIRE ANY. The
// parser does not give it (it is no fault); rulesets use it in their order checks.
const CodeFireDefault = "fire-default"

// ParseSwarmOrder reads one squadron's Swarm order (docs/notation.md, "Swarm"). It reports every fault
// with its column in one pass and never panics; the order is meaningful only when no diagnostic is an
// error. Warnings say how an accepted order was read.
func ParseSwarmOrder(text string) (SwarmOrder, []parser.Diagnostic) {
	if n := utf8.RuneCountInString(strings.TrimSpace(text)); n > MaxSwarmRunes {
		return SwarmOrder{}, []parser.Diagnostic{{Code: parser.CodeTooLong, Severity: parser.SeverityError,
			Message: fmt.Sprintf("order too long: %d characters, and a Swarm order has at most %d", n, MaxSwarmRunes)}}
	}
	p := &swarmParser{}
	// One copy of the text, read by clean; the turns are pieces of it.
	cleaned := string(p.clean([]rune(text)))
	if strings.TrimSpace(cleaned) == "" {
		p.errorf(0, parser.CodeEmpty, "", "empty order: write the tack and the path, e.g. 2 S M 2, or 3 R M 1 R 2")
		return p.order, p.diags
	}
	// Split into turns at ';', counting runes for the columns.
	segs := make([]swarmSeg, 0, strings.Count(cleaned, ";")+1)
	start, startRune, n := 0, 0, 0
	for i, r := range cleaned {
		if r == ';' {
			segs = append(segs, swarmSeg{text: cleaned[start:i], col0: startRune, semi: n})
			start, startRune = i+1, n+1
		}
		n++
	}
	segs = append(segs, swarmSeg{text: cleaned[start:], col0: startRune, semi: n})
	turns := 0
	for i, s := range segs {
		if strings.TrimSpace(s.text) == "" {
			switch {
			case i == len(segs)-1 && i > 0:
				p.warnf(segs[i-1].semi+1, CodeTrailingSemi, "", "the ; at the end starts no further turn and was ignored")
			case i < len(segs)-1:
				p.errorf(s.semi+1, CodeEmptyTurn, "", "nothing before this ;: each turn is a tack and a path, e.g. 2 S M 2; 2 S M 2")
			}
			continue
		}
		turns++
		if turns == MaxSwarmTurns+1 {
			p.errorf(s.col0+1+leadingSpace(s.text), CodeTooManyTurns, "", "more than %d turns: plot at most %d turns at once", MaxSwarmTurns, MaxSwarmTurns)
		}
		if t, ok := p.turn(s.text, s.col0); ok {
			if p.order.Turns == nil {
				p.order.Turns = make([]SwarmTurn, 0, len(segs))
			}
			p.order.Turns = append(p.order.Turns, t)
		}
	}
	if p.lower.Col != 0 {
		p.warnf(p.lower.Col, parser.CodeLowercase, parser.UpperASCII(p.lower.Text), "lower-case letters were read as capitals (%q as %s)",
			p.lower.Text, parser.UpperASCII(p.lower.Text))
	}
	slices.SortStableFunc(p.diags, func(a, b parser.Diagnostic) int { return a.Col - b.Col })
	return p.order, p.diags
}

type swarmSeg struct {
	text string
	col0 int // runes before the segment: its columns are col0+1 ...
	semi int // index of the ';' that ends it (len of the line for the last)
}

func leadingSpace(s string) int {
	n := 0
	for _, r := range s {
		if !parser.IsSeparator(r) {
			break
		}
		n++
	}
	return n
}

type swarmParser struct {
	order SwarmOrder
	diags []parser.Diagnostic
	lower parser.Token // the first accepted word with lower-case letters
	// Buffers reused from turn to turn: the lexer's items and the symbols of the movement part.
	items []parser.Token
	syms  []swarmSym
}

func (p *swarmParser) errorf(col int, code, suggest, format string, args ...any) {
	p.diags = append(p.diags, parser.Errorf(col, code, suggest, format, args...))
}

func (p *swarmParser) warnf(col int, code, suggest, format string, args ...any) {
	p.diags = append(p.diags, parser.Warnf(col, code, suggest, format, args...))
}

// clean reads quotation marks as spaces and drops one full stop at the end, each with a warning, keeping
// every other rune in its column. It changes rs and returns it.
func (p *swarmParser) clean(rs []rune) []rune {
	quoted := false
	for i, r := range rs {
		if parser.IsQuote(r) {
			if !quoted {
				p.warnf(i+1, parser.CodeQuotes, "", "quotation marks ignored: %q and any others were read as spaces", string(r))
				quoted = true
			}
			rs[i] = ' '
		}
	}
	last := len(rs) - 1
	for last >= 0 && parser.IsSeparator(rs[last]) {
		last--
	}
	if last >= 0 && rs[last] == '.' && (last == 0 || rs[last-1] != '.') {
		p.warnf(last+1, parser.CodeTrailingDot, "", "the full stop at the end was ignored")
		rs[last] = ' '
	}
	return rs
}

// swarmSym is one symbol of a turn's movement part: a number, one letter, or BOMB.
type swarmSym struct {
	kind byte // 'n' number, 'a' letter, 'b' BOMB
	n    int
	c    byte
	col  int
	text string
}

// swarmWords are whole words that are not Swarm tokens but have a likely meaning.
var swarmWords = map[string]string{
	"TR": "R", "TL": "L", "SR": "R", "SL": "L", "LEFT": "L", "RIGHT": "R", "STRAIGHT": "S",
	"HIGH": "H", "MEDIUM": "M", "MED": "M", "LOW": "L", "FAST": "3", "CRUISE": "2", "CRUISING": "2", "SLOW": "1",
}

// turn reads one turn; col0 is the number of runes before it in the line.
func (p *swarmParser) turn(text string, col0 int) (SwarmTurn, bool) {
	t := SwarmTurn{Col: col0 + 1 + leadingSpace(text), Fire: parser.Fire{Mode: parser.FireAny, Default: true}}
	move, fire := text, ""
	fireCol := 0
	if cut, c := parser.FireStart(text); cut >= 0 {
		move, fire, fireCol = text[:cut], text[cut:], c+col0
	}
	bad := false
	syms := p.syms[:0]
	p.items = parser.Lex(move, p.items)
	items := p.items
	for k := 0; k < len(items); k++ {
		it := items[k]
		col := it.Col + col0
		switch it.Kind {
		case parser.TokNumber:
			syms = append(syms, swarmSym{kind: 'n', n: parser.DigitsValue(it.Text), col: col, text: it.Text})
		case parser.TokWord:
			var ok bool
			syms, ok = p.word(syms, it, col)
			bad = bad || !ok
		case parser.TokSign:
			bad = true
			p.errorf(col, CodeAltFigure, "", "altitude is a band in the tack (H, M or L), not a figure: "+
				"write e.g. 2 S H to climb a band")
			if k+1 < len(items) && items[k+1].Kind == parser.TokNumber && items[k+1].Sep == "" {
				k++
			}
		case parser.TokQuote:
		case parser.TokDot, parser.TokPunct:
			bad = true
			p.errorf(col, parser.CodePunctuation, "", "%s %q has no meaning in a Swarm order: separate tokens with spaces "+
				"and turns with ;", parser.PunctName(it.Text), it.Text)
		default:
			bad = true
			p.errorf(col, parser.CodeBadChar, "", "%s cannot appear in an order: use A to Z, digits, spaces and ;",
				parser.DescribeRunes(it.Text))
		}
	}
	p.syms = syms
	end := col0 + utf8.RuneCountInString(strings.TrimRight(move, " \t\u00a0")) + 1
	if !p.tackAndPath(&t, syms, end) {
		bad = true
	}
	if fire != "" && !p.fire(&t, fire, fireCol) {
		bad = true
	}
	return t, !bad
}

// word turns one word of the movement part into symbols, appended to syms: BOMB, or single letters of the
// tack and path.
func (p *swarmParser) word(syms []swarmSym, it parser.Token, col int) ([]swarmSym, bool) {
	if !parser.IsASCII(it.Text) {
		s := ""
		if a := parser.ASCIIApprox(it.Text); !strings.Contains(a, "?") {
			s = a
		}
		p.errorf(col, parser.CodeNonASCII, s, "%q has letters outside A to Z", it.Text)
		return syms, false
	}
	up := parser.UpperASCII(it.Text)
	letters, bomb := up, false
	if strings.HasSuffix(up, "BOMB") && strings.Trim(up[:len(up)-4], "LSRHM") == "" {
		letters, bomb = up[:len(up)-4], true
	}
	if strings.Trim(letters, "LSRHM") != "" {
		msg := "%q is not part of a Swarm order: a turn is the tack (speed 1-3, L/S/R, H/M/L), then the path " +
			"(digits and L/R), then BOMB and FIRE ANY, FIRE <callsign> or HOLD"
		code, s := parser.CodeUnknownToken, ""
		if w, ok := swarmWords[up]; ok {
			s = w
			if len(up) == 2 {
				code = CodeAirForceToken
				msg = "%q is Air Force notation: in Swarm a facing change is L or R"
			}
		} else if parser.EditDistance(up, "BOMB") == 1 {
			s = "BOMB"
		}
		p.errorf(col, code, s, msg, it.Text)
		return syms, false
	}
	if parser.HasLower(it.Text) && p.lower.Col == 0 {
		p.lower = it
		p.lower.Col = col
	}
	for i := 0; i < len(letters); i++ {
		syms = append(syms, swarmSym{kind: 'a', c: letters[i], col: col + i, text: letters[i : i+1]})
	}
	if bomb {
		syms = append(syms, swarmSym{kind: 'b', col: col + len(letters), text: up[len(letters):]})
	}
	return syms, true
}

// tackSuggestion rewrites the first three symbols as a tack in the right order, if they are a speed, a
// manoeuvre and a band in some other order.
func tackSuggestion(syms []swarmSym) string {
	if len(syms) < 3 {
		return ""
	}
	speed := -1
	var letters []byte
	for _, s := range syms[:3] {
		switch {
		case s.kind == 'n' && s.n >= 1 && s.n <= MaxSwarmSpeed && speed < 0:
			speed = s.n
		case s.kind == 'a':
			letters = append(letters, s.c)
		default:
			return ""
		}
	}
	if speed < 0 || len(letters) != 2 {
		return ""
	}
	isMan := func(c byte) bool { return c == 'L' || c == 'S' || c == 'R' }
	isBand := func(c byte) bool { return c == 'H' || c == 'M' || c == 'L' }
	a, b := letters[0], letters[1]
	switch {
	case isMan(a) && isBand(b):
	case isMan(b) && isBand(a):
		a, b = b, a
	default:
		return ""
	}
	return fmt.Sprintf("%d %c %c", speed, a, b)
}

// tackAndPath reads the symbols of the movement part: the tack, then the path and BOMB. end is the
// column just after the movement part, where something missing is reported.
func (p *swarmParser) tackAndPath(t *SwarmTurn, syms []swarmSym, end int) bool {
	at := func(i int) int {
		if i < len(syms) {
			return syms[i].col
		}
		return end
	}
	if len(syms) == 0 {
		p.errorf(end, CodeTackSpeed, "", "a turn starts with the tack: speed (1, 2 or 3), manoeuvre (L, S or R) "+
			"and altitude band (H, M or L), e.g. 2 S M")
		return false
	}
	// Speed.
	s := syms[0]
	if s.kind != 'n' {
		if sug := tackSuggestion(syms); sug != "" {
			p.errorf(s.col, CodeTackOrder, sug, "the tack is written speed first, then manoeuvre, then band")
		} else {
			p.errorf(s.col, CodeTackSpeed, "", "a turn starts with the speed, 1, 2 or 3, then the manoeuvre "+
				"(L, S or R) and the altitude band (H, M or L), e.g. 2 S M; got %q", s.text)
		}
		return false
	}
	if s.n < 1 || s.n > MaxSwarmSpeed {
		sug := "3"
		if s.n < 1 {
			sug = "1"
		}
		p.errorf(s.col, CodeTackSpeed, sug, "speed %s is off the plotting board: speeds are 1 (150 mph), 2 (300 mph) "+
			"and 3 (450 mph)", s.text)
		return false
	}
	t.Tack.Speed = s.n
	// Manoeuvre.
	if len(syms) < 2 || syms[1].kind != 'a' {
		p.errorf(at(1), CodeTackManoeuvre, "", "the manoeuvre is missing after speed %d: write L, S or R, e.g. %d S M",
			s.n, s.n)
		return false
	}
	switch m := syms[1].c; m {
	case 'L', 'S', 'R':
		t.Tack.Man = SwarmManoeuvre(m)
	default:
		sug := ""
		if len(syms) > 2 && syms[2].kind == 'a' && strings.IndexByte("LSR", syms[2].c) >= 0 {
			sug = fmt.Sprintf("%d %c %c", s.n, syms[2].c, m)
		}
		p.errorf(syms[1].col, CodeTackManoeuvre, sug, "%c is an altitude band; the manoeuvre comes first after the "+
			"speed: L, S or R", m)
		return false
	}
	// Band.
	if len(syms) < 3 || syms[2].kind != 'a' {
		p.errorf(at(2), CodeTackBand, "", "the altitude band is missing after %d %c: write H, M or L, e.g. %d %c M",
			s.n, t.Tack.Man, s.n, t.Tack.Man)
		return false
	}
	switch b := syms[2].c; b {
	case 'H', 'M', 'L':
		t.Tack.Band = SwarmBand(b)
	default:
		p.errorf(syms[2].col, CodeTackBand, "", "%c is not an altitude band: the band after the manoeuvre is H, M or L", b)
		return false
	}
	// Path and BOMB.
	ok := true
	runCol := 0
	for _, s := range syms[3:] {
		switch {
		case s.kind == 'b':
			if t.Bomb {
				p.errorf(s.col, parser.CodeDuplicate, "", "BOMB is given twice in one turn (first at column %d)", t.BombCol)
				ok = false
			}
			t.Bomb, t.BombCol = true, s.col
		case s.kind == 'n':
			if s.n == 0 {
				p.errorf(s.col, CodeRunRange, "", "a straight run of 0 segments: write 1, 2 or 3")
				ok = false
				continue
			}
			if k := len(t.Path); k > 0 && t.Path[k-1].N > 0 {
				t.Path[k-1].N = min(t.Path[k-1].N+s.n, 1000)
			} else {
				t.Path = append(t.Path, SwarmStep{N: min(s.n, 1000), Col: s.col})
				runCol = s.col
			}
			if n := t.Path[len(t.Path)-1].N; n > MaxSwarmRun {
				if runCol == s.col {
					p.errorf(s.col, CodeRunRange, "", "a straight run of %s segments: no turn flies more than %d",
						s.text, MaxSwarmRun)
				} else {
					p.errorf(s.col, CodeRunRange, "", "the straight runs from column %d add up to %d segments: no turn "+
						"flies more than %d", runCol, n, MaxSwarmRun)
				}
				ok = false
			}
		case s.c == 'L' || s.c == 'R':
			side := Right
			if s.c == 'L' {
				side = Left
			}
			t.Path = append(t.Path, SwarmStep{Turn: side, Col: s.col})
		case s.c == 'S':
			p.errorf(s.col, CodePathToken, "", "S in the path: the path is digits for straight segments and L or R for "+
				"facing changes (S belongs in the tack)")
			ok = false
		default:
			p.errorf(s.col, CodePathToken, "", "%c in the path: the altitude band is set once a turn, in the tack", s.c)
			ok = false
		}
	}
	if ok && len(t.Path) == 0 {
		t.DefaultPath = true
		t.Path = []SwarmStep{{N: t.Tack.Speed, Col: t.Col}}
		if t.Tack.Man != SwarmStraight {
			side := Right
			if t.Tack.Man == SwarmLeft {
				side = Left
			}
			t.Path = append(t.Path, SwarmStep{Turn: side, Col: t.Col})
			earlier := ""
			if t.Tack.Speed > 1 {
				earlier = fmt.Sprintf("; write the path to turn earlier, e.g. %s 1 %c %d", t.Tack, t.Tack.Man, t.Tack.Speed-1)
			}
			p.warnf(t.Col, CodeDefaultPath, fmt.Sprintf("%s %d %c", t.Tack, t.Tack.Speed, t.Tack.Man),
				"no path given: %s reads as %d straight, then one facing change %s at the end%s",
				t.Tack, t.Tack.Speed, sideWord(side), earlier)
		}
	}
	return ok
}

// Side is the side a tack step turns to, the map's own (its letter is its String).
type Side = hex.Side

// The sides a tack step turns to.
const (
	Right = hex.Right
	Left  = hex.Left
)

func sideWord(s Side) string {
	if s == Left {
		return "left"
	}
	return "right"
}

// fire reads a turn's fire clause, which starts with FIRE or HOLD at column col; BOMB may follow it.
func (p *swarmParser) fire(t *SwarmTurn, text string, col int) bool {
	type word struct {
		text string
		col  int
	}
	var buf [8]word // a fire clause has a few words: no allocation for them
	ws := buf[:0]
	ok := true
	c, start, startCol := col-1, -1, 0
	flush := func(end int) {
		if start >= 0 {
			ws = append(ws, word{text[start:end], startCol})
			start = -1
		}
	}
	for i, r := range text {
		c++
		switch {
		case parser.IsSeparator(r):
			flush(i)
		case parser.IsWordRune(r):
			if start < 0 {
				start, startCol = i, c
			}
		default:
			flush(i)
			p.errorf(c, parser.CodeFireSyntax, "", "%q in the fire order: write FIRE ANY, FIRE <callsign> or HOLD", r)
			ok = false
		}
	}
	flush(len(text))
	t.Fire = parser.Fire{Mode: parser.FireAny, Col: col}
	bomb := func(w word) {
		if t.Bomb {
			p.errorf(w.col, parser.CodeDuplicate, "", "BOMB is given twice in one turn (first at column %d)", t.BombCol)
			ok = false
		}
		t.Bomb, t.BombCol = true, w.col
	}
	head := strings.ToUpper(ws[0].text)
	rest := ws[1:]
	if head == "HOLD" {
		t.Fire.Mode = parser.FireHold
	} else {
		switch {
		case len(ws) < 2:
			p.errorf(ws[0].col, parser.CodeFireTarget, "FIRE ANY", "FIRE needs a target: FIRE ANY, or FIRE and an enemy squadron's callsign")
			return false
		case strings.EqualFold(ws[1].text, "ANY"):
		case strings.EqualFold(ws[1].text, "BOMB") || strings.EqualFold(ws[1].text, "GUNS") || strings.EqualFold(ws[1].text, "MAX"):
			p.errorf(ws[1].col, parser.CodeFireTarget, "FIRE ANY", "FIRE needs a target before %s: ANY or an enemy callsign", strings.ToUpper(ws[1].text))
			ok = false
		case strings.EqualFold(ws[1].text, "FIRE") || strings.EqualFold(ws[1].text, "HOLD"):
			p.errorf(ws[1].col, parser.CodeFireTwice, "", "%q: give one fire order a turn", ws[1].text)
			return false
		case utf8.RuneCountInString(ws[1].text) > parser.MaxCallsign:
			p.errorf(ws[1].col, parser.CodeFireTarget, "", "%q is too long for a callsign (at most %d characters)", ws[1].text, parser.MaxCallsign)
			ok = false
		default:
			t.Fire.Mode, t.Fire.Target = parser.FireTarget, strings.ToUpper(ws[1].text)
		}
		rest = ws[2:]
	}
	for k := 0; k < len(rest); k++ {
		w := rest[k]
		switch up := strings.ToUpper(w.text); up {
		case "BOMB":
			bomb(w)
		case "FIRE", "HOLD":
			p.errorf(w.col, parser.CodeFireTwice, "", "%q: give one fire order a turn (separate turns with ;)", w.text)
			return false
		case "GUNS", "MAX":
			p.errorf(w.col, parser.CodeFireSyntax, "", "a Swarm fire order has no %s: write FIRE ANY, FIRE <callsign> or HOLD", up)
			ok = false
			if k+1 < len(rest) && !strings.EqualFold(rest[k+1].text, "BOMB") {
				k++ // its argument
			}
		default:
			if head == "HOLD" {
				p.errorf(w.col, parser.CodeFireAfterEnd, "", "%q after HOLD: only BOMB may follow HOLD", w.text)
			} else {
				p.errorf(w.col, parser.CodeFireSyntax, "", "%q after the target: only BOMB may follow the fire order", w.text)
			}
			ok = false
		}
	}
	return ok
}
