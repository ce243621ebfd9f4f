package afd

import (
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/hex"
)

// Test cards with round numbers, so each rule's arithmetic can be read off the test. The shipped cards
// are checked against the seed's worked examples in the aircraft package and in seed_examples_test.go.
func fighter() *aircraft.Card {
	return &aircraft.Card{
		Key: "test-fighter", Name: "Test Fighter", Role: aircraft.RoleFighter,
		Engines: aircraft.Engines{Count: 1, Kind: "inline"}, LossClass: aircraft.LossLWL,
		TMLevelPenalty: 1, TMDivePenalty: 2, Ceiling: 35000,
		Bands: []aircraft.Band{{
			MinAlt: 0, MaxAlt: 39900,
			Maneuver: &aircraft.SpeedRange{Min: 2, Max: 5},
			Level:    aircraft.SpeedRange{Min: 6, Max: 8},
			Dive:     aircraft.SpeedRange{Min: 9, Max: 12},
			Power:    2, Brake: 1, MaxClimb: 400,
			TM: aircraft.TurnModes{Turn: 2, Slip: 2, HalfRoll: 2, HalfLoop: 3, Bank: 4},
		}},
	}
}

func bomber(engines int) *aircraft.Card {
	c := fighter()
	c.Key, c.Name, c.Role = "test-bomber", "Test Bomber", aircraft.RoleBomber
	c.Engines.Count = engines
	c.LossClass = aircraft.LossHeavy
	c.Loaded = &aircraft.Loaded{Stores: "bombs", SpeedPenalty: 1, TMPenalty: 1, ClimbPercent: 50}
	return c
}

func diveBomber() *aircraft.Card {
	c := fighter()
	c.Key, c.Name, c.Role, c.DiveBomber = "test-dive", "Test Dive Bomber", aircraft.RoleDiveBomber, true
	c.LossClass = aircraft.LossMWL
	c.Loaded = &aircraft.Loaded{Stores: "1x1000 lb", SpeedPenalty: 1, TMPenalty: 1, ClimbPercent: 70}
	return c
}

func at(speed Tenths) Flight {
	return Flight{Speed: speed, Alt: 10000, Bank: notation.BankN, Straight: Plenty}
}

func fly(t *testing.T, card *aircraft.Card, start Flight, text string) Result {
	t.Helper()
	p, ds := notation.ParsePlot(text)
	if parser.HasErrors(ds) {
		t.Fatalf("plot %q does not parse: %v", text, ds)
	}
	return Move(card, start, p)
}

func legal(t *testing.T, r Result) {
	t.Helper()
	if !r.Legal() {
		t.Fatalf("want legal, got errors: %v", r.Errors)
	}
}

func illegal(t *testing.T, r Result, code string) Problem {
	t.Helper()
	for _, e := range r.Errors {
		if e.Code == code {
			return e
		}
	}
	t.Fatalf("want error %q, got errors %v", code, r.Errors)
	return Problem{}
}

// endsAt flies plot with fighter() from speed 5.0 at 10,000 ft: legal, ending at speed and alt.
func endsAt(t *testing.T, plot string, speed Tenths, alt int) {
	t.Helper()
	r := fly(t, fighter(), at(50), plot)
	legal(t, r)
	if r.End.Speed != speed || r.End.Alt != alt {
		t.Errorf("%s from speed 5.0 at 10,000 ft: speed %.1f at %d ft, want %.1f at %d ft", plot, r.End.Speed.Float(), r.End.Alt, speed.Float(), alt)
	}
}

func speedTerm(r Result, rule string) Tenths {
	var t Tenths
	for _, s := range r.SpeedLog {
		if s.Rule == rule {
			t += s.Tenths
		}
	}
	return t
}

// The seed's notation example as docs/rulings.md reads it: `2R 1 TR STEEP P` is 1 1 TR 1 TR, five points,
// a steep dive, one power factor; every third point is spent vertically.
func TestWorkedExamplePlot(t *testing.T) {
	r := fly(t, fighter(), at(50), "2R 1 TR STEEP P")
	legal(t, r)
	var toks []string
	for _, s := range r.Steps {
		toks = append(toks, s.Token)
	}
	if got := strings.Join(toks, " "); got != "1 1 TR 1 TR" {
		t.Errorf("expansion %q", got)
	}
	if r.HexesMoved != 4 || !r.Steps[2].Skipped || r.Steps[2].Moved {
		t.Errorf("STEEP should skip MP 3: moved %d, steps %+v", r.HexesMoved, r.Steps)
	}
	if r.End.Alt != 10000-1000 || !r.End.Last.SteepDive {
		t.Errorf("steep dive at speed 5 loses 1,000 ft: end %+v", r.End)
	}
	// 5.0 + 0.1 power - 0.2 (two manoeuvres, LWL) + 1.2 steep dive = 6.1
	if r.End.Speed != 61 {
		t.Errorf("end speed %v want 6.1 (log %+v)", r.End.Speed.Float(), r.SpeedLog)
	}
	if r.End.Facing != 2 {
		t.Errorf("two right turns from 000 end on 060, got %v", r.End.Facing)
	}
	if len(r.Warnings) == 0 || r.Warnings[0].Code != "steep-read-as-dive" {
		t.Errorf("STEEP with no figure must warn that it is read as a dive: %v", r.Warnings)
	}
}

