package afd

import (
	"slices"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
)

// strikeRange: a P-47 with four rocket salvos flies north at 1,000 ft (level 1) and ends its plot at
// (0,1), two hexes short of a truck at (0,-1); an enemy fighter waits ahead within gun range.
const strikeRange = annBen + `name: strike range
options: {fog_of_war: false}
ground:
  - {callsign: TRUCK1, kind: truck, side: B, hex: [0, -1]}
  - {callsign: TRUCK2, kind: truck, side: B, hex: [0, -1]}
aircraft:
  - {callsign: P47, type: p-47d, side: A, player: ann, hex: [0, 4], facing: 0, alt: 1000, speed: 3.0, rockets: 4}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [0, -2], facing: 0, alt: 1000, speed: 3.0}
turns: 3
`

func strikeTurn(t *testing.T, scn, order string, dice map[string]int) (*State, []Event) {
	t.Helper()
	st := newTestGame(t, scn)
	o, ds := notation.ParseOrder(order)
	if len(ds) > 0 {
		t.Fatalf("%q: %v", order, ds)
	}
	hold, _ := notation.ParseOrder("3 HOLD")
	next, events, err := Resolve(testEnv(t), st, map[string]notation.Order{"P47": o, "BLUE1": hold}, &labelDice{want: dice})
	if err != nil {
		t.Fatal(err)
	}
	return next, events
}

func kindTexts(events []Event, kinds ...string) string {
	var b strings.Builder
	for _, e := range events {
		for _, k := range kinds {
			if e.Kind == k {
				b.WriteString(e.Text + "\n")
			}
		}
	}
	return b.String()
}

