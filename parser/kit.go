package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The pieces every game's order notation shares: what a callsign is, and the nearest-word measure
// behind "did you mean" suggestions. Each ruleset's own notation (its words and their grammar) lives
// in that ruleset's folder and builds on these, on the lexer (Lex) and on the diagnostics.

// MaxCallsign is the longest callsign or gun position name Sortie reads.
const MaxCallsign = 24

// CodeOrderLine is the code of a line that is not "<callsign>: <order>".
const CodeOrderLine = "order-line"

// IsWordRune reports whether r may appear in a callsign: ASCII letters, digits, '-' and '_'.
func IsWordRune(r rune) bool {
	return r == '_' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

// IsCallsign reports whether cs (already in upper case) is a well-formed callsign.
func IsCallsign(cs string) bool {
	return cs != "" && utf8.RuneCountInString(cs) <= MaxCallsign && strings.IndexFunc(cs, func(r rune) bool { return !IsWordRune(r) }) < 0
}

// EditDistance is the optimal-string-alignment distance between two short ASCII strings.
func EditDistance(a, b string) int {
	if len(a) > 16 || len(b) > 16 {
		return 99
	}
	var d [17][17]int
	for i := 0; i <= len(a); i++ {
		d[i][0] = i
	}
	for j := 0; j <= len(b); j++ {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// ASCIIApprox turns a word with letters outside A-Z into an upper-case ASCII word for suggestions:
// full-width letters become their ASCII twins, combining accents are dropped, and any other letter
// becomes '?', which matches nothing.
func ASCIIApprox(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r >= '\uff21' && r <= '\uff3a':
			b.WriteRune(r - '\uff21' + 'A')
		case r >= '\uff41' && r <= '\uff5a':
			b.WriteRune(r - '\uff41' + 'A')
		case unicode.Is(unicode.Mn, r):
		default:
			b.WriteByte('?')
		}
		if b.Len() > 16 {
			break
		}
	}
	return b.String()
}

// DigitsValue reads a run of ASCII digits, saturating at 1,000,000 so that no input can overflow.
func DigitsValue(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*10 + int(s[i]-'0')
		if v >= 1_000_000 {
			return 1_000_000
		}
	}
	return v
}

// UpperASCII upper-cases ASCII letters, allocating only when there is a lower-case one.
func UpperASCII(s string) string {
	if !HasLower(s) {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// PunctName names a single punctuation character in plain words.
func PunctName(s string) string {
	if len(s) != 1 {
		return "punctuation"
	}
	switch s[0] {
	case ';':
		return "semicolon"
	case ':':
		return "colon"
	case '/':
		return "slash"
	case '\\':
		return "backslash"
	case '!':
		return "exclamation mark"
	case '?':
		return "question mark"
	case '(', ')', '[', ']', '{', '}', '<', '>':
		return "bracket"
	case '*':
		return "asterisk"
	case '&':
		return "ampersand"
	case '#':
		return "hash sign"
	case '=':
		return "equals sign"
	}
	return "character"
}

func HasLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			return true
		}
	}
	return false
}

// DescribeRunes lists the code points of s (at most four), for characters a player may not be able
// to see or name.
func DescribeRunes(s string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); n++ {
		if n == 4 {
			b.WriteString(" ...")
			break
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			fmt.Fprintf(&b, "invalid byte 0x%02X", s[i])
		} else {
			fmt.Fprintf(&b, "U+%04X", r)
		}
		i += w
	}
	return b.String()
}

func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
