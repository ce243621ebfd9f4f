// Package dice gives the rules their random numbers: a deterministic source seeded per game, which logs
// every roll with a label saying what it was for (invariant 3, docs/architecture.md), and a scripted source that hands
// out given values, for the calculator and for tests.
//
// Rules never use a global random source; they take a Source.
package dice

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Roll is one die thrown: what it was for, how many sides the die had, and what it showed.
type Roll struct {
	Label string `json:"label"`
	Sides int    `json:"sides"`
	Value int    `json:"value"`
}

func (r Roll) String() string { return fmt.Sprintf("%s: d%d=%d", r.Label, r.Sides, r.Value) }

// Source throws dice. Roll returns a value in 1..sides and records it in the log under label; Log returns
// the rolls so far, oldest first, as a read-only slice.
type Source interface {
	Roll(label string, sides int) int
	Log() []Roll
}

// Reserve gives d's log room for n more rolls when d can be told (Seeded, Keyed and Scripted can): a
// caller that knows about how many rolls are coming spares the log its growing, a copy of every roll
// so far each time it fills. The log is grown once, to exactly the room asked for; it changes no roll
// and no label. A source that cannot be told is left as it is.
func Reserve(d Source, n int) {
	if r, ok := d.(interface{ Reserve(n int) }); ok {
		r.Reserve(n)
	}
}

// logged is the log as Log hands it out: capped at its length, so that appending to it never reaches
// the source's room, and nil while no die has been thrown, as an empty log always was (a log saved as
// JSON says null, not []).
func logged(log []Roll) []Roll {
	if len(log) == 0 {
		return nil
	}
	return log[:len(log):len(log)]
}

// reserve returns log with room for n more rolls: log itself when it has it.
func reserve(log []Roll, n int) []Roll {
	if n <= cap(log)-len(log) {
		return log
	}
	out := make([]Roll, len(log), len(log)+n)
	copy(out, log)
	return out
}

// Seed is a game's secret seed. Its SHA-256 is published at the start of a game and the seed itself at
// the end, so players can check every roll.
type Seed [32]byte

// SeedFromUint64 makes a seed from a small number (tests, demos, the calculator's --seed flag).
func SeedFromUint64(n uint64) Seed {
	var s Seed
	for i := 0; i < 8; i++ {
		s[i] = byte(n >> (8 * i))
	}
	return s
}

// Commitment is the hex SHA-256 of the seed, published before the seed is revealed.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// String is the seed in hex.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// ParseSeed reads a seed written as 64 hex digits.
func ParseSeed(text string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != len(s) {
		return s, fmt.Errorf("dice: a seed is 64 hex digits, got %q", text)
	}
	copy(s[:], b)
	return s, nil
}

// Stream derives the seed for one named stream (for example one turn of one game) from a game seed, so
// that re-running turn 7 does not require replaying turns 1-6.
func (s Seed) Stream(name string) Seed {
	h := sha256.New()
	h.Write(s[:])
	h.Write([]byte{0})
	h.Write([]byte(name))
	var out Seed
	copy(out[:], h.Sum(nil))
	return out
}

// Seeded is a deterministic Source: ChaCha8 from a seed. The same seed and the same sequence of calls
// give the same rolls on every machine.
type Seeded struct {
	rng *rand.Rand
	log []Roll
}

// NewSeeded returns a Source seeded with s.
func NewSeeded(s Seed) *Seeded {
	return &Seeded{rng: rand.New(rand.NewChaCha8(s))}
}

// Roll throws one die with the given number of sides (at least 1).
func (d *Seeded) Roll(label string, sides int) int {
	var v int
	v, d.log = throw(d.rng, d.log, label, sides)
	return v
}

// throw throws one die with the given number of sides (at least 1) from rng and logs it.
func throw(rng *rand.Rand, log []Roll, label string, sides int) (int, []Roll) {
	if sides < 1 {
		sides = 1
	}
	// Uniform without modulo bias: IntN uses Lemire's method over the ChaCha8 stream.
	v := rng.IntN(sides) + 1
	return v, append(log, Roll{Label: label, Sides: sides, Value: v})
}

