package afd

// The differential test of the plain game's movement: a plot is answered three ways, by the calculator
// (`sortie calc move --json`, run in-process), by the receipt (the game's CheckOrder, which the
// adjudicator calls for every order mailed) and by the turn itself (the game's Resolve with seeded
// dice), and the three must agree: legal or not and why (the problem codes), and where the plane ends
// (hex, facing, altitude, speed, bank). Thousands of random plots, legal and illegal, are flown from
// random states of every bundled aircraft type.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// diffMoveTokens are the plot tokens the generator draws from: every movement token, flag, power and
// brake, altitude figures, and some mistakes the notation refuses.
var diffMoveTokens = []string{
	"TR", "TL", "SR", "SL", "SRTL", "SLTR", "HR", "HL", "V", "VRR", "VLL", "RB", "LB", "N", "I", "IR", "IL", "BR", "BL",
	"STEEP", "VERT", "BOMB", "SC", "SD", "P", "PP", "P3", "K", "KK", "K3", "ROCKET", "STRAFE",
	"+5", "+10", "+20", "-5", "-10", "-30", "+1", "-1",
	// mistakes
	"SRTR", "VR", "B", "PP2", "X", "2.5", "TRR", "0",
}

// randomPlot is a plot the generator writes: half the time one of the moves a pilot considers at the
// plane's speed (often legal), otherwise tokens drawn at random (often not).
func randomPlot(rng *rand.Rand, moves map[int][][]notation.Element, s int) string {
	var parts []string
	if rng.IntN(2) == 0 {
		plots := movesAt(moves, max(s, 1))
		pl := notation.Plot{Elements: plots[rng.IntN(len(plots))]}
		parts = append(parts, pl.String())
		switch rng.IntN(6) {
		case 0:
			parts = append(parts, diffMoveTokens[rng.IntN(len(diffMoveTokens))])
		case 1:
			parts = append(parts, []string{"+5", "-5", "-10", "P", "K", "STEEP -10", "SC +5", "VERT"}[rng.IntN(8)])
		}
		return strings.Join(parts, " ")
	}
	n := 1 + rng.IntN(6)
	for range n {
		if rng.IntN(3) == 0 {
			parts = append(parts, strconv.Itoa(1+rng.IntN(max(s, 2))))
		} else {
			parts = append(parts, diffMoveTokens[rng.IntN(len(diffMoveTokens))])
		}
	}
	return strings.Join(parts, " ")
}

// movesAt is pilotPlots(s), kept in moves.
func movesAt(moves map[int][][]notation.Element, s int) [][]notation.Element {
	if moves[s] == nil {
		moves[s] = pilotPlots(s)
	}
	return moves[s]
}

var diffBanks = []notation.Bank{notation.BankN, notation.BankRB, notation.BankLB, notation.BankI, notation.BankIR, notation.BankIL}

// randomFlight is a random state of a plane of the card: a speed and altitude the card flies (now and
// then one it does not), any bank, facing and grain, last turn's facts, the straight run.
func randomFlight(rng *rand.Rand, card *aircraft.Card) Flight {
	lo, hi := 99, 0
	for _, b := range card.Bands {
		lo, hi = min(lo, b.Level.Min, b.Dive.Min), max(hi, b.Dive.Max)
	}
	f := Flight{
		Hex:    hex.Hex{Q: rng.IntN(21) - 10, R: rng.IntN(21) - 10},
		Facing: hex.Dir(rng.IntN(12)),
		Phase:  hex.Phase(rng.IntN(2)),
		Speed:  Tenths(lo*10 + rng.IntN((hi-lo+1)*10)),
		Alt:    100 * rng.IntN(card.Ceiling/100+1),
		Bank:   diffBanks[rng.IntN(len(diffBanks))],
	}
	if rng.IntN(10) == 0 {
		f.Speed = Tenths(rng.IntN(120))
	}
	if card.Loaded != nil && rng.IntN(2) == 0 {
		f.Loaded = true
	}
	if card.MultiEngine() && rng.IntN(8) == 0 {
		f.NoPower = true
	}
	switch rng.IntN(6) {
	case 0:
		f.Last.SteepClimb = true
	case 1:
		f.Last.SteepDive, f.Last.DiveFt = true, 100*rng.IntN(30)
	case 2:
		f.Last.Vert, f.Last.DiveFt = true, 100*rng.IntN(60)
	case 3:
		f.Last.DiveFt = 100 * rng.IntN(20)
	}
	f.Last.Power = rng.IntN(4) == 0
	if rng.IntN(2) == 0 {
		f.Last.Speed = max(f.Speed.Round()+rng.IntN(5)-2, 0)
	}
	f.Straight = Plenty
	if rng.IntN(2) == 0 {
		f.Straight = rng.IntN(6)
	}
	return f
}

// calcMoveArgs are the calculator's flags for a plane in flight f flying plot.
func calcMoveArgs(card *aircraft.Card, f Flight, rockets int, plot string) []string {
	args := []string{"--aircraft", card.Key, "--speed", fmt.Sprintf("%.1f", f.Speed.Float()), "--alt", strconv.Itoa(f.Alt),
		"--bank", f.Bank.String(), "--facing", strconv.Itoa(int(f.Facing)),
		"--straight", strconv.Itoa(f.Straight), "--plot", plot, "--json"}
	if f.Phase != hex.RightFront {
		args = append(args, "--grain", f.Phase.String())
	}
	if f.Loaded {
		args = append(args, "--loaded")
	}
	if f.NoPower {
		args = append(args, "--engine-out")
	}
	if rockets > 0 {
		args = append(args, "--rockets", strconv.Itoa(rockets))
	}
	var prev []string
	l := f.Last
	for _, x := range []struct {
		on   bool
		text string
	}{{l.SteepClimb, "steep-climb"}, {l.SteepDive, "steep-dive"}, {l.Vert, "vert"}, {l.Power, "power"},
		{l.DiveFt > 0, fmt.Sprintf("dive=%d", l.DiveFt)}, {l.Speed > 0, fmt.Sprintf("speed=%d", l.Speed)}} {
		if x.on {
			prev = append(prev, x.text)
		}
	}
	if len(prev) > 0 {
		args = append(args, "--previous", strings.Join(prev, ","))
	}
	return args
}

// runCalcMove runs `sortie calc move` in-process and reads its JSON; ok is false for a usage error (the
// state is one the calculator cannot be given).
func runCalcMove(t *testing.T, args []string) (out moveJSON, usage error) {
	t.Helper()
	return rulesettest.CalcJSON(t, calcMove, args, func(o moveJSON) bool { return o.Legal })
}

const diffScenario = annBen + `name: differential
options: {fog_of_war: false}
aircraft:
  - {callsign: P1, type: %s, side: A, player: ann, hex: [0, 0], facing: 0, alt: 10000, speed: %.1f}
  - {callsign: FAR, type: bf-109e, side: B, player: ben, hex: [0, -400], facing: 6, alt: 10000, speed: 3.0}
turns: 5
`

