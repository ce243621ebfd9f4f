package swarm

import (
	"fmt"
	"sort"
	"strings"

	"sortie/parser"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/swarm/notation"
)

// MinCourse and MaxCourse bound the turns a squadron without sight of the enemy plots at once (seed 004,
// "Cloud Cover": "Planes without eye contact should plot movement for a series of turns. (Suggest 3 to 6
// turns of plotting.)").
const (
	MinCourse = 3
	MaxCourse = notation.MaxSwarmTurns
)

// Check is what the rules say about one squadron's order: each turn flown from where the squadron is,
// and every broken rule.
type Check struct {
	Moves    []MoveResult
	Errors   []Problem
	Warnings []Problem
}

// CheckOrder validates a squadron's order against that squadron only (its type, tack, position, sight
// and bombs): each turn's tack move and path (Move), the length of a plotted course, BOMB. It is what a
// receipt reports, and Resolve uses the same checks.
func CheckOrder(d *Data, st *State, q *Squadron, o notation.SwarmOrder) Check {
	t, ok := d.Type(q.Type)
	if !ok {
		return Check{Errors: []Problem{{Code: "type", Message: "no squadron type " + q.Type}}, Warnings: []Problem{}}
	}
	return CheckOrderOf(t, st, q, o)
}

// CheckOrderOf is CheckOrder for a squadron of type t: the receipt, the turn and the calculator (calc
// move, whose squadron may be of no type in the data) all check an order with it.
func CheckOrderOf(t *Type, st *State, q *Squadron, o notation.SwarmOrder) Check {
	c := Check{Errors: []Problem{}, Warnings: []Problem{}}
	switch n := len(o.Turns); {
	case n == 0:
		c.Errors = append(c.Errors, Problem{Code: "empty", Message: "the order has no turn"})
		return c
	case q.Contact && n > 1:
		c.Errors = append(c.Errors, Problem{Code: "one-turn", Col: o.Turns[1].Col,
			Message: fmt.Sprintf("%s has the enemy in sight: plot this turn only (a course of several turns is for squadrons without eye contact)", q.Callsign)})
	case !q.Contact && n < MinCourse:
		c.Errors = append(c.Errors, Problem{Code: "course-length",
			Message: fmt.Sprintf("%s has no enemy in sight%s: plot its course for %d to %d turns at once, separated by ; (you have %d)",
				q.Callsign, visibilityText(st.Visibility), MinCourse, MaxCourse, n)})
	}
	from, pos := q.Tack, q.Pos
	defaultFire := false
	for _, turn := range o.Turns {
		m := Move(t, from, pos, turn)
		c.Moves = append(c.Moves, m)
		c.Errors = append(c.Errors, m.Errors...)
		from, pos = m.Tack, m.End
		if turn.Bomb {
			switch {
			case t.Bomber && q.Bombed:
				c.Errors = append(c.Errors, Problem{Code: "bombs-gone", Col: turn.BombCol, Message: fmt.Sprintf("%s has dropped its bombs already", q.Callsign)})
			case !t.Bomber && m.Tack.Band != "L":
				c.Errors = append(c.Errors, Problem{Code: "strafe-low", Col: turn.BombCol, Suggestion: "L",
					Message: fmt.Sprintf("the %s is no bomber: it attacks ground targets from Low only (seed 004: \"aircraft at low level may attack ground targets\")", t.Name)})
			}
		}
		if turn.Fire.Mode == parser.FireTarget {
			if e := st.Squadron(turn.Fire.Target); e != nil && e.Side == q.Side {
				c.Warnings = append(c.Warnings, Problem{Code: "fire-own", Col: turn.Fire.Col,
					Message: fmt.Sprintf("%s is on your side: this fire order will never fire", turn.Fire.Target)})
			}
		}
		defaultFire = defaultFire || turn.Fire.Default
	}
	if defaultFire {
		c.Warnings = append(c.Warnings, Problem{Code: notation.CodeFireDefault, Message: "no fire order given: read as FIRE ANY (write HOLD to hold fire)"})
	}
	sort.SliceStable(c.Errors, func(i, j int) bool { return c.Errors[i].Col < c.Errors[j].Col })
	return c
}

