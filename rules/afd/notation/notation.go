package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sortie/parser"
)

// MaxPlotRunes is the longest plot Sortie reads, in runes (leading and trailing spaces not counted).
const MaxPlotRunes = 300

// ParsePlot reads one aircraft's movement line (docs/notation.md; docs/rulings.md: plot notation). It reports
// every fault in one pass, each with its column, and never panics. The Plot is meaningful only when no
// diagnostic is an error (see HasErrors); warnings say how an accepted plot was read.
//
// Sortie's reading: one token per movement point, left to right, separated by spaces, tabs or commas. A
// separator may be left out only between a digit run and letters (2R, TR2) or before a sign (TR+10); a
// run of letters must be exactly one token, so TRTR is an error, not two turns. Digits glued after P or
// K count power or brake factors (P2). Adjacent straight runs merge (1 1 is 2).
func ParsePlot(text string) (Plot, []parser.Diagnostic) {
	if n := utf8.RuneCountInString(strings.TrimSpace(text)); n > MaxPlotRunes {
		return Plot{}, []parser.Diagnostic{{
			Code:     parser.CodeTooLong,
			Severity: parser.SeverityError,
			Message: fmt.Sprintf("plot too long: %d characters, and a plot has at most %d; "+
				"write one aircraft's movement for one turn", n, MaxPlotRunes),
		}}
	}
	// The elements take one allocation: no more elements than items.
	p := plotParser{input: text, items: parser.Lex(text, nil)}
	p.plot.Elements = make([]Element, 0, len(p.items))
	for i := 0; i < len(p.items); {
		i = p.item(i)
	}
	p.finish()
	return p.plot, p.diags
}

// flag identifies a turn flag or adjustment, each of which may appear once in a plot.
type flag int

const (
	flagSteep flag = iota
	flagVert
	flagBomb
	flagRocket
	flagStrafe
	flagPower
	flagBrake
	flagAlt
	numFlags
)

// flagKeys are the Plot.FlagCols keys; flagNames name the flags in messages.
var (
	flagKeys  = [numFlags]string{"STEEP", "VERT", "BOMB", "ROCKET", "STRAFE", "P", "K", "ALT"}
	flagNames = [numFlags]string{"STEEP", "VERT", "BOMB", "ROCKET", "STRAFE", "power", "brake", "an altitude figure"}
)

// wordKind says what a known word does.
type wordKind int

const (
	wordElement wordKind = iota // a movement token
	wordFlag                    // STEEP, VERT, BOMB or one of their aliases
	wordFT                      // the FT suffix of an altitude figure
)

// keyword describes one word of the notation. Power and brake runs (P, PP, K3 ...) are read apart.
type keyword struct {
	kind  wordKind
	el    Element // wordElement: Kind, Side and Bank
	flag  flag    // wordFlag
	canon string  // for an alias, the canonical token; "" otherwise
	what  string  // for an alias, what it means in plain words
}

