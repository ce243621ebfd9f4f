package tnl

// The differential test of Thunderbolt & Lightning's movement (seed 003, "Movement", "Changing Speed",
// "Altitude", "Attacking Ships"): a unit's order is answered three ways, by the calculator (`sortie calc
// move --ruleset tnl --json`, run in-process, a whole turn), by the receipt (the game's CheckOrder) and
// by the turn itself (the game's Resolve with seeded dice), and the three must agree: legal or not and
// why (the problem codes), and where the aircraft ends (hex, facing, inverted, level, speed).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
	"sortie/rules/tnl/notation"
)

const diffTnlScenario = annBen + `name: differential
turns: 8
options: {loaded_modifiers: %v}
aircraft:
  - {callsign: A1, type: %s, unit: U1, side: A, player: ann, hex: [0, 0], facing: 0, level: M}
  - {callsign: FAR, type: bf-109e, side: B, player: ben, hex: [0, -300], facing: 180, level: M}
ships:
  - {callsign: KAGA, side: B, hex: [0, 300], facing: 0, speed: 0, points: 100}
  - {callsign: HOOD, side: A, hex: [0, 310], facing: 0, speed: 0, points: 100}
`

var tnlLevels = []Level{VeryLow, Low, Medium, High}

// randomPhase is one phase's steps: straights and manoeuvres near the speed given, sometimes tokens
// the notation refuses.
func randomPhase(rng *rand.Rand, speed int) string {
	man := []string{"TL", "TR", "RL", "RR", "SL", "SR", "INV", "HL"}
	bad := []string{"VR", "X", "0", "TRR", "+1"}
	var parts []string
	left := max(speed+rng.IntN(5)-2, 1)
	for left > 0 && len(parts) < 6 {
		switch k := rng.IntN(10); {
		case k < 5:
			n := 1 + rng.IntN(left)
			parts = append(parts, strconv.Itoa(n))
			left -= n
		case k < 9:
			parts = append(parts, man[rng.IntN(len(man))])
			if rng.IntN(2) == 0 {
				left--
			}
		default:
			parts = append(parts, bad[rng.IntN(len(bad))])
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "1")
	}
	return strings.Join(parts, " ")
}

// randomTnlOrder is a whole turn's order for one aircraft.
func randomTnlOrder(rng *rand.Rand, sh *Sheet, a *Aircraft, loadedMods bool) string {
	var parts []string
	switch rng.IntN(8) {
	case 0:
		parts = append(parts, "DIVE")
	case 1:
		parts = append(parts, "CLIMB")
	}
	if rng.IntN(2) == 0 {
		// straights at speeds the rules allow, a turn now and then after them
		lo, hi := SpeedRange(sh, a, 0, a.Speed, loadedMods)
		p1 := lo + rng.IntN(hi-lo+1)
		lo, hi = SpeedRange(sh, a, 1, p1, loadedMods)
		p2 := lo + rng.IntN(hi-lo+1)
		turn := []string{"", "", " TL", " TR"}
		parts = append(parts, strconv.Itoa(p1)+turn[rng.IntN(4)], "/", strconv.Itoa(p2)+turn[rng.IntN(4)])
	} else {
		parts = append(parts, randomPhase(rng, sh.SP[0]), "/", randomPhase(rng, sh.SP[1]))
	}
	switch rng.IntN(8) {
	case 0:
		parts = append(parts, "BOMB KAGA")
	case 1:
		parts = append(parts, "TORPEDO KAGA")
	case 2:
		parts = append(parts, []string{"BOMB HOOD", "TORPEDO NOSUCH", "BOMB"}[rng.IntN(3)])
	}
	parts = append(parts, []string{"HOLD", "HOLD", "FIRE ANY", "FIRE A1"}[rng.IntN(4)])
	return strings.Join(parts, " ")
}

func runTnlCalc(t *testing.T, args []string) (moveJSON, error) {
	t.Helper()
	return rulesettest.CalcJSON(t, calcMove, args, func(o moveJSON) bool { return o.Legal })
}

