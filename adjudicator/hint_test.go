package adjudicator

import (
	"strings"
	"testing"
)

// A line that is an order without its callsign is named as such in the game's own notation: an Air
// Force player is shown an Air Force order line, a Swarm player a Swarm one. The order block itself
// knows no game; the hint comes from the game's ruleset (ruleset.Hinter), asked once the game is known.
func TestHintsSpeakTheGamesNotation(t *testing.T) {
	for _, c := range []struct {
		ruleset, line, want, notWant string
	}{
		{"afd", "2R 1 TR FIRE ANY", "RED1: 2R 1 TR FIRE ANY", "2 S M 2"},
		{"swarm", "2 S M 2", "2 S M 2", "2R 1 TR"},
	} {
		t.Run(c.ruleset, func(t *testing.T) {
			f := newFogGame(t, c.ruleset, 1)
			f.mail("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\n"+c.line+"\nEND")
			ms := f.mails("alice@players.test")
			body := ms[len(ms)-1].Body
			if !strings.Contains(body, "looks like an order without its unit") || !strings.Contains(body, c.want) {
				t.Fatalf("the receipt does not name the missing callsign with a %s example %q:\n%s", c.ruleset, c.want, body)
			}
			if strings.Contains(body, c.notWant) {
				t.Errorf("a %s player is shown another game's notation (%q):\n%s", c.ruleset, c.notWant, body)
			}
		})
	}
}

// The mails name each game's units in its own words (ruleset.Vocabulary): squadrons to Swarm players,
// aircraft to Air Force ones.
func TestMailsNameTheGamesUnits(t *testing.T) {
	for rs, want := range map[string]string{"afd": "YOUR AIRCRAFT", "swarm": "YOUR SQUADRONS"} {
		f := newFogGame(t, rs, 1)
		ms := f.mails("alice@players.test")
		if len(ms) == 0 || !strings.Contains(ms[0].Body, want) {
			t.Errorf("%s: the welcome does not say %q:\n%v", rs, want, ms)
		}
		if rs == "swarm" && strings.Contains(ms[0].Body, "AIRCRAFT") {
			t.Errorf("a Swarm welcome speaks of aircraft:\n%s", ms[0].Body)
		}
	}
}