var keywords = map[string]keyword{
	"TR":   {el: Element{Kind: Turn, Side: Right}},
	"TL":   {el: Element{Kind: Turn, Side: Left}},
	"R":    {el: Element{Kind: Turn, Side: Right}, canon: "TR", what: "a turn right"},
	"L":    {el: Element{Kind: Turn, Side: Left}, canon: "TL", what: "a turn left"},
	"SR":   {el: Element{Kind: Slip, Side: Right}},
	"SL":   {el: Element{Kind: Slip, Side: Left}},
	"SRTL": {el: Element{Kind: SkidTurn, Side: Right}},
	"SLTR": {el: Element{Kind: SkidTurn, Side: Left}},
	"HR":   {el: Element{Kind: HalfRoll, Side: Right}},
	"HL":   {el: Element{Kind: HalfRoll, Side: Left}},
	"RR":   {el: Element{Kind: HalfRoll, Side: Right}, canon: "HR", what: "a half roll right"},
	"RL":   {el: Element{Kind: HalfRoll, Side: Left}, canon: "HL", what: "a half roll left"},
	"V":    {el: Element{Kind: HalfLoop}},
	"VRR":  {el: Element{Kind: Immelmann, Side: Right}},
	"VLL":  {el: Element{Kind: Immelmann, Side: Left}},
	"N":    {el: Element{Kind: BankTo, Bank: BankN}},
	"RB":   {el: Element{Kind: BankTo, Bank: BankRB}},
	"IR":   {el: Element{Kind: BankTo, Bank: BankIR}},
	"I":    {el: Element{Kind: BankTo, Bank: BankI}},
	"IL":   {el: Element{Kind: BankTo, Bank: BankIL}},
	"LB":   {el: Element{Kind: BankTo, Bank: BankLB}},
	"BR":   {el: Element{Kind: Roll, Side: Right}},
	"BL":   {el: Element{Kind: Roll, Side: Left}},
	// SC, SD and VD are the seed's own spellings (docs/rulings.md accepts them), so they get no warning.
	"STEEP": {kind: wordFlag, flag: flagSteep},
	"SC":    {kind: wordFlag, flag: flagSteep, canon: "STEEP"},
	"SD":    {kind: wordFlag, flag: flagSteep, canon: "STEEP"},
	"VERT":  {kind: wordFlag, flag: flagVert},
	"VD":    {kind: wordFlag, flag: flagVert, canon: "VERT"},
	"BOMB":  {kind: wordFlag, flag: flagBomb},
	// TORPEDO is a torpedo bomber's BOMB: it drops the torpedo (seed 002).
	"TORPEDO": {kind: wordFlag, flag: flagBomb, canon: "BOMB"},
	"TORP":    {kind: wordFlag, flag: flagBomb, canon: "BOMB"},
	// ROCKET fires the plane's rocket salvos and STRAFE its fixed guns at a ground target (seed 002).
	"ROCKET":  {kind: wordFlag, flag: flagRocket},
	"ROCKETS": {kind: wordFlag, flag: flagRocket, canon: "ROCKET"},
	"RP":      {kind: wordFlag, flag: flagRocket, canon: "ROCKET"},
	"STRAFE":  {kind: wordFlag, flag: flagStrafe},
	"FT":      {kind: wordFT},
}

// mark remembers where a flag was first written.
type mark struct {
	col  int // 0: not seen
	text string
}

// parser holds the state of one ParsePlot call.
type plotParser struct {
	input string
	items []parser.Token
	plot  Plot
	diags []parser.Diagnostic

	seen       [numFlags]mark
	altWritten bool         // a nonzero altitude figure was written, valid or not
	lower      parser.Token // the first accepted word written in lower case
	lowerL     bool         // some accepted word has a lower-case l
	quote      parser.Token // the first quotation mark
}

func (p *plotParser) errorf(col int, code, suggest, format string, args ...any) {
	p.diags = append(p.diags, parser.Errorf(col, code, suggest, format, args...))
}

func (p *plotParser) warnf(col int, code, suggest, format string, args ...any) {
	p.diags = append(p.diags, parser.Warnf(col, code, suggest, format, args...))
}

// text returns the input from the start of item i to the end of item j-1.
func (p *plotParser) text(i, j int) string {
	last := p.items[j-1]
	return p.input[p.items[i].Pos : last.Pos+len(last.Text)]
}

// glued reports whether item i exists and is written against the item before it.
func (p *plotParser) glued(i int) bool { return i < len(p.items) && p.items[i].Sep == "" }

// item reads the plot from item i and returns the index of the first item it did not consume.
func (p *plotParser) item(i int) int {
	it := p.items[i]
	switch it.Kind {
	case parser.TokNumber:
		return p.number(i)
	case parser.TokWord:
		return p.word(i)
	case parser.TokSign:
		return p.altitude(i)
	case parser.TokDot:
		if p.onlyQuotesFrom(i + 1) {
			p.warnf(it.Col, parser.CodeTrailingDot, "", "the full stop at the end of the plot was ignored")
		} else {
			p.errorf(it.Col, parser.CodePunctuation, "", "unexpected full stop %q: only one full stop at the very end "+
				"of a plot is allowed; separate tokens with spaces or commas", it.Text)
		}
	case parser.TokQuote:
		if p.quote.Col == 0 {
			p.quote = it
		}
	case parser.TokPunct:
		p.errorf(it.Col, parser.CodePunctuation, "", "unexpected %s %q: punctuation has no meaning in a plot; "+
			"separate tokens with spaces or commas", parser.PunctName(it.Text), it.Text)
	case parser.TokBad:
		p.errorf(it.Col, parser.CodeBadChar, "", "unexpected %s %q (%s): a plot uses only the letters A to Z, "+
			"digits, + and -, spaces and commas", plural(utf8.RuneCountInString(it.Text), "character"), it.Text,
			parser.DescribeRunes(it.Text))
	}
	return i + 1
}

