package adjudicator

// Who a mail speaks for: reply tokens, and a game, address and secret; wrong secrets counted.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sortie/parser"
	"sortie/storage"
)

// identify finds the seat a mail speaks for: a reply token in any recipient address, or the game named
// in the block with the sender's registered address and the seat's secret.
func (s *Service) identify(tx *storage.Tx, env Envelope, b parser.Block) (*Seat, *Game, error) {
	return s.identifyWith(tx, env, b, true)
}

// identifyQuietly is identify without counting a wrong secret: for blocks Sortie only considers using.
func (s *Service) identifyQuietly(tx *storage.Tx, env Envelope, b parser.Block) (*Seat, *Game, error) {
	return s.identifyWith(tx, env, b, false)
}

func (s *Service) identifyWith(tx *storage.Tx, env Envelope, b parser.Block, count bool) (*Seat, *Game, error) {
	fail := errors.New("not identified")
	if env.board != nil {
		// A block from the plotting board speaks for the seat whose link the board was opened with
		// (SubmitBoard): no token or secret is looked at, so none need leave the server.
		return s.identifyBoard(tx, env.board, b)
	}
	for _, to := range env.To {
		token := tokenOf(to, s.cfg.Address)
		if token == "" {
			continue
		}
		v, err := tx.Get(bucketTokens, token)
		if err != nil || v == nil {
			continue
		}
		gid, player, _ := strings.Cut(string(v), "/")
		g, err := s.cachedGameRecord(tx, gid)
		if err != nil || g == nil {
			continue
		}
		if b.Game != "" && !strings.EqualFold(b.Game, g.ID) {
			continue
		}
		if st := g.seat(player); st != nil {
			return st, g, nil
		}
	}
	if b.Game == "" {
		return nil, nil, fail
	}
	g, err := s.cachedGameRecord(tx, b.Game)
	if err != nil || g == nil {
		return nil, nil, fail
	}
	from := strings.ToLower(env.From)
	for i := range g.Seats {
		st := &g.Seats[i]
		if st.Email == from && secretMatches(b.Secret, st.Secret) && (b.Player == "" || strings.EqualFold(b.Player, st.Player)) {
			return st, g, nil
		}
	}
	if b.Secret != "" && count {
		if err := s.wrongSecret(tx, g, env, b); err != nil {
			return nil, nil, err
		}
	}
	return nil, nil, fail
}

func badSecretsBucket(game string) []string { return []string{"badsecrets", game} }

// wrongSecretsNotice is the wrong secrets in one day for one seat at which the moderator is told.
const wrongSecretsNotice = 5

