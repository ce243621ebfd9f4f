package adjudicator

// The game's life as one state machine (docs/architecture.md, "The game's life"). A game is in one of
// four phases; every event that can change it, from a player's mail, the clock or the moderator, asks
// the table below whether it may happen in the phase the game is in, and each path that resolves a
// round goes through Service.resolveDue or a moderator's PROCESS TURN. Nothing else decides.

import (
	"fmt"
	"time"
)

// Phase is where a game is in its life.
type Phase string

// The phases of a game.
const (
	// PhaseRunning: the clock runs; a round resolves once every order is in or the deadline and grace
	// have passed.
	PhaseRunning Phase = "running"
	// PhasePaused: the moderator stopped the clock. Orders are still taken and stored, but no round
	// resolves until RESUME (or PROCESS TURN); the deadline moves on by the pause.
	PhasePaused Phase = "paused"
	// PhaseHeld: the round is held for the moderator (at least half the players sent nothing by the
	// deadline, or the rules engine failed). Orders are still taken; nothing resolves until the
	// moderator sends PROCESS TURN, or RESUME (after EXTEND, or the clock holds it again).
	PhaseHeld Phase = "held"
	// PhaseOver: the game has ended. Only RESEND (a report again) and ROLLBACK (which reopens it) act.
	PhaseOver Phase = "over"
)

// Phase is the phase the game is in. Over comes first; a pause comes before a hold, as the moderator's
// own act (RESUME ends both).
func (g *Game) Phase() Phase {
	switch {
	case g.Status == StatusOver:
		return PhaseOver
	case g.Paused:
		return PhasePaused
	case g.Held != "":
		return PhaseHeld
	}
	return PhaseRunning
}

// Event is something that happens to a game.
type Event string

// The events of a game's life.
const (
	// A player's mail: orders, CLEAR (a withdrawal), WAIT, READY, AWAY and BACK.
	EventOrder Event = "order"
	// The last missing order (or READY) arrived, and the resolve delay has passed: the round resolves.
	EventAllIn Event = "all orders in"
	// The deadline and its grace passed: the round resolves, or is held when the mail looks lost.
	EventDeadline Event = "deadline"
	// A reminder falls due before the deadline, or a late notice after it.
	EventReminder Event = "reminder"
	// The rules engine failed while resolving: the round is held.
	EventFault Event = "engine fault"
	// The moderator's commands.
	EventPause    Event = "PAUSE"
	EventResume   Event = "RESUME"
	EventExtend   Event = "EXTEND"
	EventProcess  Event = "PROCESS TURN"
	EventRollback Event = "ROLLBACK"
	EventReplace  Event = "REPLACE"
	EventRenew    Event = "RENEW"
	EventAway     Event = "AWAY"
	EventDigest   Event = "DIGEST"
	// A player asks for a report again.
	EventResend Event = "RESEND"
)

// transition is what an event may do: the phases it may happen in, and the phase it leaves the game in
// ("" keeps the phase; a resolved round may still end the game).
type transition struct {
	from []Phase
	to   Phase
	// resolves says the event resolves the round (in a phase it may happen in).
	resolves bool
}

var (
	live   = []Phase{PhaseRunning, PhasePaused, PhaseHeld}
	always = []Phase{PhaseRunning, PhasePaused, PhaseHeld, PhaseOver}
)

// lifeTable is the whole state machine. Everything that changes a game's phase or resolves a round is
// in it; Game.may reads it, and TestLifeTable holds the paths to it.
var lifeTable = map[Event]transition{
	EventOrder:    {from: live},
	EventAllIn:    {from: []Phase{PhaseRunning}, resolves: true},
	EventDeadline: {from: []Phase{PhaseRunning}, resolves: true}, // or holds: see tickGame
	EventReminder: {from: []Phase{PhaseRunning}},
	EventFault:    {from: live, to: PhaseHeld},
	EventPause:    {from: []Phase{PhaseRunning, PhaseHeld}, to: PhasePaused},
	EventResume:   {from: []Phase{PhasePaused, PhaseHeld}, to: PhaseRunning},
	EventExtend:   {from: live},
	EventProcess:  {from: live, to: PhaseRunning, resolves: true},
	EventRollback: {from: always}, // a pause stays; a hold or the game's end does not
	EventReplace:  {from: live},
	EventRenew:    {from: live},
	EventAway:     {from: live},
	EventDigest:   {from: always},
	EventResend:   {from: always},
}

// lifeError says why an event may not happen now, in words for the person who asked.
type lifeError struct {
	event Event
	phase Phase
	why   string
}

func (e *lifeError) Error() string { return e.why }

// may says whether e may happen to the game now, and if not, why (a *lifeError).
func (g *Game) may(e Event) error {
	t, ok := lifeTable[e]
	if !ok {
		return &lifeError{e, g.Phase(), fmt.Sprintf("%s is not an event of a game's life", e)}
	}
	p := g.Phase()
	for _, f := range t.from {
		if f == p {
			return nil
		}
	}
	return &lifeError{e, p, whyNot(g, e, p)}
}

// whyNot says, in a sentence, why e cannot happen in phase p.
func whyNot(g *Game, e Event, p Phase) string {
	switch p {
	case PhaseOver:
		return fmt.Sprintf("game %s is over (%s); only RESEND and ROLLBACK act on it", g.ID, g.Result)
	case PhasePaused:
		switch e {
		case EventPause:
			return "the game is already paused"
		case EventAllIn, EventDeadline, EventReminder:
			return "the game is paused by the moderator: no round resolves until it resumes"
		}
	case PhaseHeld:
		switch e {
		case EventAllIn, EventDeadline, EventReminder:
			return "the round is held for the moderator: it resolves when the moderator sends PROCESS TURN or RESUME"
		}
	case PhaseRunning:
		if e == EventResume {
			return "the game is neither paused nor held"
		}
	}
	return fmt.Sprintf("%s cannot happen while the game is %s", e, p)
}

// stillness says why no round resolves now in a paused or held game, for a player's receipt (allIn:
// the player's side knows every order is in); "" when the game is running. It never says why a round is
// held: that names who sent nothing, which a game that asks only some players keeps to itself.
func stillness(g *Game, allIn bool) string {
	switch g.Phase() {
	case PhasePaused:
		if allIn {
			return "All orders are in, but the moderator has paused the game: the round resolves once it resumes."
		}
		return "The moderator has paused the game: your orders are stored, and no round resolves until it resumes."
	case PhaseHeld:
		if allIn {
			return "All orders are in, but the round is held for the moderator: it resolves when the moderator releases it."
		}
		return "The round is held for the moderator: your orders are stored, and it resolves when the moderator releases it."
	}
	return ""
}

// due is the event that makes a game's round resolve (or be held, or a reminder go out) at now, or ""
// when nothing is due: only a running game's round is ever due.
func (s *Service) due(g *Game, now time.Time) Event {
	if g.Phase() != PhaseRunning {
		return ""
	}
	switch {
	case !g.AllInAt.IsZero() && len(g.Waiting) == 0 && !now.Before(g.AllInAt.Add(s.cfg.ResolveDelay)):
		return EventAllIn
	case !now.Before(g.Deadline.Add(g.Grace)):
		return EventDeadline
	case dueReminder(g, now, s.cfg.Reminders) != "":
		return EventReminder
	}
	return ""
}