// onlyQuotesFrom reports whether every item from i on is a quotation mark, so that a full stop before
// them ends the plot: "2 TR." in quotes.
func (p *plotParser) onlyQuotesFrom(i int) bool {
	for ; i < len(p.items); i++ {
		if p.items[i].Kind != parser.TokQuote {
			return false
		}
	}
	return true
}

// numberChain reads the glued run of digit runs and words of letter O that starts at item i, so that
// "1O" and "O2" are one fault. It returns the end of the run, its digits (O read as 0) and whether the
// run has a letter O and a digit run in it.
func (p *plotParser) numberChain(i int) (end int, digits string, hasO, hasNumber bool) {
	end = i
	for end < len(p.items) && (end == i || p.glued(end)) {
		it := p.items[end]
		if it.Kind == parser.TokNumber {
			hasNumber = true
		} else if !isLetterORun(it) {
			break
		} else {
			hasO = true
		}
		end++
	}
	digits = p.text(i, end)
	if hasO {
		digits = strings.Map(func(r rune) rune {
			if r == 'O' || r == 'o' {
				return '0'
			}
			return r
		}, digits)
	}
	return end, digits, hasO, hasNumber
}

// isLetterORun reports whether the item is a word made only of the letter O (either case).
func isLetterORun(it parser.Token) bool {
	if it.Kind != parser.TokWord {
		return false
	}
	for i := 0; i < len(it.Text); i++ {
		if it.Text[i] != 'O' && it.Text[i] != 'o' {
			return false
		}
	}
	return true
}

// number reads a straight run (a digit run) at item i.
func (p *plotParser) number(i int) int {
	it := p.items[i]
	end, digits, hasO, _ := p.numberChain(i)
	if hasO {
		p.letterO(i, end, "", digits, "")
		return end
	}
	if end < len(p.items) && isFT(p.items[end]) {
		p.errorf(it.Col, CodeMissingSign, "", "%q has no sign: an altitude figure starts with + to climb "+
			"or - to descend, e.g. +1000FT or -10", p.text(i, end+1))
		return end + 1
	}
	switch v := parser.DigitsValue(digits); {
	case v == 0:
		p.errorf(it.Col, CodeZeroHexes, "", "%q: a straight run is 1 to 99 hexes, and 0 hexes is no "+
			"movement; leave it out", it.Text)
	case v > 99:
		p.errorf(it.Col, CodeTooManyHexes, "", "%q: a straight run is 1 to 99 hexes; a plot records one "+
			"token per movement point of the plane's speed", it.Text)
	default:
		p.addStraight(it.Col, v)
	}
	return end
}

// letterO reports a letter O written among digits; prefix and suffix frame the suggested number.
func (p *plotParser) letterO(i, end int, prefix, digits, suffix string) {
	suggest := ""
	if v := parser.DigitsValue(digits); v > 0 {
		suggest = prefix + strconv.Itoa(v) + suffix
	}
	p.errorf(p.items[i].Col, CodeLetterO, suggest, "%q has the letter O where a digit belongs; "+
		"numbers are written with the digit 0", p.text(i, end))
}

// addStraight appends n straight hexes, merging with a straight run just before (1 1 is 2).
func (p *plotParser) addStraight(col, n int) {
	if k := len(p.plot.Elements) - 1; k >= 0 && p.plot.Elements[k].Kind == Straight {
		p.plot.Elements[k].N += n
		return
	}
	p.plot.Elements = append(p.plot.Elements, Element{Kind: Straight, N: n, Col: col})
}

// word reads a run of letters at item i.
func (p *plotParser) word(i int) int {
	it := p.items[i]
	if !parser.IsASCII(it.Text) {
		p.nonASCII(it)
		return i + 1
	}
	if isLetterORun(it) {
		if end, digits, _, hasNumber := p.numberChain(i); hasNumber {
			p.letterO(i, end, "", digits, "")
			return end
		}
	}
	// Fast path: look the word up without allocating its upper-case form.
	if kw, ok := lookup(it.Text); ok {
		p.noteCase(it)
		return p.keyword(i, it, kw)
	}
	up := parser.UpperASCII(it.Text)
	if up == "FIRE" || up == "HOLD" {
		p.errorf(it.Col, CodeFireOrder, "", "%q is a fire order, not a movement token: fire orders go after "+
			"the movement plot, so the rest of this line was not read as movement", it.Text)
		return len(p.items)
	}
	if isFactorRun(up) {
		return p.factor(i, up)
	}
	if end, ok := p.mistake(i, up); ok {
		return end
	}
	if seg := segment(up); seg != "" {
		p.errorf(it.Col, CodeGluedLetters, seg, "%q runs several tokens together: each movement point is "+
			"one token, and a token's letters may not touch the next token's letters", it.Text)
		return i + 1
	}
	p.unknown(it, up)
	return i + 1
}

