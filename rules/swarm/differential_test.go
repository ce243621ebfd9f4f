package swarm

// The differential test of Swarm's movement (seed 004, "Movement", "Cloud Cover", the bombing addendum):
// an order is answered three ways, by the calculator (`sortie calc move --ruleset swarm --json`, run
// in-process), by the receipt (the game's CheckOrder) and by the turns themselves (the game's Resolve
// with seeded dice), and the three must agree: legal or not and why (the problem codes), and where the
// squadron ends (hex, facing, tack).

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

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

const diffSwarmScenario = annBen + `name: differential
visibility: 5
turns: 20
squadrons:
  - {callsign: Q1, type: %s, side: A, player: ann, hex: [0, 0], facing: 30, tack: 1 S M}
  - {callsign: FAR, type: bf-109e, side: B, player: ben, hex: [0, -80], facing: 210, tack: 2 S M}
targets:
  - {name: DEPOT, side: B, hex: [3, 3], strength: 4}
`

var swarmBands = []string{"H", "M", "L"}

// randomSwarmTurn is one turn's order from tack: often one the board allows (a tack one step away, a
// path of its speed turning to its side), otherwise symbols drawn at random.
func randomSwarmTurn(rng *rand.Rand, from Tack) (string, Tack) {
	if rng.IntN(4) == 0 {
		toks := []string{"1", "2", "3", "4", "0", "L", "R", "S", "H", "M", "TR", "+1", "BOMB", "HOLD", "FIRE ANY", "FIRE FAR", "FIRE Q1", "X"}
		var parts []string
		for range 1 + rng.IntN(7) {
			parts = append(parts, toks[rng.IntN(len(toks))])
		}
		return strings.Join(parts, " "), from
	}
	mans := []string{"L", "S", "R"}
	to := Tack{Speed: min(max(from.Speed+rng.IntN(3)-1, 1), 3), Band: from.Band}
	k := slices.Index(mans, from.Man)
	to.Man = mans[min(max(k+rng.IntN(3)-1, 0), 2)]
	if b := slices.Index(swarmBands, from.Band) + rng.IntN(3) - 1; b >= 0 && b < 3 {
		to.Band = swarmBands[b]
	}
	if rng.IntN(8) == 0 {
		to.Speed = 1 + rng.IntN(3) // perhaps more than a step
	}
	parts := []string{to.String()}
	if rng.IntN(5) > 0 {
		// the path: the speed in runs, with a facing change to the tack's side after a run
		left := to.Speed
		for left > 0 {
			n := 1 + rng.IntN(left)
			parts = append(parts, strconv.Itoa(n))
			left -= n
			if to.Man != "S" && rng.IntN(2) == 0 {
				parts = append(parts, to.Man)
			}
		}
		if rng.IntN(10) == 0 {
			parts = append(parts, []string{"L", "R", "1"}[rng.IntN(3)])
		}
	}
	switch rng.IntN(6) {
	case 0:
		parts = append(parts, "BOMB")
	case 1:
		parts = append(parts, "FIRE ANY")
	case 2:
		parts = append(parts, "FIRE Q1")
	default:
		parts = append(parts, "HOLD")
	}
	return strings.Join(parts, " "), to
}

// runSwarmCalc runs `sortie calc move --ruleset swarm` in-process and reads its JSON.
func runSwarmCalc(t *testing.T, args []string) (swarmMoveJSON, error) {
	t.Helper()
	return rulesettest.CalcJSON(t, calcSwarmMove, args, func(o swarmMoveJSON) bool { return o.Legal })
}

func swarmCalcArgs(q *Squadron, order string) []string {
	args := []string{"--type", q.Type, "--tack", q.Tack.String(), "--facing", strconv.Itoa(int(q.Pos.Facing)),
		"--plot", order, "--contact=" + strconv.FormatBool(q.Contact), "--json"}
	if q.Bombed {
		args = append(args, "--bombed")
	}
	return args
}

