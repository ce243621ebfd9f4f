package afd

import (
	"fmt"
	"slices"
	"strings"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/hex"
)

// SpeedRange is the part of the card's speed scale a plane is flying in.
type SpeedRange int

const (
	ManeuverSpeed SpeedRange = iota
	LevelSpeed
	DiveSpeed
)

func (r SpeedRange) String() string {
	switch r {
	case ManeuverSpeed:
		return "manoeuvre"
	case LevelSpeed:
		return "level"
	}
	return "dive"
}

// Problem is one thing wrong with (or worth saying about) a plot, with the column of the token it is
// about (0 when it is about the whole plot).
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Col     int    `json:"column"`
}

// Step is the plane after one recorded movement point.
type Step struct {
	MP      int           `json:"mp"`
	Hex     hex.Hex       `json:"hex"`
	Facing  hex.Dir       `json:"facing"`
	Alt     int           `json:"alt"`
	Bank    notation.Bank `json:"bank"`
	Token   string        `json:"token"`
	Moved   bool          `json:"moved"`   // entered a new hex on the map
	Skipped bool          `json:"skipped"` // a STEEP point spent vertically (rules (18), (19))
}

// SpeedTerm is one line of the speed bookkeeping: what changed next turn's speed and by how much.
type SpeedTerm struct {
	Rule   string `json:"rule"`
	What   string `json:"what"`
	Tenths Tenths `json:"tenths"`
}

// Card is the card as it applies this turn: the altitude band at the start of the turn, adjusted for
// the loaded condition.
type Card struct {
	*aircraft.Card
	Band     aircraft.Band
	Range    SpeedRange
	Speed    int // rounded start-of-turn speed
	Power    int // power factors available this turn
	MaxClimb int
	Loss     aircraft.LossClass
	Loaded   bool // the loaded adjustments apply
}

// Result is a plot flown from a start state.
type Result struct {
	Start      Flight      `json:"start"`
	End        Flight      `json:"end"`
	Steps      []Step      `json:"steps"`
	HexesMoved int         `json:"hexes_moved"`
	Maneuvers  int         `json:"maneuvers"` // as counted for speed loss (rule (12))
	SpeedLog   []SpeedTerm `json:"speed_log"`
	Errors     []Problem   `json:"errors"`
	Warnings   []Problem   `json:"warnings"`
	Range      SpeedRange  `json:"-"`
	// DiveBombing is set when the plot dive-bombs with dive-bomb accuracy (rule (21)); BOMB otherwise
	// glide- or level-bombs.
	DiveBombing bool `json:"dive_bombing"`
	// PowerAvailable is the number of power factors the plane could use this turn (rules (14), (25)).
	PowerAvailable int `json:"power_available"`
}

// Legal reports whether the plot broke no rule.
func (r *Result) Legal() bool { return len(r.Errors) == 0 }

func (r *Result) errorf(col int, code, format string, args ...any) {
	r.Errors = append(r.Errors, Problem{Code: code, Message: fmt.Sprintf(format, args...), Col: col})
}

func (r *Result) warnf(col int, code, format string, args ...any) {
	r.Warnings = append(r.Warnings, Problem{Code: code, Message: fmt.Sprintf(format, args...), Col: col})
}

// Apply returns the card as it applies to a plane in the given state: its band at the start of the
// turn, the loaded condition, the speed range and the power available. The result is read-only: its
// manoeuvre range may be the card's own.
func Apply(card *aircraft.Card, f Flight) (Card, error) {
	b, err := card.BandAt(f.Alt)
	if err != nil {
		return Card{}, err
	}
	c := Card{Card: card, Band: *b, Speed: f.Speed.Round(), Loss: card.LossClass, MaxClimb: b.MaxClimb}
	if l := loadedCondition(card, f); l != nil {
		// Loaded condition (docs/rulings.md; seed 000 rules (27), (29)): lower speeds, higher turn modes, the
		// heaviest speed-loss class and a smaller climb. The manoeuvre range is the card's own until it
		// changes here.
		if c.Band.Maneuver != nil {
			m := *c.Band.Maneuver
			c.Band.Maneuver = &m
			c.Band.Maneuver.Max -= l.SpeedPenalty
			if c.Band.Maneuver.Max < c.Band.Maneuver.Min {
				c.Band.Maneuver = nil
			}
		}
		c.Band.Level.Max -= l.SpeedPenalty
		c.Band.Dive.Max -= l.SpeedPenalty
		c.Band.TM.Turn += l.TMPenalty
		c.Band.TM.Slip += l.TMPenalty
		c.Band.TM.HalfRoll += l.TMPenalty
		c.Band.TM.HalfLoop += l.TMPenalty
		c.Loss = aircraft.LossHeavy
		c.Loaded = true
		c.MaxClimb = c.MaxClimb * l.ClimbPercent / 100 / 100 * 100
	}
	switch {
	case c.Band.Maneuver != nil && c.Speed <= c.Band.Maneuver.Max:
		c.Range = ManeuverSpeed
	case c.Speed <= c.Band.Level.Max:
		c.Range = LevelSpeed
	default:
		c.Range = DiveSpeed
	}
	c.Power = powerAvailable(c, f)
	return c, nil
}

