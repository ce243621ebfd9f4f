package swarm

import (
	"math"
	"strings"
	"testing"

	"sortie/parser"
	hexmap "sortie/rules/hex"
	"sortie/rules/swarm/notation"
)

func testData(t *testing.T) *Data {
	t.Helper()
	d, err := DefaultData()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func typeOf(t *testing.T, key string) *Type {
	t.Helper()
	ty, ok := testData(t).Type(key)
	if !ok {
		t.Fatalf("no type %s", key)
	}
	return ty
}

func turnOf(t *testing.T, text string) notation.SwarmTurn {
	t.Helper()
	o, ds := notation.ParseSwarmOrder(text)
	if parser.HasErrors(ds) || len(o.Turns) != 1 {
		t.Fatalf("%q: %v", text, ds)
	}
	return o.Turns[0]
}

func tackOf(t *testing.T, text string) Tack {
	t.Helper()
	p, ds := notation.ParseSwarmTack(text)
	if parser.HasErrors(ds) {
		t.Fatalf("%q: %v", text, ds)
	}
	return TackOf(p)
}

func codes(ps []Problem) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Code)
	}
	return strings.Join(s, " ")
}

// The seed's own example: "(2,S,L), could move his tacks to (3,R,M)" — a diagonal step on the board and
// one band up. A type fast enough for speed 3 flies it; the path is the seed's "climbing fast right".
func TestSwarmSeedExampleTackMove(t *testing.T) {
	jet := typeOf(t, "me-262a")
	m := Move(jet, tackOf(t, "2 S L"), Position{Facing: 1}, turnOf(t, "3 R M 1 R 2"))
	if !m.Legal() {
		t.Fatalf("the seed's example is illegal: %v", m.Errors)
	}
	if m.Tack != (Tack{3, "R", "M"}) || m.End != (Position{hexmap.Hex{Q: 5, R: -4}, 3}) || m.Changes != 1 {
		t.Errorf("seed example flew to %+v, tack %v", m.End, m.Tack)
	}
	// The illegal moves around it: two spaces on the board, two bands, and the same move from a cell two
	// spaces away.
	for _, c := range []struct{ from, plot, code string }{
		{"2 S L", "3 R H 1 R 2", "band-move"},
		{"1 L L", "3 R M 1 R 2", "tack-move"},
		{"1 S L", "3 R M 1 R 2", "tack-move"},
		{"2 L L", "3 R M 1 R 2", "tack-move"},
		{"2 S H", "3 R L 1 R 2", "band-move"},
		{"1 L H", "3 R L 1 R 2", "tack-move band-move"},
	} {
		m := Move(jet, tackOf(t, c.from), Position{Facing: 1}, turnOf(t, c.plot))
		if got := codes(m.Errors); got != c.code {
			t.Errorf("(%s) to %s: errors %q, want %q", c.from, c.plot, got, c.code)
		}
	}
	// The same example on a Spitfire (362 mph): speed 3 is crossed off its board.
	m = Move(typeOf(t, "spitfire-i"), tackOf(t, "2 S L"), Position{Facing: 1}, turnOf(t, "3 R M 1 R 2"))
	if codes(m.Errors) != "speed-crossed-off" {
		t.Errorf("a Spitfire at speed 3: %v", m.Errors)
	}
}

// Every pair of cells on the 3x3 board: a move is legal exactly when it is a king's move (or none), and
// the altitude tack moves at most one band.
func TestSwarmTackBoardAdjacency(t *testing.T) {
	jet := typeOf(t, "me-262a")
	for fs := 1; fs <= 3; fs++ {
		for _, fm := range "LSR" {
			for _, fb := range "HML" {
				from := Tack{fs, string(fm), string(fb)}
				for ts := 1; ts <= 3; ts++ {
					for _, tm := range "LSR" {
						for _, tb := range "HML" {
							to := Tack{ts, string(tm), string(tb)}
							plot := to.String() + " " + strings.Repeat("1 ", ts)
							if tm != 'S' {
								plot += string(tm)
							}
							m := Move(jet, from, Position{Facing: 1}, turnOf(t, plot))
							board := absInt(fs-ts) <= 1 && absInt(column(from.Man)-column(to.Man)) <= 1
							band := absInt(level(from.Band)-level(to.Band)) <= 1
							want := ""
							if !board {
								want = "tack-move"
							}
							if !band {
								want = strings.TrimSpace(want + " band-move")
							}
							if got := codes(m.Errors); got != want {
								t.Errorf("%v to %v: %q, want %q", from, to, got, want)
							}
						}
					}
				}
			}
		}
	}
	if got := strings.Join(Reachable(Tack{1, "L", "H"}, 3), ","); got != "1 L,1 S,2 L,2 S" {
		t.Errorf("reachable from a corner: %s", got)
	}
	if got := strings.Join(Reachable(Tack{2, "S", "M"}, 2), ","); got != "1 L,1 S,1 R,2 L,2 S,2 R" {
		t.Errorf("reachable with speed 3 crossed off: %s", got)
	}
}