// lookup finds a word in keywords whatever its case, without allocating.
func lookup(word string) (keyword, bool) {
	if len(word) > 8 {
		return keyword{}, false
	}
	var b [8]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		b[i] = c
	}
	kw, ok := keywords[string(b[:len(word)])] // the compiler does not allocate for this conversion
	return kw, ok
}

// keyword records the known word it at item i.
func (p *plotParser) keyword(i int, it parser.Token, kw keyword) int {
	switch kw.kind {
	case wordElement:
		el := kw.el
		el.Col = it.Col
		if kw.canon != "" {
			el.Alias = it.Text
			p.warnf(it.Col, CodeAlias, kw.canon, "%q was read as %s, %s", it.Text, kw.canon, kw.what)
		}
		p.plot.Elements = append(p.plot.Elements, el)
	case wordFlag:
		p.setFlag(kw.flag, it.Col, it.Text, 0)
	case wordFT:
		p.errorf(it.Col, CodeStrayFT, "", "%q has no altitude figure before it: FT goes right after a "+
			"figure such as +1000FT", it.Text)
	}
	return i + 1
}

// noteCase remembers an accepted word written in lower case, for one warning per plot.
func (p *plotParser) noteCase(it parser.Token) {
	if !parser.HasLower(it.Text) {
		return
	}
	if p.lower.Col == 0 {
		p.lower = it
	}
	if strings.IndexByte(it.Text, 'l') >= 0 {
		p.lowerL = true
	}
}

// mistake answers the slips players often make with a word, reporting true if it was one.
func (p *plotParser) mistake(i int, up string) (int, bool) {
	it := p.items[i]
	switch up {
	case "SRTR", "SLTL":
		fix := "SRTL"
		if up == "SLTL" {
			fix = "SLTR"
		}
		p.errorf(it.Col, CodeSkidDirection, fix, "%q: a skid turn turns away from the slip's side "+
			"(seed 000 rule (10)), so it is written SRTL or SLTR", it.Text)
	case "VR", "VL", "VRL", "VLR":
		fix := "V" + up[1:2] + up[1:2]
		p.errorf(it.Col, CodeImmelmannForm, fix, "%q: an Immelmann is written VRR or VLL (seed 000 rule (6)), "+
			"and V alone is a half loop", it.Text)
	case "B":
		p.errorf(it.Col, CodeBankWhichWay, "", "%q on its own does not say which way to roll: write BR or BL "+
			"to roll one point right or left, or name the bank to reach (RB, LB, N, I, IR, IL)", it.Text)
	case "S", "T", "H":
		if i+1 < len(p.items) && p.items[i+1].Kind == parser.TokWord {
			if side := parser.UpperASCII(p.items[i+1].Text); side == "R" || side == "L" {
				fix := up + side
				p.errorf(it.Col, CodeSplitToken, fix, "%q is one token written in two parts: a token's "+
					"letters are written together, with no space", p.text(i, i+2))
				return i + 2, true
			}
		}
		what := "TR or TL (turn)"
		switch up {
		case "S":
			what = "SR or SL (slip)"
		case "H":
			what = "HR or HL (half roll)"
		}
		p.errorf(it.Col, CodeIncompleteToken, "", "%q on its own is not a token: it needs a side, %s",
			it.Text, what)
	case "TRR", "TLL":
		fix := up[:2] + " " + up[2:]
		p.errorf(it.Col, CodeGluedLetters, fix, "%q runs tokens together: write %s for two turns, or V%s "+
			"for an Immelmann (seed 000 rule (6))", it.Text, fix, up[1:])
	default:
		return i, false
	}
	return i + 1, true
}

