package afd

// The forecast an order check gives the player, written by appending into one buffer (ruleset.Lines):
// a check runs for every order of every mail, and fmt's formatting was most of its cost. Each line reads
// byte for byte as the fmt format in its comment printed it (forecast_test.go keeps those formats as the
// oracle).

import (
	"strconv"
	"unicode/utf8"

	"sortie/rules/afd/notation"
	"sortie/rules/ruleset"
)

// appendFeet appends an altitude in feet with a comma before the last three digits from 1,000 ft up:
// "12,500", "800", "-100".
func appendFeet(b []byte, n int) []byte {
	if n < 1000 {
		return strconv.AppendInt(b, int64(n), 10)
	}
	b = strconv.AppendInt(b, int64(n/1000), 10)
	b = append(b, ',')
	r := n % 1000 // three digits, with leading zeros
	if r < 100 {
		b = append(b, '0')
	}
	if r < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(r), 10)
}

// feetText is an altitude as appendFeet writes it.
func feetText(n int) string {
	var buf [24]byte
	return string(appendFeet(buf[:0], n))
}

// appendPadded appends s, then spaces up to width characters (fmt's %-*s).
func appendPadded(b []byte, s string, width int) []byte {
	b = append(b, s...)
	for n := utf8.RuneCountInString(s); n < width; n++ {
		b = append(b, ' ')
	}
	return b
}

// appendPaddedInt appends n, then spaces up to width characters (fmt's %-*d).
func appendPaddedInt(b []byte, n, width int) []byte {
	start := len(b)
	b = strconv.AppendInt(b, int64(n), 10)
	for len(b)-start < width {
		b = append(b, ' ')
	}
	return b
}

// appendStepLine appends the forecast line of one movement point:
// "MP %-2d %-5s hex (%d,%d)  facing %s  %s ft  bank %s", then "  (vertical)" for a point spent climbing
// or diving steeply.
func appendStepLine(b []byte, s Step) []byte {
	b = appendPaddedInt(append(b, "MP "...), s.MP, 2)
	b = appendPadded(append(b, ' '), s.Token, 5)
	b = s.Hex.Append(append(b, " hex "...))
	b = append(append(b, "  facing "...), s.Facing.String()...)
	b = appendFeet(append(b, "  "...), s.Alt)
	b = append(append(b, " ft  bank "...), s.Bank.String()...)
	if s.Skipped {
		b = append(b, "  (vertical)"...)
	}
	return b
}

// appendEndLine appends the forecast's last line, where the plane ends its turn:
// "ends in hex (%d,%d) facing %s at %s ft, bank %s; next turn's speed %.1f".
func appendEndLine(b []byte, e Flight) []byte {
	b = e.Hex.Append(append(b, "ends in hex "...))
	b = append(append(b, " facing "...), e.Facing.String()...)
	b = appendFeet(append(b, " at "...), e.Alt)
	b = append(append(b, " ft, bank "...), e.Bank.String()...)
	return strconv.AppendFloat(append(b, "; next turn's speed "...), e.Speed.Float(), 'f', 1, 64)
}

// appendImpulseLine appends the forecast line of one impulse box of the impulse game:
// "turn %d impulse %-2d %-2s hex (%d,%d)  facing %s  %s ft  bank %s".
func appendImpulseLine(b []byte, turn, impulse int, token string, s Step, alt int) []byte {
	b = strconv.AppendInt(append(b, "turn "...), int64(turn), 10)
	b = appendPaddedInt(append(b, " impulse "...), impulse, 2)
	b = appendPadded(append(b, ' '), token, 2)
	b = s.Hex.Append(append(b, " hex "...))
	b = append(append(b, "  facing "...), s.Facing.String()...)
	b = appendFeet(append(b, "  "...), alt)
	return append(append(b, " ft  bank "...), s.Bank.String()...)
}

// checkText is an order check's canonical order and the forecast of its plot in a plain turn, all
// substrings of one string: one line a movement point, then where the plane ends.
func checkText(o notation.Order, r Result) (canonical string, preview []string) {
	var l ruleset.Lines
	l.Grow(len(r.Steps)+2, 64)
	l.B = o.Append(l.B)
	l.End()
	for _, s := range r.Steps {
		l.B = appendStepLine(l.B, s)
		l.End()
	}
	l.B = appendEndLine(l.B, r.End)
	l.End()
	lines := l.Strings()
	return lines[0], lines[1:]
}
