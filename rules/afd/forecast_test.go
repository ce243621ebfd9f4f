package afd

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sortie/rules/afd/notation"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// The forecast's formats as fmt printed them before the lines were appended into one buffer: the
// oracle every forecast line is compared with.

func oracleFeet(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("%d,%03d", n/1000, n%1000)
	}
	return fmt.Sprint(n)
}

func oracleStepLine(s Step) string {
	note := ""
	if s.Skipped {
		note = "  (vertical)"
	}
	return fmt.Sprintf("MP %-2d %-5s hex (%d,%d)  facing %s  %s ft  bank %s%s",
		s.MP, s.Token, s.Hex.Q, s.Hex.R, s.Facing, oracleFeet(s.Alt), s.Bank, note)
}

func oracleEndLine(e Flight) string {
	return fmt.Sprintf("ends in hex (%d,%d) facing %s at %s ft, bank %s; next turn's speed %.1f",
		e.Hex.Q, e.Hex.R, e.Facing, oracleFeet(e.Alt), e.Bank, e.Speed.Float())
}

func oracleImpulseLine(turn, impulse int, token string, s Step, alt int) string {
	return fmt.Sprintf("turn %d impulse %-2d %-2s hex (%d,%d)  facing %s  %s ft  bank %s",
		turn, impulse, token, s.Hex.Q, s.Hex.R, s.Facing, oracleFeet(alt), s.Bank)
}

// forecastGame puts two Spitfires where their forecasts need every kind of field: LOW at 1,500 ft in
// negative hexes with a speed of 5.5, HIGH at 12,300 ft in a right bank.
const forecastGame = `
ruleset: afd
name: forecast
map: {min_q: -30, max_q: 30, min_row: -60, max_row: 60}
sides: [RAF, Luftwaffe]
players:
  - {id: alice, name: Alice, side: RAF}
  - {id: bob, name: Bob, side: Luftwaffe}
aircraft:
  - {callsign: LOW, type: spitfire-i, side: RAF, player: alice, hex: [-3, -5], facing: 0, alt: 1500, speed: 5.5, bank: N}
  - {callsign: HIGH, type: spitfire-i, side: RAF, player: alice, hex: [-12, -9], facing: 6, alt: 12300, speed: 4.5, bank: RB}
  - {callsign: KURT, type: he-111h, side: Luftwaffe, player: bob, hex: [20, 20], facing: 0, alt: 11000, speed: 5.0, bank: N}
turns: 5
victory:
  - {side: RAF, kind: destroy, aircraft: [KURT], points: 1}
  - {side: Luftwaffe, kind: destroy, aircraft: [LOW, HIGH], points: 1}
`

