package afd

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/tables"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
)

// MaxFireRange is the longest range any gun fires, in hexes adjusted for height (seed 000).
const MaxFireRange = 8

// coneHalfWidth is the fixed-gun cone's half-width at a range (docs/rulings.md: fire, the main rule text): a
// single file of hexes at 1-2, one more each side from 3, two from 6.
func coneHalfWidth(r int) int {
	switch {
	case r <= 2:
		return 0
	case r <= 5:
		return 1
	}
	return 2
}

// AdjustedRange is the hex range plus one for each full 500 ft of height difference (seed 000, "Firing
// vertical attitude").
func AdjustedRange(hexes, heightDiff int) int {
	if heightDiff < 0 {
		heightDiff = -heightDiff
	}
	return hexes + heightDiff/500
}

// aimHexes are the two hexes of the target area (seed 000, "Main combat rule changes"): the target's hex
// and the next it would enter at ranges 1-4, the next and the one after at 5-8.
func aimHexes(tg Flight, hexRange int) [2]hexmap.Hex {
	h1, p1 := hexmap.Forward(tg.Hex, tg.Facing, tg.Phase)
	if hexRange <= 4 {
		return [2]hexmap.Hex{tg.Hex, h1}
	}
	h2, _ := hexmap.Forward(h1, tg.Facing, p1)
	return [2]hexmap.Hex{h1, h2}
}

// FixedGeometry says whether fixed forward guns of a plane at sh (which changed altitude by climb this
// turn: >0 climbing, <0 diving, 0 level) bear on a target at tg, and at what height-adjusted range.
// Seed 000: the cone must cross the target area; a lower target needs a level or diving firer, a
// higher one a level or climbing firer; a level firer needs the height difference within 300 ft × range.
func FixedGeometry(sh Flight, climb int, tg Flight) (rangeAdj int, ok bool, why string) {
	rangeAdj, fault := fixedGeometry(sh, climb, tg)
	d, dAlt := hexmap.Distance(sh.Hex, tg.Hex), abs(tg.Alt-sh.Alt)
	switch fault {
	case bears:
		return rangeAdj, true, ""
	case sameHex:
		why = "same hex"
	case outOfRange:
		why = fmt.Sprintf("range %d is beyond %d", rangeAdj, MaxFireRange)
	case climbingAtLower:
		why = "a climbing plane cannot fire at a lower target"
	case divingAtHigher:
		why = "a diving plane cannot fire at a higher target"
	case tooSteep:
		why = fmt.Sprintf("flying level, the height difference of %d ft is more than 300 ft × range %d", dAlt, d)
	case outsideCone:
		why = "the cone of fire does not cross the target area"
	}
	return rangeAdj, false, why
}

// fixedBears is FixedGeometry without the reason: the range, and whether the guns bear.
func fixedBears(sh Flight, climb int, tg Flight) (rangeAdj int, ok bool) {
	rangeAdj, fault := fixedGeometry(sh, climb, tg)
	return rangeAdj, fault == bears
}

// geometryFault is why fixed guns do not bear on a target (FixedGeometry).
type geometryFault int

const (
	bears geometryFault = iota
	sameHex
	outOfRange
	climbingAtLower
	divingAtHigher
	tooSteep
	outsideCone
)

