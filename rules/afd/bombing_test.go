package afd

import (
	"fmt"
	"strings"
	"testing"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	"sortie/rules/dice"
	"sortie/rules/hex"
)

// TestBombLoads reads the cards' stores as seed 002's weapon classes (house rule, docs/rulings.md: air to
// ground).
func TestBombLoads(t *testing.T) {
	for key, want := range map[string]string{"he-111h": "500lb×8", "ju-87b": "1000lb×1", "p-47d": "500lb×2", "sbd-3": "1000lb×1"} {
		w, n, ok := BombLoad(card(t, key))
		if got := fmt.Sprintf("%s×%d", w, n); !ok || got != want {
			t.Errorf("%s: %s (%v), want %s", key, got, ok, want)
		}
	}
	if _, _, ok := BombLoad(card(t, "tbf-1")); ok {
		t.Error("a torpedo is no bomb load")
	}
}

// TestLevelBombingOfATruck: a Heinkel releasing its load over a truck at 3,000 ft (level 2) bombs on
// the standard bombing table: a d10 of 8 is on target (7 to 10 at level 2), 2,000 kg of bombs count as
// eight 500 lb bombs, 6 × 3 × 1 = 18, and 18 + 5 against the truck's 2 + 6 is heavy damage (at least
// twice the defence, seed 002); the truck stops.
func TestLevelBombingOfATruck(t *testing.T) {
	st := newTestGame(t, convoyGame)
	bomb, _ := notation.ParseOrder("3 BOMB")
	orders := map[string]notation.Order{"BOMBER": bomb}
	// The bombing d10, the attack d10 and the truck's defence d10, by label; every other roll (spotting) 1.
	next, events, err := Resolve(testEnv(t), st, orders, &labelDice{want: map[string]int{"turn 1 BOMBER bombs: d10": 8, "turn 1 BOMBER bombs TRUCK1: attack d10": 5, "turn 1 TRUCK1 defends against bombs: d10": 6}})
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, e := range events {
		if e.Kind == EvBombs || e.Kind == EvGroundDamage {
			text += e.Text + "\n"
		}
	}
	if !strings.Contains(text, "level-bombed hex (0,-2) from 3,000 ft (level 2): d10 8 +0 = on target") ||
		!strings.Contains(text, "BOMBER's bombs on TRUCK1 (truck): attack 18 + 5 against defence 2 + 6: heavy damage") {
		t.Errorf("the bombing:\n%s", text)
	}
	if u := next.groundUnit("TRUCK1"); u.Damage != strike.Heavy {
		t.Errorf("the truck's damage: %s", u.Damage)
	}
}

// labelDice answers the labelled rolls a test names and 1 for all others.
type labelDice struct {
	want map[string]int
	log  []dice.Roll
}

func (d *labelDice) Roll(label string, sides int) int {
	v, ok := d.want[label]
	if !ok {
		v = 1
	}
	d.log = append(d.log, dice.Roll{Label: label, Sides: sides, Value: v})
	return v
}

func (d *labelDice) Log() []dice.Roll { return d.log }

// TestKnockOutVictory: a knock-out condition scores for each ground unit it names that ends the game
// heavily damaged or destroyed (seed 002: no longer usable), and a scenario naming a unit that is not
// there is refused.
func TestKnockOutVictory(t *testing.T) {
	scn := strings.Replace(convoyGame, "turns: 4\n", "turns: 1\nvictory:\n  - {side: B, kind: knock-out, ground: [TRUCK1, TANK1], points: 3}\n", 1)
	st := newTestGame(t, scn)
	bomb, _ := notation.ParseOrder("3 BOMB")
	next, _, err := Resolve(testEnv(t), st, map[string]notation.Order{"BOMBER": bomb},
		&labelDice{want: map[string]int{"turn 1 BOMBER bombs: d10": 8, "turn 1 BOMBER bombs TRUCK1: attack d10": 5, "turn 1 TRUCK1 defends against bombs: d10": 6}})
	if err != nil {
		t.Fatal(err)
	}
	if !next.Over || next.Outcome == nil || next.Outcome.Score["B"] != 3 {
		t.Errorf("the heavily damaged truck scores 3 for B (the tank, untouched, nothing): %+v", next.Outcome)
	}
	bad := strings.Replace(convoyGame, "turns: 4\n", "turns: 4\nvictory:\n  - {side: B, kind: knock-out, ground: [NOWHERE]}\n  - {side: B, kind: destroy, aircraft: [RED1], ground: [TRUCK1]}\n", 1)
	s, err := ParseScenario([]byte(bad), "bad.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewGame(s, testEnv(t).Cards)
	for _, want := range []string{"NOWHERE", "only a knock-out condition names ground units"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the scenario's faults must include %q: %v", want, err)
		}
	}
}

// impulseConvoy is the convoy with the impulse game: the Heinkel (speed 3: impulses 3, 8, 12) is over
// the lead truck in impulse 3, before the truck drives on in impulse 4.
var impulseConvoy = strings.Replace(convoyGame, "options: {fog_of_war: true}", "options: {fog_of_war: true, impulse: true}", 1)

