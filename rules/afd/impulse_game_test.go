package afd

import (
	"strconv"
	"strings"
	"testing"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	"sortie/rules/hex"
)

// impulseDuel: two planes far apart, in an impulse game: RED1 a Spitfire at speed 5 (active in
// impulses 3 5 8 10 12), BLUE1 a Bf 109 E at speed 4 (3 6 9 12), both at 8,000 ft.
const impulseDuel = annBen + `name: impulse duel
options: {fog_of_war: false, impulse: true}
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, 10], facing: 0, alt: 8000, speed: 5.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [10, -10], facing: 6, alt: 8000, speed: 4.0}
turns: 5
`

// man builds a manoeuvre from tokens as an impulse order writes them: "`", "1", a manoeuvre token,
// each optionally followed by "@FEET" (absolute altitude), "+N"/"-N" (hundreds of feet) or "P"/"K".
func man(tokens ...string) notation.Manoeuvre {
	var m notation.Manoeuvre
	for _, t := range tokens {
		switch {
		case strings.HasPrefix(t, "@"):
			b := &m.Boxes[len(m.Boxes)-1]
			b.Alt, _ = strconv.Atoi(t[1:])
			b.AltAbs, b.AltSet, b.AltCol = true, true, 1
			continue
		case strings.HasPrefix(t, "+") || strings.HasPrefix(t, "-"):
			b := &m.Boxes[len(m.Boxes)-1]
			n, _ := strconv.Atoi(t)
			b.Alt, b.AltSet, b.AltCol = n*100, true, 1
			continue
		case t == "P":
			m.Boxes[len(m.Boxes)-1].Power++
			continue
		case t == "K":
			m.Boxes[len(m.Boxes)-1].Brake++
			continue
		}
		b := notation.Box{Col: 1}
		switch t {
		case "`":
			b.Move = notation.Element{Kind: notation.Straight, N: 1}
		case "1":
			b.Move, b.Forwards = notation.Element{Kind: notation.Straight, N: 1}, true
		default:
			p, _ := notation.ParsePlot(t)
			b.Move = p.Elements[0]
		}
		m.Boxes = append(m.Boxes, b)
		if b.Move.Kind == notation.HalfRoll {
			m.Boxes = append(m.Boxes, notation.Box{Cont: true, Move: notation.Element{Kind: notation.Straight, N: 1}})
		}
	}
	return m
}

func impOrders(pairs ...any) map[string]notation.ImpulseOrder {
	out := map[string]notation.ImpulseOrder{}
	for i := 0; i < len(pairs); i += 2 {
		o := out[pairs[i].(string)]
		o.Manoeuvres = append(o.Manoeuvres, pairs[i+1].(notation.Manoeuvre))
		out[pairs[i].(string)] = o
	}
	return out
}

func runImpulse(t *testing.T, st *State, o map[string]notation.ImpulseOrder) (*State, []Event) {
	t.Helper()
	next, ev, err := ResolveImpulse(testEnv(t), st, o, dice.NewSeeded(dice.SeedFromUint64(7)))
	if err != nil {
		t.Fatal(err)
	}
	return next, ev
}

