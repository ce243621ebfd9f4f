package ruleset

import (
	"fmt"
	"strings"
)

// How a round is named, in one place: a report's subject and text, its order block's GAME line, the
// receipts, the end of the game and the web archive all name rounds through these, so they count the
// same way. A round is a game turn in most games; in Swarm a round may play several turns and is named
// by them ("turns 1-3"); where rounds are not turns (the impulse game's stops) a round is named by its
// Noun and the number the report gives it, which the service makes the reader's own count, and the
// game's clock follows in the rules' words.

// noun is the report's word for a round: "turn" unless its game says otherwise.
func (r Report) noun() string {
	if r.Noun == "" {
		return "turn"
	}
	return r.Noun
}

// Title names the round the report follows: "turn 3", "turns 1-3", "round 3 (turn 1, impulse 6)", or
// "the opening positions" before the first.
func (r Report) Title() string {
	if r.Round == 0 {
		return "the opening positions"
	}
	s := RoundTitle(r.noun(), r.Round, r.LastTurn)
	if r.When != "" {
		s += " (" + r.When + ")"
	}
	return s
}

// RoundTitle names round n of a game whose word for a round is noun, lastTurn the last game turn it
// played: "turn 3", "turns 1-3" (a round of turns that played several), "round 5".
func RoundTitle(noun string, n, lastTurn int) string {
	if noun == "turn" && lastTurn > n {
		return fmt.Sprintf("turns %d-%d", n, lastTurn)
	}
	return fmt.Sprintf("%s %d", noun, n)
}

// NextTitle names the round to order next: "turn 4", "round 4".
func (r Report) NextTitle() string { return fmt.Sprintf("%s %d", r.noun(), r.NextRound) }

// BlockWord is the word before the round's number on the order block's GAME line: "TURN", "ROUND".
func (r Report) BlockWord() string { return BlockWord(r.noun()) }

// BlockWord is the order block's word for a round called noun.
func BlockWord(noun string) string { return strings.ToUpper(noun) }

// Played names where the game stood after the round, in game turns, as a finished game's end is told:
// "turn 8", "turn 1, impulse 6".
func (r Report) Played() string {
	switch {
	case r.When != "":
		return r.When
	case r.Round == 0 && r.LastTurn == 0:
		return "the opening positions"
	}
	return fmt.Sprintf("turn %d", max(r.Round, r.LastTurn))
}