// unknown reports a word that is no token, suggesting the closest one when it is close.
func (p *plotParser) unknown(it parser.Token, up string) {
	const expected = "a plot is written with straight runs (1 to 99) and the tokens TR TL SR SL SRTL SLTR " +
		"HR HL V VRR VLL RB LB N I IR IL BR BL, plus STEEP, VERT, BOMB, ROCKET, STRAFE, power P, " +
		"brake K and an altitude figure +n or -n"
	best := closest(up)
	switch len(best) {
	case 1:
		p.errorf(it.Col, parser.CodeUnknownToken, best[0], "unknown token %q: %s", it.Text, expected)
	case 2:
		p.errorf(it.Col, parser.CodeUnknownToken, "", "unknown token %q (perhaps %s or %s?): %s", it.Text, best[0],
			best[1], expected)
	default:
		p.errorf(it.Col, parser.CodeUnknownToken, "", "unknown token %q: %s", it.Text, expected)
	}
}

// nonASCII reports a word with letters outside A-Z.
func (p *plotParser) nonASCII(it parser.Token) {
	bad := ""
	for _, r := range it.Text {
		if r >= utf8.RuneSelf {
			bad = string(r)
			break
		}
	}
	suggest := ""
	if best := closest(parser.ASCIIApprox(it.Text)); len(best) == 1 {
		suggest = best[0]
	}
	p.errorf(it.Col, parser.CodeNonASCII, suggest, "%q has the letter %q (%s), which is not one of A to Z: "+
		"tokens are written with plain letters", it.Text, bad, parser.DescribeRunes(bad))
}

// factor reads a power (P) or brake (K) run at item i: P PP PPP or P<n>.
func (p *plotParser) factor(i int, up string) int {
	it := p.items[i]
	f, code, name := flagPower, CodePowerRange, "power"
	if up[0] == 'K' {
		f, code, name = flagBrake, CodeBrakeRange, "brake"
	}
	n, end := len(up), i+1
	text := it.Text
	if p.glued(end) && (p.items[end].Kind == parser.TokNumber || isLetterORun(p.items[end])) {
		var digits string
		var hasO bool
		end, digits, hasO, _ = p.numberChain(end)
		text = p.text(i, end)
		if hasO {
			p.letterO(i, end, up, digits, "")
			return end
		}
		if n > 1 {
			fix := up + " " + digits
			p.errorf(it.Col, CodeFactorForm, fix, "%q: digits after %s count the %s factors and go after a "+
				"single letter, as %s%s; for %s then %s straight hexes write %s", text, up[:1], name, up[:1],
				digits, up, digits, fix)
			return end
		}
		n = parser.DigitsValue(digits)
	}
	if n < 1 || n > 9 {
		p.errorf(it.Col, code, "", "%q: %s is 1 to 9 factors, written %s, %s%s, %s%s%s or %s2 to %s9",
			text, name, up[:1], up[:1], up[:1], up[:1], up[:1], up[:1], up[:1], up[:1])
		return end
	}
	p.noteCase(it)
	if p.setFlag(f, it.Col, text, n) {
		if f == flagPower {
			p.plot.Power = n
		} else {
			p.plot.Brake = n
		}
	}
	return end
}