// TestImpulsePlanesMoveInTheirActiveImpulses: a plane moves one hex in each active impulse of its
// initial speed and stands still in the others (seed 001 VI.2, VI.4, XII); the engine stops at the end
// of the impulse in which a plane completes its manoeuvre with nothing queued (X.A.2), and asks only
// that plane's owner.
func TestImpulsePlanesMoveInTheirActiveImpulses(t *testing.T) {
	st := newTestGame(t, impulseDuel)
	// RED1 queues three forwards manoeuvres, BLUE1 one: both move in impulse 3; BLUE1 is then done.
	st, _ = runImpulse(t, st, impOrders("RED1", man("1"), "RED1", man("1"), "RED1", man("1"), "BLUE1", man("1")))
	red, blue := st.Plane("RED1"), st.Plane("BLUE1")
	if st.Clock.Impulse != 4 || st.Turn != 1 {
		t.Fatalf("the engine stopped before impulse %d of turn %d, want 4 of 1", st.Clock.Impulse, st.Turn)
	}
	if red.Flight.Hex != (hex.Hex{Q: 0, R: 9}) || blue.Flight.Hex != (hex.Hex{Q: 10, R: -9}) {
		t.Errorf("after impulse 3: RED1 %v, BLUE1 %v", red.Flight.Hex, blue.Flight.Hex)
	}
	if !blue.NeedsOrders() || red.NeedsOrders() || len(red.Imp.Queue) != 2 {
		t.Errorf("only BLUE1 waits: BLUE1 %v, RED1 %v (%d queued)", blue.NeedsOrders(), red.NeedsOrders(), len(red.Imp.Queue))
	}
	// BLUE1 flies forwards again; RED1 moves in 5 and 8 and is done in 8; BLUE1 in 6 (done): stop after 6.
	st, _ = runImpulse(t, st, impOrders("BLUE1", man("1")))
	if st.Clock.Impulse != 7 || st.Plane("RED1").Flight.Hex != (hex.Hex{Q: 0, R: 8}) || st.Plane("BLUE1").Flight.Hex != (hex.Hex{Q: 10, R: -8}) {
		t.Errorf("after impulse 6: clock %d, RED1 %v, BLUE1 %v", st.Clock.Impulse, st.Plane("RED1").Flight.Hex, st.Plane("BLUE1").Flight.Hex)
	}
}

// TestImpulseManoeuvreCrossesIntoTheNextTurn: a manoeuvre that needs more impulses than the turn has
// left is flown to the end of the turn, the new initial values are worked out, and it goes on in the
// next turn's impulses (seed 001 II, X.A.3, X.B.5); the turn's boxes make a plain plot of exactly the
// plane's speed.
func TestImpulseManoeuvreCrossesIntoTheNextTurn(t *testing.T) {
	st := newTestGame(t, impulseDuel)
	// RED1: four forwards (impulses 3 5 8 10), then ` ` TR: impulse 12 this turn, 3 and 5 next turn.
	o := impOrders("RED1", man("1"), "RED1", man("1"), "RED1", man("1"), "RED1", man("1"), "RED1", man("`", "`", "TR"),
		"BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"))
	st, _ = runImpulse(t, st, o)
	red := st.Plane("RED1")
	if st.Turn != 2 || st.Clock.Impulse != 6 {
		t.Fatalf("RED1's turn ends in impulse 5 of turn 2; the engine stopped before %d of turn %d", st.Clock.Impulse, st.Turn)
	}
	if red.Flight.Facing != 1 || red.Flight.Hex != (hex.Hex{Q: 0, R: 3}) {
		t.Errorf("RED1 after five hexes and two more then a right turn: %v facing %v", red.Flight.Hex, red.Flight.Facing)
	}
	if red.Imp.Start.Speed.Round() != 5 || red.Imp.Start.Hex != (hex.Hex{Q: 0, R: 5}) {
		t.Errorf("new initial values at the end of turn 1: %+v", red.Imp.Start)
	}
	if len(red.Imp.Flown) != 2 {
		t.Errorf("turn 2 has flown %d boxes of RED1's", len(red.Imp.Flown))
	}
}

// TestImpulseForwardsManoeuvreInABankLoses100ft: a forwards manoeuvre flown in a bank loses 100 ft in
// its impulse (seed 001 X.E.1.f); level, it keeps its height and costs no speed (X.E.1.e).
func TestImpulseForwardsManoeuvreInABankLoses100ft(t *testing.T) {
	st := newTestGame(t, strings.Replace(impulseDuel, "alt: 8000, speed: 5.0}", "alt: 8000, speed: 5.0, bank: RB}", 1))
	st, _ = runImpulse(t, st, impOrders("RED1", man("1"), "BLUE1", man("1")))
	if got := st.Plane("RED1").Flight.Alt; got != 7900 {
		t.Errorf("a banked forwards manoeuvre: %d ft, want 7,900", got)
	}
	if got := st.Plane("BLUE1").Flight.Alt; got != 8000 {
		t.Errorf("a level forwards manoeuvre: %d ft, want 8,000", got)
	}
}