// engineOutLoaded is how a multi-engine plane that has lost an engine flies when its card has no loaded
// block of its own (a twin fighter): house figures, documented in docs/rulings.md.
var engineOutLoaded = aircraft.Loaded{Stores: "engine out", SpeedPenalty: 1, TMPenalty: 1, ClimbPercent: 50}

// loadedCondition returns the loaded adjustments that apply to a plane, or nil. A plane carrying its
// stores flies loaded; so does a multi-engine plane with an engine out, which has jettisoned them (seed
// 000, the He-111 example).
func loadedCondition(card *aircraft.Card, f Flight) *aircraft.Loaded {
	switch {
	case f.NoPower && card.MultiEngine():
		if card.Loaded != nil {
			return card.Loaded
		}
		return &engineOutLoaded
	case f.Loaded && card.Loaded != nil:
		return card.Loaded
	}
	return nil
}

// powerAvailable is seed 000 rules (14) and (25): no power at dive speed or at top level speed, half
// (rounded up) at level speeds below the top, all of it in the manoeuvre range; a plane with a single
// power factor may use it only every other turn, and only below its top level speed.
func powerAvailable(c Card, f Flight) int {
	if f.NoPower {
		return 0
	}
	p := c.Band.Power
	switch c.Range {
	case DiveSpeed:
		return 0
	case LevelSpeed:
		if c.Speed >= c.Band.Level.Max {
			return 0
		}
		p = (p + 1) / 2
	}
	if c.Band.Power == 1 && f.Last.Power {
		return 0
	}
	return p
}

// lossTable is seed 000 rule (29): the total speed lost (tenths) for 1-4 manoeuvres in the manoeuvre
// speed range, by class.
var lossTable = map[aircraft.LossClass][4]Tenths{
	aircraft.LossLWL:   {1, 2, 3, 4},
	aircraft.LossMWL:   {1, 2, 4, 5},
	aircraft.LossP40:   {1, 3, 4, 6},
	aircraft.LossP51:   {2, 3, 5, 6},
	aircraft.LossP47:   {2, 3, 5, 7},
	aircraft.LossFw190: {2, 4, 5, 7},
	aircraft.LossHeavy: {2, 4, 6, 8},
}

// ManeuverLoss is the speed lost for n manoeuvres: by class in the manoeuvre range (rule (29), and past
// four manoeuvres the class's fourth increment again for each one, docs/rulings.md), 0.2 each at level speed
// and 0.3 each at dive speed (rule (12)).
func ManeuverLoss(class aircraft.LossClass, r SpeedRange, n int) Tenths {
	if n <= 0 {
		return 0
	}
	switch r {
	case LevelSpeed:
		return Tenths(2 * n)
	case DiveSpeed:
		return Tenths(3 * n)
	}
	t, ok := lossTable[class]
	if !ok {
		t = lossTable[aircraft.LossHeavy]
	}
	if n <= 4 {
		return t[n-1]
	}
	return t[3] + Tenths(n-4)*(t[3]-t[2])
}

// ShallowDiveGain is rule (17): +0.2 for each full 300 ft dived and +0.1 for a leftover of 200 ft.
func ShallowDiveGain(ft int) Tenths {
	if ft <= 0 {
		return 0
	}
	g := Tenths(2 * (ft / 300))
	if ft%300 >= 200 {
		g++
	}
	return g
}

// maneuverCount is how many manoeuvres an element counts for speed loss (rules (3), (4), (5), (10), (12)):
// skid turns and loops count two, banks none.
func maneuverCount(e notation.Element) int {
	switch e.Kind {
	case notation.Turn, notation.Slip, notation.HalfRoll:
		return 1
	case notation.SkidTurn, notation.HalfLoop, notation.Immelmann:
		return 2
	}
	return 0
}

// TurnMode is the distance (hexes flown since the previous manoeuvre, this hex included) an element
// needs in the plane's present condition, with the low-turn-mode rules (26)-(28). For banks it is the
// bank mode: the printed figure for a 2-point roll, half of it rounded up for one point (rule (2)).
func (c Card) TurnMode(e notation.Element, rollPts int) int {
	tm := c.Band.TM
	var printed int
	switch e.Kind {
	case notation.Turn:
		printed = tm.Turn
	case notation.Slip:
		printed = tm.Slip
	case notation.SkidTurn:
		printed = max(tm.Slip, tm.Turn)
	case notation.HalfRoll:
		printed = tm.HalfRoll
	case notation.HalfLoop, notation.Immelmann:
		printed = tm.HalfLoop
	case notation.BankTo, notation.Roll:
		if rollPts >= 2 || rollPts <= -2 {
			return tm.Bank
		}
		return (tm.Bank + 1) / 2
	default:
		return 0
	}
	s := c.Speed
	switch c.Range {
	case ManeuverSpeed:
		// Rule (26) concerns turns, slips and half rolls only.
		if e.Kind == notation.HalfLoop || e.Kind == notation.Immelmann {
			return printed
		}
		if s == 3 && printed <= 2 {
			return 1
		}
		if s > 3 {
			return max(printed, 2)
		}
		return printed
	case LevelSpeed:
		return max(printed+c.TMLevelPenalty, 3, c.gFloor(s))
	default:
		return max(printed+c.TMDivePenalty, 4, c.gFloor(s))
	}
}