func tnlCalcArgs(a *Aircraft, loadedMods bool, order string) []string {
	args := []string{"--type", a.Type, "--plot", order, "--level", a.Level.String(), "--facing", strconv.Itoa(60 * int(a.Facing) / 2),
		"--speed", strconv.Itoa(a.Speed), "--hits", strconv.Itoa(a.Hits), "--training", a.Training, "--json"}
	if a.Has(SkillAgile) {
		args = append(args, "--agile")
	}
	if a.Inverted {
		args = append(args, "--inverted")
	}
	if a.Loaded {
		args = append(args, "--load", a.Load)
	}
	if loadedMods {
		args = append(args, "--loaded-modifiers")
	}
	if a.DiveRun {
		args = append(args, "--dive-run")
	}
	return args
}

// codesOf are the problems' codes, sorted, each once.
func codesOf[P ruleset.Problem | ruleset.CalcProblem](ps []P) []string {
	return slices.Compact(rulesettest.Codes(ps))
}

// TestCalculatorReceiptAndTurnAgreeOnMovement: the calculator, the receipt and the turn fly a plot with
// the same functions (CheckPlot, FlyPhase, SpeedRange, LoadProblems), so they agree on the verdict, the
// problem codes and where the aircraft ends.
func TestCalculatorReceiptAndTurnAgreeOnMovement(t *testing.T) {
	d := testData(t)
	keys := d.Keys()
	n := rulesettest.Cases(t, 4000, 600)
	rng := rand.New(rand.NewPCG(26, 3))
	legal := 0
	games := map[string]*game{}
	trainings := []string{"very-green", "poor", "trained", "veteran", "ace"}
	for i := range n {
		sh, _ := d.Sheet(keys[rng.IntN(len(keys))])
		loadedMods := rng.IntN(2) == 0
		key := fmt.Sprint(sh.Key, loadedMods)
		g := games[key]
		if g == nil {
			g = newTestGame(t, fmt.Sprintf(diffTnlScenario, loadedMods, sh.Key))
			games[key] = g
		}
		a := g.st.Plane("A1")
		a.Hex = hexmap.Hex{Q: rng.IntN(9) - 4, R: rng.IntN(9) - 4}
		a.Facing = hexmap.Dir(2 * rng.IntN(6))
		a.Level = tnlLevels[rng.IntN(int(sh.MaxLevel)+1)]
		a.Speed = 1 + rng.IntN(sh.SP[1]+1)
		a.Inverted = rng.IntN(4) == 0
		a.Hits = rng.IntN(max(sh.Hits, 1))
		a.Training = trainings[rng.IntN(len(trainings))]
		a.Skills = nil
		if rng.IntN(4) == 0 {
			a.Skills = []string{SkillAgile}
		}
		a.Load, a.Loaded = "", false
		if rng.IntN(2) == 0 {
			a.Load = []string{"1000lb", "500lb", "torpedo"}[rng.IntN(3)]
			a.Loaded = true
		}
		a.DiveRun = a.Level < Medium && rng.IntN(3) == 0
		order := randomTnlOrder(rng, sh, a, loadedMods)
		args := tnlCalcArgs(a, loadedMods, order)
		calc, usage := runTnlCalc(t, args)
		if usage != nil {
			t.Fatalf("case %d: the calculator cannot be given an aircraft the game has: %v\n%q", i, usage, args)
		}
		rc := g.CheckOrder("ann", "U1", order)
		where := fmt.Sprintf("case %d: %s %+v loaded modifiers %v, order %q\ncalc: sortie calc move --ruleset tnl %q", i, sh.Key, *a, loadedMods, order, args)
		// The plotting board: the plan's check is the receipt's, its track the calculator's and the
		// preview's hexes, flown as far as the plot reads.
		plan := g.Plan("ann", "U1", order)
		if !reflect.DeepEqual(plan.Check, rc) {
			t.Fatalf("%s\nthe board's check %+v\nthe receipt's %+v", where, plan.Check, rc)
		}
		if rc.Canonical != "" {
			planAgreesWithCalc(t, where, a.Hex, plan, calc, rc.Preview)
		} else if len(plan.Path) > 0 {
			t.Fatalf("%s\nan order that does not read has a track on the board: %v", where, plan.Path)
		}
		// attack-target is about the ship named, which the calculator does not know (the notation's own
		// attack-target, a BOMB without a ship, both give).
		notShip := func(c string) bool { return c == "attack-target" }
		got := slices.DeleteFunc(codesOf(rc.Errors), notShip)
		if want := slices.DeleteFunc(codesOf(calc.Errors), notShip); !slices.Equal(got, want) {
			t.Fatalf("%s\nthe receipt's problems %v, the calculator's %v\nreceipt %+v\ncalc %+v", where, got, want, rc.Errors, calc.Errors)
		}
		if !rc.OK() {
			// Never stored: the turn flies the default, which the calculator must fly alike.
			o := DefaultOrder(d, g.st, g.st.UnitNamed("U1"))
			order = o.String()
			if calc, usage = runTnlCalc(t, tnlCalcArgs(a, loadedMods, order)); usage != nil {
				t.Fatalf("%s\nthe default %q: %v", where, order, usage)
			}
			if !calc.Legal {
				t.Fatalf("%s\nthe default %q is refused: %+v", where, order, calc.Errors)
			}
		} else {
			legal++
		}
		next, _, err := g.Resolve(map[string]string{"U1": order, "FAR": "HOLD"}, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("%s\nresolve: %v", where, err)
		}
		b := next.(*game).st.Plane("A1")
		end := calc.Phases[len(calc.Phases)-1].End
		wantHex := hexmap.Hex{Q: a.Hex.Q + end.Hex.Q, R: a.Hex.R + end.Hex.R}
		mod := 0
		if o, ds := notation.Parse(order); !parser.HasErrors(ds) {
			mod = AltMod(sh, o.Segments[0].Alt, 1)
		}
		wantSpeed := max(calc.Phases[1].Hexes-mod, 1)
		if b.Hex != wantHex || b.Facing != end.Facing || b.Inverted != end.Inverted || b.Level.String() != calc.Level || b.Speed != wantSpeed {
			t.Fatalf("%s\nthe turn ends at %s facing %s inverted %v at %s speed %d; the calculator at %s facing %s inverted %v at %s speed %d",
				where, b.Hex, b.Facing, b.Inverted, b.Level, b.Speed, wantHex, end.Facing, end.Inverted, calc.Level, wantSpeed)
		}
		if rc.OK() && (b.Hex != plan.Path[len(plan.Path)-1] || b.Facing != plan.Facing || !plan.Faced) {
			t.Fatalf("%s\nthe turn ends at %s facing %s; the board's track at %s facing %s", where, b.Hex, b.Facing, plan.Path[len(plan.Path)-1], plan.Facing)
		}
		if b.Hits != a.Hits {
			t.Fatalf("%s\nthe aircraft was hit flying alone: %d hits", where, b.Hits)
		}
	}
	t.Logf("%d random orders (%d legal) agreed between calc move, the receipt and the turn", n, legal)
}

