package swarm

import (
	"encoding/json"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset/rulesettest"
)

// byLabel throws the value of the first key its label contains, else 1.
type byLabel struct {
	want [][2]any
	log  []dice.Roll
}

func (d *byLabel) Roll(label string, sides int) int {
	v := 1
	for _, w := range d.want {
		if strings.Contains(label, w[0].(string)) {
			v = w[1].(int)
			break
		}
	}
	d.log = append(d.log, dice.Roll{Label: label, Sides: sides, Value: v})
	return v
}

func (d *byLabel) Log() []dice.Roll { return d.log }

func swarmNoFireLines(g *game, side string, events []Event) string {
	return rulesettest.Lines(EventsFor(g.st, side, events), func(e Event) (string, bool) { return e.Text, e.Kind == EvNoFire })
}

// TestFireOrderThatMakesNoAttackSaysWhy: every way a Swarm squadron's fire order can make no forward
// attack is answered in its side's report with the reason; the enemy reads none of it. AAA and BBB fly
// the same straight course, so BBB stands where the case puts it when AAA's turn comes.
func TestFireOrderThatMakesNoAttackSaysWhy(t *testing.T) {
	cases := []struct {
		name       string
		visibility int
		bbb        string // BBB's hex and tack
		order      string // AAA's
		src        dice.Source
		filled     int // AAA's filled pips
		want       string
		notWant    string
	}{
		// Seed 004, "Targeting and Firepower": squadrons fire only within their own altitude level.
		{name: "another altitude", bbb: "hex: [2, -4], facing: 30, tack: 1 S H", order: "1 S M 1 FIRE BBB",
			want: "AAA did not attack: BBB was at High and AAA at Medium, and squadrons fire only at their own altitude"},
		// Seed 004, "Targeting and Firepower": a die scores when it equals or beats the distance, so
		// beyond 6 nothing can (the house maximum range, docs/swarm.md).
		{name: "out of range", bbb: "hex: [8, -16], facing: 30, tack: 1 S M", order: "1 S M 1 FIRE BBB",
			want: "hexes away, and an attack die scores only within 6"},
		// Seed 004, "Targeting and Firepower": the field of fire is the sixty degrees ahead.
		{name: "outside the field of fire", bbb: "hex: [-2, 4], facing: 30, tack: 1 S M", order: "1 S M 1 FIRE BBB",
			want: "AAA did not attack: BBB was 6 hexes away at 6 o'clock, outside AAA's field of fire ahead"},
		{name: "FIRE ANY, nothing ahead", bbb: "hex: [-2, 4], facing: 30, tack: 1 S M", order: "1 S M 1 FIRE ANY",
			want: "AAA did not attack: no enemy it could attack; the nearest, BBB, was 6 hexes away at 6 o'clock, outside AAA's field of fire ahead"},
		// Seed 004, "Cloud Cover": beyond the visibility no one is seen, and the line says only that.
		{name: "not in sight", visibility: 3, bbb: "hex: [8, -16], facing: 30, tack: 1 S M", order: "1 S M 1 FIRE BBB; 1 S M 1; 1 S M 1",
			want: "AAA did not attack: BBB was not in sight of AAA (visibility 3 hexes)", notWant: "hexes away"},
		// Seed 004, "Targeting and Firepower": losses count at once; AAA, one pip from the end, is
		// finished by BBB astern, which moves first, and so never attacks.
		{name: "put out of action first", bbb: "hex: [-2, 4], facing: 30, tack: 1 S M", order: "1 S M 1 FIRE ANY", filled: -1,
			src:  &byLabel{want: [][2]any{{"initiative AAA", 6}, {"initiative BBB", 1}, {"attack", 6}, {"evasive", 1}}},
			want: "AAA made no attack: it was put out of action before its turn to move"},
		{name: "HOLD", bbb: "hex: [-2, 4], facing: 30, tack: 1 S M", order: "1 S M 1 HOLD"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bbb := "{callsign: BBB, type: bf-109e, side: Luftwaffe, player: bob, " + c.bbb + "}"
			g := newGame(t, scenario(c.visibility, "", spitA, bbb))
			if c.filled < 0 {
				q := g.st.Squadron("AAA")
				ty, _ := testDataNoT().Type(q.Type)
				q.Filled = ty.Pips() - 1
			}
			src := c.src
			if src == nil {
				src = &byLabel{want: [][2]any{{"initiative AAA", 1}, {"initiative BBB", 6}}}
			}
			bOrder := "1 S M 1 HOLD"
			if strings.Contains(c.bbb, "S H") {
				bOrder = "1 S H 1 HOLD"
			}
			if c.filled < 0 {
				bOrder = "1 S M 1 FIRE AAA"
			}
			if c.visibility > 0 {
				bOrder += "; 1 S M 1; 1 S M 1"
			}
			next, log, err := g.Resolve(map[string]string{"AAA": c.order, "BBB": bOrder}, src)
			if err != nil {
				t.Fatal(err)
			}
			var events []Event
			if err := json.Unmarshal(log.Events, &events); err != nil {
				t.Fatal(err)
			}
			for _, e := range events {
				if e.Kind == EvIllegalOrder || e.Kind == EvFire && e.Unit == "AAA" {
					t.Fatalf("the case is wrong: %s", e.Text)
				}
			}
			ng := next.(*game)
			got := swarmNoFireLines(ng, "RAF", events)
			rulesettest.WhyNot(t, "RAF", got, c.want, c.notWant)
			if l := swarmNoFireLines(ng, "Luftwaffe", events); strings.Contains(l, "AAA") {
				t.Errorf("the Luftwaffe reads RAF's orders: %q", l)
			}
		})
	}
}

// TestBombingNotMadeSaysWhy (seed 004, "Addendum: Bombing and low level attacks"): a bomber drops its
// bombs once; a plotted course that says BOMB again makes no attack, and the side is told why.
func TestBombingNotMadeSaysWhy(t *testing.T) {
	far := "{callsign: ZZZ, type: spitfire-i, side: RAF, player: alice, hex: [-20, 0], facing: 330, tack: 1 S H}"
	heinkel := "{callsign: HHH, type: he-111h, side: Luftwaffe, player: bob, hex: [0, 0], facing: 30, tack: 1 S M}"
	target := "targets:\n  - {name: DOCKS, side: RAF, hex: [1, -2], strength: 9}\n  - {name: MILL, side: RAF, hex: [2, -4], strength: 9}\n"
	g := newGame(t, scenario(3, target, far, heinkel))
	orders := map[string]string{"HHH": "1 S M 1 BOMB HOLD; 1 S M 1 BOMB HOLD; 1 S M 1 HOLD", "ZZZ": "1 S H 1 HOLD; 1 S H 1 HOLD; 1 S H 1 HOLD"}
	var all []Event
	cur := g
	for i := 0; i < 2; i++ {
		next, log, err := cur.Resolve(orders, dice.NewSeeded(dice.SeedFromUint64(uint64(i+1))))
		if err != nil {
			t.Fatal(err)
		}
		var events []Event
		if err := json.Unmarshal(log.Events, &events); err != nil {
			t.Fatal(err)
		}
		all = append(all, events...)
		cur, orders = next.(*game), nil
	}
	got := swarmNoFireLines(cur, "Luftwaffe", all)
	if want := "HHH made no attack on the ground: its bombs were dropped in an earlier turn"; !strings.Contains(got, want) {
		t.Errorf("the Luftwaffe reads %q, want %q", got, want)
	}
}