// altitude reads an altitude figure whose sign is item i: +n or -n, n < 100 in hundreds of feet and
// n >= 100 in feet, with an optional FT.
func (p *plotParser) altitude(i int) int {
	s := p.items[i]
	sign := "+"
	if s.Text != "+" {
		sign = "-"
	}
	j := i + 1
	if j >= len(p.items) || p.items[j].Kind != parser.TokNumber && !isLetterORun(p.items[j]) {
		p.errorf(s.Col, CodeLoneSign, "", "%q has no figure after it: an altitude change is written +n or "+
			"-n against its digits, e.g. +10 to climb 1,000 ft", s.Text)
		return j
	}
	spaced := !p.glued(j)
	end, digits, hasO, hasNumber := p.numberChain(j)
	if !hasNumber {
		p.errorf(s.Col, CodeLoneSign, "", "%q has no figure after it: an altitude change is written +n or "+
			"-n against its digits, e.g. +10 to climb 1,000 ft", s.Text)
		return j
	}
	// "+1,000": a thousands comma. The other readings (+100 then 000 straight) are faults, so this is
	// the only one that makes sense.
	if !hasO && !spaced && len(digits) <= 3 && end < len(p.items) && p.items[end].Kind == parser.TokNumber &&
		p.items[end].Sep == "," && len(p.items[end].Text) == 3 {
		digits += p.items[end].Text
		end++
	}
	// "+1.000": a decimal point used as a thousands mark; say so, with the figure it probably is.
	decimal := false
	if !hasO && end+1 < len(p.items) && p.items[end].Kind == parser.TokDot && p.glued(end) &&
		p.items[end+1].Kind == parser.TokNumber && p.glued(end+1) && len(p.items[end+1].Text) == 3 {
		digits += p.items[end+1].Text
		end += 2
		decimal = true
	}
	ft := ""
	if end < len(p.items) && isFT(p.items[end]) {
		ft = p.items[end].Text // "ft" is ordinary English, so it draws no lower-case warning
		end++
	}
	text := p.text(i, end)
	switch {
	case hasO:
		p.letterO(i, end, sign, digits, strings.ToUpper(ft))
		p.altWritten = true
		return end
	case spaced:
		fix := figure(sign, digits, ft)
		msg := "%q: the sign must touch its figure"
		if sign == "-" {
			msg += "; if the dash was meant to separate tokens, use a space or a comma instead"
		}
		p.errorf(s.Col, CodeSignSpace, fix, msg, text)
		p.altWritten = true
		return end
	case decimal:
		fix := figure(sign, digits, ft)
		p.errorf(s.Col, parser.CodePunctuation, fix, "%q: an altitude figure is a whole number with no point or "+
			"comma in it", text)
		p.altWritten = true
		return end
	}
	if sign == "-" && s.Text != "-" {
		p.warnf(s.Col, CodeDash, figure(sign, digits, ft), "%q was read as a minus sign in %q; "+
			"type a plain - to be sure", s.Text, text)
	}
	v := parser.DigitsValue(digits)
	feet := 0
	switch {
	case v == 0:
		p.warnf(s.Col, CodeAltZero, "", "%q is no altitude change, so no figure was recorded", text)
		return end
	case v > 99999:
		p.errorf(s.Col, CodeAltRange, "", "%q is too large: an altitude change is given in hundreds of "+
			"feet (+10 = 1,000 ft) or in feet (+1000), at most 99,900 ft", text)
	case ft != "" && v < 100:
		fix := sign + strconv.Itoa(v*100)
		p.errorf(s.Col, CodeAltMultiple, fix, "%q: a figure with FT is in feet, and altitude changes go in "+
			"steps of 100 ft; for %s%d00 ft write %s (or %s%d, in hundreds)", text, sign, v, fix, sign, v)
	case v < 100:
		feet = v * 100
	case v%100 != 0:
		lo := v / 100 * 100
		fix := sign + strconv.Itoa(lo) + " or " + sign + strconv.Itoa(lo+100)
		p.errorf(s.Col, CodeAltMultiple, fix, "%q: altitude changes go in steps of 100 ft, and %d ft is "+
			"not a multiple of 100", text, v)
	default:
		feet = v
	}
	p.altWritten = true
	if feet != 0 && p.setFlag(flagAlt, s.Col, text, 0) {
		if sign == "-" {
			feet = -feet
		}
		p.plot.Alt = feet
	}
	return end
}

// figure writes an altitude figure for a suggestion, or "" when it would be zero.
func figure(sign, digits, ft string) string {
	v := parser.DigitsValue(digits)
	if v == 0 {
		return ""
	}
	return sign + strconv.Itoa(v) + strings.ToUpper(ft)
}

// isFT reports whether the item is the word FT (either case).
func isFT(it parser.Token) bool {
	return it.Kind == parser.TokWord && len(it.Text) == 2 && (it.Text[0]|0x20) == 'f' && (it.Text[1]|0x20) == 't'
}

