package afd

import "strconv"

// textBuf builds dice labels and event texts in one buffer reused from string to string, so each
// finished string costs a single allocation, the string itself. The labels must read exactly as they
// always have: the keyed dice draw each roll from its label's stream (rules/dice), and archives re-run
// turns and compare them.
type textBuf struct{ b []byte }

// start empties the buffer for a new string.
func (t *textBuf) start() *textBuf {
	t.b = t.b[:0]
	return t
}

// str appends s.
func (t *textBuf) str(s string) *textBuf {
	t.b = append(t.b, s...)
	return t
}

// num appends n in decimal, as fmt's %d prints it.
func (t *textBuf) num(n int) *textBuf {
	t.b = strconv.AppendInt(t.b, int64(n), 10)
	return t
}

// signed appends n with its sign always shown, as fmt's %+d prints it.
func (t *textBuf) signed(n int) *textBuf {
	if n >= 0 {
		t.b = append(t.b, '+')
	}
	return t.num(n)
}

// String is the text so far.
func (t *textBuf) String() string { return string(t.b) }
