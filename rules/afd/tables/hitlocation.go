package tables

import (
	"fmt"
	"strings"
)

// System letters of the hit-location tables (; the cards in rules/afd/aircraft carry
// the boxes and effects of each).
const SystemLetters = "FWECLG" // fuselage, wing, engine, cockpit/crew, fuel lines, guns

// CriticalLetters are the systems a "*" may mark as open to a critical (seed 000, "Air combat procedure
// changes": C, L and E).
const CriticalLetters = "CLE"

// Location is one cell of a hit-location table: one letter per hit, and the letter that is open to a
// critical, if any.
type Location struct {
	Letters  string // e.g. "WFEE": one system letter per hit
	Critical int    // index into Letters of the starred system, or -1
}

// String prints the cell as the table does, e.g. "WFEE*".
func (l Location) String() string {
	if l.Critical < 0 || l.Critical >= len(l.Letters) {
		return l.Letters
	}
	return l.Letters[:l.Critical+1] + "*" + l.Letters[l.Critical+1:]
}

// parseLocation reads a cell such as "WFEE*" and checks it holds exactly hits letters from
// SystemLetters, with at most one "*", right after a C, L or E. It returns every fault it finds.
func parseLocation(cell string, hits int) (Location, []string) {
	var faults []string
	loc := Location{Critical: -1}
	var b strings.Builder
	stars := 0
	for i := 0; i < len(cell); i++ {
		ch := cell[i]
		switch {
		case ch == '*':
			stars++
			if b.Len() == 0 {
				faults = append(faults, fmt.Sprintf("%q: a * must follow the system letter it marks", cell))
				continue
			}
			prev := b.String()[b.Len()-1]
			if !strings.ContainsRune(CriticalLetters, rune(prev)) {
				faults = append(faults, fmt.Sprintf("%q: only C, L or E may carry a * (found it after %c)", cell, prev))
			}
			if stars == 2 {
				faults = append(faults, fmt.Sprintf("%q: at most one * per cell", cell))
			}
			if stars == 1 {
				loc.Critical = b.Len() - 1
			}
		case strings.IndexByte(SystemLetters, ch) >= 0:
			b.WriteByte(ch)
		default:
			faults = append(faults, fmt.Sprintf("%q: %q is not a system letter (want one of F W E C L G, and *)", cell, string(ch)))
		}
	}
	loc.Letters = b.String()
	if len(loc.Letters) != hits {
		faults = append(faults, fmt.Sprintf("%q: %d letters for %d hits; want exactly one letter per hit", cell, len(loc.Letters), hits))
	}
	return loc, faults
}

// Location reads the hit-location table (seed 000, "Hit location and final hit result D10 rolls") for
// a single- or multi-engine target, a block of 1 to 4 hits and a D10 of 1 to 10 (a 0 on the die is 10,
// and 0 is accepted as 10). Larger hit counts are first split with SplitHits, one D10 per block.
func (t *Tables) Location(multiEngine bool, hits, d10 int) (Location, error) {
	if hits < 1 || hits > 4 {
		return Location{Critical: -1}, fmt.Errorf("the hit-location tables cover blocks of 1 to 4 hits, got %d (split larger counts with SplitHits)", hits)
	}
	if d10 == 0 {
		d10 = 10
	}
	if d10 < 1 || d10 > 10 {
		return Location{Critical: -1}, fmt.Errorf("a D10 is 1 to 10 (0 reads as 10), got %d", d10)
	}
	return t.hitLocation[classIndex(multiEngine)][hits-1][d10-1], nil
}

// SplitHits splits a shot's hits into the blocks that each take one hit-location D10 (seed 000, "Hit
// location and final hit result D10 rolls"): as many blocks of 4 as fit, and what is left over as a last
// block. The counts a chart can hold split as the seed says: 1 to 4 are one block; 6 is 4+2, 8 is 4+4,
// 10 is 4+4+2, 12 is 4+4+4, 14 is 4+4+4+2, 16 is 4+4+4+4. Counts no valid chart holds split the same way
// (5 is 4+1, 7 is 4+3, 9 is 4+4+1), so a caller never loses a hit. 0 or less gives no blocks.
func SplitHits(n int) []int {
	var blocks []int
	for ; n > 4; n -= 4 {
		blocks = append(blocks, 4)
	}
	if n > 0 {
		blocks = append(blocks, n)
	}
	return blocks
}

// Side names the side of a sided system (engines, gun positions) a block's D10 hits: odd is the left
// side, even the right (seed 000, "Hit location and final hit result D10 rolls"). A 0 on the die is 10,
// so even. Centre-line systems are hit only when both outboard ones are destroyed; that is the engine's
// business.
func Side(d10 int) string {
	if d10%2 != 0 {
		return "L"
	}
	return "R"
}
