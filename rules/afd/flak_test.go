package afd

import (
	"fmt"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	"sortie/rules/dice"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
)

// flakRange is a Hurricane flying north at speed 3 (moving in impulses 3, 8 and 12: seed 001's chart)
// from (0,1) towards a quad 20 mm flak unit at (0,-3), and a heavy battery of six 88 mm guns at (2,-1).
const flakRange = annBen + `name: flak range
options: {fog_of_war: true}
ground:
  - {callsign: QUAD, kind: gun, side: B, hex: [0, -3], flak: {light: 4x20mm}}
aircraft:
  - {callsign: LOW1, type: hurricane-i, side: A, player: ann, hex: [0, 1], facing: 0, alt: 1000, speed: 3.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [30, 30], facing: 0, alt: 6000, speed: 3.0}
turns: 3
`

func flakEvents(t *testing.T, scn string, orders map[string]string, dice map[string]int) (*State, []Event) {
	t.Helper()
	st := newTestGame(t, scn)
	parsed := map[string]notation.Order{}
	for cs, o := range orders {
		parsed[cs], _ = notation.ParseOrder(o)
	}
	next, events, err := Resolve(testEnv(t), st, parsed, &labelDice{want: dice})
	if err != nil {
		t.Fatal(err)
	}
	var out []Event
	for _, e := range events {
		if e.Kind == EvFlak {
			out = append(out, e)
		}
	}
	return next, out
}

// TestLightFlak (seed 002, light/medium flak): a quad 20 mm is worth 4 (4 × 1.0); it fires in every
// impulse at a plane up to 2 hexes away and up to level 2 — here in impulses 8 to 11 at range 2 (-2)
// and in impulse 12 at range 1, the plane flying straight at it (+1 at its front). A d10 of 6 and 4 - 2
// + 1 is 9 against the Hurricane's 6 + 1: one hit; a d10 of 10 at range 1 is 15 against 7: two hits; a
// d10 of 1 in impulse 9 is 4 against 7: none.
func TestLightFlak(t *testing.T) {
	_, evs := flakEvents(t, flakRange, map[string]string{"LOW1": "3"}, map[string]int{
		"turn 1 QUAD light flak at LOW1 in impulse 8: d10": 6, "turn 1 QUAD light flak at LOW1 in impulse 12: d10": 10})
	if len(evs) != 5 {
		t.Fatalf("%d flak attacks, want 5 (impulses 8 to 12)", len(evs))
	}
	for k, e := range evs {
		if e.Flak.Value != 4 || e.Target != "LOW1" || e.Plane != "QUAD" {
			t.Errorf("attack %d: %+v", k, e)
		}
	}
	if !strings.Contains(evs[0].Text, "value 4 -2 firing at range 2, +1 firing at the front or rear): d10 6 against 6 + d10 1: 1 hit") {
		t.Errorf("impulse 8: %s", evs[0].Text)
	}
	if evs[1].Flak.Hits != 0 {
		t.Errorf("impulse 9: %s", evs[1].Text)
	}
	if e := evs[4]; e.Flak.Hits != 2 || !strings.Contains(e.Text, "value 4 +1 firing at the front or rear): d10 10 against 6 + d10 1: 2 hits") {
		t.Errorf("impulse 12: %s", e.Text)
	}
	// Level 3 (7,000 ft) is out of its reach, and so is a plane that stays 3 hexes off.
	_, evs = flakEvents(t, strings.Replace(flakRange, "alt: 1000", "alt: 7000", 1), map[string]string{"LOW1": "3"}, nil)
	if len(evs) != 0 {
		t.Errorf("light flak fired at level 3: %v", evs)
	}
	_, evs = flakEvents(t, strings.Replace(flakRange, "hex: [0, -3], flak", "hex: [0, -5], flak", 1), map[string]string{"LOW1": "3"}, nil)
	if len(evs) != 0 {
		t.Errorf("light flak fired 3 hexes away: %v", evs)
	}
}

