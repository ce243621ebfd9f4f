package afd

import "testing"

// TestBlocksHandOutApart checks the lists a turn carves from blocks (the paths and tracks, the bursts'
// details, the hit locations): each is capped at its length, so appending to one never writes into
// the next; what was handed out keeps its values when a new block is begun; new blocks grow from four
// to the most asked; and nil blocks make each list on its own.
func TestBlocksHandOutApart(t *testing.T) {
	var b blocks[int]
	first := b.take(3, 32)
	second := b.take(1, 32)
	if len(first) != 3 || cap(first) != 3 || len(second) != 1 || cap(second) != 1 {
		t.Fatalf("lists of %d/%d and %d/%d (length/capacity), want 3/3 and 1/1", len(first), cap(first), len(second), cap(second))
	}
	first[0], second[0] = 1, 2
	grown := append(first, 9)
	if second[0] != 2 || first[0] != 1 || grown[3] != 9 {
		t.Fatalf("appending to one list changed its neighbour: %v %v", first, second)
	}
	if cap(b.block) != 4 {
		t.Errorf("the first block holds %d, want 4", cap(b.block))
	}
	third := b.take(2, 32) // no room left in the first block of four
	if cap(b.block) != 8 {
		t.Errorf("the second block holds %d, want 8 (twice the first)", cap(b.block))
	}
	third[0] = 3
	if first[0] != 1 || second[0] != 2 {
		t.Errorf("a new block changed what was handed out: %v %v", first, second)
	}
	for range 3 {
		b.take(8, 12)
	}
	if cap(b.block) != 12 {
		t.Errorf("a block holds %d, want the most asked, 12", cap(b.block))
	}
	if big := b.take(40, 12); len(big) != 40 || cap(b.block) != 40 {
		t.Errorf("a list longer than the most: %d in a block of %d, want 40 in 40", len(big), cap(b.block))
	}
	var none *blocks[string]
	if s := none.take(2, 32); len(s) != 2 || s[0] != "" {
		t.Errorf("nil blocks gave %q, want two empty strings", s)
	}
}
