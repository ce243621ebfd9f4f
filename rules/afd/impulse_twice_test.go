package afd

import (
	"fmt"
	"strings"
	"testing"

	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	"sortie/rules/hex"
)

// TestImpulseSecondMoveAfterOrdersEndFliesForwards: a plane above speed 12 moves twice in some impulses
// (docs/rulings.md, Delta-T impulse chart). When its orders end with the first of the two moves, the
// second is still flown in that impulse's movement phase, before the plotting phase (seed 001 III, X.A.1),
// and with nothing plotted it is the forwards manoeuvre (seed 001 X.E.1), which in bank IL loses 100 ft
// (X.E.1.f). The calculator, the receipt and the round all fly it: a Me 262 at speed 14.6 (15: twice in
// impulses 3, 8 and 12) plotted for one three-hex manoeuvre (` ` TR) ends it with its first move of impulse 3,
// and the round stops after impulse 3 with the plane a fourth hex on, 100 ft lower. The calculator used
// to stop at the third hex, which the engine had flown past.
func TestImpulseSecondMoveAfterOrdersEndFliesForwards(t *testing.T) {
	reg := shippedCards(t)
	card, ok := reg.Get("me-262a")
	if !ok {
		t.Fatal("no me-262a card")
	}
	f := Flight{Hex: hex.Hex{Q: -9, R: 9}, Facing: 6, Phase: hex.LeftFront, Speed: 146, Alt: 7500, Bank: notation.BankIL,
		Last: LastTurn{Vert: true, DiveFt: 5100}, Straight: Plenty}
	const order = "` ` TR HOLD"
	calc := runImpulseCalc(t, card, f, order)
	if !calc.Legal || len(calc.Impulses) != 4 {
		t.Fatalf("calc: legal %v, %d rows, want legal with 4 (the manoeuvre's three and the unplotted second move of impulse 3): %+v", calc.Legal, len(calc.Impulses), calc)
	}
	last, third := calc.Impulses[3], calc.Impulses[2]
	if last.Turn != 1 || last.Impulse != 3 || third.Impulse != 3 || !strings.Contains(last.Done, "forwards") {
		t.Fatalf("calc: the fourth row should be the second move of impulse 3, flown forwards: %+v", calc.Impulses)
	}
	if last.Alt != third.Alt-100 {
		t.Errorf("calc: the forwards move in bank IL should lose 100 ft (seed 001 X.E.1.f): %d ft after %d ft", last.Alt, third.Alt)
	}
	if last.Q == third.Q && last.R == third.R {
		t.Errorf("calc: the forwards move should enter a new hex: %+v", calc.Impulses)
	}

	g := impulseGameFlying(t, testEnv(t), fmt.Appendf(nil, diffImpulseScenario, card.Key), f)
	rc := g.CheckOrder("ann", "P1", order)
	var forecast []string
	for _, l := range rc.Preview {
		if strings.HasPrefix(l, "turn ") {
			forecast = append(forecast, l)
		}
	}
	if !rc.OK() || len(forecast) != 4 || !strings.Contains(strings.Join(rc.Preview, "\n"), "moves twice in impulse 3") {
		t.Fatalf("receipt: ok %v, preview\n  %s\nwant four impulse lines and the second move of impulse 3 explained", rc.OK(), strings.Join(rc.Preview, "\n  "))
	}

	next, _, err := g.Resolve(map[string]string{"P1": order, "FAR": "1; 1; 1; 1; 1; 1; 1; 1 HOLD"}, dice.NewKeyed(dice.SeedFromUint64(3364)))
	if err != nil {
		t.Fatal(err)
	}
	ns := next.(*game).st
	q := ns.Plane("P1")
	want := hex.Hex{Q: f.Hex.Q + last.Q, R: f.Hex.R + last.R}
	if ns.Turn != 1 || ns.Clock.Impulse != 4 || q.Flight.Hex != want || int(q.Flight.Facing) != last.Facing || q.Flight.Alt != last.Alt {
		t.Errorf("round stops before turn %d impulse %d with P1 at %s facing %s %d ft; want before turn 1 impulse 4 at %s facing %s %d ft",
			ns.Turn, ns.Clock.Impulse, q.Flight.Hex, q.Flight.Facing, q.Flight.Alt, want, hex.Dir(last.Facing), last.Alt)
	}
}