// planAgreesWithCalc checks the board's track of a plot that reads against the calculator's steps and
// the receipt's preview: it starts in the aircraft's hex, enters one hex at a time, each step of the
// calculator ends where the track has entered as many hexes as the steps so far (a number that many, a
// roll or slip one, a turn or invert none), each phase ends in the hex the preview names, and it ends
// facing as the calculator's last step.
func planAgreesWithCalc(t *testing.T, where string, start hexmap.Hex, plan ruleset.Plan, calc moveJSON, preview []string) {
	t.Helper()
	p := plan.Path
	if len(p) == 0 || p[0] != start {
		t.Fatalf("%s\nthe board's track does not start in the aircraft's hex %s: %v", where, start, p)
	}
	for k := 1; k < len(p); k++ {
		if hexmap.Distance(p[k-1], p[k]) != 1 {
			t.Fatalf("%s\nthe board's track jumps from %s to %s: %v", where, p[k-1], p[k], p)
		}
	}
	entered := 0
	for ph, cp := range calc.Phases {
		for _, s := range cp.Steps {
			switch n, err := strconv.Atoi(s.Token); {
			case err == nil:
				entered += n
			case s.Token == "RL" || s.Token == "RR" || s.Token == "SL" || s.Token == "SR":
				entered++
			}
			want := hexmap.Hex{Q: start.Q + s.Hex.Q, R: start.R + s.Hex.R}
			if entered >= len(p) || p[entered] != want {
				t.Fatalf("%s\nthe calculator's step %s of phase %d ends in %s, hex %d of the board's track %v", where, s.Token, ph+1, want, entered, p)
			}
		}
		if line := fmt.Sprintf("phase %d: %d hexes to %s facing", ph+1, cp.Hexes, p[entered]); !slices.ContainsFunc(preview, func(l string) bool { return strings.Contains(l, line) }) {
			t.Fatalf("%s\nthe preview %q does not say %q", where, preview, line)
		}
	}
	if entered != len(p)-1 {
		t.Fatalf("%s\nthe board's track has %d hexes after the start; the calculator's steps enter %d", where, len(p)-1, entered)
	}
	if end := calc.Phases[len(calc.Phases)-1].End; !plan.Faced || plan.Facing != end.Facing {
		t.Fatalf("%s\nthe board ends facing %s (faced %v); the calculator %s", where, plan.Facing, plan.Faced, end.Facing)
	}
}