// TestCalculatorReceiptAndTurnAgreeOnMovement: the calculator, the receipt and the turns check an order
// with one function (CheckOrderOf) and fly it with one (Move), so they agree on the verdict, the problem
// codes and where the squadron ends.
func TestCalculatorReceiptAndTurnAgreeOnMovement(t *testing.T) {
	d := testData(t)
	keys := d.TypeKeys()
	n := rulesettest.Cases(t, 5000, 800)
	rng := rand.New(rand.NewPCG(26, 4))
	legal := 0
	games := map[string]*game{} // one game a type; each case sets its squadron's state
	for i := range n {
		typ, _ := d.Type(keys[rng.IntN(len(keys))])
		g := games[typ.Key]
		if g == nil {
			g = newGame(t, fmt.Sprintf(diffSwarmScenario, typ.Key))
			games[typ.Key] = g
		}
		q := g.st.Squadron("Q1")
		q.Tack = Tack{Speed: 1 + rng.IntN(typ.MaxSpeed()), Man: []string{"L", "S", "R"}[rng.IntN(3)], Band: swarmBands[rng.IntN(3)]}
		q.Pos = Position{Hex: hexmap.Hex{Q: rng.IntN(9) - 4, R: rng.IntN(9) - 4}, Facing: hexmap.Dir(1 + 2*rng.IntN(6))}
		q.Contact = rng.IntN(2) == 0
		q.Bombed = typ.Bomber && rng.IntN(3) == 0
		turns := 1
		if !q.Contact || rng.IntN(5) == 0 {
			turns = 1 + rng.IntN(7)
		}
		var texts []string
		tack := q.Tack
		for range turns {
			var text string
			text, tack = randomSwarmTurn(rng, tack)
			texts = append(texts, text)
		}
		order := strings.Join(texts, "; ")
		args := swarmCalcArgs(q, order)
		calc, usage := runSwarmCalc(t, args)
		if usage != nil {
			t.Fatalf("case %d: the calculator cannot be given a squadron the game has: %v\n%q", i, usage, args)
		}
		rc := g.CheckOrder("ann", "Q1", order)
		where := fmt.Sprintf("case %d: %s tack %s at %s facing %s contact %v bombed %v, order %q\ncalc: sortie calc move --ruleset swarm %q",
			i, typ.Key, q.Tack, q.Pos.Hex, q.Pos.Facing, q.Contact, q.Bombed, order, args)
		// The plotting board: the plan's check is the receipt's, its track the calculator's and the
		// preview's hexes over every plotted turn, flown as far as the order reads.
		plan := g.Plan("ann", "Q1", order)
		if !reflect.DeepEqual(plan.Check, rc) {
			t.Fatalf("%s\nthe board's check %+v\nthe receipt's %+v", where, plan.Check, rc)
		}
		if rc.Canonical != "" {
			swarmPlanAgreesWithCalc(t, where, q.Pos.Hex, plan, calc, rc.Preview)
		} else if len(plan.Path) > 0 {
			t.Fatalf("%s\nan order that does not read has a track on the board: %v", where, plan.Path)
		}
		if got, want := rulesettest.Codes(rc.Errors), rulesettest.Codes(calc.Errors); !slices.Equal(got, want) {
			t.Fatalf("%s\nthe receipt's problems %v, the calculator's %v\nreceipt %+v\ncalc %+v", where, got, want, rc.Errors, calc.Errors)
		}
		// fire-own names another squadron of the game, which the calculator does not know.
		warned := slices.DeleteFunc(rulesettest.Codes(rc.Warnings), func(c string) bool { return c == "fire-own" })
		if got, want := warned, rulesettest.Codes(calc.Warnings); !slices.Equal(got, want) {
			t.Fatalf("%s\nthe receipt's warnings %v, the calculator's %v", where, got, want)
		}
		nTurns := 1
		if calc.Legal {
			legal++
			nTurns = calc.Steps[len(calc.Steps)-1].Turn
			e := calc.End
			end := hexmap.Hex{Q: q.Pos.Hex.Q + e.Q, R: q.Pos.Hex.R + e.R}
			last := rc.Preview[len(rc.Preview)-1]
			if want := "; ends in " + end.String() + " facing " + hexmap.Dir(e.Facing).String(); !strings.Contains(last, want) {
				t.Fatalf("%s\nthe receipt forecasts %q, the calculator %q", where, last, want)
			}
		} else {
			// An order the receipt refuses is never stored: the turn flies the default, which the
			// calculator must fly alike.
			order = turnText(DefaultTurn(q))
			q2 := *q
			q2.Contact = true
			if calc, usage = runSwarmCalc(t, swarmCalcArgs(&q2, order)); usage != nil || !calc.Legal {
				t.Fatalf("%s\nthe default %q: %v %+v", where, order, usage, calc.Errors)
			}
		}
		// The far squadron flies as many turns, so the round plays the whole course.
		far := strings.Repeat("2 S M 2 HOLD; ", nTurns-1) + "2 S M 2 HOLD"
		next, _, err := g.Resolve(map[string]string{"Q1": order, "FAR": far}, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("%s\nresolve: %v", where, err)
		}
		got := next.(*game).st.Squadron("Q1")
		e := calc.End
		want := Position{Hex: hexmap.Hex{Q: q.Pos.Hex.Q + e.Q, R: q.Pos.Hex.R + e.R}, Facing: hexmap.Dir(e.Facing)}
		if got.Pos != want || got.Tack.String() != e.Tack {
			t.Fatalf("%s\nafter %d turn(s) the game has it at %s facing %s tack %s; the calculator at %s facing %s tack %s",
				where, nTurns, got.Pos.Hex, got.Pos.Facing, got.Tack, want.Hex, want.Facing, e.Tack)
		}
		if rc.OK() && (got.Pos.Hex != plan.Path[len(plan.Path)-1] || got.Pos.Facing != plan.Facing || !plan.Faced) {
			t.Fatalf("%s\nafter %d turn(s) the game has it at %s facing %s; the board's track ends at %s facing %s",
				where, nTurns, got.Pos.Hex, got.Pos.Facing, plan.Path[len(plan.Path)-1], plan.Facing)
		}
		if got.Filled != q.Filled {
			t.Fatalf("%s\nthe squadron was hit flying alone: %d pips filled", where, got.Filled)
		}
	}
	t.Logf("%d random orders (%d legal) agreed between calc move, the receipt and the turn", n, legal)
}

