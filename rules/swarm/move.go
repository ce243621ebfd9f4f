package swarm

import (
	"fmt"
	"strconv"
	"strings"

	hexmap "sortie/rules/hex"
	"sortie/rules/swarm/notation"
)

// Tack is where a squadron's two tacks stand on its plotting board (seed 004, "Plotting Maneuvers"): the
// speed-and-manoeuvre tack on a 3×3 board (rows speed 1-3, columns L S R) and the altitude tack on H, M
// or L.
type Tack struct {
	Speed int    `json:"speed"`
	Man   string `json:"man"`  // L, S or R
	Band  string `json:"band"` // H, M or L
}

// String prints the tack as the seed does: "2 S L".
func (t Tack) String() string { return string(t.Append(nil)) }

// Append appends the tack as String prints it to b.
func (t Tack) Append(b []byte) []byte {
	b = strconv.AppendInt(b, int64(t.Speed), 10)
	return append(append(append(append(b, ' '), t.Man...), ' '), t.Band...)
}

// TackOf converts the notation's tack.
func TackOf(p notation.SwarmTack) Tack {
	return Tack{Speed: p.Speed, Man: string(rune(p.Man)), Band: string(rune(p.Band))}
}

// column is the manoeuvre's column on the board: L 0, S 1, R 2.
func column(man string) int { return strings.Index("LSR", man) }

// level is the band's place on the altitude board: H 0, M 1, L 2.
func level(band string) int { return strings.Index("HML", band) }

// Valid reports whether the tack is a cell of the board.
func (t Tack) Valid() bool {
	return t.Speed >= 1 && t.Speed <= 3 && len(t.Man) == 1 && column(t.Man) >= 0 && len(t.Band) == 1 && level(t.Band) >= 0
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func clamp(x, lo, hi int) int { return min(max(x, lo), hi) }

// Reachable lists the speed-and-manoeuvre cells the tack may move to from t on a board whose speeds above
// maxSpeed are crossed off: t itself and its neighbours on the board, the diagonals included ("move the
// tack one space on the plotting board to any adjacent maneuver").
func Reachable(t Tack, maxSpeed int) []string {
	var out []string
	for s := max(t.Speed-1, 1); s <= min(t.Speed+1, maxSpeed); s++ {
		for c := max(column(t.Man)-1, 0); c <= min(column(t.Man)+1, 2); c++ {
			out = append(out, fmt.Sprintf("%d %c", s, "LSR"[c]))
		}
	}
	return out
}

// Position is where a squadron is on the map: its hex, and the hex corner its base points to (an odd
// hex.Dir: 030, 090, 150, 210, 270 or 330).
type Position struct {
	Hex    hexmap.Hex `json:"hex"`
	Facing hexmap.Dir `json:"facing"`
}

// Segment returns the hex one movement segment takes a squadron into from h facing corner d: along the
// hexside between the two front hexes (h's neighbours at d-30° and d+30°) into the hex beyond.
func Segment(h hexmap.Hex, d hexmap.Dir) hexmap.Hex {
	return h.Neighbor(d.Turn(-1)).Neighbor(d.Turn(1))
}

// TurnFacing returns the facing after one facing change to side: 60°, from one hex corner to the next.
func TurnFacing(d hexmap.Dir, side notation.Side) hexmap.Dir { return d.Turn(2 * int(side)) }

// rotateLeft turns an axial vector 60° anticlockwise.
func rotateLeft(v hexmap.Hex) hexmap.Hex { return hexmap.Hex{Q: v.Q + v.R, R: -v.Q} }

// InFieldOfFire reports whether hex b lies in the field of fire of a squadron in hex a facing corner d
// (seed 004, "Targeting and Firepower"): the occupied hex, and the 60° arc forward bounded by the lines
// through the two front hexes, edges included. The test is exact: the vector is turned in 60° steps until
// the facing is 030, where the arc is the cone between north and north-east, q ≥ 0 and q + r ≤ 0.
func InFieldOfFire(a hexmap.Hex, d hexmap.Dir, b hexmap.Hex) bool {
	v := b.Sub(a)
	for i := 0; i < (int(d)-1)/2; i++ {
		v = rotateLeft(v)
	}
	return v.Q >= 0 && v.Q+v.R <= 0
}

// Problem is one broken rule, positioned in the order text (Col counts runes from 1; 0 is the whole
// order).
type Problem struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	Col        int    `json:"column"`
	Suggestion string `json:"suggestion,omitempty"`
}

// Step is one token of a path flown: after a segment, the hex entered; after a facing change, the new
// facing.
type Step struct {
	Segment int        `json:"segment"` // segments flown so far this turn
	Token   string     `json:"token"`   // "1" for a segment, "L" or "R" for a facing change
	Hex     hexmap.Hex `json:"hex"`
	Facing  hexmap.Dir `json:"facing"`
}

// MoveResult is one turn flown.
type MoveResult struct {
	Tack    Tack         `json:"tack"` // the tack position plotted for this turn
	Steps   []Step       `json:"steps"`
	End     Position     `json:"end"`
	Hexes   []hexmap.Hex `json:"hexes"` // the start hex and every hex entered, in order
	Changes int          `json:"changes"`
	Errors  []Problem    `json:"errors"`
}

