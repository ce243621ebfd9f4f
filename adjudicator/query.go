package adjudicator

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"sortie/rules/ruleset"
	"sortie/storage"
)

// Summary is one game in a moderator's list.
type Summary struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	Round   int    `json:"round"`
	// Turn is the last game turn played: a finished game is over after it.
	Turn     int       `json:"turn,omitempty"`
	Status   string    `json:"status"`
	Deadline time.Time `json:"deadline"`
	Missing  int       `json:"missing"` // players still missing orders this round
	Result   string    `json:"result,omitempty"`
	// Paused and Holding say why a running game's clock stands still: the moderator paused it, or a
	// round is held for the moderator (an NMR spike).
	Paused  bool `json:"paused"`
	Holding bool `json:"holding,omitempty"`
}

// State is the game's state in a word for people: running, paused, held or over.
func (s Summary) State() string {
	switch {
	case s.Status != StatusRunning:
		return s.Status
	case s.Holding:
		return "held"
	case s.Paused:
		return "paused"
	}
	return s.Status
}

// DeadlineText is the deadline for a list, in UTC: none once the game is over, and marked while the
// clock stands still.
func (s Summary) DeadlineText() string {
	switch s.State() {
	case StatusRunning:
		return s.Deadline.UTC().Format("2006-01-02 15:04")
	case "paused", "held":
		return s.Deadline.UTC().Format("2006-01-02 15:04") + " (" + s.State() + ")"
	}
	return "-"
}

// SeatStatus is one player's standing in a round, for moderators: never their orders.
type SeatStatus struct {
	Player    string   `json:"player"`
	Name      string   `json:"name"`
	Side      string   `json:"side"`
	Email     string   `json:"email"`
	Missing   []string `json:"missing"` // units still without an order
	Waiting   bool     `json:"waiting"`
	Misses    int      `json:"misses"`
	Autopilot bool     `json:"autopilot"`
	Bot       bool     `json:"bot,omitempty"` // the computer plays the seat
	Dropped   bool     `json:"dropped"`
	AwayUntil string   `json:"away_until,omitempty"`
	// WebLink is the player's own link to their reports in the web archive, when it is served
	// (Config.WebBase): for a moderator to pass on to a player who lost it.
	WebLink string `json:"web_link,omitempty"`
}

// GameStatus is a game as a moderator sees it.
type GameStatus struct {
	Summary
	Seats      []SeatStatus `json:"seats"`
	Moderator  string       `json:"moderator,omitempty"`
	Commitment string       `json:"commitment"`
	AllInAt    time.Time    `json:"all_in_at,omitzero"`
	Archived   int          `json:"archived_rounds"`
	// StateCommitment is the commitment to the current state, as the players are shown it: never the
	// plain hash, which would let a player test guesses of hidden units.
	StateCommitment string    `json:"state_commitment"`
	Held            string    `json:"held,omitempty"` // why the round is held, if it is
	Policy          NMRPolicy `json:"policy"`
	// Rollbacks says, a sentence each, what the moderator's rollbacks discarded and when; Discarded
	// counts the rounds they hold in the archive.
	Rollbacks []string `json:"rollbacks,omitempty"`
	Discarded int      `json:"discarded_rounds,omitempty"`
}

// RollbackText is a rollback in a sentence for the moderator and the archive: "turns 3 to 4 were
// played, then rolled back by the moderator on Mon 23 Nov 2026 09:00 UTC (timeline 1)". noun is the
// game's word for a round.
func RollbackText(rb Rollback, noun string) string {
	played := fmt.Sprintf("%s %d was", noun, rb.To)
	if rb.From-1 > rb.To {
		played = fmt.Sprintf("%ss %d to %d were", noun, rb.To, rb.From-1)
	}
	return fmt.Sprintf("%s played, then rolled back by the moderator on %s (timeline %d)", played, rb.At.UTC().Format("Mon 2 Jan 2006 15:04 UTC"), rb.Epoch)
}

// List returns every game, newest deadline last.
func (s *Service) List() ([]Summary, error) {
	var out []Summary
	err := s.db.View(func(tx *storage.Tx) error {
		return tx.ForEach(bucketGames, func(k string, v []byte) error {
			var g Game
			if err := json.Unmarshal(v, &g); err != nil {
				return err
			}
			sum := Summary{ID: g.ID, Name: g.Name, Ruleset: g.Ruleset, Round: g.Round, Turn: g.Turn, Status: g.Status, Deadline: g.Deadline, Result: g.Result,
				Paused: g.Paused, Holding: g.Held != ""}
			if g.Status == StatusRunning {
				rg, err := s.loadRules(tx, &g)
				if err != nil {
					return err
				}
				miss, err := s.missing(tx, &g, rg)
				if err != nil {
					return err
				}
				sum.Missing = len(miss)
			}
			out = append(out, sum)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// Status returns one game's standing.
func (s *Service) Status(id string) (*GameStatus, error) {
	var st *GameStatus
	err := s.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, id)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("no game %q", id)
		}
		rg, err := s.loadRules(tx, g)
		if err != nil {
			return err
		}
		miss := map[string][]string{}
		if g.Status == StatusRunning { // a finished game misses nothing
			if miss, err = s.missing(tx, g, rg); err != nil {
				return err
			}
		}
		state, err := rg.Save()
		if err != nil {
			return err
		}
		st = &GameStatus{StateCommitment: g.commitment(state), Summary: Summary{ID: g.ID, Name: g.Name, Ruleset: g.Ruleset, Round: g.Round, Turn: g.Turn, Status: g.Status, Deadline: g.Deadline, Missing: len(miss), Result: g.Result,
			Paused: g.Paused, Holding: g.Held != ""},
			Moderator: g.Moderator, Commitment: g.Commitment, AllInAt: g.AllInAt, Held: g.Held, Policy: g.Policy}
		for _, seat := range g.Seats {
			ss := SeatStatus{Player: seat.Player, Name: seat.Name, Side: seat.Side, Email: seat.Email,
				Missing: append([]string{}, miss[seat.Player]...), Waiting: g.waiting(seat.Player), Misses: seat.Misses, Autopilot: seat.Autopilot, Dropped: seat.Dropped, Bot: seat.Bot}
			if !seat.AwayUntil.IsZero() {
				ss.AwayUntil = seat.AwayUntil.Format("2006-01-02")
			}
			if !seat.Bot {
				ss.WebLink = s.webLink(g, &seat)
			}
			st.Seats = append(st.Seats, ss)
		}
		noun := ruleset.RoundNoun(rg)
		for _, rb := range g.Rollbacks {
			st.Rollbacks = append(st.Rollbacks, RollbackText(rb, noun))
		}
		if err := tx.ForEach(discardedBucket(g.ID), func(string, []byte) error { st.Discarded++; return nil }); err != nil {
			return err
		}
		return tx.ForEach(archiveBucket(g.ID), func(string, []byte) error { st.Archived++; return nil })
	})
	return st, err
}

// Seats returns a game's seats with their secrets and reply tokens: for the moderator who created the
// game (sortie game new prints them), never for mail.
func (s *Service) Seats(id string) ([]Seat, error) {
	var out []Seat
	err := s.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, id)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("no game %q", id)
		}
		out = append(out, g.Seats...)
		return nil
	})
	return out, err
}