// Seed 000 rule (1): speed is kept in tenths; movement uses the rounded speed, .5 rounding down, and the
// plot records exactly that many points.
func TestRule01SpeedInTenthsRoundsHalfDown(t *testing.T) {
	for _, c := range []struct {
		speed Tenths
		want  int
	}{{54, 5}, {55, 5}, {56, 6}, {4, 0}, {5, 0}, {6, 1}, {0, 0}} {
		if got := c.speed.Round(); got != c.want {
			t.Errorf("speed %.1f rounds to %d, want %d", c.speed.Float(), got, c.want)
		}
	}
	legal(t, fly(t, fighter(), at(55), "5"))
	e := illegal(t, fly(t, fighter(), at(56), "5"), "plot-length")
	if !strings.Contains(e.Message, "exactly 6") {
		t.Errorf("the error must say how many points are needed: %q", e.Message)
	}
	illegal(t, fly(t, fighter(), at(50), "1 TR 1 TR 1 1"), "plot-length")
}

// Seed 000 rule (2): the printed bank mode is for a 2-point roll; a 1-point roll needs half of it,
// rounded up.
func TestRule02BankModes(t *testing.T) {
	start := at(50)
	start.Bank, start.Straight = notation.BankRB, 0
	// RB to LB is two points: needs the printed 4.
	illegal(t, fly(t, fighter(), start, "2 LB 2"), "turn-mode")
	r := fly(t, fighter(), start, "3 LB 1")
	legal(t, r)
	if r.End.Bank != notation.BankLB {
		t.Errorf("bank %v", r.End.Bank)
	}
	// RB to N is one point: needs 2.
	illegal(t, fly(t, fighter(), start, "N 4"), "turn-mode")
	legal(t, fly(t, fighter(), start, "1 N 3"))
	legal(t, fly(t, fighter(), start, "1 BL 3"))
	// Banks cost no speed (rule (12)).
	if r.Maneuvers != 0 || r.End.Speed != 50 {
		t.Errorf("a bank cost speed: %d manoeuvres, speed %v", r.Maneuvers, r.End.Speed.Float())
	}
	// A bank to the attitude it is already in, or three points away, is not a bank.
	illegal(t, fly(t, fighter(), start, "2 RB 2"), "bank-unchanged")
	illegal(t, fly(t, fighter(), start, "2 IL 2"), "bank-three-points")
}

// Seed 000 rules (3) and (10): a skid turn turns 30° against the slip and toward the bank, and counts
// as two manoeuvres for speed loss.
func TestRule03SkidTurnTowardTheBank(t *testing.T) {
	start := at(50)
	start.Bank = notation.BankLB
	r := fly(t, fighter(), start, "2 SRTL 2")
	legal(t, r)
	if r.Maneuvers != 2 {
		t.Errorf("a skid turn counts 2 manoeuvres, got %d", r.Maneuvers)
	}
	start.Bank = notation.BankRB
	illegal(t, fly(t, fighter(), start, "2 SRTL 2"), "skid-bank")
	start.Bank = notation.BankN
	illegal(t, fly(t, fighter(), start, "2 SLTR 2"), "skid-bank")
}

// Seed 000 rule (4): a half roll takes the turn mode of a turn and costs speed as one manoeuvre, over
// two movement points.
func TestRule04HalfRollTurnModeAndOneManeuver(t *testing.T) {
	r := fly(t, fighter(), at(50), "1 HR 2")
	legal(t, r)
	if r.Maneuvers != 1 || len(r.Steps) != 5 || r.Steps[1].Token != "HR" || r.Steps[2].Token != "HR" {
		t.Errorf("half roll: %d manoeuvres, steps %+v", r.Maneuvers, r.Steps)
	}
	start := at(50)
	start.Straight = 0
	illegal(t, fly(t, fighter(), start, "HR 3"), "turn-mode") // 1 hex flown, TM 2
	legal(t, fly(t, fighter(), start, "1 HR 2"))
}