// Legal reports whether the turn broke no rule.
func (m MoveResult) Legal() bool { return len(m.Errors) == 0 }

// Move flies one turn of a squadron of type t whose tack stood at from, starting at start (seed 004,
// "Plotting Maneuvers" and "Moving Aircraft"; docs/swarm.md). It checks every rule and names each broken
// one with its column, and still flies the path as written, so a receipt can show what was meant:
//
//   - the speed-and-manoeuvre tack moves at most one space on the board (the eight neighbours, or not at
//     all), and not onto a speed crossed off for the type; the altitude tack moves at most one band;
//   - the path flies exactly the plotted speed in segments;
//   - S makes no facing change; L and R make at least one, all to their side;
//   - facing changes are earned one for each segment flown, and may be spent at any later point of the
//     turn: at every change, the changes so far may not outnumber the segments flown so far.
func Move(t *Type, from Tack, start Position, turn notation.SwarmTurn) MoveResult {
	to := TackOf(turn.Tack)
	r := MoveResult{Tack: to, Steps: []Step{}, Errors: []Problem{}, End: start, Hexes: []hexmap.Hex{start.Hex}}
	fail := func(col int, code, suggest, format string, args ...any) {
		r.Errors = append(r.Errors, Problem{Code: code, Col: col, Suggestion: suggest, Message: fmt.Sprintf(format, args...)})
	}
	maxSpeed := t.MaxSpeed()
	if to.Speed > maxSpeed {
		fail(turn.Col, "speed-crossed-off", "", "the %s (%d mph) has speeds 1 to %d on its board: speed %d is crossed off",
			t.Name, t.MPH, maxSpeed, to.Speed)
	}
	near := Tack{Speed: clamp(clamp(to.Speed, from.Speed-1, from.Speed+1), 1, maxSpeed),
		Man:  string("LSR"[clamp(column(to.Man), column(from.Man)-1, column(from.Man)+1)]),
		Band: string("HML"[clamp(level(to.Band), level(from.Band)-1, level(from.Band)+1)])}
	if absInt(to.Speed-from.Speed) > 1 || absInt(column(to.Man)-column(from.Man)) > 1 {
		fail(turn.Col, "tack-move", near.String(), "the tack moves at most one space a turn: from %d %s it reaches %s, not %d %s",
			from.Speed, from.Man, strings.Join(Reachable(from, maxSpeed), ", "), to.Speed, to.Man)
	}
	if absInt(level(to.Band)-level(from.Band)) > 1 {
		fail(turn.Col, "band-move", near.String(), "the altitude tack moves one band a turn at most: from %s it reaches %s or Medium, not %s",
			bandName(from.Band), bandName(from.Band), bandName(to.Band))
	}
	if n := turn.Segments(); n != to.Speed {
		col := turn.Col
		if len(turn.Path) > 0 && !turn.DefaultPath {
			col = turn.Path[0].Col
		}
		fail(col, "path-length", "", "speed %d flies exactly %d segment%s a turn; this path flies %d",
			to.Speed, to.Speed, plural(to.Speed), n)
	}
	pos := start
	segs := 0
	for _, s := range turn.Path {
		if s.N > 0 {
			for k := 0; k < s.N; k++ {
				pos.Hex = Segment(pos.Hex, pos.Facing)
				segs++
				r.Steps = append(r.Steps, Step{Segment: segs, Token: "1", Hex: pos.Hex, Facing: pos.Facing})
				r.Hexes = append(r.Hexes, pos.Hex)
			}
			continue
		}
		r.Changes++
		side := "R"
		if s.Turn == notation.Left {
			side = "L"
		}
		switch {
		case to.Man == "S":
			fail(s.Col, "straight-turn", "", "a straight (S) tack makes no facing change: plot L or R on the board to turn")
		case side != to.Man:
			fail(s.Col, "turn-side", to.Man, "a %s tack turns %s only: this change is to the %s", to.Man, sideName(to.Man), sideName(side))
		}
		if r.Changes > segs {
			fail(s.Col, "unearned-turn", "", "facing changes are earned one per segment flown: this is change %d after %d segment%s",
				r.Changes, segs, plural(segs))
		}
		pos.Facing = TurnFacing(pos.Facing, s.Turn)
		r.Steps = append(r.Steps, Step{Segment: segs, Token: side, Hex: pos.Hex, Facing: pos.Facing})
	}
	if to.Man != "S" && r.Changes == 0 {
		sug := ""
		if to.Speed >= 1 {
			sug = fmt.Sprintf("%s %d %s", to, to.Speed, to.Man)
		}
		fail(turn.Col, "needs-turn", sug, "a %s tack must make at least one facing change %s during the move", to.Man, sideName(to.Man))
	}
	r.End = pos
	return r
}

func sideName(man string) string {
	if man == "L" {
		return "left"
	}
	return "right"
}

func bandName(b string) string {
	switch b {
	case "H":
		return "High"
	case "M":
		return "Medium"
	}
	return "Low"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
