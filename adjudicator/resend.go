package adjudicator

// RESEND: a player's kept reports sent again, and what became of a round the moderator rolled back.

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"sortie/mailer/outmail"
	"sortie/parser"
	"sortie/storage"
)

// resend queues a player's kept report again (RESEND: the latest; RESEND TURN n: that round's, as the
// player's mails number it) as an answer to the request, and says in a sentence what was sent, or why
// nothing was. A report of a round the moderator rolled back is not sent as if it were current: the
// sentence says so, and the latest report goes instead; exact says the very report asked for was sent.
// done holds what this mail already resent.
func (s *Service) resend(tx *storage.Tx, g *Game, seat *Seat, args []string, inReplyTo string, done map[string]bool) (note string, exact bool, err error) {
	var want string
	if len(args) == 2 && strings.EqualFold(args[0], "TURN") {
		want = storage.SeqKey(parseUint(args[1]))
	}
	var kept, latest []byte
	var keptKey, latestKey string
	err = tx.ForEach(reportsBucket(g.ID, seat.Player), func(k string, v []byte) error {
		latest, latestKey = v, k
		if k == want {
			kept, keptKey = v, k
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	exact = true
	if want != "" && kept == nil {
		n := parseUint(args[1])
		exact = false
		when, err := rolledBack(tx, g, seat.Player, want)
		if err != nil {
			return "", false, err
		}
		switch {
		case !when.IsZero():
			note = fmt.Sprintf("RESEND TURN %d: that round was played, then rolled back by the moderator on %s, so its report no longer counts", n, when.Format("Mon 2 Jan 2006 15:04 UTC"))
		default:
			note = fmt.Sprintf("RESEND TURN %d: there is no report of that round", n)
		}
		if latest == nil {
			return note + "; nothing was sent.", false, nil
		}
		note += "; your latest mail is on its way instead: "
		kept, keptKey = latest, latestKey
	} else if want == "" {
		kept, keptKey = latest, latestKey
		note = "RESEND: "
	} else {
		note = fmt.Sprintf("RESEND TURN %d: ", parseUint(args[1]))
	}
	if kept == nil {
		return "RESEND: there is no report to send yet.", false, nil
	}
	var m savedMail
	if err := json.Unmarshal(kept, &m); err != nil {
		return "", false, err
	}
	note += fmt.Sprintf("%q is on its way again.", m.Subject)
	if done[keptKey] {
		return note, exact, nil
	}
	done[keptKey] = true
	// The same mail again, parts and all, to the seat's address now, as an answer to the request.
	// A picture kept by name is the very one the report carried (one copy, in the outbox); if it is not
	// drawn yet, the resent mail waits for it as the report does.
	return note, exact, s.enqueue(tx, outgoing{To: seat.Email, ToName: seat.Name, Game: g, Kind: "resend", Subject: m.Subject, Body: s.relink(g, seat, m.Body), Parts: m.Parts,
		PartBlobs: m.PartBlobs, InReplyTo: inReplyTo, Token: seat.Token, Key: []string{"resend", inReplyTo, keptKey}})
}

// rolledBack is when the moderator rolled back the round a player's report key names, or the zero time
// if no rollback discarded such a report.
func rolledBack(tx *storage.Tx, g *Game, player, key string) (time.Time, error) {
	var when time.Time
	err := tx.ForEach(discardedReportsBucket(g.ID, player), func(k string, _ []byte) error {
		timeline, round, ok := strings.Cut(k, "/")
		if !ok || round != key {
			return nil
		}
		for _, rb := range g.Rollbacks {
			if storage.SeqKey(uint64(rb.Epoch)) == timeline {
				when = rb.At
			}
		}
		return nil
	})
	return when, err
}

// onlyCommand says every command of the block is name.
func onlyCommand(b parser.Block, name string) bool {
	for _, c := range b.Commands {
		if c.Name != name {
			return false
		}
	}
	return true
}

func parseUint(s string) uint64 {
	var n uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + uint64(c-'0')
	}
	return n
}

// savedMail is a player's report as kept for RESEND: the whole mail as it was queued (outmail.Mail's JSON),
// a part named in PartBlobs by the outbox blob that holds its bytes and without bytes of its own (the map
// picture: pictures.go). Reports kept before pictures were kept once carry the picture's bytes in the part;
// reports kept before the mail was kept whole hold {"subject", "body"} only, the same names: they read as
// a mail with that subject and text and no parts.
type savedMail struct {
	outmail.Mail
	PartBlobs []string `json:"part_blobs,omitempty"`
}
