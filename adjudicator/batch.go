package adjudicator

import (
	"errors"

	"sortie/storage"
)

// SubmitBatch takes several mails in one transaction: one commit (one disk sync) for the lot, which is
// what lets the intake keep up with the mail server. Each mail is handled exactly as Submit would,
// in order, later mails seeing the effects of earlier ones. If anything goes wrong with any mail (an
// error, or a bug caught while handling it), nothing of the batch is kept and every mail is submitted
// again on its own, so one bad mail never costs the others.
func (s *Service) SubmitBatch(envs []Envelope) ([]Outcome, error) {
	out := make([]Outcome, len(envs))
	bugs := s.bugs.Load()
	err := s.db.Update(func(tx *storage.Tx) error {
		for i, env := range envs {
			o, _, err := s.handleOnce(tx, env)
			if err != nil {
				return err
			}
			out[i] = o
		}
		return nil
	})
	if err == nil {
		for i, env := range envs {
			s.log.Info().Str("message_id", logID(env.MessageID)).Str("from", logID(env.From)).Str("outcome", string(out[i])).Msg("mail")
		}
		return out, nil
	}
	if errors.Is(err, errPanic) {
		s.bugs.Store(bugs) // the mail is submitted again on its own below, which counts it
	}
	for i, env := range envs {
		o, err := s.Submit(env)
		if err != nil {
			return out[:i], err
		}
		out[i] = o
	}
	return out, nil
}