// TestImpulseMaximumPerformanceTurnLoses100ft: a turn after only the minimum hexes loses 100 ft in the
// impulse of the turn (seed 001 X.E.2.a); one more hex before it, and it loses nothing.
func TestImpulseMaximumPerformanceTurnLoses100ft(t *testing.T) {
	pt := planeTurn{card: card(t, "spitfire-i"), start: Flight{Speed: 50, Alt: 8000, Facing: 0, Straight: 0}, left: 5, alt: 8000, engine: 1}
	fc := tryManoeuvre(pt, man("`", "TR"), 0) // the Spitfire turns after 2 hexes at 8,000 ft
	if len(fc.errors) > 0 || len(fc.boxes) != 2 || fc.boxes[1].Alt != 7900 || fc.boxes[0].Alt != 8000 {
		t.Errorf("a maximum-performance turn: %+v %v", fc.boxes, fc.errors)
	}
	fc = tryManoeuvre(pt, man("`", "`", "TR"), 0)
	if len(fc.errors) > 0 || fc.boxes[2].Alt != 8000 {
		t.Errorf("a turn after three hexes: %+v %v", fc.boxes, fc.errors)
	}
	fc = tryManoeuvre(pt, man("`", "TR", "+1"), 0)
	if len(fc.errors) == 0 || fc.errors[0].Code != "impulse-loss" {
		t.Errorf("a maximum-performance turn may not climb: %v", fc.errors)
	}
	fc = tryManoeuvre(pt, man("TR"), 0)
	if len(fc.errors) == 0 || fc.errors[0].Code != "turn-mode" {
		t.Errorf("a turn before its turn mode: %v", fc.errors)
	}
}

// TestImpulseTurnAfterASlipIsNoMaximumPerformanceTurn: a turn flown after only the minimum of hexes
// loses no height when the plane's last manoeuvre before it was a slip with only straight hexes between
// (seed 001 X.E.3.b; docs/rulings.md "Turns after a slip"), whether the slip came this turn or at the end
// of the last. The slip flown at its own minimum still loses its 100 ft (X.E.3.a), and a turn that follows
// another manoeuvre after the slip is judged as usual (X.E.2.a). The Spitfire's turn and slip modes are 2
// at speed 5 and 8,000 ft.
func TestImpulseTurnAfterASlipIsNoMaximumPerformanceTurn(t *testing.T) {
	pt := planeTurn{card: card(t, "spitfire-i"), start: Flight{Speed: 50, Alt: 8000, Straight: 0}, left: 5, alt: 8000, engine: 1}
	fc := tryManoeuvre(pt, man("`", "SR"), 0)
	if len(fc.errors) > 0 || fc.boxes[1].Alt != 7900 {
		t.Fatalf("a maximum-performance slip loses 100 ft: %+v %v", fc.boxes, fc.errors)
	}
	after := func(flown []FlownBox, slipLast bool) planeTurn {
		q := pt
		q.flown, q.slipLast = flown, slipLast // left stays 5: room for the manoeuvre (only the boxes count here)
		if len(flown) > 0 {
			q.alt = flown[len(flown)-1].Alt
		}
		return q
	}
	slip := fc.boxes
	for _, tc := range []struct {
		what     string
		pt       planeTurn
		m        notation.Manoeuvre
		loss     bool
		mandated int
	}{
		{"a turn after the slip and the minimum hex", after(slip, false), man("`", "TR"), false, 0},
		{"a turn after the slip and a forwards manoeuvre", after(append(append([]FlownBox(nil), slip...), FlownBox{Token: "1", Alt: 7900}), false), man("TR"), false, 0},
		{"a turn after a slip at the end of last turn", after(nil, true), man("`", "TR"), false, 0},
		{"a turn after a turn after the slip", after(append(append([]FlownBox(nil), slip...), FlownBox{Token: "`", Alt: 7900}, FlownBox{Token: "TR", Alt: 7900}), false), man("`", "TR"), true, 100},
		{"a turn after a bank after the slip", after(append(append([]FlownBox(nil), slip...), FlownBox{Token: "`", Alt: 7900}, FlownBox{Token: "RB", Alt: 7900}), false), man("`", "TR"), true, 100},
		{"a turn with no slip before it", after(nil, false), man("`", "TR"), true, 100},
	} {
		fc := tryManoeuvre(tc.pt, tc.m, 0)
		last := fc.boxes[len(fc.boxes)-1]
		if len(fc.errors) > 0 || (tc.pt.alt-last.Alt == 100) != tc.loss || last.Mandatory != tc.mandated {
			t.Errorf("%s: %d ft from %d (loss %d), want a loss: %v; %v", tc.what, last.Alt, tc.pt.alt, last.Mandatory, tc.loss, fc.errors)
		}
		if warned := len(fc.warnings) > 0 && fc.warnings[0].Code == "impulse-loss"; warned != tc.loss {
			t.Errorf("%s: warned of the loss %v, want %v: %v", tc.what, warned, tc.loss, fc.warnings)
		}
	}
}

