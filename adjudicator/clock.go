package adjudicator

import (
	"fmt"
	"runtime/debug"
	"strings"

	"sortie/storage"
)

// tickGameSafe runs one game's deadline work and turns a panic inside it (a ruleset failing at
// resolve) into an error. The transaction that panicked is rolled back; the game is then held for the
// moderator, with the reason and a notice, so the clock does not hit the same panic every second and
// the other games go on.
func (s *Service) tickGameSafe(id string) (ok bool, err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		stack := string(debug.Stack())
		s.log.Error().Str("game", id).Str("panic", fmt.Sprint(r)).Str("stack", stack).Msg("the rules engine failed at the deadline; the game is held")
		ok, err = false, fmt.Errorf("panic while resolving: %v", r)
		if herr := s.holdFailed(id, fmt.Sprint(r)); herr != nil {
			err = fmt.Errorf("%w; and it could not be held: %v", err, herr)
		}
	}()
	return s.tickGame(id)
}

// holdFailed holds a game whose round could not be resolved and tells its moderator.
func (s *Service) holdFailed(id, why string) error {
	why = strings.Join(strings.Fields(why), " ")
	if len(why) > 200 {
		why = why[:200] + "…"
	}
	err := s.db.Update(func(tx *storage.Tx) error {
		g, err := getGame(tx, id)
		if err != nil || g == nil {
			return err
		}
		g.Held = "the rules engine failed while resolving this turn (" + why + ")"
		if err := s.queueModerator(tx, g, heldTopic(g), fmt.Sprintf("Turn %d of game %s is held: the rules engine failed while resolving it, and the daemon's log has the details (%s).\n"+
			"Nothing of the turn was applied and the orders received are kept. Once the fault is fixed, send PROCESS TURN %d to resolve it, or RESUME to let the clock try again.",
			g.Round, g.ID, why, g.Round)); err != nil {
			return err
		}
		return putGame(tx, g)
	})
	if err == nil {
		s.kick()
	}
	return err
}