// calcVersusCheckPlot runs the calculator on a whole turn and compares its verdict and end with
// CheckPlot and LoadProblems for the same aircraft.
func calcVersusCheckPlot(t *testing.T, a *Aircraft, loadedMods bool, order string) moveJSON {
	t.Helper()
	d := testData(t)
	sh, _ := d.Sheet(a.Type)
	out, usage := runTnlCalc(t, tnlCalcArgs(a, loadedMods, order))
	if usage != nil {
		t.Fatalf("%q: %v", order, usage)
	}
	o, ds := notation.Parse(order)
	if parser.HasErrors(ds) {
		t.Fatalf("%q: %v", order, ds)
	}
	pc := CheckPlot(sh, a, o.Segments[0], loadedMods)
	var want []ruleset.Problem
	for _, p := range append(pc.Errors, LoadProblems(a, o.Segments[0], pc.Level)...) {
		want = append(want, ruleset.Problem{Code: p.Code})
	}
	if !slices.Equal(codesOf(out.Errors), codesOf(want)) {
		t.Errorf("%q: the calculator's problems %v, the game's %v", order, codesOf(out.Errors), codesOf(want))
	}
	if end := out.Phases[1].End; end != pc.Phases[1].End {
		t.Errorf("%q: the calculator ends at %+v, the game at %+v", order, end, pc.Phases[1].End)
	}
	return out
}

// Seed 003, "Movement" (and docs/tnl.md: INV rights an inverted aircraft): an aircraft may start its turn
// inverted, and then INV rights it. The calculator always started upright.
func TestCalcMoveTakesAnInvertedStart(t *testing.T) {
	a := &Aircraft{Callsign: "the Supermarine Spitfire Mk I", Type: "spitfire-i", Level: Medium, Speed: 6, Training: "trained", Inverted: true, Status: Flying}
	if out := calcVersusCheckPlot(t, a, false, "3 INV 3 / 6 HOLD"); out.Phases[1].End.Inverted {
		t.Errorf("an inverted start rolled upright ends upright: %+v", out.Phases[1].End)
	}
}

// Seed 003, "Loaded Modifiers": a loaded fighter under the loaded modifiers flies a hex a phase slower
// and needs a hex more before each manoeuvre. The calculator never applied them.
func TestCalcMoveTakesTheLoadedModifiers(t *testing.T) {
	a := &Aircraft{Callsign: "the Supermarine Spitfire Mk I", Type: "spitfire-i", Level: Medium, Speed: 6, Training: "trained", Load: "500lb", Loaded: true, Status: Flying}
	d, _ := DefaultData()
	sh, _ := d.Sheet(a.Type)
	top := sh.SP[0]
	if out := calcVersusCheckPlot(t, a, true, fmt.Sprintf("%d / %d HOLD", top, sh.SP[1])); out.Legal {
		t.Errorf("the sheet's full speed, loaded under the loaded modifiers: legal")
	}
}

// Seed 003, "Attacking Ships": BOMB needs a bomb aboard and a dive begun at Medium, TORPEDO a torpedo
// and Very Low. The calculator checked neither, so it called legal what the receipt refused.
func TestCalcMoveChecksTheLoad(t *testing.T) {
	a := &Aircraft{Callsign: "the Junkers Ju 88A", Type: "ju-88a", Level: Medium, Speed: 4, Training: "trained", Status: Flying}
	if out := calcVersusCheckPlot(t, a, false, "DIVE 4 / 4 BOMB KAGA HOLD"); out.Legal {
		t.Errorf("BOMB with no bomb aboard: legal")
	}
	a.Load, a.Loaded = "torpedo", true
	if out := calcVersusCheckPlot(t, a, false, "4 / 4 TORPEDO KAGA HOLD"); out.Legal {
		t.Errorf("TORPEDO from Medium: legal")
	}
}

