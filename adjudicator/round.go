package adjudicator

// The clock and the rounds: reminders, digests, and resolving a round into its archive record and reports.

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"sortie/rules/ruleset"
	"sortie/storage"
)

// waitsForOne reports whether the round waits for one seat only: one player's orders, or, with every
// order in, one player's READY.
func waitsForOne(g *Game, miss map[string][]string) bool {
	seats := map[string]bool{}
	for p := range miss {
		seats[p] = true
	}
	for _, p := range g.Waiting {
		seats[p] = true
	}
	return len(seats) == 1
}

// Tick does what the clock asks for: reminders before and after deadlines, the moderators' daily digest,
// and resolving every round that is due — all orders in (the delay passed, nobody waiting), or the
// deadline and grace passed. A paused or held game waits. It returns the games it resolved.
func (s *Service) Tick() ([]string, error) {
	// Find the games that may need something in one read-only pass; only those get a write transaction.
	var ids []string
	now := s.now().UTC()
	err := s.db.View(func(tx *storage.Tx) error {
		return tx.ForEach(bucketGames, func(k string, v []byte) error {
			var g Game
			if err := json.Unmarshal(v, &g); err != nil {
				return err
			}
			if s.due(&g, now) != "" {
				ids = append(ids, k)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	// Each game on its own: one that fails (or whose ruleset panics) never stops the others.
	var done []string
	var errs []error
	for _, id := range ids {
		ok, err := s.tickGameSafe(id)
		if err != nil {
			errs = append(errs, fmt.Errorf("game %s: %w", id, err))
		}
		if ok {
			done = append(done, id)
		}
	}
	if err := s.digests(); err != nil {
		errs = append(errs, err)
	}
	if err := s.housekeep(); err != nil {
		errs = append(errs, err)
	}
	// Pictures still to draw: those of the rounds just resolved when no sender draws them, and any left
	// by a crash between a round's commit and its drawing.
	if _, err := s.DrawPictures(); err != nil {
		errs = append(errs, err)
	}
	return done, errors.Join(errs...)
}

func (s *Service) tickGame(id string) (bool, error) {
	resolved, queued := false, false
	err := s.db.Update(func(tx *storage.Tx) error {
		g, err := getGame(tx, id)
		if err != nil || g == nil {
			return err
		}
		event := s.due(g, s.now().UTC())
		if event == "" {
			return nil // nothing due, or the game is paused, held or over (life.go)
		}
		rg, err := s.loadRules(tx, g)
		if err != nil {
			return err
		}
		if event == EventReminder {
			queued, err = s.remind(tx, g, rg)
			return err
		}
		if event == EventDeadline {
			if why, err := s.spike(tx, g, rg); err != nil {
				return err
			} else if why != "" {
				g.Held = why
				queued = true
				if err := s.queueModerator(tx, g, heldTopic(g), fmt.Sprintf("Turn %d of game %s is held and will not resolve until you act: %s\nSend PROCESS TURN %d to resolve it as it stands, or EXTEND hours then RESUME.", g.Round, g.ID, why, g.Round)); err != nil {
					return err
				}
				return putGame(tx, g)
			}
		}
		resolved = true
		return s.resolveRound(tx, g, rg, event)
	})
	if err == nil && (resolved || queued) {
		s.kick()
	}
	return resolved, err
}

// digests sends each moderator one digest a day, at or after DigestHour (UTC).
func (s *Service) digests() error {
	if s.cfg.DigestHour < 0 {
		return nil
	}
	now := s.now().UTC()
	if now.Hour() < s.cfg.DigestHour {
		return nil
	}
	day := now.Format("2006-01-02")
	if last, _ := s.digestDay.Load().(string); last == day {
		return nil
	}
	// The games are read once, for every moderator, in a read transaction: the write transaction that
	// queues the digests is short, and mail is not held up behind the reading.
	var lines map[string][]digestLine
	var mods map[string]bool
	if err := s.db.View(func(tx *storage.Tx) error {
		var err error
		lines, mods, err = s.digestLines(tx, "")
		return err
	}); err != nil {
		return err
	}
	sent := false
	err := s.db.Update(func(tx *storage.Tx) error {
		for _, m := range slices.Sorted(maps.Keys(mods)) {
			last, err := tx.Get([]string{"digest"}, m)
			if err != nil {
				return err
			}
			if string(last) == day {
				continue
			}
			if err := s.queueDigestLines(tx, m, lines[m]); err != nil {
				return err
			}
			if err := tx.Put([]string{"digest"}, m, []byte(day)); err != nil {
				return err
			}
			sent = true
		}
		return nil
	})
	if err == nil {
		s.digestDay.Store(day)
	}
	if sent {
		s.kick()
	}
	return err
}

// ResolveGame resolves a game's round now if it is due (or always, with force: a moderator's order,
// which also releases a held or paused round).
func (s *Service) ResolveGame(id string, force bool) (bool, error) {
	if !force {
		return s.tickGame(id)
	}
	err := s.db.Update(func(tx *storage.Tx) error {
		g, err := getGame(tx, id)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("no game %q", id)
		}
		if err := g.may(EventProcess); err != nil {
			return err
		}
		rg, err := s.loadRules(tx, g)
		if err != nil {
			return err
		}
		g.Held, g.Paused, g.PausedAt = "", false, time.Time{}
		return s.resolveRound(tx, g, rg, EventProcess)
	})
	if err == nil {
		s.kick()
	}
	return err == nil, err
}

// archiveRecord is one resolved round as kept forever: enough to re-run it byte for byte.
type archiveRecord struct {
	Round int `json:"round"`
	// Epoch is the game's count of rollbacks when the round was played: it names the dice stream.
	Epoch int `json:"epoch,omitempty"`
	// Keyed says each roll was drawn from a stream of its own (dice.Keyed); rounds archived before
	// that drew from one sequence (dice.Seeded).
	Keyed bool `json:"keyed,omitempty"`
	// Stream names the dice stream when the ruleset chose one (ruleset.DiceStreamer); empty, the round's.
	Stream      string            `json:"stream,omitempty"`
	Resolved    time.Time         `json:"resolved"`
	StateBefore json.RawMessage   `json:"state_before"`
	HashBefore  string            `json:"hash_before"`
	Orders      map[string]string `json:"orders"`
	Log         *ruleset.Log      `json:"log"`
	// Withdrawn are players whose units were taken out after the round (NMR dropout); a re-run
	// withdraws them too before comparing HashAfter.
	Withdrawn []string `json:"withdrawn,omitempty"`
	HashAfter string   `json:"hash_after"`
	// Commitment is what the players were shown of the state after the round (StateCommitment), and
	// CommitBefore the commitment to StateBefore (what a position mail after a rollback to this round
	// shows), so an archive can account for every commitment mailed before its seed is revealed.
	Commitment   string `json:"commitment,omitempty"`
	CommitBefore string `json:"commit_before,omitempty"`
	// Asks is, in a game that asks only some players (Seat.Asks), each seat's count of rounds asked when
	// this round was resolved: a rollback to the round restores it.
	Asks map[string]int `json:"asks,omitempty"`
}

// resolveRound plays the round inside the caller's transaction: orders, dice from the game's seed, the
// archive record, the new state, and every player's report.
// trigger is the event that resolves it (life.go), for the log line the daemon writes once it is committed.
func (s *Service) resolveRound(tx *storage.Tx, g *Game, rg ruleset.Game, trigger Event) error {
	if t, ok := lifeTable[trigger]; !ok || !t.resolves {
		return fmt.Errorf("game %s: %q does not resolve a round", g.ID, trigger)
	}
	start, played := time.Now(), g.Round
	have, err := s.orders(tx, g)
	if err != nil {
		return err
	}
	orders := map[string]string{}
	for u, o := range have {
		orders[u] = o.Text
	}
	before, err := rg.Save()
	if err != nil {
		return err
	}
	d := RoundDice(g.seedValue(), g.Round, g.Epoch, true)
	stream := gameStream(rg, g.Epoch)
	if stream != "" {
		d = StreamDice(g.seedValue(), stream, true)
	}
	// The computer pilot flies the units of seats it plays, and under the autopilot policy the units
	// a player left without an order; it is announced to everyone, by player only.
	now := s.now().UTC()
	notes := s.pilotMissing(g, rg, orders, now)
	t0 := time.Now()
	next, log, err := rg.Resolve(orders, d)
	if err != nil {
		return err
	}
	s.timed("resolve", t0)
	after, err := next.Save()
	if err != nil {
		return err
	}
	// Missed turns and the NMR policy.
	var withdrawn []string
	for i := range g.Seats {
		st := &g.Seats[i]
		if st.Bot || st.Dropped || st.away(now) {
			continue
		}
		sent := false
		for _, o := range have {
			sent = sent || o.Player == st.Player
		}
		if sent || len(rg.Units(st.Player)) == 0 {
			st.Misses = 0
			continue
		}
		st.Misses++
		if g.Policy.After < 1 || st.Misses < g.Policy.After || st.Autopilot {
			continue
		}
		name := st.Name
		if name == "" {
			name = st.Player
		}
		switch g.Policy.Mode {
		case PolicyAutopilot:
			st.Autopilot = true
			notes = append(notes, fmt.Sprintf("%s has missed %d turns in a row and is on autopilot: the turns no longer wait for them, and %s until they send orders again.", name, st.Misses, autopilotFlies(rg)))
		case PolicyDropout:
			st.Dropped = true
			notes = append(notes, fmt.Sprintf("%s has missed %d turns in a row and has dropped out of the game.", name, st.Misses))
			if w, ok := next.(ruleset.Withdrawer); ok {
				if next, err = w.Withdraw(st.Player); err != nil {
					return err
				}
				withdrawn = append(withdrawn, st.Player)
			}
		}
	}
	if len(withdrawn) > 0 {
		if after, err = next.Save(); err != nil {
			return err
		}
	}
	rec := archiveRecord{Round: g.Round, Epoch: g.Epoch, Keyed: true, Stream: stream, Resolved: s.now().UTC(), StateBefore: before, HashBefore: rg.Hash(), Orders: orders, Log: log,
		HashAfter: next.Hash(), Commitment: g.commitment(after), CommitBefore: g.commitment(before), Withdrawn: withdrawn}
	if asksOnly(rg) {
		rec.Asks = map[string]int{}
		for _, st := range g.Seats {
			rec.Asks[st.Player] = st.Asks
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := tx.Put(archiveBucket(g.ID), storage.SeqKey(uint64(g.Round)), b); err != nil {
		return err
	}
	if err := tx.Put(bucketState, g.ID, after); err != nil {
		return err
	}
	g.Round, g.Turn = next.Round(), ruleset.LastTurn(next)
	g.AllInAt = time.Time{}
	g.Waiting = nil
	g.Reminded = nil
	g.Deadline = s.now().UTC().Add(g.TurnLength)
	kind := kindReport
	if over, result := next.Over(); over {
		g.Status, g.Result = StatusOver, result
		kind = kindOver
	}
	t0 = time.Now()
	var told []string
	for i := range g.Seats {
		if ruleset.ReportsTo(next, g.Seats[i].Player) {
			told = append(told, g.Seats[i].Player)
		}
	}
	built := buildReports(next, log, told)
	for i := range g.Seats {
		if !ruleset.ReportsTo(next, g.Seats[i].Player) {
			continue // a game that asks only some players this round (ruleset.Selective)
		}
		if kind != kindOver {
			askSeat(next, &g.Seats[i])
		}
		if err := s.queueReport(tx, reportJob{g: g, rg: next, seat: &g.Seats[i], kind: kind, log: log, notes: notes, built: built}); err != nil {
			return err
		}
	}
	s.timed("reports", t0)
	for _, n := range notes {
		if err := s.queueModerator(tx, g, fmt.Sprintf("turn %d: %s", g.Round-1, firstWords(n)), n); err != nil {
			return err
		}
	}
	if kind == kindOver {
		if err := s.queueModerator(tx, g, "game over", fmt.Sprintf("Game %s is over: %s", g.ID, g.Result)); err != nil {
			return err
		}
	}
	// One line per resolved round, once it is committed (a batch that fails is re-run, and logs then).
	id, epoch, status := g.ID, g.Epoch, g.Status
	tx.OnCommit(func() {
		s.log.Info().Str("game", id).Int("round", played).Int("epoch", epoch).Str("trigger", string(trigger)).
			Float64("ms", float64(time.Since(start).Microseconds())/1000).Str("status", status).Msg("round resolved")
	})
	return putGame(tx, g)
}