// TestImpulseBombing: in the impulse game bombs fall in the impulse the order releases them, on the
// hex the plane is in, and their results count at once (seed 001 VIII.2, VIII.5).
func TestImpulseBombing(t *testing.T) {
	st := newTestGame(t, impulseConvoy)
	o, ds := notation.ParseImpulseOrder("1 BOMB")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	fw, _ := notation.ParseImpulseOrder("1; 1; 1; 1; 1")
	next, events, err := ResolveImpulse(testEnv(t), st, map[string]notation.ImpulseOrder{"BOMBER": o, "RED1": fw, "BLUE1": fw},
		&labelDice{want: map[string]int{"turn 1 impulse 3 BOMBER bombs: d10": 8, "turn 1 impulse 3 BOMBER bombs TRUCK1: attack d10": 5, "turn 1 impulse 3 TRUCK1 defends against bombs: d10": 6}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range events {
		if e.Kind == EvGroundDamage && e.Impulse == 3 && strings.Contains(e.Text, "heavy damage") {
			found = true
		}
	}
	if !found || next.groundUnit("TRUCK1").Damage != strike.Heavy || next.Plane("BOMBER").Flight.Loaded {
		t.Errorf("the Heinkel's bombs in impulse 3: damage %s, still loaded %v\n%+v", next.groundUnit("TRUCK1").Damage, next.Plane("BOMBER").Flight.Loaded, events)
	}
	if next.groundUnit("TRUCK1").Hex != (st.groundUnit("TRUCK1").Hex) {
		t.Error("the heavily damaged truck must not drive on")
	}
}

// TestImpulseNoFixedGunsOnABombingTurn: a plane may not fire its fixed guns in a turn it drops bombs
// (seed 001 VIII.3): one that fired them first keeps its bombs, and one that dropped them first fires
// no fixed guns after.
func TestImpulseNoFixedGunsOnABombingTurn(t *testing.T) {
	st := newTestGame(t, impulseConvoy)
	p := st.Plane("BOMBER")
	p.Imp.FixedFired = true
	r := &impulseRun{resolution: resolution{env: testEnv(t), ns: st, d: dice.NewScripted(), cards: map[string]*aircraft.Card{}, climbs: map[string]int{}, hits: map[string][]int{}}, stopped: map[string]bool{}}
	r.release(p)
	if len(r.releases) != 0 || !p.Flight.Loaded || len(r.events) != 1 || !strings.Contains(r.events[0].Text, "kept its bombs") {
		t.Errorf("a plane that fired its fixed guns keeps its bombs: %+v", r.events)
	}
	p.Imp.FixedFired = false
	r.events = nil
	r.release(p)
	if len(r.releases) != 1 || p.Flight.Loaded || !p.Imp.FixedFired {
		t.Error("a plane that drops its bombs fires no fixed guns after, that turn")
	}
}

// dropTorpedo plays the first turn of torpedoGame, the Avenger dropping its torpedo (2 BOMB) with a
// launch roll of 8: the state after it, its events, and the dice, which roll hitDie for the torpedo's
// hit in turn 2.
func dropTorpedo(t *testing.T, hitDie int) (*State, []Event, *labelDice) {
	t.Helper()
	drop, _ := notation.ParseOrder("2 BOMB")
	dice := &labelDice{want: map[string]int{"turn 1 AVENGER drops a torpedo: d10": 8, "turn 2 AVENGER torpedo hits DD1: d10": hitDie}}
	next, events, err := Resolve(testEnv(t), newTestGame(t, torpedoGame), map[string]notation.Order{"AVENGER": drop}, dice)
	if err != nil {
		t.Fatal(err)
	}
	return next, events, dice
}

// TestTorpedoRun: an Avenger low and slow two hexes from a destroyer drops its torpedo (seed 002: level
// 0, speed 2 or less, 1-4 hexes; launch d10 8 - 2 for an American torpedo before 1943 = 6, it runs); the
// torpedo moves one hex at once, then one in impulse 7 of the next turn (seed 001 V.D) into the ship's
// hex, and hits its side (d10 8 - 1 small ship = 7): a direct hit, 10 × 2 = 20, against the side's
// halved defence 4, destroys it.
func TestTorpedoRun(t *testing.T) {
	next, events, dice := dropTorpedo(t, 8)
	if len(next.Torpedoes) != 1 || next.Torpedoes[0].Hex != (hex.Hex{Q: 0, R: 0}) {
		t.Fatalf("the torpedo after its drop: %+v %+v", next.Torpedoes, events)
	}
	next, events, err := Resolve(testEnv(t), next, nil, dice)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, e := range events {
		if e.Kind == EvGroundDamage {
			text += e.Text
		}
	}
	if !strings.Contains(text, "hit DD1 on the side") || !strings.Contains(text, "attack 20 + 1 against defence 4 + 1: destroyed") || next.groundUnit("DD1").Damage != strike.Destroyed {
		t.Errorf("the hit: %q", text)
	}
	if len(next.Torpedoes) != 0 {
		t.Error("a torpedo that hit is spent")
	}
	// Too high to drop: the Avenger keeps its torpedo and is told why.
	high := newTestGame(t, strings.Replace(torpedoGame, "alt: 400, speed: 2.0", "alt: 3000, speed: 2.0", 1))
	drop, _ := notation.ParseOrder("2 BOMB")
	after, events, _ := Resolve(testEnv(t), high, map[string]notation.Order{"AVENGER": drop}, &labelDice{})
	if !after.Plane("AVENGER").Flight.Loaded || len(after.Torpedoes) != 0 {
		t.Error("a drop from level 2 must be refused, the torpedo kept")
	}
	found := false
	for _, e := range events {
		found = found || e.Kind == EvIllegalOrder && strings.Contains(e.Text, "kept its torpedo")
	}
	if !found {
		t.Errorf("the bomber's owner is told: %+v", events)
	}
}
