package afd

// blocks hands out slices carved from larger blocks, so that many small lists of a turn (the paths
// and tracks of its planes, the details of its bursts and their hit locations) take a few allocations
// instead of one each.
// Each slice is capped at its length: appending to it never reaches its neighbour. A block lives as
// long as any slice carved from it, and a new one is begun when it is full: what was handed out never
// moves. Each new block holds twice what the last did, from four up to a most, so that a small game
// takes small blocks.
type blocks[T any] struct{ block []T }

// take is n zero values, from a new block (of up to most values, or n) when the one in use has no
// room for them or none is in use yet. Taken from nil blocks, they are made on their own.
func (a *blocks[T]) take(n, most int) []T {
	if a == nil {
		return make([]T, n)
	}
	if a.block == nil || cap(a.block)-len(a.block) < n {
		a.block = make([]T, 0, max(n, min(max(2*cap(a.block), 4), most)))
	}
	at := len(a.block)
	a.block = a.block[:at+n]
	return a.block[at : at+n : at+n]
}

// The most a new block holds: hexes (a plane's path and track are some twenty; a plain turn makes its
// first block for all its planes' paths and tracks at once), the details of bursts fired (a 168-byte detail each:
// thirty-two fill 5 KB), and the hit locations of bursts (one for every four hits).
const (
	hexBlock      = 256
	burstBlock    = 32
	locationBlock = 32
)
