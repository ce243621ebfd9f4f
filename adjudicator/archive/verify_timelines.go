package archive

// What a rollback leaves and what the mails showed: the closed timelines' rounds re-run, and every state
// commitment any mail showed accounted for (docs/archives.md, "Timelines").

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"sortie/adjudicator"
	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// stateCommitmentRE finds a state commitment in a mail's text: "State commitment after this turn: …",
// "Final state commitment: …", and the like (never the seed's commitment, which says "seed").
var stateCommitmentRE = regexp.MustCompile(`(?i)state commitment[^:\n]*:\s*([0-9a-f]{64})\b`)

// mailedCommitment is one state commitment the mails showed, with the first mail (1-based) that did.
type mailedCommitment struct {
	commitment string
	mail       int
}

// mailedCommitments lists the different state commitments in the mails, in the order they first appear.
func mailedCommitments[T any](mails []T, text func(T) string) []mailedCommitment {
	var out []mailedCommitment
	seen := map[string]bool{}
	for i, l := range mails {
		for _, m := range stateCommitmentRE.FindAllStringSubmatch(text(l), -1) {
			c := strings.ToLower(m[1])
			if !seen[c] {
				seen[c] = true
				out = append(out, mailedCommitment{c, i + 1})
			}
		}
	}
	return out
}

// knownCommitments are the state commitments the archive gives: of the current state, and of the
// states before and after every round of every timeline. With the seed revealed, the commitments to the
// states before are recomputed (the ones after are checked against the re-run in verifyRound).
func knownCommitments(m Manifest, rounds []ArchivedRound, seed dice.Seed, revealed bool, fail func(string, ...any)) map[string]bool {
	known := map[string]bool{m.StateCommitment: true}
	for _, ar := range rounds {
		if ar.Commitment != "" {
			known[ar.Commitment] = true
		}
		if !revealed {
			if ar.CommitBefore != "" {
				known[ar.CommitBefore] = true
			}
			continue
		}
		c := adjudicator.StateCommitment(seed, compactJSON(ar.StateBefore))
		if ar.CommitBefore != "" && ar.CommitBefore != c {
			fail("%s: the state before does not give its commitment %s", roundName(ar), ar.CommitBefore)
		}
		known[c] = true
	}
	return known
}

// roundName is a round's name in a problem: "round 3", or "timeline 1, round 3".
func roundName(ar ArchivedRound) string {
	return RoundVerdict{Round: ar.Round, Timeline: ar.Timeline}.name()
}

// verifyTimelines checks the rounds the rollbacks discarded (format 3): each re-run like a round of the
// game as it stands, the hashes chained within its timeline, and its first state the one the game went
// back to (the state before that round in the game as it stands or in a later timeline, or the current
// state). It adds a verdict for each round and returns them.
func verifyTimelines(r *VerifyReport, read func(string) ([]byte, error), rs ruleset.Ruleset, m Manifest, rounds []ArchivedRound, stateHash string, seed dice.Seed) []ArchivedRound {
	var out []ArchivedRound
	for _, t := range m.Timelines {
		r.Timelines = append(r.Timelines, t.Text)
		prevAfter := ""
		for i, n := range t.Rounds {
			v := RoundVerdict{Round: n, Timeline: t.Timeline, Dice: "recorded"}
			if r.SeedRevealed {
				v.Dice = "seed"
			}
			bad := func(format string, args ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, args...)) }
			name := timelineFile(t.Timeline, n)
			var ar ArchivedRound
			if b, err := read(name); err != nil {
				bad("%v", err)
			} else if err := json.Unmarshal(b, &ar); err != nil {
				bad("%s: %v", name, err)
			} else {
				if ar.Round != n || ar.Timeline != t.Timeline {
					bad("%s holds timeline %d, round %d", name, ar.Timeline, ar.Round)
				}
				if i == 0 && n != t.To {
					bad("the timeline starts at round %d, but the rollback went back to round %d", n, t.To)
				}
				if i > 0 && prevAfter != "" && ar.HashBefore != prevAfter {
					bad("hash before %s is not round %d's hash after %s", ar.HashBefore, t.Rounds[i-1], prevAfter)
				}
				v.Rolls = len(ar.Dice)
				after := verifyRound(rs, ar, seed, r.SeedRevealed, bad)
				if r.SeedRevealed && ar.Commitment != "" && after != nil && adjudicator.StateCommitment(seed, after) != ar.Commitment {
					bad("the state after does not give the commitment the players were shown (%s)", ar.Commitment)
				}
				prevAfter = ar.HashAfter
				out = append(out, ar)
			}
			r.Rounds = append(r.Rounds, v)
		}
		if len(t.Rounds) == 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("timeline %d lists no rounds", t.Timeline))
		}
	}
	// The state each rollback went back to is the one the game went on from: the state before or after a
	// round of the game as it stands or of a later timeline (the round To played again, or the round
	// before it), or the current state.
	for _, t := range m.Timelines {
		var own string
		for _, ar := range out {
			if ar.Timeline == t.Timeline && ar.Round == t.To {
				own = ar.HashBefore
			}
		}
		if own == "" {
			continue
		}
		ok := m.Round == t.To && stateHash == own
		for _, ar := range append(append([]ArchivedRound(nil), rounds...), out...) {
			if ar.Timeline != 0 && ar.Timeline <= t.Timeline {
				continue
			}
			ok = ok || ar.HashBefore == own || ar.HashAfter == own
		}
		if !ok {
			roundProblemIn(r, t.Timeline, t.To, fmt.Sprintf("the rollback went back to a state (hash %s) that the game did not go on from", own))
		}
	}
	return out
}

// roundProblemIn adds a problem to the verdict of a round of a timeline.
func roundProblemIn(r *VerifyReport, timeline, round int, p string) {
	for i := range r.Rounds {
		if r.Rounds[i].Round == round && r.Rounds[i].Timeline == timeline {
			r.Rounds[i].Problems = append(r.Rounds[i].Problems, p)
			return
		}
	}
	r.Problems = append(r.Problems, fmt.Sprintf("timeline %d, round %d: %s", timeline, round, p))
}