// Seed 000 rule (5): a half loop only in a steep climb (from level) or steep dive (from inverted),
// reversing the heading and flipping the bank; two manoeuvres.
func TestRule05HalfLoop(t *testing.T) {
	r := fly(t, fighter(), at(50), "1 1 V 2 STEEP +10")
	legal(t, r)
	if r.End.Facing != 6 || r.End.Bank != notation.BankI || r.Maneuvers != 2 {
		t.Errorf("climbing half loop: facing %v bank %v manoeuvres %d", r.End.Facing, r.End.Bank, r.Maneuvers)
	}
	illegal(t, fly(t, fighter(), at(50), "1 1 V 2"), "loop-needs-steep")
	inv := at(50)
	inv.Bank = notation.BankI
	r = fly(t, fighter(), inv, "1 1 V 2 STEEP")
	legal(t, r)
	if r.End.Bank != notation.BankN {
		t.Errorf("split S ends level, got %v", r.End.Bank)
	}
	illegal(t, fly(t, fighter(), at(50), "1 1 V 2 STEEP"), "loop-bank") // diving loop from level
}

// Seed 000 rule (6): the Immelmann turns 120° toward the named side from a bank toward it, and leaves
// the plane inverted on the same side; a banked plane cannot fly the plain half loop.
func TestRule06Immelmann(t *testing.T) {
	start := at(50)
	start.Bank = notation.BankRB
	r := fly(t, fighter(), start, "1 1 VRR 2 STEEP +10")
	legal(t, r)
	if r.End.Facing != 4 || r.End.Bank != notation.BankIR {
		t.Errorf("VRR: facing %v bank %v", r.End.Facing, r.End.Bank)
	}
	illegal(t, fly(t, fighter(), start, "1 1 V 2 STEEP +10"), "loop-banked")
	illegal(t, fly(t, fighter(), start, "1 1 VLL 2 STEEP +10"), "immelmann-bank")
	dive := at(50)
	dive.Bank = notation.BankIL
	r = fly(t, fighter(), dive, "1 1 VLL 2 STEEP")
	legal(t, r)
	if r.End.Facing != 8 || r.End.Bank != notation.BankLB {
		t.Errorf("diving VLL: facing %v bank %v", r.End.Facing, r.End.Bank)
	}
}

// Seed 000 rule (7): turns cost no movement point of their own; the plane always moves its speed in
// hexes (slips and half rolls included) unless it climbs or dives steeply or vertically.
func TestRule07HexesMovedEqualSpeed(t *testing.T) {
	for _, plot := range []string{"5", "2 TR 2", "1 TR 1 TL 1", "1 SR 1 SL 1", "1 HR 2", "TR 1 TR 1 TR"} {
		r := fly(t, fighter(), at(50), plot)
		if r.HexesMoved != 5 || hex.Distance(hex.Hex{}, r.End.Hex) > 5 {
			t.Errorf("%q moved %d hexes", plot, r.HexesMoved)
		}
	}
}

// Seed 000 rule (8): across the grain the right-front hex is entered first after taking up the facing,
// and the alternation carries over to the next turn.
func TestRule08GrainPhaseCarriesOver(t *testing.T) {
	r := fly(t, fighter(), at(50), "TR 4") // 000 → 030 in MP 1, then R, L, R, L
	legal(t, r)
	if r.Steps[1].Hex != (hex.Hex{Q: 1, R: -2}) || r.End.Phase != hex.RightFront {
		t.Errorf("after TR the first hex across the grain must be the right-front one: %+v", r.Steps)
	}
	r2 := fly(t, fighter(), at(30), "3")
	start := at(30)
	start.Facing, start.Phase = 1, hex.LeftFront
	r2 = fly(t, fighter(), start, "3")
	if r2.Steps[0].Hex != (hex.Hex{Q: 0, R: -1}) || r2.End.Phase != hex.RightFront {
		t.Errorf("a carried left-front phase enters the left-front hex first: %+v end %v", r2.Steps, r2.End.Phase)
	}
}

// Seed 000 rule (9): slips move one hex to the side without changing the facing.
func TestRule09SlipsMoveSideways(t *testing.T) {
	r := fly(t, fighter(), at(30), "1 SR 1")
	legal(t, r)
	if r.Steps[1].Hex != hex.SlipHex(hex.Hex{Q: 0, R: -1}, 0, hex.Right) || r.End.Facing != 0 {
		t.Errorf("slip: %+v", r.Steps)
	}
	start := at(30)
	start.Facing = 1
	r = fly(t, fighter(), start, "SL 2")
	if r.Steps[0].Hex != (hex.Hex{Q: -1, R: 0}) || r.End.Facing != 1 {
		t.Errorf("slip across the grain moves 90° to the side: %+v", r.Steps)
	}
}