// swarmPlanAgreesWithCalc checks the board's track of an order that reads against the calculator's steps
// and the receipt's preview: the squadron's hex, then every hex a segment enters, over all the turns the
// order plots; each turn ends in the hex the preview names; the facing at the end is the calculator's.
func swarmPlanAgreesWithCalc(t *testing.T, where string, start hexmap.Hex, plan ruleset.Plan, calc swarmMoveJSON, preview []string) {
	t.Helper()
	want := []hexmap.Hex{start}
	ends := map[int]hexmap.Hex{}
	for _, s := range calc.Steps {
		h := hexmap.Hex{Q: start.Q + s.Q, R: start.R + s.R}
		if s.Token == "1" {
			want = append(want, h)
		}
		ends[s.Turn] = h
	}
	if !slices.Equal(plan.Path, want) {
		t.Fatalf("%s\nthe board's track %v; the calculator's %v", where, plan.Path, want)
	}
	for turn, h := range ends {
		if turn > len(preview) || !strings.Contains(preview[turn-1], "; ends in "+h.String()+" facing ") {
			t.Fatalf("%s\nturn %d of the calculator ends in %s; the preview: %q", where, turn, h, preview)
		}
	}
	if e := calc.End; e == nil || !plan.Faced || plan.Facing != hexmap.Dir(e.Facing) {
		t.Fatalf("%s\nthe board ends facing %s (faced %v); the calculator %+v", where, plan.Facing, plan.Faced, e)
	}
}

// Seed 004, "Cloud Cover": a squadron with the enemy in sight plots one turn, one without plots 3 to 6.
// The calculator checked no course length, so it called a plot legal that the receipt refused.
func TestCalcMoveChecksTheCourseAsTheGame(t *testing.T) {
	for _, c := range []struct {
		contact []string
		plot    string
		want    []string
	}{
		{nil, "2 S M 2", []string{}},
		{nil, "2 S M 2; 2 S M 2", []string{"course-length"}},
		{[]string{"--contact=false"}, "2 S M 2", []string{"course-length"}},
		{[]string{"--contact=false"}, "2 S M 2; 2 S M 2; 2 S M 2", []string{}},
		{[]string{"--contact"}, "2 S M 2; 2 S M 2; 2 S M 2", []string{"one-turn"}},
	} {
		out, err := runSwarmCalc(t, append([]string{"--tack", "2 S M", "--plot", c.plot, "--json"}, c.contact...))
		if err != nil || !slices.Equal(rulesettest.Codes(out.Errors), c.want) {
			t.Errorf("%v %q: %v %v, want %v", c.contact, c.plot, err, rulesettest.Codes(out.Errors), c.want)
		}
	}
}