// gFloor is the speed-based minimum turn mode of rules (27) and (28): speed-4 for single-engine planes
// and twin-engine fighters, speed-2 for unloaded twin-engine bombers, the speed itself for loaded twins
// and every bomber of three or four engines.
func (c Card) gFloor(s int) int {
	switch {
	case c.Engines.Count <= 1 || (c.Engines.Count == 2 && !c.Bomber()):
		return s - 4
	case c.Engines.Count == 2 && !c.Loaded:
		return s - 2
	default:
		return s
	}
}

// mp is one recorded movement point of the plot.
type mp struct {
	elem  int // index into plot.Elements
	part  int // 0 for the element's first point, 1 for a half roll's second
	first bool
	last  bool
}

// expand lists the plot's movement points, appended to out.
func expand(out []mp, p notation.Plot) []mp {
	for i, e := range p.Elements {
		n := e.MPs()
		for k := 0; k < n; k++ {
			part := k
			if e.Kind == notation.Straight {
				part = 0
			}
			out = append(out, mp{elem: i, part: part, first: k == 0, last: k == n-1})
		}
	}
	return out
}

func stepToken(e notation.Element) string {
	if e.Kind == notation.Straight {
		return "1"
	}
	return e.Token()
}

func ft(n int) string {
	s := fmt.Sprintf("%d", n)
	if n >= 1000 || n <= -1000 {
		neg := n < 0
		if neg {
			n = -n
		}
		s = fmt.Sprintf("%d,%03d", n/1000, n%1000)
		if neg {
			s = "-" + s
		}
	}
	return s + " ft"
}

// Move flies plot from start and returns every step, the state at the end of the turn and everything
// illegal in the plot (seed 000 rules (1)-(29) as read by docs/rulings.md). It never stops at the first fault:
// a player gets every problem at once.
func Move(card *aircraft.Card, start Flight, plot notation.Plot) Result {
	return moveWith(card, start, plot, 0)
}

// moveInto is Move for a turn being resolved: it writes the steps into the room of steps, whose contents
// it overwrites, instead of a slice of their own, for a caller that is done with them before it flies
// the next plot; and it keeps no speed log, which receipts show and a turn does not.
func moveInto(card *aircraft.Card, start Flight, plot notation.Plot, steps []Step) Result {
	return flyPlot(card, start, plot, 0, steps)
}

// moveWith is Move with the impulse game's half loops (seed 001 X.E.4): loopDir +1 or -1 says the turn's
// half loop or Immelmann climbs or dives at its maximum rate impulse by impulse, which stands for the
// plain game's steep climb or dive (rules 5, 6); 0 is the plain game.
func moveWith(card *aircraft.Card, start Flight, plot notation.Plot, loopDir int) Result {
	return flyPlot(card, start, plot, loopDir, nil)
}

// flyPlot is moveWith, or moveInto when steps is not nil.
func flyPlot(card *aircraft.Card, start Flight, plot notation.Plot, loopDir int, steps []Step) Result {
	res := Result{Start: start}
	c, err := Apply(card, start)
	if err != nil {
		res.errorf(0, "altitude", "%v", err)
		res.End = start
		return res
	}
	res.Range = c.Range
	res.PowerAvailable = c.Power
	m := &mover{res: res, card: card, c: c, start: start, plot: plot, S: c.Speed, name: card.Name, loopDir: loopDir, steps: steps}

	// Rule (1): the plot records exactly the rounded speed in movement points.
	if n := plot.MPs(); n != m.S {
		m.res.errorf(0, "plot-length", "the plot records %d movement point%s; at speed %.1f the %s must record exactly %d",
			n, plural(n), start.Speed.Float(), m.name, m.S)
	}
	m.altitudePlan()
	m.vertEntry()
	m.followUps()
	m.powerAndBrakes()
	m.flyPoints()
	for _, e := range plot.Elements {
		m.res.Maneuvers += maneuverCount(e)
	}
	endAlt := start.Alt + m.climb - m.dive
	if endAlt < 0 {
		m.res.errorf(m.altCol, "ground", "the plot ends at %s: below the ground", ft(endAlt))
	}
	s := m.nextSpeed(endAlt)
	m.diveBombing(endAlt)
	m.res.End = Flight{
		Hex: m.pos, Facing: m.facing, Phase: m.phase, Speed: s, Alt: endAlt, Bank: m.bank,
		Loaded:  start.Loaded && !plot.Bomb,
		NoPower: start.NoPower,
		Last: LastTurn{
			SteepClimb: m.steepClimb, SteepDive: m.steepDive, Vert: plot.Vert,
			Power: plot.Power > 0, DiveFt: m.dive, Speed: m.S,
		},
		Straight: m.count,
	}
	return m.res
}