// TestImpulseSkidTurnAtItsMinimumIsAMaximumPerformanceSlip: a skid turn is a slip with a turn in its
// hex (seed 000 rules 3, 10): flown after only the minimum of hexes it is a maximum-performance slip and
// loses 100 ft (seed 001 X.E.3.a), and only 100, its turn coming with the slip (X.E.3.b); one hex
// more and it loses nothing; a turn straight after it loses nothing either. The Spitfire, banked left
// for the skid's left turn, has turn and slip modes of 2 at speed 5 and 8,000 ft.
func TestImpulseSkidTurnAtItsMinimumIsAMaximumPerformanceSlip(t *testing.T) {
	pt := planeTurn{card: card(t, "spitfire-i"), start: Flight{Speed: 50, Alt: 8000, Bank: notation.BankLB, Straight: 0}, left: 5, alt: 8000, bank: notation.BankLB, engine: 1}
	fc := tryManoeuvre(pt, man("`", "SRTL"), 0)
	if len(fc.errors) > 0 || fc.boxes[1].Alt != 7900 || fc.boxes[1].Mandatory != 100 {
		t.Fatalf("a skid turn at its minimum: %+v %v", fc.boxes, fc.errors)
	}
	q := pt
	q.flown, q.alt = fc.boxes, 7900
	if fc := tryManoeuvre(q, man("`", "TL"), 0); len(fc.errors) > 0 || fc.boxes[1].Alt != 7900 {
		t.Errorf("a turn straight after a skid turn: %+v %v", fc.boxes, fc.errors)
	}
	if fc := tryManoeuvre(pt, man("`", "`", "SRTL"), 0); len(fc.errors) > 0 || fc.boxes[2].Alt != 8000 {
		t.Errorf("a skid turn after more than its minimum: %+v %v", fc.boxes, fc.errors)
	}
}

