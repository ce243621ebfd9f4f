package afd

import (
	"slices"

	"sortie/rules/afd/tables"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// grid is a spatial index of planes by hex, so spotting and fire look only at planes nearby: the work
// per turn grows with the number of planes times their neighbours, not with its square. The planes are
// filed by square cells of hexes, in one list cell by cell.
type grid struct {
	cell       int
	q0, r0     int   // the first cell's coordinates
	cols, rows int   // cells across and down
	start      []int // the planes of cell c are items[start[c]:start[c+1]]
	items      []int
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// newGrid indexes hexes in square cells of the given size: a query of radius r looks at about
// (2r/cell+2)² cells, so the cell is best about the radius the index is asked for. Planes spread so far
// apart that such cells would far outnumber them are filed in larger cells.
func newGrid(hexes []hexmap.Hex, cell int) *grid {
	g := &grid{}
	g.build(hexes, cell)
	return g
}

// build indexes hexes as newGrid does, reusing the grid's lists.
func (g *grid) build(hexes []hexmap.Hex, cell int) {
	g.cell = cell
	g.start, g.items = g.start[:0], g.items[:0]
	if len(hexes) == 0 {
		return
	}
	minQ, maxQ, minR, maxR := hexes[0].Q, hexes[0].Q, hexes[0].R, hexes[0].R
	for _, h := range hexes[1:] {
		minQ, maxQ = min(minQ, h.Q), max(maxQ, h.Q)
		minR, maxR = min(minR, h.R), max(maxR, h.R)
	}
	for {
		g.q0, g.r0 = floorDiv(minQ, g.cell), floorDiv(minR, g.cell)
		g.cols, g.rows = floorDiv(maxQ, g.cell)-g.q0+1, floorDiv(maxR, g.cell)-g.r0+1
		if g.cols*g.rows <= 4*len(hexes)+64 {
			break
		}
		g.cell *= 2
	}
	// Count the planes of each cell, turn the counts into where each cell's planes begin, file the
	// planes (moving each cell's mark to its end, the next cell's beginning), and move the marks back.
	cells := g.cols * g.rows
	g.start = slices.Grow(g.start[:0], cells+1)[:cells+1]
	clear(g.start)
	for _, h := range hexes {
		g.start[g.cellOf(h)]++
	}
	at := 0
	for c := range cells {
		at, g.start[c] = at+g.start[c], at
	}
	g.start[cells] = at
	g.items = slices.Grow(g.items[:0], len(hexes))[:len(hexes)]
	for i, h := range hexes {
		c := g.cellOf(h)
		g.items[g.start[c]] = i
		g.start[c]++
	}
	copy(g.start[1:], g.start[:cells])
	g.start[0] = 0
}

// cellOf is the index of the cell of an indexed hex.
func (g *grid) cellOf(h hexmap.Hex) int {
	return (floorDiv(h.Q, g.cell)-g.q0)*g.rows + floorDiv(h.R, g.cell) - g.r0
}

// near calls fn for every indexed plane within r hexes of h, cell by cell and in index order within
// each cell.
func (g *grid) near(h hexmap.Hex, r int, hexes []hexmap.Hex, fn func(i int)) {
	g.visit(h, r, hexes, func(i int) bool {
		fn(i)
		return true
	})
}

// anyNear reports whether ok holds for some indexed plane within r hexes of h, asking no further once
// it does.
func (g *grid) anyNear(h hexmap.Hex, r int, hexes []hexmap.Hex, ok func(i int) bool) bool {
	found := false
	g.visit(h, r, hexes, func(i int) bool {
		found = ok(i)
		return !found
	})
	return found
}

// visit calls fn for the indexed planes within r hexes of h, as near does, until fn returns false.
func (g *grid) visit(h hexmap.Hex, r int, hexes []hexmap.Hex, fn func(i int) bool) {
	if len(g.items) == 0 {
		return
	}
	q0, q1 := max(floorDiv(h.Q-r, g.cell)-g.q0, 0), min(floorDiv(h.Q+r, g.cell)-g.q0, g.cols-1)
	r0, r1 := max(floorDiv(h.R-r, g.cell)-g.r0, 0), min(floorDiv(h.R+r, g.cell)-g.r0, g.rows-1)
	for cq := q0; cq <= q1; cq++ {
		for cr := r0; cr <= r1; cr++ {
			c := cq*g.rows + cr
			for _, i := range g.items[g.start[c]:g.start[c+1]] {
				if hexmap.Distance(h, hexes[i]) <= r && !fn(i) {
					return
				}
			}
		}
	}
}

// MaxSpotRange is the farthest a plane can be seen, in hexes (docs/tables.md: spotting).
const MaxSpotRange = 40

// lineOfSight reports whether clouds leave a clear line between two planes: no hex on the straight line
// between them (their own hexes included) lies inside a cloud at the altitude the line has there.
func lineOfSight(clouds []Cloud, a Flight, b Flight) bool {
	if len(clouds) == 0 {
		return true
	}
	line := hexmap.Line(a.Hex, b.Hex)
	n := len(line) - 1
	for i, h := range line {
		alt := a.Alt
		if n > 0 {
			alt = a.Alt + (b.Alt-a.Alt)*i/n
		}
		for _, c := range clouds {
			if c.Contains(h, alt) {
				return false
			}
		}
	}
	return true
}

// lookout is one of a side's planes looking for enemies, with the parts of its spotting modifier that
// do not depend on the target (docs/tables.md; the classic errata): the pilot's quality, and -2
// inverted; and how much it climbed this turn.
type lookout struct {
	p     *Plane
	base  int
	climb int
}

func newLookout(p *Plane, climb int) lookout {
	m := pilotQualities[p.Pilot]
	if !upward(p.Flight.Bank) {
		m += tables.ModSpotterInverted
	}
	return lookout{p: p, base: m, climb: climb}
}

// modifier is the lookout's spotting modifier against a target: its own part, and +1 heading toward
// the target's altitude, -1 away.
func (l *lookout) modifier(tg *Plane) int {
	m := l.base
	dAlt := tg.Flight.Alt - l.p.Flight.Alt
	switch {
	case l.climb > 0 && dAlt > 0, l.climb < 0 && dAlt < 0:
		m += tables.ModTowardAltitude
	case l.climb > 0 && dAlt < 0, l.climb < 0 && dAlt > 0:
		m += tables.ModAwayAltitude
	}
	return m
}

// spotter is the best placed plane of a side to see an enemy.
type spotter struct {
	p     *Plane
	need  int
	mod   int
	dist  int
	found bool
}

// spotRolls is the most dice spotting can roll this turn: two to spot and two to identify each enemy
// in play that a side has not yet both spotted and identified (none without fog of war).
func spotRolls(st *State) int {
	if !st.Options.FogOfWar {
		return 0
	}
	n := 0
	for _, side := range st.Sides {
		known := st.Sight[side]
		for i := range st.Planes {
			e := &st.Planes[i]
			if s := known[e.Callsign]; e.InPlay() && e.Side != side && !(s.Spotted && s.Identified) {
				n += 4
			}
		}
	}
	return n
}

// spotScratch is what the spotting phase reuses from side to side within a turn: the planes in
// play, a side's lookouts, their hexes and their index.
type spotScratch struct {
	inPlay []*Plane
	own    []lookout
	hexes  []hexmap.Hex
	idx    grid
}

// sightRoll is a spotting or identifying attempt that needs a roll: two D6 rolled for label, whether
// they make need after mod (tables.Spotted), and the two rolls.
func (r *resolution) sightRoll(label string, need, mod int) (bool, []dice.Roll) {
	a := r.d.Roll(label, 6)
	b := r.d.Roll(label, 6)
	return tables.Spotted(need, a+b, mod), r.d.Log()[len(r.d.Log())-2:]
}

// spotPhase is the house spotting rule (docs/rulings.md: spotting and fog of war; docs/tables.md): each side
// makes one attempt a turn at each enemy in sight that it has not spotted, with its best placed plane;
// a spotted plane stays spotted while it is in sight; identification of the type is a second roll.
// Without fog of war every plane is spotted and identified. climbs holds how much each plane climbed
// this turn; the events are added to the turn's.
func (r *resolution) spotPhase(climbs map[string]int) {
	st, t, sc := r.ns, r.env.Tables, &r.spot
	// The lists are grown once to their most: every plane in play, and each side's lookouts among them.
	inPlay := slices.Grow(sc.inPlay[:0], len(st.Planes))
	for i := range st.Planes {
		if st.Planes[i].InPlay() {
			inPlay = append(inPlay, &st.Planes[i])
		}
	}
	sc.inPlay = inPlay
	if !st.Options.FogOfWar {
		for _, side := range st.Sides {
			for _, e := range inPlay {
				if e.Side != side {
					st.Sight[side][e.Callsign] = Sighting{Spotted: true, Identified: true, Turn: st.Turn}
				}
			}
		}
		return
	}
	events := r.events
	text := &r.text
	for _, side := range st.Sides {
		// Index this side's planes only: the lookouts.
		own, hexes := slices.Grow(sc.own[:0], len(inPlay)), slices.Grow(sc.hexes[:0], len(inPlay))
		for _, p := range inPlay {
			if p.Side == side {
				own = append(own, newLookout(p, climbs[p.Callsign]))
				hexes = append(hexes, p.Flight.Hex)
			}
		}
		sc.own, sc.hexes = own, hexes
		idx := &sc.idx
		idx.build(hexes, MaxSpotRange)
		known := st.Sight[side]
		if known != nil && len(known) == 0 {
			// A side that knows of no enemy yet (the first turn) will soon know of most of them.
			known = make(map[string]Sighting, len(inPlay)-len(own))
			st.Sight[side] = known
		}
		for _, e := range inPlay {
			if e.Side == side {
				continue
			}
			s := known[e.Callsign]
			// sees is whether a lookout could see the enemy, and its number to roll (need and mod).
			sees := func(sp *lookout) (need, dist int, ok bool) {
				if !lineOfSight(st.Clouds, sp.p.Flight, e.Flight) {
					return 0, 0, false
				}
				dist = hexmap.Distance(sp.p.Flight.Hex, e.Flight.Hex)
				need, ok = t.SpotNeed(dist, e.Flight.Alt-sp.p.Flight.Alt)
				return need, dist, ok
			}
			best := spotter{}
			if s.Spotted && s.Identified {
				// Spotted and identified already: all that matters is whether some plane still sees it.
				best.found = idx.anyNear(e.Flight.Hex, MaxSpotRange, hexes, func(i int) bool {
					_, _, ok := sees(&own[i])
					return ok
				})
			} else {
				idx.near(e.Flight.Hex, MaxSpotRange, hexes, func(i int) {
					sp := &own[i]
					need, dist, ok := sees(sp)
					if !ok {
						return
					}
					mod := sp.modifier(e)
					if !best.found || need-mod < best.need-best.mod || (need-mod == best.need-best.mod && sp.p.Callsign < best.p.Callsign) {
						best = spotter{p: sp.p, need: need, mod: mod, dist: dist, found: true}
					}
				})
			}
			crew, crewDist := "", 0
			if !best.found {
				crew, crewDist = crewSees(st, side, e)
			}
			switch {
			case crew != "" && !s.Spotted:
				s.Spotted, s.Turn = true, st.Turn
				events = append(events, Event{Turn: st.Turn, Kind: EvSpotted, Side: side, Plane: crew, Target: e.Callsign,
					Text: text.start().str(crew).str("'s flak crews spotted an enemy plane, ").str(e.Callsign).str(", at ").num(crewDist).str(" hexes").String()})
			case crew != "":
				s.Turn = st.Turn
			case !best.found && s.Spotted:
				s.Spotted = false
				events = append(events, Event{Turn: st.Turn, Kind: EvLostSight, Side: side, Target: e.Callsign,
					Text: text.start().str(side).str(" lost sight of ").str(e.Callsign).String()})
			case best.found && s.Spotted:
				s.Turn = st.Turn
			case best.found:
				ok := best.need == 0
				var rolls []dice.Roll
				if !ok {
					ok, rolls = r.sightRoll(text.start().str("turn ").num(st.Turn).str(" ").str(best.p.Callsign).str(" spots ").str(e.Callsign).str(": D6").String(), best.need, best.mod)
				}
				if ok {
					s.Spotted, s.Turn = true, st.Turn
					events = append(events, Event{Turn: st.Turn, Kind: EvSpotted, Side: side, Plane: best.p.Callsign, Target: e.Callsign, Dice: rolls,
						Text: text.start().str(best.p.Callsign).str(" spotted an enemy plane, ").str(e.Callsign).str(", at ").num(best.dist).str(" hexes").String()})
				}
			}
			if s.Spotted && !s.Identified && best.found {
				need, ok := t.IdentifyNeed(best.dist)
				if ok {
					hit := need == 0
					var rolls []dice.Roll
					if !hit {
						hit, rolls = r.sightRoll(text.start().str("turn ").num(st.Turn).str(" ").str(best.p.Callsign).str(" identifies ").str(e.Callsign).str(": D6").String(), need, best.mod)
					}
					if hit {
						s.Identified = true
						events = append(events, Event{Turn: st.Turn, Kind: EvIdentified, Side: side, Plane: best.p.Callsign, Target: e.Callsign, Dice: rolls,
							Text: text.start().str(best.p.Callsign).str(" identified ").str(e.Callsign).str(": ").str(r.typeName(e.Type)).String()})
					}
				}
			}
			if s != (Sighting{}) {
				known[e.Callsign] = s
			}
		}
	}
	r.events = events
}

// crewSees is the side's flak unit that sees an enemy plane, and at what distance: flak crews watch the
// sky within FlakSightRange hexes, with a clear line, and need no roll (house rule, docs/rulings.md:
// flak crews). "" if none does.
func crewSees(st *State, side string, e *Plane) (string, int) {
	for i := range st.Ground {
		u := &st.Ground[i]
		if u.Side != side || !u.flakCrews() {
			continue
		}
		if d := hexmap.Distance(u.Hex, e.Flight.Hex); d <= FlakSightRange && lineOfSight(st.Clouds, Flight{Hex: u.Hex}, e.Flight) {
			return u.Callsign, d
		}
	}
	return "", 0
}