// visibilityText is " (visibility N hexes)", or nothing when the visibility is not known (0).
func visibilityText(v int) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf(" (visibility %d hexes)", v)
}

// DefaultTurn is what a squadron flies when no order came (docs/rulings.md: NMR): the tack kept at its speed and
// band with the manoeuvre set to S, straight ahead, firing at will. It is always legal.
func DefaultTurn(q *Squadron) notation.SwarmTurn {
	return notation.SwarmTurn{Tack: notation.SwarmTack{Speed: q.Tack.Speed, Man: notation.SwarmStraight, Band: notation.SwarmBand(q.Tack.Band[0])},
		Path: []notation.SwarmStep{{N: q.Tack.Speed}}, Fire: parser.Fire{Mode: parser.FireAny}}
}

// pathText is a turn's tack and path, without BOMB and the fire order: "3 R M 1 R 2".
func pathText(t notation.SwarmTurn) string {
	parts := []string{t.Tack.String()}
	for _, s := range t.Path {
		parts = append(parts, s.Token())
	}
	return strings.Join(parts, " ")
}

// turnText is the canonical text of a one-turn order.
func turnText(t notation.SwarmTurn) string {
	return notation.SwarmOrder{Turns: []notation.SwarmTurn{t}}.String()
}

// Resolve plays a round from the orders (canonical order texts by callsign; a squadron without one flies
// DefaultTurn) and returns the new state and the round's events. It never changes st, and draws every
// random number from src with a label.
//
// A round is one game turn, except under cloud cover: when every squadron still in play has plotted
// turns queued after the turn is played, nobody has anything to order, and the next turn is played at
// once in the same round (invariant 6, docs/architecture.md: a round waits only for the units the ruleset asks for).
func Resolve(d *Data, st *State, orders map[string]string, src dice.Source) (*State, []Event, error) {
	r := &resolver{d: d, st: st.Clone(), src: src}
	for i := 0; ; i++ {
		r.playTurn(orders)
		if r.st.Over || i > MaxCourse+1 || needsOrders(r.st) {
			break
		}
		orders = nil
	}
	return r.st, r.events, nil
}

// needsOrders reports whether some squadron in play has no plotted turn left.
func needsOrders(st *State) bool {
	for i := range st.Squadrons {
		if q := &st.Squadrons[i]; q.InPlay() && len(q.Queue) == 0 {
			return true
		}
	}
	return false
}

type resolver struct {
	d      *Data
	st     *State
	src    dice.Source
	events []Event
	turn   int
}

func (r *resolver) emit(e Event) {
	e.Turn = r.turn
	r.events = append(r.events, e)
}

func (r *resolver) roll(label string) (int, dice.Roll) {
	v := r.src.Roll(label, 6)
	return v, dice.Roll{Label: label, Sides: 6, Value: v}
}

func (r *resolver) typ(q *Squadron) *Type {
	t, ok := r.d.Type(q.Type)
	if !ok {
		// NewGame and Load refuse unknown types, so this is a broken state file.
		panic("swarm: no squadron type " + q.Type)
	}
	return t
}

func (r *resolver) chart() []int {
	if len(r.st.Evasion) > 0 {
		return r.st.Evasion
	}
	return r.d.House.Evasion.Need
}

