package adjudicator

import (
	"encoding/json"
	"fmt"
	"strings"
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
	// Discarded are the rounds rollbacks discarded, by timeline then round (Game.Rollbacks says when
	// and how): each as it was played and reported, so an archive shows every timeline the players saw.
	Discarded []PlayedRound
	Mails     []storage.Outgoing
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
	// Commitment is the commitment to the state after the round that the players were shown;
	// CommitBefore the one to the state before (a position mail after a rollback shows it).
	Commitment   string
	CommitBefore string
	// Timeline is 0 for a round of the game as it stands, and for a discarded round the number of the
	// timeline its rollback closed (Rollback.Epoch).
	Timeline int
	Orders   map[string]string
	Missed   []string
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
		rg, err := s.loadRules(tx, g)
		if err != nil {
			return err
		}
		if rec.State, err = rg.Save(); err != nil {
			return err
		}
		rounds := func(bucket []string, into *[]PlayedRound) error {
			return tx.ForEach(bucket, func(k string, v []byte) error {
				r, err := playedRound(g.ID, k, v)
				if err != nil {
					return err
				}
				*into = append(*into, r)
				return nil
			})
		}
		if err := rounds(archiveBucket(g.ID), &rec.Rounds); err != nil {
			return err
		}
		if err := rounds(discardedBucket(g.ID), &rec.Discarded); err != nil {
			return err
		}
		if rec.Mails, err = tx.OutboxByGame(g.ID); err != nil {
			return err
		}
		// A picture not drawn yet is drawn here as its mail will carry it (pictures.go).
		if err := fillPictures(tx, rec.Mails); err != nil {
			return err
		}
		if rec.Scenario, err = gameScenario(tx, g.ID); err != nil {
			return err
		}
		rec.Game = *g
		rec.Game.Seats = append([]Seat(nil), g.Seats...)
		rec.Game.Rollbacks = append([]Rollback(nil), g.Rollbacks...)
		rec.StateCommitment = g.commitment(rec.State)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// playedRound reads one archive record (key k of the archive or of the discarded rounds).
func playedRound(game, k string, v []byte) (PlayedRound, error) {
	var ar archiveRecord
	if err := json.Unmarshal(v, &ar); err != nil {
		return PlayedRound{}, fmt.Errorf("archive of %s, record %s: %w", game, k, err)
	}
	r := PlayedRound{Round: ar.Round, Epoch: ar.Epoch, Keyed: ar.Keyed, Stream: ar.Stream, Commitment: ar.Commitment, CommitBefore: ar.CommitBefore,
		Resolved: ar.Resolved, HashBefore: ar.HashBefore, HashAfter: ar.HashAfter, Orders: ar.Orders, StateBefore: ar.StateBefore,
		Withdrawn: ar.Withdrawn, Events: json.RawMessage("null")}
	if timeline, _, ok := strings.Cut(k, "/"); ok {
		n, err := storage.ParseSeqKey(timeline)
		if err != nil {
			return PlayedRound{}, fmt.Errorf("archive of %s, discarded record %s: %w", game, k, err)
		}
		r.Timeline = int(n)
	}
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
		return PlayedRound{}, fmt.Errorf("archive of %s, round %d: the events are not JSON", game, ar.Round)
	}
	if !json.Valid(r.StateBefore) {
		return PlayedRound{}, fmt.Errorf("archive of %s, round %d: the state before is not JSON", game, ar.Round)
	}
	return r, nil
}

// Backup writes a consistent copy of the whole database to path while the service carries on (bbolt's
// online backup, through a temporary file renamed into place). The copy holds player secrets: keep it
// as private as the database.
func (s *Service) Backup(path string) error {
	return s.db.BackupTo(path)
}