// Seed 004, "Addendum: Bombing and low level attacks": a bomber bombs once, and a squadron that is no
// bomber attacks the ground from Low only. The receipt refused both; the calculator called them legal.
func TestCalcMoveChecksBombAsTheGame(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--type", "spitfire-i", "--tack", "2 S M", "--plot", "2 S M 2 BOMB"}, []string{"strafe-low"}},
		{[]string{"--type", "spitfire-i", "--tack", "2 S L", "--plot", "2 S L 2 BOMB"}, []string{}},
		{[]string{"--type", "do-17z", "--tack", "1 S M", "--plot", "1 S M 1 BOMB", "--bombed"}, []string{"bombs-gone"}},
		{[]string{"--type", "do-17z", "--tack", "1 S M", "--plot", "1 S M 1 BOMB"}, []string{}},
	} {
		out, err := runSwarmCalc(t, append(c.args, "--json"))
		if err != nil || !slices.Equal(rulesettest.Codes(out.Errors), c.want) {
			t.Errorf("%v: %v %v, want %v", c.args, err, rulesettest.Codes(out.Errors), c.want)
		}
	}
}

const diffSwarmFireScenario = annBen + `name: differential fire
turns: 20
squadrons:
  - {callsign: Q1, type: %s, side: A, player: ann, hex: [0, 0], facing: %d, tack: 1 S M, pilots: %s, filled: %d}
  - {callsign: Q2, type: %s, side: B, player: ben, hex: [%d, %d], facing: %d, tack: 1 S M, pilots: %s, filled: %d}
`

// TestCalculatorAndTurnAgreeOnFire is Swarm's differential test of fire (seed 004, "Firing", the
// evasive saves of the house chart): every attack a resolved turn makes is made again by `sortie calc
// fire --ruleset swarm --json` with the turn's range and dice, and the two must score the same dice,
// need the same save and fill the same pips.
func TestCalculatorAndTurnAgreeOnFire(t *testing.T) {
	d := testData(t)
	keys := d.TypeKeys()
	pilots := []string{"green", "regular", "veteran", "ace"}
	n := rulesettest.Cases(t, 1500, 250)
	rng := rand.New(rand.NewPCG(26, 8))
	attacks := 0
	for i := range n {
		t1, t2 := keys[rng.IntN(len(keys))], keys[rng.IntN(len(keys))]
		p1, p2 := pilots[rng.IntN(4)], pilots[rng.IntN(4)]
		yaml := fmt.Appendf(nil, diffSwarmFireScenario, t1, 1+2*rng.IntN(6), p1, rng.IntN(3), t2, rng.IntN(7)-3, rng.IntN(7)-3, 1+2*rng.IntN(6), p2, rng.IntN(3))
		g0, err := Ruleset{}.NewGame(yaml, nil, "fire.yaml")
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, yaml)
		}
		g := g0.(*game)
		_, log, err := g.Resolve(map[string]string{"Q1": "1 S M 1 FIRE ANY", "Q2": "1 S M 1 FIRE ANY"}, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		events := rulesettest.Events[Event](t, log)
		for _, e := range events {
			f := e.Fire
			if e.Kind != EvFire || f == nil {
				continue
			}
			tq := g.st.Squadron(e.Target)
			tt, _ := d.Type(tq.Type)
			join := func(xs []int) string {
				var s []string
				for _, x := range xs {
					s = append(s, strconv.Itoa(x))
				}
				return strings.Join(s, ",")
			}
			args := []string{"--firepower", fmt.Sprintf("%dD6", f.Firepower), "--range", strconv.Itoa(f.Range), "--dice", join(f.Attacks), "--pilots", tq.Pilots, "--json"}
			if tt.Durable {
				args = append(args, "--durable")
			}
			full := len(f.Saves) == f.Scored // fewer when the target went down first
			if full && f.Scored > 0 {
				args = append(args, "--save", join(f.Saves))
			}
			attacks++
			var buf bytes.Buffer
			where := fmt.Sprintf("case %d: %s fired at %s: %+v\ncalc: sortie calc fire --ruleset swarm %s", i, e.Unit, e.Target, *f, strings.Join(args, " "))
			if err := calcSwarmFire(args, &buf); err != nil {
				t.Fatalf("%s\n%v", where, err)
			}
			var c swarmFireJSON
			if err := json.Unmarshal(buf.Bytes(), &c); err != nil {
				t.Fatal(err)
			}
			if c.Scored != f.Scored || c.SaveNeed != f.SaveNeed || c.SaveMod != f.SaveMod || full && c.Filled != f.Filled {
				t.Fatalf("%s\nthe calculator: scored %d, save need %d modifier %+d, filled %d", where, c.Scored, c.SaveNeed, c.SaveMod, c.Filled)
			}
		}
	}
	if attacks < n/10 {
		t.Fatalf("only %d attacks in %d turns", attacks, n)
	}
	t.Logf("%d attacks of %d random turns agreed between calc fire and the turn", attacks, n)
}
