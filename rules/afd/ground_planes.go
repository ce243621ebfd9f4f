package afd

// Planes on the ground in the impulse game (seed 001 IV.2-8): a plane the scenario puts on the ground
// (an airfield, or a carrier's deck) tries to start its engine once a turn in impulse 7; once it runs,
// the plane gains one power factor at once, and from the next turn one power or one brake factor a turn
// in impulse 7, rolling ahead one hex in each active impulse of its speed; at speed 0 or 1 it may turn
// up to three hexsides a turn, free; it is always in level bank; and it leaves the ground when its speed
// reaches its lowest flying speed, flying on from the next turn like any other plane. A ground plane's
// owner writes one short order a turn (docs/notation.md: ground orders). House readings (docs/rulings.md):
// on the ground a power or brake factor is one whole speed point (seed 001's unit, not seed 000's
// tenth for planes in the air); an engine starts on a D6 of 4 or more; on a carrier's deck the plane
// moves with the ship, does not roll, and takes off when its own speed and the ship's together reach
// its lowest flying speed.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
)

// OnGround is a plane on the ground: its engine, the carrier whose deck it is on (""), and its order
// for this turn (nil: its owner is asked for one).
type OnGround struct {
	Engine  bool         `json:"engine,omitempty"`
	Started int          `json:"started,omitempty"` // the turn the engine started
	Carrier string       `json:"carrier,omitempty"`
	Order   *GroundOrder `json:"order,omitempty"`
}

// GroundOrder is a ground plane's order for one turn: hexsides to turn (right positive) and a power or
// a brake factor.
type GroundOrder struct {
	Turn  int  `json:"turn,omitempty"`
	Power bool `json:"power,omitempty"`
	Brake bool `json:"brake,omitempty"`
	// Col records where the turn, power and brake were written, for messages (not kept).
	TurnCol, PowerCol, BrakeCol int `json:"-"`
}

// EngineStartNeed is the least D6 that starts a cold engine (house table).
const EngineStartNeed = 4

// Codes of ground order mistakes.
const (
	CodeGroundWord  = "ground-word"  // not R1-R3, L1-L3, P, K or IDLE
	CodeGroundTwice = "ground-twice" // a turn, P or K given twice, or P and K together
)