// TestImpulseGameTurnAfterASlipKeepsItsHeight: the same through the engine, as a game plays it (seed
// 001 X.E.3.b): RED1, a Spitfire at speed 5 (impulses 3 5 8 10 12), slips, then turns after the minimum
// of one straight hex; once within a turn, once with the slip in impulse 12 and the turn in the next
// turn, which must remember the slip. It keeps its 8,000 ft both times.
func TestImpulseGameTurnAfterASlipKeepsItsHeight(t *testing.T) {
	for _, tc := range []struct {
		what  string
		ms    []notation.Manoeuvre
		turn  int
		slips bool // the turn begins with the slip remembered
	}{
		{"within a turn", []notation.Manoeuvre{man("SR"), man("`", "TR")}, 1, false},
		{"across the turn's end", []notation.Manoeuvre{man("1"), man("1"), man("1"), man("1"), man("SR"), man("`", "TR")}, 2, true},
	} {
		st := newTestGame(t, impulseDuel)
		o := map[string]notation.ImpulseOrder{"RED1": {Manoeuvres: tc.ms}}
		for i := 0; i < 10; i++ {
			o = mergeOrders(o, impOrders("BLUE1", man("1")))
		}
		var events []Event
		for i := 0; i < 10 && (i == 0 || !st.Plane("RED1").NeedsOrders()); i++ {
			var ev []Event
			st, ev = runImpulse(t, st, o)
			o = nil
			events = append(events, ev...)
		}
		red := st.Plane("RED1")
		if !red.NeedsOrders() || st.Turn != tc.turn || red.Flight.Facing != 1 {
			t.Fatalf("%s: RED1 should have flown its turn in turn %d: turn %d, facing %v, waiting %v, %+v", tc.what, tc.turn, st.Turn, red.Flight.Facing, red.NeedsOrders(), events)
		}
		if red.Flight.Alt != 8000 {
			t.Errorf("%s: RED1 at %d ft after a turn straight after its slip, want 8,000 (no maximum-performance loss)", tc.what, red.Flight.Alt)
		}
		if tc.slips && (red.Imp.Start.Alt != 8000 || len(red.Imp.Flown) != 2) {
			t.Errorf("%s: turn 2 should start at 8,000 ft and fly two boxes: %+v", tc.what, red.Imp)
		}
	}
}

// TestImpulseAltitudeShare: the card's climb for the turn is shared among the active impulses, the
// remainder to impulses of the player's choice (seed 001 X.D.1, X.D.2); climb and dive may come in
// one turn (X.D.3). The Spitfire climbs 300 ft a turn at 8,000 ft: at speed 5, 0 ft an impulse with
// three impulses that may take 100.
func TestImpulseAltitudeShare(t *testing.T) {
	pt := planeTurn{card: card(t, "spitfire-i"), start: Flight{Speed: 50, Alt: 8000, Straight: Plenty}, left: 5, alt: 8000, engine: 1}
	fc := tryManoeuvre(pt, man("`", "+1", "`", "+1", "`", "+1", "`", "`", "TR"), 0)
	if len(fc.errors) != 0 || fc.boxes[2].Alt != 8300 {
		t.Errorf("three impulses of 100 ft: %v %+v", fc.errors, fc.boxes)
	}
	fc = tryManoeuvre(pt, man("`", "+1", "`", "+1", "`", "+1", "`", "+1", "TR"), 0)
	if len(fc.errors) != 1 || fc.errors[0].Code != "impulse-climb-extra" {
		t.Errorf("a fourth 100 ft climb: %v", fc.errors)
	}
	fc = tryManoeuvre(pt, man("`", "+2", "`", "TR"), 0)
	if len(fc.errors) != 1 || fc.errors[0].Code != "impulse-climb" {
		t.Errorf("200 ft in one impulse: %v", fc.errors)
	}
	// Dive 200 ft a turn per point of speed: 1,000 ft at speed 5, 200 an impulse.
	fc = tryManoeuvre(pt, man("`", "-2", "`", "+1", "`", "-3", "`", "TR"), 0)
	if len(fc.errors) != 1 || fc.errors[0].Code != "impulse-dive" {
		t.Errorf("climb and dive in one turn, 300 ft dived in one impulse: %v", fc.errors)
	}
}

// impulseFight: RED1 (Spitfire, speed 4) and BLUE1 (He 111, speed 4) close, nose to tail: the
// Spitfire behind the bomber, both flying north.
const impulseFight = annBen + `name: impulse fight
options: {fog_of_war: false, impulse: true}
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, 3], facing: 0, alt: 8000, speed: 4.0}
  - {callsign: BLUE1, type: he-111h, side: B, player: ben, hex: [0, 0], facing: 0, alt: 8000, speed: 4.0}
turns: 5
`

