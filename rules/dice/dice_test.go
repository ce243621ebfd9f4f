package dice

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestSeededIsDeterministicAndLogged(t *testing.T) {
	a, b := NewSeeded(SeedFromUint64(42)), NewSeeded(SeedFromUint64(42))
	for i := 0; i < 200; i++ {
		if x, y := a.Roll("red", 6), b.Roll("red", 6); x != y {
			t.Fatalf("roll %d differs: %d vs %d", i, x, y)
		}
	}
	if len(a.Log()) != 200 || a.Log()[0].Label != "red" || a.Log()[0].Sides != 6 {
		t.Fatalf("log not kept: %v", a.Log()[:1])
	}
	c := NewSeeded(SeedFromUint64(43))
	same := 0
	for i, r := range a.Log() {
		if c.Roll("red", 6) == r.Value {
			same++
		}
		_ = i
	}
	if same == 200 {
		t.Fatal("different seeds gave the same rolls")
	}
}

func TestSeededCoversEveryFace(t *testing.T) {
	d := NewSeeded(SeedFromUint64(7))
	var count [11]int
	for i := 0; i < 10000; i++ {
		v := d.Roll("d10", 10)
		if v < 1 || v > 10 {
			t.Fatalf("d10 showed %d", v)
		}
		count[v]++
	}
	for f := 1; f <= 10; f++ {
		if count[f] < 850 || count[f] > 1150 {
			t.Errorf("face %d came up %d times in 10000", f, count[f])
		}
	}
}

func TestSeededFixedSequence(t *testing.T) {
	// Pins the generator: if this changes, archived games would no longer re-run byte for byte.
	d := NewSeeded(SeedFromUint64(1))
	var got []int
	for i := 0; i < 8; i++ {
		got = append(got, d.Roll("x", 6))
	}
	want := []int{1, 2, 2, 6, 5, 5, 1, 1}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("seed 1 rolled %v, want %v", got, want)
	}
}

func TestScripted(t *testing.T) {
	d := NewScripted(5, 3, 7)
	if d.Roll("red", 6) != 5 || d.Roll("white", 6) != 3 || d.Roll("loc", 10) != 7 {
		t.Fatal("scripted values not handed out in order")
	}
	if d.Err() != nil || d.Remaining() != 0 {
		t.Fatalf("unexpected error %v", d.Err())
	}
	if d.Roll("more", 6) != 1 || d.Err() == nil {
		t.Fatal("running out must be recorded as an error")
	}
	bad := NewScripted(9)
	bad.Roll("red", 6)
	if bad.Err() == nil {
		t.Fatal("a 9 on a d6 must be an error")
	}
	if got := len(d.Log()); got != 4 {
		t.Fatalf("log has %d rolls", got)
	}
}

func TestSeedTextAndStreams(t *testing.T) {
	s := SeedFromUint64(99)
	back, err := ParseSeed(s.String())
	if err != nil || back != s {
		t.Fatalf("seed round trip: %v %v", back, err)
	}
	if _, err := ParseSeed("zz"); err == nil {
		t.Fatal("bad seed text accepted")
	}
	// Stable: the same seed and name give the same stream, in this run and in every later version (a
	// turn is re-run from its stream).
	turn1 := s.Stream("turn-1")
	if turn1 == s.Stream("turn-2") || s.Stream("turn-1") != turn1 ||
		turn1.String() != "0f7bf03bd7955e8f60ae091f05d3e0503f0d1f8f50b5fcbdddb59578cd70c895" {
		t.Fatalf("streams must be distinct and stable: turn-1 is %s", turn1)
	}
	if len(s.Commitment()) != 64 {
		t.Fatal("commitment is a hex SHA-256")
	}
}

// TestKeyedRollsDoNotShift: a Keyed roll depends on its label and on how many rolls of that label came
// before, not on other rolls: under fog, a side's dice must not move with rolls of units it cannot see.
func TestKeyedRollsDoNotShift(t *testing.T) {
	s := SeedFromUint64(7)
	quiet := NewKeyed(s)
	a1, a2 := quiet.Roll("alice spots", 6), quiet.Roll("alice spots", 6)
	busy := NewKeyed(s)
	for i := 0; i < 50; i++ {
		busy.Roll(fmt.Sprintf("hidden %d", i), 6)
	}
	if b1, b2 := busy.Roll("alice spots", 6), busy.Roll("alice spots", 6); a1 != b1 || a2 != b2 {
		t.Errorf("rolls shifted by others: %d %d, then %d %d", a1, a2, b1, b2)
	}
	// A sequential Seeded source does shift: the reason Keyed exists.
	seqQuiet, seqBusy := NewSeeded(s), NewSeeded(s)
	for i := 0; i < 50; i++ {
		seqBusy.Roll("hidden", 6)
	}
	same := 0
	for i := 0; i < 20; i++ {
		if seqQuiet.Roll("x", 6) == seqBusy.Roll("x", 6) {
			same++
		}
	}
	if same == 20 {
		t.Error("a sequential source did not shift: the test proves nothing")
	}
	// The values are uniform enough and differ between labels and between repeats.
	counts := make([]int, 7)
	d := NewKeyed(s)
	for i := 0; i < 6000; i++ {
		counts[d.Roll("same", 6)]++
	}
	for v := 1; v <= 6; v++ {
		if counts[v] < 850 || counts[v] > 1150 {
			t.Errorf("value %d came %d times in 6000", v, counts[v])
		}
	}
	if len(d.Log()) != 6000 || d.Log()[0].Label != "same" {
		t.Errorf("log: %d rolls", len(d.Log()))
	}
}

