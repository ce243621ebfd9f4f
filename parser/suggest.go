package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The helpers in this file guess what a player meant by a word that is not a token: several tokens run
// together (segment), or a near miss (closest).

// maxTokenLen is the longest word segment tries: STEEP, or a run of nine P.
const maxTokenLen = 9

// isVocab reports whether an upper-case word is a whole token on its own.
func isVocab(up string) bool {
	if _, ok := keywords[up]; ok {
		return true
	}
	return len(up) <= 9 && isFactorRun(up)
}

// segment splits an upper-case word into the fewest tokens that make it up exactly, returning them
// separated by spaces, or "" when the word is not two or more tokens run together. Among splits with as
// few tokens, the one whose first token is longest wins ("SRTLTR" is SRTL TR). The work is linear in
// the word's length.
func segment(up string) string {
	n := len(up)
	if n < 2 {
		return ""
	}
	count := make([]int, n+1) // count[i]: fewest tokens making up up[i:], -1 if none
	next := make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		count[i] = -1
		for l := min(maxTokenLen, n-i); l >= 1; l-- {
			if count[i+l] < 0 || !isVocab(up[i:i+l]) {
				continue
			}
			if c := count[i+l] + 1; count[i] < 0 || c < count[i] {
				count[i], next[i] = c, i+l
			}
		}
	}
	if count[0] < 2 {
		return ""
	}
	var b strings.Builder
	for i := 0; i < n; i = next[i] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(up[i:next[i]])
	}
	return b.String()
}

// suggestTokens are the canonical words closest may suggest, in order of preference.
var suggestTokens = []string{
	"TR", "TL", "SR", "SL", "SRTL", "SLTR", "HR", "HL", "V", "VRR", "VLL", "RB", "LB", "N", "I", "IR", "IL",
	"BR", "BL", "STEEP", "VERT", "BOMB", "P", "PP", "PPP", "K", "KK",
}

// closest returns the canonical tokens nearest to an upper-case word: those at the smallest edit
// distance (a transposition counts as one edit), when that is 1, or 2 for words of five letters or more.
// It returns nil for single letters, which are near too many tokens to guess, and when nothing is
// close. A word that starts with STEEP, VERT or BOMB ("VERTICAL") suggests that word.
func closest(up string) []string {
	n := len(up)
	if n < 2 || n > 12 {
		return prefixToken(up)
	}
	limit := 1
	if n >= 5 {
		limit = 2
	}
	var best []string
	for _, t := range suggestTokens {
		d := editDistance(up, t)
		switch {
		case d > limit:
		case d < limit:
			limit, best = d, append(best[:0], t)
		default:
			best = append(best, t)
		}
	}
	if len(best) == 0 {
		return prefixToken(up)
	}
	if len(best) > 2 {
		return nil
	}
	return best
}

func prefixToken(up string) []string {
	for _, t := range [...]string{"STEEP", "VERT", "BOMB"} {
		if strings.HasPrefix(up, t) {
			return []string{t}
		}
	}
	return nil
}

// editDistance is the optimal-string-alignment distance between two short ASCII strings.
func editDistance(a, b string) int {
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

// asciiApprox turns a word with letters outside A-Z into an upper-case ASCII word for suggestions:
// full-width letters become their ASCII twins, combining accents are dropped, and any other letter
// becomes '?', which matches nothing.
func asciiApprox(s string) string {
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
