package adjudicator

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"sortie/storage"
)

// A seat's credentials: its mail secret, its reply token (the personal reply address) and the nonce of
// its web link (Seat.LinkNonce, PlayerKey). REPLACE renews them all when the seat changes hands, and
// RENEW when the moderator thinks one of them is known to someone else; the old ones then match nothing.

// renewSeat gives a seat a new secret, reply token and web link: the old token is forgotten, so the old
// reply address, the old secret and the old link no longer name the seat.
func renewSeat(tx *storage.Tx, g *Game, st *Seat) error {
	if err := tx.Delete(bucketTokens, st.Token); err != nil {
		return err
	}
	st.Secret, st.Token, st.LinkNonce = newSecret(), randomHex(8), randomHex(16)
	return tx.Put(bucketTokens, st.Token, []byte(g.ID+"/"+st.Player))
}

// renew is the moderator's RENEW: the seat keeps its player and address and gets a new secret, reply
// address and web link, which go to that address in one mail (with the reply address as its Reply-To).
// The other players are not told: nothing changes for them.
func (s *Service) renew(tx *storage.Tx, g *Game, player string) error {
	st := g.seat(player)
	if st == nil {
		return modErr("no player " + player)
	}
	if st.Bot {
		return modErr(player + " is played by the computer: it has no secret or reply address to renew")
	}
	if err := renewSeat(tx, g, st); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The moderator has renewed your secret, your personal reply address and your web link in game %s.\n"+
		"The old ones no longer work: mail with the old secret or to the old reply address is refused,\nand the old link shows nothing.\n\n", g.ID)
	fmt.Fprintf(&b, "Your secret for this game is %s. Keep it to yourself: with your mail address it\nproves the orders are yours.\n", st.Secret)
	if reply := s.replyTo(st); reply != s.cfg.Address {
		fmt.Fprintf(&b, "Your personal reply address is now %s: reply to this mail or to any later one\n"+
			"(replies to earlier mails go to the old address and are refused).\n", reply)
	} else {
		fmt.Fprintf(&b, "Put it on the GAME line of every block: GAME %s SECRET %s\n", g.ID, st.Secret)
	}
	if link := s.webLink(g, st); link != "" {
		fmt.Fprintf(&b, "Your reports on the web, for your eyes only (keep this link to yourself): %s\n", link)
		rg, err := s.cachedRules(tx, g)
		if err != nil {
			return err
		}
		if board := s.boardLink(g, rg, st); board != "" {
			fmt.Fprintf(&b, "Your plotting board, to try your plots on the map and send them (keep it to yourself too): %s\n", board)
		}
	}
	fmt.Fprintf(&b, "\nFor your last report again, send\n\n  GAME %s SECRET %s\n  RESEND\n  END\n", g.ID, st.Secret)
	subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": g.ID, "GameName": g.Name, "Topic": "your new secret, reply address and web link", "Text": b.String()})
	if err != nil {
		return err
	}
	g.Notices++
	if err := s.enqueue(tx, outgoing{To: st.Email, ToName: st.Name, Game: g, Kind: "renew", Subject: subject, Body: body, Token: st.Token,
		Key: []string{"renew", g.ID, player, fmt.Sprint(g.Notices)}}); err != nil {
		return err
	}
	return putGame(tx, g)
}

// relink puts the seat's web link now in place of any earlier link of the game in a mail kept for
// RESEND: a report sent before REPLACE or RENEW carries the seat's old link, which shows nothing now.
func (s *Service) relink(g *Game, st *Seat, body string) string {
	link := s.webLink(g, st)
	if link == "" {
		return body
	}
	prefix := strings.TrimRight(s.cfg.WebBase, "/") + "/p/" + url.PathEscape(g.ID) + "/" // as PlayerPath writes it
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `[0-9a-f]{32}/`)
	return re.ReplaceAllLiteralString(body, link)
}
