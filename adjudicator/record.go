package adjudicator

import (
	"encoding/json"
	"fmt"
	"time"

	"sortie/rules/dice"
	"sortie/storage"
)

// GameRecord is one game as the database keeps it, read in one transaction: the game, the scenario as
// it was loaded, every resolved round, the current state and every mail. It is what an archive is made
// from (package adjudicator/archive). It holds the players' secrets, the reply tokens and the seed:
// whoever publishes it must withhold them.
type GameRecord struct {
	Game     Game
	Scenario string
	State    json.RawMessage
	// StateCommitment is the commitment to State that the players were shown.
	StateCommitment string
	Rounds          []PlayedRound
	Mails           []storage.Outgoing
	// FromName is the display name on the service's mail; Read is when the record was read.
	FromName string
	Read     time.Time
}

// PlayedRound is one resolved round as the service kept it: enough to re-run it byte for byte.
type PlayedRound struct {
	Round int
	// Epoch is how many rollbacks the game had seen when the round was played; Keyed says every roll
	// was drawn from a stream of its own. With the seed they name the round's dice (RoundDice).
	Epoch int
	Keyed bool
	// Stream names the dice stream when the ruleset chose one (StreamDice); empty, the round's (RoundDice).
	Stream     string
	Resolved   time.Time
	HashBefore string
	HashAfter  string
	// Commitment is the commitment to the state after the round that the players were shown.
	Commitment string
	Orders     map[string]string
	Missed     []string
	// Withdrawn are players whose units were taken out after the round (NMR dropout).
	Withdrawn   []string
	Events      json.RawMessage
	Dice        []dice.Roll
	StateBefore json.RawMessage
}

// Record reads one game, in one read transaction.
func (s *Service) Record(gameID string) (*GameRecord, error) {
	rec := &GameRecord{FromName: s.cfg.Name, Read: s.now().UTC()}
	err := s.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, gameID)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("no game %q", gameID)
		}
		rg, err := loadRules(tx, g)
		if err != nil {
			return err
		}
		if rec.State, err = rg.Save(); err != nil {
			return err
		}
		err = tx.ForEach(archiveBucket(g.ID), func(k string, v []byte) error {
			var ar archiveRecord
			if err := json.Unmarshal(v, &ar); err != nil {
				return fmt.Errorf("archive of %s, record %s: %w", g.ID, k, err)
			}
			r := PlayedRound{Round: ar.Round, Epoch: ar.Epoch, Keyed: ar.Keyed, Stream: ar.Stream, Commitment: ar.Commitment, Resolved: ar.Resolved,
				HashBefore: ar.HashBefore, HashAfter: ar.HashAfter, Orders: ar.Orders, StateBefore: ar.StateBefore,
				Withdrawn: ar.Withdrawn, Events: json.RawMessage("null")}
			if r.Orders == nil {
				r.Orders = map[string]string{}
			}
			if ar.Log != nil {
				r.Missed, r.Dice = ar.Log.Missed, ar.Log.Dice
				if len(ar.Log.Events) > 0 {
					r.Events = json.RawMessage(ar.Log.Events)
				}
			}
			if r.Dice == nil {
				r.Dice = []dice.Roll{}
			}
			if !json.Valid(r.Events) {
				return fmt.Errorf("archive of %s, round %d: the events are not JSON", g.ID, ar.Round)
			}
			if !json.Valid(r.StateBefore) {
				return fmt.Errorf("archive of %s, round %d: the state before is not JSON", g.ID, ar.Round)
			}
			rec.Rounds = append(rec.Rounds, r)
			return nil
		})
		if err != nil {
			return err
		}
		if rec.Mails, err = tx.OutboxByGame(g.ID); err != nil {
			return err
		}
		if rec.Scenario, err = gameScenario(tx, g.ID); err != nil {
			return err
		}
		rec.Game = *g
		rec.Game.Seats = append([]Seat(nil), g.Seats...)
		rec.StateCommitment = g.commitment(rec.State)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// Backup writes a consistent copy of the whole database to path while the service carries on (bbolt's
// online backup, through a temporary file renamed into place). The copy holds player secrets: keep it
// as private as the database.
func (s *Service) Backup(path string) error {
	return s.db.BackupTo(path)
}