// mover flies one plot: the rules Move applies, one method a family, sharing what the plot has
// established so far.
type mover struct {
	res   Result
	card  *aircraft.Card
	c     Card
	start Flight
	plot  notation.Plot
	S     int // rounded start-of-turn speed
	name  string

	climb, dive           int // feet this turn
	steepClimb, steepDive bool
	altCol                int // the column problems with the altitude point at

	pos      hex.Hex
	facing   hex.Dir
	phase    hex.Phase
	bank     notation.Bank
	count    int // hexes since the last manoeuvre
	halfRoll [2]hex.Hex
	loopDir  int    // moveWith's: an impulse game's half loop climbing (+1) or diving (-1)
	steps    []Step // room for the steps of a turn being resolved (moveInto), or nil
}

// altitudePlan reads the turn's climb or dive and checks it against its kind's limits (rules (16)-(20)).
func (m *mover) altitudePlan() {
	res, c, start, plot, S, name := &m.res, m.c, m.start, m.plot, m.S, m.name
	climb, dive := 0, 0
	steepClimb, steepDive := false, false
	switch {
	case plot.Vert:
		dive = 400 * S
		if plot.Alt != 0 && plot.Alt != -dive {
			res.errorf(plot.Col("ALT"), "vert-altitude", "a vertical dive at speed %d loses exactly %s (rule 20); write %+d or leave the figure out", S, ft(dive), -dive/100)
		}
	case plot.Steep && plot.Alt > 0:
		steepClimb = true
		climb = plot.Alt
		limit := min(200*S, 1000)
		if climb > limit {
			res.errorf(plot.Col("ALT"), "steep-climb-limit", "a steep climb at speed %d may gain at most %s (200 ft per point of speed, never more than 1,000 ft; rule 18), not %s", S, ft(limit), ft(climb))
		}
		if !upward(start.Bank) {
			res.errorf(plot.Col("STEEP"), "steep-climb-bank", "a steep climb needs an upward bank (N, RB or LB; rule 18); the plane starts the turn in %s", start.Bank)
		}
	case plot.Steep:
		steepDive = true
		dive = 200 * S
		if plot.Alt == 0 {
			res.warnf(plot.Col("STEEP"), "steep-read-as-dive", "STEEP with no altitude figure is read as a steep dive of %s (a steep climb must give its figure, e.g. +10)", ft(dive))
		} else if -plot.Alt != dive {
			res.errorf(plot.Col("ALT"), "steep-dive-altitude", "a steep dive at speed %d loses exactly %s (200 ft per point of speed; rule 19), not %s; write %+d or leave the figure out", S, ft(dive), ft(-plot.Alt), -dive/100)
		}
	case plot.Alt > 0:
		climb = plot.Alt
		if climb > c.MaxClimb {
			res.errorf(plot.Col("ALT"), "climb-limit", "the %s may climb at most %s a turn at %s (rule 16); %s needs STEEP", name, ft(c.MaxClimb), ft(start.Alt), ft(climb))
		}
	case plot.Alt < 0:
		dive = -plot.Alt
		limit := shallowDiveLimit(c, S)
		if dive > limit {
			res.errorf(plot.Col("ALT"), "dive-limit", "a shallow dive at speed %d may lose at most %s (rule 17); for more write STEEP or VERT", S, ft(limit))
		}
	}

	m.climb, m.dive, m.steepClimb, m.steepDive = climb, dive, steepClimb, steepDive
	m.altCol = plot.Col("ALT")
	if m.altCol == 0 {
		m.altCol = plot.Col("STEEP")
	}
}

// vertEntry checks who may dive vertically, and from what (rule (20)).
func (m *mover) vertEntry() {
	res, card, start, plot, S, name := &m.res, m.card, m.start, m.plot, m.S, m.name
	if plot.Vert {
		col := plot.Col("VERT")
		if !card.DiveBomber && !(card.Role == aircraft.RoleFighter && card.Engines.Count <= 2) {
			res.errorf(col, "vert-type", "only rated dive bombers and one- or two-engine fighters may dive vertically (rule 20); the %s is neither", name)
		}
		if start.Bank != notation.BankN && start.Bank != notation.BankI {
			res.errorf(col, "vert-bank", "a vertical dive starts in a level or inverted bank (N or I; rule 20), not %s", start.Bank)
		}
		prevS := start.Last.Speed
		if prevS == 0 {
			prevS = S
		}
		if need := 100 * prevS; !start.Last.Vert && start.Last.DiveFt < need {
			res.errorf(col, "vert-entry", "a vertical dive must follow a turn that dived at least half the maximum shallow dive (%s at speed %d; rule 20); last turn dived %s", ft(need), prevS, ft(start.Last.DiveFt))
		}
	}

}