func fixedGeometry(sh Flight, climb int, tg Flight) (rangeAdj int, fault geometryFault) {
	d := hexmap.Distance(sh.Hex, tg.Hex)
	if d == 0 {
		return 0, sameHex
	}
	dAlt := tg.Alt - sh.Alt
	rangeAdj = AdjustedRange(d, dAlt)
	if rangeAdj > MaxFireRange {
		return rangeAdj, outOfRange
	}
	switch {
	case dAlt < 0 && climb > 0:
		return rangeAdj, climbingAtLower
	case dAlt > 0 && climb < 0:
		return rangeAdj, divingAtHigher
	case climb == 0 && abs(dAlt) > 300*d:
		return rangeAdj, tooSteep
	}
	for _, aim := range aimHexes(tg, d) {
		ahead, off := hexmap.Offset(sh.Hex, sh.Facing, aim)
		dist := hexmap.Distance(sh.Hex, aim)
		if ahead && dist >= 1 && dist <= MaxFireRange && off <= coneHalfWidth(dist) {
			return rangeAdj, bears
		}
	}
	return rangeAdj, outsideCone
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// FlexDeflectionRow is the deflection row of a shot from flexible guns (seed 000, "The deflection DRM
// rules"): out of the shooter's 12 or 6 o'clock at a target within one point of the shooter's own
// heading, no deflection (5-7); exactly two points off, medium (4/8); out of 4 or 8 o'clock at a target
// flying the shooter's heading, straight at the shooter, or the point between, medium; anything else
// high (9-3).
func FlexDeflectionRow(sh Flight, tg Flight) string {
	clock := hexmap.Clock(sh.Hex, sh.Facing, tg.Hex)
	diff := headingPoints(sh.Facing, tg.Facing)
	switch clock {
	case 12, 6:
		switch {
		case diff <= 1:
			return "5-7"
		case diff == 2:
			return "4/8"
		}
	case 4, 8:
		// The heading straight at the shooter is the bearing from target to shooter, to the nearest point.
		toward := hexmap.Dir(int(hexmap.Bearing(tg.Hex, sh.Hex)/30+0.5) % 12)
		// Medium if the target's heading lies on the short arc from the shooter's heading to that one.
		if headingPoints(tg.Facing, sh.Facing)+headingPoints(tg.Facing, toward) == headingPoints(sh.Facing, toward) {
			return "4/8"
		}
	}
	return "9-3"
}

// headingPoints is the difference between two facings in 30° points, 0..6.
func headingPoints(a, b hexmap.Dir) int {
	d := ((int(a)-int(b))%12 + 12) % 12
	if d > 6 {
		d = 12 - d
	}
	return d
}

// Shot is one burst to be resolved: which guns, on which chart, at what range and deflection.
type Shot struct {
	Guns     []string
	Flexible bool
	Chart    string
	Range    int
	Clock    int
	Row      string // deflection row
	DRM      int
}

// shotResult is a resolved burst: the detail for events and the hits to mark, by system index.
type shotResult struct {
	detail  FireDetail
	hits    []int
	applied []string // the systems hit, in the order the hits were read, e.g. W F E(L)
	rolls   []dice.Roll
	// locations is where the detail's list of hit locations is carved from; nil: made on its own.
	locations *blocks[string]
}

// resolveShot rolls and reads one burst (readShot) and says which systems took each hit, for the
// calculator's damage report.
func resolveShot(t *tables.Tables, target *aircraft.Card, dmg []int, s Shot, d dice.Source, label string, simple bool) (shotResult, error) {
	res := shotResult{hits: make([]int, len(target.Systems))}
	err := readShot(t, target, dmg, s, d, []byte(label), nil, simple, &res, make([]int, len(dmg)), true)
	return res, err
}

// readShot rolls and reads one burst (seed 000, "Main combat rule changes" and "Hit location"):
// red and white D6 together read the chart; each block of up to four hits reads a hit-location table
// with a D10 of its own; odd D10 hits left-side systems, even right; a red 5 or 6 adds 1 or 2 hits to the starred system
// of a shot of at least 2 hits, once per shot. With simple criticals (the seed's older rule) the red die
// adds to the hit C, L or E system closest to destruction instead.
//
// The dice are labelled label followed by what each die is for; label's spare capacity is used to
// write them, and the labels are made in arena (nil: strings of their own). The hits are added to
// res.hits, which the caller gives zeroed, one per system; work is scratch of the same length; the
// applied systems are listed only when applied is set.
func readShot(t *tables.Tables, target *aircraft.Card, dmg []int, s Shot, d dice.Source, label []byte, arena *textArena, simple bool, res *shotResult, work []int, applied bool) error {
	before := len(d.Log())
	// The red and white dice's labels are written one after the other and share one string.
	split := len(label) + len(": red D6")
	labels := arena.string(append(append(append(label, ": red D6"...), label...), ": white D6"...))
	red := d.Roll(labels[:split], 6)
	white := d.Roll(labels[split:], 6)
	read, err := t.Fire(s.Chart, s.Range, red+white, s.DRM)
	if err != nil {
		return err
	}
	res.detail = FireDetail{Guns: s.Guns, Flexible: s.Flexible, Chart: s.Chart, Range: s.Range, Column: read.Column.String(),
		Clock: s.Clock, Row: s.Row, DRM: s.DRM, Red: red, White: white, Modified: read.Row, Hits: read.Hits}
	me := target.MultiEngine()
	critDone := false
	copy(work, dmg)
	apply := func(i, n int) {
		res.hits[i] += n
		work[i] += n
		for ; applied && n > 0; n-- {
			res.applied = append(res.applied, systemLabel(target, i))
		}
	}
	var hitCLE []int
	left := read.Hits
	if left > 0 {
		// One location for each block of up to four hits.
		res.detail.Locations = res.locations.take((left+3)/4, locationBlock)[:0]
	}
	for bi := 1; left > 0; bi++ {
		// Blocks of four hits and what is left over (tables.SplitHits). One hit-location D10 for each
		// block. At the table a player throws one or two with the 2D6 to save time; which die is thrown
		// when changes nothing, so Sortie throws each when it is needed and a miss uses none
		// (docs/rulings.md).
		n := min(left, 4)
		left -= n
		d10 := d.Roll(arena.string(strconv.AppendInt(append(label, ": hit-location D10 "...), int64(bi), 10)), 10)
		loc, err := t.Location(me, n, d10)
		if err != nil {
			return err
		}
		res.detail.Locations = append(res.detail.Locations, loc.String())
		odd := d10%2 == 1
		for li := 0; li < len(loc.Letters); li++ {
			i := chooseSystem(target, work, loc.Letters[li], odd)
			if i < 0 {
				continue
			}
			apply(i, 1)
			if l := loc.Letters[li]; l == 'C' || l == 'L' || l == 'E' {
				hitCLE = append(hitCLE, i)
			}
			if !simple && li == loc.Critical && !critDone && read.Hits >= 2 && red >= 5 {
				extra := red - 4
				apply(i, extra)
				res.detail.Critical = extra
				critDone = true
			}
		}
	}
	if simple && red >= 5 && len(hitCLE) > 0 {
		best := hitCLE[0]
		for _, i := range hitCLE[1:] {
			if target.Systems[i].Boxes-work[i] < target.Systems[best].Boxes-work[best] {
				best = i
			}
		}
		// The simple critical is marked, but the work copy no longer matters: nothing is read after it.
		res.hits[best] += red - 4
		res.detail.Critical = red - 4
		for k := 0; applied && k < red-4; k++ {
			res.applied = append(res.applied, systemLabel(target, best))
		}
	}
	res.rolls = d.Log()[before:]
	return nil
}

// systemLabel names a system by letter, with its side for sided ones: "E(L)".
func systemLabel(card *aircraft.Card, i int) string {
	s := card.Systems[i]
	if s.Side == "L" || s.Side == "R" {
		return s.Letter + "(" + s.Side + ")"
	}
	return s.Letter
}

// gunsFor appends to dst the positions (indexes into card.Guns) of a plane's guns of the given kinds
// that can fire: not destroyed, with ammunition, allowed by the order's GUNS list.
func gunsFor(dst []int, card *aircraft.Card, p *Plane, fixed bool, allowed []string) []int {
	for i, g := range card.Guns {
		isFixed := g.Kind == "FF" || g.Kind == "FH" || g.Kind == "FL"
		if isFixed != fixed || p.Ammo.Left(g.ID) <= 0 || gunDestroyed(card, p, g.ID) {
			continue
		}
		if len(allowed) > 0 && !slices.Contains(allowed, g.ID) {
			continue
		}
		dst = append(dst, i)
	}
	return dst
}

// fixedChart is the chart of the fixed positions whose range reaches rangeAdj, firing together on
// their combined mix (seed 000, "Main combat rule changes"), and the positions that fire.
func fixedChart(guns []aircraft.GunPosition, rangeAdj int) (chart string, ids []string, ok bool) {
	var mixes []string
	for _, g := range guns {
		if g.Range >= rangeAdj {
			mixes = append(mixes, g.Mix)
			ids = append(ids, g.ID)
		}
	}
	if len(mixes) == 0 {
		return "", nil, false
	}
	mix, err := aircraft.CombineMix(mixes...)
	if err != nil {
		return "", nil, false
	}
	chart, _ = tables.ChartFor(mix)
	return chart, ids, true
}

// bestFlex picks among flexible positions that bear (range reaching rangeAdj) the single best one, or
// two single .30s together on the 2x30M chart (seed 000, "Flex gun limitations").
func bestFlex(t *tables.Tables, bearing []aircraft.GunPosition, rangeAdj int) (chart string, ids []string, ok bool) {
	best, bestMax := -1, -1
	var singles []string
	for i, g := range bearing {
		if g.Range < rangeAdj {
			continue
		}
		c, _ := tables.ChartFor(g.Mix)
		if m := t.MaxHits(c); m > bestMax {
			best, bestMax = i, m
		}
		if g.Mix == "1x30M" {
			singles = append(singles, g.ID)
		}
	}
	if best < 0 {
		return "", nil, false
	}
	chart, _ = tables.ChartFor(bearing[best].Mix)
	ids = []string{bearing[best].ID}
	if len(singles) >= 2 && t.MaxHits("2x30M") > bestMax {
		chart, ids = "2x30M", singles[:2]
	}
	return chart, ids, true
}

// gunSet names a set of one card's gun positions, fixed or flexible, by a bit per position.
type gunSet struct {
	card *aircraft.Card
	mask uint64
	flex bool
}

// gunChoice is what a set of positions in reach fires: its chart and the positions that fire, by id
// and by index. The slices are shared by every shot of the set and must not be changed.
type gunChoice struct {
	chart string
	ids   []string
	pos   []int
	ok    bool
}

// gunCharts works out which of a plane's positions in reach fire and on what chart (fixedChart,
// bestFlex), and remembers the answer for each card and set of positions: the answer depends on nothing
// else, so a card's weapon mixes are read once a turn, not once a shot.
type gunCharts struct {
	t      *tables.Tables
	known  map[gunSet]gunChoice
	reach  []int                  // scratch: the positions in reach
	chosen []aircraft.GunPosition // scratch: the same positions' cards
}

// fixed is the choice of the fixed positions guns (indexes into card.Guns) at a target rangeAdj away.
func (c *gunCharts) fixed(card *aircraft.Card, guns []int, rangeAdj int) gunChoice {
	return c.choose(card, guns, rangeAdj, false)
}

// flex is the choice among the flexible positions guns that bear on a target rangeAdj away.
func (c *gunCharts) flex(card *aircraft.Card, guns []int, rangeAdj int) gunChoice {
	return c.choose(card, guns, rangeAdj, true)
}

func (c *gunCharts) choose(card *aircraft.Card, guns []int, rangeAdj int, flex bool) gunChoice {
	c.reach = c.reach[:0]
	key := gunSet{card: card, flex: flex}
	cacheable := true
	for _, i := range guns {
		if card.Guns[i].Range < rangeAdj {
			continue
		}
		c.reach = append(c.reach, i)
		if i < 64 {
			key.mask |= 1 << i
		} else {
			cacheable = false
		}
	}
	if len(c.reach) == 0 {
		return gunChoice{}
	}
	if ch, ok := c.known[key]; cacheable && ok {
		return ch
	}
	c.chosen = c.chosen[:0]
	for _, i := range c.reach {
		c.chosen = append(c.chosen, card.Guns[i])
	}
	var ch gunChoice
	if flex {
		ch.chart, ch.ids, ch.ok = bestFlex(c.t, c.chosen, rangeAdj)
	} else {
		ch.chart, ch.ids, ch.ok = fixedChart(c.chosen, rangeAdj)
	}
	for _, id := range ch.ids {
		for _, i := range c.reach {
			if card.Guns[i].ID == id {
				ch.pos = append(ch.pos, i)
				break
			}
		}
	}
	if cacheable {
		if c.known == nil {
			c.known = map[gunSet]gunChoice{}
		}
		c.known[key] = ch
	}
	return ch
}

// fixedShot builds the fixed-gun shot of a plane at a target in range: every fixed position (guns,
// indexes into card.Guns) whose range reaches fires together, on the chart of their combined mix.
func (c *gunCharts) fixedShot(card *aircraft.Card, guns []int, rangeAdj int, sh, tg Flight, tgME bool) (Shot, bool) {
	ch := c.fixed(card, guns, rangeAdj)
	if !ch.ok {
		return Shot{}, false
	}
	clock := hexmap.Clock(tg.Hex, tg.Facing, sh.Hex)
	return Shot{Guns: ch.ids, Chart: ch.chart, Range: rangeAdj, Clock: clock, Row: tables.DeflectionRow(clock), DRM: c.t.DRM(clock, tgME)}, true
}

// flexShot picks the flexible shot at a target: the best position that bears by arc and range
// (bestFlex), among guns (indexes into card.Guns) less those in used, which already fired this turn.
// It returns the positions that fire too.
func (c *gunCharts) flexShot(card *aircraft.Card, guns, used []int, sh, tg Flight, tgME bool) (Shot, []int, bool) {
	d := hexmap.Distance(sh.Hex, tg.Hex)
	if d == 0 {
		return Shot{}, nil, false
	}
	rangeAdj := AdjustedRange(d, tg.Alt-sh.Alt)
	if rangeAdj > MaxFireRange {
		return Shot{}, nil, false
	}
	clock := hexmap.Clock(sh.Hex, sh.Facing, tg.Hex)
	var buf [16]int
	bearing := buf[:0]
	for _, i := range guns {
		if !slices.Contains(used, i) && slices.Contains(card.Guns[i].Arcs, clock) {
			bearing = append(bearing, i)
		}
	}
	ch := c.flex(card, bearing, rangeAdj)
	if !ch.ok {
		return Shot{}, nil, false
	}
	row := FlexDeflectionRow(sh, tg)
	drm, err := c.t.DRMRow(row, tgME)
	if err != nil {
		return Shot{}, nil, false
	}
	return Shot{Guns: ch.ids, Flexible: true, Chart: ch.chart, Range: rangeAdj, Clock: hexmap.Clock(tg.Hex, tg.Facing, sh.Hex), Row: row, DRM: drm}, ch.pos, true
}

// fireAllowed applies a fire order's target and MAX range to a candidate.
func fireAllowed(f parser.Fire, target string, rangeAdj int) bool {
	if f.Mode == parser.FireHold {
		return false
	}
	if f.Mode == parser.FireTarget && f.Target != target {
		return false
	}
	return f.MaxRange == 0 || rangeAdj <= f.MaxRange
}

// sortCandidates orders candidate targets: closest first, then callsign (compareCandidates).
func sortCandidates(cands []candidate) { slices.SortFunc(cands, compareCandidates) }

// compareCandidates orders two candidate targets: the closer first, counting the height difference,
// then the first callsign.
func compareCandidates(a, b candidate) int {
	if a.rangeAdj != b.rangeAdj {
		return cmp.Compare(a.rangeAdj, b.rangeAdj)
	}
	return strings.Compare(a.p.Callsign, b.p.Callsign)
}

type candidate struct {
	p        *Plane
	rangeAdj int
}