// The plain game has no maximum-performance loss of height (that is seed 001 X.E's, for the impulse
// game only): a slip, a turn straight after it and a turn after only its minimum of hexes all keep the
// plane's altitude. A guard, so the impulse game's rule does not leak into the plain game.
func TestPlainGameTurnsAtTheirMinimumKeepTheirHeight(t *testing.T) {
	start := at(50)
	start.Straight = 0
	r := fly(t, fighter(), start, "1 SR 1 TR 1")
	legal(t, r)
	for _, s := range r.Steps {
		if s.Alt != 10000 {
			t.Errorf("%s at MP %d: %d ft, want 10,000", s.Token, s.MP, s.Alt)
		}
	}
	if r.End.Alt != 10000 {
		t.Errorf("the plain game ends the turn at %d ft, want 10,000", r.End.Alt)
	}
}

// Seed 000 rule (10): the skid turn's single 30° turn is made in the slip hex.
func TestRule10SkidTurnIsOneThirtyDegreeTurnInTheSlipHex(t *testing.T) {
	start := at(30)
	start.Bank = notation.BankLB
	r := fly(t, fighter(), start, "1 SRTL 1")
	legal(t, r)
	if r.Steps[1].Hex != hex.SlipHex(hex.Hex{Q: 0, R: -1}, 0, hex.Right) || r.Steps[1].Facing != 11 {
		t.Errorf("skid turn: %+v", r.Steps[1])
	}
}

// Seed 000 rule (11): a half roll turns the bank over, three roll points.
func TestRule11HalfRollInvertsTheBank(t *testing.T) {
	for from, to := range map[notation.Bank]notation.Bank{
		notation.BankN: notation.BankI, notation.BankRB: notation.BankIL, notation.BankLB: notation.BankIR, notation.BankI: notation.BankN,
	} {
		start := at(50)
		start.Bank = from
		r := fly(t, fighter(), start, "1 HL 2")
		if r.End.Bank != to {
			t.Errorf("half roll from %v ends %v, want %v", from, r.End.Bank, to)
		}
	}
}

// Seed 000 rule (12): 0.2 a manoeuvre at level speed, 0.3 at dive speed; banks cost nothing; skid
// turns and loops count two.
func TestRule12ManeuverLossBySpeedRange(t *testing.T) {
	r := fly(t, fighter(), at(70), "2 TR 2 TL 2") // level speed 7
	if got := speedTerm(r, "12/29"); got != -4 {
		t.Errorf("two manoeuvres at level speed cost %v tenths, want -4", got)
	}
	r = fly(t, fighter(), at(100), "2 TR 2 TL 2 TR 2") // dive speed 10 (TM at dive speed ≥ 6)
	if got := speedTerm(r, "12/29"); got != -9 {
		t.Errorf("three manoeuvres at dive speed cost %v, want -9 (%v)", got, r.Errors)
	}
	for _, c := range []struct {
		n    int
		r    SpeedRange
		want Tenths
	}{{1, LevelSpeed, 2}, {5, LevelSpeed, 10}, {1, DiveSpeed, 3}, {4, DiveSpeed, 12}} {
		if got := ManeuverLoss(aircraft.LossLWL, c.r, c.n); got != c.want {
			t.Errorf("ManeuverLoss(%d,%v)=%v want %v", c.n, c.r, got, c.want)
		}
	}
}

// Seed 000 rule (13): at dive speed a plane loses 0.2 for each point past its top level speed.
func TestRule13DiveSpeedDrag(t *testing.T) {
	r := fly(t, fighter(), at(110), "11")
	legal(t, r)
	if got := speedTerm(r, "13"); got != -6 { // 3 points past 8
		t.Errorf("drag at speed 11 with top level 8: %v tenths", got)
	}
	if r.End.Speed != 104 {
		t.Errorf("end speed %.1f", r.End.Speed.Float())
	}
	if got := speedTerm(fly(t, fighter(), at(80), "8"), "13"); got != 0 {
		t.Errorf("no drag at top level speed, got %v", got)
	}
}

// Seed 000 rule (14): power factors: all in the manoeuvre range, half rounded up at level speeds below
// the top, none at top level speed or at dive speed.
func TestRule14PowerBySpeedRange(t *testing.T) {
	c := fighter()
	c.Bands[0].Power = 3
	for _, x := range []struct {
		speed Tenths
		want  int
	}{{40, 3}, {50, 3}, {60, 2}, {70, 2}, {80, 0}, {90, 0}} {
		r := fly(t, c, at(x.speed), strings.Repeat("1 ", x.speed.Round()))
		if r.PowerAvailable != x.want {
			t.Errorf("speed %.0f: %d power available, want %d", x.speed.Float(), r.PowerAvailable, x.want)
		}
	}
	illegal(t, fly(t, c, at(60), "6 P3"), "power")
	legal(t, fly(t, c, at(60), "6 PP"))
	illegal(t, fly(t, c, at(80), "8 P"), "power")
}