// TestLightFlakModifiers (seed 002): at altitude level 0 +1, at level 2 -2, and -3 for a unit with light
// damage; at the plane's side there is no front/rear bonus.
func TestLightFlakModifiers(t *testing.T) {
	scn := strings.Replace(flakRange, "alt: 1000", "alt: 300", 1)
	_, evs := flakEvents(t, scn, map[string]string{"LOW1": "3"}, nil)
	if len(evs) == 0 || !strings.Contains(evs[4].Text, "+1 firing at altitude 0") {
		t.Fatalf("level 0: %v", evs)
	}
	scn = strings.Replace(flakRange, "alt: 1000", "alt: 4000", 1)
	scn = strings.Replace(scn, "flak: {light: 4x20mm}", "defence: 3, flak: {light: 4x20mm}", 1)
	st := newTestGame(t, scn)
	st.groundUnit("QUAD").Damage = strike.Light
	o, _ := notation.ParseOrder("3")
	_, events, err := Resolve(testEnv(t), st, map[string]notation.Order{"LOW1": o}, &labelDice{})
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for _, e := range events {
		if e.Kind == EvFlak {
			last = e.Text
		}
	}
	if !strings.Contains(last, "-2 firing at altitude 2") || !strings.Contains(last, "-3 flak lightly damaged") {
		t.Errorf("level 2, damaged unit: %q", last)
	}
	// Beside the plane: a unit at (1,-2) sees the Hurricane in (0,-2) off its wing.
	scn = strings.Replace(flakRange, "hex: [0, -3], flak", "hex: [1, -2], flak", 1)
	_, evs = flakEvents(t, scn, map[string]string{"LOW1": "3"}, nil)
	for _, e := range evs {
		if strings.Contains(e.Text, "front or rear") && e.Extras().Flak != nil && strings.Contains(e.Text, "in impulse") {
			t.Errorf("front bonus from the side: %s", e.Text)
		}
	}
	if len(evs) == 0 {
		t.Error("no flak from the side")
	}
}