// Speeds per type: one hex for every 150 mph, floor(mph/150), at least 1, at most 3.
func TestSwarmSpeedsCrossedOff(t *testing.T) {
	d := testData(t)
	for key, want := range map[string]int{"he-111h": 1, "ju-87b": 1, "b-17g": 1, "spitfire-i": 2, "p-51d": 2, "ta-152h": 3, "me-262a": 3} {
		ty, _ := d.Type(key)
		if ty.MaxSpeed() != want || want != min(max(ty.MPH/150, 1), 3) {
			t.Errorf("%s (%d mph): speeds 1-%d, want 1-%d", key, ty.MPH, ty.MaxSpeed(), want)
		}
	}
	he := typeOf(t, "he-111h")
	if m := Move(he, Tack{1, "S", "M"}, Position{Facing: 1}, turnOf(t, "2 S M 2")); codes(m.Errors) != "speed-crossed-off" {
		t.Errorf("He 111 at speed 2: %v", m.Errors)
	}
	if m := Move(he, Tack{1, "S", "M"}, Position{Facing: 1}, turnOf(t, "1 R M 1 R")); !m.Legal() {
		t.Errorf("He 111 turning at speed 1: %v", m.Errors)
	}
}

// One segment: from h facing a corner, along the hexside between the two front hexes into the hex beyond,
// two hexes of distance away; the two front hexes are both next to it.
func TestSwarmSegmentGeometry(t *testing.T) {
	h := hexmap.Hex{Q: 3, R: -2}
	for d := hexmap.Dir(1); d < 12; d += 2 {
		n := Segment(h, d)
		l, r := h.Neighbor(d.Turn(-1)), h.Neighbor(d.Turn(1))
		if hexmap.Distance(h, n) != 2 || hexmap.Distance(l, n) != 1 || hexmap.Distance(r, n) != 1 {
			t.Errorf("facing %s: segment to %v, front hexes %v %v", d, n, l, r)
		}
		if b := hexmap.Bearing(h, n); math.Abs(b-float64(d.Degrees())) > 1e-6 {
			t.Errorf("facing %s: the segment's bearing is %.3f", d, b)
		}
		if TurnFacing(d, notation.Right) != d.Turn(2) || TurnFacing(d, notation.Left) != d.Turn(-2) {
			t.Errorf("a facing change is 60 degrees, one corner to the next")
		}
	}
}

// Facing changes are earned one per segment flown and may be spent at any later point of the turn; L and
// R need at least one change, to their side; S makes none; the path flies exactly the speed.
func TestSwarmFacingChangesAndPath(t *testing.T) {
	jet := typeOf(t, "me-262a")
	from := Tack{2, "S", "M"}
	for _, c := range []struct{ plot, want string }{
		{"2 R M 2 R R", ""},
		{"2 R M 1 R 1 R", ""},
		{"2 R M 1 R R 1", "unearned-turn"},
		{"2 R M R 2", "unearned-turn"},
		{"3 R M 1 R 1 R 1 R", ""},
		{"3 R M 3 R R R", ""},
		{"2 R M 2", "needs-turn"},
		{"2 L M 1 R 1", "turn-side"},
		{"2 L M 1 L 1 R", "turn-side"},
		{"2 S M 1 L 1", "straight-turn"},
		{"2 S M 1", "path-length"},
		{"3 S M 2", "path-length"},
		{"1 S M 1 1", "path-length"},
		{"2 R M", ""}, // the default path: straight, then one change at the end
	} {
		m := Move(jet, from, Position{Facing: 1}, turnOf(t, c.plot))
		if got := codes(m.Errors); got != c.want {
			t.Errorf("%s: %q, want %q (%v)", c.plot, got, c.want, m.Errors)
		}
	}
	// Where the errors point: the change that was not earned.
	m := Move(jet, from, Position{Facing: 1}, turnOf(t, "2 R M 1 R R 1"))
	if len(m.Errors) != 1 || m.Errors[0].Col != 11 {
		t.Errorf("unearned change at column 11: %+v", m.Errors)
	}
}

