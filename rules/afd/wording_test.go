package afd

import (
	"fmt"
	"strings"
	"testing"

	"sortie/rules/dice"
)

// Report wording players found wrong (each test fails on the wording they were sent).

// channelTurns plays the bundled Channel 1940 scenario for the golden test's three turns and returns
// every event.
func channelTurns(t *testing.T) []Event {
	t.Helper()
	env := testEnv(t)
	s, err := BundledScenario("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewGame(s, env.Cards)
	if err != nil {
		t.Fatal(err)
	}
	turns := [][]string{
		{"RED1: 6 FIRE KURT", "RED2: 1 TL 4 FIRE ANY", "KURT: 5 FIRE ANY", "HANS: 1 1 1 1 1 1"},
		{"RED1: 2 TL 3", "RED2: 3 TR 2", "KURT: 4 TL", "HANS: 2 TR 2 TR 1"},
		{"RED1: 6", "RED2: 1 1 1 1 1 1", "KURT: 5 HOLD", "HANS: 3 TR 3"},
	}
	var all []Event
	seed := dice.SeedFromUint64(1940)
	for i, lines := range turns {
		var events []Event
		st, events, err = Resolve(env, st, orders(t, lines...), dice.NewSeeded(seed.Stream(fmt.Sprintf("turn-%d", i+1))))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, events...)
	}
	return all
}

// An identification names the type as a player reads it, the card's name, not the data file's key
// ("identified KURT as a he-111h"; with a type whose key starts with a vowel, "as a a6m2"). House
// spotting rule, docs/rulings.md: identification is a step of its own.
func TestIdentificationNamesTheType(t *testing.T) {
	env := testEnv(t)
	n := 0
	for _, e := range channelTurns(t) {
		if e.Kind != EvIdentified {
			continue
		}
		n++
		card, _ := env.Card("he-111h")
		if e.Target == "KURT" && !strings.HasSuffix(e.Text, ": "+card.Name) {
			t.Errorf("identification %q does not name the type %q", e.Text, card.Name)
		}
		if strings.Contains(e.Text, " as a ") || strings.Contains(e.Text, "he-111h") || strings.Contains(e.Text, "bf-109e") {
			t.Errorf("identification %q names the type by its key", e.Text)
		}
	}
	if n == 0 {
		t.Fatal("no identification in three turns: the test plays nothing")
	}
}
