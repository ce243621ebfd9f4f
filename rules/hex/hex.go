// Package hex is the map geometry shared by the hex rulesets: flat-topped hexes in axial coordinates,
// the twelve facings of the 30-degree game, movement with and across the grain, sideways displacement
// for slips and half rolls, distance, and clock positions.
//
// Conventions (docs/rulings.md: geometry). Hexes are flat-topped, so a hexside faces map north. A Dir d in
// 0..11 is the bearing 30°·d clockwise from north: even d faces a hexside (moving with the grain), odd d
// faces a hexspine (moving across the grain). Axial coordinates (q, r) grow to the south-east (q) and
// south (r).
package hex

import (
	"fmt"
	"math"
	"strconv"
)

// Hex is an axial hex coordinate.
type Hex struct {
	Q, R int
}

// String prints the hex as "(q,r)".
func (h Hex) String() string {
	var buf [24]byte
	return string(h.Append(buf[:0]))
}

// Append appends the hex as String prints it to b.
func (h Hex) Append(b []byte) []byte {
	b = append(b, '(')
	b = strconv.AppendInt(b, int64(h.Q), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(h.R), 10)
	return append(b, ')')
}

// Add returns h moved by the vector v.
func (h Hex) Add(v Hex) Hex { return Hex{h.Q + v.Q, h.R + v.R} }

// Sub returns the vector from o to h.
func (h Hex) Sub(o Hex) Hex { return Hex{h.Q - o.Q, h.R - o.R} }

// sideVec are the six hexside neighbours, indexed by d/2 for even d, clockwise from north.
var sideVec = [6]Hex{
	{0, -1}, // N    (d=0)
	{1, -1}, // NE   (d=2)
	{1, 0},  // SE   (d=4)
	{0, 1},  // S    (d=6)
	{-1, 1}, // SW   (d=8)
	{-1, 0}, // NW   (d=10)
}

// Dir is one of the twelve facings: bearing 30°·Dir clockwise from map north.
type Dir int

// Norm brings any integer into 0..11.
func Norm(d int) Dir { return Dir(((d % 12) + 12) % 12) }

// Turn returns the facing after turning n steps of 30° clockwise (negative n: anticlockwise).
func (d Dir) Turn(n int) Dir { return Norm(int(d) + n) }

// WithGrain reports whether the facing is a hexside (even): the plane moves with the grain.
func (d Dir) WithGrain() bool { return d%2 == 0 }

// Degrees is the bearing of the facing.
func (d Dir) Degrees() int { return int(d) * 30 }

// dirNames are the twelve facings' names, so naming one costs nothing.
var dirNames = [12]string{"000", "030", "060", "090", "120", "150", "180", "210", "240", "270", "300", "330"}

// String names the facing by its bearing, e.g. "030".
func (d Dir) String() string {
	if d >= 0 && int(d) < len(dirNames) {
		return dirNames[d]
	}
	return fmt.Sprintf("%03d", d.Degrees())
}

// Neighbor returns the hex across hexside direction d, which must be even (a hexside facing).
func (h Hex) Neighbor(d Dir) Hex {
	if !d.WithGrain() {
		panic(fmt.Sprintf("hex: Neighbor needs a hexside facing, got %d", d))
	}
	return h.Add(sideVec[d/2])
}

// Neighbors returns the six adjacent hexes clockwise from north.
func (h Hex) Neighbors() [6]Hex {
	var n [6]Hex
	for i, v := range sideVec {
		n[i] = h.Add(v)
	}
	return n
}