// ParseGroundOrder reads a ground plane's order: `IDLE`, or any of a turn of one to three hexsides
// (`R1`-`R3`, `L1`-`L3`) and one power (`P`) or brake (`K`) factor. Columns count runes from 1.
func ParseGroundOrder(text string) (GroundOrder, []parser.Diagnostic) {
	var o GroundOrder
	var ds []parser.Diagnostic
	errorf := func(col int, code, format string, args ...any) {
		ds = append(ds, parser.Diagnostic{Code: code, Col: col, Severity: parser.SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	if utf8.RuneCountInString(text) > 100 {
		errorf(0, parser.CodeTooLong, "a ground order is at most 100 characters")
		return o, ds
	}
	col := 1
	words := 0
	for _, w := range strings.Split(text, " ") {
		here := col
		col += utf8.RuneCountInString(w) + 1
		if strings.TrimSpace(w) == "" {
			continue
		}
		w = strings.TrimSpace(w)
		words++
		up := strings.ToUpper(w)
		switch {
		case up == "IDLE":
		case up == "P" || up == "K":
			if o.Power || o.Brake {
				errorf(here, CodeGroundTwice, "one power or one brake factor a turn on the ground (seed 001 IV.4), not two")
				continue
			}
			if up == "P" {
				o.Power, o.PowerCol = true, here
			} else {
				o.Brake, o.BrakeCol = true, here
			}
		case len(up) == 2 && (up[0] == 'R' || up[0] == 'L') && up[1] >= '1' && up[1] <= '3':
			if o.Turn != 0 {
				errorf(here, CodeGroundTwice, "one turn a turn: write the hexsides together, R1 to R3 or L1 to L3")
				continue
			}
			o.Turn, o.TurnCol = int(up[1]-'0'), here
			if up[0] == 'L' {
				o.Turn = -o.Turn
			}
		default:
			errorf(here, CodeGroundWord, "%q: a plane on the ground is ordered with R1 to R3 or L1 to L3 (hexsides to turn), P or K (a power or brake factor), or IDLE", w)
		}
	}
	if words == 0 {
		errorf(0, CodeGroundWord, "a ground order is IDLE, or a turn (R1-R3, L1-L3) and a power (P) or brake (K) factor")
	}
	return o, ds
}

// String prints the order canonically.
func (o GroundOrder) String() string {
	var parts []string
	switch {
	case o.Turn > 0:
		parts = append(parts, fmt.Sprintf("R%d", o.Turn))
	case o.Turn < 0:
		parts = append(parts, fmt.Sprintf("L%d", -o.Turn))
	}
	if o.Power {
		parts = append(parts, "P")
	}
	if o.Brake {
		parts = append(parts, "K")
	}
	if len(parts) == 0 {
		return "IDLE"
	}
	return strings.Join(parts, " ")
}

// takeoffSpeed is the speed at which a plane leaves the ground: its lowest flying speed at sea level,
// less the carrier's speed for a plane on a deck (house rule: the wind over the deck).
func takeoffSpeed(card *aircraft.Card, carrierSpeed int) int {
	b, err := card.BandAt(0)
	if err != nil {
		return 1
	}
	return max(1, minFlyingSpeed(Card{Card: card, Band: *b})-carrierSpeed)
}

// groundProblems checks a ground order against where the plane stands: turns only at speed 0 or 1,
// power and brake only with the engine running (from the turn after it started), brake only when
// moving.
func groundProblems(st *State, p *Plane, o GroundOrder) []Problem {
	var out []Problem
	g := p.Ground
	speed := p.Flight.Speed.Round()
	if o.Turn != 0 && speed > 1 {
		out = append(out, Problem{Code: "ground-turn", Col: o.TurnCol, Message: fmt.Sprintf("a plane on the ground turns only at speed 0 or 1 (seed 001 IV.6); %s is at speed %d", p.Callsign, speed)})
	}
	if o.Turn != 0 && g.Carrier != "" {
		out = append(out, Problem{Code: "ground-turn", Col: o.TurnCol, Message: fmt.Sprintf("%s is on %s's deck and faces down it", p.Callsign, g.Carrier)})
	}
	if (o.Power || o.Brake) && (!g.Engine || g.Started == st.Turn) {
		col := o.PowerCol + o.BrakeCol
		out = append(out, Problem{Code: "ground-engine", Col: col, Message: fmt.Sprintf("%s's engine must have been running since before this turn to use power or brake (seed 001 IV.3, IV.4)", p.Callsign)})
	}
	if o.Brake && speed == 0 {
		out = append(out, Problem{Code: "ground-brake", Col: o.BrakeCol, Message: fmt.Sprintf("%s is standing still: nothing to brake", p.Callsign)})
	}
	return out
}

// carrierSpeed is the speed of the ship whose deck a plane is on, 0 if none.
func (st *State) carrierSpeed(p *Plane) int {
	if p.Ground == nil || p.Ground.Carrier == "" {
		return 0
	}
	if u := st.groundUnit(p.Ground.Carrier); u != nil && !u.Arrived() && u.Damage < strike.Heavy {
		return u.Speed
	}
	return 0
}

// groundTurnStart turns a ground plane as ordered, at the start of its turn (free, seed 001 IV.6), and
// keeps it in level bank (IV.7).
func (r *impulseRun) groundTurnStart(p *Plane) {
	g := p.Ground
	p.Flight.Bank = notation.BankN
	if g.Order != nil && g.Order.Turn != 0 && p.Flight.Speed.Round() <= 1 && g.Carrier == "" {
		p.Flight.Facing = p.Flight.Facing.Turn(2 * g.Order.Turn)
		r.emit(Event{Turn: r.ns.Turn, Impulse: 1, Kind: EvMove, Plane: p.Callsign, Side: p.Side,
			Text: fmt.Sprintf("%s turned %s on the ground to face %s", p.Callsign, GroundOrder{Turn: g.Order.Turn}.String(), p.Flight.Facing)})
	}
}

// groundImpulse7 is a ground plane's impulse 7: an engine start attempt (IV.2, IV.3), or the turn's
// power or brake factor (IV.4, IV.8).
func (r *impulseRun) groundImpulse7(p *Plane) {
	g := p.Ground
	switch {
	case !g.Engine:
		die := r.d.Roll(fmt.Sprintf("turn %d %s engine start: D6", r.ns.Turn, p.Callsign), 6)
		text := fmt.Sprintf("%s's engine did not start (D6 %d, %d needed)", p.Callsign, die, EngineStartNeed)
		if die >= EngineStartNeed {
			g.Engine, g.Started = true, r.ns.Turn
			p.Flight.Speed += 10
			text = fmt.Sprintf("%s's engine started (D6 %d): one power factor at once, speed %d next turn", p.Callsign, die, p.Flight.Speed.Round())
		}
		r.emit(Event{Turn: r.ns.Turn, Impulse: 7, Kind: EvEngineStart, Plane: p.Callsign, Side: p.Side, Dice: r.d.Log()[len(r.d.Log())-1:], Text: text})
	case g.Order != nil && g.Order.Power:
		p.Flight.Speed += 10
	case g.Order != nil && g.Order.Brake:
		p.Flight.Speed = max(0, p.Flight.Speed-10)
	}
}

// EvEngineStart is an engine start attempt of a plane on the ground (seed 001 IV.2).
const EvEngineStart = "engine-start"

// groundRoll moves a ground plane one hex ahead in an active impulse; a plane on a carrier's deck does
// not roll off it (its run is the deck).
func (r *impulseRun) groundRoll(p *Plane) {
	if p.Ground.Carrier != "" {
		return
	}
	p.Flight.Hex = p.Flight.Hex.Neighbor(p.Flight.Facing)
	if edge := r.ns.Map.Outside(p.Flight.Hex); edge != "" {
		p.Status, p.ExitEdge = Disengaged, edge
		r.emit(Event{Turn: r.ns.Turn, Kind: EvDisengaged, Plane: p.Callsign, Side: p.Side, Extra: &Extra{Edge: edge},
			Text: fmt.Sprintf("%s left the map by the %s edge", p.Callsign, edge)})
	}
}

// carryPlanes keeps planes on a carrier's deck where the ship is, facing as it faces.
func (st *State) carryPlanes() {
	for i := range st.Planes {
		p := &st.Planes[i]
		if p.Ground == nil || p.Ground.Carrier == "" || !p.InPlay() {
			continue
		}
		if u := st.groundUnit(p.Ground.Carrier); u != nil {
			p.Flight.Hex, p.Flight.Facing = u.Hex, u.Facing
			if u.Damage >= strike.Destroyed {
				// Sunk with its ship.
				p.Status = Destroyed
			}
		}
	}
}

// groundTurnEnd ends a ground plane's turn: airborne once its speed reaches its take-off speed, told to
// its side; otherwise its owner is asked for the next turn's order.
func (r *impulseRun) groundTurnEnd(p *Plane, card *aircraft.Card) {
	need := takeoffSpeed(card, r.ns.carrierSpeed(p))
	p.Ground.Order = nil
	if p.Flight.Speed.Round() >= need {
		where := "the ground"
		if p.Ground.Carrier != "" {
			where = p.Ground.Carrier + "'s deck"
		}
		p.Ground = nil
		p.Flight.Bank = notation.BankN
		p.Flight.Alt = 0
		r.emit(Event{Turn: r.ns.Turn, Impulse: 12, Kind: EvMove, Plane: p.Callsign, Side: p.Side,
			Text: fmt.Sprintf("%s left %s at speed %d: it flies from next turn", p.Callsign, where, p.Flight.Speed.Round())})
	}
}

// groundDetail is what a report says of a plane on the ground.
func groundDetail(st *State, env *Env, p *Plane) []string {
	g := p.Ground
	if g == nil || !p.InPlay() {
		return nil
	}
	engine := "engine stopped: it tries to start in impulse 7"
	if g.Engine {
		engine = "engine running"
	}
	where := "on the ground"
	if g.Carrier != "" {
		where = "on " + g.Carrier + "'s deck"
	}
	out := []string{where + ", " + engine}
	if card, ok := env.Card(p.Type); ok {
		out = append(out, fmt.Sprintf("takes off at speed %d", takeoffSpeed(card, st.carrierSpeed(p))))
	}
	return out
}
