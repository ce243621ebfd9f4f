package parser

import (
	"unicode"
	"unicode/utf8"
)

// The order lexer follows the shape of text/template/parse's lex.go: a state is a function that reads
// the input with next/peek/backup and returns the next state. It never fails: text that has no place in
// an order becomes an item of its own (itemPunct, itemBad) so that the parser can report every fault with
// its column in one pass. It splits the line into runs only; which letters make which token is the
// parser's business, because gluing rules need both neighbours.

// TokenKind identifies the kind of lexical item.
type TokenKind int

const (
	TokWord   TokenKind = iota // a run of letters (ASCII or not) with any combining marks
	TokNumber                  // a run of ASCII digits
	TokSign                    // '+', '-', or a dash or minus sign that stands for '-'
	TokDot                     // a single '.'
	TokQuote                   // one quotation mark, ignored with a warning
	TokPunct                   // a run of other ASCII punctuation (or of several dots)
	TokBad                     // a run of characters that have no place in an order
)

// Token is one lexical Token with its position.
type Token struct {
	Kind TokenKind
	Text string // the text as written
	Col  int    // 1-based column in runes of the first rune
	Pos  int    // byte offset of the first rune in the input
	// Sep is the separator text between the previous item and this one; "" means the two are glued.
	Sep string
}

const eof = -1

// lexer holds the scanning state.
type lexer struct {
	input    string
	start    int // byte offset where the current item starts
	startCol int // column of start
	pos      int // byte offset of the next rune
	col      int // column of the next rune
	width    int // byte width of the last rune read, for backup
	sep      string
	items    []Token
}

// stateFn is one state of the lexer; it returns the next state, nil at the end of the input.
type stateFn func(*lexer) stateFn

// Lex splits input into items, appending them to items (which may be a reused buffer).
func Lex(input string, items []Token) []Token {
	l := &lexer{input: input, col: 1, startCol: 1, items: items[:0]}
	for state := stateFn(lexPlot); state != nil; {
		state = state(l)
	}
	return l.items
}

// next consumes and returns the next rune; broken UTF-8 comes back as utf8.RuneError, one byte (and one
// column) at a time, as []rune conversion counts it.
func (l *lexer) next() rune {
	if l.pos >= len(l.input) {
		l.width = 0
		return eof
	}
	r, w := rune(l.input[l.pos]), 1
	if r >= utf8.RuneSelf {
		r, w = utf8.DecodeRuneInString(l.input[l.pos:])
	}
	l.width = w
	l.pos += w
	l.col++
	return r
}

// backup steps back one rune. It may be called once per call of next.
func (l *lexer) backup() {
	if l.width > 0 {
		l.pos -= l.width
		l.col--
		l.width = 0
	}
}

// peek returns the next rune without consuming it.
func (l *lexer) peek() rune {
	r := l.next()
	l.backup()
	return r
}

// acceptRun consumes runes while ok holds.
func (l *lexer) acceptRun(ok func(rune) bool) {
	for {
		r := l.next()
		if r == eof {
			return
		}
		if !ok(r) {
			l.backup()
			return
		}
	}
}

// emit records the text from start to pos as an item of type t.
func (l *lexer) emit(t TokenKind) {
	l.items = append(l.items, Token{Kind: t, Text: l.input[l.start:l.pos], Col: l.startCol, Pos: l.start, Sep: l.sep})
	l.sep = ""
	l.ignore()
}

// ignore skips the text from start to pos.
func (l *lexer) ignore() {
	l.start = l.pos
	l.startCol = l.col
}

// lexPlot is the state between items: it looks at one rune and chooses the state for what starts there.
func lexPlot(l *lexer) stateFn {
	r := l.next()
	switch {
	case r == eof:
		return nil
	case IsSeparator(r):
		return lexSeparator
	case IsDigit(r):
		return lexNumber
	case IsLetter(r):
		return lexWord
	case r == '+' || r == '-' || IsDash(r):
		l.emit(TokSign)
		return lexPlot
	case IsQuote(r):
		l.emit(TokQuote)
		return lexPlot
	case r == '.':
		if isPunct(l.peek()) {
			return lexPunct
		}
		l.emit(TokDot)
		return lexPlot
	case isPunct(r):
		return lexPunct
	default:
		return lexBad
	}
}

// lexSeparator skips spaces, tabs and commas, remembering them so the next item knows it is not glued.
func lexSeparator(l *lexer) stateFn {
	l.acceptRun(IsSeparator)
	l.sep = l.input[l.start:l.pos]
	l.ignore()
	return lexPlot
}

// lexNumber scans a run of digits; the first is already read.
func lexNumber(l *lexer) stateFn {
	l.acceptRun(IsDigit)
	l.emit(TokNumber)
	return lexPlot
}

// lexWord scans a run of letters; the first is already read. Letters outside A-Z stay in the word so
// that "STÉEP" is one fault, not three.
func lexWord(l *lexer) stateFn {
	l.acceptRun(func(r rune) bool { return IsLetter(r) || unicode.Is(unicode.Mn, r) })
	l.emit(TokWord)
	return lexPlot
}

// lexPunct scans a run of ASCII punctuation; the first is already read.
func lexPunct(l *lexer) stateFn {
	l.acceptRun(isPunct)
	l.emit(TokPunct)
	return lexPlot
}

// lexBad scans a run of characters that cannot appear in an order; the first is already read.
func lexBad(l *lexer) stateFn {
	l.acceptRun(isBad)
	l.emit(TokBad)
	return lexPlot
}

func IsDigit(r rune) bool { return '0' <= r && r <= '9' }

func isASCIILetter(r rune) bool { return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' }

// IsLetter admits any letter; the parser reports the ones outside A-Z.
func IsLetter(r rune) bool {
	return isASCIILetter(r) || r >= utf8.RuneSelf && r != utf8.RuneError && unicode.IsLetter(r)
}

// IsSeparator: spaces (any Unicode space, so a no-break space pasted by a mail client is fine), tabs,
// line ends, commas, and the invisible zero-width space, word joiner and byte-order mark.
func IsSeparator(r rune) bool {
	switch r {
	case ' ', '\t', ',', '\n', '\r', '\u200b', '\u2060', '\ufeff':
		return true
	}
	return r >= utf8.RuneSelf && unicode.IsSpace(r)
}

// IsDash: the Unicode hyphens, dashes and minus signs that a word processor puts where '-' was typed.
func IsDash(r rune) bool {
	switch r {
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212', '\ufe63', '\uff0d':
		return true
	}
	return false
}

// IsQuote: straight, curly and angle quotation marks, and the prime marks used for feet.
func IsQuote(r rune) bool {
	switch r {
	case '"', '\'', '`', '\u2018', '\u2019', '\u201a', '\u201b', '\u201c', '\u201d', '\u201e', '\u201f',
		'\u00ab', '\u00bb', '\u2039', '\u203a', '\u2032', '\u2033':
		return true
	}
	return false
}

// isPunct: printable ASCII that is not a letter, digit, separator, sign or quote. '.' is included so
// that runs such as "..." or ".;" are one item.
func isPunct(r rune) bool {
	if r <= ' ' || r >= 0x7f || IsDigit(r) || isASCIILetter(r) {
		return false
	}
	switch r {
	case ',', '+', '-', '"', '\'', '`':
		return false
	}
	return true
}

// isBad: anything else — control characters, emoji and other symbols, digits outside 0-9, broken UTF-8.
func isBad(r rune) bool {
	return !IsSeparator(r) && !IsDigit(r) && !IsLetter(r) && r != '+' && r != '-' && !IsDash(r) &&
		!IsQuote(r) && !isPunct(r)
}