// followUps checks the limits last turn's climb or dive sets on this one (rules (22)-(24)), and the
// house minimum speed.
func (m *mover) followUps() {
	res, c, start, plot, S, name := &m.res, m.c, m.start, m.plot, m.S, m.name
	climb, dive, steepDive, altCol := m.climb, m.dive, m.steepDive, m.altCol
	if start.Last.Vert && !plot.Vert && !steepDive && dive < 100*S {
		res.errorf(altCol, "pull-out-vert", "after last turn's vertical dive the plane must dive at least %s (half its maximum shallow dive), or stay in a steep or vertical dive (rule 22)", ft(100*S))
	}
	if start.Last.SteepDive {
		if climb > 0 {
			res.errorf(altCol, "pull-out-steep", "the turn after a steep dive may not climb (rule 23)")
		} else if dive < 300 {
			res.errorf(altCol, "pull-out-steep", "the turn after a steep dive must dive at least 300 ft (rule 23)")
		}
	}
	if start.Last.SteepClimb && dive > 0 {
		res.errorf(altCol, "level-off", "the turn after a steep climb may not dive (rule 24); fly level, climb, or climb steeply again")
	}
	// House rule (docs/rulings.md: minimum speed): below the lowest manoeuvre speed the plane must dive.
	if stalling(c) && dive < 300 {
		res.errorf(altCol, "below-minimum-speed", "at speed %.1f the %s is below its lowest flying speed (%d) and must dive at least 300 ft this turn (house rule)", start.Speed.Float(), name, minFlyingSpeed(c))
	}

}

// powerAndBrakes checks the power and brake factors asked for, and BOMB (rules (14), (15), (25)).
func (m *mover) powerAndBrakes() {
	res, c, start, plot, S, name := &m.res, m.c, m.start, m.plot, m.S, m.name
	if plot.Power > c.Power {
		why := fmt.Sprintf("at speed %d (%s range) at %s it has %d", S, c.Range, ft(start.Alt), c.Power)
		switch {
		case start.NoPower:
			why = "with an engine out it has none"
		case c.Band.Power == 1 && start.Last.Power && c.Range != DiveSpeed:
			why = "with a single power factor it may use it only every other turn, and it used power last turn (rule 25)"
		}
		res.errorf(plot.Col("P"), "power", "%s asks for %d power factor%s; %s (rule 14)", repeatTok("P", plot.Power), plot.Power, plural(plot.Power), why)
	}
	if plot.Brake > c.Band.Brake {
		res.errorf(plot.Col("K"), "brake", "%s asks for %d brake factor%s; the %s has %d", repeatTok("K", plot.Brake), plot.Brake, plural(plot.Brake), name, c.Band.Brake)
	}
	if plot.Bomb && !start.Loaded {
		res.errorf(plot.Col("BOMB"), "bomb-unloaded", "BOMB: the %s carries no bombs", name)
	}

}

// flyPoints flies the plot point by point: position, facing, grain phase and bank after each, and the
// turn mode of each manoeuvre (rules (2)-(11)); a vertical dive is flown by flyVert.
func (m *mover) flyPoints() {
	res, c, start, plot := &m.res, m.c, m.start, m.plot
	var buf [16]mp
	mps := expand(buf[:0], plot)
	if m.steps != nil {
		res.Steps = slices.Grow(m.steps[:0], len(mps))
	} else {
		res.Steps = make([]Step, 0, len(mps))
	}
	m.pos, m.facing, m.phase, m.bank = start.Hex, start.Facing, start.Phase, start.Bank
	m.count = start.Straight
	altChange := m.climb - m.dive
	if plot.Vert {
		m.pos, m.facing, m.phase, m.bank, m.count = flyVert(res, c, start, plot, mps, altChange)
		return
	}
	for i, p := range mps {
		e := plot.Elements[p.elem]
		n := i + 1
		skipped := plot.Steep && n%3 == 0
		m.count++
		if p.first && e.IsManeuver() {
			m.turnMode(e, n)
		}
		switch e.Kind {
		case notation.Straight:
			m.forward(skipped)
		case notation.Turn:
			m.flyTurn(e, skipped)
		case notation.Slip, notation.SkidTurn:
			m.flySideways(e, n, skipped)
		case notation.HalfRoll:
			m.flyHalfRoll(e, p, n, skipped)
		case notation.HalfLoop, notation.Immelmann:
			m.flyLoop(e, skipped)
		case notation.BankTo, notation.Roll:
			m.flyBank(e, skipped)
		}
		if p.last && e.IsManeuver() {
			m.count = 0
		}
		if !skipped {
			res.HexesMoved++
		}
		res.Steps = append(res.Steps, Step{MP: n, Hex: m.pos, Facing: m.facing, Bank: m.bank, Token: stepToken(e),
			Moved: !skipped, Skipped: skipped, Alt: stepAlt(start.Alt, altChange, n, m.S)})
	}
}

