package hex

import (
	"fmt"
	"math"
	"testing"
)

func TestNeighborsAreAdjacentAndDistinct(t *testing.T) {
	o := Hex{3, -2}
	seen := map[Hex]bool{}
	for _, n := range o.Neighbors() {
		if Distance(o, n) != 1 {
			t.Errorf("neighbour %v of %v at distance %d", n, o, Distance(o, n))
		}
		seen[n] = true
	}
	if len(seen) != 6 {
		t.Fatalf("want 6 distinct neighbours, got %d", len(seen))
	}
}

func TestHexsideFacingsPointAtTheirBearing(t *testing.T) {
	// Each even facing must move the hex centre along bearing 30°·d (docs/rulings.md: geometry).
	for d := Dir(0); d < 12; d += 2 {
		got := Bearing(Hex{}, Hex{}.Neighbor(d))
		if math.Abs(got-float64(d.Degrees())) > 1e-9 && !(d == 0 && math.Abs(got-360) < 1e-9) {
			t.Errorf("facing %v: neighbour lies at bearing %.3f", d, got)
		}
	}
}

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b Hex
		want int
	}{
		{Hex{0, 0}, Hex{0, 0}, 0},
		{Hex{0, 0}, Hex{0, -3}, 3},
		{Hex{0, 0}, Hex{2, -1}, 2},
		{Hex{0, 0}, Hex{3, 0}, 3},
		{Hex{-2, 5}, Hex{1, -1}, 6},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%v,%v)=%d want %d", c.a, c.b, got, c.want)
		}
	}
}

// Seed 000 rule (8): across the grain the plane enters right-front and left-front hexes alternately,
// right-front first, and two such hexes advance it along the 30° line.
func TestRule08AcrossTheGrainAlternatesRightFrontFirst(t *testing.T) {
	h, p := Hex{}, RightFront
	var path []Hex
	for i := 0; i < 4; i++ {
		h, p = Forward(h, 1, p)
		path = append(path, h)
	}
	want := []Hex{{1, -1}, {1, -2}, {2, -3}, {2, -4}} // NE, N, NE, N
	for i := range want {
		if path[i] != want[i] {
			t.Fatalf("path across the grain on 030: got %v want %v", path, want)
		}
	}
	if math.Abs(Bearing(Hex{}, path[3])-30) > 1e-9 {
		t.Errorf("after 4 hexes on 030 the bearing is %.2f, want 30", Bearing(Hex{}, path[3]))
	}
	// The phase carries over: starting on the left-front phase enters N first.
	if got, _ := Forward(Hex{}, 1, LeftFront); got != (Hex{0, -1}) {
		t.Errorf("left-front phase entered %v, want (0,-1)", got)
	}
}

func TestForwardWithTheGrainKeepsPhase(t *testing.T) {
	h, p := Forward(Hex{}, 4, LeftFront)
	if h != (Hex{1, 0}) || p != LeftFront {
		t.Errorf("with the grain on 120: got %v %v", h, p)
	}
}

// Seed 000 rule (9): slips move one hex to the side: straight to the side (90°) across the grain,
// to the left-front / right-front (60°) with the grain.
func TestRule09SlipDisplacement(t *testing.T) {
	// With the grain, facing north: right slip enters NE, left slip NW.
	if got := SlipHex(Hex{}, 0, Right); got != (Hex{1, -1}) {
		t.Errorf("SR facing 000: %v", got)
	}
	if got := SlipHex(Hex{}, 0, Left); got != (Hex{-1, 0}) {
		t.Errorf("SL facing 000: %v", got)
	}
	// Across the grain, facing 030: right slip goes to bearing 120 (SE), left to 300 (NW).
	if got := SlipHex(Hex{}, 1, Right); got != (Hex{1, 0}) {
		t.Errorf("SR facing 030: %v", got)
	}
	if got := SlipHex(Hex{}, 1, Left); got != (Hex{-1, 0}) {
		t.Errorf("SL facing 030: %v", got)
	}
	for d := Dir(0); d < 12; d++ {
		for _, s := range []Side{Left, Right} {
			h := SlipHex(Hex{}, d, s)
			rel := math.Mod(Bearing(Hex{}, h)-float64(d.Degrees())+720, 360)
			want := 90.0
			if d.WithGrain() {
				want = 60
			}
			if s == Left {
				want = 360 - want
			}
			if math.Abs(rel-want) > 1e-6 {
				t.Errorf("slip %v on %v: relative bearing %.1f want %.1f", s, d, rel, want)
			}
		}
	}
}

