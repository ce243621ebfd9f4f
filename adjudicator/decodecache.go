package adjudicator

// The submit path's decode cache. Every mail to a game reads the game record (to identify the sender,
// to see whether it comes from the moderator, to address the answer) and the ruleset's state (to check
// the orders); decoding them from JSON was most of a mail's CPU time, the same bytes decoded again for
// every mail of a batch. The cache keeps, per game, the last record and state decoded, keyed by the exact
// bytes stored: a lookup reads the stored bytes as before and decodes only when they differ from the
// cached ones, so the cache can never answer with anything but what a decode of the stored bytes would
// give.
//
//   - A game record comes back as a deep copy (cloneGame), so a caller may change it as it always could.
//   - A ruleset game is handed out as it is. Rulesets' games are values: Resolve and Withdraw return new
//     games and leave their input untouched (the conformance kit checks it), and nothing else on the
//     submit path changes one. Only write transactions use the cache (they run one at a time), so no
//     ruleset game is used by two goroutines at once.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// decodeCacheGames bounds the number of games the cache holds; beyond it the cache starts afresh.
const decodeCacheGames = 256

type decodeCache struct {
	off   bool // for tests: every lookup decodes
	mu    sync.Mutex
	games map[string]*cachedGame
	rules map[string]cachedRules
}

type cachedGame struct {
	raw []byte
	g   Game
}

// cachedRules is a game's ruleset, resolved by name once for the game, and the last state decoded (raw
// and rg; rg nil until one is).
type cachedRules struct {
	ruleset string
	rs      ruleset.Ruleset
	raw     []byte
	rg      ruleset.Game
}

// cachedGameRecord is getGame through the cache (in a write transaction; a read one goes to getGame).
func (s *Service) cachedGameRecord(tx *storage.Tx, id string) (*Game, error) {
	if !tx.Writable() || s.decoded.off {
		return getGame(tx, id)
	}
	g, err := s.gameView(tx, id)
	if err != nil || g == nil {
		return nil, err
	}
	return cloneGame(g), nil
}

// gameView is cachedGameRecord without the copy, for a caller that only reads the record and keeps
// nothing of it: the cache's own decoding, which must not be changed (in a read transaction, or with the
// cache off, a fresh decoding).
func (s *Service) gameView(tx *storage.Tx, id string) (*Game, error) {
	if !tx.Writable() || s.decoded.off {
		return getGame(tx, id)
	}
	key := strings.ToLower(id)
	b, err := tx.Peek(bucketGames, key) // compared or decoded here, never kept
	if err != nil || b == nil {
		return nil, err
	}
	c := &s.decoded
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.games[key]; ok && bytes.Equal(e.raw, b) {
		return &e.g, nil
	}
	e := &cachedGame{raw: bytes.Clone(b)}
	if err := json.Unmarshal(e.raw, &e.g); err != nil {
		return nil, err
	}
	if c.games == nil || len(c.games) >= decodeCacheGames {
		c.games = map[string]*cachedGame{}
	}
	c.games[key] = e
	return &e.g, nil
}

// cachedRules is loadRules through the cache (in a write transaction; a read one goes to loadRules).
func (s *Service) cachedRules(tx *storage.Tx, g *Game) (ruleset.Game, error) {
	if !tx.Writable() || s.decoded.off {
		return s.loadRules(tx, g)
	}
	b, err := tx.Peek(bucketState, g.ID) // compared here; the cache keeps a copy
	if err != nil {
		return nil, err
	}
	if b == nil {
		return s.loadRules(tx, g) // its error
	}
	c := &s.decoded
	c.mu.Lock()
	defer c.mu.Unlock()
	e, err := c.ruleset(s.rules, g)
	if err != nil {
		return nil, err
	}
	if e.rg != nil && bytes.Equal(e.raw, b) {
		return e.rg, nil
	}
	b = bytes.Clone(b)
	rg, err := e.rs.Load(b)
	if err != nil {
		return nil, err
	}
	c.rules[g.ID] = cachedRules{ruleset: g.Ruleset, rs: e.rs, raw: b, rg: rg}
	return rg, nil
}