// playTurn plays one game turn: plots, initiative, each squadron in turn moving, bombing and firing,
// rear gunners, sight, victory.
func (r *resolver) playTurn(orders map[string]string) {
	st := r.st
	r.turn = st.Turn
	var active []*Squadron
	for i := range st.Squadrons {
		q := &st.Squadrons[i]
		q.Track = nil
		if q.InPlay() {
			active = append(active, q)
		}
	}
	// Plotting: every tack moves at once, from the plots sent together.
	from := map[string]Tack{}
	plots := map[string]notation.SwarmTurn{}
	for _, q := range active {
		from[q.Callsign] = q.Tack
		plots[q.Callsign] = r.plotFor(q, orders)
	}
	for _, q := range active {
		q.Tack = TackOf(plots[q.Callsign].Tack)
	}
	order := r.initiative(active)
	// Each squadron in initiative order moves, bombs and fires; losses count at once, so a squadron
	// destroyed before its activation neither moves nor fires.
	for _, q := range order {
		if !q.InPlay() {
			p := plots[q.Callsign]
			r.notActivated(q, plotted{fire: p.Fire, bomb: p.Bomb})
			continue
		}
		p := plots[q.Callsign]
		r.fly(q, from[q.Callsign], p)
		if p.Bomb {
			r.bomb(q)
		}
		if p.Fire.Mode != parser.FireHold {
			r.fire(q, p.Fire, false)
		}
	}
	// Rear gunners fire once all have moved.
	for _, q := range order {
		if q.InPlay() && r.typ(q).RearGunner && plots[q.Callsign].Fire.Mode != parser.FireHold {
			r.fire(q, plots[q.Callsign].Fire, true)
		}
	}
	updateSight(st, r.emit)
	st.Turn++
	if out := checkVictory(st); out != nil {
		st.Over, st.Outcome = true, out
		r.emit(Event{Kind: EvGameOver, Outcome: out, Text: "the game is over: " + outcomeText(st)})
	}
}

// plotFor takes the squadron's turn for this turn: the next turn of its plotted course, else its order,
// else the default.
func (r *resolver) plotFor(q *Squadron, orders map[string]string) notation.SwarmTurn {
	t := r.typ(q)
	if len(q.Queue) > 0 {
		text := q.Queue[0]
		q.Queue = q.Queue[1:]
		o, ds := notation.ParseSwarmOrder(text)
		if !parser.HasErrors(ds) && len(o.Turns) == 1 && Move(t, q.Tack, q.Pos, o.Turns[0]).Legal() {
			more := ""
			if n := len(q.Queue); n > 0 {
				more = fmt.Sprintf("; %d more turn%s plotted", n, plural(n))
			}
			r.emit(Event{Kind: EvCourse, Unit: q.Callsign, Side: q.Side, Text: fmt.Sprintf("%s flies on along its plotted course: %s%s", q.Callsign, text, more)})
			return o.Turns[0]
		}
		q.Queue = nil
		r.emit(Event{Kind: EvIllegalOrder, Unit: q.Callsign, Side: q.Side, Text: fmt.Sprintf("%s's plotted course could not be flown (%s): it flies straight on", q.Callsign, text)})
		return DefaultTurn(q)
	}
	text, ok := orders[q.Callsign]
	if !ok {
		r.emit(Event{Kind: EvNMR, Unit: q.Callsign, Side: q.Side, Player: q.Player,
			Text: fmt.Sprintf("no order came for %s: it flies straight on (%s)", q.Callsign, turnText(DefaultTurn(q)))})
		return DefaultTurn(q)
	}
	o, ds := notation.ParseSwarmOrder(text)
	var problems []Problem
	for _, d := range ds {
		if d.Severity == parser.SeverityError {
			problems = append(problems, Problem{Code: d.Code, Message: d.Message, Col: d.Col, Suggestion: d.Suggestion})
		}
	}
	if len(problems) == 0 {
		problems = CheckOrder(r.d, r.st, q, o).Errors
	}
	if len(problems) > 0 {
		r.emit(Event{Kind: EvIllegalOrder, Unit: q.Callsign, Side: q.Side, Problems: problems,
			Text: fmt.Sprintf("the order for %s breaks a rule, so it flies straight on (%s)", q.Callsign, turnText(DefaultTurn(q)))})
		return DefaultTurn(q)
	}
	for _, t := range o.Turns[1:] {
		q.Queue = append(q.Queue, turnText(t))
	}
	if n := len(q.Queue); n > 0 {
		r.emit(Event{Kind: EvCourse, Unit: q.Callsign, Side: q.Side,
			Text: fmt.Sprintf("%s sets out on a plotted course of %d turns: %s", q.Callsign, n+1, turnText(o.Turns[0]))})
	}
	return o.Turns[0]
}