// Seed 000 rule (15): each power factor adds 0.1, each brake factor takes 0.2.
func TestRule15PowerAndBrakeIncrements(t *testing.T) {
	if r := fly(t, fighter(), at(40), "4 PP"); r.End.Speed != 42 {
		t.Errorf("PP from 4.0 gives %.1f", r.End.Speed.Float())
	}
	if r := fly(t, fighter(), at(40), "4 K"); r.End.Speed != 38 {
		t.Errorf("K from 4.0 gives %.1f", r.End.Speed.Float())
	}
	illegal(t, fly(t, fighter(), at(40), "4 KK"), "brake")
}

// Seed 000 rule (16): climbing costs 0.1 for each 100 ft, up to the card's maximum climb a turn.
func TestRule16ClimbCost(t *testing.T) {
	endsAt(t, "5 +3", 47, 10300)
	illegal(t, fly(t, fighter(), at(50), "5 +5"), "climb-limit")
}

// Seed 000 rule (17): a shallow dive gains 0.2 for each 300 ft and 0.1 for a leftover 200 ft, and may
// not exceed 200 ft per point of speed.
func TestRule17ShallowDive(t *testing.T) {
	for ft, want := range map[int]Tenths{100: 0, 200: 1, 300: 2, 400: 2, 500: 3, 600: 4, 800: 5, 1000: 6} {
		if got := ShallowDiveGain(ft); got != want {
			t.Errorf("dive %d ft gains %v tenths, want %v", ft, got, want)
		}
	}
	endsAt(t, "5 -8", 55, 9200)
	illegal(t, fly(t, fighter(), at(50), "5 -11"), "dive-limit")
}

// Seed 000 rule (18): a steep climb gains up to 200 ft a point of speed and never more than 1,000 ft,
// from an upward bank; every third point is spent vertically; next speed is at most top level less one.
func TestRule18SteepClimb(t *testing.T) {
	r := fly(t, fighter(), at(60), "6 STEEP +10")
	legal(t, r)
	if r.HexesMoved != 4 || !r.Steps[2].Skipped || !r.Steps[5].Skipped {
		t.Errorf("steep climb at 6 moves 4 hexes: %d", r.HexesMoved)
	}
	if r.End.Speed != 50 || r.End.Alt != 11000 || !r.End.Last.SteepClimb {
		t.Errorf("1,000 ft steep climb costs a full point: %+v", r.End)
	}
	illegal(t, fly(t, fighter(), at(40), "4 STEEP +10"), "steep-climb-limit") // 200 × 4 = 800
	illegal(t, fly(t, fighter(), at(60), "6 STEEP +12"), "steep-climb-limit")
	inv := at(60)
	inv.Bank = notation.BankIR
	illegal(t, fly(t, fighter(), inv, "6 STEEP +10"), "steep-climb-bank")
	// The cap: from 7.9 (level) a 100 ft steep climb would leave 7.8, capped to 7.0 (top level 8 less 1).
	r = fly(t, fighter(), at(74), "7 STEEP +1")
	if r.End.Speed != 70 || speedTerm(r, "18") != -3 {
		t.Errorf("steep-climb cap: %.1f %+v", r.End.Speed.Float(), r.SpeedLog)
	}
	// A slip cannot fall on a point spent vertically.
	illegal(t, fly(t, fighter(), at(60), "1 1 SR 3 STEEP +10"), "slip-skipped")
}

// Seed 000 rule (19): a steep dive loses exactly 200 ft a point of speed and gains 1.2.
func TestRule19SteepDive(t *testing.T) {
	r := fly(t, fighter(), at(60), "6 STEEP -12")
	legal(t, r)
	if r.End.Alt != 8800 || speedTerm(r, "19") != 12 || r.HexesMoved != 4 {
		t.Errorf("steep dive: %+v", r.End)
	}
	illegal(t, fly(t, fighter(), at(60), "6 STEEP -10"), "steep-dive-altitude")
}