// setFlag records a flag or adjustment written at col as text (n: the power or brake factors). It
// reports false, with a diagnostic, when the flag was already given; a clash of STEEP and VERT is
// reported but recorded.
func (p *plotParser) setFlag(f flag, col int, text string, n int) bool {
	if prev := p.seen[f]; prev.col != 0 {
		suggest := ""
		if sum := p.plot.Power + n; f == flagPower && sum <= 9 {
			suggest = repeatFactor("P", sum)
		} else if sum := p.plot.Brake + n; f == flagBrake && sum <= 9 {
			suggest = repeatFactor("K", sum)
		}
		p.errorf(col, parser.CodeDuplicate, suggest, "%s is given twice, %q at column %d and %q at column %d; "+
			"give it once", flagNames[f], prev.text, prev.col, text, col)
		return false
	}
	p.seen[f] = mark{col: col, text: text}
	other := flagVert
	if f == flagVert {
		other = flagSteep
	}
	if (f == flagSteep || f == flagVert) && p.seen[other].col != 0 {
		prev := p.seen[other]
		p.errorf(col, CodeSteepAndVert, "", "STEEP and VERT cannot be in one plot (%q at column %d, %q at "+
			"column %d): a plane dives either steeply or vertically (seed 000 rules (19), (20))",
			prev.text, prev.col, text, col)
	}
	if f == flagBomb || f == flagRocket || f == flagStrafe {
		for _, o := range []flag{flagBomb, flagRocket, flagStrafe} {
			if o != f && p.seen[o].col != 0 {
				prev := p.seen[o]
				p.errorf(col, CodeTwoAttacks, "", "%s and %s cannot be in one plot (%q at column %d): a plane makes one "+
					"attack on the ground a turn", flagNames[o], flagNames[f], prev.text, prev.col)
			}
		}
	}
	if p.plot.FlagCols == nil {
		p.plot.FlagCols = make(map[string]int, 4)
	}
	p.plot.FlagCols[flagKeys[f]] = col
	switch f {
	case flagSteep:
		p.plot.Steep = true
	case flagVert:
		p.plot.Vert = true
	case flagBomb:
		p.plot.Bomb = true
	case flagRocket:
		p.plot.Rocket = true
	case flagStrafe:
		p.plot.Strafe = true
	}
	return true
}

// finish makes the checks that need the whole line, adds the once-per-plot warnings and sorts the
// diagnostics by column.
func (p *plotParser) finish() {
	for _, e := range p.plot.Elements {
		if e.Kind == Straight && e.N > 99 {
			p.errorf(e.Col, CodeTooManyHexes, "", "the straight runs from column %d add up to %d hexes, more "+
				"than 99", e.Col, e.N)
		}
	}
	if s := p.seen[flagSteep]; s.col != 0 {
		switch parser.UpperASCII(s.text) {
		case "SC":
			if !p.altWritten {
				p.errorf(s.col, CodeSCNeedsClimb, "", "%q is a steep climb and needs its climb written in "+
					"the same plot, e.g. SC +10 for 1,000 ft (seed 000 rule (18))", s.text)
			} else if p.plot.Alt < 0 {
				p.errorf(s.col, CodeSCNeedsClimb, "SD", "%q is a steep climb, but the figure %+d ft is a "+
					"descent; for a steep dive write SD or STEEP", s.text, p.plot.Alt)
			}
		case "SD":
			if p.plot.Alt > 0 {
				p.errorf(s.col, CodeSDClimb, "SC", "%q is a steep dive, but the figure %+d ft is a climb; "+
					"for a steep climb write SC or STEEP", s.text, p.plot.Alt)
			}
		}
	}
	if p.lower.Col != 0 {
		note := ""
		if p.lowerL {
			note = "; a lower-case l is always the letter L, never the digit 1"
		}
		up := parser.UpperASCII(p.lower.Text)
		p.warnf(p.lower.Col, parser.CodeLowercase, up, "lower-case letters were read as capitals (%q as %s)%s",
			p.lower.Text, up, note)
	}
	if p.quote.Col != 0 {
		p.warnf(p.quote.Col, parser.CodeQuotes, "", "quotation marks ignored: %q and any others were read as spaces",
			p.quote.Text)
	}
	pl := p.plot
	if !parser.HasErrors(p.diags) && len(pl.Elements) == 0 && !pl.Steep && !pl.Vert && !pl.Bomb && !pl.Rocket && !pl.Strafe && pl.Power == 0 &&
		pl.Brake == 0 && pl.Alt == 0 {
		p.errorf(0, parser.CodeEmpty, "", "empty plot: write the plane's movement, one token per movement point, "+
			"e.g. 2 TR 1 TR")
	}
	slices.SortStableFunc(p.diags, func(a, b parser.Diagnostic) int { return a.Col - b.Col })
}

// isFactorRun reports whether an upper-case word is all P or all K.
func isFactorRun(up string) bool {
	if up == "" || up[0] != 'P' && up[0] != 'K' {
		return false
	}
	for i := 1; i < len(up); i++ {
		if up[i] != up[0] {
			return false
		}
	}
	return true
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