// TestImpulseFixedGunsOnceATurnFlexAnyImpulse: fixed guns fire once a turn, in an active impulse; a
// flexible gun once a turn, in any impulse (seed 001 VII.2, VII.4, VII.5); the turn after, both may
// fire again.
func TestImpulseFixedGunsOnceATurnFlexAnyImpulse(t *testing.T) {
	st := newTestGame(t, impulseFight)
	var o = map[string]notation.ImpulseOrder{}
	for i := 0; i < 8; i++ {
		o = mergeOrders(o, impOrders("RED1", man("1"), "BLUE1", man("1")))
	}
	var events []Event
	for st.Turn <= 2 && !st.Over {
		var ev []Event
		st, ev = runImpulse(t, st, o)
		o = nil
		events = append(events, ev...)
	}
	fixed, flex := map[int][]int{}, map[int][]int{}
	for _, e := range events {
		if e.Kind != EvFire {
			continue
		}
		if e.Plane == "RED1" && !e.Fire.Flexible {
			fixed[e.Turn] = append(fixed[e.Turn], e.Impulse)
		}
		if e.Plane == "BLUE1" && e.Fire.Flexible {
			flex[e.Turn] = append(flex[e.Turn], e.Impulse)
		}
	}
	for turn := 1; turn <= 2; turn++ {
		if len(fixed[turn]) > 1 || len(flex[turn]) > 1 {
			t.Errorf("turn %d: fixed guns fired in impulses %v, flexible in %v: once a turn each", turn, fixed[turn], flex[turn])
		}
		for _, i := range fixed[turn] {
			if activeTimes(4, i) == 0 {
				t.Errorf("turn %d: fixed guns fired in impulse %d, not an active impulse of speed 4", turn, i)
			}
		}
	}
	if len(fixed[1]) != 1 || len(flex[1]) != 1 {
		t.Fatalf("both should fire in turn 1: fixed %v, flexible %v", fixed, flex)
	}
	// The flexible gun fires in the first impulse it can: impulse 1, before anyone moved (VII.5).
	if flex[1][0] != 1 {
		t.Errorf("the He 111's flexible gun fired first in impulse %d, want 1 (no movement needed)", flex[1][0])
	}
}

func mergeOrders(a, b map[string]notation.ImpulseOrder) map[string]notation.ImpulseOrder {
	for k, v := range b {
		o := a[k]
		o.Manoeuvres = append(o.Manoeuvres, v.Manoeuvres...)
		a[k] = o
	}
	return a
}

// TestImpulseBailOutOnTheNextActiveImpulse: a plane shot down stays on the map, moves and fires no
// more, and its crew tries to bail out on its next active impulse (seed 001 IX.2-IX.4).
func TestImpulseBailOutOnTheNextActiveImpulse(t *testing.T) {
	st := newTestGame(t, impulseFight)
	blue := st.Plane("BLUE1")
	c := card(t, "he-111h")
	for i := range blue.Damage { // one box short everywhere: the next hit brings it down
		blue.Damage[i] = max(c.Systems[i].Boxes-1, 0)
	}
	var o = map[string]notation.ImpulseOrder{}
	for i := 0; i < 8; i++ {
		o = mergeOrders(o, impOrders("RED1", man("1"), "BLUE1", man("1")))
	}
	var events []Event
	for i := 0; i < 20 && !st.Over; i++ {
		var ev []Event
		st, ev = runImpulse(t, st, o)
		o = nil
		events = append(events, ev...)
	}
	downAt, bailAt := 0, 0
	for _, e := range events {
		if e.Kind == EvShotDown && e.Plane == "BLUE1" {
			downAt = impulseID(e.Turn, e.Impulse)
		}
		if e.Kind == EvBailOut && e.Plane == "BLUE1" {
			bailAt = impulseID(e.Turn, e.Impulse)
		}
		if downAt > 0 && e.Plane == "BLUE1" && impulseID(e.Turn, e.Impulse) > downAt && (e.Kind == EvMove || e.Kind == EvFire) {
			t.Errorf("BLUE1 %s after it was shot down: %s", e.Kind, e.Text)
		}
	}
	if downAt == 0 || bailAt == 0 {
		t.Fatalf("BLUE1 shot down at %d, bailed out at %d", downAt, bailAt)
	}
	// Speed 4 is active in impulses 3 6 9 12: the bail-out comes at the first of them after the loss.
	want := 0
	for id := downAt + 1; want == 0; id++ {
		if imp := (id-1)%12 + 1; activeTimes(4, imp) > 0 {
			want = id
		}
	}
	if bailAt != want {
		t.Errorf("shot down in impulse %d of turn %d, bailed out at %d, want %d", (downAt-1)%12+1, (downAt-1)/12, bailAt, want)
	}
	if !st.Over || st.Outcome == nil {
		t.Errorf("side B has nothing left flying: the game is over (%v)", st.Over)
	}
}

