package tnl

import (
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/tnl/notation"
)

func testData(t *testing.T) *Data {
	t.Helper()
	d, err := DefaultData()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sheet(t *testing.T, key string) *Sheet {
	t.Helper()
	sh, ok := testData(t).Sheet(key)
	if !ok {
		t.Fatalf("no sheet %s", key)
	}
	return sh
}

func plot(t *testing.T, text string) notation.Segment {
	t.Helper()
	o, ds := notation.Parse(text)
	if parser.HasErrors(ds) {
		t.Fatalf("%q: %v", text, ds)
	}
	return o.Segments[0]
}

// Seed 003 prints the Spitfire I at 8/7, FS 2, 4 white dice; the Bf 109 at 7/7 (from 8/9 less its dive
// rating +1/+2), FS 2 (3 after a hit), 2 red and 2 white, SR 5. The formula gives the same speeds and
// ratings where the seed prints none, and every named type exists.
func TestSheetsSeedFigures(t *testing.T) {
	sp := sheet(t, "spitfire-i")
	if sp.SP != [2]int{8, 7} || sp.FS != 2 || sp.Fixed != (Dice{4, 0, 0, 0}) || sp.SR != 5 {
		t.Errorf("Spitfire I: %+v", sp)
	}
	me := sheet(t, "bf-109e")
	if me.SP != [2]int{7, 7} || me.FS != 2 || me.Fixed != (Dice{2, 2, 0, 0}) || me.SR != 5 || me.Dive != [2]int{1, 2} {
		t.Errorf("Bf 109 E: %+v", me)
	}
	// The formula alone reaches the seed's speeds (round(mph / 24.5) split 8/7 and 7/7).
	r := Record{Key: "x", MPH: 362, Engines: 1, LoadedLb: 5844, WingSqft: 242, ClimbFPM: 2500, CeilingFt: 31900, DiveLimitMPH: 450, Fixed: map[string]int{"30M": 8}}
	if s, err := Derive(r); err != nil || s.SP != [2]int{8, 7} || s.FS != 2 || s.Fixed[White] != 4 {
		t.Errorf("the formula on the Spitfire's figures: %+v %v", s, err)
	}
	for _, k := range []string{"spitfire-i", "bf-109e", "he-111h", "hurricane-i", "ki-44-ii", "fokker-dxxi", "f4u-1", "sbd-3", "p-51d", "j4m1", "ki-67"} {
		sheet(t, k)
	}
}

// Seed 003 "Movement": a manoeuvre needs the fly-straight run first, a half loop three times it; a roll
// and a half loop leave the aircraft inverted; a slip costs one hex more.
func TestManoeuvres(t *testing.T) {
	start := Pos{Facing: 0}
	r := FlyPhase(start, 0, plot(t, "2 TL 6 HL / 1").Phases[0], 2)
	if len(r.Errors) != 0 || r.Hexes != 8 || !r.End.Inverted || r.End.Facing != hexmap.Dir(4) {
		t.Errorf("the seed's example: %+v", r)
	}
	if r := FlyPhase(start, 0, plot(t, "2 TL 5 HL / 1").Phases[0], 2); len(r.Errors) != 1 || r.Errors[0].Code != "fly-straight" {
		t.Errorf("a half loop after 5 of 6: %+v", r.Errors)
	}
	if r := FlyPhase(start, 0, plot(t, "1 TR / 1").Phases[0], 2); len(r.Errors) != 1 {
		t.Errorf("a turn after 1 of 2: %+v", r.Errors)
	}
	r = FlyPhase(start, 0, plot(t, "2 RR / 1").Phases[0], 2)
	if r.Hexes != 3 || !r.End.Inverted || r.End.Hex != (hexmap.Hex{Q: 1, R: -3}) || r.End.Facing != 0 {
		t.Errorf("a roll: one hex ahead-right, inverted: %+v", r)
	}
	r = FlyPhase(start, 0, plot(t, "2 SL / 1").Phases[0], 2)
	if r.Hexes != 4 || r.End.Inverted || r.End.Hex != (hexmap.Hex{Q: -1, R: -2}) {
		t.Errorf("a slip: the same hex, one more of speed, upright: %+v", r)
	}
	r = FlyPhase(Pos{Inverted: true}, 0, plot(t, "2 INV / 1").Phases[0], 2)
	if r.End.Inverted || r.Hexes != 2 {
		t.Errorf("inverting when inverted rolls upright, at no cost: %+v", r)
	}
	// Straights carry from phase 1 into phase 2 of the same turn.
	sh := sheet(t, "spitfire-i")
	a := &Aircraft{Callsign: "S", Speed: 7, Training: "trained"}
	if c := CheckPlot(sh, a, plot(t, "7 / TL 7"), false); len(c.Errors) != 0 {
		t.Errorf("a turn at the start of phase 2 after phase 1's straight: %+v", c.Errors)
	}
}

// Seed 003 "Changing Speed": down 3 or up 2 a phase, German jets up 1, never below a third.
func TestSpeedChanges(t *testing.T) {
	sp := sheet(t, "spitfire-i")
	a := &Aircraft{Training: "trained"}
	if lo, hi := SpeedRange(sp, a, 0, 7, false); lo != 4 || hi != 8 {
		t.Errorf("from 7 in phase 1: %d-%d", lo, hi)
	}
	if lo, hi := SpeedRange(sp, a, 1, 4, false); lo != 3 || hi != 6 {
		t.Errorf("from 4 in phase 2 (a third of 7 is 3): %d-%d", lo, hi)
	}
	jet := sheet(t, "me-262a")
	if _, hi := SpeedRange(jet, a, 0, 6, false); hi != 7 {
		t.Errorf("a German jet gains 1: %d", hi)
	}
	// Loaded modifiers: a loaded bomber loses one hex a phase, a loaded fighter-bomber one more FS.
	he := sheet(t, "he-111h")
	if PhaseMax(he, &Aircraft{Loaded: true}, 0, true) != he.SP[0]-1 || PhaseMax(he, &Aircraft{Loaded: true}, 0, false) != he.SP[0] {
		t.Error("loaded modifiers")
	}
	p47 := sheet(t, "p-47d")
	if FS(p47, &Aircraft{Loaded: true, Training: "trained"}, true) != p47.FS+1 || FS(he, &Aircraft{Loaded: true, Training: "trained"}, true) != he.FS {
		t.Error("a fighter-bomber's FS +1 loaded, a bomber's not")
	}
}

// Seed 003 "Effects of Hits" and "Multiple Hit Aircraft".
func TestDamageLadders(t *testing.T) {
	want := map[int][]string{
		2: {"fly-straight +1 and speed -2/-2", "destroyed"},
		3: {"fly-straight +1", "speed -2/-2", "destroyed"},
		4: {"no effect", "fly-straight +1", "speed -2/-2", "destroyed"},
		5: {"no effect", "no effect", "fly-straight +1", "speed -2/-2", "destroyed"},
	}
	for cap, steps := range want {
		for i, w := range steps {
			if got := HitText(cap, i+1); got != w {
				t.Errorf("%d-hit aircraft, hit %d: %q, want %q", cap, i+1, got, w)
			}
		}
	}
}

// Seed 003 "Combat", "Saving Roll", "Training & Skill", "Automated Gun sights".
func TestToHitAndSaves(t *testing.T) {
	for _, c := range []struct {
		th   ToHit
		need int
	}{
		{ToHit{Range: 1}, 2}, {ToHit{Range: 3}, 4}, {ToHit{Range: 3, Inverted: true}, 5}, {ToHit{Range: 5}, 6},
		{ToHit{Range: 2, Pivot: true}, 4}, {ToHit{Range: 2, Training: "very-green"}, 4}, {ToHit{Range: 2, Training: "poor"}, 4},
		{ToHit{Range: 2, Aim: true}, 2}, {ToHit{Range: 3, Gunsight: "gyro"}, 3}, {ToHit{Range: 4, Gunsight: "radar"}, 3},
		{ToHit{Range: 0}, 2},
	} {
		if got := c.th.Need(); got != c.need {
			t.Errorf("%+v: need %d, want %d", c.th, got, c.need)
		}
	}
	for _, c := range []struct {
		s     Save
		die   int
		saved bool
	}{
		{Save{SR: 5, Colour: White}, 5, true}, {Save{SR: 5, Colour: Red}, 5, false}, {Save{SR: 5, Colour: Red}, 6, true},
		{Save{SR: 4, Colour: Green}, 5, false}, {Save{SR: 3, Colour: Blue}, 6, true}, {Save{SR: 5, Colour: Red, Lucky: true}, 5, true},
		{Save{SR: 5, Colour: White, Deadly: true}, 5, false},
	} {
		if got := c.s.Saved(c.die); got != c.saved {
			t.Errorf("%+v with %d: saved %v", c.s, c.die, got)
		}
	}
}

// Seed 003 "Anti Aircraft Guns" and the ships' note; "Attacking Ships".
func TestAAAndShips(t *testing.T) {
	if AAClasses[0].Dice(3) != 3 || AAClasses[1].Dice(4) != 2 || AAClasses[2].Dice(8) != 2 || AAClasses[3].Dice(4) != 1 {
		t.Error("dice per gun: heavy 1, medium 1 per 2, light and very light 1 per 4")
	}
	if AANeed(false) != 6 || AANeed(true) != 5 {
		t.Error("AA hits on 6, radar on 5")
	}
	if n, _ := ShipArc(0, 8); n != 8 {
		t.Error("all dice overhead")
	}
	if n, arc := ShipArc(3, 8); n != 4 || arc != "beam" {
		t.Error("half to a side")
	}
	if n, arc := ShipArc(12, 8); n != 2 || arc != "bow" {
		t.Error("a quarter ahead")
	}
	if (DiveBomb{Level: Low}).Need() != 5 || (DiveBomb{Level: VeryLow}).Need() != 4 || (DiveBomb{SideOn: true, Chased: true}).Mod() != -3 {
		t.Error("dive bombing")
	}
	if BombPoints("1000lb") != 25 || BombPoints("500lb") != 15 || TorpedoPoints != 30 {
		t.Error("damage points")
	}
	for rng, need := range map[int]int{4: 0, 5: 3, 8: 3, 9: 4, 12: 4, 13: 5, 16: 5, 17: 6, 20: 6, 21: 0} {
		if got := (Torpedo{Range: rng}).Need(); got != need {
			t.Errorf("torpedo at %d: %d, want %d", rng, got, need)
		}
	}
	for clock, mod := range map[int]int{12: -3, 6: -3, 1: -1, 11: -1, 4: -2, 8: -2, 3: 0, 9: 0} {
		if _, m := (Torpedo{Range: 10, Clock: clock}).Aspect(); m != mod {
			t.Errorf("torpedo from %d o'clock: %+d, want %+d", clock, m, mod)
		}
	}
	if (Torpedo{Range: 10, Clock: 3, Chased: true, Both: true}).Mod() != 0 {
		t.Error("chased -1, both sides +1")
	}
}

// The opening lines of the test scenarios: the ruleset, then two sides with a player each, ann and ben.
const (
	annBen       = "ruleset: tnl\nsides: [A, B]\nplayers: [{id: ann, side: A}, {id: ben, side: B}]\n"
	rafLuftwaffe = "ruleset: tnl\nsides: [RAF, Luftwaffe]\nplayers: [{id: ann, side: RAF}, {id: ben, side: Luftwaffe}]\n"
	usnIJN       = "ruleset: tnl\nsides: [USN, IJN]\nplayers: [{id: ann, side: USN}, {id: ben, side: IJN}]\n"
)

func newTestGame(t testing.TB, scn string) *game {
	t.Helper()
	return rulesettest.NewGame[*game](t, Ruleset{}, scn, "t.yaml")
}

// Seed 003 "Deciding Initiative": units roll 2D6, lowest first; with Sortie's tie rule, units that tie
// roll 2D6 again, the lower moves first.
func TestInitiativeLowestFirst(t *testing.T) {
	for _, c := range []struct {
		why   string
		rolls []int
		want  string
	}{
		{"JAGD rolled 2, RED 12: JAGD moves first", []int{1, 1, 6, 6}, "JAGD1,JAGD2,RED1,RED2"},
		// JAGD 3+3, RED 2+4: a tie at 6; the tie-break: JAGD 6+6, RED 1+1, so RED moves first.
		{"RED won the tie-break", []int{3, 3, 2, 4, 6, 6, 1, 1}, "RED1,RED2,JAGD1,JAGD2"},
	} {
		g := newTestGame(t, dogfight)
		_, events, _ := Resolve(g.d, g.st, map[string]string{"RED": "6 / 6 HOLD", "JAGD": "6 / 6 HOLD"}, dice.NewScripted(c.rolls...))
		var order []string
		for _, e := range events {
			if e.Kind == EvMove && e.Phase == 1 {
				order = append(order, e.Unit)
			}
		}
		if strings.Join(order, ",") != c.want {
			t.Errorf("%s: %v", c.why, order)
		}
	}
}

// Seed 003 "Altitude": a diving aircraft is out of combat phase 1 and reaches the new level for phase 2.
func TestDivingOutOfPhaseOneCombat(t *testing.T) {
	g := newTestGame(t, dogfight)
	next, events, _ := Resolve(g.d, g.st, map[string]string{"RED": "DIVE 5 / 5 FIRE ANY", "JAGD": "6 / 6 FIRE ANY"}, dice.NewKeyed(dice.SeedFromUint64(3)))
	for _, e := range events {
		if e.Kind == EvFire && e.Phase == 1 && (strings.HasPrefix(e.Unit, "RED") || strings.HasPrefix(e.Target, "RED")) {
			t.Errorf("a diving aircraft neither fires nor is fired at in phase 1: %s", e.Text)
		}
	}
	if next.Plane("RED1").Level != Low {
		t.Errorf("RED1 dived from Medium to Low: %s", next.Plane("RED1").Level)
	}
}

// Seed 003 "Starting a game": an aircraft more than 2 hexes from the rest makes a unit of its own.
func TestUnitsSplit(t *testing.T) {
	g := newTestGame(t, dogfight)
	next, events, _ := Resolve(g.d, g.st, map[string]string{"RED": "6 / 6 HOLD; RED2 2 TR 4 / 6 HOLD", "JAGD": "6 / 6 HOLD"}, dice.NewKeyed(dice.SeedFromUint64(3)))
	if u := next.UnitNamed("RED2"); u == nil || next.Plane("RED2").Unit != "RED2" || len(next.UnitNamed("RED").Members) != 1 {
		t.Fatalf("RED2 flies as a unit of its own: %+v", next.Units)
	}
	found := false
	for _, e := range events {
		found = found || e.Kind == EvSplit
	}
	if !found {
		t.Error("the split is reported")
	}
}

// Seed 003 "Training & Skill": a very green pilot's aircraft needs one hex more straight (+1 FS); the
// agile skill takes one off, never below 1.
func TestTrainingChangesFlyStraight(t *testing.T) {
	sp := sheet(t, "spitfire-i")
	if FS(sp, &Aircraft{Training: "very-green"}, false) != sp.FS+1 || FS(sp, &Aircraft{Training: "trained"}, false) != sp.FS {
		t.Error("very green: FS +1")
	}
	if FS(sp, &Aircraft{Training: "ace", Skills: []string{SkillAgile}}, false) != sp.FS-1 {
		t.Error("agile: FS -1")
	}
	a6 := sheet(t, "a6m2") // FS 1 by the formula
	if a6.FS != 1 || FS(a6, &Aircraft{Training: "ace", Skills: []string{SkillAgile}}, false) != 1 {
		t.Errorf("agile never takes FS below 1: sheet %d", a6.FS)
	}
}

// Seed 003 "Movement": straights do not carry over into the next turn, so a turn at the very start of a
// turn needs its fly-straight run first; seed 003 "Altitude": one level a turn, within the sheet's ceiling.
func TestTurnStartAndLevels(t *testing.T) {
	sp := sheet(t, "spitfire-i")
	a := &Aircraft{Callsign: "S", Speed: 7, Training: "trained", Level: Medium}
	if c := CheckPlot(sp, a, plot(t, "TL 7 / 7"), false); len(c.Errors) != 1 || c.Errors[0].Code != "fly-straight" {
		t.Errorf("a turn before any straight this turn: %+v", c.Errors)
	}
	a.Level = VeryLow
	if c := CheckPlot(sp, a, plot(t, "DIVE 7 / 7"), false); len(c.Errors) == 0 || c.Errors[0].Code != "dive-floor" {
		t.Errorf("no diving below Very Low: %+v", c.Errors)
	}
	tbf := sheet(t, "tbf-1") // ceiling: Medium
	b := &Aircraft{Callsign: "T", Speed: 5, Training: "trained", Level: Medium}
	if c := CheckPlot(tbf, b, plot(t, "CLIMB 4 / 4"), false); len(c.Errors) == 0 || c.Errors[0].Code != "climb-ceiling" {
		t.Errorf("no climbing above the sheet's ceiling: %+v", c.Errors)
	}
	a.Level = Medium
	if c := CheckPlot(sp, a, plot(t, "DIVE 8 / 8"), false); len(c.Errors) != 0 || c.Level != Low {
		t.Errorf("a dive takes one level, with the dive rating on the speed: %+v level %s", c.Errors, c.Level)
	}
}

// Ships move straight ahead, half their speed in each movement phase, the odd hex in the first.
func TestShipsMoveByPhase(t *testing.T) {
	g := newTestGame(t, strings.Replace(shipsOnly, "facing: 0, points: 80}", "facing: 0, speed: 3, points: 80}", 1))
	next, _, _ := Resolve(g.d, g.st, nil, &sixes{})
	if h := next.GroundNamed("KAGA").Hex; h != (hexmap.Hex{Q: 0, R: -3}) {
		t.Errorf("KAGA at speed 3 facing north ends 3 hexes on: %s", h)
	}
	r := &resolver{st: g.st.Clone()}
	r.moveShips(0)
	if h := r.st.GroundNamed("KAGA").Hex; h != (hexmap.Hex{Q: 0, R: -2}) {
		t.Errorf("two of its three hexes in phase 1: %s", h)
	}
}
