package archive

import (
	"fmt"

	"sortie/adjudicator"
	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// Replay is a game's rounds rebuilt from its record, so that anything a round showed can be shown
// again: each round's log (events, dice, missed players) and the state after it, from which the
// ruleset builds what each player was told (ruleset.Game.Report, from that player's side's view only,
// invariant 4). The web archive (package adjudicator/web) is made of it.
//
// A round's state after is the next round's state before, or the current state after the last round,
// when its hash is the round's hash after (as it always is unless the database was changed by hand);
// otherwise the round is re-run the way Verify re-runs it, with its recorded dice.
type Replay struct {
	// Game is the game record with its secrets (the reply tokens, the mail secrets and the seed): for
	// the caller to read the seats, never to show.
	Game adjudicator.Game
	// Start is the state before the first archived round: the opening position the first reports
	// showed (the current state when no round is archived yet).
	Start ruleset.Game
	// Rounds are the archived rounds, in order.
	Rounds []ReplayedRound
	// AsksOnly says the game asks only some players each round (ruleset.Selective): a player is sent a
	// report only after the rounds that ask them, and numbers rounds by their own count.
	AsksOnly bool
	// Noun is the game's word for a round (ruleset.RoundNoun).
	Noun string
}

// ReplayedRound is one archived round with its log and the state after it.
type ReplayedRound struct {
	adjudicator.PlayedRound
	Log   *ruleset.Log
	After ruleset.Game
	// Rerun says the state after came from re-running the round, not from the archive's chain.
	Rerun bool
}

// NewReplay rebuilds every round of a game record.
func NewReplay(rec *adjudicator.GameRecord, opts ...Option) (*Replay, error) {
	rs, err := rulesetsOf(opts).Get(rec.Game.Ruleset)
	if err != nil {
		return nil, err
	}
	r := &Replay{Game: rec.Game, Rounds: make([]ReplayedRound, 0, len(rec.Rounds))}
	first := rec.State
	if len(rec.Rounds) > 0 {
		first = rec.Rounds[0].StateBefore
	}
	if r.Start, err = rs.Load(first); err != nil {
		return nil, fmt.Errorf("game %s: the opening state: %w", rec.Game.ID, err)
	}
	sel, ok := r.Start.(ruleset.Selective)
	r.AsksOnly = ok && sel.AsksOnly()
	r.Noun = ruleset.RoundNoun(r.Start)
	for i, pr := range rec.Rounds {
		rr := ReplayedRound{PlayedRound: pr, Log: &ruleset.Log{Round: pr.Round, Events: compactJSON(pr.Events), Dice: pr.Dice, Missed: pr.Missed}}
		next := rec.State
		if i+1 < len(rec.Rounds) {
			next = rec.Rounds[i+1].StateBefore
		}
		if g, err := rs.Load(next); err == nil && g.Hash() == pr.HashAfter {
			rr.After = g
		} else {
			after, err := rerun(rs, pr)
			if err != nil {
				return nil, fmt.Errorf("game %s, round %d: %w", rec.Game.ID, pr.Round, err)
			}
			rr.After, rr.Rerun = after, true
		}
		r.Rounds = append(r.Rounds, rr)
	}
	return r, nil
}

// rerun re-adjudicates one round as Verify does, with its recorded dice, and returns the state after.
func rerun(rs ruleset.Ruleset, pr adjudicator.PlayedRound) (ruleset.Game, error) {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	after := verifyRound(rs, ArchivedRound(pr), dice.Seed{}, false, bad)
	if len(problems) > 0 || after == nil {
		return nil, fmt.Errorf("the round does not re-run as archived: %s", firstLine(fmt.Sprint(problems)))
	}
	return rs.Load(after)
}

// PlayerReport is one report a player was sent, rebuilt.
type PlayerReport struct {
	// Index counts the player's reports from 0, the opening report; Round is the archived round it
	// followed (0 for the opening), the game's own number, which a player of a game that asks only some
	// players each round never sees (Report.Round and NextRound are theirs).
	Index  int
	Round  int
	Report ruleset.Report
	// Missed are the players announced as having sent no orders for the round; Commitment is the state
	// commitment the report showed.
	Missed     []string
	Commitment string
}

// PlayerReports are the reports one player was sent, in order: the opening report, then one after every
// round that reported to them (every round, unless the game asks only some players), each built from
// the player's side's view only, numbered as the player's mails numbered them.
func (r *Replay) PlayerReports(player string) []PlayerReport {
	asks := 0
	ask := func(g ruleset.Game) {
		if r.AsksOnly && len(g.Units(player)) > 0 {
			asks++
		}
	}
	ask(r.Start)
	open := r.Start.Report(player, nil)
	if r.AsksOnly {
		open.NextRound, open.Round = asks, asks-1
	}
	out := []PlayerReport{{Index: 0, Report: open}}
	for _, rr := range r.Rounds {
		if !ruleset.ReportsTo(rr.After, player) {
			continue
		}
		rep := rr.After.Report(player, rr.Log)
		if r.AsksOnly {
			over, _ := rr.After.Over()
			if !over {
				ask(rr.After)
			}
			rep.NextRound, rep.Round = asks, asks-1
			if over {
				rep.Round = asks
			}
		}
		out = append(out, PlayerReport{Index: len(out), Round: rr.Round, Report: rep, Missed: rr.Missed, Commitment: rr.Commitment})
	}
	return out
}

// Report is what a player was told after round i of Rounds (0-based), and whether they were told
// anything then.
func (r *Replay) Report(player string, i int) (ruleset.Report, bool) {
	rr := r.Rounds[i]
	if !ruleset.ReportsTo(rr.After, player) {
		return ruleset.Report{}, false
	}
	return rr.After.Report(player, rr.Log), true
}