const diffTnlFireScenario = annBen + `name: differential fire
turns: 8
aircraft:
  - {callsign: A1, type: %s, side: A, player: ann, hex: [0, 0], facing: %d, level: M, training: %s, skills: [%s]%s}
  - {callsign: B1, type: %s, side: B, player: ben, hex: [%d, %d], facing: %d, level: M, training: %s, skills: [%s]%s}
`

// TestCalculatorAndTurnAgreeOnFire is Thunderbolt & Lightning's differential test of fire (seed 003,
// "Combat", "Saving Roll", "Effects of Hits"): every burst a resolved turn fires is fired again by `sortie
// calc fire --ruleset tnl --json` with the turn's range and dice, and its hits saved or suffered by `sortie
// calc save`, and the needs, hits, saves and damage must be the turn's.
func TestCalculatorAndTurnAgreeOnFire(t *testing.T) {
	d := testData(t)
	keys := d.Keys()
	n := rulesettest.Cases(t, 1500, 400)
	rng := rand.New(rand.NewPCG(26, 9))
	trainings := []string{"very-green", "poor", "trained", "veteran", "ace"}
	skills := []string{"", "aim", "lucky", "deadly", "aim, deadly"}
	sights := []string{"", "", ", gunsight: gyro", ", gunsight: radar"}
	bursts := 0
	for i := range n {
		k1, k2 := keys[rng.IntN(len(keys))], keys[rng.IntN(len(keys))]
		tr1, tr2 := trainings[rng.IntN(5)], trainings[rng.IntN(5)]
		skillsOf := func(tr string) string {
			switch tr {
			case "veteran":
				return skills[1+rng.IntN(3)]
			case "ace":
				return skills[4]
			}
			return ""
		}
		yaml := fmt.Appendf(nil, diffTnlFireScenario, k1, 60*rng.IntN(6), tr1, skillsOf(tr1), sights[rng.IntN(4)],
			k2, rng.IntN(9)-4, rng.IntN(9)-4, 60*rng.IntN(6), tr2, skillsOf(tr2), sights[rng.IntN(4)])
		g0, err := Ruleset{}.NewGame(yaml, nil, "fire.yaml")
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, yaml)
		}
		g := g0.(*game)
		orders := map[string]string{}
		for _, u := range []string{"A1", "B1"} {
			orders[u] = DefaultOrder(d, g.st, g.st.UnitNamed(u)).String()
			orders[u] = strings.TrimSuffix(strings.TrimSuffix(orders[u], " HOLD"), " FIRE ANY") + " FIRE ANY"
		}
		_, log, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		events := rulesettest.Events[Event](t, log)
		hitsBefore := map[string]int{}
		for _, e := range events {
			s := e.Shot
			if e.Kind != EvFire || s == nil || s.Rerolled {
				continue
			}
			bursts++
			firer, target := g.st.Plane(e.Unit), g.st.Plane(e.Target)
			args := []string{"--range", strconv.Itoa(s.Range), "--training", firer.Training, "--json"}
			if firer.Has(SkillAim) {
				args = append(args, "--aim")
			}
			if firer.Gunsight != "" {
				args = append(args, "--gunsight", firer.Gunsight)
			}
			where := fmt.Sprintf("case %d: %s fired at %s: %s\ncalc: sortie calc fire --ruleset tnl %s", i, e.Unit, e.Target, e.Text, strings.Join(args, " "))
			fsh, _ := d.Sheet(firer.Type)
			var hitColours []string
			// Each group of the burst through the calculator: as the fixed guns', or, when the firer has a
			// flexible mount of its colour, as a flexible mount's (--flexible: no gun sight).
			for _, gr := range s.Groups {
				var vs []string
				for _, v := range gr.Rolls {
					vs = append(vs, strconv.Itoa(v))
				}
				ga := append(slices.Clone(args), "--"+gr.Colour.String(), strings.Join(vs, ","))
				if gr.Pivot {
					ga = append(ga, "--pivot")
				}
				readings := [][]string{ga}
				if slices.ContainsFunc(fsh.Flexible, func(m Mount) bool { return m.Colour == gr.Colour }) {
					readings = append(readings, append(slices.Clone(ga), "--flexible"))
				}
				ok := false
				var got []GroupDetail
				for _, ra := range readings {
					var buf bytes.Buffer
					if err := calcFire(ra, &buf); err != nil {
						t.Fatalf("%s\n%v: %v", where, ra, err)
					}
					var c fireJSON
					if err := json.Unmarshal(buf.Bytes(), &c); err != nil {
						t.Fatal(err)
					}
					g := c.Groups[0]
					ok = ok || g.Colour == gr.Colour && g.Pivot == gr.Pivot && g.Need == gr.Need && g.Hits == gr.Hits
					got = append(got, g)
				}
				if !ok {
					t.Fatalf("%s\nthe turn's group %+v; the calculator's %+v", where, gr, got)
				}
				for range gr.Hits {
					hitColours = append(hitColours, gr.Colour.String())
				}
			}
			var buf bytes.Buffer
			if len(s.Saves) == 0 || len(s.Saves) != len(hitColours) {
				continue // no hits, or the target went down before every hit was saved
			}
			var rolls []string
			for _, sv := range s.Saves {
				rolls = append(rolls, strconv.Itoa(sv.Roll))
			}
			sargs := []string{"--type", target.Type, "--hits", strings.Join(hitColours, ","), "--dice", strings.Join(rolls, ","),
				"--before", strconv.Itoa(hitsBefore[target.Callsign]), "--json"}
			if target.Has(SkillLucky) {
				sargs = append(sargs, "--lucky")
			}
			if firer.Has(SkillDeadly) {
				sargs = append(sargs, "--deadly")
			}
			buf.Reset()
			if err := calcSave(sargs, &buf); err != nil {
				t.Fatalf("%s\ncalc save %s: %v", where, strings.Join(sargs, " "), err)
			}
			var cs struct {
				Saves    []SaveDetail `json:"saves"`
				Suffered int          `json:"suffered"`
			}
			if err := json.Unmarshal(buf.Bytes(), &cs); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(cs.Saves) != fmt.Sprint(s.Saves) || cs.Suffered != s.Suffered {
				t.Fatalf("%s\ncalc save %s:\n%+v\nthe turn:\n%+v", where, strings.Join(sargs, " "), cs.Saves, s.Saves)
			}
			hitsBefore[target.Callsign] += s.Suffered
		}
	}
	if bursts < n/10 {
		t.Fatalf("only %d bursts in %d turns", bursts, n)
	}
	t.Logf("%d bursts of %d random turns agreed between calc fire, calc save and the turn", bursts, n)
}