// TestCalculatorReceiptAndTurnAgreeOnMovement is the plain game's differential test (seed 000 rules
// (1)-(29)): the calculator, the receipt and the turn fly every plot with the one function (flyPlot),
// so they give the same verdict, the same problem codes and the same end.
func TestCalculatorReceiptAndTurnAgreeOnMovement(t *testing.T) {
	env, cards, n, rng := diffCases(t, 5000, 500, 26, 2026)
	legal, defaultRefused := 0, 0
	games := map[string]*game{} // one game a type; each case sets its plane's state
	moves := map[int][][]notation.Element{}
	for i := range n {
		card := cards[rng.IntN(len(cards))]
		f := randomFlight(rng, card)
		plot := randomPlot(rng, moves, f.Speed.Round())
		if rng.IntN(3) == 0 {
			// The default plot's altitude and power with a pilot's moves: legal more often than not.
			pl := DefaultPlot(card, f)
			if s := f.Speed.Round(); s > 0 && s < 12 {
				plots := movesAt(moves, s)
				pl.Elements = plots[rng.IntN(len(plots))]
			}
			plot = pl.String()
		}
		rockets := rng.IntN(3)
		args := calcMoveArgs(card, f, rockets, plot)
		calc, usage := runCalcMove(t, args)
		if usage != nil {
			t.Fatalf("case %d: the calculator cannot be given a plane the game has: %v\n%q", i, usage, args)
		}

		g := games[card.Key]
		if g == nil {
			g0, err := Ruleset{Env: env}.NewGame(fmt.Appendf(nil, diffScenario, card.Key, 3.0), nil, "diff.yaml")
			if err != nil {
				t.Fatal(err)
			}
			g = g0.(*game)
			games[card.Key] = g
		}
		g.st.Plane("P1").Flight = f
		g.st.Plane("P1").Rockets = rockets
		order := plot + " HOLD"
		rc := g.CheckOrder("ann", "P1", order)
		board := g.Plan("ann", "P1", order)

		where := fmt.Sprintf("case %d: %s %+v plot %q\ncalc: sortie calc move %s", i, card.Key, f, plot, strings.Join(args, " "))
		if got, want := rulesettest.Codes(rc.Errors), rulesettest.Codes(calc.Errors); !slices.Equal(got, want) {
			t.Fatalf("%s\nthe receipt's problems %v, the calculator's %v\nreceipt %+v\ncalc %+v", where, got, want, rc.Errors, calc.Errors)
		}
		// The plotting board's plan: the receipt's check, and the track of the calculator's steps and
		// the receipt's forecast, legal or not, whenever the plot reads.
		if !reflect.DeepEqual(board.Check, rc) {
			t.Fatalf("%s\nthe board's check is not the receipt's:\nboard   %+v\nreceipt %+v", where, board.Check, rc)
		}
		if len(rc.Preview) > 0 {
			if want := boardTrack(f.Hex, calcHexes(f.Hex, calc.Steps)); !slices.Equal(board.Path, want) {
				t.Fatalf("%s\nthe board's track %v, the calculator's steps %v", where, board.Path, want)
			}
			if want := boardTrack(f.Hex, previewHexes(t, rc.Preview[:len(rc.Preview)-1])); !slices.Equal(board.Path, want) {
				t.Fatalf("%s\nthe board's track %v, the receipt's forecast %v", where, board.Path, want)
			}
			if calc.End != nil && (!board.Faced || board.Facing != hex.Dir(calc.End.Facing)) {
				t.Fatalf("%s\nthe board ends facing %v (%v), the calculator %v", where, board.Facing, board.Faced, hex.Dir(calc.End.Facing))
			}
		}
		if !calc.Legal {
			// An order the receipt refuses is never stored: the turn flies the default plot, which the
			// calculator must fly alike.
			plot = DefaultPlot(card, f).String()
			args = calcMoveArgs(card, f, rockets, plot)
			if calc, usage = runCalcMove(t, args); usage != nil || calc.End == nil {
				t.Fatalf("%s\nthe default plot %q: %v %+v", where, plot, usage, calc.Errors)
			}
			if !calc.Legal {
				defaultRefused++
			}
			order = plot + " HOLD"
		} else {
			legal++
			if want := appendEndLine(nil, endOf(calc, f)); rc.Preview[len(rc.Preview)-1] != string(want) {
				t.Fatalf("%s\nthe receipt forecasts %q, the calculator %q", where, rc.Preview[len(rc.Preview)-1], want)
			}
			if len(rc.Preview)-1 != len(calc.Steps) {
				t.Fatalf("%s\nthe receipt has %d steps, the calculator %d", where, len(rc.Preview)-1, len(calc.Steps))
			}
			for k, s := range calc.Steps {
				h := hex.Hex{Q: f.Hex.Q + s.Q, R: f.Hex.R + s.R}
				if line := rc.Preview[k]; !strings.Contains(line, " hex "+h.String()+" ") || !strings.Contains(line, "facing "+hex.Dir(s.Facing).String()) {
					t.Fatalf("%s\nstep %d: the receipt says %q, the calculator hex %s facing %s", where, k, line, h, hex.Dir(s.Facing))
				}
			}
		}
		next, _, err := g.Resolve(map[string]string{"P1": order, "FAR": "3 HOLD"}, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("%s\nresolve: %v", where, err)
		}
		p := next.(*game).st.Plane("P1")
		want := endOf(calc, f)
		if p.Status == Flying && board.Check.OK() && (p.Flight.Hex != board.Path[len(board.Path)-1] || p.Flight.Facing != board.Facing) {
			t.Fatalf("%s\nthe turn ends at %s facing %s; the board's track at %s facing %s", where, p.Flight.Hex, p.Flight.Facing, board.Path[len(board.Path)-1], board.Facing)
		}
		if got := p.Flight; got.Hex != want.Hex || got.Facing != want.Facing || got.Alt != want.Alt || got.Speed != want.Speed || got.Bank != want.Bank {
			if p.Status == Flying {
				t.Fatalf("%s\nthe turn ends at %s facing %s %d ft speed %.1f bank %s; the calculator at %s facing %s %d ft speed %.1f bank %s",
					where, got.Hex, got.Facing, got.Alt, got.Speed.Float(), got.Bank, want.Hex, want.Facing, want.Alt, want.Speed.Float(), want.Bank)
			}
		}
		if slices.ContainsFunc(p.Damage, func(d int) bool { return d != 0 }) {
			t.Fatalf("%s\nthe plane took damage %v flying alone", where, p.Damage)
		}
	}
	t.Logf("%d random plots (%d legal) agreed between calc move, the receipt and the turn; the default plot the turn flies instead was refused by the rules %d times", n, legal, defaultRefused)
}

// boardTrack is a plotting board's track (ruleset.Plan.Path) through hexes from start: each hex once
// where the plane stays in it.
func boardTrack(start hex.Hex, hs []hex.Hex) []hex.Hex {
	out := []hex.Hex{start}
	for _, h := range hs {
		if h != out[len(out)-1] {
			out = append(out, h)
		}
	}
	return out
}

// calcHexes are the hexes of the calculator's steps, in the game's hexes for a plane starting in from.
func calcHexes(from hex.Hex, steps []stepJSON) []hex.Hex {
	var out []hex.Hex
	for _, s := range steps {
		out = append(out, hex.Hex{Q: from.Q + s.Q, R: from.R + s.R})
	}
	return out
}

// previewHexes reads the hex of each of a receipt's forecast lines ("... hex (q,r) ...").
func previewHexes(t *testing.T, lines []string) []hex.Hex {
	t.Helper()
	var out []hex.Hex
	for _, l := range lines {
		var h hex.Hex
		i := strings.Index(l, " hex (")
		if i < 0 {
			t.Fatalf("a forecast line without a hex: %q", l)
		}
		if _, err := fmt.Sscanf(l[i:], " hex (%d,%d)", &h.Q, &h.R); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		out = append(out, h)
	}
	return out
}

// endOf is where the calculator says a plane starting in f ends, in the game's hexes.
func endOf(c moveJSON, f Flight) Flight {
	e := c.End
	return Flight{Hex: hex.Hex{Q: f.Hex.Q + e.Q, R: f.Hex.R + e.R}, Facing: hex.Dir(e.Facing), Alt: e.Alt,
		Speed: Tenths(int(e.Speed*10 + 0.5)), Bank: mustBank(e.Bank)}
}