// turnMode checks that a manoeuvre comes enough hexes after the last one (rules (2)-(11), (26)-(28)).
func (m *mover) turnMode(e notation.Element, n int) {
	pts := 0
	if e.Kind == notation.BankTo || e.Kind == notation.Roll {
		pts = bankRoll(&m.res, e, m.bank)
	}
	if need := m.c.TurnMode(e, pts); m.count < need {
		m.res.errorf(e.Col, "turn-mode", "%s at MP %d comes %d hex%s after the last manoeuvre; the %s needs %d at speed %d (%s range) at %s",
			e.Token(), n, m.count, plural2(m.count), m.name, need, m.S, m.c.Range, ft(m.start.Alt))
	}
}

// forward enters the next hex ahead, unless a STEEP turn spends this point vertically.
func (m *mover) forward(skipped bool) {
	if !skipped {
		m.pos, m.phase = hex.Forward(m.pos, m.facing, m.phase)
	}
}

// flyTurn enters the hex, then turns 30° (rule 2).
func (m *mover) flyTurn(e notation.Element, skipped bool) {
	m.forward(skipped)
	m.facing, m.phase = m.facing.Turn(int(e.Side)), hex.RightFront
}

// flySideways slips one hex to the side, and for a skid turn turns opposite the slip, toward the bank
// (rules (3), (10)).
func (m *mover) flySideways(e notation.Element, n int, skipped bool) {
	if skipped {
		m.res.errorf(e.Col, "slip-skipped", "%s falls on MP %d, which a STEEP turn spends vertically (every third point; rules 18, 19); a slip needs a point that moves on the map", e.Token(), n)
	} else {
		m.pos = hex.SlipHex(m.pos, m.facing, hex.Side(e.Side))
	}
	if e.Kind == notation.SkidTurn {
		turn := -int(e.Side)
		if bankSide(m.bank) != turn {
			m.res.errorf(e.Col, "skid-bank", "%s turns %s: a skid turn must turn toward the bank, and the plane is in %s (rules 3, 10)", e.Token(), sideWord(turn), m.bank)
		}
		m.facing, m.phase = m.facing.Turn(turn), hex.RightFront
	}
}

// flyHalfRoll moves through the half roll's two hexes and ends inverted the other way (rules (4), (9),
// (11)).
func (m *mover) flyHalfRoll(e notation.Element, p mp, n int, skipped bool) {
	if p.part == 0 {
		m.halfRoll = hex.HalfRollHexes(m.pos, m.facing, hex.Side(e.Side))
	}
	if skipped {
		m.res.errorf(e.Col, "slip-skipped", "%s covers MP %d, which a STEEP turn spends vertically (every third point; rules 18, 19); a half roll needs two points that move on the map", e.Token(), n)
	} else {
		m.pos = m.halfRoll[p.part]
	}
	if p.last {
		m.bank = halfRolled(m.bank)
	}
}

// flyLoop flies a half loop (about face) or an Immelmann (120° toward its side), with the bank it ends in.
func (m *mover) flyLoop(e notation.Element, skipped bool) {
	m.forward(skipped)
	if m.loopDir != 0 {
		// The impulse game's loop climbs or dives at its maximum rate in its own impulses (seed 001
		// X.E.4): the plain game's steep climb or dive, without STEEP for the whole turn.
		p := m.plot
		p.Steep = true
		m.bank = loop(&m.res, e, p, m.loopDir > 0, m.loopDir < 0, m.bank)
	} else {
		m.bank = loop(&m.res, e, m.plot, m.steepClimb, m.steepDive, m.bank)
	}
	if e.Kind == notation.HalfLoop {
		m.facing = m.facing.Turn(6)
	} else {
		m.facing = m.facing.Turn(4 * int(e.Side))
	}
	m.phase = hex.RightFront
}

// flyBank enters the hex and takes up the bank named, or rolls one point (rule 2).
func (m *mover) flyBank(e notation.Element, skipped bool) {
	m.forward(skipped)
	if e.Kind == notation.BankTo {
		m.bank = e.Bank
	} else {
		m.bank = rollBank(m.bank, int(e.Side))
	}
}