// TestImpulseEngineLossErasesPower: when a plane loses an engine, the power factors still to come in
// its queued manoeuvres are erased and its owner told (seed 001 X.C.3).
func TestImpulseEngineLossErasesPower(t *testing.T) {
	st := newTestGame(t, impulseFight)
	red := st.Plane("RED1")
	red.Imp.Queue = []notation.Manoeuvre{man("1", "P"), man("`", "P", "`", "TR")}
	red.Flight.NoPower = true
	r := &impulseRun{resolution: resolution{env: testEnv(t), ns: st, d: dice.NewSeeded(dice.SeedFromUint64(1)), cards: map[string]*aircraft.Card{}, climbs: map[string]int{}, hits: map[string][]int{}}}
	r.erasePower(red)
	for _, m := range red.Imp.Queue {
		for _, b := range m.Boxes {
			if b.Power != 0 {
				t.Errorf("a power factor is left in %s", m.String())
			}
		}
	}
	if len(r.events) != 1 || !strings.Contains(r.events[0].Text, "2 power factors") || r.events[0].Player != "ann" {
		t.Errorf("the owner is told: %+v", r.events)
	}
}

// TestImpulseQueuedManoeuvreThatBecomesIllegal: a queued manoeuvre flown in a later turn is checked
// when the turn begins; one that the new initial values forbid (here a climb into the Spitfire's
// 10,000 ft band raises its turn mode from 2 to 3) is dropped with the rest of the queue, the owner
// told why, and the engine stops for a new order (seed 001 X.A.3 with seed 000's turn modes).
func TestImpulseQueuedManoeuvreThatBecomesIllegal(t *testing.T) {
	st := newTestGame(t, strings.Replace(impulseDuel, "alt: 8000, speed: 5.0}", "alt: 9700, speed: 5.0}", 1))
	o := impOrders("RED1", man("`", "+1", "`", "+1", "`", "+1", "`", "TR"), "RED1", man("`", "TR"))
	for i := 0; i < 6; i++ {
		o = mergeOrders(o, impOrders("BLUE1", man("1")))
	}
	var events []Event
	var ev []Event
	for i := 0; i < 5 && !st.Plane("RED1").NeedsOrders() || i == 0; i++ {
		st, ev = runImpulse(t, st, o)
		o = impOrders("BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"))
		events = append(events, ev...)
	}
	red := st.Plane("RED1")
	if red.Imp.Start.Alt != 10000 || st.Turn != 2 || !red.NeedsOrders() {
		t.Fatalf("RED1 should start turn 2 at 10,000 ft waiting for orders: alt %d, turn %d, waiting %v", red.Imp.Start.Alt, st.Turn, red.NeedsOrders())
	}
	if st.Clock.Impulse != 1 {
		t.Errorf("the engine stops at the start of turn 2, before impulse %d", st.Clock.Impulse)
	}
	found := false
	for _, e := range events {
		if e.Kind == EvIllegalOrder && e.Plane == "RED1" && strings.Contains(e.Text, "can no longer be flown") && len(e.Extras().Problems) > 0 && e.Extra.Problems[0].Code == "turn-mode" {
			found = true
		}
	}
	if !found {
		t.Errorf("RED1's owner must be told why its queued turn was dropped: %+v", events)
	}
}

