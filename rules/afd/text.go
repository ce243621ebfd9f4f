package afd

import (
	"strconv"
	"strings"
)

// textBuf builds dice labels and event texts in one buffer reused from string to string; each
// finished string is copied into the arena. The labels must read exactly as they always have: the
// keyed dice draw each roll from its label's stream (rules/dice), and archives re-run turns and compare
// them.
type textBuf struct {
	b   []byte
	out textArena
}

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

// String is the text so far, as a string of its own in the arena.
func (t *textBuf) String() string { return t.out.string(t.b) }

// textBlock is the size of the blocks a textArena fills: some fifty labels or texts.
const textBlock = 4096

// textArena makes strings of many byte slices in a few allocations: each string is written after the
// last into a block, and a new block is begun when one is full. A string's bytes are never written
// again, so strings handed out stay as they are; a block lives as long as any of its strings. A turn's
// events and dice labels (a few hundred strings of some forty bytes) so cost a handful of allocations
// and no rounding up to the allocator's size classes. A nil arena makes each string on its own.
type textArena struct{ block strings.Builder }

// string returns b as a string in the arena.
func (a *textArena) string(b []byte) string {
	if a == nil || len(b) == 0 {
		return string(b)
	}
	if a.block.Cap()-a.block.Len() < len(b) {
		// A new block: the old one stays with the strings made from it.
		a.block = strings.Builder{}
		a.block.Grow(max(len(b), textBlock))
	}
	at := a.block.Len()
	a.block.Write(b)
	return a.block.String()[at:]
}

// typeName is an aircraft type as a player reads it, its card's name ("Mitsubishi A6M2 Zero (Model
// 21)"), not the key the data files use ("a6m2"); the key when the type has no card.
func (r *resolution) typeName(key string) string {
	if c, err := r.cardOf(key); err == nil && c.Name != "" {
		return c.Name
	}
	return key
}