// wrongSecret counts a mail that named a game, came from (or claimed to come from) a seat's address
// or the moderator's, and carried a wrong secret. At the fifth such mail in a UTC day for a seat the
// game's moderator gets one notice; the sender learns nothing beyond the usual refusal.
func (s *Service) wrongSecret(tx *storage.Tx, g *Game, env Envelope, b parser.Block) error {
	from := strings.ToLower(env.From)
	var targets []string
	for _, st := range g.Seats {
		if st.Email == from && (b.Player == "" || strings.EqualFold(b.Player, st.Player)) {
			targets = append(targets, st.Player)
		}
	}
	if len(targets) == 0 && from == g.Moderator && g.Moderator != "" {
		targets = append(targets, "the moderator")
	}
	day := s.now().UTC().Format("2006-01-02")
	for _, who := range targets {
		var c struct {
			Day   string `json:"day"`
			Count int    `json:"count"`
		}
		if v, err := tx.Get(badSecretsBucket(g.ID), who); err != nil {
			return err
		} else if v != nil {
			_ = json.Unmarshal(v, &c)
		}
		if c.Day != day {
			c.Day, c.Count = day, 0
		}
		c.Count++
		v, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := tx.Put(badSecretsBucket(g.ID), who, v); err != nil {
			return err
		}
		s.log.Warn().Str("game", g.ID).Str("seat", who).Int("today", c.Count).Msg("wrong secret")
		if c.Count == wrongSecretsNotice {
			if err := s.queueModerator(tx, g, "wrong secrets for "+who, fmt.Sprintf("Game %s: %d mails on %s named %s's address with a wrong secret; the latest came from %s. "+
				"Someone may be guessing. Nothing was accepted; the sender was only told the mail could not be matched. "+
				"RENEW gives the seat a new secret, reply address and web link if you think one is known.",
				g.ID, c.Count, day, who, env.From)); err != nil {
				return err
			}
			if err := putGame(tx, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// Sender authentication (docs/operations.md, "Sender authentication"). Sortie never takes a From
// address alone as proof of who wrote a mail: the address is one half of the address-and-secret way in,
// and the reply token needs no address at all. When the moderator's own receiving server says that the
// From address's domain did not send a mail (Envelope.Unconfirmed), Sortie goes on taking the reply
// token and the secret, each of which the mail carries itself, and says what it found:
//   - a mail let in that names the seat's own address as its sender gets a note in its receipt, which
//     goes to the seat's registered address, so a player learns of mail forged in her name that carried
//     her secret or went to her reply address (and the moderator's answer to a command mail the same);
//   - a refusal tells the sender why the address could not count and how to get in (unconfirmedRefusal).
// Both depend only on the mail itself, never on the game, so a stranger learns nothing of it.

// unconfirmedNote is the receipt's note for a mail whose sender the receiving server could not confirm,
// when it names the seat's own address; "" otherwise.
func (s *Service) unconfirmedNote(env Envelope, seat *Seat) string {
	if env.Unconfirmed == "" || !strings.EqualFold(env.From, seat.Email) {
		return ""
	}
	how := "it carried your secret"
	for _, to := range env.To {
		if tok := tokenOf(to, s.cfg.Address); tok != "" && strings.EqualFold(tok, seat.Token) {
			how = "it was sent to your reply address"
			break
		}
	}
	return fmt.Sprintf("The mail server that receives Sortie's mail could not confirm that this mail came from your address %s: %s. "+
		"Sortie took it because %s. If you did not send it, tell your moderator: RENEW gives your seat a new secret and reply address.",
		seat.Email, env.Unconfirmed, how)
}

// unconfirmedModeratorNote is the moderator's answer's note for a command mail whose sender the
// receiving server could not confirm; "" otherwise. The answer goes to the moderator's own address.
func unconfirmedModeratorNote(env Envelope) string {
	if env.Unconfirmed == "" {
		return ""
	}
	return fmt.Sprintf("note: the mail server that receives Sortie's mail could not confirm that this mail came from your address %s: %s. "+
		"Sortie took it because it carried the moderator secret; if you did not send it, someone else holds that secret.", env.From, env.Unconfirmed)
}

// unconfirmedRefusal is what a refusal says of a mail whose sender the receiving server could not
// confirm, for the refusal template's Unconfirmed: the address and why. It names the mail's own sender
// and nothing of any game.
func unconfirmedRefusal(env Envelope) map[string]string {
	if env.Unconfirmed == "" {
		return nil
	}
	return map[string]string{"Address": env.From, "Why": env.Unconfirmed}
}

// tokenOf returns TOKEN for an address local+TOKEN@domain matching the service's address.
func tokenOf(addr, service string) string {
	local, domain, ok := strings.Cut(strings.ToLower(service), "@")
	if !ok {
		return ""
	}
	al, ad, ok := strings.Cut(strings.ToLower(addr), "@")
	if !ok || ad != domain {
		return ""
	}
	tok, ok := strings.CutPrefix(al, local+"+")
	if !ok {
		return ""
	}
	return tok
}

// boardSender is the seat a block sent from the plotting board speaks for: the web server found it by
// the link key of the page (SubmitBoard).
type boardSender struct {
	game, player string
}

// identifyBoard finds the seat of a block sent from the plotting board. A block that names another game
// or another player is not the seat's: it is refused as an unidentified mail would be.
func (s *Service) identifyBoard(tx *storage.Tx, from *boardSender, b parser.Block) (*Seat, *Game, error) {
	fail := errors.New("not identified")
	g, err := s.cachedGameRecord(tx, from.game)
	if err != nil || g == nil {
		return nil, nil, fail
	}
	st := g.seat(from.player)
	if st == nil || st.Bot || b.Game != "" && !strings.EqualFold(b.Game, g.ID) || b.Player != "" && !strings.EqualFold(b.Player, st.Player) {
		return nil, nil, fail
	}
	return st, g, nil
}