// Seed 000 rules (4), (9): a half roll moves two hexes; with the grain both along the 60° line, across
// the grain one to the side and then to the front hex on that side (a knight's move).
func TestRule09HalfRollDisplacement(t *testing.T) {
	got := HalfRollHexes(Hex{}, 0, Right)
	if got != [2]Hex{{1, -1}, {2, -2}} {
		t.Errorf("HR facing 000: %v", got)
	}
	got = HalfRollHexes(Hex{}, 0, Left)
	if got != [2]Hex{{-1, 0}, {-2, 0}} {
		t.Errorf("HL facing 000: %v", got)
	}
	got = HalfRollHexes(Hex{}, 1, Right) // SE then NE
	if got != [2]Hex{{1, 0}, {2, -1}} {
		t.Errorf("HR facing 030: %v", got)
	}
	got = HalfRollHexes(Hex{}, 1, Left) // NW then N
	if got != [2]Hex{{-1, 0}, {-1, -1}} {
		t.Errorf("HL facing 030: %v", got)
	}
	for d := Dir(0); d < 12; d++ {
		for _, s := range []Side{Left, Right} {
			h := HalfRollHexes(Hex{}, d, s)
			if Distance(Hex{}, h[0]) != 1 || Distance(h[0], h[1]) != 1 || Distance(Hex{}, h[1]) != 2 {
				t.Errorf("half roll %v on %v is not two hexes of displacement: %v", s, d, h)
			}
		}
	}
}

func TestClockPositions(t *testing.T) {
	o := Hex{}
	cases := []struct {
		facing Dir
		target Hex
		want   int
	}{
		{0, Hex{0, -3}, 12}, // dead ahead
		{0, Hex{0, 3}, 6},   // dead astern
		{0, Hex{2, -1}, 3},  // due east is off the right wing when facing north
		{0, Hex{-2, 1}, 9},
		{0, Hex{1, -2}, 1},  // 30° right of the nose
		{6, Hex{0, -3}, 6},  // facing south, north is astern
		{3, Hex{2, -1}, 12}, // facing east
		{1, Hex{1, -2}, 12},
		{0, Hex{1, 1}, 5}, // 150°
		{0, Hex{0, 0}, 0},
	}
	for _, c := range cases {
		if got := Clock(o, c.facing, c.target); got != c.want {
			t.Errorf("Clock(facing %v, %v)=%d want %d (bearing %.1f)", c.facing, c.target, got, c.want, Bearing(o, c.target))
		}
	}
}

func TestClockNeverOnASectorEdge(t *testing.T) {
	// Sector edges are at odd multiples of 15°, irrational directions on the hex lattice, so no hex
	// centre lies on one; within any range that matters the nearest comes no closer than a hundredth of a
	// degree, far beyond floating-point noise, so clock positions are the same on every machine.
	for q := -40; q <= 40; q++ {
		for r := -40; r <= 40; r++ {
			h := Hex{q, r}
			if h == (Hex{}) || Distance(Hex{}, h) > 40 {
				continue
			}
			b := Bearing(Hex{}, h)
			m := math.Mod(b+15, 30)
			if m < 0.01 || m > 29.99 {
				t.Errorf("hex %v at bearing %.4f lies near a sector edge", h, b)
			}
		}
	}
}

func TestLine(t *testing.T) {
	l := Line(Hex{}, Hex{0, -4})
	if len(l) != 5 || l[4] != (Hex{0, -4}) {
		t.Fatalf("line: %v", l)
	}
	for i := 1; i < len(l); i++ {
		if Distance(l[i-1], l[i]) != 1 {
			t.Errorf("line not contiguous: %v", l)
		}
	}
}

func TestNorm(t *testing.T) {
	if Norm(-1) != 11 || Norm(12) != 0 || Dir(11).Turn(2) != 1 || Dir(0).Turn(-3) != 9 {
		t.Error("Norm/Turn wrap wrongly")
	}
}