// The field of fire: the occupied hex, and the 60° arc forward between the lines through the two front
// hexes, edges included — checked against the bearing of every hex within 8 hexes, for every facing.
func TestSwarmFieldOfFire(t *testing.T) {
	a := hexmap.Hex{Q: -1, R: 2}
	for d := hexmap.Dir(1); d < 12; d += 2 {
		if !InFieldOfFire(a, d, a) {
			t.Errorf("facing %s: the occupied hex is in the field of fire", d)
		}
		front := []hexmap.Hex{a.Neighbor(d.Turn(-1)), a.Neighbor(d.Turn(1)), Segment(a, d), Segment(Segment(a, d), d)}
		for _, h := range front {
			if !InFieldOfFire(a, d, h) {
				t.Errorf("facing %s: %v (front hexes and the line beyond) must be in the field", d, h)
			}
		}
		for _, h := range []hexmap.Hex{a.Neighbor(d.Turn(3)), a.Neighbor(d.Turn(-3)), a.Neighbor(d.Turn(5))} {
			if InFieldOfFire(a, d, h) {
				t.Errorf("facing %s: %v (side and rear) must be outside the field", d, h)
			}
		}
		for q := -8; q <= 8; q++ {
			for r := -8; r <= 8; r++ {
				b := hexmap.Hex{Q: a.Q + q, R: a.R + r}
				if b == a || hexmap.Distance(a, b) > 8 {
					continue
				}
				rel := math.Mod(hexmap.Bearing(a, b)-float64(d.Degrees())+540, 360) - 180
				want := math.Abs(rel) <= 30+1e-9
				if got := InFieldOfFire(a, d, b); got != want {
					t.Errorf("facing %s, %v at %.1f° off the nose: in field %v, want %v", d, b, rel, got, want)
				}
			}
		}
	}
}

// Firepower falls 3D6 → 2D6 → 1D6 as the pips are filled, by the type's steps; 0 when all are filled.
func TestSwarmFirepowerSteps(t *testing.T) {
	for key, want := range map[string]string{"spitfire-i": "3322110", "do-17z": "2211110", "b-17g": "322211110", "fw-190a": "3332210"} {
		ty := typeOf(t, key)
		var got strings.Builder
		for f := 0; f <= ty.Pips(); f++ {
			got.WriteByte(byte('0' + ty.Firepower(f)))
		}
		if got.String() != want {
			t.Errorf("%s: firepower by pips filled %s, want %s", key, got.String(), want)
		}
	}
	sp := typeOf(t, "spitfire-i")
	if sp.FirstPipAt(2) != 2 || sp.FirstPipAt(1) != 4 || sp.FirstPipAt(3) != 0 || typeOf(t, "do-17z").FirstPipAt(3) != -1 {
		t.Errorf("FirstPipAt")
	}
}

// The house evasive-save chart is data, labelled as the house's; the seed's bombing numbers are its own.
func TestSwarmHouseTables(t *testing.T) {
	d := testData(t)
	if !strings.Contains(d.House.Evasion.Label, "house") || !strings.Contains(d.House.Evasion.Label, "lost") {
		t.Errorf("the evasive-save chart must say it is a house chart: %q", d.House.Evasion.Label)
	}
	for rng, want := range map[int]int{1: 6, 2: 5, 3: 4, 4: 3, 5: 3, 6: 2, 9: 2} {
		if got := SaveNeed(d.House.Evasion.Need, rng); got != want {
			t.Errorf("save need at range %d: %d, want %d", rng, got, want)
		}
	}
	if d.House.Bombing["H"] != 6 || d.House.Bombing["M"] != 5 || d.House.Bombing["L"] != 4 || d.House.Durable != 1 {
		t.Errorf("seed 004's numbers: %+v", d.House)
	}
	if !Scores(3, 3) || Scores(2, 3) || !Evades(4, 1, 5) || Evades(3, 1, 5) {
		t.Errorf("a die scores if it equals or beats the range; a save if die + modifier equals or beats the need")
	}
	for _, k := range d.TypeKeys() {
		ty, _ := d.Type(k)
		if ty.Source == "" || ty.Pips() < 1 {
			t.Errorf("%s: no source or no pips", k)
		}
	}
}
