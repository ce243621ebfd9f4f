package adjudicator

// The service's side of the plotting board (docs/orders.md, "The plotting board"): a page behind a
// player's web link where they see their units' orders, try plots through the game's own rules, and send
// the block. The web server (adjudicator/web) finds the seat by the link's key and calls these; they
// know nothing of pages. Board and TryOrder only read; SubmitBoard takes the block the way a mail to the
// seat's reply address is taken (Submit), so the board adds no second way of storing orders.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"sortie/rules/ruleset"
	"sortie/storage"
)

// BoardSeat is what the plotting board shows a seat now (the live round, not the archive's).
type BoardSeat struct {
	Game, GameName     string
	Player, Name, Side string
	Round              int    // the round orders are for: the number the block's header must carry (turn guard)
	RoundTitle         string // the round named as the mails name it ("turn 3", "round 12")
	Header             string // the order block's header line for this seat and round, as the report's block has it
	UnitNoun           string // "aircraft", "squadron", "unit"
	Open               bool   // orders are taken now
	Closed             string // when not Open, why, in the player's words (the game is over, paused, ...)
	// Note is, while Open, what the receipt would say of the round standing still: the moderator has
	// paused the game, or the round is held; "" otherwise.
	Note string
	// Deadline is when the round's orders are due, as the receipt says it (with the seat's time zone);
	// "" while the board is closed, or in a game that asks only some players (ruleset.Selective) a round
	// that does not ask this seat.
	Deadline string
	Units    []BoardUnit
}

// BoardUnit is one of the seat's units on the plotting board.
type BoardUnit struct {
	Name     string   // callsign as the order line writes it
	OnFile   string   // the canonical order on file for this round, "" if none
	Default  string   // the default order (what the unit flies if no order comes)
	Help     []string // ruleset.Planner.PlotHelp, or nil
	Standing bool     // an order that stands until changed (ruleset.Standing), not waited for
}

// BoardSubmitted is what became of a block sent from the plotting board.
type BoardSubmitted struct {
	Outcome Outcome
	// Duplicate says the board sent this submission before (the same messageID for the seat): nothing
	// was done or queued again.
	Duplicate bool
	// Subject and Receipt are the answer mailed to the player, as it was queued: the receipt, or why
	// nothing was used (a game that has ended, a block naming another game or player; the first
	// submission over the hourly limit gets the notice that the rest of the hour's are ignored). Both ""
	// when nothing was mailed (a duplicate, a later submission over the limit).
	Subject, Receipt string
}

// notAskedText tells a player that the round asks nothing of them (notAsked, or no unit to order).
const notAskedText = "Sortie is not asking you for orders now; your next report will."

// ErrNoSeat is SubmitBoard's error for a game or player that does not exist (or a seat the computer
// plays, which has no board).
var ErrNoSeat = errors.New("no such game or player")

// errNoBoardID is SubmitBoard's error for a submission without an id: a fault of its caller.
var errNoBoardID = errors.New("a block from the plotting board needs its messageID")

// boardGame reads what the board needs of a seat in one read transaction: the game record, the seat,
// and the game's ruleset and state, read as the submit path reads them. ok is false when the game or
// player does not exist, or the computer plays the seat.
func (s *Service) boardGame(tx *storage.Tx, gameID, player string) (g *Game, st *Seat, rs ruleset.Ruleset, rg ruleset.Game, ok bool, err error) {
	if g, st, err = s.boardSeat(tx, gameID, player); err != nil || st == nil {
		return nil, nil, nil, nil, false, err
	}
	if rs, err = s.rulesetOf(g); err != nil {
		return nil, nil, nil, nil, false, err
	}
	if rg, err = s.cachedRules(tx, g); err != nil {
		return nil, nil, nil, nil, false, err
	}
	return g, st, rs, rg, true, nil
}

// boardSeat is the game and seat of a board, nil when there is no such game or player (an id no game
// can have is none), or the computer plays the seat.
func (s *Service) boardSeat(tx *storage.Tx, gameID, player string) (*Game, *Seat, error) {
	if !gameIDRE.MatchString(strings.ToLower(gameID)) || player == "" {
		return nil, nil, nil
	}
	g, err := s.cachedGameRecord(tx, gameID)
	if err != nil || g == nil {
		return nil, nil, err
	}
	st := g.seat(player)
	if st == nil || st.Bot {
		return nil, nil, nil
	}
	return g, st, nil
}