func mustBank(s string) notation.Bank {
	b, _ := notation.ParseBank(s)
	return b
}

// The calculator takes every fact of a plane's state the game flies it from. Seed 000 rule (8): across
// the grain a plane enters the right-front and left-front hexes in turn, and which comes next is carried
// from turn to turn; a plane whose next is the left-front hex flies "2" to another hex than one whose
// next is the right-front. The calculator had no way to be told, so it answered for the right-front only.
func TestCalcMoveTakesTheGrain(t *testing.T) {
	c := card(t, "spitfire-i")
	for _, ph := range []hex.Phase{hex.RightFront, hex.LeftFront} {
		f := Flight{Facing: 1, Phase: ph, Speed: 30, Alt: 10000, Bank: notation.BankN, Straight: Plenty}
		out, usage := runCalcMove(t, calcMoveArgs(c, f, 0, "3"))
		if usage != nil {
			t.Fatalf("grain %s: %v", ph, usage)
		}
		pl, _ := notation.ParsePlot("3")
		want := Move(c, f, pl).End
		if got := endOf(out, f); got.Hex != want.Hex || got.Facing != want.Facing {
			t.Errorf("grain %s: the calculator ends in %s facing %s, the game in %s facing %s", ph, got.Hex, got.Facing, want.Hex, want.Facing)
		}
	}
}

// Seed 000 (combat example): a multi-engine plane that has lost an engine has no power factors; the
// game refuses its P, and the calculator, told --engine-out, refuses it too.
func TestCalcMoveTakesALostEngine(t *testing.T) {
	c := card(t, "he-111h")
	f := Flight{Speed: 40, Alt: 10000, Bank: notation.BankN, Straight: Plenty, NoPower: true}
	out, usage := runCalcMove(t, calcMoveArgs(c, f, 0, "4 P"))
	if usage != nil {
		t.Fatal(usage)
	}
	pl, _ := notation.ParsePlot("4 P")
	game := Move(c, f, pl)
	if out.Legal || out.Legal != game.Legal() || !slices.Equal(rulesettest.Codes(out.Errors), rulesettest.Codes(game.Errors)) {
		t.Errorf("engine out, 4 P: the calculator says legal=%v %v, the game %v", out.Legal, rulesettest.Codes(out.Errors), rulesettest.Codes(game.Errors))
	}
}

// Seed 002 (rockets; docs/notation.md): a ROCKET plot needs rocket salvos left. The receipt refused it
// for a plane without rockets while the calculator called the same plot legal.
func TestCalcMoveChecksRocketsAsTheReceiptDoes(t *testing.T) {
	c := card(t, "spitfire-i")
	f := Flight{Speed: 40, Alt: 2000, Bank: notation.BankN, Straight: Plenty}
	out, usage := runCalcMove(t, calcMoveArgs(c, f, 0, "4 ROCKET"))
	if usage != nil {
		t.Fatal(usage)
	}
	if out.Legal || !slices.Equal(rulesettest.Codes(out.Errors), []string{"no-rockets"}) {
		t.Errorf("4 ROCKET without rockets: legal=%v %v; want no-rockets", out.Legal, rulesettest.Codes(out.Errors))
	}
	if out, _ = runCalcMove(t, calcMoveArgs(c, f, 2, "4 ROCKET")); !out.Legal {
		t.Errorf("4 ROCKET with 2 salvos: %v", rulesettest.Codes(out.Errors))
	}
}

const diffFireScenario = annBen + `name: differential fire
options: {fog_of_war: false, simple_criticals: %v}
aircraft:
  - {callsign: S, type: %s, side: A, player: ann, hex: [%d, %d], facing: %d, alt: %d, speed: %.1f}
  - {callsign: T, type: %s, side: B, player: ben, hex: [0, 0], facing: %d, alt: 10000, speed: %.1f}
turns: 5
`

// diffCases is what a differential test draws on: the shipped cards and tables, how many cases it
// runs (rulesettest.Cases) and its random source, seeded.
func diffCases(t *testing.T, normal, underRace int, seed1, seed2 uint64) (*Env, []*aircraft.Card, int, *rand.Rand) {
	t.Helper()
	return testEnv(t), shippedCards(t).All(), rulesettest.Cases(t, normal, underRace), rand.New(rand.NewPCG(seed1, seed2))
}

// randomFireGame is a random game of two planes of random types, S somewhere within four hexes of T,
// pointing roughly its way or its own, each ordered its default plot and FIRE ANY. drawSimple draws
// whether the game plays the seed's older red-die rule (simple), else it does not.
func randomFireGame(t *testing.T, env *Env, rng *rand.Rand, cards []*aircraft.Card, drawSimple bool) (g *game, sc, tc *aircraft.Card, simple bool, orders map[string]string) {
	t.Helper()
	sc, tc = cards[rng.IntN(len(cards))], cards[rng.IntN(len(cards))]
	tf := rng.IntN(12)
	h := hex.Hex{Q: rng.IntN(9) - 4, R: rng.IntN(9) - 4}
	if h == (hex.Hex{}) {
		h.R = 2
	}
	sf := []int{tf, (tf + 6) % 12, rng.IntN(12)}[rng.IntN(3)]
	simple = drawSimple && rng.IntN(4) == 0
	yaml := fmt.Appendf(nil, diffFireScenario, simple, sc.Key, h.Q, h.R, sf, 9000+100*rng.IntN(21), 2.0+float64(rng.IntN(20))/10,
		tc.Key, tf, 2.0+float64(rng.IntN(20))/10)
	g = rulesettest.NewGame[*game](t, Ruleset{Env: env}, string(yaml), "fire.yaml")
	orders = map[string]string{}
	for _, cs := range []string{"S", "T"} {
		p := g.st.Plane(cs)
		c, _ := env.Card(p.Type)
		orders[cs] = DefaultPlot(c, p.Flight).String() + " FIRE ANY"
	}
	return g, sc, tc, simple, orders
}