// nextSpeed works out next turn's speed, term by term into the speed log (rules (12)-(20), (29)).
func (m *mover) nextSpeed(endAlt int) Tenths {
	res, c, card, start, plot, S, name := &m.res, m.c, m.card, m.start, m.plot, m.S, m.name
	climb, dive, steepClimb, steepDive := m.climb, m.dive, m.steepClimb, m.steepDive
	// log records a term that changes the speed, with its description, unless the flight is for a turn
	// being resolved, which keeps no log (moveInto).
	log := func(rule string, t Tenths, what func() string) {
		if t != 0 && m.steps == nil {
			res.SpeedLog = append(res.SpeedLog, SpeedTerm{Rule: rule, What: what(), Tenths: t})
		}
	}
	s := start.Speed
	// add applies one term and logs it.
	add := func(rule string, t Tenths, what func() string) {
		if t != 0 {
			s += t
			log(rule, t, what)
		}
	}
	add("15", Tenths(plot.Power), func() string { return fmt.Sprintf("%d power factor%s", plot.Power, plural(plot.Power)) })
	add("15", -2*Tenths(plot.Brake), func() string { return fmt.Sprintf("%d brake factor%s", plot.Brake, plural(plot.Brake)) })
	add("12/29", -ManeuverLoss(c.Loss, c.Range, res.Maneuvers), func() string {
		return fmt.Sprintf("%d manoeuvre%s at %s speed", res.Maneuvers, plural(res.Maneuvers), c.Range)
	})
	add("16", -Tenths(climb/100), func() string { return "climb of " + ft(climb) })
	if !steepDive && !plot.Vert {
		add("17", ShallowDiveGain(dive), func() string { return "shallow dive of " + ft(dive) })
	}
	if steepDive {
		add("19", 12, func() string { return "steep dive" })
	}
	if plot.Vert {
		add("20", 20, func() string { return "vertical dive" })
	}
	if c.Range == DiveSpeed {
		past := S - c.Band.Level.Max
		add("13", -2*Tenths(past), func() string {
			return fmt.Sprintf("dive-speed drag, %d point%s past top level speed", past, plural(past))
		})
	}
	if steepClimb {
		if limit := Tenths(10 * (c.Band.Level.Max - 1)); s > limit {
			log("18", limit-s, func() string {
				return fmt.Sprintf("steep climb: next speed at most top level speed less one (%d)", c.Band.Level.Max-1)
			})
			s = limit
		}
	}
	if s < 0 {
		log("1", -s, func() string { return "speed cannot fall below zero" })
		s = 0
	}
	if eb, err := card.BandAt(max(endAlt, 0)); err == nil {
		top := eb.Dive.Max
		if l := loadedCondition(card, start); l != nil && !plot.Bomb {
			top -= l.SpeedPenalty
		}
		if lim := Tenths(10 * top); s > lim {
			res.warnf(0, "dive-limit-speed", "next speed %.1f is past the %s's maximum dive speed %d: it is held at %d (house rule)", s.Float(), name, top, top)
			log("house", lim-s, func() string { return "held at maximum dive speed" })
			s = lim
		}
	}

	return s
}

// diveBombing says whether a release counts as dive bombing (rule (21)).
func (m *mover) diveBombing(endAlt int) {
	res, card, plot := &m.res, m.card, m.plot
	if plot.Bomb {
		res.DiveBombing = plot.Vert && card.DiveBomber && endAlt <= 3000
		if plot.Vert && card.DiveBomber && endAlt > 3000 {
			res.warnf(plot.Col("BOMB"), "glide-bombing", "BOMB with VERT ends at %s, above 3,000 ft: the release counts as glide bombing, not dive bombing (rule 21)", ft(endAlt))
		}
	}

}

// minFlyingSpeed is the lowest speed of the band: the bottom of its manoeuvre range, or of its level
// range where it has none.
func minFlyingSpeed(c Card) int {
	if c.Band.Maneuver != nil {
		return c.Band.Maneuver.Min
	}
	return c.Band.Level.Min
}

// shallowDiveLimit is the most a plane of rounded speed S may lose in a turn's shallow dive: 200 ft per
// point of speed (rule (17)), and below its lowest flying speed at least the 300 ft the house
// minimum-speed rule makes it dive (docs/rulings.md), so it may, whatever its speed. The impulse game
// shares the same figure among the impulses (seed 001 X.D.1).
func shallowDiveLimit(c Card, S int) int {
	limit := 200 * S
	if stalling(c) {
		limit = max(limit, 300)
	}
	return limit
}

// stalling reports whether the plane starts the turn below its lowest flying speed.
func stalling(c Card) bool { return c.Speed < minFlyingSpeed(c) }

// bankRoll checks a bank token against the bank it starts from and returns the signed roll points.
func bankRoll(res *Result, e notation.Element, bank notation.Bank) int {
	if e.Kind == notation.Roll {
		return int(e.Side)
	}
	pts := rollPoints(bank, e.Bank)
	switch pts {
	case 0:
		res.errorf(e.Col, "bank-unchanged", "%s: the plane is already in %s; write 1 for a straight hex", e.Token(), bank)
	case 3, -3:
		res.errorf(e.Col, "bank-three-points", "%s from %s is a 3-point roll: that is a half roll (HR or HL; rule 11), not a bank", e.Token(), bank)
	}
	return pts
}

