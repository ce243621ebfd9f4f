package afd

import (
	"fmt"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
)

// impulsePair flies RED1 (a Spitfire) and BLUE1 side by side north at speed 4, BLUE1 three hexes off at
// RED1's 11 o'clock all turn, both moving in the same impulses (seed 001 XII).
const impulsePair = annBen + `name: impulse pair
options: {fog_of_war: false, impulse: true}
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: ann, hex: [0, 4], facing: 0, alt: 8000, speed: 4.0}
  - {callsign: BLUE1, type: %s, side: B, player: ben, hex: [%d, %d], facing: %d, alt: 8000, speed: 4.0}
turns: 5
`

// playImpulseTurn plays the impulse game from st until its first turn is over, RED1 and BLUE1 flying
// straight with the fire orders given, and returns every event.
func playImpulseTurn(t *testing.T, st *State, red, blue string, d dice.Source) (*State, []Event) {
	t.Helper()
	fire := func(s string) parser.Fire {
		f, ds := parser.ParseFire(s, 1)
		if parser.HasErrors(ds) {
			t.Fatalf("%q: %v", s, ds)
		}
		return f
	}
	o := map[string]notation.ImpulseOrder{
		"RED1":  {Fire: fire(red)},
		"BLUE1": {Fire: fire(blue)},
	}
	for i := 0; i < 6; i++ {
		o = mergeOrders(o, impOrders("RED1", man("1"), "BLUE1", man("1")))
	}
	var events []Event
	for st.Turn == 1 && !st.Over {
		next, ev, err := ResolveImpulse(testEnv(t), st, o, d)
		if err != nil {
			t.Fatal(err)
		}
		st, o = next, nil
		events = append(events, ev...)
	}
	return st, events
}

// highDice throws every die at its highest face.
type highDice struct{ log []dice.Roll }

func (d *highDice) Roll(label string, sides int) int {
	d.log = append(d.log, dice.Roll{Label: label, Sides: sides, Value: sides})
	return sides
}

func (d *highDice) Log() []dice.Roll { return d.log }

// TestImpulseFireOrderThatNeverFiresSaysWhy: in the impulse game a standing fire order may fire in any
// impulse of the turn (seed 001 VII.2, VII.4), so a plane that fired nothing all turn is told at the
// end of the turn why, as its guns stood in the last impulse they were tried in; a plane shot down
// before its guns could fire is told that (seed 001 VII: results count at once).
func TestImpulseFireOrderThatNeverFiresSaysWhy(t *testing.T) {
	at := hexAt(t, 11, 3)
	t.Run("outside the cone all turn", func(t *testing.T) {
		st := newTestGame(t, fmt.Sprintf(impulsePair, "bf-109e", at.Q, at.R, 0))
		next, events := playImpulseTurn(t, st, "FIRE BLUE1", "HOLD", dice.NewSeeded(dice.SeedFromUint64(3)))
		got := noFireLines(next, "A", events)
		want := "RED1 did not fire at BLUE1: BLUE1 was 3 hexes away at 11 o'clock: outside the cone of its fixed guns (impulse 12, the last it was tried in)"
		if !strings.Contains(got, want) {
			t.Errorf("A reads %q, want %q", got, want)
		}
		if strings.Count(got, "\n") != 1 {
			t.Errorf("one line a turn, not one an impulse: %q", got)
		}
		if b := noFireLines(next, "B", events); b != "" {
			t.Errorf("B reads A's fire order: %q", b)
		}
	})
	t.Run("fixed guns bear only while it stands still", func(t *testing.T) {
		// RED1 at speed 2 moves in impulses 5 and 10 only (seed 001 XII); BLUE1, faster and crossing,
		// comes into its cone after impulse 10, when its fixed guns may not fire (VII.2).
		scn := strings.NewReplacer("type: spitfire-i", "type: bf-109e", "speed: 4.0}\n  - {callsign: BLUE1", "speed: 2.0}\n  - {callsign: BLUE1").
			Replace(fmt.Sprintf(impulsePair, "bf-109e", -8, -3, 4))
		scn = strings.Replace(scn, "facing: 4, alt: 8000, speed: 4.0", "facing: 4, alt: 8000, speed: 5.0", 1)
		st := newTestGame(t, scn)
		next, events := playImpulseTurn(t, st, "FIRE BLUE1", "HOLD", dice.NewSeeded(dice.SeedFromUint64(3)))
		want := "RED1 did not fire at BLUE1: BLUE1 was 8 hexes away at 11 o'clock: its fixed guns bore, but they fire only in an impulse in which the plane moves (seed 001 VII.2) (impulse 12, the last it was tried in)"
		if got := noFireLines(next, "A", events); !strings.Contains(got, want) {
			t.Errorf("A reads %q, want %q", got, want)
		}
	})
	t.Run("shot down before it fired", func(t *testing.T) {
		// An He 111 three hexes astern fires its flexible guns in impulse 1 (VII.5); RED1, one hit
		// from going down and unable to bring its fixed guns round, never fires.
		behind := hexAt(t, 6, 3)
		st := newTestGame(t, fmt.Sprintf(impulsePair, "he-111h", behind.Q, behind.R, 0))
		red, c := st.Plane("RED1"), card(t, "spitfire-i")
		for i, s := range c.Systems {
			red.Damage[i] = s.Boxes - 1
		}
		next, events := playImpulseTurn(t, st, "FIRE BLUE1", "FIRE RED1", &highDice{})
		if next.Plane("RED1").InPlay() {
			t.Fatal("the case is wrong: RED1 was not shot down")
		}
		if got, want := noFireLines(next, "A", events), "RED1 did not fire: it had been shot down"; !strings.Contains(got, want) {
			t.Errorf("A reads %q, want %q", got, want)
		}
	})
}

// TestImpulseReleaseTakesTheFixedGunsAndSaysSo (seed 001 VIII.3): a plane that fires its rockets in an
// impulse fires no fixed guns that turn; with an enemy dead ahead all turn, its side is told why its
// FIRE order never fired.
func TestImpulseReleaseTakesTheFixedGunsAndSaysSo(t *testing.T) {
	st := newTestGame(t, strings.Replace(strikeRange, "options: {fog_of_war: false}", "options: {fog_of_war: false, impulse: true}", 1))
	p47, ds := notation.ParseImpulseOrder("1 ROCKET; 1; 1; 1 FIRE BLUE1")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	blue, ds := notation.ParseImpulseOrder("1; 1; 1; 1 HOLD")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	o := map[string]notation.ImpulseOrder{"P47": p47, "BLUE1": blue}
	var events []Event
	for st.Turn == 1 && !st.Over {
		next, ev, err := ResolveImpulse(testEnv(t), st, o, dice.NewSeeded(dice.SeedFromUint64(3)))
		if err != nil {
			t.Fatal(err)
		}
		st, o = next, nil
		events = append(events, ev...)
	}
	want := "P47 did not fire at BLUE1: BLUE1 was 6 hexes away at 12 o'clock: its fixed guns do not fire the turn it releases bombs, rockets or a torpedo (seed 001 VIII.3)"
	if got := noFireLines(st, "A", events); !strings.Contains(got, want) {
		t.Errorf("A reads %q, want %q", got, want)
	}
}