// rulesetOf is the game's ruleset: looked up by name (rules/registry) once for the game, while the cache
// holds it, not once for every mail (with the cache off, every time).
func (s *Service) rulesetOf(g *Game) (ruleset.Ruleset, error) {
	if s.decoded.off {
		return s.rules.Get(g.Ruleset)
	}
	c := &s.decoded
	c.mu.Lock()
	defer c.mu.Unlock()
	e, err := c.ruleset(s.rules, g)
	return e.rs, err
}

// ruleset is the cache's entry for g with its ruleset resolved, made (with no state yet) if there is
// none for g's ruleset; c.mu is held.
func (c *decodeCache) ruleset(rules *registry.Set, g *Game) (cachedRules, error) {
	if e, ok := c.rules[g.ID]; ok && e.ruleset == g.Ruleset {
		return e, nil
	}
	rs, err := rules.Get(g.Ruleset)
	if err != nil {
		return cachedRules{}, err
	}
	if c.rules == nil || len(c.rules) >= decodeCacheGames {
		c.rules = map[string]cachedRules{}
	}
	e := cachedRules{ruleset: g.Ruleset, rs: rs}
	c.rules[g.ID] = e
	return e, nil
}

// putGameIfChanged is putGame that skips the write when g is what is stored already: the cache holds the
// stored bytes' decoding, and g equal to it would be written as those very bytes. Most order mails change
// nothing of the game record.
func (s *Service) putGameIfChanged(tx *storage.Tx, g *Game) error {
	if tx.Writable() && !s.decoded.off && g.Scenario == "" {
		key := strings.ToLower(g.ID)
		b, err := tx.Peek(bucketGames, key)
		if err != nil {
			return err
		}
		c := &s.decoded
		c.mu.Lock()
		e, ok := c.games[key]
		same := ok && b != nil && bytes.Equal(e.raw, b) && sameGame(&e.g, g)
		c.mu.Unlock()
		if same {
			return nil
		}
	}
	return putGame(tx, g)
}

// sameGame reports whether two game records are equal field by field (TestSameGameCoversEveryField fails
// when a field is added that this does not compare). It may call two records that would be written as
// the same bytes different (a time in another location, say), which only costs a write; never the other
// way round. A nil and an empty list are alike where the field is omitted when empty.
func sameGame(a, b *Game) bool {
	return a.ID == b.ID && a.Ruleset == b.Ruleset && a.Name == b.Name && a.Scenario == b.Scenario &&
		a.Source == b.Source && a.Created == b.Created && a.Seed == b.Seed && a.Commitment == b.Commitment &&
		a.Moderator == b.Moderator && a.TurnLength == b.TurnLength && a.Round == b.Round && a.Turn == b.Turn &&
		a.Deadline == b.Deadline && a.AllInAt == b.AllInAt && slices.Equal(a.Waiting, b.Waiting) &&
		(a.Seats == nil) == (b.Seats == nil) && slices.Equal(a.Seats, b.Seats) && a.Status == b.Status &&
		a.Result == b.Result && a.ModSecret == b.ModSecret && a.Grace == b.Grace && a.Policy == b.Policy &&
		a.Paused == b.Paused && a.PausedAt == b.PausedAt && a.Held == b.Held &&
		slices.Equal(a.Reminded, b.Reminded) && a.Epoch == b.Epoch && a.Notices == b.Notices &&
		(a.Rollbacks == nil) == (b.Rollbacks == nil) && slices.Equal(a.Rollbacks, b.Rollbacks)
}

// cloneGame is a deep copy of a game record: every field of Game that can share memory is copied here
// (TestCloneGameCoversEveryField fails when a field is added that this does not copy).
func cloneGame(g *Game) *Game {
	c := *g
	c.Waiting = slices.Clone(g.Waiting)
	c.Seats = slices.Clone(g.Seats)
	c.Reminded = slices.Clone(g.Reminded)
	c.Rollbacks = slices.Clone(g.Rollbacks)
	return &c
}