// TestHeavyFlak (seed 002, heavy flak): six 88 mm guns are 4/2 plus 50 % for five guns, 6/3; they fire
// only in even impulses, at a hex and altitude: here, left to themselves, where the plane was when the
// turn began, (0,1) at level 3. In impulse 2 the Hurricane is still there (6); in 4 and 6 it is one hex
// on (3); from impulse 8 it is two hexes off, out of the burst. Level 1 is below heavy flak.
func TestHeavyFlak(t *testing.T) {
	scn := strings.Replace(flakRange, "{callsign: QUAD, kind: gun, side: B, hex: [0, -3], flak: {light: 4x20mm}}",
		"{callsign: HEAVY, kind: gun, side: B, hex: [2, -1], flak: {heavy_mm: 88, heavy_guns: 6}}", 1)
	high := strings.Replace(scn, "alt: 1000", "alt: 9000", 1)
	_, evs := flakEvents(t, high, map[string]string{"LOW1": "3"}, nil)
	var got []int
	for _, e := range evs {
		if !e.Flak.Heavy {
			t.Errorf("not heavy: %s", e.Text)
		}
		got = append(got, e.Flak.Value)
	}
	if want := []int{6, 3, 3}; !equalInts(got, want) {
		t.Errorf("heavy flak values by even impulse: %v, want %v", got, want)
	}
	_, evs = flakEvents(t, scn, map[string]string{"LOW1": "3"}, nil)
	if len(evs) != 0 {
		t.Errorf("heavy flak fired at level 1: %v", evs)
	}
	// Guns under 90 mm reach level 5, not 6 (25,000 ft).
	_, evs = flakEvents(t, strings.Replace(scn, "alt: 1000", "alt: 26000", 1), map[string]string{"LOW1": "3"}, nil)
	if len(evs) != 0 {
		t.Errorf("88 mm flak reached level 6: %v", evs)
	}
	_, evs = flakEvents(t, strings.Replace(strings.Replace(scn, "alt: 1000", "alt: 26000", 1), "heavy_mm: 88", "heavy_mm: 105", 1), map[string]string{"LOW1": "3"}, nil)
	if len(evs) == 0 {
		t.Error("105 mm flak did not reach level 6")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestHeavyFlakOrders: a side's order aims its heavy guns at a hex and altitude; every plane in the
// burst is attacked, its own side's too (seed 002: all aircraft in the hex), and a plane one level off
// takes the smaller value. HOLD keeps the guns silent.
func TestHeavyFlakOrders(t *testing.T) {
	scn := strings.Replace(flakRange, "{callsign: QUAD, kind: gun, side: B, hex: [0, -3], flak: {light: 4x20mm}}",
		"{callsign: HEAVY, kind: gun, side: B, hex: [2, -1], player: ben, flak: {heavy_mm: 88, heavy_guns: 6}}", 1)
	scn = strings.Replace(scn, "alt: 1000", "alt: 12000", 1)
	scn = strings.Replace(scn, "hex: [30, 30], facing: 0, alt: 6000", "hex: [0, 3], facing: 0, alt: 9000", 1)
	st := newTestGame(t, scn)
	if err := st.setFlakOrder("HEAVY", "AIM 0,0 9000"); err != nil {
		t.Fatal(err)
	}
	o, _ := notation.ParseOrder("3")
	_, events, err := Resolve(testEnv(t), st, map[string]notation.Order{"LOW1": o, "BLUE1": o}, &labelDice{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string][]int{}
	for _, e := range events {
		if e.Kind == EvFlak {
			seen[e.Target] = append(seen[e.Target], e.Flak.Value)
		}
	}
	// Both fly north at speed 3 (moving in impulses 3, 8 and 12). LOW1, at 12,000 ft (level 4), is in
	// the aimed hex (0,0) one level above the aim (level 3) in impulses 4 and 6: 3 each time; a hex and
	// a level off in 2, 8 and 10: nothing. BLUE1, ben's own at 9,000 ft, reaches the next hex, (0,1),
	// in impulse 8 (3 in 8 and 10) and the aimed hex in 12 (6).
	if !equalInts(seen["LOW1"], []int{3, 3}) || !equalInts(seen["BLUE1"], []int{3, 3, 6}) {
		t.Errorf("aimed bursts: %v", seen)
	}
	if err := st.setFlakOrder("HEAVY", "HOLD"); err != nil {
		t.Fatal(err)
	}
	_, events, _ = Resolve(testEnv(t), st, map[string]notation.Order{"LOW1": o, "BLUE1": o}, &labelDice{})
	for _, e := range events {
		if e.Kind == EvFlak {
			t.Fatalf("fired on HOLD: %s", e.Text)
		}
	}
}

// TestNavalFlak (seed 002, naval flak): the seed's destroyer (eight 20 mm, six 40 mm, five 127 mm) has
// light flak 5 with one attack on each side every impulse, and heavy flak 9/4 once every other impulse.
// Two planes off its port and starboard sides are each attacked; light damage to the ship puts -3 on its
// light flak and halves its heavy attacks (rounded up), heavy damage ends heavy flak.
func TestNavalFlak(t *testing.T) {
	scn := annBen + `name: naval flak
ground:
  - {callsign: DD1, kind: ship, side: B, hex: [0, 0], facing: 0, speed: 1, turn_rate: 0, defence: 7, flak: {class: destroyer, light: "8x20mm 6x40mm", heavy_mm: 127, heavy_guns: 5}}
aircraft:
  - {callsign: PORT, type: hurricane-i, side: A, player: ann, hex: [-2, 1], facing: 0, alt: 1000, speed: 1.0}
  - {callsign: STBD, type: hurricane-i, side: A, player: ann, hex: [2, -1], facing: 0, alt: 1000, speed: 1.0}
  - {callsign: HIGH, type: hurricane-i, side: A, player: ann, hex: [0, 2], facing: 0, alt: 9000, speed: 1.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [30, 30], facing: 0, alt: 6000, speed: 3.0}
turns: 3
`
	st := newTestGame(t, scn)
	f := st.groundUnit("DD1").Flak
	if f.Light != 5 || f.LightPerSide != 1 || f.HeavyAimed != 9 || f.HeavySplash != 4 || f.HeavyAttacks != 1 {
		t.Fatalf("the destroyer's flak: %+v", f.NavalFlak)
	}
	o, _ := notation.ParseOrder("0")
	orders := map[string]notation.Order{"PORT": o, "STBD": o, "HIGH": o}
	count := func(st *State) (light map[string]int, heavy int, mods string) {
		_, events, err := Resolve(testEnv(t), st, orders, &labelDice{})
		if err != nil {
			t.Fatal(err)
		}
		light = map[string]int{}
		for _, e := range events {
			if e.Kind != EvFlak {
				continue
			}
			if e.Flak.Heavy {
				heavy++
			} else {
				light[e.Target]++
				mods = strings.Join(e.Flak.Modifiers, ", ")
			}
		}
		return light, heavy, mods
	}
	light, heavy, _ := count(st)
	if light["PORT"] != 12 || light["STBD"] != 12 || heavy != 6 {
		t.Errorf("undamaged: light %v, heavy %d; want 12 a side and 6", light, heavy)
	}
	st.groundUnit("DD1").Damage = strike.Light
	light, heavy, mods := count(st)
	if light["PORT"] != 12 || heavy != 6 || !strings.Contains(mods, "-3 flak lightly damaged") {
		t.Errorf("light damage: light %v, heavy %d, modifiers %q", light, heavy, mods)
	}
	st.groundUnit("DD1").Damage = strike.Heavy
	light, heavy, _ = count(st)
	if heavy != 0 || light["PORT"] != 0 {
		t.Errorf("heavy damage: light %v, heavy %d (a destroyer's one light attack a side halves to none)", light, heavy)
	}
}

// TestFlakHitsMarkTheCard: flak hits fall on the plane's card by the hit-location tables, and a plane
// hit in the impulse game is marked once, not again in every later impulse.
func TestFlakHitsMarkTheCard(t *testing.T) {
	high := map[string]int{}
	for imp := 8; imp <= 12; imp++ {
		high[fmt.Sprintf("turn 1 QUAD light flak at LOW1 in impulse %d: d10", imp)] = 10
	}
	next, evs := flakEvents(t, flakRange, map[string]string{"LOW1": "3"}, high)
	total := 0
	for _, e := range evs {
		total += e.Flak.Hits
	}
	marked := 0
	for _, n := range next.Plane("LOW1").Damage {
		marked += n
	}
	if total < 5 || marked != total {
		t.Errorf("%d flak hits, %d boxes marked", total, marked)
	}
}

// TestFlakAmmunition: a scenario may ration a unit's attacks; it stops when they are spent, and its side
// is told once.
func TestFlakAmmunition(t *testing.T) {
	scn := strings.Replace(flakRange, "flak: {light: 4x20mm}", "flak: {light: 4x20mm, ammunition: 2}", 1)
	next, evs := flakEvents(t, scn, map[string]string{"LOW1": "3"}, nil)
	if len(evs) != 2 {
		t.Errorf("%d attacks with 2 rounds of ammunition", len(evs))
	}
	if f := next.groundUnit("QUAD").Flak; f.Ammo != 0 || f.Limited != true {
		t.Errorf("ammunition left: %+v", f)
	}
	if _, ok := next.groundUnit("QUAD").flakNow(); ok {
		t.Error("a unit out of ammunition still fires")
	}
}

// TestFlakCrewsSpot: a side with no plane near sees enemy planes through its flak crews, within four
// hexes and with no roll (house rule); its report names the plane and never the other side's die.
func TestFlakCrewsSpot(t *testing.T) {
	next, evs := flakEvents(t, flakRange, map[string]string{"LOW1": "3"}, nil)
	if !next.Sight["B"]["LOW1"].Spotted {
		t.Error("the flak crews did not see LOW1")
	}
	for _, e := range EventsFor(next, "B", evs) {
		if len(e.Dice) != 1 || !strings.Contains(e.Dice[0].Label, "QUAD light flak") {
			t.Errorf("the flak side's dice: %v", e.Dice)
		}
	}
	for _, e := range EventsFor(next, "A", evs) {
		for _, d := range e.Dice {
			if strings.Contains(d.Label, "QUAD") {
				t.Errorf("the plane's side sees the flak's die: %v", d)
			}
		}
		if !strings.Contains(e.Text, "LOW1 came under light flak from") {
			t.Errorf("the plane's side: %s", e.Text)
		}
	}
}

// TestImpulseFlak (seed 002 with seed 001 III, VII): in the impulse game light flak fires in every
// impulse after the planes' guns, at the plane where it stands then, and its hits count at once: a plane
// hit in one impulse is marked once, not again in every later impulse of the run.
func TestImpulseFlak(t *testing.T) {
	scn := strings.Replace(impulseDuel, "aircraft:", `ground:
  - {callsign: QUAD, kind: gun, side: B, hex: [0, 8], flak: {light: 4x20mm}}
aircraft:`, 1)
	scn = strings.Replace(scn, "alt: 8000, speed: 5.0", "alt: 1000, speed: 5.0", 1)
	st := newTestGame(t, scn)
	// RED1 (speed 5: impulses 3 5 8 10 12) flies forwards from (0,10) towards the flak at (0,8): 2 hexes
	// off from impulse 1, 1 hex from 3, over it from 5.
	next, events := runImpulse(t, st, impOrders("RED1", man("1"), "RED1", man("1"), "RED1", man("1"), "BLUE1", man("1"), "BLUE1", man("1"), "BLUE1", man("1")))
	hits, marked := 0, 0
	imps := map[int]bool{}
	for _, e := range events {
		if e.Kind == EvFlak {
			hits += e.Flak.Hits
			imps[e.Impulse] = true
			if e.Impulse == 0 {
				t.Errorf("an impulse game's flak event without its impulse: %s", e.Text)
			}
		}
	}
	for _, n := range next.Plane("RED1").Damage {
		marked += n
	}
	if len(imps) == 0 || hits == 0 {
		t.Fatalf("no flak hits in the impulse game: %v", imps)
	}
	if marked != hits {
		t.Errorf("%d flak hits in the run, %d boxes marked on RED1's card", hits, marked)
	}
	if !imps[1] || !imps[2] {
		t.Errorf("light flak fires in every impulse: fired in %v", imps)
	}
}

// TestFlakOrdersByTheRuleset: a player's flak unit takes orders through the ruleset like a plane, with
// positioned errors, though no round waits for it; the order stands from round to round and the
// player's report shows it on the unit and in the order lines.
func TestFlakOrdersByTheRuleset(t *testing.T) {
	rs := Ruleset{Env: testEnv(t)}
	scn := strings.Replace(flakRange, "{callsign: QUAD, kind: gun, side: B, hex: [0, -3], flak: {light: 4x20mm}}",
		"{callsign: HEAVY, kind: gun, side: B, hex: [2, -1], player: ben, flak: {heavy_mm: 88, heavy_guns: 6}}", 1)
	g0, err := rs.NewGame([]byte(scn), nil, "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := g0.(*game)
	if u := g.Units("ben"); len(u) != 1 || u[0] != "BLUE1" {
		t.Errorf("the round waits for %v", u)
	}
	if u := g.StandingUnits("ben"); len(u) != 1 || u[0] != "HEAVY" {
		t.Errorf("ben's standing units: %v", u)
	}
	if u := g.StandingUnits("ann"); len(u) != 0 {
		t.Errorf("ann commands %v", u)
	}
	for text, want := range map[string]string{
		"AIM 0,0 900":                "level 1",
		"AIM 0,0 2500":               "2,500 ft is altitude level 1", // one format for heights everywhere
		"AIM 0,0 9000 AIM 0,1 9000 ": "make 1 attack at a time",      // no impulses in a game without them
		"AIM 9,9 9000":               "heavy flak reaches 4",
		"AIM 0,0 9000 AIM 0,1 9000":  "at most 1 aim",
		"FIRE LOW1":                  "no light flak",
		"AIM 0;0 9000":               "not a hex",
		"HOLD AIM 0,0 9000":          "HOLD stands alone",
		"SHOOT":                      "a flak order is",
	} {
		chk := g.CheckOrder("ben", "HEAVY", text)
		if chk.OK() || !strings.Contains(fmtProblems(chk.Errors), want) {
			t.Errorf("%q: %v, want %q", text, chk.Errors, want)
		}
	}
	if chk := g.CheckOrder("ann", "HEAVY", "HOLD"); chk.OK() {
		t.Error("ann ordered ben's guns")
	}
	chk := g.CheckOrder("ben", "HEAVY", "aim 0,0 9000")
	if !chk.OK() || chk.Canonical != "AIM 0,0 9000" {
		t.Fatalf("a good order: %+v", chk)
	}
	next, _, err := g.Resolve(map[string]string{"HEAVY": chk.Canonical}, &labelDice{})
	if err != nil {
		t.Fatal(err)
	}
	after := next.(*game)
	if o := after.st.groundUnit("HEAVY").Flak.Order; o == nil || o.String() != "AIM 0,0 9000" {
		t.Fatalf("the order did not stand: %+v", o)
	}
	next2, _, _ := after.Resolve(map[string]string{}, &labelDice{})
	if o := next2.(*game).st.groundUnit("HEAVY").Flak.Order; o == nil || o.String() != "AIM 0,0 9000" {
		t.Errorf("the order did not stand a second round: %+v", o)
	}
	rep := next2.Report("ben", nil)
	if !strings.Contains(strings.Join(rep.OrderLines, "\n"), "HEAVY: AIM 0,0 9000") {
		t.Errorf("ben's order lines: %v", rep.OrderLines)
	}
	// The other side's report shows nothing of the guns' orders.
	for _, u := range next2.Report("ann", nil).Ground {
		if strings.Contains(strings.Join(u.Detail, " "), "AIM") {
			t.Errorf("ann sees ben's aim: %v", u)
		}
	}
}

func fmtProblems(ps []ruleset.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Message + "; ")
	}
	return b.String()
}

// FuzzParseFlakOrder: any text gives an order or positioned errors, never a panic, and a good order
// prints to text that reads back the same.
func FuzzParseFlakOrder(f *testing.F) {
	for _, s := range []string{"HOLD", "FIRE ANY", "FIRE RED1", "AIM 3,-4 9000", "AIM (3,-4) 9000ft AIM 1,1 12000", "FIRE X AIM", "AIM ,, -", "hold hold"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, ds := ParseFlakOrder(s)
		for _, d := range ds {
			if d.Message == "" || d.Col < 0 {
				t.Fatalf("%q: diagnostic %+v", s, d)
			}
		}
		if parser.HasErrors(ds) {
			return
		}
		back, ds2 := ParseFlakOrder(o.String())
		if parser.HasErrors(ds2) || back.String() != o.String() {
			t.Fatalf("%q printed as %q read back as %q (%v)", s, o.String(), back.String(), ds2)
		}
	})
}

// benchStrikeGame is benchGame's lattice of 40 fighters at 2,000 ft (in light flak's reach) with 20 flak
// sites, one beside each pair's path (half of them with a heavy battery too), and 6 destroyers with the
// seed's naval flak among them, the sites and ships alternating between the sides.
func benchStrikeGame(b testing.TB, ground bool) (*State, map[string]notation.Order) {
	env := testEnv(b)
	st, orders := benchGame(40)
	for i := range st.Planes {
		p := &st.Planes[i]
		c, _ := env.Cards.Get(p.Type)
		p.Damage = make([]int, len(c.Systems))
		for _, g := range c.Guns {
			p.Ammo.Set(g.ID, g.Ammo)
		}
		p.Flight.Alt = 2000
	}
	if !ground {
		return st, orders
	}
	sf := ScenarioFlak{Light: "4x20mm"}
	heavy := ScenarioFlak{Light: "4x20mm", HeavyMM: 88, HeavyGuns: 4}
	naval := ScenarioFlak{Class: "destroyer", Light: "8x20mm 6x40mm", HeavyMM: 127, HeavyGuns: 5}
	for k := 0; k < 20; k++ {
		p := st.Planes[2*k].Flight.Hex
		spec := sf
		if k%2 == 0 {
			spec = heavy
		}
		f, msg := spec.build(false)
		if msg != "" {
			b.Fatal(msg)
		}
		st.Ground = append(st.Ground, GroundUnit{Callsign: fmt.Sprintf("FLAK%02d", k), Kind: "gun", Side: st.Sides[k%2], Hex: hex.Hex{Q: p.Q + 1, R: p.R - 2}, Defence: 4, Flak: f})
		if k < 6 {
			f, msg := naval.build(true)
			if msg != "" {
				b.Fatal(msg)
			}
			st.Ground = append(st.Ground, GroundUnit{Callsign: fmt.Sprintf("DD%d", k), Kind: Ship, Side: st.Sides[(k+1)%2], Hex: hex.Hex{Q: p.Q - 1, R: p.R - 3}, Defence: 7, Flak: f})
		}
	}
	return st, orders
}

// BenchmarkStrikeTurn40 is one plain turn of 40 aircraft over 20 flak sites and 6 ships (seed 002's
// flak in every impulse); BenchmarkStrikeTurn40Air beside it is the same aircraft's turn with no ground
// units, the cost of the air game alone.
func BenchmarkStrikeTurn40(b *testing.B)    { benchmarkStrike(b, true) }
func BenchmarkStrikeTurn40Air(b *testing.B) { benchmarkStrike(b, false) }

func benchmarkStrike(b *testing.B, ground bool) {
	env := testEnv(b)
	st, orders := benchStrikeGame(b, ground)
	_, events, err := Resolve(env, st, orders, dice.NewSeeded(dice.SeedFromUint64(1)))
	if err != nil {
		b.Fatal(err)
	}
	flak := 0
	for _, e := range events {
		if e.Kind == EvFlak {
			flak++
		}
	}
	if ground && flak < 40 {
		b.Fatalf("only %d flak attacks: the benchmark must have flak firing", flak)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Resolve(env, st, orders, dice.NewSeeded(dice.SeedFromUint64(1))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(flak), "flak-attacks/turn")
}