// TestRocketAttack (seed 002, rocket attacks): four salvos fired 2 hexes ahead from level 1: a d10 of 5
// is on target (5 to 9 at level 1), worth 3 × 2 (three or four salvos) × 1 = 6 on the primary target
// and half, 3, on the other truck in its hex; a d10 of 4 is a near miss and does nothing. The rockets
// are gone either way, and the pilot fires no fixed guns at planes that turn.
func TestRocketAttack(t *testing.T) {
	next, events := strikeTurn(t, strikeRange, "3 ROCKET AT TRUCK2 FIRE ANY", map[string]int{
		"turn 1 P47 rockets: d10": 5, "turn 1 P47 rockets TRUCK2: attack d10": 4, "turn 1 P47 rockets TRUCK1: attack d10": 1})
	text := kindTexts(events, EvBombs, EvGroundDamage)
	for _, want := range []string{
		"P47 fired 4 rocket salvos at TRUCK2, 2 hexes off, from 1,000 ft (level 1): d10 5 +0 = on target",
		"P47's rockets on TRUCK2 (truck): attack 6 + 4 against defence 2 + 1: destroyed",
		"P47's rockets on TRUCK1 (truck): attack 3 + 1 against defence 2 + 1: light damage",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	if p := next.Plane("P47"); p.Rockets != 0 {
		t.Errorf("%d salvos left", p.Rockets)
	}
	for _, e := range events {
		if e.Kind == EvFire && e.Plane == "P47" && !e.Fire.Flexible {
			t.Errorf("P47 fired its fixed guns after its rockets: %s", e.Text)
		}
	}
	_, events = strikeTurn(t, strikeRange, "3 ROCKET", map[string]int{"turn 1 P47 rockets: d10": 4})
	if text := kindTexts(events, EvBombs, EvGroundDamage); !strings.Contains(text, "= near miss: no damage") || strings.Contains(text, "rockets on") {
		t.Errorf("a near miss:\n%s", text)
	}
	// From 3,000 ft (level 2) rockets are not fired at all, and the player is told why.
	_, events = strikeTurn(t, strings.Replace(strikeRange, "alt: 1000, speed: 3.0, rockets", "alt: 3000, speed: 3.0, rockets", 1), "3 ROCKET", nil)
	if text := kindTexts(events, EvIllegalOrder); !strings.Contains(text, "made no rocket attack: rockets are fired from altitude level 1 or lower") {
		t.Errorf("level 2:\n%s", text)
	}
}

// TestStrafing (seed 002, strafing targets): the P-47's eight .50s are gun factor 4 (house rule); from
// level 1 (-1) at range 2 (-2) its attack is 1; a d10 of 9 makes 10 against the truck's 2 + 1, three
// times its defence: destroyed. One burst of each fixed gun position is spent.
func TestStrafing(t *testing.T) {
	if gf := GunFactor(card(t, "p-47d")); gf != 4 {
		t.Errorf("P-47 gun factor %d, want 4", gf)
	}
	if gf := GunFactor(card(t, "bf-109e")); gf != 3 {
		t.Errorf("Bf 109 E gun factor %d, want 3 (two rifle-calibre guns and two 20 mm: 2.5)", gf)
	}
	before := newTestGame(t, strikeRange).Plane("P47").Ammo
	next, events := strikeTurn(t, strikeRange, "3 STRAFE AT TRUCK1", map[string]int{"turn 1 P47 strafes TRUCK1: attack d10": 9})
	text := kindTexts(events, EvBombs, EvGroundDamage)
	if !strings.Contains(text, "P47 strafed TRUCK1, 2 hexes off, from 1,000 ft: gun factor 4 -1 altitude 1, -2 range 2 = 1") ||
		!strings.Contains(text, "P47's strafing on TRUCK1 (truck): attack 1 + 9 against defence 2 + 1: destroyed") ||
		!strings.Contains(text, "P47's strafing on TRUCK2 (truck): attack 1 + 1") {
		t.Errorf("strafing:\n%s", text)
	}
	for _, g := range next.Plane("P47").Ammo {
		if g.Bursts != before.Left(g.Gun)-1 {
			t.Errorf("gun %s: %d bursts left of %d", g.Gun, g.Bursts, before.Left(g.Gun))
		}
	}
	// A purpose-built ground-attack aircraft (the scenario says so) adds 4 (seed 002).
	_, events = strikeTurn(t, strings.Replace(strikeRange, "rockets: 4}", "rockets: 4, ground_attack: true}", 1), "3 STRAFE AT TRUCK1", nil)
	if text := kindTexts(events, EvBombs); !strings.Contains(text, "+4 ground-attack aircraft = 5") {
		t.Errorf("a ground-attack aircraft:\n%s", text)
	}
	// A bridge cannot be hurt by strafing.
	scn := strings.Replace(strikeRange, "{callsign: TRUCK1, kind: truck, side: B, hex: [0, -1]}", "{callsign: BR, kind: bridge, side: B, hex: [0, -1]}", 1)
	scn = strings.Replace(scn, "{callsign: TRUCK2, kind: truck, side: B, hex: [0, -1]}", "{callsign: BR2, kind: bridge, side: B, hex: [0, -1]}", 1)
	_, events = strikeTurn(t, scn, "3 STRAFE", nil)
	if text := kindTexts(events, EvIllegalOrder); !strings.Contains(text, "made no strafing attack: no enemy target 1 to 2 hexes ahead") {
		t.Errorf("strafing a bridge:\n%s", text)
	}
}

// TestStrafingShips (seed 002): a ship strafed whole defends with twice its value; an armoured ship
// cannot be hurt; strafing its light flak uses its plain defence and damages the flak, not the ship.
func TestStrafingShips(t *testing.T) {
	scn := strings.Replace(strikeRange, "{callsign: TRUCK1, kind: truck, side: B, hex: [0, -1]}",
		"{callsign: DD1, kind: ship, side: B, hex: [0, -1], facing: 2, speed: 1, turn_rate: 0, defence: 7, flak: {class: destroyer, light: 8x20mm 6x40mm}}", 1)
	scn = strings.Replace(scn, "  - {callsign: TRUCK2, kind: truck, side: B, hex: [0, -1]}\n", "", 1)
	_, events := strikeTurn(t, scn, "3 STRAFE AT DD1", map[string]int{"turn 1 P47 strafes DD1: attack d10": 10})
	if text := kindTexts(events, EvGroundDamage); !strings.Contains(text, "attack 1 + 10 against defence 14 + 1: no damage") {
		t.Errorf("the ship strafed whole:\n%s", text)
	}
	next, events := strikeTurn(t, scn, "3 STRAFE AT DD1 FLAK", map[string]int{"turn 1 P47 strafes DD1: attack d10": 10})
	if text := kindTexts(events, EvGroundDamage); !strings.Contains(text, "P47's strafing of its light flak on DD1's flak (ship): attack 1 + 10 against defence 7 + 1: light damage") {
		t.Errorf("the ship's flak strafed:\n%s", text)
	}
	u := next.groundUnit("DD1")
	if u.Damage != strike.NoDamage || u.Flak.StrafedLight != 1 {
		t.Errorf("after strafing its flak: ship %s, flak %+v", u.Damage, u.Flak)
	}
	_, events = strikeTurn(t, strings.Replace(scn, "defence: 7,", "defence: 7, armoured: true,", 1), "3 STRAFE AT DD1", nil)
	if text := kindTexts(events, EvBombs, EvGroundDamage); !strings.Contains(text, "DD1 is armoured: strafing cannot hurt it") || strings.Contains(text, "strafing on") {
		t.Errorf("an armoured ship:\n%s", text)
	}
}

// TestGroundAttackOrders: ROCKET, STRAFE and AT are checked with positioned errors: one attack a
// plot, AT only with an attack, FLAK only with STRAFE, a target that is an enemy in sight.
func TestGroundAttackOrders(t *testing.T) {
	for text, code := range map[string]string{
		"3 BOMB ROCKET":           notation.CodeTwoAttacks,
		"3 AT TRUCK1":             notation.CodeAttackTarget,
		"3 ROCKET AT TRUCK1 FLAK": notation.CodeAttackTarget,
		"3 STRAFE AT":             notation.CodeAttackTarget,
	} {
		_, ds := notation.ParseOrder(text)
		found := false
		for _, d := range ds {
			found = found || d.Code == code && d.Col > 0
		}
		if !found {
			t.Errorf("%q: %v, want %s with a column", text, ds, code)
		}
	}
	o, ds := notation.ParseOrder("3 strafe at dd1 flak fire any")
	if parser.HasErrors(ds) || o.String() != "3 STRAFE AT DD1 FLAK FIRE ANY" {
		t.Errorf("canonical: %q %v", o.String(), ds)
	}
	g := &game{env: testEnv(t), st: newTestGame(t, strikeRange)}
	for text, want := range map[string]string{
		"3 STRAFE AT NOSUCH": "no enemy ground unit or ship of that name is in sight",
		"3 STRAFE AT P47":    "no enemy ground unit",
	} {
		chk := g.CheckOrder("ann", "P47", text)
		if chk.OK() || !strings.Contains(fmtProblems(chk.Errors), want) {
			t.Errorf("%q: %v", text, chk.Errors)
		}
	}
	g.st.Plane("P47").Rockets = 0
	if chk := g.CheckOrder("ann", "P47", "3 ROCKET"); chk.OK() || !strings.Contains(fmtProblems(chk.Errors), "carries no rockets") {
		t.Errorf("rockets gone: %v", chk.Errors)
	}
}

// TestImpulseRockets (seed 002 with seed 001 VIII): in the impulse game a box that says ROCKET fires the
// plane's rockets in that impulse's bomb phase from where it then is, and takes the turn's fixed guns.
func TestImpulseRockets(t *testing.T) {
	scn := strings.Replace(impulseDuel, "aircraft:", `ground:
  - {callsign: TRUCK1, kind: truck, side: B, hex: [0, 6]}
aircraft:`, 1)
	scn = strings.Replace(scn, "alt: 8000, speed: 5.0}", "alt: 1000, speed: 5.0, rockets: 2}", 1)
	st := newTestGame(t, scn)
	o, ds := notation.ParseImpulseOrder("1 ROCKET")
	if parser.HasErrors(ds) || !o.Manoeuvres[0].Boxes[0].Rocket {
		t.Fatalf("ROCKET in a box: %+v %v", o, ds)
	}
	// RED1 moves from (0,10) to (0,9) in impulse 3 and fires at the truck 3 hexes ahead.
	next, events := runImpulse(t, st, map[string]notation.ImpulseOrder{"RED1": o, "BLUE1": impOrders("BLUE1", man("1"))["BLUE1"]})
	var fired *Event
	for i, e := range events {
		if e.Kind == EvBombs && e.Plane == "RED1" {
			fired = &events[i]
		}
	}
	if fired == nil || fired.Impulse != 3 || !strings.Contains(fired.Text, "fired 2 rocket salvos at TRUCK1, 3 hexes off") {
		t.Fatalf("the rockets: %+v", fired)
	}
	if p := next.Plane("RED1"); p.Rockets != 0 || !p.Imp.FixedFired {
		t.Errorf("after the rockets: %d left, fixed guns used %v", p.Rockets, p.Imp.FixedFired)
	}
}

// TestTorpedoAtANamedShip: TORPEDO is read as BOMB (a torpedo bomber's BOMB drops its torpedo), and AT
// picks the ship aimed at over a nearer one, when it lies 1 to 4 hexes off (seed 002).
func TestTorpedoAtANamedShip(t *testing.T) {
	scn := strings.Replace(torpedoGame, "aircraft:", "  - {callsign: DD2, kind: ship, side: B, hex: [1, 0], facing: 2, speed: 1, turn_rate: 1, defence: 7, size: small}\naircraft:", 1)
	for order, want := range map[string]string{"2 TORPEDO": "toward DD2", "2 TORPEDO AT DD1": "toward DD1"} {
		st := newTestGame(t, scn)
		o, ds := notation.ParseOrder(order)
		if parser.HasErrors(ds) || !o.Plot.Bomb {
			t.Fatalf("%q: %v", order, ds)
		}
		_, events, err := Resolve(testEnv(t), st, map[string]notation.Order{"AVENGER": o}, &labelDice{})
		if err != nil {
			t.Fatal(err)
		}
		if text := kindTexts(events, EvTorpedo); !strings.Contains(text, want) {
			t.Errorf("%q: %s", order, text)
		}
	}
}

// The board's words for a rocket or strafing attack that would find nothing (seed 002: from under
// 3,000 ft, rockets 1 to 3 hexes ahead, strafing 1 or 2): with no target in reach, from too high, and
// with the target the order names out of reach. The P-47 of boardStrike stands five hexes short of the
// truck.
func TestGroundReachTellsWhyAnAttackFindsNothing(t *testing.T) {
	g := boardGame(t, boardStrike)
	p := g.st.Plane("P47")
	card, _ := g.env.Card(p.Type)
	low, high := p.Flight, p.Flight
	high.Alt = 3000
	for _, c := range []struct {
		sh             Flight
		rocket, strafe bool
		named, want    string
	}{
		{low, true, false, "", "ROCKET: no enemy ground unit as last seen lies 1 to 3 hexes ahead (11 to 1 o'clock)"},
		{low, false, true, "", "STRAFE: no enemy ground unit strafing can hurt lies, as last seen, 1 to 2 hexes ahead (11 to 1 o'clock)"},
		{high, true, false, "", "ROCKET: rockets are fired from under 3,000 ft, and it would be at 3,000 ft"},
		{high, false, true, "", "STRAFE: strafing is done from under 3,000 ft, and it would be at 3,000 ft"},
		{low, true, false, "TRUCK1", "ROCKET AT TRUCK1: TRUCK1 would not be in reach of its rockets (1 to 3 hexes ahead, from under 3,000 ft)"},
		{low, false, true, "TRUCK1", "STRAFE AT TRUCK1: TRUCK1 would not be in reach of strafing (1 or 2 hexes ahead, from under 3,000 ft)"},
	} {
		out, _ := groundReach(p, card, c.sh, p.Rockets, false, c.rocket, c.strafe, c.named, g.st.Ground)
		if !slices.Contains(out, c.want) {
			t.Errorf("rocket %v strafe %v at %d ft, named %q: %q, want %q", c.rocket, c.strafe, c.sh.Alt, c.named, out, c.want)
		}
	}
}