// TestForecastText pins an order check's canonical order and forecast, line for line, and compares
// each line with the oracle's from the same flight.
func TestForecastText(t *testing.T) {
	g := rulesettest.NewGame[*game](t, Ruleset{Env: testEnv(t)}, forecastGame, "forecast.yaml")
	rulesettest.CheckForecasts(t, g, "alice", false, []rulesettest.Forecast{
		// Down through 1,000 ft; the speed with a fraction before and after.
		{Unit: "LOW", Text: "1 TR 1 TL 1 -6", Canonical: "1 TR 1 TL 1 -600 FIRE ANY", Preview: []string{
			"MP 1  1     hex (-3,-6)  facing 000  1,400 ft  bank N",
			"MP 2  TR    hex (-3,-7)  facing 030  1,300 ft  bank N",
			"MP 3  1     hex (-2,-8)  facing 030  1,100 ft  bank N",
			"MP 4  TL    hex (-2,-9)  facing 000  1,000 ft  bank N",
			"MP 5  1     hex (-2,-10)  facing 000  900 ft  bank N",
			"ends in hex (-2,-10) facing 000 at 900 ft, bank N; next turn's speed 5.7",
		}},
		// A steep dive: its third point spent vertically.
		{Unit: "LOW", Text: "2R 1 TR STEEP HOLD", Canonical: "2 TR 1 TR STEEP HOLD", Preview: []string{
			"MP 1  1     hex (-3,-6)  facing 000  1,300 ft  bank N",
			"MP 2  1     hex (-3,-7)  facing 000  1,100 ft  bank N",
			"MP 3  TR    hex (-3,-7)  facing 030  900 ft  bank N  (vertical)",
			"MP 4  1     hex (-2,-8)  facing 030  700 ft  bank N",
			"MP 5  TR    hex (-2,-9)  facing 060  500 ft  bank N",
			"ends in hex (-2,-9) facing 060 at 500 ft, bank N; next turn's speed 6.5",
		}},
		// Banks: out of the right bank to level, climbing; a half roll into an inverted left bank.
		{Unit: "HIGH", Text: "1 TR N 1 +3 FIRE KURT", Canonical: "1 TR N 1 +300 FIRE KURT", Preview: []string{
			"MP 1  1     hex (-12,-8)  facing 180  12,400 ft  bank RB",
			"MP 2  TR    hex (-12,-7)  facing 210  12,500 ft  bank RB",
			"MP 3  N     hex (-13,-6)  facing 210  12,500 ft  bank N",
			"MP 4  1     hex (-13,-5)  facing 210  12,600 ft  bank N",
			"ends in hex (-13,-5) facing 210 at 12,600 ft, bank N; next turn's speed 4.1",
		}},
		{Unit: "HIGH", Text: "1 HR 1", Canonical: "1 HR 1 FIRE ANY", Preview: []string{
			"MP 1  1     hex (-12,-8)  facing 180  12,300 ft  bank RB",
			"MP 2  HR    hex (-13,-7)  facing 180  12,300 ft  bank RB",
			"MP 3  HR    hex (-14,-6)  facing 180  12,300 ft  bank IL",
			"MP 4  1     hex (-14,-5)  facing 180  12,300 ft  bank IL",
			"ends in hex (-14,-5) facing 180 at 12,300 ft, bank IL; next turn's speed 4.4",
		}},
		// An illegal plot still gets the forecast of what could be flown.
		{Unit: "HIGH", Text: "4 VERT", Canonical: "4 VERT FIRE ANY", Preview: []string{
			"MP 1  1     hex (-12,-9)  facing 180  11,900 ft  bank RB",
			"MP 2  1     hex (-12,-9)  facing 180  11,500 ft  bank RB",
			"MP 3  1     hex (-12,-9)  facing 180  11,100 ft  bank RB",
			"MP 4  1     hex (-12,-8)  facing 180  10,700 ft  bank RB",
			"ends in hex (-12,-8) facing 180 at 10,700 ft, bank RB; next turn's speed 6.5",
		}},
	}, func(c rulesettest.Forecast) []string {
		// The oracle, from the same flight.
		p := g.st.Plane(c.Unit)
		o, _ := notation.ParseOrder(c.Text)
		card, _ := g.env.Card(p.Type)
		r := CheckOrder(card, p.Flight, o)
		var want []string
		for _, s := range r.Steps {
			want = append(want, oracleStepLine(s))
		}
		return append(want, oracleEndLine(r.End))
	})
}

// TestImpulseForecastText pins the impulse game's forecast: the impulse lines, a manoeuvre that goes on
// into the next turn (one impulse, and several), and one left for the next turn.
func TestImpulseForecastText(t *testing.T) {
	g := bundledGame(t, "kent-impulse-1940")
	for _, c := range []struct {
		unit, text, canonical string
		preview               []string
	}{
		{"RED1", "` ` TR", "` ` TR FIRE ANY", []string{
			"turn 1 impulse 3  `  hex (0,5)  facing 000  9,000 ft  bank N",
			"turn 1 impulse 5  `  hex (0,4)  facing 000  9,000 ft  bank N",
			"turn 1 impulse 8  TR hex (0,3)  facing 030  9,000 ft  bank N",
		}},
		{"RED1", "1 +1; 1 -2; ` ` ` ` ` ` ` ` ` TR; 1", "1 +1; 1 -2; ` ` ` ` ` ` ` ` ` TR; 1 FIRE ANY", []string{
			"turn 1 impulse 3  1  hex (0,5)  facing 000  9,100 ft  bank N",
			"turn 1 impulse 5  1  hex (0,4)  facing 000  8,900 ft  bank N",
			"turn 1 impulse 8  `  hex (0,3)  facing 000  8,900 ft  bank N",
			"turn 1 impulse 10 `  hex (0,2)  facing 000  8,900 ft  bank N",
			"turn 1 impulse 12 `  hex (0,1)  facing 000  8,900 ft  bank N",
			"manoeuvre 3 goes on into turn 2 for 7 more impulses",
			"manoeuvre 4 (1) is flown next turn and checked then",
		}},
		{"BLUE1", "1; 1; 1; ` TR HOLD", "1; 1; 1; ` TR HOLD", []string{
			"turn 1 impulse 3  1  hex (3,4)  facing 000  8,000 ft  bank N",
			"turn 1 impulse 6  1  hex (3,3)  facing 000  8,000 ft  bank N",
			"turn 1 impulse 9  1  hex (3,2)  facing 000  8,000 ft  bank N",
			"turn 1 impulse 12 `  hex (3,1)  facing 000  8,000 ft  bank N",
			"manoeuvre 4 goes on into turn 2 for 1 more impulse",
		}},
	} {
		chk := g.CheckOrder("alice", c.unit, c.text)
		if !chk.OK() || chk.Canonical != c.canonical || !slices.Equal(chk.Preview, c.preview) {
			t.Errorf("%s %q (%v):\n got %q\n%s\nwant %q\n%s", c.unit, c.text, chk.Errors, chk.Canonical,
				strings.Join(chk.Preview, "\n"), c.canonical, strings.Join(c.preview, "\n"))
		}
	}
}