// Log returns every roll so far, in order. The slice is shared and must not be modified; appending to it
// never disturbs the source.
func (d *Seeded) Log() []Roll { return logged(d.log) }

// Reserve gives the log room for n more rolls (see Reserve).
func (d *Seeded) Reserve(n int) { d.log = reserve(d.log, n) }

// Keyed is a deterministic Source in which every roll has a stream of its own, named by the roll's label
// and by how many rolls with that label came before it. Unlike Seeded, a roll does not depend on how
// many other rolls were thrown before it: under fog of war a side's dice must not shift with the number
// of enemy units it cannot see (their rolls come first in a shared sequence). The labels a ruleset gives
// name the unit that rolls, so they tell nothing either.
type Keyed struct {
	seed Seed
	n    map[string]int
	log  []Roll
	// Reused from roll to roll: the stream's name being hashed, and the generator, seeded afresh for
	// each roll exactly as a new one would be.
	name []byte
	src  rand.ChaCha8
	rng  *rand.Rand
}

// NewKeyed returns a Source keyed by s.
func NewKeyed(s Seed) *Keyed {
	d := &Keyed{seed: s, n: map[string]int{}}
	d.rng = rand.New(&d.src)
	return d
}

// Roll throws one die with the given number of sides (at least 1), drawn from the stream of this label's
// next roll: ChaCha8 seeded with s.Stream(label + "\x00" + k) for the label's k-th roll (counting from 0).
// The stream's seed is hashed from a reused buffer and the generator reseeded in place, so a roll
// allocates nothing but the log's room.
func (d *Keyed) Roll(label string, sides int) int {
	k := d.n[label]
	d.n[label] = k + 1
	// What Seed.Stream hashes: the seed, a zero byte, and the stream's name.
	d.name = append(append(d.name[:0], d.seed[:]...), 0)
	d.name = strconv.AppendInt(append(append(d.name, label...), 0), int64(k), 10)
	d.src.Seed(sha256.Sum256(d.name))
	var v int
	v, d.log = throw(d.rng, d.log, label, sides)
	return v
}

// Log returns every roll so far, in order. The slice is shared and must not be modified.
func (d *Keyed) Log() []Roll { return logged(d.log) }

// Reserve gives the log room for n more rolls (see Reserve).
func (d *Keyed) Reserve(n int) { d.log = reserve(d.log, n) }

// Scripted hands out given values in order. It is for the calculator (dice given on the command line)
// and for tests that need a particular roll. A value out of range for the die asked for, or a roll asked
// for after the values ran out, is recorded as an error (see Err) and the roll shows 1, so a caller
// always gets an answer and can report the mistake.
type Scripted struct {
	values []int
	next   int
	log    []Roll
	err    error
}

// NewScripted returns a Source that hands out values in order.
func NewScripted(values ...int) *Scripted {
	return &Scripted{values: append([]int(nil), values...)}
}

// Roll hands out the next value.
func (d *Scripted) Roll(label string, sides int) int {
	v := 1
	switch {
	case d.next >= len(d.values):
		if d.err == nil {
			d.err = fmt.Errorf("dice: %s needs a d%d but only %d values were given", label, sides, len(d.values))
		}
	case d.values[d.next] < 1 || d.values[d.next] > sides:
		if d.err == nil {
			d.err = fmt.Errorf("dice: %s is a d%d and cannot show %d", label, sides, d.values[d.next])
		}
		d.next++
	default:
		v = d.values[d.next]
		d.next++
	}
	d.log = append(d.log, Roll{Label: label, Sides: sides, Value: v})
	return v
}

// Log returns every roll so far, in order. The slice is shared and must not be modified.
func (d *Scripted) Log() []Roll { return logged(d.log) }

// Reserve gives the log room for n more rolls (see Reserve).
func (d *Scripted) Reserve(n int) { d.log = reserve(d.log, n) }

// Err says whether the script ran out or held an impossible value.
func (d *Scripted) Err() error { return d.err }

// Remaining is the number of values not yet handed out.
func (d *Scripted) Remaining() int { return len(d.values) - d.next }