// Seed 000 rule (20): vertical dives: rated dive bombers and one- or two-engine fighters only, after a
// dive of half the maximum shallow dive, from a level or inverted bank; 400 ft a point, +2.0, a single
// hex; bank tokens turn the plane 60° and leave the bank alone.
func TestRule20VerticalDive(t *testing.T) {
	start := at(50)
	start.Last.DiveFt = 500 // half of 200 × 5
	r := fly(t, fighter(), start, "5 VERT")
	legal(t, r)
	if r.HexesMoved != 1 || r.End.Alt != 8000 || speedTerm(r, "20") != 20 || !r.End.Last.Vert {
		t.Errorf("vertical dive: moved %d alt %d log %+v", r.HexesMoved, r.End.Alt, r.SpeedLog)
	}
	if r.End.Hex != (hex.Hex{Q: 0, R: -1}) {
		t.Errorf("one hex ahead, got %v", r.End.Hex)
	}
	// Bank token early: most of the points come after it, so the hex is entered before the change.
	r = fly(t, fighter(), start, "1 BR 3 VERT")
	legal(t, r)
	if r.End.Hex != (hex.Hex{Q: 0, R: -1}) || r.End.Facing != 2 || r.End.Bank != notation.BankN {
		t.Errorf("early bank in VERT: hex %v facing %v bank %v", r.End.Hex, r.End.Facing, r.End.Bank)
	}
	// Bank token late: the hex is entered after the change, on the new heading.
	r = fly(t, fighter(), start, "3 BR 1 VERT")
	if r.End.Hex != (hex.Hex{}).Neighbor(2) || r.End.Facing != 2 {
		t.Errorf("late bank in VERT: hex %v facing %v", r.End.Hex, r.End.Facing)
	}
	illegal(t, fly(t, fighter(), start, "2 TR 2 VERT"), "vert-maneuver")
	illegal(t, fly(t, bomber(2), start, "5 VERT"), "vert-type")
	legal(t, fly(t, diveBomber(), start, "5 VERT"))
	shallow := at(50)
	shallow.Last.DiveFt = 400
	illegal(t, fly(t, fighter(), shallow, "5 VERT"), "vert-entry")
	banked := start
	banked.Bank = notation.BankRB
	illegal(t, fly(t, fighter(), banked, "5 VERT"), "vert-bank")
	illegal(t, fly(t, fighter(), start, "5 VERT -10"), "vert-altitude")
}

// Seed 000 rule (21): dive-bomb accuracy needs BOMB with VERT, ending at 3,000 ft or lower.
func TestRule21DiveBombing(t *testing.T) {
	start := at(50)
	start.Alt, start.Loaded, start.Last.DiveFt = 5000, true, 600
	r := fly(t, diveBomber(), start, "5 VERT BOMB")
	legal(t, r)
	if !r.DiveBombing || r.End.Loaded {
		t.Errorf("VERT+BOMB to 3,000 ft dive-bombs and drops the load: %+v", r)
	}
	start.Alt = 6000
	r = fly(t, diveBomber(), start, "5 VERT BOMB")
	if r.DiveBombing || len(r.Warnings) == 0 {
		t.Errorf("ending above 3,000 ft is glide bombing")
	}
	r = fly(t, diveBomber(), start, "5 -5 BOMB")
	if r.DiveBombing {
		t.Error("without VERT it is not dive bombing")
	}
	start.Loaded = false
	illegal(t, fly(t, diveBomber(), start, "5 BOMB"), "bomb-unloaded")
}

// Seed 000 rules (22) to (24): what a plane may do after last turn's vertical dive, steep dive or steep
// climb; each plot flown from that state is refused with the code, or flown.
func TestRules22To24AfterASteepOrVerticalTurn(t *testing.T) {
	for _, c := range []struct {
		name           string
		last           func(*LastTurn)
		code           string
		illegal, legal []string
	}{
		// Rule (22): after a vertical dive the plane dives at least half its maximum shallow dive, or
		// stays in a steep or vertical dive.
		{"rule 22, after a vertical dive", func(l *LastTurn) { l.Vert = true }, "pull-out-vert",
			[]string{"5", "5 -4"}, []string{"5 -5", "5 STEEP", "5 VERT"}},
		// Rule (23): after a steep dive the plane dives at least 300 ft and may not climb.
		{"rule 23, after a steep dive", func(l *LastTurn) { l.SteepDive = true }, "pull-out-steep",
			[]string{"5 -2", "5 +2"}, []string{"5 -3", "5 STEEP"}},
		// Rule (24): after a steep climb, no dive of any kind; level, climb or steep climb again.
		{"rule 24, after a steep climb", func(l *LastTurn) { l.SteepClimb = true }, "level-off",
			[]string{"5 -2", "5 STEEP"}, []string{"5", "5 +2", "5 STEEP +10"}},
	} {
		start := at(50)
		c.last(&start.Last)
		for _, plot := range c.illegal {
			t.Run(c.name+", "+plot, func(t *testing.T) { illegal(t, fly(t, fighter(), start, plot), c.code) })
		}
		for _, plot := range c.legal {
			t.Run(c.name+", "+plot, func(t *testing.T) { legal(t, fly(t, fighter(), start, plot)) })
		}
	}
}