// TestCalculatorAndTurnAgreeOnFire is the differential test of fire (seed 000, "Main combat rule
// changes", "Hit location", the deflection DRM rules): every burst a resolved turn fires is fired again
// by `sortie calc fire --json` with the turn's geometry and dice, and the two must read the same chart,
// column, deflection and row, make the same hits in the same places, and leave the target with the same
// damage.
func TestCalculatorAndTurnAgreeOnFire(t *testing.T) {
	env, cards, n, rng := diffCases(t, 1500, 250, 26, 5)
	bursts, flexible := 0, 0
	for i := range n {
		g, sc, tc, simple, orders := randomFireGame(t, env, rng, cards, true)
		next, log, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("case %d: resolve: %v", i, err)
		}
		events := rulesettest.Events[Event](t, log)
		fired := map[string]int{}
		for _, e := range events {
			if e.Kind == EvFire {
				fired[e.Target]++
			}
		}
		for _, e := range events {
			if e.Kind != EvFire || e.Fire == nil {
				continue
			}
			bursts++
			f := e.Fire
			shooter, target := sc, tc
			if e.Plane == "T" {
				shooter, target = tc, sc
			}
			var values []string
			for _, d := range e.Dice {
				values = append(values, strconv.Itoa(d.Value))
			}
			args := []string{"--shooter", shooter.Key, "--target", target.Key, "--range", strconv.Itoa(f.Range), "--clock", strconv.Itoa(f.Clock),
				"--guns", strings.Join(f.Guns, ","), "--dice", strings.Join(values, ","), "--json"}
			if f.Flexible {
				args = append(args, "--row", f.Row)
				flexible++
			}
			if simple {
				args = append(args, "--simple-criticals")
			}
			where := fmt.Sprintf("case %d: %s fired %+v\ndice %v\ncalc: sortie calc fire %s", i, e.Plane, *f, e.Dice, strings.Join(args, " "))
			var buf bytes.Buffer
			if err := calcFire(args, &buf); err != nil {
				t.Fatalf("%s\nthe calculator refuses a burst the turn fired: %v", where, err)
			}
			var rep FireReport
			if err := json.Unmarshal(buf.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			got := FireDetail{Guns: rep.Guns, Flexible: f.Flexible, Chart: rep.Chart, Range: rep.Range, Column: rep.Column, Clock: f.Clock, Row: rep.Row,
				DRM: rep.DRM, Red: rep.Red, White: rep.White, Modified: rep.Modified, Hits: rep.Hits, Locations: rep.Locations, Critical: rep.Critical}
			if len(got.Locations) == 0 {
				got.Locations = nil
			}
			if fmt.Sprint(got) != fmt.Sprint(*f) {
				t.Fatalf("%s\nthe calculator read %+v", where, got)
			}
			// One burst at a fresh target: the damage it leaves is the calculator's.
			if fired[e.Target] == 1 {
				tp := next.(*game).st.Plane(e.Target)
				for k, s := range rep.Systems {
					if min(tp.Damage[k], s.Boxes) != s.Filled {
						t.Fatalf("%s\nsystem %s%s: the turn leaves %d boxes filled, the calculator %d (%+v)", where, s.Letter, s.Side, tp.Damage[k], s.Filled, rep.Systems)
					}
				}
				if down := tp.Status == ShotDown || tp.Status == Destroyed; down != rep.ShotDown {
					t.Fatalf("%s\nthe turn says shot down %v (%s), the calculator %v", where, down, tp.Status, rep.ShotDown)
				}
			}
		}
	}
	if bursts < n/10 {
		t.Fatalf("only %d bursts in %d turns: the geometry rarely fires", bursts, n)
	}
	t.Logf("%d bursts (%d of flexible guns) of %d random turns agreed between calc fire and the turn", bursts, flexible, n)
}

// gunsFired says whether the plane fired fixed guns and flexible guns in a round's log.
func gunsFired(t *testing.T, log *ruleset.Log, plane string) (fixed, flex bool) {
	t.Helper()
	for _, e := range rulesettest.Events[Event](t, log) {
		if e.Kind == EvFire && e.Plane == plane && e.Fire != nil {
			fixed = fixed || !e.Fire.Flexible
			flex = flex || e.Fire.Flexible
		}
	}
	return fixed, flex
}

// reachOfT says whether a board's reach names guns (its fixed or flexible ones) in reach of T.
func reachOfT(reach []string, guns string) bool {
	return slices.ContainsFunc(reach, func(l string) bool {
		return strings.HasPrefix(l, "T as last seen") && strings.Contains(l, guns)
	})
}

// otherPhaseOnly says a shooter's fixed guns at sh (having climbed climb) bear on tg only if tg were to
// step the other way across the grain next (Flight.Phase), which its side never sees.
func otherPhaseOnly(sh Flight, climb int, tg Flight) bool {
	if _, ok := fixedBears(sh, climb, tg); ok {
		return false
	}
	tg.Phase = 1 - tg.Phase
	_, ok := fixedBears(sh, climb, tg)
	return ok
}

// TestBoardReachAgreesWithTheTurnsFire is the plotting board's part of the fire differential (seed
// 000, "Main combat rule changes", "Flex gun limitations", "Firing vertical attitude"): with the target
// seen where the turn then puts it, the board's reach from the end of the shooter's plot names the guns
// the turn fires. The side never sees which way across the grain the target steps next (Flight.Phase),
// so the board counts fixed guns in reach if they bear either way: it may name fixed guns the turn
// does not fire only when they bear for the other phase alone.
func TestBoardReachAgreesWithTheTurnsFire(t *testing.T) {
	env, cards, n, rng := diffCases(t, 1500, 250, 30, 5)
	moves := map[int][][]notation.Element{}
	fixedSeen, flexSeen, climbed := 0, 0, 0
	for i := range n {
		g, sc, tc, _, orders := randomFireGame(t, env, rng, cards, false)
		orders["T"] = strings.TrimSuffix(orders["T"], "FIRE ANY") + "HOLD"
		// The shooter climbs, dives or turns as often as not (the fixed guns' climbing and diving
		// rules); a plot the rules refuse gives way to the default.
		if sp := g.st.Plane("S"); rng.IntN(3) > 0 {
			c, _ := env.Card(sp.Type)
			pl := DefaultPlot(c, sp.Flight)
			if k := rng.IntN(3); k > 0 {
				pl.Alt = []int{0, 100, -100}[k] * (1 + rng.IntN(6))
			}
			if s := sp.Flight.Speed.Round(); rng.IntN(2) == 0 && s > 0 && s < 12 {
				plots := movesAt(moves, s)
				pl.Elements = plots[rng.IntN(len(plots))]
			}
			if o := pl.String() + " FIRE ANY"; g.CheckOrder("ann", "S", o).OK() {
				orders["S"] = o
			}
		}
		next, log, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("case %d: resolve: %v", i, err)
		}
		ns := next.(*game).st
		s1, t1 := ns.Plane("S"), ns.Plane("T")
		if s1.Status != Flying || t1.Status != Flying {
			continue
		}
		fixedFired, flexFired := gunsFired(t, log, "S")
		// The board before the turn, with T seen where the turn leaves it.
		before := &game{env: g.env, st: g.st.Clone()}
		before.st.Plane("T").Flight = t1.Flight
		before.st.Sight = map[string]map[string]Sighting{"A": {"T": {Spotted: true}}, "B": {}}
		board := before.Plan("ann", "S", orders["S"])
		where := fmt.Sprintf("case %d: %s at %s facing %s %d ft, %s at %s facing %s %d ft; the turn fired fixed %v flexible %v\nreach %q",
			i, sc.Key, s1.Flight.Hex, s1.Flight.Facing, s1.Flight.Alt, tc.Key, t1.Flight.Hex, t1.Flight.Facing, t1.Flight.Alt, fixedFired, flexFired, board.Reach)
		if !board.Check.OK() {
			t.Fatalf("%s\nthe default plot is refused: %+v", where, board.Check.Errors)
		}
		if got := board.Path[len(board.Path)-1]; got != s1.Flight.Hex || board.Facing != s1.Flight.Facing {
			t.Fatalf("%s\nthe board's track ends at %s facing %s", where, got, board.Facing)
		}
		planFixed, planFlex := reachOfT(board.Reach, "its fixed guns"), reachOfT(board.Reach, "its flexible guns")
		if fixedFired && !planFixed || flexFired != planFlex {
			t.Fatalf("%s\nthe board's reach does not name the guns the turn fired", where)
		}
		if climb := s1.Flight.Alt - g.st.Plane("S").Flight.Alt; planFixed && !fixedFired && !otherPhaseOnly(s1.Flight, climb, t1.Flight) {
			t.Fatalf("%s\nthe board names fixed guns in reach, and they did not fire", where)
		}
		if fixedFired {
			fixedSeen++
			if s1.Flight.Alt != g.st.Plane("S").Flight.Alt {
				climbed++
			}
		}
		if flexFired {
			flexSeen++
		}
	}
	if fixedSeen+flexSeen < n/10 {
		t.Fatalf("only %d fixed and %d flexible bursts in %d turns: the geometry rarely fires", fixedSeen, flexSeen, n)
	}
	t.Logf("%d random turns: the board's reach named the guns of %d fixed (%d climbing or diving) and %d flexible bursts the turn fired", n, fixedSeen, climbed, flexSeen)
}

