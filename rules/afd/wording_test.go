package afd

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// Report wording players found wrong (each test fails on the wording they were sent).

// channelTurns plays the bundled Channel 1940 scenario for the golden test's three turns and returns
// every event.
func channelTurns(t *testing.T) []Event {
	t.Helper()
	env, st := bundledState(t, "channel-1940")
	var err error
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

// bundledGame is a bundled scenario's game as the service plays it (Ruleset.NewGame).
func bundledGame(t *testing.T, scenario string) ruleset.Game {
	t.Helper()
	return rulesettest.Bundled[*game](t, Ruleset{Env: testEnv(t)}, scenario)
}

// reportAfter is a player's report of a round whose log holds the given events.
func reportAfter(t *testing.T, g ruleset.Game, player string, events ...Event) ruleset.Report {
	t.Helper()
	b, err := json.Marshal(events)
	if err != nil {
		t.Fatal(err)
	}
	return g.Report(player, &ruleset.Log{Round: 1, Events: b})
}

// reportText is a report's lines but its dice (a roll's label is the archive's record).
func reportText(r ruleset.Report) string {
	lines := append([]string(nil), r.Events...)
	for _, us := range [][]ruleset.Unit{r.Own, r.Contacts, r.Ground} {
		for _, u := range us {
			lines = append(lines, u.Type+": "+u.Summary)
			lines = append(lines, u.Detail...)
		}
	}
	return strings.Join(lines, "\n")
}

// A game without the impulse option (seed 001 is an option, docs/rulings.md) never speaks of impulses
// to its players: a ship's move inside the turn ("turn 1 impulse 7: DD1 (ship) moved") and its flak's
// rate of fire ("1 attack every even impulse") are told in turns.
func TestPlainGameNamesNoImpulse(t *testing.T) {
	g := bundledGame(t, "strike")
	rep := reportAfter(t, g, "kenji", Event{Turn: 1, Impulse: 7, Kind: EvGroundMove, Plane: "DD1", Side: "IJN", Text: "DD1 (ship) moved to (2,-5)"})
	text := reportText(rep)
	if strings.Contains(strings.ToLower(text), "impulse") {
		t.Errorf("a game without impulses names them:\n%s", text)
	}
	if !strings.Contains(text, "DD1 (ship) moved to (2,-5)") || !strings.Contains(text, "up to 6 attacks a turn") {
		t.Errorf("the ship's move or the heavy flak's rate (one attack every even impulse: 6 a turn) is missing:\n%s", text)
	}
	// The impulse game's players plot impulses, and read them.
	ig := bundledGame(t, "kent-impulse-1940")
	if text := reportText(ig.Report("alice", nil)); !strings.Contains(text, "1 attack an impulse") {
		t.Errorf("the impulse game's flak no longer fires by the impulse:\n%s", text)
	}
}

// A critical hit is said to be one, on both sides: the red die's 5 or 6 adds 1 or 2 hits to the starred
// system of a shot of 2 hits or more (seed 000, hit location), so "3 hits ... hit location WWE*" is
// followed by 5 boxes of damage; the report must say where the other 2 came from.
func TestCriticalHitIsExplained(t *testing.T) {
	g := bundledGame(t, "channel-1940")
	shot := Event{Turn: 1, Kind: EvFire, Plane: "RED2", Side: "RAF", Target: "KURT", Text: "RED2 fired at KURT at range 3 (8x30M chart): 3 hits",
		Fire: &FireDetail{Chart: "8x30M", Range: 3, Column: "3", Row: "5-7", Red: 6, White: 4, Modified: 10, Hits: 3, Locations: []string{"WWE*"}, Critical: 2}}
	shooter := reportText(reportAfter(t, g, "alice", shot))
	if !strings.Contains(shooter, "hit location WWE*; the starred E was a critical hit: red 6 added 2 more hits to it") {
		t.Errorf("the shooter's report does not explain the critical hit:\n%s", shooter)
	}
	target := reportText(reportAfter(t, g, "bob", shot))
	if !strings.Contains(target, "3 hits, and a critical hit added 2 more") {
		t.Errorf("the target's report does not explain the critical hit:\n%s", target)
	}
	// A starred letter without a critical (a red under 5) says what the star means.
	shot.Fire.Red, shot.Fire.Critical = 3, 0
	if text := reportText(reportAfter(t, g, "alice", shot)); !strings.Contains(text, "the starred E would have been a critical hit on a red 5 or 6") {
		t.Errorf("the star is left unexplained:\n%s", text)
	}
}

// A plane of initial speed 0 (on the ground, engine stopped) moves in no impulse (seed 001 IV: a plane
// moves one hex in each of as many impulses as its speed): its report says so, not "active in impulses"
// with nothing after it.
func TestStationaryPlaneIsActiveInNoImpulse(t *testing.T) {
	text := reportText(bundledGame(t, "kent-impulse-1940").Report("alice", nil))
	if strings.Contains(text, "initial speed 0: active in impulses") {
		t.Errorf("an empty list of impulses:\n%s", text)
	}
	if !strings.Contains(text, "initial speed 0: stationary, it moves in no impulse this turn") {
		t.Errorf("the plane at speed 0 is not said to stay put:\n%s", text)
	}
}

// A running torpedo is told to its side every turn: where it ran, and when its run ends (seed 001
// V.D.2-3: one hex in impulse 7 of each turn after the drop), so its first news after the drop is not,
// turns later, that it missed a ship. The enemy is told nothing of it (the seeds give no sight of a
// running torpedo; view.go: a side's own torpedoes).
func TestRunningTorpedoIsToldEachTurn(t *testing.T) {
	next, _, dice := dropTorpedo(t, 1)
	for turn := 2; turn <= 3; turn++ {
		var events []Event
		var err error
		next, events, err = Resolve(testEnv(t), next, nil, dice)
		if err != nil {
			t.Fatal(err)
		}
		var own []string
		for _, e := range EventsFor(next, "A", events) {
			if e.Kind == EvTorpedo {
				own = append(own, e.Text)
			}
		}
		if tp := next.Torpedoes; len(tp) != 1 {
			t.Fatalf("turn %d: the torpedo that missed runs on: %+v", turn, tp)
		}
		want := fmt.Sprintf("AVENGER's torpedo (dropped in turn 1) ran on to hex (%d,%d), heading %s", next.Torpedoes[0].Hex.Q, next.Torpedoes[0].Hex.R, next.Torpedoes[0].Facing)
		if !slices.Contains(own, want) {
			t.Errorf("turn %d: side A is told %q, want %q", turn, own, want)
		}
		for _, e := range EventsFor(next, "B", events) {
			if e.Kind == EvTorpedo {
				t.Errorf("turn %d: side B is told of a torpedo it cannot see: %q", turn, e.Text)
			}
		}
	}
}
