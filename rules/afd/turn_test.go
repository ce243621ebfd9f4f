package afd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	"sortie/rules/hex"
)

func testEnv(t testing.TB) *Env {
	t.Helper()
	env, err := DefaultEnv()
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// shippedCards are the aircraft cards Sortie ships.
func shippedCards(t testing.TB) *aircraft.Registry {
	t.Helper()
	reg, err := aircraft.Default()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// bundledState is the shipped cards and tables, and the first turn of a bundled scenario.
func bundledState(t testing.TB, name string) (*Env, *State) {
	t.Helper()
	env := testEnv(t)
	s, err := BundledScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewGame(s, env.Cards)
	if err != nil {
		t.Fatal(err)
	}
	return env, st
}

func card(t testing.TB, key string) *aircraft.Card {
	t.Helper()
	c, ok := testEnv(t).Cards.Get(key)
	if !ok {
		t.Fatalf("no card %s", key)
	}
	return c
}

// annBen opens the test scenarios: the afd ruleset, sides A and B, ann playing A and ben B. Each
// scenario adds its name, options and units.
const annBen = "ruleset: afd\nsides: [A, B]\nplayers: [{id: ann, side: A}, {id: ben, side: B}]\n"

// game builds a state from scenario YAML.
func newTestGame(t testing.TB, yamlText string) *State {
	t.Helper()
	s, err := ParseScenario([]byte(yamlText), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewGame(s, testEnv(t).Cards)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func orders(t testing.TB, lines ...string) map[string]notation.Order {
	t.Helper()
	out := map[string]notation.Order{}
	for _, l := range lines {
		cs, o, ds := notation.ParseOrderLine(l)
		if parser.HasErrors(ds) {
			t.Fatalf("%q: %v", l, ds)
		}
		out[cs] = o
	}
	return out
}

func kinds(events []Event) map[string]int {
	m := map[string]int{}
	for _, e := range events {
		m[e.Kind]++
	}
	return m
}

const duel = annBen + `name: duel
options: {fog_of_war: false}
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, 4], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [0, -4], facing: 6, alt: 10000, speed: 3.0}
turns: 5
`

func TestScenarioListsEveryProblemWithLines(t *testing.T) {
	bad := `ruleset: afd
name: broken
sides: [A, B]
players:
  - {id: ann, side: A}
  - {id: ann, side: C}
aircraft:
  - {callsign: R1, type: zeppelin, side: A, player: ann, hex: [0, 0], facing: 13, alt: 150, speed: 4.05}
  - {callsign: R1, type: a6m2, side: B, player: ann, hex: [0, 0], facing: 0, alt: 1000, speed: 4, bank: XX, loaded: true}
turns: 0
victory:
  - {side: A, kind: capture, aircraft: [NOBODY]}
`
	s, err := ParseScenario([]byte(bad), "broken.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewGame(s, testEnv(t).Cards)
	var se *ScenarioError
	if !errors.As(err, &se) {
		t.Fatalf("want a ScenarioError, got %v", err)
	}
	for _, want := range []string{"turn limit", "given twice", "not one of the sides", "unknown aircraft type", "facing",
		"altitude", "speed", "bank", "carries no bombs", "plays C, not", "victory kind", "NOBODY"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not mention %q:\n%v", want, err)
		}
	}
	for _, p := range se.Problems {
		if p.Line == 0 {
			t.Errorf("problem without a line: %s", p.Msg)
		}
	}
	if _, err := ParseScenario([]byte("ruleset: afd\nnmae: typo\n"), "typo.yaml"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("an unknown field must be refused with its line: %v", err)
	}
}

func TestBundledScenariosLoad(t *testing.T) {
	names := BundledScenarios()
	if len(names) == 0 {
		t.Fatal("no bundled scenarios")
	}
	for _, n := range names {
		s, err := BundledScenario(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewGame(s, testEnv(t).Cards); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}

func TestStateSerialisesLosslesslyAndStably(t *testing.T) {
	st := newTestGame(t, duel)
	st.Sight["A"]["BLUE1"] = Sighting{Spotted: true, Turn: 1}
	a, err := st.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(a, &back); err != nil {
		t.Fatal(err)
	}
	b, _ := back.JSON()
	if !bytes.Equal(a, b) {
		t.Fatalf("JSON round trip changed the state:\n%s\n%s", a, b)
	}
	if st.Hash() != back.Hash() || st.Hash() != st.Clone().Hash() || len(st.Hash()) != 64 {
		t.Fatal("the hash must be a stable SHA-256 of the state")
	}
	back.Planes[0].Flight.Speed++
	if back.Hash() == st.Hash() {
		t.Fatal("a different state must hash differently")
	}
}

// docs/rulings.md: a missed plot flies straight and level with no power, and everyone is told.
func TestNMRFliesStraightAndLevel(t *testing.T) {
	env := testEnv(t)
	st := newTestGame(t, duel)
	next, events, err := Resolve(env, st, orders(t, "RED1: 2 TR"), dice.NewSeeded(dice.SeedFromUint64(1)))
	if err != nil {
		t.Fatal(err)
	}
	b := next.Plane("BLUE1")
	if b.Flight.Hex != (hex.Hex{Q: 0, R: -1}) || b.Flight.Alt != 10000 || b.Flight.Facing != 6 || b.Flight.Last.Power {
		t.Errorf("NMR flight: %+v", b.Flight)
	}
	if kinds(events)[EvNMR] != 1 {
		t.Errorf("the missed order must be an event: %v", kinds(events))
	}
	// After a steep dive the default must still obey rule (23).
	f := Flight{Speed: 50, Alt: 8000, Last: LastTurn{SteepDive: true}}
	p := DefaultPlot(card(t, "spitfire-i"), f)
	if r := Move(card(t, "spitfire-i"), f, p); !r.Legal() || r.End.Alt != 7700 {
		t.Errorf("default after a steep dive: %v %d", r.Errors, r.End.Alt)
	}
}

func TestIllegalOrderIsFlownAsDefaultAndSaysWhy(t *testing.T) {
	env := testEnv(t)
	st := newTestGame(t, duel)
	_, events, err := Resolve(env, st, orders(t, "RED1: 5", "BLUE1: 3"), dice.NewSeeded(dice.SeedFromUint64(1)))
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, e := range events {
		if e.Kind == EvIllegalOrder && e.Plane == "RED1" && len(e.Extras().Problems) > 0 && e.Extra.Problems[0].Code == "plot-length" {
			found = true
		}
	}
	if !found {
		t.Errorf("an illegal order must be reported with its problems: %+v", events)
	}
	if _, _, err := Resolve(env, st, orders(t, "NOBODY: 2"), dice.NewSeeded(dice.SeedFromUint64(1))); err == nil {
		t.Error("an order for a plane not in the game must be refused")
	}
}

// Seed 000, "Main combat rule changes": the cone is one file wide at 1-2, one more each side from 3,
// two from 6; it must cross the target's hex or the next at 1-4, the next or the one after at 5-8.
func TestFixedGunConeAndLead(t *testing.T) {
	sh := Flight{Facing: 0, Alt: 10000}
	tg := func(q, r int, facing hex.Dir) Flight {
		return Flight{Hex: hex.Hex{Q: q, R: r}, Facing: facing, Alt: 10000}
	}
	cases := []struct {
		name string
		tg   Flight
		ok   bool
	}{
		{"dead ahead at 2", tg(0, -2, 4), true},
		{"one file off at 2, flying away from the line", tg(1, -2, 2), false},
		{"one file off at 2, flying into the line (lead)", tg(1, -2, 10), true},
		{"one file off at 3", tg(1, -3, 2), true},
		{"two files off at 4", tg(2, -5, 2), false},
		{"two files off at 7, flying across away: the lead hexes are out", tg(2, -7, 2), false},
		{"two files off at 7, flying into the line", tg(2, -7, 10), true},
		{"behind", tg(0, 3, 0), false},
		{"beyond 8", tg(0, -9, 0), false},
	}
	for _, c := range cases {
		_, ok, why := FixedGeometry(sh, 0, c.tg)
		if ok != c.ok {
			t.Errorf("%s: ok=%v (%s)", c.name, ok, why)
		}
	}
}

// Seed 000, "Firing vertical attitude": range +1 per full 500 ft; a level firer needs the height
// difference within 300 ft × range; lower targets need a level or diving firer, higher ones a level or
// climbing firer.
func TestFixedGunVerticalAttitude(t *testing.T) {
	sh := Flight{Facing: 0, Alt: 10000}
	at := func(r, alt int) Flight { return Flight{Hex: hex.Hex{Q: 0, R: -r}, Facing: 0, Alt: alt} }
	if r, ok, _ := FixedGeometry(sh, 0, at(3, 10900)); !ok || r != 4 {
		t.Errorf("900 ft above at 3: range %d ok %v (want 4, true)", r, ok)
	}
	if _, ok, _ := FixedGeometry(sh, 0, at(2, 10700)); ok {
		t.Error("level, 700 ft difference at range 2 is more than 600")
	}
	if _, ok, _ := FixedGeometry(sh, 300, at(2, 9000)); ok {
		t.Error("a climbing plane cannot fire at a lower target")
	}
	if _, ok, _ := FixedGeometry(sh, -300, at(2, 11000)); ok {
		t.Error("a diving plane cannot fire at a higher target")
	}
	if _, ok, _ := FixedGeometry(sh, -300, at(2, 9000)); !ok {
		t.Error("a diving plane may fire at a lower target")
	}
	if r, ok, _ := FixedGeometry(sh, 300, at(7, 11000)); ok || r != 9 {
		t.Errorf("7 hexes and 1,000 ft is range 9, beyond 8: %d %v", r, ok)
	}
	if AdjustedRange(3, -1499) != 5 || AdjustedRange(3, 499) != 3 {
		t.Error("+1 range per full 500 ft")
	}
}

// Seed 000, "The deflection DRM rules", flexible guns.
func TestFlexDeflectionRows(t *testing.T) {
	sh := Flight{Facing: 0}
	cases := []struct {
		q, r   int
		facing hex.Dir
		want   string
	}{
		{0, -3, 0, "5-7"}, // ahead, flying away
		{0, -3, 1, "5-7"}, // one point off
		{0, -3, 2, "4/8"}, // exactly two points off
		{0, -3, 3, "9-3"}, // more
		{0, 3, 0, "5-7"},  // astern, flying toward the shooter
		{0, 3, 6, "9-3"},  // astern, flying away
		{2, 0, 0, "4/8"},  // 4 o'clock, same heading
		{2, 0, 10, "4/8"}, // 4 o'clock, straight at the shooter
		{2, 0, 11, "4/8"}, // the point between
		{2, 0, 8, "9-3"},  // anything else
		{2, 1, 0, "9-3"},  // 5 o'clock is not a medium-deflection position for flexible guns
		{-2, 2, 2, "4/8"}, // 8 o'clock, straight at the shooter
		{2, -1, 0, "9-3"}, // 3 o'clock: always high deflection
	}
	for _, c := range cases {
		tg := Flight{Hex: hex.Hex{Q: c.q, R: c.r}, Facing: c.facing}
		if got := FlexDeflectionRow(sh, tg); got != c.want {
			t.Errorf("target at (%d,%d) clock %d heading %v: %s want %s", c.q, c.r, hex.Clock(hex.Hex{}, 0, tg.Hex), c.facing, got, c.want)
		}
	}
}

// Seed 000, "Flex gun limitations": the single best position fires, never a sum; two or more single
// .30s may fire together on the 2x30M chart.
func TestFlexBestSinglePosition(t *testing.T) {
	env := testEnv(t)
	b17 := card(t, "b-17g")
	p := &Plane{Ammo: Ammo{}, Damage: make([]int, len(b17.Systems))}
	for _, g := range b17.Guns {
		p.Ammo.Set(g.ID, g.Ammo)
	}
	sh := Flight{Facing: 0, Alt: 20000}
	tg := Flight{Hex: hex.Hex{Q: 0, R: 4}, Facing: 0, Alt: 20000} // dead astern, 4 hexes
	charts := &gunCharts{t: env.Tables}
	shot, _, ok := charts.flexShot(b17, gunsFor(nil, b17, p, false, nil), nil, sh, tg, false)
	if !ok || len(shot.Guns) != 1 || shot.Chart != "2x50M" {
		t.Fatalf("B-17 astern: %+v %v", shot, ok)
	}
	he := card(t, "he-111h")
	hp := &Plane{Ammo: Ammo{}, Damage: make([]int, len(he.Systems))}
	for _, g := range he.Guns {
		hp.Ammo.Set(g.ID, g.Ammo)
	}
	// 6 o'clock: dorsal and ventral single MGs both bear → 2x30M.
	shot, _, ok = charts.flexShot(he, gunsFor(nil, he, hp, false, nil), nil, sh, Flight{Hex: hex.Hex{Q: 0, R: 3}, Facing: 0, Alt: 20000}, false)
	if !ok || shot.Chart != "2x30M" || len(shot.Guns) != 2 {
		t.Fatalf("He 111 astern: %+v %v", shot, ok)
	}
	// Beyond the MG 15s' range of 6 nothing fires astern.
	if _, _, ok := charts.flexShot(he, gunsFor(nil, he, hp, false, nil), nil, sh, Flight{Hex: hex.Hex{Q: 0, R: 7}, Alt: 20000}, false); ok {
		t.Error("range-6 guns must not reach 7")
	}
}

// The seed's worked example, seed 000 "Hit location and final hit result": a Spitfire (8x30M) fires at
// a He-111 from dead astern at range 3: +1 DRM, red 5 + white 3 = 8 → row 9 → 4 hits; D10 5 → WFEE*;
// the red 5 adds one E; the odd D10 puts it on the left engine: WFEEE destroys it; the Heinkel jettisons
// its bombs and flies as loaded with no power.
func TestSeedExampleSpitfireFiresAtHe111(t *testing.T) {
	env := testEnv(t)
	rep, err := CalcFire(env, card(t, "spitfire-i"), card(t, "he-111h"), nil, 3, 0, 6, dice.NewScripted(5, 3, 5), false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chart != "8x30M" || rep.DRM != 1 || rep.Modified != 9 || rep.Hits != 4 || strings.Join(rep.Locations, "") != "WFEE*" || rep.Critical != 1 {
		t.Fatalf("worked example: %+v", rep)
	}
	if got := strings.Join(rep.Damage, " "); got != "W F E(L) E(L) E(L)" {
		t.Errorf("damage %s", got)
	}
	if rep.ShotDown || !strings.Contains(strings.Join(rep.Effects, ";"), "left engine destroyed") {
		t.Errorf("effects %v", rep.Effects)
	}
	// Without the critical the engine holds.
	rep, _ = CalcFire(env, card(t, "spitfire-i"), card(t, "he-111h"), nil, 3, 0, 6, dice.NewScripted(4, 4, 5), false)
	if rep.Hits != 4 || rep.Critical != 0 || len(rep.Effects) != 0 {
		t.Errorf("red 4: %+v", rep)
	}

	// In a turn: the engine-out plane loses its bombs and its power and flies as loaded.
	he := card(t, "he-111h")
	p := &Plane{Damage: make([]int, len(he.Systems)), Flight: Flight{Speed: 50, Alt: 11000, Loaded: true}}
	hits := make([]int, len(he.Systems))
	for i, s := range he.Systems {
		if s.Letter == "E" && s.Side == "L" {
			hits[i] = 3
		}
	}
	r := applyDamage(he, p, hits)
	if r.shotDown || len(r.engines) != 1 {
		t.Fatalf("one engine of two: %+v", r)
	}
	f := Flight{Speed: 50, Alt: 11000, NoPower: true}
	c, _ := Apply(he, f)
	if c.Power != 0 || !c.Loaded {
		t.Errorf("engine out: power %d loaded %v", c.Power, c.Loaded)
	}
}

// Seed 000, "Air combat procedure changes" examples: a Zero hit on C or L with a red 5 or 6 is shot
// down, and on E only with a red 6; a P-40C goes down to a red 6 on C, L or E, not to a red 5.
func TestSeedExampleZeroAndP40CCriticals(t *testing.T) {
	cases := []struct {
		key  string
		hits string
		red  int
		down bool
	}{
		{"a6m2", "FC*", 5, true}, {"a6m2", "FL*", 5, true}, {"a6m2", "FE*", 5, false}, {"a6m2", "FE*", 6, true},
		{"a6m2", "FC*", 4, false},
		{"p-40c", "FC*", 6, true}, {"p-40c", "FC*", 5, false}, {"p-40c", "FL*", 6, true}, {"p-40c", "FL*", 5, false},
		{"p-40c", "FE*", 6, true}, {"p-40c", "FE*", 5, false},
	}
	for _, c := range cases {
		rep, err := CalcDamage(card(t, c.key), c.hits, c.red, "L", false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.ShotDown != c.down {
			t.Errorf("%s %s red %d: shot down %v, want %v (%v)", c.key, c.hits, c.red, rep.ShotDown, c.down, rep.Damage)
		}
	}
	// Only shots of two or more hits can cause criticals.
	if rep, _ := CalcDamage(card(t, "a6m2"), "C*", 6, "L", false); rep.Critical != 0 || rep.ShotDown {
		t.Errorf("a single hit must not take a critical: %+v", rep)
	}
	// The older rule as an option: the red die adds to any C, L or E hit.
	if rep, _ := CalcDamage(card(t, "a6m2"), "C", 5, "L", true); !rep.ShotDown {
		t.Errorf("simple criticals: a Zero's C hit with red 5 downs it: %+v", rep)
	}
}

// Seed 000, hit location: odd D10 hits the left system, even the right; centre-line systems only after
// both outboard ones are destroyed.
func TestHitLocationSidesAndCentreLine(t *testing.T) {
	zero := card(t, "a6m2")
	dmg := make([]int, len(zero.Systems))
	idx := func(side string) int {
		for i, s := range zero.Systems {
			if s.Letter == "G" && s.Side == side {
				return i
			}
		}
		t.Fatalf("no G %s", side)
		return -1
	}
	if chooseSystem(zero, dmg, 'G', true) != idx("L") || chooseSystem(zero, dmg, 'G', false) != idx("R") {
		t.Error("odd D10 → left, even → right")
	}
	dmg[idx("L")] = 99
	if chooseSystem(zero, dmg, 'G', true) != idx("L") {
		t.Error("with only the left destroyed, an odd hit still falls on the left")
	}
	dmg[idx("R")] = 99
	if chooseSystem(zero, dmg, 'G', true) != idx("C") {
		t.Error("with both outboard destroyed, the centre-line system is hit")
	}
	// Four engines: hits on a side go to the first intact engine there.
	b17 := card(t, "b-17g")
	bd := make([]int, len(b17.Systems))
	first := chooseSystem(b17, bd, 'E', true)
	bd[first] = 99
	second := chooseSystem(b17, bd, 'E', true)
	if second == first || b17.Systems[second].Side != "L" {
		t.Errorf("second left engine: %d %d", first, second)
	}
}

// Seed 000: 6-16 hits are split into blocks of 4 with a 2 left over, each with its own hit-location roll;
// the red-die critical applies once per shot.
func TestBigShotsSplitIntoBlocks(t *testing.T) {
	env := testEnv(t)
	b17 := card(t, "b-17g")
	for seed := uint64(1); seed < 400; seed++ {
		d := dice.NewSeeded(dice.SeedFromUint64(seed))
		res, err := resolveShot(env.Tables, b17, make([]int, len(b17.Systems)),
			Shot{Chart: "4x30C", Range: 1, Row: "5-7", DRM: 1}, d, "test", false)
		if err != nil {
			t.Fatal(err)
		}
		h := res.detail.Hits
		if h < 10 {
			continue
		}
		if len(res.detail.Locations) != (h+3)/4 {
			t.Fatalf("%d hits read %d hit-location tables", h, len(res.detail.Locations))
		}
		d10s := 0
		for _, r := range res.rolls {
			if r.Sides == 10 {
				d10s++
			}
		}
		total := 0
		for _, n := range res.hits {
			total += n
		}
		if d10s != len(res.detail.Locations) || total != h+res.detail.Critical || res.detail.Critical > 2 {
			t.Fatalf("%d hits: %d D10s, %d marked, critical %d", h, d10s, total, res.detail.Critical)
		}
		return
	}
	t.Fatal("no seed gave 10 or more hits on 4x30C at point-blank range")
}

// docs/rulings.md: all fire in a turn is simultaneous: a plane shot down this turn still fires this turn.
func TestShotDownPlaneStillFires(t *testing.T) {
	env := testEnv(t)
	for seed := uint64(1); seed < 300; seed++ {
		st := newTestGame(t, duel)
		red := st.Plane("RED1")
		rc := card(t, "spitfire-i")
		for i, s := range rc.Systems {
			red.Damage[i] = s.Boxes - 1 // one more hit anywhere downs it
		}
		next, events, err := Resolve(env, st, orders(t, "RED1: 3", "BLUE1: 3"), dice.NewSeeded(dice.SeedFromUint64(seed)))
		if err != nil {
			t.Fatal(err)
		}
		if next.Plane("RED1").Status == Flying {
			continue
		}
		firedAfter, damageSeen := false, false
		for _, e := range events {
			if e.Kind == EvDamage {
				damageSeen = true
			}
			if e.Kind == EvFire && e.Plane == "RED1" {
				firedAfter = !damageSeen
			}
		}
		if !firedAfter {
			t.Fatalf("seed %d: RED1 was shot down but did not fire before damage was applied: %v", seed, kinds(events))
		}
		return
	}
	t.Fatal("no seed shot RED1 down")
}

// docs/rulings.md: bail-out at the first chance after being shot down, a house roll, none below 500 ft.
func TestBailOut(t *testing.T) {
	env := testEnv(t)
	for _, alt := range []int{400, 10000} {
		st := newTestGame(t, strings.Replace(duel, "alt: 10000, speed: 3.0}\n  - {callsign: BLUE1", fmt.Sprintf("alt: %d, speed: 3.0}\n  - {callsign: BLUE1", alt), 1))
		red := st.Plane("RED1")
		red.Status = ShotDown
		red.Crew = 1
		next, events, err := Resolve(env, st, orders(t, "BLUE1: 3"), dice.NewSeeded(dice.SeedFromUint64(5)))
		if err != nil {
			t.Fatal(err)
		}
		var ev *Event
		for i := range events {
			if events[i].Kind == EvBailOut {
				ev = &events[i]
			}
		}
		if ev == nil || next.Plane("RED1").Status != Destroyed {
			t.Fatalf("alt %d: no bail-out event", alt)
		}
		if alt < 500 && (len(ev.Dice) != 0 || ev.Extras().Saved != 0 || ev.Extras().Lost != 1) {
			t.Errorf("below 500 ft nobody gets out and nothing is rolled: %+v", ev)
		}
		if alt >= 500 && len(ev.Dice) != 1 {
			t.Errorf("one roll per crew member: %+v", ev)
		}
	}
}

const fogGame = annBen + `name: fog
options: {fog_of_war: true}
clouds: [{center: [0, -10], radius: 1, base: 9000, top: 11000}]
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, 0], facing: 0, alt: 10000, speed: 5.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [0, -20], facing: 6, alt: 10000, speed: 5.0}
  - {callsign: BLUE2, type: he-111h, side: B, player: ben, hex: [45, 0], facing: 0, alt: 10000, speed: 5.0}
turns: 5
`

// docs/rulings.md "Spotting and fog of war": clouds block sight, planes out of range are never seen, a spotted
// plane stays spotted while in sight, and without fog of war everything is visible.
func TestSpottingAndClouds(t *testing.T) {
	env := testEnv(t)
	st := newTestGame(t, fogGame)
	// The cloud at (0,-10) lies between RED1 and BLUE1 at their altitude: no sight either way.
	next, _, err := Resolve(env, st, orders(t, "RED1: 5", "BLUE1: 5", "BLUE2: 5"), dice.NewSeeded(dice.SeedFromUint64(1)))
	if err != nil {
		t.Fatal(err)
	}
	if next.Sight["A"]["BLUE1"].Spotted || next.Sight["B"]["RED1"].Spotted {
		t.Error("the cloud must block sight")
	}
	if next.Sight["A"]["BLUE2"].Spotted {
		t.Error("45 hexes away is beyond sight")
	}
	v := ViewOf(next, "A")
	if len(v.Enemies) != 0 {
		t.Errorf("nothing spotted, nothing in the view: %+v", v.Enemies)
	}
	// Climb above the cloud: now in clear sight at 10 hexes; keep trying until spotted, then it stays.
	st2 := newTestGame(t, strings.ReplaceAll(fogGame, "base: 9000, top: 11000", "base: 1000, top: 2000"))
	spottedAt := 0
	for turn := 1; turn <= 3; turn++ {
		st2, _, err = Resolve(env, st2, orders(t, "RED1: 1 TR 1 TL 1", "BLUE1: 1 TR 1 TL 1", "BLUE2: 5"), dice.NewSeeded(dice.SeedFromUint64(uint64(turn))))
		if err != nil {
			t.Fatal(err)
		}
		if st2.Sight["A"]["BLUE1"].Spotted && spottedAt == 0 {
			spottedAt = turn
		}
		if spottedAt > 0 && !st2.Sight["A"]["BLUE1"].Spotted {
			t.Fatalf("a spotted plane in sight must stay spotted (turn %d)", turn)
		}
	}
	if spottedAt == 0 {
		t.Fatal("planes closing in clear air never spotted each other")
	}
	// No fog: everything is spotted and identified at once.
	clear := newTestGame(t, strings.Replace(fogGame, "fog_of_war: true", "fog_of_war: false", 1))
	clear, _, _ = Resolve(env, clear, orders(t, "RED1: 5", "BLUE1: 5", "BLUE2: 5"), dice.NewSeeded(dice.SeedFromUint64(1)))
	if v := ViewOf(clear, "A"); len(v.Enemies) != 2 || v.Enemies[0].Type == "" {
		t.Errorf("without fog every enemy is seen and identified: %+v", v.Enemies)
	}
}

// Design.md invariant 3: the same state, orders and seed give byte-identical events and state.
func TestResolveIsDeterministic(t *testing.T) {
	env := testEnv(t)
	run := func(seed uint64) []byte {
		s, _ := BundledScenario("channel-1940")
		st, err := NewGame(s, env.Cards)
		if err != nil {
			t.Fatal(err)
		}
		var all []Event
		for turn := 0; turn < 6 && !st.Over; turn++ {
			var evs []Event
			st, evs, err = Resolve(env, st, orders(t, "RED1: 6", "RED2: 1 TL 1 TR 3", "HANS: 6 FIRE ANY"), dice.NewSeeded(dice.SeedFromUint64(seed).Stream(fmt.Sprint(turn))))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, evs...)
		}
		b, _ := json.Marshal(struct {
			E []Event
			S *State
		}{all, st})
		return b
	}
	a, b := run(11), run(11)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	if bytes.Equal(a, run(12)) {
		t.Error("a different seed should change something in six turns")
	}
}

func TestCloneIsDeepAndEqual(t *testing.T) {
	s, _ := BundledScenario("channel-1940")
	st, err := NewGame(s, testEnv(t).Cards)
	if err != nil {
		t.Fatal(err)
	}
	st.Sight["RAF"]["KURT"] = Sighting{Spotted: true}
	st.Planes[0].Bombed = &BombRelease{Turn: 1}
	st.Outcome = &Outcome{Winner: "RAF", Score: map[string]int{"RAF": 1}}
	c := st.Clone()
	a, _ := st.JSON()
	b, _ := c.JSON()
	if !bytes.Equal(a, b) {
		t.Fatal("clone differs")
	}
	c.Planes[0].Damage[0] = 9
	c.Planes[0].Ammo.Set("wing-l", 0)
	c.Sight["RAF"]["KURT"] = Sighting{}
	c.Planes[0].Bombed.Turn = 5
	c.Outcome.Score["RAF"] = 7
	if a2, _ := st.JSON(); !bytes.Equal(a, a2) {
		t.Fatal("changing the clone changed the original")
	}
}

func TestCheckOrderNamesUnknownGuns(t *testing.T) {
	_, o, _ := notation.ParseOrderLine("RED1: 5 FIRE ANY GUNS nose")
	r := CheckOrder(card(t, "spitfire-i"), Flight{Speed: 50, Alt: 5000, Straight: Plenty}, o)
	if e := illegal(t, r, "fire-guns"); !strings.Contains(e.Message, "wing-l") {
		t.Errorf("the error should list the guns the plane has: %q", e.Message)
	}
}

// A scenario's tables file replaces the house tables for that game only (docs/rulings.md: tables).
func TestScenarioTablesOverride(t *testing.T) {
	dir := t.TempDir()
	tablesYAML := "label: kinder\ndeflection:\n  \"5-7\": {1E: +2, ME: +2}\n  \"4/8\": {1E: 0, ME: +1}\n  \"9-3\": {1E: -2, ME: -1}\n"
	if err := os.WriteFile(filepath.Join(dir, "kinder.yaml"), []byte(tablesYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(duel, "options: {fog_of_war: false}", "options: {fog_of_war: false, tables: kinder.yaml}", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseScenario(data, path)
	if err != nil {
		t.Fatal(err)
	}
	files := os.DirFS(dir)
	base := testEnv(t)
	env, err := s.Env(base, files)
	if err != nil {
		t.Fatal(err)
	}
	if env.Tables.DRM(6, false) != 2 || base.Tables.DRM(6, false) != 1 {
		t.Errorf("override DRM %d, house %d", env.Tables.DRM(6, false), base.Tables.DRM(6, false))
	}
	if env.Tables.MaxHits("8x30M") != base.Tables.MaxHits("8x30M") {
		t.Error("sections the file does not give stay the house ones")
	}
	os.WriteFile(filepath.Join(dir, "kinder.yaml"), []byte("deflection: {bogus: 1}\n"), 0o644)
	if _, err := s.Env(base, files); err == nil {
		t.Error("a broken tables file must be refused")
	}
}