// Board returns the seat's board, ok=false when the game or player does not exist. It only reads.
func (s *Service) Board(gameID, player string) (BoardSeat, bool, error) {
	var out BoardSeat
	var found bool
	err := s.db.View(func(tx *storage.Tx) error {
		g, st, rs, rg, ok, err := s.boardGame(tx, gameID, player)
		if err != nil || !ok {
			return err
		}
		found = true
		noun := ruleset.RoundNoun(rg)
		round := playerRound(g, rg, st)
		out = BoardSeat{Game: g.ID, GameName: g.Name, Player: st.Player, Name: st.Name, Side: st.Side,
			Round: round, RoundTitle: fmt.Sprintf("%s %d", noun, round), Header: s.blockHeader(g, ruleset.BlockWord(noun), round)}
		out.UnitNoun, _ = ruleset.UnitNouns(rs)
		units := ruleset.OrderableUnits(rg, st.Player)
		switch {
		case g.Status != StatusRunning:
			out.Closed = "Game " + g.ID + " has ended: " + g.Result
		case st.Dropped:
			out.Closed = "You have dropped out of this game."
		case len(units) == 0:
			out.Closed = notAskedText
		default:
			out.Open = true
			out.Note = stillness(g, false)
		}
		if !out.Open {
			return nil
		}
		if !notAsked(rg, st.Player) {
			out.Deadline = s.deadlineText(g, st)
		}
		var standing []string
		if sd, ok := rg.(ruleset.Standing); ok {
			standing = sd.StandingUnits(st.Player)
		}
		planner, _ := rg.(ruleset.Planner)
		for _, u := range units {
			bu := BoardUnit{Name: u, Default: rg.DefaultOrder(u), Standing: slices.Contains(standing, u)}
			o, ok, err := s.order(tx, g, u)
			if err != nil {
				return err
			}
			if ok {
				bu.OnFile = o.Text
			}
			if planner != nil {
				bu.Help = planner.PlotHelp(st.Player, u)
			}
			out.Units = append(out.Units, bu)
		}
		return nil
	})
	if err != nil || !found {
		return BoardSeat{}, false, err
	}
	return out, true, nil
}

// TryOrder is the plan of one order text for one of the player's units, in the current round, through the
// game's ruleset (ruleset.Planner; a ruleset without it gives Plan{Check: CheckOrder(...)}). It stores
// nothing. ok=false when the game or player does not exist. Columns in the answer count in text, as
// CheckOrder's do. A unit that is not the player's to order is not planned: its answer is CheckOrder's.
func (s *Service) TryOrder(gameID, player, unit, text string) (ruleset.Plan, bool, error) {
	var out ruleset.Plan
	var found bool
	err := s.db.View(func(tx *storage.Tx) error {
		_, st, _, rg, ok, err := s.boardGame(tx, gameID, player)
		if err != nil || !ok {
			return err
		}
		found = true
		// Only the player's own units are planned: for any other name CheckOrder's answer alone (that it
		// is not theirs), so no plan could draw a unit the side may not know where it is.
		if p, ok := rg.(ruleset.Planner); ok && slices.Contains(ruleset.OrderableUnits(rg, st.Player), unit) {
			out = p.Plan(st.Player, unit, text)
		} else {
			out = ruleset.Plan{Check: rg.CheckOrder(st.Player, unit, text)}
		}
		return nil
	})
	if err != nil || !found {
		return ruleset.Plan{}, false, err
	}
	return out, true, nil
}

// SubmitBoard takes an order block sent from the board as if the player had mailed it to their reply
// address: the same path as a mail (Submit: turn guard, flood limits, de-duplication by messageID in the
// seat's scope, the orders stored, the same receipt mailed to the player, the round resolved if complete).
// messageID is the board's id for this one submission (board-web makes it from the page token, so a
// replayed POST is a duplicate). It returns the outcome and the receipt's text as mailed (subject and body),
// "" for a duplicate. A game or player that does not exist is ErrNoSeat; messageID must not be empty.
//
// The block needs no secret, whether or not the game's mail has reply addresses: the seat is the one the
// board was opened for. A header with the report's placeholder for the secret (a mailbox without
// plus-addressing: "SECRET <your secret>") is taken without it.
func (s *Service) SubmitBoard(gameID, player, messageID, block string) (BoardSubmitted, error) {
	if cleanMessageID(messageID) == "" {
		// Without an id the submission could be neither told from a replay nor given a receipt of its own.
		return BoardSubmitted{}, errNoBoardID
	}
	var env Envelope
	var found bool
	err := s.db.View(func(tx *storage.Tx) error {
		g, st, err := s.boardSeat(tx, gameID, player)
		if err != nil || st == nil {
			return err
		}
		found = true
		block = withoutSecretPlaceholder(block)
		env = Envelope{From: st.Email, FromName: st.Name, To: []string{s.replyTo(st)}, MessageID: messageID,
			Subject: "orders from the plotting board", Text: block, Full: block, Size: len(block), ReceivedAt: s.now().UTC(),
			board: &boardSender{game: g.ID, player: st.Player}}
		return nil
	})
	if err != nil {
		return BoardSubmitted{}, err
	}
	if !found {
		return BoardSubmitted{}, ErrNoSeat
	}
	o, ans, err := s.submit(env)
	if err != nil {
		return BoardSubmitted{}, err
	}
	out := BoardSubmitted{Outcome: o, Subject: ans.Subject, Receipt: ans.Body}
	if _, dup := o.Duplicated(); dup {
		out.Duplicate = true
	} else {
		s.kick() // the receipt (and any reports) wait in the outbox: wake the sender
	}
	return out, nil
}

// secretPlaceholder stands for the secret on the GAME line of a block written where replies carry no
// identity (blockHeader): the player puts their secret in its place.
const secretPlaceholder = "<your secret>"

// withoutSecretPlaceholder is block with " SECRET <your secret>" taken off its GAME line, the first
// line that starts with GAME; any other block as it is.
func withoutSecretPlaceholder(block string) string {
	lines := strings.SplitAfter(block, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 || !strings.EqualFold(f[0], "GAME") {
			continue
		}
		lines[i] = strings.Replace(l, " SECRET "+secretPlaceholder, "", 1)
		return strings.Join(lines, "")
	}
	return block
}