// TestImpulseHalfLoopAtMaximumRate: a half loop climbs (or dives) at its maximum rate in every impulse
// of the loop, whatever the rest of the turn does (seed 001 X.E.4.a, b); the rate is the plain game's
// steep climb or dive (rules 18, 19) shared among the active impulses: 1,000 ft at speed 5, 200 ft an
// impulse. The loop reverses the plane and turns it over as in the plain game (rule 5).
func TestImpulseHalfLoopAtMaximumRate(t *testing.T) {
	pt := planeTurn{card: card(t, "spitfire-i"), start: Flight{Speed: 50, Alt: 8000, Straight: Plenty}, left: 5, alt: 8000, engine: 1}
	fc := tryManoeuvre(pt, man("`", "+2", "`", "+2", "V", "+2"), 0)
	if len(fc.errors) > 0 {
		t.Fatalf("a climbing half loop at 200 ft an impulse: %v", fc.errors)
	}
	last := fc.res.Steps[len(fc.res.Steps)-1]
	if last.Facing != 6 || last.Bank != notation.BankI || fc.boxes[2].Alt != 8600 {
		t.Errorf("after the loop: facing %v, bank %v, %d ft", last.Facing, last.Bank, fc.boxes[2].Alt)
	}
	for _, bad := range []notation.Manoeuvre{man("`", "+1", "`", "+2", "V", "+2"), man("`", "`", "V", "+2"), man("`", "+2", "`", "-2", "V", "+2")} {
		fc := tryManoeuvre(pt, bad, 0)
		if len(fc.errors) == 0 || fc.errors[0].Code != "impulse-loop-rate" {
			t.Errorf("%s: %v", bad.String(), fc.errors)
		}
	}
	// Diving from inverted: the loop brings the plane back upright.
	pt.start.Bank, pt.bank = notation.BankI, notation.BankI
	fc = tryManoeuvre(pt, man("`", "-2", "V", "-2"), 0)
	if len(fc.errors) > 0 || fc.res.Steps[len(fc.res.Steps)-1].Bank != notation.BankN {
		t.Errorf("a diving half loop: %v", fc.errors)
	}
	// A loop climbing in the wrong bank is the plain game's fault (rule 5).
	pt.start.Bank, pt.bank = notation.BankI, notation.BankI
	fc = tryManoeuvre(pt, man("`", "+2", "V", "+2"), 0)
	if len(fc.errors) == 0 || fc.errors[0].Code != "loop-bank" {
		t.Errorf("a climbing loop from inverted: %v", fc.errors)
	}
}

// TestImpulsePhaseOrder: within an impulse the planes move before anyone fires (seed 001 III: C
// before D), so a fighter closing in its impulse fires from its new hex in that same impulse.
func TestImpulsePhaseOrder(t *testing.T) {
	scn := strings.NewReplacer("alt: 8000, speed: 4.0}\n  - {callsign: BLUE1", "alt: 8000, speed: 5.0}\n  - {callsign: BLUE1",
		"type: he-111h, side: B, player: ben, hex: [0, 0], facing: 0, alt: 8000, speed: 4.0}", "type: he-111h, side: B, player: ben, hex: [0, 0], facing: 0, alt: 8000, speed: 2.0}").Replace(impulseFight)
	st := newTestGame(t, scn)
	if st.Plane("RED1").Flight.Speed != 50 || st.Plane("BLUE1").Flight.Speed != 20 {
		t.Fatal("the scenario did not take the speeds")
	}
	o := impOrders("RED1", man("1"), "BLUE1", man("1"))
	_, events := runImpulse(t, st, o)
	for _, e := range events {
		if e.Kind == EvFire && e.Plane == "RED1" {
			if e.Impulse != 3 || e.Fire.Range != 2 {
				t.Errorf("RED1 fired in impulse %d at range %d; it moves in impulse 3 from 3 hexes behind to 2, and fires from there", e.Impulse, e.Fire.Range)
			}
			return
		}
	}
	t.Fatalf("RED1 did not fire: %+v", events)
}
