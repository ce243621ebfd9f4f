package swarm

import (
	"sort"
	"strings"

	"sortie/parser"
	hexmap "sortie/rules/hex"
	"sortie/rules/swarm/notation"
)

// The computer pilot (docs/bots.md): for each squadron with the enemy in sight it tries every tack the
// board allows from where the tacks stand (speed and manoeuvre one space, altitude one band) with every
// path that tack can fly, and picks the turn that scores best on the side's View alone:
//
//	score = expected pips it could fill at the end of the turn (its firepower in dice, each scoring at
//	        the range or more, against the nearest enemy in its field of fire in its band)
//	      − ThreatWeight × expected pips the enemy could fill on it (each enemy in the same band with it
//	        in that enemy's field of fire, at 2D6: the enemy's firepower is not seen)
//	      − ApproachWeight × hexes to the nearest enemy (a band apart counts 3 hexes)
//	      + BombWeight when a bomber with bombs aboard passes over an enemy ground target (with BOMB)
//
// An enemy may move before or after the squadron (initiative): it is weighed half where it is seen and
// half two segments straight on (cruising speed: its tacks are not seen). A squadron without the enemy in
// sight flies its ready-made course.

// Weights of the pilot's evaluation.
const (
	ThreatWeight   = 1.2
	ApproachWeight = 0.05
	BombWeight     = 2.0
)

// paths lists every path of speed segments for a manoeuvre: S straight; L or R with one to speed facing
// changes, each after at least as many segments as changes so far.
func paths(speed int, man string) [][]notation.SwarmStep {
	if man == "S" {
		return [][]notation.SwarmStep{{{N: speed}}}
	}
	side := notation.Right
	if man == "L" {
		side = notation.Left
	}
	var out [][]notation.SwarmStep
	var walk func(segs, changes int, cur []notation.SwarmStep)
	walk = func(segs, changes int, cur []notation.SwarmStep) {
		if segs == speed {
			if changes > 0 {
				out = append(out, append([]notation.SwarmStep(nil), cur...))
			}
		} else {
			walk(segs+1, changes, appendSeg(cur))
		}
		if changes < segs {
			walk(segs, changes+1, append(append([]notation.SwarmStep(nil), cur...), notation.SwarmStep{Turn: side}))
		}
	}
	walk(0, 0, nil)
	return out
}

// appendSeg adds one segment to a path, joining it to a run that ends it.
func appendSeg(cur []notation.SwarmStep) []notation.SwarmStep {
	out := append([]notation.SwarmStep(nil), cur...)
	if n := len(out); n > 0 && out[n-1].N > 0 {
		out[n-1].N++
		return out
	}
	return append(out, notation.SwarmStep{N: 1})
}

// Candidates lists the legal one-turn orders a pilot considers for a squadron.
func Candidates(d *Data, v *View, q *Squadron) []notation.SwarmTurn {
	t, ok := d.Type(q.Type)
	if !ok {
		return nil
	}
	var out []notation.SwarmTurn
	bands := "HML"
	bi := strings.Index(bands, q.Tack.Band)
	for _, cell := range Reachable(q.Tack, t.MaxSpeed()) {
		speed, man := int(cell[0]-'0'), cell[2:]
		for b := max(bi-1, 0); b <= min(bi+1, 2); b++ {
			tack := notation.SwarmTack{Speed: speed, Man: notation.SwarmManoeuvre(man[0]), Band: notation.SwarmBand(bands[b])}
			for _, p := range paths(speed, man) {
				turn := notation.SwarmTurn{Tack: tack, Path: p, Fire: parser.Fire{Mode: parser.FireAny}}
				if Move(t, q.Tack, q.Pos, turn).Legal() {
					out = append(out, turn)
				}
			}
		}
	}
	return out
}

// Score rates one turn for a squadron on the side's view (the evaluation above).
func Score(d *Data, v *View, q *Squadron, turn notation.SwarmTurn) float64 {
	t, ok := d.Type(q.Type)
	if !ok {
		return 0
	}
	m := Move(t, q.Tack, q.Pos, turn)
	band := string(rune(turn.Tack.Band))
	fp := float64(t.Firepower(q.Filled))
	best, threat, nearest := 0.0, 0.0, 1e9
	for _, e := range v.Enemies {
		// Whether the enemy moves before or after this squadron is the initiative's: weigh where it is and
		// where two segments straight on would take it alike.
		ahead := Segment(Segment(e.Pos.Hex, e.Pos.Facing), e.Pos.Facing)
		for _, at := range [2]hexmap.Hex{e.Pos.Hex, ahead} {
			dist := hexmap.Distance(m.End.Hex, at)
			apart := dist
			if e.Band != band {
				apart += 3
			}
			nearest = min(nearest, float64(apart))
			if e.Band != band {
				continue
			}
			rng := max(dist, 1)
			if rng > d.House.MaxRange {
				continue
			}
			p := float64(7-rng) / 6 / 2
			if InFieldOfFire(m.End.Hex, m.End.Facing, at) {
				best = max(best, 2*fp*p)
			}
			if InFieldOfFire(at, e.Pos.Facing, m.End.Hex) {
				threat += 2 * p
			}
		}
	}
	score := best - ThreatWeight*threat
	if nearest < 1e9 {
		score -= ApproachWeight * nearest
	}
	if turn.Bomb {
		score += BombWeight
	}
	return score
}

// Pilot writes orders for every squadron of a player from the side's view alone: for a squadron with the
// enemy in sight, the best-scoring legal turn (with BOMB when a bomber with bombs aboard flies over an
// enemy target); for one without, its ready-made course.
func Pilot(d *Data, v View, player string) map[string]string {
	out := map[string]string{}
	for i := range v.Own {
		q := &v.Own[i]
		if q.Player != player || !q.InPlay() || len(q.Queue) > 0 {
			continue
		}
		t, ok := d.Type(q.Type)
		if !ok {
			continue
		}
		if !q.Contact {
			out[q.Callsign] = readyLine(q)
			continue
		}
		cands := Candidates(d, &v, q)
		if len(cands) == 0 {
			out[q.Callsign] = readyLine(q)
			continue
		}
		for k := range cands {
			if t.Bomber && !q.Bombed && overTarget(&v, q, Move(t, q.Tack, q.Pos, cands[k]).Hexes) {
				cands[k].Bomb = true
			}
		}
		scores := make([]float64, len(cands))
		for k, c := range cands {
			scores[k] = Score(d, &v, q, c)
		}
		idx := make([]int, len(cands))
		for k := range idx {
			idx[k] = k
		}
		sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
		out[q.Callsign] = turnText(cands[idx[0]])
	}
	return out
}

// overTarget reports whether a path passes over an enemy ground target still standing.
func overTarget(v *View, q *Squadron, hexes []hexmap.Hex) bool {
	for _, tg := range v.Targets {
		if tg.Side == q.Side || tg.Destroyed() {
			continue
		}
		for _, h := range hexes {
			if h == tg.Hex {
				return true
			}
		}
	}
	return false
}

// PilotOrders is the computer pilot's orders for a player's squadrons (ruleset.Piloted), from the
// player's side's view only.
func (g *game) PilotOrders(player string) map[string]string {
	return Pilot(g.d, ViewOf(g.st, g.st.SideOf(player)), player)
}