// FuzzForecastLines writes every forecast line from random values, out of range ones too, and compares
// it with the oracle's.
func FuzzForecastLines(f *testing.F) {
	f.Add(1, "TR", -3, -7, 1, 1300, 0, false, 57, 1, 3)
	f.Add(12, "SLTR", 40, -60, 11, 999, 5, true, 0, 99, 12)
	f.Add(-5, "", 0, 0, -1, -100, 9, true, -15, -1, -7)
	f.Add(100, "ÉÉÉ", 1<<40, -1<<40, 12, 1000000, -2, false, 123456, 100000, 100)
	f.Add(3, "`", 7, 8, 6, 1000, 2, false, 5, 2, 10)
	f.Fuzz(func(t *testing.T, mp int, token string, q, r, facing, alt, bank int, skipped bool, speed, turn, impulse int) {
		s := Step{MP: mp, Token: token, Hex: hex.Hex{Q: q, R: r}, Facing: hex.Dir(facing), Alt: alt,
			Bank: notation.Bank(bank), Skipped: skipped}
		e := Flight{Hex: s.Hex, Facing: s.Facing, Alt: alt, Bank: s.Bank, Speed: Tenths(speed)}
		if got, want := string(appendStepLine(nil, s)), oracleStepLine(s); got != want {
			t.Errorf("step line %q, the oracle's %q", got, want)
		}
		if got, want := string(appendEndLine([]byte("x"), e)), "x"+oracleEndLine(e); got != want {
			t.Errorf("end line %q, the oracle's %q", got, want)
		}
		if got, want := string(appendImpulseLine(nil, turn, impulse, token, s, alt)), oracleImpulseLine(turn, impulse, token, s, alt); got != want {
			t.Errorf("impulse line %q, the oracle's %q", got, want)
		}
		if got, want := feetText(alt), oracleFeet(alt); got != want {
			t.Errorf("feetText(%d) = %q, the oracle's %q", alt, got, want)
		}
	})
}

// TestCheckTextCostsFewAllocations: an order check's canonical order and forecast are written into one
// buffer whatever the number of lines, not one string or more a line.
func TestCheckTextCostsFewAllocations(t *testing.T) {
	card, ok := testEnv(t).Card("spitfire-i")
	if !ok {
		t.Fatal("no card")
	}
	o, _ := notation.ParseOrder("1 TR 1 TL 1 1 TR 1 FIRE KURT")
	r := CheckOrder(card, Flight{Speed: 80, Alt: 10000, Straight: Plenty}, o)
	if len(r.Steps) != 8 {
		t.Fatalf("%d steps", len(r.Steps))
	}
	var canonical string
	var preview []string
	n := testing.AllocsPerRun(20, func() { canonical, preview = checkText(o, r) })
	if n > 4 && !raceBuild {
		t.Errorf("the text of an order check of %d lines took %v allocations, want at most 4", len(preview)+1, n)
	}
	var l ruleset.Lines
	l.B = o.Append(l.B)
	if canonical != string(l.B) || canonical != o.String() {
		t.Errorf("canonical %q, want %q", canonical, o.String())
	}
}