// initiative rolls 1D6 for every squadron in play: the lowest moves first; squadrons that tie roll again,
// and a second tie goes by callsign.
func (r *resolver) initiative(active []*Squadron) []*Squadron {
	first, tie := map[string]int{}, map[string]int{}
	rolls := map[string][]dice.Roll{}
	count := map[int]int{}
	for _, q := range active {
		v, d := r.roll(fmt.Sprintf("turn %d initiative %s", r.turn, q.Callsign))
		first[q.Callsign], rolls[q.Callsign] = v, []dice.Roll{d}
		count[v]++
	}
	for _, q := range active {
		if count[first[q.Callsign]] > 1 {
			v, d := r.roll(fmt.Sprintf("turn %d initiative tie-break %s", r.turn, q.Callsign))
			tie[q.Callsign] = v
			rolls[q.Callsign] = append(rolls[q.Callsign], d)
		}
	}
	order := append([]*Squadron(nil), active...)
	ruleset.InitiativeOrder(order, func(q *Squadron) string { return q.Callsign }, first, tie)
	for i, q := range order {
		cs := q.Callsign
		how := fmt.Sprintf("initiative %d", first[cs])
		if t, ok := tie[cs]; ok {
			how += fmt.Sprintf(", tie-break %d", t)
		}
		r.emit(Event{Kind: EvInitiative, Unit: cs, Side: q.Side, Dice: rolls[cs],
			Initiative: &InitiativeDetail{Roll: first[cs], Tie: tie[cs], Order: i + 1},
			Text:       fmt.Sprintf("%s rolled %s", cs, how)})
	}
	return order
}

// fly moves a squadron along its plotted path.
func (r *resolver) fly(q *Squadron, from Tack, p notation.SwarmTurn) {
	m := Move(r.typ(q), from, q.Pos, p)
	start := q.Pos
	q.Pos, q.Track = m.End, m.Hexes
	r.emit(Event{Kind: EvMove, Unit: q.Callsign, Side: q.Side,
		Move: &MoveDetail{Order: turnText(p), Tack: m.Tack, From: start, To: m.End, Path: m.Hexes},
		Text: fmt.Sprintf("%s flew %s from %s to %s, facing %s at %s", q.Callsign, pathText(p), start.Hex, m.End.Hex,
			m.End.Facing, bandName(m.Tack.Band))})
}