// Seed 000, the deflection DRM rules: a flexible gun's deflection row follows from the target's heading
// against the gun's line of fire, not from the clock alone. The calculator read every flexible shot on
// the fixed guns' row for its clock, so a turret's burst the turn read at high deflection (9-3) came out
// of the calculator at the clock's row; it now takes the row (--row) and refuses a flexible shot
// without one.
func TestCalcFireReadsAFlexibleGunsRow(t *testing.T) {
	env := testEnv(t)
	var buf bytes.Buffer
	args := []string{"--shooter", "b-17g", "--target", "bf-109e", "--range", "2", "--clock", "6", "--guns", "top-turret", "--dice", "3,3", "--json"}
	if err := calcFire(append(args, "--row", "9-3"), &buf); err != nil {
		t.Fatal(err)
	}
	var rep FireReport
	if err := json.Unmarshal(buf.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	want, err := env.Tables.DRMRow("9-3", false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Row != "9-3" || rep.DRM != want {
		t.Errorf("a turret's burst at high deflection: row %s DRM %+d, want 9-3 %+d", rep.Row, rep.DRM, want)
	}
	if err := calcFire(args, &buf); err == nil {
		t.Errorf("a flexible shot without its row: no error")
	}
}

const diffStrikeScenario = annBen + `name: differential strike
options: {fog_of_war: false}
aircraft:
  - {callsign: P, type: %s, side: A, player: ann, hex: [0, 0], facing: %d, alt: %d, speed: %.1f, pilot: %s, rockets: %d}
  - {callsign: FAR, type: bf-109e, side: B, player: ben, hex: [0, -300], facing: 6, alt: 10000, speed: 3.0}
ground:
  - {callsign: G1, kind: %s, side: B, hex: [%d, %d]%s}
  - {callsign: G2, kind: %s, side: B, hex: [%d, %d]%s}
turns: 5
`

// runStrikeCalc runs one of the air-to-ground calculators in-process: its JSON, and whether it allowed
// the attack.
func runStrikeCalc(t *testing.T, fn func([]string, io2) error, args ...string) (map[string]any, bool) {
	t.Helper()
	m, err := runCalc(t, fn, args...)
	if err != nil && !errors.Is(err, ruleset.ErrIllegal) {
		t.Fatalf("%v: %v", args, err)
	}
	return m, err == nil
}

// TestCalculatorAndTurnAgreeOnGroundAttacks is the differential test of rockets and strafing on every
// kind of ground target (seed 002: rockets, strafing, target damage, multiple targets in a hex): each
// attack a resolved turn makes is made again by `sortie calc bomb` and `sortie calc target` with the
// turn's dice, and each target's damage must be the calculator's.
func TestCalculatorAndTurnAgreeOnGroundAttacks(t *testing.T) {
	env := testEnv(t)
	reg := shippedCards(t)
	var cards []*aircraft.Card
	for _, c := range reg.All() {
		if GunFactor(c) > 0 {
			cards = append(cards, c)
		}
	}
	n := rulesettest.Cases(t, 1500, 250)
	rng := rand.New(rand.NewPCG(26, 6))
	pilots := []string{"green", "regular", "veteran", "ace"}
	hits, refused := 0, 0
	bomb := func(a []string, w io2) error { return calcBomb(a, w) }
	target := func(a []string, w io2) error { return calcTarget(a, w) }
	for i := range n {
		c := cards[rng.IntN(len(cards))]
		facing := 2 * rng.IntN(6)
		alt := 100 * rng.IntN(36)
		start := Flight{Facing: hex.Dir(facing), Speed: Tenths(20 + rng.IntN(20)), Alt: alt, Bank: notation.BankN, Straight: Plenty}
		plot := DefaultPlot(c, start)
		end := Move(c, start, plot).End
		d := 1 + rng.IntN(4)
		at := end.Hex
		for range d {
			at = at.Neighbor(end.Facing)
		}
		k1, k2 := GroundKinds[rng.IntN(len(GroundKinds))], GroundKinds[rng.IntN(len(GroundKinds))]
		armour := func(kind string) string {
			if kind != Ship {
				return ""
			}
			ship := ", defence: 7, speed: 1, turn_rate: 1, size: small"
			if rng.IntN(3) == 0 {
				ship += ", armoured: true"
			}
			return ship
		}
		second := at
		if rng.IntN(2) == 0 {
			second = hex.Hex{Q: 30, R: 30} // alone in its hex
		}
		rockets := rng.IntN(3)
		pilot := pilots[rng.IntN(len(pilots))]
		yaml := fmt.Appendf(nil, diffStrikeScenario, c.Key, facing, alt, start.Speed.Float(), pilot, rockets,
			k1, at.Q, at.R, armour(k1), k2, second.Q, second.R, armour(k2))
		g0, err := Ruleset{Env: env}.NewGame(yaml, nil, "strike.yaml")
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, yaml)
		}
		g := g0.(*game)
		weapon := []string{"ROCKET", "STRAFE"}[rng.IntN(2)]
		order := plot.String() + " " + weapon
		if rng.IntN(2) == 0 {
			order += " AT G1"
		}
		order += " HOLD"
		where := fmt.Sprintf("case %d: %s (%s) at %d ft, %s, %s %d hexes ahead, %s in %s, order %q", i, c.Key, pilot, alt, weapon, k1, d, k2, second, order)
		if rc := g.CheckOrder("ann", "P", order); !rc.OK() {
			// What the receipt refuses for the target, the calculator refuses too.
			if slices.ContainsFunc(rc.Errors, func(p ruleset.Problem) bool { return p.Code == "not-strafable" }) {
				if _, ok := runStrikeCalc(t, target, "--strafe", "3", "--target", k1, "--attack-die", "5", "--defence-die", "5"); ok {
					t.Fatalf("%s\nthe receipt refuses strafing a %s, calc target allows it", where, k1)
				}
			}
			refused++
			continue
		}
		next, log, err := g.Resolve(map[string]string{"P": order, "FAR": "3 HOLD"}, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("%s\nresolve: %v", where, err)
		}
		events := rulesettest.Events[Event](t, log)
		// The plotting board's reach names a target for the weapon exactly when the turn attacks one
		// (the order's AT target, else any), from where the plot ends.
		with := map[string]string{"ROCKET": "its rockets", "STRAFE": "strafing"}[weapon]
		board := g.Plan("ann", "P", order)
		inReach := slices.ContainsFunc(board.Reach, func(l string) bool {
			return (strings.HasPrefix(l, "G1 (") || !strings.Contains(order, "AT G1") && strings.HasPrefix(l, "G2 (")) && strings.Contains(l, "in reach of") && strings.Contains(l, with)
		})
		attacked := slices.ContainsFunc(events, func(e Event) bool {
			return e.Kind == EvBombs && e.Plane == "P" && (strings.Contains(e.Text, " fired ") || strings.Contains(e.Text, " strafed "))
		})
		if inReach != attacked {
			t.Fatalf("%s\nthe turn attacked %v; the board's reach %q", where, attacked, board.Reach)
		}
		p := next.(*game).st.Plane("P")
		result, attack, dist := "", 0, 0
		primaryDone := false // the first target an attack reaches is its primary, the others take half
		for _, u := range next.(*game).st.Ground {
			if u.Callsign == "G1" {
				dist = hex.Distance(p.Flight.Hex, u.Hex)
			}
		}
		for k, e := range events {
			switch {
			case e.Kind == EvIllegalOrder && e.Plane == "P" && strings.Contains(e.Text, "altitude level"):
				// The turn refused the attack for its height: so does the calculator.
				if _, ok := runStrikeCalc(t, bomb, "--kind", "rocket", "--alt", strconv.Itoa(p.Flight.Alt), "--die", "5", "--range", "1"); ok && weapon == "ROCKET" {
					t.Fatalf("%s\nthe turn refused: %s; calc bomb allows rockets from %d ft", where, e.Text, p.Flight.Alt)
				}
			case e.Kind == EvBombs && weapon == "ROCKET" && len(e.Dice) == 1:
				m, ok := runStrikeCalc(t, bomb, "--kind", "rocket", "--alt", strconv.Itoa(p.Flight.Alt), "--crew", pilot,
					"--die", strconv.Itoa(e.Dice[0].Value), "--range", strconv.Itoa(dist))
				if !ok {
					t.Fatalf("%s\nthe turn fired rockets (%s), calc bomb refuses: %v", where, e.Text, m)
				}
				if !strings.Contains(e.Text, "= "+m["result"].(string)) {
					t.Fatalf("%s\nthe turn: %s; calc bomb: %v", where, e.Text, m)
				}
				if damages := slices.ContainsFunc(events[k+1:], func(x Event) bool { return x.Kind == EvGroundDamage }); damages != m["damages"].(bool) {
					t.Fatalf("%s\nthe turn damaged the ground %v (%s); calc bomb says damages %v", where, damages, e.Text, m["damages"])
				}
				result = strings.ReplaceAll(m["result"].(string), " ", "-")
			case e.Kind == EvBombs && strings.Contains(e.Text, "is armoured"):
				primaryDone = true
				if _, ok := runStrikeCalc(t, target, "--strafe", strconv.Itoa(attack), "--ship", "--armoured", "--defence", "7", "--attack-die", "5", "--defence-die", "5"); ok {
					t.Fatalf("%s\nthe turn: %s; calc target allows strafing an armoured ship", where, e.Text)
				}
			case e.Kind == EvBombs && weapon == "STRAFE" && strings.Contains(e.Text, "gun factor"):
				attack, _ = strconv.Atoi(e.Text[strings.LastIndex(e.Text, "= ")+2:])
			case e.Kind == EvGroundDamage:
				hits++
				u := g.st.groundUnit(e.Target)
				if u == nil {
					u = g.st.groundUnit(e.Plane)
				}
				if u == nil {
					t.Fatalf("%s\nno ground unit in %+v", where, e)
				}
				args := []string{"--defence", strconv.Itoa(u.Defence), "--attack-die", strconv.Itoa(e.Dice[0].Value), "--defence-die", strconv.Itoa(e.Dice[1].Value)}
				if weapon == "ROCKET" {
					args = append(args, "--weapon", "rocket", "--count", strconv.Itoa(rockets), "--result", result)
				} else {
					args = append(args, "--strafe", strconv.Itoa(attack))
					if u.Kind == Ship {
						args = append(args, "--ship")
					}
				}
				if primaryDone {
					args = append(args, "--secondary")
				}
				primaryDone = true
				m, ok := runStrikeCalc(t, target, args...)
				if !ok {
					t.Fatalf("%s\nthe turn damaged %s (%s), calc target refuses: %v", where, u.Callsign, e.Text, m)
				}
				if got := e.Extras().Ground.Result; got != m["damage"] {
					t.Fatalf("%s\nthe turn: %s (%s); calc target %v: %v", where, got, e.Text, args, m)
				}
			}
		}
	}
	if hits < n/20 {
		t.Fatalf("only %d ground hits in %d turns", hits, n)
	}
	t.Logf("%d random attacks (%d refused by the receipt) made %d ground hits that agreed between calc bomb, calc target and the turn", n, refused, hits)
}