// TestKeyedFixedSequence pins the keyed streams: if this changes, archived games would no longer re-run
// byte for byte.
func TestKeyedFixedSequence(t *testing.T) {
	d := NewKeyed(SeedFromUint64(1))
	var got []int
	for _, label := range []string{"x", "x", "y", "turn 1 A spots B: D6", "x", "y", "z", "z"} {
		got = append(got, d.Roll(label, 6))
	}
	got = append(got, d.Roll("x", 10), d.Roll("x", 20))
	want := []int{5, 4, 1, 3, 4, 4, 5, 5, 9, 19}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("keyed seed 1 rolled %v, want %v", got, want)
	}
}

// TestKeyedIsItsDefinition: every roll is what a fresh ChaCha8 seeded with the stream of the label's
// k-th roll gives (the definition, written the plain way), over labels of every shape and dice of many
// sizes.
func TestKeyedIsItsDefinition(t *testing.T) {
	seed := SeedFromUint64(77)
	d := NewKeyed(seed)
	count := map[string]int{}
	labels := []string{"", "x", "turn 1 P0001 fires at P0002: red D6", "é\x00ü", strings.Repeat("long ", 40)}
	for i := 0; i < 3000; i++ {
		label := labels[i%len(labels)]
		if i%7 == 0 {
			label = fmt.Sprintf("unit %d", i%113)
		}
		sides := []int{1, 2, 6, 10, 20, 100, 1 << 20, 0}[i%8]
		want := rand.New(rand.NewChaCha8(seed.Stream(fmt.Sprintf("%s\x00%d", label, count[label])))).IntN(max(sides, 1)) + 1
		count[label]++
		if got := d.Roll(label, sides); got != want {
			t.Fatalf("roll %d (%q, d%d): %d, want %d", i, label, sides, got, want)
		}
	}
}

// unsized is a Source that cannot be told what is coming.
type unsized struct{}

func (unsized) Roll(string, int) int { return 1 }
func (unsized) Log() []Roll          { return nil }

// TestReserveChangesNoRollAndSpares: a log sized ahead gives the same rolls and labels, leaves the log
// handed out before untouched, and takes the reserved rolls without growing (no allocation).
func TestReserveChangesNoRollAndSpares(t *testing.T) {
	sources := map[string]func() Source{
		"seeded":   func() Source { return NewSeeded(SeedFromUint64(5)) },
		"keyed":    func() Source { return NewKeyed(SeedFromUint64(5)) },
		"scripted": func() Source { return NewScripted(1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2) },
	}
	labels := []string{"a", "b", "a", "c", "a"}
	for name, mk := range sources {
		plain, sized := mk(), mk()
		for i := 0; i < 7; i++ {
			plain.Roll(labels[i%len(labels)], 6)
			sized.Roll(labels[i%len(labels)], 6)
		}
		before := sized.Log()
		kept := append([]Roll(nil), before...)
		Reserve(sized, 13)
		for i := 7; i < 20; i++ {
			plain.Roll(labels[i%len(labels)], 6)
			sized.Roll(labels[i%len(labels)], 6)
		}
		if !reflect.DeepEqual(plain.Log(), sized.Log()) {
			t.Errorf("%s: reserving changed the log:\n%v\n%v", name, plain.Log(), sized.Log())
		}
		if !reflect.DeepEqual(before, kept) {
			t.Errorf("%s: the log handed out before reserving changed", name)
		}
	}
	// Rolls into room reserved for them allocate nothing; without the room they grow the log (so the
	// check can fail). AllocsPerRun calls the function twice, counting the second call.
	for _, room := range []int{500, 0} {
		d := NewSeeded(SeedFromUint64(6))
		Reserve(d, room)
		allocs := testing.AllocsPerRun(1, func() {
			for range 250 {
				d.Roll("a", 6)
			}
		})
		switch {
		case room > 0 && allocs != 0:
			t.Errorf("250 rolls into room for them allocated %v times", allocs)
		case room == 0 && allocs == 0:
			t.Error("250 rolls without room never allocated: the test proves nothing")
		}
		if len(d.Log()) != 500 {
			t.Errorf("log has %d rolls, want 500", len(d.Log()))
		}
	}
	// Room reserved and never used leaves the log as it was: nil, saved as null.
	for name, mk := range sources {
		d := mk()
		Reserve(d, 10)
		if b, _ := json.Marshal(d.Log()); string(b) != "null" {
			t.Errorf("%s: an empty log with room reserved is saved as %s", name, b)
		}
	}
	// A source that cannot be told is left alone.
	Reserve(unsized{}, 10)
	Reserve(NewSeeded(SeedFromUint64(1)), 0)
}

// benchLabels are labels as a turn writes them: a few hundred different ones, some rolled twice.
var benchLabels = func() []string {
	var out []string
	for i := 0; i < 300; i++ {
		out = append(out, fmt.Sprintf("turn 3 P%04d fires at P%04d: red D6", i, i+1))
	}
	return out
}()

// BenchmarkKeyedTurn is a turn's dice from the keyed source every game now uses: a new source and 500
// rolls of 300 labels; BenchmarkSeededTurn beside it is the same from the sequential source, the raw
// cost of a turn of logged dice.
func BenchmarkKeyedTurn(b *testing.B) {
	benchmarkTurn(b, func() Source { return NewKeyed(SeedFromUint64(1)) })
}

func BenchmarkSeededTurn(b *testing.B) {
	benchmarkTurn(b, func() Source { return NewSeeded(SeedFromUint64(1)) })
}

func benchmarkTurn(b *testing.B, source func() Source) {
	b.ReportAllocs()
	for b.Loop() {
		d := source()
		for n := range 500 {
			d.Roll(benchLabels[n%len(benchLabels)], 6)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/500, "ns/roll")
}