// bomb attacks the first ground target under the squadron's path this turn (seed 004, "Addendum: Bombing
// and low level attacks"): a bomber rolls one D6 per unfilled pip, needing 6 from High, 5 from Medium and
// 4 from Low, and has then dropped its bombs; any other squadron attacks from Low only, one D6 per die of
// its firepower, needing the house strafing figure.
func (r *resolver) bomb(q *Squadron) {
	t := r.typ(q)
	switch {
	case t.Bomber && q.Bombed:
		r.noBombing(q, "its bombs were dropped in an earlier turn")
		return
	case !t.Bomber && q.Tack.Band != "L":
		r.noBombing(q, fmt.Sprintf("only a bomber attacks from above Low, and it flew at %s", bandName(q.Tack.Band)))
		return
	}
	tg := TargetUnder(r.st.Targets, q.Track)
	if tg == nil {
		r.emit(Event{Kind: EvBomb, Unit: q.Callsign, Side: q.Side, Text: fmt.Sprintf("%s found no ground target under its path: BOMB had no effect", q.Callsign)})
		return
	}
	n, need, what := t.Firepower(q.Filled), r.d.House.Strafe, "strafed"
	if t.Bomber {
		n, need, what = t.Pips()-q.Filled, r.d.House.Bombing[q.Tack.Band], "bombed"
		q.Bombed = true
	}
	b := &BombDetail{Band: q.Tack.Band, Need: need}
	var ds []dice.Roll
	for k := 1; k <= n; k++ {
		v, d := r.roll(fmt.Sprintf("turn %d %s %s %s, die %d of %d (need %d)", r.turn, q.Callsign, what, tg.Name, k, n, need))
		ds = append(ds, d)
		b.Rolls = append(b.Rolls, v)
		if v >= need {
			b.Hits++
		}
	}
	tg.Damage = min(tg.Damage+b.Hits, tg.Strength)
	b.Damage, b.Gone = tg.Damage, tg.Destroyed()
	gone := ""
	if b.Gone {
		gone = ": destroyed"
	}
	r.emit(Event{Kind: EvBomb, Unit: q.Callsign, Side: q.Side, Target: tg.Name, TargetSide: tg.Side, Bomb: b, Dice: ds,
		Text: fmt.Sprintf("%s %s %s from %s: %d D6 needing %d+, %s: %d hit%s, damage %d/%d%s", q.Callsign, what, tg.Name,
			bandName(q.Tack.Band), n, need, ints(b.Rolls), b.Hits, plural(b.Hits), tg.Damage, tg.Strength, gone)})
}

// TargetUnder is the ground target a BOMB attacks on a turn whose path is track: the first of targets,
// not yet destroyed, in a hex of the path; nil when there is none. The turn and the plotting board's
// reach (Plan) both ask it.
func TargetUnder(targets []Target, track []hexmap.Hex) *Target {
	for i := range targets {
		x := &targets[i]
		if x.Destroyed() {
			continue
		}
		for _, h := range track {
			if h == x.Hex {
				return x
			}
		}
	}
	return nil
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}

// CanAttack says whether a squadron at from in altitude band band can attack an enemy squadron in hex to
// at band toBand: the same band (seed 004, "Targeting and Firepower"), within the attack range (a die
// scores only when it reaches the distance) and the scenario's visibility (seed 004, "Cloud Cover"), and
// in its field of fire ahead, or, for a rear gunner (rear), outside it (seed 004, "Rear firing
// aircraft"). The turn's fire and the plotting board's reach (Plan) both ask it.
func (d *Data) CanAttack(from Position, band string, to hexmap.Hex, toBand string, visibility int, rear bool) bool {
	if toBand != band {
		return false
	}
	dist := hexmap.Distance(from.Hex, to)
	if max(dist, 1) > d.House.MaxRange || visibility > 0 && dist > visibility {
		return false
	}
	return InFieldOfFire(from.Hex, from.Facing, to) != rear
}

// candidates lists the enemy squadrons q may attack (CanAttack), in play; closest first, then by
// callsign.
func (r *resolver) candidates(q *Squadron, rear bool) []*Squadron {
	var out []*Squadron
	for i := range r.st.Squadrons {
		e := &r.st.Squadrons[i]
		if !e.InPlay() || e.Side == q.Side || !r.d.CanAttack(q.Pos, q.Tack.Band, e.Pos.Hex, e.Tack.Band, r.st.Visibility, rear) {
			continue
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := hexmap.Distance(q.Pos.Hex, out[i].Pos.Hex), hexmap.Distance(q.Pos.Hex, out[j].Pos.Hex)
		if a != b {
			return a < b
		}
		return out[i].Callsign < out[j].Callsign
	})
	return out
}