// Seed 002 (strafing): strafing a ship, not its flak, counts the ship's defence double, and an armoured
// ship cannot be hurt by it. The turn did so (strike.StrafedShipDefence); calc target read a strafed
// destroyer at its plain defence.
func TestCalcTargetStrafesAShipAsTheTurnDoes(t *testing.T) {
	target := func(a []string, w io2) error { return calcTarget(a, w) }
	m, ok := runStrikeCalc(t, target, "--strafe", "4", "--target", "destroyer", "--attack-die", "5", "--defence-die", "5")
	if !ok || m["defence"].(float64) != 14 {
		t.Errorf("strafing a destroyer (defence 7): %v, want defence 14", m)
	}
	m, ok = runStrikeCalc(t, target, "--strafe", "4", "--defence", "7", "--ship", "--attack-die", "5", "--defence-die", "5")
	if !ok || m["defence"].(float64) != 14 {
		t.Errorf("strafing a ship of defence 7: %v, want defence 14", m)
	}
	if m, ok = runStrikeCalc(t, target, "--strafe", "4", "--defence", "7", "--ship", "--armoured", "--attack-die", "9", "--defence-die", "1"); ok || m["damage"] != "no damage" {
		t.Errorf("strafing an armoured ship: allowed %v, %v", ok, m)
	}
}

// Seed 002 (strafing) with the house gun factor (docs/rulings.md): a gun factor of 1 with its
// modifiers makes an attack value of 0 or less, which the turn rolls with; calc target took only a
// value above 0.
func TestCalcTargetTakesAStrafingValueOfZero(t *testing.T) {
	target := func(a []string, w io2) error { return calcTarget(a, w) }
	m, ok := runStrikeCalc(t, target, "--strafe", "0", "--defence", "2", "--attack-die", "9", "--defence-die", "1")
	if !ok || m["attack"].(float64) != 0 || m["attack_total"].(float64) != 9 {
		t.Errorf("a strafing value of 0: %v", m)
	}
}

const diffImpulseScenario = annBen + `name: differential impulses
options: {fog_of_war: false, impulse: true}
aircraft:
  - {callsign: P1, type: %s, side: A, player: ann, hex: [0, 0], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: FAR, type: bf-109e, side: B, player: ben, hex: [0, -400], facing: 6, alt: 10000, speed: 3.0}
turns: 5
`

// impulseJSON is calc move --impulse's answer.
type impulseJSON struct {
	Legal    bool                  `json:"legal"`
	Errors   []ruleset.CalcProblem `json:"errors"`
	Impulses []impulseRowJSON      `json:"impulses"`
}

// randomManoeuvres is an impulse order of one to three manoeuvres, legal or not.
func randomManoeuvres(rng *rand.Rand) string {
	ends := []string{"1", "TR", "TL", "SR", "SL", "SRTL", "SLTR", "HR", "HL", "RB", "LB", "N", "BR", "BL", "V", "VRR", "I", "X", "TRR"}
	alts := []string{"", "", "", " +1", " -1", " +2", " -2", " P", " K", " 9900"}
	var ms []string
	for range 1 + rng.IntN(3) {
		var boxes []string
		for range rng.IntN(4) {
			boxes = append(boxes, "`"+alts[rng.IntN(len(alts))])
		}
		boxes = append(boxes, ends[rng.IntN(len(ends))]+alts[rng.IntN(len(alts))])
		ms = append(ms, strings.Join(boxes, " "))
	}
	return strings.Join(ms, "; ") + " HOLD"
}

