package notation

import (
	"strings"

	"sortie/parser"
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
	"BR", "BL", "STEEP", "VERT", "BOMB", "ROCKET", "STRAFE", "P", "PP", "PPP", "K", "KK",
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
		d := parser.EditDistance(up, t)
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
