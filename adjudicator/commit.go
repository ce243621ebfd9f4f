package adjudicator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// commitLabel separates the key of the state commitments from every other use of the seed.
const commitLabel = "sortie state commitment"

// StateCommitment is what the players are shown of a state: HMAC-SHA256 of the state's saved bytes,
// keyed by HMAC-SHA256(seed, "sortie state commitment"), in hex. The saved
// bytes are the ruleset's compact JSON; an archive's indented copy is compacted again before checking. While the seed is secret it tells
// nothing about the state (a plain hash would let a player test guesses of the hidden units against
// it); once the seed is revealed at the game's end, anyone can recompute it from the archive.
func StateCommitment(seed dice.Seed, state []byte) string {
	k := hmac.New(sha256.New, seed[:])
	k.Write([]byte(commitLabel))
	m := hmac.New(sha256.New, k.Sum(nil))
	m.Write(state)
	return hex.EncodeToString(m.Sum(nil))
}

// roundStream is the name of a round's dice stream. Epoch counts the game's rollbacks: a round played
// again after ROLLBACK draws fresh dice, not the undone turn's (epoch 0 keeps the name games before
// rollbacks were keyed had).
func roundStream(round, epoch int) string {
	if epoch == 0 {
		return fmt.Sprintf("round-%d", round)
	}
	return fmt.Sprintf("round-%d-epoch-%d", round, epoch)
}

// RoundDice is the dice source of a round: keyed (every roll its own stream, see dice.Keyed) for every
// round played now; sequential only to re-run rounds archived before.
func RoundDice(seed dice.Seed, round, epoch int, keyed bool) dice.Source {
	return StreamDice(seed, roundStream(round, epoch), keyed)
}

// StreamDice is the dice source of a named stream of the seed.
func StreamDice(seed dice.Seed, stream string, keyed bool) dice.Source {
	s := seed.Stream(stream)
	if keyed {
		return dice.NewKeyed(s)
	}
	return dice.NewSeeded(s)
}

// gameStream is the stream a game's ruleset names for its dice (ruleset.DiceStreamer), with the epoch:
// "" when the round keys them as usual.
func gameStream(rg ruleset.Game, epoch int) string {
	name := ruleset.DiceStream(rg)
	if name == "" || epoch == 0 {
		return name
	}
	return fmt.Sprintf("%s-epoch-%d", name, epoch)
}

// commitment is the commitment to a game's state, as its players see it.
func (g *Game) commitment(state []byte) string { return StateCommitment(g.seedValue(), state) }