// Seed 000 rule (25): a plane with one power factor may use it every other turn, below top level speed.
func TestRule25FractionalPower(t *testing.T) {
	c := fighter()
	c.Bands[0].Power = 1
	legal(t, fly(t, c, at(50), "5 P"))
	used := at(50)
	used.Last.Power = true
	e := illegal(t, fly(t, c, used, "5 P"), "power")
	if !strings.Contains(e.Message, "every other turn") {
		t.Errorf("the error should name the every-other-turn rule: %q", e.Message)
	}
	legal(t, fly(t, c, at(70), "7 P")) // level speed below the top: half of 1 rounded up
	illegal(t, fly(t, c, at(80), "8 P"), "power")
}

// Seed 000 rule (26): at manoeuvre speed 3 a printed turn mode of 1 or 2 becomes 1; above 3 the
// minimum for turns, slips and half rolls is 2.
func TestRule26LowTurnModes(t *testing.T) {
	start := at(30)
	start.Straight = 0
	legal(t, fly(t, fighter(), start, "TR TR TR")) // printed 2 → 1 at speed 3
	c := fighter()
	c.Bands[0].TM.Turn = 1
	s4 := at(40)
	s4.Straight = 0
	illegal(t, fly(t, c, s4, "TR TR 2"), "turn-mode") // printed 1 → at least 2 at speed 4
	legal(t, fly(t, c, s4, "1 TR 1 TR"))
	c.Bands[0].TM.Turn = 3
	illegal(t, fly(t, c, start, "TR 1 TR"), "turn-mode") // a printed 3 is not lowered at speed 3
}

// Seed 000 rule (27): at level speed the turn mode is at least 3, and at least speed-4 for fighters,
// speed-2 for unloaded twin bombers, the speed for loaded twins and heavy bombers.
func TestRule27LevelSpeedFloors(t *testing.T) {
	f := fighter()
	s7 := at(70)
	if c, _ := Apply(f, s7); c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 3 { // printed 2+1 level penalty, floor 3
		t.Errorf("fighter at level 7: TM %d", c.TurnMode(notation.Element{Kind: notation.Turn}, 0))
	}
	f.TMLevelPenalty = 0
	f.Bands[0].Level.Max, f.Bands[0].Dive.Min = 9, 10
	s9 := at(90)
	if c, _ := Apply(f, s9); c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 5 { // 9-4
		t.Errorf("fighter at level 9: TM %d want 5", c.TurnMode(notation.Element{Kind: notation.Turn}, 0))
	}
	b := bomber(2)
	b.TMLevelPenalty = 0
	if c, _ := Apply(b, s7); c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 5 { // 7-2
		t.Errorf("unloaded twin bomber at 7: TM %d want 5", c.TurnMode(notation.Element{Kind: notation.Turn}, 0))
	}
	loaded := at(60)
	loaded.Loaded = true
	if c, _ := Apply(b, loaded); c.Range != LevelSpeed || c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 6 {
		t.Errorf("loaded twin bomber at 6: range %v TM %d want 6", c.Range, c.TurnMode(notation.Element{Kind: notation.Turn}, 0))
	}
	h := bomber(4)
	h.TMLevelPenalty = 0
	if c, _ := Apply(h, s7); c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 7 {
		t.Errorf("four-engine bomber at 7: TM %d want 7", c.TurnMode(notation.Element{Kind: notation.Turn}, 0))
	}
	// Bank modes are not turn modes: the floors do not touch them.
	if c, _ := Apply(h, s7); c.TurnMode(notation.Element{Kind: notation.Roll, Side: notation.Right}, 1) != 2 {
		t.Error("the level-speed floor must not apply to a 1-point roll")
	}
}

// Seed 000 rule (28): at dive speed the turn mode is at least 4 and the speed floors apply, so a fighter
// at a dive speed of 10 has a turn mode of at least 6.
func TestRule28DiveSpeedFloors(t *testing.T) {
	f := fighter()
	f.TMDivePenalty = 0
	if c, _ := Apply(f, at(100)); c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 6 {
		t.Errorf("fighter diving at 10: TM %d want 6", c.TurnMode(notation.Element{Kind: notation.Turn}, 0))
	}
	if c, _ := Apply(f, at(90)); c.TurnMode(notation.Element{Kind: notation.Slip}, 0) != 5 {
		t.Errorf("fighter diving at 9: slip TM %d want 5", c.TurnMode(notation.Element{Kind: notation.Slip}, 0))
	}
	f.Bands[0].Dive.Min = 8
	f.Bands[0].Level.Max = 7
	if c, _ := Apply(f, at(80)); c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 4 {
		t.Errorf("the dive-speed minimum is 4")
	}
	f.Bands[0].TM.Turn = 8 // a printed figure above the floors wins
	if c, _ := Apply(f, at(100)); c.TurnMode(notation.Element{Kind: notation.Turn}, 0) != 8 {
		t.Errorf("printed TM above the floor must win")
	}
	start := at(100)
	start.Straight = 0
	illegal(t, fly(t, fighter(), start, "4 TR 5"), "turn-mode") // TM 2+2 penalty, floor 10-4 = 6
	legal(t, fly(t, fighter(), start, "5 TR 4"))
}