// TestCalculatorReceiptAndTurnAgreeOnImpulses is the impulse game's differential test (seed 001, the
// impulse game; docs/rulings.md): from the start of a turn, `sortie calc move --impulse --json`, the
// receipt and the resolved round fly an impulse order with the engine's own code, so they agree on the
// verdict for the turn, the impulse-by-impulse forecast and where the plane stands when it next needs an
// order. The receipt checks only the impulses of this turn (a manoeuvre carried into the next is checked
// then), so the calculator's problems in later turns are not the receipt's.
func TestCalculatorReceiptAndTurnAgreeOnImpulses(t *testing.T) {
	env, cards, n, rng := diffCases(t, 2000, 400, 26, 7)
	legal, deferred := 0, 0
	for i := range n {
		card := cards[rng.IntN(len(cards))]
		f := randomFlight(rng, card)
		f.Speed = Tenths(10*card.Bands[0].Level.Min + rng.IntN(10*(card.Bands[0].Dive.Max-card.Bands[0].Level.Min+1)))
		order := randomManoeuvres(rng)
		args := append(calcMoveArgs(card, f, 0, order), "--impulse", "--from", "1")
		var buf bytes.Buffer
		err := calcMove(args, &buf)
		if err != nil && !errors.Is(err, ruleset.ErrIllegal) {
			t.Fatalf("case %d: calc move %q: %v", i, args, err)
		}
		var calc impulseJSON
		if err := json.Unmarshal(buf.Bytes(), &calc); err != nil {
			t.Fatal(err)
		}
		g := impulseGameFlying(t, env, fmt.Appendf(nil, diffImpulseScenario, card.Key), f)
		rc := g.CheckOrder("ann", "P1", order)
		board := g.Plan("ann", "P1", order)
		where := fmt.Sprintf("case %d: %s %+v order %q\ncalc: sortie calc move %s", i, card.Key, f, order, strings.Join(args, " "))
		if !reflect.DeepEqual(board.Check, rc) {
			t.Fatalf("%s\nthe board's check is not the receipt's:\nboard   %+v\nreceipt %+v", where, board.Check, rc)
		}
		// The receipt checks this turn only: an order that goes on into the next turn is checked there.
		laterTurn := slices.ContainsFunc(rc.Preview, func(l string) bool {
			return strings.Contains(l, "goes on into turn") || strings.Contains(l, "is flown next turn")
		}) || len(calc.Impulses) > 0 && calc.Impulses[len(calc.Impulses)-1].Turn > 1
		if got, want := rulesettest.Codes(rc.Errors), rulesettest.Codes(calc.Errors); !slices.Equal(got, want) && !(rc.OK() && laterTurn) {
			t.Fatalf("%s\nthe receipt's problems %v, the calculator's %v\nreceipt %+v\ncalc %+v", where, got, want, rc.Errors, calc.Errors)
		}
		if !rc.OK() || !calc.Legal {
			if rc.OK() {
				deferred++
			}
			continue
		}
		legal++
		// The receipt's forecast is the calculator's rows of this turn, line by line.
		var rows []string
		for _, r := range calc.Impulses {
			if r.Turn == 1 {
				s := Step{Hex: hex.Hex{Q: f.Hex.Q + r.Q, R: f.Hex.R + r.R}, Facing: hex.Dir(r.Facing), Bank: mustBank(r.Bank)}
				rows = append(rows, string(appendImpulseLine(nil, 1, r.Impulse, r.Token, s, r.Alt)))
			}
		}
		var forecast []string
		for _, l := range rc.Preview {
			if strings.HasPrefix(l, "turn ") {
				forecast = append(forecast, l)
			}
		}
		if !slices.Equal(rows, forecast) {
			t.Fatalf("%s\nthe receipt forecasts\n  %s\nthe calculator\n  %s", where, strings.Join(forecast, "\n  "), strings.Join(rows, "\n  "))
		}
		// The board's track is the hexes of those rows, and it ends facing as the last of them.
		var calcTrack []hex.Hex
		lastFacing := f.Facing
		for _, r := range calc.Impulses {
			if r.Turn == 1 {
				calcTrack = append(calcTrack, hex.Hex{Q: f.Hex.Q + r.Q, R: f.Hex.R + r.R})
				lastFacing = hex.Dir(r.Facing)
			}
		}
		if want := boardTrack(f.Hex, calcTrack); !slices.Equal(board.Path, want) || board.Facing != lastFacing {
			t.Fatalf("%s\nthe board's track %v facing %v, the calculator's rows %v facing %v", where, board.Path, board.Facing, want, lastFacing)
		}
		next, _, err := g.Resolve(map[string]string{"P1": order, "FAR": "1; 1; 1; 1; 1; 1; 1; 1 HOLD"}, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("%s\nresolve: %v", where, err)
		}
		// Where the round stopped (the first plane to need an order stops it), the plane stands where the
		// calculator's last impulse before that point put it.
		ns := next.(*game).st
		q := ns.Plane("P1")
		want := Step{Hex: f.Hex, Facing: f.Facing, Bank: f.Bank}
		alt := f.Alt
		for _, r := range calc.Impulses {
			if r.Turn < ns.Turn || r.Turn == ns.Turn && r.Impulse < ns.Clock.Impulse {
				want = Step{Hex: hex.Hex{Q: f.Hex.Q + r.Q, R: f.Hex.R + r.R}, Facing: hex.Dir(r.Facing), Bank: mustBank(r.Bank)}
				alt = r.Alt
			}
		}
		// An order that ends this turn stops the round when it is flown, where the board's track ends.
		if q.Status == Flying && !laterTurn && (q.Flight.Hex != board.Path[len(board.Path)-1] || q.Flight.Facing != board.Facing) {
			t.Fatalf("%s\nthe round stops with the plane at %s facing %s; the board's track ends at %s facing %s", where, q.Flight.Hex, q.Flight.Facing, board.Path[len(board.Path)-1], board.Facing)
		}
		if q.Status == Flying && (q.Flight.Hex != want.Hex || q.Flight.Facing != want.Facing || q.Flight.Alt != alt || q.Flight.Bank != want.Bank) {
			t.Fatalf("%s\nthe round stops before turn %d impulse %d with the plane at %s facing %s %d ft bank %s; the calculator has it at %s facing %s %d ft bank %s",
				where, ns.Turn, ns.Clock.Impulse, q.Flight.Hex, q.Flight.Facing, q.Flight.Alt, q.Flight.Bank, want.Hex, want.Facing, alt, want.Bank)
		}
	}
	if legal < n/20 {
		t.Fatalf("only %d of %d impulse orders legal", legal, n)
	}
	t.Logf("%d random impulse orders (%d legal; %d the receipt passed for this turn and the calculator refused in a later one) agreed between calc move --impulse, the receipt and the round", n, legal, deferred)
}

const diffImpulseFireScenario = annBen + `name: differential impulse fire
options: {fog_of_war: false, impulse: true}
aircraft:
  - {callsign: P1, type: %s, side: A, player: ann, hex: [0, 0], facing: 0, alt: 10000, speed: 3.0}
  - {callsign: T, type: %s, side: B, player: ben, hex: [%d, %d], facing: %d, alt: %d, speed: 0}
turns: 5
`

