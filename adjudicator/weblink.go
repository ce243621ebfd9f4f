package adjudicator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// The web archive (package adjudicator/web, docs/web.md) shows each player their own reports through a
// secret link. The link's key is derived from the game's seed and, once the seat has been handed on or
// renewed, from a random nonce stored on the seat (Seat.LinkNonce): a seat never handed on needs no
// storage, and REPLACE and RENEW give the seat a new key and leave the old one matching nothing. The key is
// neither the seat's reply token nor its mail secret: a link that leaks lets a reader see that seat's
// reports, never send orders in its name.

// linkLabel separates the key of the players' web links from every other use of the seed.
const linkLabel = "sortie web link"

// PlayerKey is the secret part of a player's web link: HMAC-SHA256 over the game's id, a zero byte and
// the player's id, keyed by HMAC-SHA256(seed, "sortie web link"); its first 16 bytes (128 bits) in hex.
// nonce is the seat's Seat.LinkNonce: when it is not empty a zero byte and it follow the player's id
// (player ids hold no zero byte, so no two seats' messages are equal). A seat without one, as every seat
// was before seats carried one, keeps the key it always had.
// Once the game is over the seed is revealed, and with it the keys of seats without a nonce: by then the
// whole game is public.
func PlayerKey(seed dice.Seed, gameID, player, nonce string) string {
	k := hmac.New(sha256.New, seed[:])
	k.Write([]byte(linkLabel))
	m := hmac.New(sha256.New, k.Sum(nil))
	m.Write([]byte(gameID))
	m.Write([]byte{0})
	m.Write([]byte(player))
	if nonce != "" {
		m.Write([]byte{0})
		m.Write([]byte(nonce))
	}
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// playerKey is the key of the seat's link now.
func (g *Game) playerKey(st *Seat) string {
	return PlayerKey(g.seedValue(), g.ID, st.Player, st.LinkNonce)
}

// webLink is the seat's whole web link for its mail, or "" when the web archive's address is not set.
func (s *Service) webLink(g *Game, st *Seat) string {
	if s.cfg.WebBase == "" {
		return ""
	}
	return strings.TrimRight(s.cfg.WebBase, "/") + "/" + PlayerPath(g.ID, g.playerKey(st))
}

// PlayerPath is the path of a player's pages in the web archive, relative to its base URL: p/GAME/KEY/.
func PlayerPath(gameID, key string) string {
	return "p/" + url.PathEscape(gameID) + "/" + key + "/"
}

// BoardPath is the path of a player's plotting board (docs/orders.md, "The plotting board"), under their
// pages: p/GAME/KEY/board.
func BoardPath(gameID, key string) string { return PlayerPath(gameID, key) + "board" }

// boardLink is the seat's whole link to its plotting board for its mail: "" when the web archive's
// address is not set, or when the board would take no orders (a game that has ended, a seat that dropped
// out or the computer plays, no unit of the seat's to order in rg, the game as the mail shows it).
func (s *Service) boardLink(g *Game, rg ruleset.Game, st *Seat) string {
	if s.cfg.WebBase == "" || g.Status != StatusRunning || st.Dropped || st.Bot || len(ruleset.OrderableUnits(rg, st.Player)) == 0 {
		return ""
	}
	return strings.TrimRight(s.cfg.WebBase, "/") + "/" + BoardPath(g.ID, g.playerKey(st))
}

// PlayerLink is the path of a player's own pages in the web archive (PlayerPath): the web server's base
// URL (web.base_url) followed by it is the link to put in that player's mail. Anyone holding the link
// sees what that player was told, so it goes only to the player.
func (s *Service) PlayerLink(gameID, player string) (string, error) {
	var out string
	err := s.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, gameID)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("no game %q", gameID)
		}
		st := g.seat(player)
		if st == nil {
			return fmt.Errorf("game %s has no player %q", g.ID, player)
		}
		out = PlayerPath(g.ID, g.playerKey(st))
		return nil
	})
	return out, err
}

// WebGame is a game as the web archive sees it between requests: what anyone may know of it, and the
// keys of its players' links. It holds no secret of the mail service (no seed, mail secret or reply
// token), and the keys only to compare with a link's.
type WebGame struct {
	ID      string
	Name    string
	Ruleset string
	Status  string
	Result  string
	// Round is the round to be ordered next; Epoch counts rollbacks. With Status and Result they change
	// whenever the archive of the game changes, so they key the web archive's caches.
	Round int
	// Turn is the last game turn played (Game.Turn): a finished game is over after it.
	Turn    int
	Epoch   int
	Created time.Time
	Players []WebPlayer
}

// WebPlayer is a seat as the web archive knows it.
type WebPlayer struct {
	Player string
	Name   string
	Side   string
	Bot    bool
	// Key is the secret of the player's link (PlayerKey): compared, never shown.
	Key string
}

// Over says the game has ended.
func (g *WebGame) Over() bool { return g.Status == StatusOver }

// WebGameOf is a game record as the web archive sees it.
func WebGameOf(g *Game) WebGame {
	w := WebGame{ID: g.ID, Name: g.Name, Ruleset: g.Ruleset, Status: g.Status, Result: g.Result, Round: g.Round, Turn: g.Turn,
		Epoch: g.Epoch, Created: g.Created}
	seed := g.seedValue()
	for _, st := range g.Seats {
		w.Players = append(w.Players, WebPlayer{Player: st.Player, Name: st.Name, Side: st.Side, Bot: st.Bot, Key: PlayerKey(seed, g.ID, st.Player, st.LinkNonce)})
	}
	return w
}

// WebGames lists every game for the web archive, by id, reading only the game records (never a
// ruleset's state), in one read transaction.
func (s *Service) WebGames() ([]WebGame, error) {
	var out []WebGame
	err := s.db.View(func(tx *storage.Tx) error {
		return tx.ForEach(bucketGames, func(k string, v []byte) error {
			g, err := getGame(tx, k)
			if err != nil {
				return err
			}
			if g != nil {
				out = append(out, WebGameOf(g))
			}
			return nil
		})
	})
	return out, err
}

// WebGame reads one game for the web archive; ok is false when there is no such game.
func (s *Service) WebGame(id string) (w WebGame, ok bool, err error) {
	err = s.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, id)
		if err != nil || g == nil {
			return err
		}
		w, ok = WebGameOf(g), true
		return nil
	})
	return w, ok, err
}

// AsksOnly says a game asks only some players each round (ruleset.Selective, the impulse game). Its
// round numbers are then no one's business while it runs: how often the engine stopped depends on units
// a player may not have seen, so the web archive shows them only once the game is over.
func (s *Service) AsksOnly(gameID string) (bool, error) {
	var out bool
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
		out = asksOnly(rg)
		return nil
	})
	return out, err
}