// Seed 003, "Single Pivot Mount MG Firing -1": the penalty is a single machine gun's (a white die). The
// sheets gave it to every single flexible gun, so a Ki-67's single 20 mm cannon fired at -1 in the turn
// while the calculator (whose --pivot is for white dice) read it without.
func TestPivotPenaltyIsForMachineGunsOnly(t *testing.T) {
	d := testData(t)
	sh, ok := d.Sheet("ki-67")
	if !ok {
		t.Fatal("no ki-67")
	}
	red, white := 0, 0
	for _, m := range sh.Flexible {
		switch {
		case m.Colour != White && m.Pivot:
			t.Errorf("the %s's %s flexible gun takes the pivot penalty", sh.Name, m.Colour)
		case m.Colour == Red:
			red++
		case m.Colour == White && m.Pivot:
			white++
		}
	}
	if red == 0 || white == 0 {
		t.Errorf("the test wants a sheet with a single flexible cannon and single machine guns: %+v", sh.Flexible)
	}
}

// Seed 003 (gun sights, docs/tnl.md): a gun sight serves the pilot's fixed guns, not the flexible mounts,
// as the turn reads them; the calculator gave every die the sight.
func TestCalcFireFlexibleMountsHaveNoGunSight(t *testing.T) {
	var buf bytes.Buffer
	if err := calcFire([]string{"--range", "4", "--white", "5", "--gunsight", "gyro", "--flexible", "--json"}, &buf); err != nil {
		t.Fatal(err)
	}
	var c fireJSON
	if err := json.Unmarshal(buf.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	if c.Groups[0].Need != 5 || c.Total != 1 {
		t.Errorf("a flexible mount at range 4 with a gyro sight aboard: %+v, want need 5", c)
	}
}