// fire makes a squadron's forward attack (its firepower in D6) or its rear gunner's 1D6 attack at the
// target its fire order picks. FIRE <callsign> attacks only that squadron with the forward guns; the
// rear gunner takes it if it is in the rear arcs, and otherwise the closest enemy there.
func (r *resolver) fire(q *Squadron, f parser.Fire, rear bool) {
	cands := r.candidates(q, rear)
	var tg *Squadron
	for _, c := range cands {
		if f.Mode == parser.FireTarget && c.Callsign == f.Target {
			tg = c
		}
	}
	if tg == nil && len(cands) > 0 && (f.Mode == parser.FireAny || rear) {
		tg = cands[0]
	}
	if tg == nil {
		if !rear {
			r.noAttack(q, f)
		}
		return
	}
	n := r.typ(q).Firepower(q.Filled)
	if rear {
		n = 1
	}
	r.attack(q, tg, n, max(hexmap.Distance(q.Pos.Hex, tg.Pos.Hex), 1), rear)
}

// attack throws n attack dice at range rng; each that equals or beats the range scores, and the target
// makes one evasive save for each (1D6 plus its modifiers against the chart's need at that range); each
// failed save fills one pip, at once.
func (r *resolver) attack(q, tg *Squadron, n, rng int, rear bool) {
	tt := r.typ(tg)
	what := "attack"
	if rear {
		what = "rear gunner"
	}
	fd := &FireDetail{Rear: rear, Range: rng, Firepower: n, SaveNeed: SaveNeed(r.chart(), rng), Attacks: []int{}, Saves: []int{}}
	fd.SaveMod = r.d.SaveMod(tt, tg.Pilots)
	var ds []dice.Roll
	for k := 1; k <= n; k++ {
		v, d := r.roll(fmt.Sprintf("turn %d %s %s on %s, die %d of %d (scores on %d+)", r.turn, q.Callsign, what, tg.Callsign, k, n, rng))
		ds = append(ds, d)
		fd.Attacks = append(fd.Attacks, v)
		if Scores(v, rng) {
			fd.Scored++
		}
	}
	for k := 1; k <= fd.Scored && tg.InPlay(); k++ {
		v, d := r.roll(fmt.Sprintf("turn %d %s evasive save %d of %d (need %d, %+d)", r.turn, tg.Callsign, k, fd.Scored, fd.SaveNeed, fd.SaveMod))
		ds = append(ds, d)
		fd.Saves = append(fd.Saves, v)
		if !Evades(v, fd.SaveMod, fd.SaveNeed) {
			fd.Filled++
			tg.Filled++
			if tg.Filled >= tt.Pips() {
				tg.Filled, tg.Status, tg.DownTurn, tg.Queue = tt.Pips(), Destroyed, r.turn, nil
			}
		}
	}
	who := q.Callsign
	if rear {
		who += "'s rear gunner"
	}
	text := fmt.Sprintf("%s attacked %s at range %d: %dD6 %s, %d scored", who, tg.Callsign, rng, n, ints(fd.Attacks), fd.Scored)
	if fd.Scored > 0 {
		text += fmt.Sprintf("; evasive saves %s (need %d, %+d): %d pip%s filled", ints(fd.Saves), fd.SaveNeed, fd.SaveMod, fd.Filled, plural(fd.Filled))
	}
	r.emit(Event{Kind: EvFire, Unit: q.Callsign, Side: q.Side, Target: tg.Callsign, TargetSide: tg.Side, Fire: fd, Dice: ds, Text: text})
	if !tg.InPlay() {
		r.emit(Event{Kind: EvDestroyed, Unit: tg.Callsign, Side: tg.Side, Target: q.Callsign, TargetSide: q.Side,
			Text: fmt.Sprintf("%s is no longer combat effective: every pip is filled", tg.Callsign)})
	}
}

// Scores reports whether an attack die scores at a range: it must equal or beat the range (seed 004).
func Scores(die, rng int) bool { return die >= rng }

// Evades reports whether an evasive save succeeds: the D6 plus the target's modifiers equals or beats
// the chart's need at the range.
func Evades(die, mod, need int) bool { return die+mod >= need }

// SaveMod is the target's evasive-save modifier: its pilots and, for a durable type, the durable bonus.
func (d *Data) SaveMod(t *Type, pilots string) int {
	m := d.House.Pilots.Mods[pilots]
	if t.Durable {
		m += d.House.Durable
	}
	return m
}