// TestBoardReachAgreesWithTheImpulseFire is the board's part of the impulse game's fire (seed 001
// VII.2, VII.4: fixed guns fire once a turn in an impulse the plane moves, flexible guns once a turn):
// a target standing still (speed 0 moves in no impulse) that the board's reach names from the end of
// this turn's boxes is fired at in the round, by the guns it names, there or earlier on the way. As in
// the plain game, the board may name fixed guns that bear only for the other phase across the grain.
func TestBoardReachAgreesWithTheImpulseFire(t *testing.T) {
	env, cards, n, rng := diffCases(t, 1500, 250, 30, 7)
	named, tried := 0, 0
	for i := range n {
		card, tcard := cards[rng.IntN(len(cards))], cards[rng.IntN(len(cards))]
		f := randomFlight(rng, card)
		f.Speed = Tenths(10*card.Bands[0].Level.Min + rng.IntN(10*(card.Bands[0].Dive.Max-card.Bands[0].Level.Min+1)))
		order := strings.TrimSuffix(randomManoeuvres(rng), "HOLD") + "FIRE ANY"
		if rng.IntN(2) == 0 {
			// A plain manoeuvre, climbing or diving a little: legal more often than not.
			simple := []string{"1", "` TR", "` TL", "` ` TR", "` SR", "` ` SL", "` 1", "1; 1"}
			alts := []string{"", "", " +1", " -1", " -2"}
			order = simple[rng.IntN(len(simple))] + alts[rng.IntN(len(alts))] + " FIRE ANY"
		}
		// Where this turn's boxes end, from a game with the target far off.
		g := impulseGameFlying(t, env, fmt.Appendf(nil, diffImpulseFireScenario, card.Key, tcard.Key, 0, -400, 0, 10000), f)
		first := g.Plan("ann", "P1", order)
		if !first.Check.OK() || slices.ContainsFunc(first.Check.Preview, func(l string) bool {
			return strings.Contains(l, "goes on into turn") || strings.Contains(l, "is flown next turn")
		}) {
			continue
		}
		tried++
		end := first.Path[len(first.Path)-1]
		// The target somewhere within four hexes of there, higher or lower.
		th := end
		for range 1 + rng.IntN(4) {
			th = th.Neighbor(hex.Dir(rng.IntN(12) &^ 1))
		}
		talt := max(100, f.Alt+100*(rng.IntN(13)-6))
		g = impulseGameFlying(t, env, fmt.Appendf(nil, diffImpulseFireScenario, card.Key, tcard.Key, th.Q, th.R, rng.IntN(12), talt), f)
		g.st.Sight = map[string]map[string]Sighting{"A": {"T": {Spotted: true}}, "B": {"P1": {Spotted: true}}}
		board := g.Plan("ann", "P1", order)
		if !slices.Equal(board.Path, first.Path) || board.Facing != first.Facing {
			t.Fatalf("case %d: the track changed with the target: %v, %v", i, first.Path, board.Path)
		}
		next, log, err := g.Resolve(map[string]string{"P1": order, "T": "1 HOLD"}, dice.NewKeyed(dice.SeedFromUint64(uint64(i))))
		if err != nil {
			t.Fatalf("case %d: resolve: %v", i, err)
		}
		fixedFired, flexFired := gunsFired(t, log, "P1")
		q := next.(*game).st.Plane("P1")
		tq := next.(*game).st.Plane("T")
		where := fmt.Sprintf("case %d: %s %+v order %q ends at %s facing %s; %s at %s facing %s %d ft; fired fixed %v flexible %v\nreach %q",
			i, card.Key, f, order, end, board.Facing, tcard.Key, th, tq.Flight.Facing, talt, fixedFired, flexFired, board.Reach)
		if q.Status != Flying || tq.Status != Flying {
			continue
		}
		if q.Flight.Hex != end || q.Flight.Facing != board.Facing {
			t.Fatalf("%s\nthe round stops with the plane at %s facing %s", where, q.Flight.Hex, q.Flight.Facing)
		}
		planFixed, planFlex := reachOfT(board.Reach, "its fixed guns"), reachOfT(board.Reach, "its flexible guns")
		if planFlex && !flexFired {
			t.Fatalf("%s\nthe board names flexible guns in reach, and they never fired", where)
		}
		if climb := q.Flight.Alt - q.Imp.PrevAlt + q.Imp.NoseLoss; planFixed && !fixedFired && !otherPhaseOnly(q.Flight, climb, tq.Flight) {
			t.Fatalf("%s\nthe board names fixed guns in reach, and they never fired", where)
		}
		if planFixed || planFlex {
			named++
		}
	}
	if named < tried/10 {
		t.Fatalf("the board named guns in reach in only %d of %d legal orders", named, tried)
	}
	t.Logf("%d random impulse orders (%d legal this turn): the board named guns in reach %d times, and the round fired them", n, tried, named)
}

// impulseGameFlying is an impulse game of the scenario with its plane P1 in flight f at the start of
// its turn.
func impulseGameFlying(t *testing.T, env *Env, scenario []byte, f Flight) *game {
	t.Helper()
	g := rulesettest.NewGame[*game](t, Ruleset{Env: env}, string(scenario), "impulse.yaml")
	p := g.st.Plane("P1")
	p.Flight = f
	p.Imp.Start, p.Imp.PrevAlt = f, f.Alt
	return g
}

// runImpulseCalc runs calc move --impulse from impulse 1 for a plane in flight f.
func runImpulseCalc(t *testing.T, card *aircraft.Card, f Flight, order string) impulseJSON {
	t.Helper()
	var buf bytes.Buffer
	args := append(calcMoveArgs(card, f, 0, order), "--impulse", "--from", "1")
	if err := calcMove(args, &buf); err != nil && !errors.Is(err, ruleset.ErrIllegal) {
		t.Fatalf("calc move %q: %v", args, err)
	}
	var out impulseJSON
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Seed 000 rules (4), (9) and seed 001 (a half roll takes two impulses): in the first impulse of a half
// roll the plane is in the hex between, as the receipt forecasts and the plain game's first movement
// point has it; the engine put it at the roll's end already, a hex off for every shot of that impulse.
func TestImpulseHalfRollStandsBetweenInItsFirstImpulse(t *testing.T) {
	c := card(t, "spitfire-i")
	f := Flight{Facing: 0, Speed: 60, Alt: 10000, Bank: notation.BankN, Straight: Plenty}
	out := runImpulseCalc(t, c, f, "` ` HR HOLD")
	pl, _ := notation.ParsePlot("2 HR")
	plain := Move(c, f, pl)
	if !out.Legal || len(out.Impulses) != 4 || len(plain.Steps) != 4 {
		t.Fatalf("` ` HR: %+v; plain %d steps", out, len(plain.Steps))
	}
	for k, r := range out.Impulses {
		if s := plain.Steps[k]; (hex.Hex{Q: r.Q, R: r.R}) != s.Hex || r.Bank != s.Bank.String() {
			t.Errorf("impulse %d: the engine has the plane at (%d,%d) bank %s; movement point %d of the plain plot at %s bank %s", r.Impulse, r.Q, r.R, r.Bank, k+1, s.Hex, s.Bank)
		}
	}
}

// A receipt lists every problem of an order at once (docs/architecture.md, "How a plot is checked
// today"); calc move --impulse stopped at the first manoeuvre that failed, so it listed one problem
// where the receipt listed all of this turn's.
func TestCalcImpulseListsEveryProblemOfTheTurn(t *testing.T) {
	c := card(t, "spitfire-i")
	f := Flight{Facing: 0, Speed: 60, Alt: 10000, Bank: notation.BankN, Straight: Plenty}
	order := "` +9 TR; ` -30 TL HOLD"
	out := runImpulseCalc(t, c, f, order)
	rc := checkAlone(c, f, impulseStart{from: 1}, order)
	if len(rc.Errors) < 2 || !slices.Equal(rulesettest.Codes(out.Errors), rulesettest.Codes(rc.Errors)) {
		t.Errorf("%q: the calculator's problems %v, the receipt's %v", order, rulesettest.Codes(out.Errors), rulesettest.Codes(rc.Errors))
	}
}
