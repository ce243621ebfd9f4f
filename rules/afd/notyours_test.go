package afd

import (
	"strings"
	"testing"
)

// TestNotYoursSuggestsOwnCallsignsOnly: "HNAS is not one of your aircraft" offered no "did you mean";
// the suggestion comes from the player's own callsigns, never an enemy's (fog of war: HNAS is a slip
// from the enemy's HANS, which the RAF player must not be told exists).
func TestNotYoursSuggestsOwnCallsignsOnly(t *testing.T) {
	g := bundledGame(t, "channel-1940")
	if chk := g.CheckOrder("alice", "RDE1", "6"); len(chk.Errors) != 1 || !strings.Contains(chk.Errors[0].Message, "RDE1 is not one of your aircraft (did you mean RED1?)") {
		t.Errorf("RDE1 from alice: %+v", chk.Errors)
	}
	chk := g.CheckOrder("alice", "HNAS", "6")
	if len(chk.Errors) != 1 || strings.Contains(chk.Errors[0].Message, "HANS") || !strings.Contains(chk.Errors[0].Message, "HNAS is not one of your aircraft") {
		t.Errorf("HNAS from alice must not suggest the enemy's HANS: %+v", chk.Errors)
	}
	if chk := g.CheckOrder("bob", "HNAS", "5"); len(chk.Errors) != 1 || !strings.Contains(chk.Errors[0].Message, "did you mean HANS?") {
		t.Errorf("HNAS from bob, whose HANS it is: %+v", chk.Errors)
	}
}