// Seed 000 rule (29): speed lost for 1-4 manoeuvres in the manoeuvre speed range, by class; loaded
// planes use the heaviest class; past four, the fourth increment again each (docs/rulings.md).
func TestRule29SpeedLossClasses(t *testing.T) {
	want := map[aircraft.LossClass][4]Tenths{
		aircraft.LossLWL: {1, 2, 3, 4}, aircraft.LossMWL: {1, 2, 4, 5}, aircraft.LossP40: {1, 3, 4, 6},
		aircraft.LossP51: {2, 3, 5, 6}, aircraft.LossP47: {2, 3, 5, 7}, aircraft.LossFw190: {2, 4, 5, 7},
		aircraft.LossHeavy: {2, 4, 6, 8},
	}
	for class, w := range want {
		for n := 1; n <= 4; n++ {
			if got := ManeuverLoss(class, ManeuverSpeed, n); got != w[n-1] {
				t.Errorf("%s %d manoeuvres: %v want %v", class, n, got, w[n-1])
			}
		}
	}
	if got := ManeuverLoss(aircraft.LossMWL, ManeuverSpeed, 6); got != 7 { // 0.5 + 2 × 0.1
		t.Errorf("MWL 6 manoeuvres: %v want 7", got)
	}
	if got := ManeuverLoss(aircraft.LossP47, ManeuverSpeed, 5); got != 9 { // 0.7 + 0.2
		t.Errorf("P47 5 manoeuvres: %v want 9", got)
	}
	d := diveBomber()
	start := at(50)
	r := fly(t, d, start, "1 TR 1 TR 1")
	start.Loaded = true
	rl := fly(t, d, start, "1 TR 1 TR 1")
	if speedTerm(r, "12/29") != -2 || speedTerm(rl, "12/29") != -4 {
		t.Errorf("loaded planes lose speed as HEAVY: clean %v loaded %v", speedTerm(r, "12/29"), speedTerm(rl, "12/29"))
	}
}

func TestTurnModeCountsFromTheLastManeuverOfAnyKind(t *testing.T) {
	// docs/rulings.md: with turn mode 2, "1 TR TR" is illegal and "1 TR 1 TR" legal; banks count as manoeuvres;
	// the count carries across turns.
	start := at(30)
	start.Straight = 0
	illegal(t, fly(t, fighter(), at(40), "1 TR TR 1"), "turn-mode")
	legal(t, fly(t, fighter(), at(40), "1 TR 1 TR"))
	s := at(40)
	s.Straight = 0
	illegal(t, fly(t, fighter(), s, "BR TR 2"), "turn-mode")
	s.Straight = 1
	r := fly(t, fighter(), s, "TR 3")
	legal(t, r)
	if r.End.Straight != 3 {
		t.Errorf("straight count carried to next turn: %d want 3", r.End.Straight)
	}
}

func TestStepsCarryAltitude(t *testing.T) {
	r := fly(t, fighter(), at(40), "4 -8")
	want := []int{9800, 9600, 9400, 9200}
	for i, s := range r.Steps {
		if s.Alt != want[i] {
			t.Errorf("step %d alt %d want %d", i+1, s.Alt, want[i])
		}
	}
}

func TestMinimumSpeedForcesADive(t *testing.T) {
	illegal(t, fly(t, fighter(), at(10), "1"), "below-minimum-speed")
	illegal(t, fly(t, fighter(), at(10), "1 -2"), "below-minimum-speed")
	legal(t, fly(t, fighter(), at(10), "1 -3")) // allowed although 200 ft × speed 1 is less
	illegal(t, fly(t, fighter(), at(10), "1 -4"), "dive-limit")
}

func TestEveryErrorHasAColumnWhenItIsAboutAToken(t *testing.T) {
	r := fly(t, fighter(), at(40), "1 TR TR 1")
	if e := illegal(t, r, "turn-mode"); e.Col != 6 {
		t.Errorf("turn-mode error at column %d, want 6", e.Col)
	}
}