// loop checks a half loop or Immelmann (rules (5), (6)) and returns the bank after it.
func loop(res *Result, e notation.Element, plot notation.Plot, steepClimb, steepDive bool, bank notation.Bank) notation.Bank {
	if !plot.Steep {
		res.errorf(e.Col, "loop-needs-steep", "%s: half loops and Immelmanns are flown only in a turn with a steep climb or steep dive (write STEEP; rules 5, 6)", e.Token())
		return bank
	}
	if e.Kind == notation.HalfLoop {
		want := notation.BankN
		if steepDive {
			want = notation.BankI
		}
		if bank != want {
			if s := bankSide(bank); s != 0 {
				res.errorf(e.Col, "loop-banked", "V: banked in %s the loop becomes an Immelmann; write V%s%s (rule 6)", bank, sideLetter(s), sideLetter(s))
			} else {
				res.errorf(e.Col, "loop-bank", "V in a steep %s needs bank %s (rule 5); the plane is in %s", climbWord(steepClimb), want, bank)
			}
			return bank
		}
		if bank == notation.BankN {
			return notation.BankI
		}
		return notation.BankN
	}
	// Immelmann: banked toward the turn, upward when climbing, inverted when diving.
	want := notation.BankRB
	if e.Side == notation.Left {
		want = notation.BankLB
	}
	if steepDive {
		want = immelmannBank(want)
	}
	if bank != want {
		res.errorf(e.Col, "immelmann-bank", "%s in a steep %s needs bank %s (rule 6); the plane is in %s", e.Token(), climbWord(steepClimb), want, bank)
		return bank
	}
	return immelmannBank(bank)
}

// flyVert flies a vertical dive (rule (20)): after VERT only bank tokens (each turns the plane 60°
// toward its side and leaves the bank as it is) or V when inverted; the plane moves one hex, before the
// first direction change that has most of the recorded points after it, otherwise after the last.
func flyVert(res *Result, c Card, start Flight, plot notation.Plot, mps []mp, altChange int) (hex.Hex, hex.Dir, hex.Phase, notation.Bank, int) {
	pos, facing, phase, bank := start.Hex, start.Facing, start.Phase, start.Bank
	S := len(mps)
	count := start.Straight
	moveAt := -1 // index into mps where the single hex is entered, before that point's change
	for i, m := range mps {
		e := plot.Elements[m.elem]
		if e.Kind == notation.Straight {
			continue
		}
		if after := S - (i + 1); 2*after > S {
			moveAt = i
		}
		break
	}
	moved := false
	for i, m := range mps {
		e := plot.Elements[m.elem]
		n := i + 1
		count++
		turn := 0
		switch e.Kind {
		case notation.Straight:
		case notation.BankTo, notation.Roll:
			side := int(e.Side)
			if e.Kind == notation.BankTo {
				side = bankSide(e.Bank)
			}
			if side == 0 {
				res.errorf(e.Col, "vert-bank-token", "%s names no side: in a vertical dive a bank token turns the plane 60° toward its side (rule 20); write BR or BL", e.Token())
			}
			if need := (c.Band.TM.Bank + 1) / 2; count < need {
				res.errorf(e.Col, "turn-mode", "%s at MP %d comes %d hex%s after the last manoeuvre; the %s needs %d", e.Token(), n, count, plural2(count), c.Name, need)
			}
			turn = 2 * side
			count = 0
		case notation.HalfLoop:
			if bank != notation.BankI {
				res.errorf(e.Col, "vert-loop", "V in a vertical dive needs an inverted bank (I; rule 20); the plane is in %s", bank)
			}
			turn = 6
			count = 0
		default:
			res.errorf(e.Col, "vert-maneuver", "%s: in a vertical dive only bank tokens (BR, BL, RB, LB) and, when inverted, V are allowed (rule 20)", e.Token())
		}
		if i == moveAt && !moved {
			pos, phase = hex.Forward(pos, facing, phase)
			moved = true
			res.HexesMoved++
		}
		if turn != 0 {
			facing, phase = facing.Turn(turn), hex.RightFront
			if e.Kind == notation.HalfLoop && bank == notation.BankI {
				bank = notation.BankN
			}
		}
		step := Step{MP: n, Facing: facing, Bank: bank, Token: stepToken(e), Alt: stepAlt(start.Alt, altChange, n, S)}
		if n == S && !moved {
			pos, phase = hex.Forward(pos, facing, phase)
			moved = true
			res.HexesMoved++
			step.Moved = true
		} else if i == moveAt {
			step.Moved = true
		}
		step.Hex = pos
		res.Steps = append(res.Steps, step)
	}
	return pos, facing, phase, bank, count
}

// stepAlt spreads the turn's altitude change evenly over its movement points, to the nearest 100 ft.
func stepAlt(start, change, n, total int) int {
	if total == 0 {
		return start + change
	}
	d := change * n / total
	if d >= 0 {
		d = (d + 50) / 100 * 100
	} else {
		d = -((-d + 50) / 100 * 100)
	}
	return start + d
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func plural2(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

func repeatTok(l string, n int) string {
	if n <= 2 {
		return strings.Repeat(l, n)
	}
	return fmt.Sprintf("%s%d", l, n)
}

func sideWord(s int) string {
	if s < 0 {
		return "left"
	}
	return "right"
}

func sideLetter(s int) string {
	if s < 0 {
		return "L"
	}
	return "R"
}

func climbWord(climb bool) string {
	if climb {
		return "climb"
	}
	return "dive"
}