func TestOffsetFromTheLineOfFlight(t *testing.T) {
	cases := []struct {
		d     Dir
		b     Hex
		ahead bool
		off   int
	}{
		{0, Hex{0, -3}, true, 0},
		{0, Hex{1, -3}, true, 1},
		{0, Hex{-2, -2}, true, 2},
		{0, Hex{0, 2}, false, 0},
		{0, Hex{1, 0}, false, 1}, // SE neighbour is behind the square line
		{1, Hex{1, -1}, true, 0}, // both front hexes of a hexspine facing are on the path
		{1, Hex{0, -1}, true, 0},
		{1, Hex{2, -4}, true, 0},
		{1, Hex{2, -2}, true, 1},
		{1, Hex{3, -2}, true, 2},
		{6, Hex{0, 3}, true, 0}, // facing south
		{6, Hex{1, 2}, true, 1},
		{3, Hex{2, -1}, true, 0}, // facing east, across the grain
		{3, Hex{3, -2}, true, 0},
	}
	for _, c := range cases {
		ahead, off := Offset(Hex{}, c.d, c.b)
		if ahead != c.ahead || off != c.off {
			t.Errorf("Offset(facing %v, %v) = %v,%d want %v,%d", c.d, c.b, ahead, off, c.ahead, c.off)
		}
	}
	// Every hex on a plane's own flight path is ahead with offset 0, on every facing.
	for d := Dir(0); d < 12; d++ {
		h, p := Hex{}, RightFront
		for i := 0; i < 8; i++ {
			h, p = Forward(h, d, p)
			if ahead, off := Offset(Hex{}, d, h); !ahead || off != 0 {
				t.Errorf("facing %v: path hex %v gives ahead=%v off=%d", d, h, ahead, off)
			}
		}
	}
}

func TestAppendTrackLeavesOutRepeats(t *testing.T) {
	a, b, c := Hex{0, 0}, Hex{0, 1}, Hex{1, 1}
	got := AppendTrack(AppendTrack(nil, a, a, b), b, c, c)
	if len(got) != 3 || got[0] != a || got[1] != b || got[2] != c {
		t.Errorf("AppendTrack: %v", got)
	}
	if got := AppendTrack(nil); got != nil {
		t.Errorf("nothing appended to nil: %v", got)
	}
}

// The names of facings and hexes read as their fmt formats always printed them: reports, receipts and
// archives compare them byte for byte.
func TestDirAndHexStringsMatchFmt(t *testing.T) {
	for d := Dir(-30); d <= 30; d++ {
		if got, want := d.String(), fmt.Sprintf("%03d", d.Degrees()); got != want {
			t.Errorf("Dir(%d).String() = %q, want %q", d, got, want)
		}
	}
	for _, h := range []Hex{{0, 0}, {3, -7}, {-12, 40}, {-1 << 62, 1<<62 - 1}} {
		if got, want := h.String(), fmt.Sprintf("(%d,%d)", h.Q, h.R); got != want {
			t.Errorf("%v.String() = %q, want %q", [2]int{h.Q, h.R}, got, want)
		}
		if got := string(h.Append([]byte("at "))); got != "at "+h.String() {
			t.Errorf("Append = %q", got)
		}
	}
}

// AtClock finds a hex at a range and clock position, the first by Q then R, as Clock and Distance see it.
func TestAtClock(t *testing.T) {
	from := Hex{Q: 0, R: 4}
	for dist := 1; dist <= 6; dist++ {
		for clock := 1; clock <= 12; clock++ {
			h, ok := AtClock(from, 0, clock, dist)
			if !ok {
				continue
			}
			if Distance(from, h) != dist || Clock(from, 0, h) != clock {
				t.Errorf("AtClock(%d o'clock, %d) = %v: %d away at %d o'clock", clock, dist, h, Distance(from, h), Clock(from, 0, h))
			}
		}
	}
	if h, ok := AtClock(from, 0, 12, 3); !ok || h != (Hex{Q: 0, R: 1}) {
		t.Errorf("3 hexes dead ahead of a hex facing north: %v %v", h, ok)
	}
}

// A unit of the viewing side is the viewer's own when the viewer flies it, and friendly when another
// player of the side does: the picture colours the two apart.
func TestOwnUnit(t *testing.T) {
	if OwnUnit("ann", "ann") != Own || OwnUnit("bob", "ann") != Friendly {
		t.Error("OwnUnit")
	}
}