// updateSight works out, when a turn ends, which enemy squadrons each side sees (those within the
// visibility of any of its squadrons in play; all of them when visibility is unlimited) and which
// squadrons have eye contact themselves. A plotted course ends at contact: its remaining turns are
// cancelled and the squadron is asked for orders again. emit, if not nil, receives the sightings and
// cancellations. Squadrons destroyed this turn are kept in sight where they fell, so their loss can be
// reported.
func updateSight(st *State, emit func(Event)) {
	sees := func(a, b *Squadron) bool {
		return st.Visibility == 0 || hexmap.Distance(a.Pos.Hex, b.Pos.Hex) <= st.Visibility
	}
	for _, side := range st.Sides {
		old := st.Sight[side]
		now := map[string]bool{}
		for i := range st.Squadrons {
			e := &st.Squadrons[i]
			if e.Side == side || !(e.InPlay() || e.Status == Destroyed && e.DownTurn == st.Turn) {
				continue
			}
			for j := range st.Squadrons {
				o := &st.Squadrons[j]
				if o.Side == side && o.InPlay() && sees(o, e) {
					now[e.Callsign] = true
					break
				}
			}
			if emit == nil || !e.InPlay() {
				continue
			}
			switch {
			case now[e.Callsign] && !old[e.Callsign]:
				emit(Event{Kind: EvSpotted, Unit: e.Callsign, Side: side, Text: fmt.Sprintf("%s came in sight at %s, facing %s at %s",
					e.Callsign, e.Pos.Hex, e.Pos.Facing, bandName(e.Tack.Band))})
			case !now[e.Callsign] && old[e.Callsign]:
				emit(Event{Kind: EvLostSight, Unit: e.Callsign, Side: side, Text: fmt.Sprintf("%s was lost to sight", e.Callsign)})
			}
		}
		st.Sight[side] = now
	}
	for i := range st.Squadrons {
		q := &st.Squadrons[i]
		if !q.InPlay() {
			q.Contact = false
			continue
		}
		q.Contact = false
		for j := range st.Squadrons {
			if e := &st.Squadrons[j]; e.InPlay() && e.Side != q.Side && sees(q, e) {
				q.Contact = true
				break
			}
		}
		if q.Contact && len(q.Queue) > 0 && emit != nil {
			emit(Event{Kind: EvContact, Unit: q.Callsign, Side: q.Side, Cancelled: len(q.Queue),
				Text: fmt.Sprintf("%s has the enemy in sight: the rest of its plotted course (%d turn%s) is cancelled; send it orders for the next turn",
					q.Callsign, len(q.Queue), plural(len(q.Queue)))})
		}
		if q.Contact {
			q.Queue = nil
		}
	}
}

// checkVictory ends the game at the turn limit or when at most one side has squadrons in play, and
// scores the victory conditions.
func checkVictory(st *State) *Outcome {
	out := ruleset.Ended(st.Turn, st.TurnLimit, st.Sides, st.Squadrons, func(q *Squadron) (string, bool, ruleset.Fate) {
		return q.Side, q.InPlay(), ruleset.Fate{Unit: q.Callsign, How: string(q.Status)}
	})
	if out == nil {
		return nil
	}
	for _, c := range st.Victory {
		if c.Kind == "bomb" {
			if t := st.Target(c.Target); t != nil && t.Destroyed() {
				out.Score[c.Side] += c.Points
			}
			continue
		}
		for _, cs := range c.Squadrons {
			q := st.Squadron(cs)
			if q == nil {
				continue
			}
			if (c.Kind == "destroy" && q.Status == Destroyed) || (c.Kind == "survive" && q.InPlay()) {
				out.Score[c.Side] += c.Points
			}
		}
	}
	out.Decide(st.Sides)
	return out
}

func outcomeText(st *State) string { return st.Outcome.Text(st.Sides) }
