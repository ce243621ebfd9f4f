package ruleset

import "slices"

// Lines builds an order check's text (its canonical order, its forecast) in one buffer and hands the
// lines out as substrings of one string, so a forecast of a dozen lines costs a few allocations rather
// than several a line. Append each line's text to B with the append functions (strconv.AppendInt,
// hex.Hex.Append, ...), then call End.
type Lines struct {
	B    []byte
	ends []int // where each ended line ends in B
}

// Grow makes room for n more lines of about width bytes each.
func (l *Lines) Grow(n, width int) {
	l.B = slices.Grow(l.B, n*width)
	l.ends = slices.Grow(l.ends, n)
}

// End ends the line written to B since the last End.
func (l *Lines) End() { l.ends = append(l.ends, len(l.B)) }

// Strings returns the ended lines, each a substring of one string; nil when none was ended.
func (l *Lines) Strings() []string {
	if len(l.ends) == 0 {
		return nil
	}
	s := string(l.B[:l.ends[len(l.ends)-1]])
	out := make([]string, len(l.ends))
	start := 0
	for i, end := range l.ends {
		out[i] = s[start:end]
		start = end
	}
	return out
}

// Check sets c's canonical order to the first ended line and its forecast to the others (none when there
// is only the one).
func (l *Lines) Check(c *OrderCheck) {
	lines := l.Strings()
	c.Canonical = lines[0]
	if len(lines) > 1 {
		c.Preview = lines[1:]
	}
}