// Distance is the number of hexes between a and b.
func Distance(a, b Hex) int {
	dq := a.Q - b.Q
	dr := a.R - b.R
	return (abs(dq) + abs(dr) + abs(dq+dr)) / 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Phase is the across-the-grain alternation (seed 000 rule (8)): which front hex a plane facing a
// hexspine enters next. Right is always first after taking up a hexspine facing; the phase carries
// over from turn to turn.
type Phase int

const (
	RightFront Phase = iota // the next hex entered across the grain is the right-front one
	LeftFront               // the next hex entered across the grain is the left-front one
)

func (p Phase) String() string {
	if p == LeftFront {
		return "L"
	}
	return "R"
}

// Flip returns the other phase.
func (p Phase) Flip() Phase { return 1 - p }

// Forward returns the hex entered by one hex of forward flight from h on facing d, and the grain phase
// after it. With the grain the phase is returned unchanged; across the grain the plane enters the
// right-front hex (facing d+1) or the left-front hex (facing d-1) as the phase says, and the phase flips
// (seed 000 rule (8)).
func Forward(h Hex, d Dir, p Phase) (Hex, Phase) {
	if d.WithGrain() {
		return h.Neighbor(d), p
	}
	if p == RightFront {
		return h.Neighbor(d.Turn(1)), LeftFront
	}
	return h.Neighbor(d.Turn(-1)), RightFront
}

// Side is left or right, for slips, rolls and turns.
type Side int

const (
	Right Side = 1
	Left  Side = -1
)

func (s Side) String() string {
	if s == Left {
		return "L"
	}
	return "R"
}

// Opposite returns the other side.
func (s Side) Opposite() Side { return -s }

// SlipHex returns the hex a slip to side s enters from h on facing d (seed 000 rule (9)). Across the
// grain the slip moves one hex straight to the side (90°, which is a hexside); with the grain it moves
// to the left-front or right-front hex (60°). The facing does not change.
func SlipHex(h Hex, d Dir, s Side) Hex {
	if d.WithGrain() {
		return h.Neighbor(d.Turn(2 * int(s)))
	}
	return h.Neighbor(d.Turn(3 * int(s)))
}

// HalfRollHexes returns the two hexes a half roll to side s enters from h on facing d (seed 000 rules
// (4), (9)). Across the grain: one hex straight to the side, then the front hex on that side ("knight
// move"). With the grain: two successive hexes to the left-front or right-front (60°). The facing does
// not change, and neither does the across-the-grain phase.
func HalfRollHexes(h Hex, d Dir, s Side) [2]Hex {
	if d.WithGrain() {
		v := d.Turn(2 * int(s))
		a := h.Neighbor(v)
		return [2]Hex{a, a.Neighbor(v)}
	}
	a := h.Neighbor(d.Turn(3 * int(s)))
	return [2]Hex{a, a.Neighbor(d.Turn(int(s)))}
}

// pixel returns the centre of h with x growing east and y growing north (hex side length 1). It is used
// only for bearings, never for game state.
func (h Hex) pixel() (x, y float64) {
	x = 1.5 * float64(h.Q)
	y = -math.Sqrt(3) * (float64(h.R) + float64(h.Q)/2)
	return x, y
}

// Bearing returns the bearing in degrees (0..360, clockwise from north) from a to b. It is undefined
// (0) for a == b.
func Bearing(a, b Hex) float64 {
	ax, ay := a.pixel()
	bx, by := b.pixel()
	deg := math.Atan2(bx-ax, by-ay) * 180 / math.Pi
	if deg < 0 {
		deg += 360
	}
	return deg
}

// Clock returns the clock position (1..12) of hex b as seen from hex a by an observer whose nose points
// along facing d: 12 dead ahead, 3 off the right wing, 6 dead astern. Sector edges lie at odd multiples
// of 15°, which no hex centre lies on exactly, so the result never depends on rounding. For a == b it
// returns 0: a plane in the same hex has no clock position.
func Clock(a Hex, d Dir, b Hex) int {
	if a == b {
		return 0
	}
	rel := Bearing(a, b) - float64(d.Degrees())
	for rel < 0 {
		rel += 360
	}
	n := int(math.Floor(rel/30+0.5)) % 12
	if n == 0 {
		return 12
	}
	return n
}

// AtClock returns a hex dist hexes from a at a clock position (Clock) seen along facing d: of those there
// are, the one with the least Q, then the least R. false when no hex lies there.
func AtClock(a Hex, d Dir, clock, dist int) (Hex, bool) {
	for q := a.Q - dist; q <= a.Q+dist; q++ {
		for r := a.R - dist; r <= a.R+dist; r++ {
			if h := (Hex{q, r}); Distance(a, h) == dist && Clock(a, d, h) == clock {
				return h, true
			}
		}
	}
	return Hex{}, false
}

// Line returns the hexes along the straight line from a to b, both included, by sampling the segment
// between their centres (cube-coordinate rounding, nudged so that lines along hexspines choose
// consistently).
func Line(a, b Hex) []Hex {
	n := Distance(a, b)
	out := make([]Hex, 0, n+1)
	if n == 0 {
		return append(out, a)
	}
	const eps = 1e-6
	aq, ar := float64(a.Q)+eps, float64(a.R)+eps
	bq, br := float64(b.Q)+eps, float64(b.R)+eps
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		out = append(out, Round(aq+(bq-aq)*t, ar+(br-ar)*t))
	}
	return out
}

// Round is the hex holding the fractional axial point (q, r): each cube coordinate rounded, and the
// one that moved most recomputed from the other two.
func Round(q, r float64) Hex {
	s := -q - r
	rq, rr, rs := math.Round(q), math.Round(r), math.Round(s)
	dq, dr, ds := math.Abs(rq-q), math.Abs(rr-r), math.Abs(rs-s)
	switch {
	case dq > dr && dq > ds:
		rq = -rr - rs
	case dr > ds:
		rr = -rq - rs
	}
	return Hex{int(rq), int(rr)}
}

// rotateLeft turns a vector 60° anticlockwise.
func rotateLeft(v Hex) Hex { return Hex{v.Q + v.R, -v.Q} }

// Offset says where hex b lies relative to the line of flight of a plane in hex a on facing d: whether
// it is ahead (in front of the line through a square to the flight path), and how many hexes it lies off
// the flight path to either side. With the grain the flight path is a single file of hexes and the
// offset counts files; across the grain the path zigzags between two files half a hex either side of the
// line (rule (8)), both of which count as on the path, and every further hex of width is one more.
// The arithmetic is exact: vectors are turned in 60° steps until the facing is 000 or 030.
func Offset(a Hex, d Dir, b Hex) (ahead bool, off int) {
	v := b.Sub(a)
	for i := 0; i < int(d)/2; i++ {
		v = rotateLeft(v)
	}
	if d.WithGrain() {
		// Facing 000: files are q; distance ahead grows as 2r+q falls.
		return 2*v.R+v.Q < 0, abs(v.Q)
	}
	// Facing 030: lanes are 2q+r, half a hex apart; ahead means r < 0.
	return v.R < 0, abs(2*v.Q+v.R) / 2
}
