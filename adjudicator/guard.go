package adjudicator

// What keeps one mail, or one stranger, from stopping the service: failures classified and set aside,
// header values made safe to use as keys, flood counting that keeps strangers apart from players, caps on
// the answers strangers get, and the pruning of everything a stream of strangers' mail leaves behind.

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"sortie/storage"
)

// Defaults and retention of the intake's bookkeeping.
const (
	// DefaultMaxStrangerReplies caps the answers per hour to senders Sortie cannot match to a player or
	// moderator (refusals, "no orders found", size and flood notices, failures), all addresses together:
	// forged senders must not turn Sortie into a source of backscatter.
	DefaultMaxStrangerReplies = 100
	// FailureRetention is how long the record of a failed mail is kept.
	FailureRetention = storage.SeenRetention
	// outboxRetention is how long answers to strangers (mail that belongs to no game) stay in the outbox
	// after they were sent.
	outboxRetention = storage.SeenRetention
	// maxAddressLen is the longest address that can be answered (RFC 5321: a path of 256 octets with <>).
	maxAddressLen = 254
)

var (
	bucketFailures    = []string{"failures"}
	bucketFlood       = "flood"      // flood/<hour>/<address key> → count of unidentified mails
	bucketFloodSeat   = "flood-seat" // flood-seat/<hour>/<game>/<player or moderator> → count
	bucketFloodAlert  = "flood-alert"
	bucketStrangers   = "strangers" // strangers/<hour>/replies → answers to strangers this hour
	bucketAutoReplies = "autoreply" // autoreply/<day>/<address key> → answered once today
)

// failureRecord is what is kept of a failed mail.
type failureRecord struct {
	At          time.Time `json:"at"`
	MessageID   string    `json:"message_id,omitempty"`
	From        string    `json:"from,omitempty"`
	Subject     string    `json:"subject,omitempty"`
	Mailbox     string    `json:"mailbox,omitempty"`
	UIDValidity uint32    `json:"uid_validity,omitempty"`
	UID         uint32    `json:"uid,omitempty"`
	Reason      string    `json:"reason"`
	Answered    bool      `json:"answered"`
}

// Failure is a failed mail as the moderator sees it (Failures).
type Failure = failureRecord

// Failures lists the recorded failed mails, oldest first.
func (s *Service) Failures() ([]Failure, error) {
	var out []Failure
	err := s.db.View(func(tx *storage.Tx) error {
		return tx.ForEach(bucketFailures, func(k string, v []byte) error {
			var f Failure
			if err := json.Unmarshal(v, &f); err != nil {
				return err
			}
			out = append(out, f)
			return nil
		})
	})
	return out, err
}

// failMail sets a mail aside after its handling failed with cause, a permanent fault: the sender gets a short
// answer that says nothing about any game (if the address can be answered and the stranger cap allows), the
// reason is logged and recorded. Nothing of the mail is used. With the record, the place it was fetched from
// is marked seen as failed (never its Message-ID): fetched again from there (after a crash before it was
// filed), it goes to the Failed folder again without a second answer; put back in the inbox by a moderator
// once the cause is fixed, it has a new UID and is handled afresh. Only a transient fault while recording is returned as an
// error (the intake then tries the mail again later).
func (s *Service) failMail(env Envelope, cause error) (Outcome, error) {
	env = cleanEnvelope(env)
	rec := failureRecord{At: s.now().UTC(), MessageID: env.MessageID, From: env.From, Subject: clipText(env.Subject, 200),
		Mailbox: env.Mailbox, UIDValidity: env.UIDValid, UID: env.UID, Reason: clipText(cause.Error(), 500)}
	s.log.Error().Err(errors.New(rec.Reason)).Str("message_id", rec.MessageID).Str("from", rec.From).Uint32("uid", env.UID).
		Msg("a mail could not be handled; it is filed in the Failed folder and the mails behind it go on")
	attempt := func(reply bool) error {
		return s.db.Update(func(tx *storage.Tx) error {
			r := rec
			if reply && env.From != "" {
				ok, err := s.mayAnswerStranger(tx, env)
				if err != nil {
					return err
				}
				if ok {
					if err := s.queueSimple(tx, "error", env.From, env.MessageID, "", map[string]any{"Subject": "your mail could not be handled",
						"Problems": []string{"Sortie could not handle your mail, and nothing in it was used. The operator has been told. If it held orders, please send them again in a plain-text mail."}}); err != nil {
						return err
					}
					r.Answered = true
				}
			}
			if _, err := tx.AppendJSON(bucketFailures, r); err != nil {
				return err
			}
			if env.Mailbox == "" || env.UID == 0 {
				return nil
			}
			return tx.MarkSeen("", storage.SeenRecord{Mailbox: env.Mailbox, UIDValidity: env.UIDValid, UID: env.UID, At: r.At, Outcome: string(Failed)})
		})
	}
	err := attempt(true)
	if err != nil && !storage.Transient(err) {
		err = attempt(false)
	}
	if err != nil {
		if storage.Transient(err) {
			return "", err
		}
		s.log.Error().Err(err).Str("message_id", rec.MessageID).Msg("could not even record the failed mail")
	}
	return Failed, nil
}

// cleanEnvelope makes the header values of a mail safe to use: no control characters (a bare CR in a
// Message-ID or address would make every answer unsendable), and lengths that fit a key and a header line.
// An address too long to be a real one is dropped (the mail cannot be answered).
// cleanMessageID is a Message-ID as cleanEnvelope leaves it.
func cleanMessageID(id string) string {
	id = cleanHeader(id)
	if len(id) > storage.MaxKeyLen {
		id = strings.TrimPrefix(storage.KeyOf(id), "sha256:") + "@long-message-id.invalid"
	}
	return id
}

// maxFullText is the longest whole mail text searched for a block below the quoted report.
const maxFullText = 256 << 10

func cleanEnvelope(env Envelope) Envelope {
	env.MessageID = cleanMessageID(env.MessageID)
	env.InReplyTo = cleanHeader(env.InReplyTo)
	if len(env.InReplyTo) > storage.MaxKeyLen {
		env.InReplyTo = ""
	}
	env.From = cleanHeader(env.From)
	if len(env.From) > maxAddressLen {
		env.From = ""
	}
	env.FromName = clipText(cleanHeader(env.FromName), 200)
	env.Subject = clipText(cleanHeader(env.Subject), 998)
	var to []string
	for _, a := range env.To {
		if a = cleanHeader(a); a != "" && len(a) <= maxAddressLen {
			to = append(to, a)
		}
	}
	env.To = to
	if len(env.Full) > maxFullText {
		env.Full = ""
	}
	for i, r := range env.References {
		env.References[i] = cleanHeader(r)
	}
	return env
}

// logID is a Message-ID as logged: never more than a line.
func logID(id string) string { return clipText(cleanHeader(id), 200) }

// cleanHeader removes control characters (CR, LF, NUL, …) and surrounding white space.
func cleanHeader(v string) string {
	if strings.ContainsFunc(v, isControl) {
		v = strings.Map(func(r rune) rune {
			if isControl(r) {
				return -1
			}
			return r
		}, v)
	}
	return strings.TrimSpace(v)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// clipText shortens v to at most n bytes, on a rune boundary.
func clipText(v string, n int) string {
	if len(v) <= n {
		return v
	}
	for n > 0 && !utf8Start(v[n]) {
		n--
	}
	return v[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// ---- flood limits ----

func (s *Service) count(tx *storage.Tx, path []string, key string) (int, error) {
	b, err := tx.Get(path, key)
	if err != nil {
		return 0, err
	}
	n := 0
	if b != nil {
		n, _ = strconv.Atoi(string(b))
	}
	n++
	return n, tx.Put(path, key, []byte(strconv.Itoa(n)))
}

// floodSeat counts the mails of an identified player (or moderator) this hour. Their own count: what
// strangers send from the same address never touches it.
func (s *Service) floodSeat(tx *storage.Tx, game, who string) (over, notice bool, err error) {
	hour := s.now().UTC().Format("2006010215")
	n, err := s.count(tx, []string{bucketFloodSeat, hour}, storage.KeyOf(game+"/"+who))
	return n > s.cfg.MaxMailsPerHour, n == s.cfg.MaxMailsPerHour+1, err
}

// floodStranger counts the mails this hour from an address that Sortie could not match to a player (a
// refused or unidentified mail). Over the limit, further mails from it are ignored; the first one over gets
// a notice (within the stranger cap) and, if the address belongs to a player or moderator of a running game,
// that game's moderator is told (once an hour per game): someone may be forging her address.
func (s *Service) floodStranger(tx *storage.Tx, env Envelope) (done bool, o Outcome, err error) {
	hour := s.now().UTC().Format("2006010215")
	addr := strings.ToLower(env.From)
	n, err := s.count(tx, []string{bucketFlood, hour}, storage.KeyOf(addr))
	if err != nil || n <= s.cfg.MaxMailsPerHour {
		return false, "", err
	}
	if n > s.cfg.MaxMailsPerHour+1 {
		return true, Ignored, nil
	}
	if err := s.alertFlood(tx, addr, hour); err != nil {
		return true, "", err
	}
	ok, err := s.mayAnswerStranger(tx, env)
	if err != nil || !ok {
		return true, Ignored, err
	}
	return true, Ignored, s.queueSimple(tx, "error", env.From, env.MessageID, "", map[string]any{"Subject": "too many mails",
		"Problems": []string{fmt.Sprintf("Sortie reads at most %d mails an hour from one address that it cannot match to a player; the rest of this hour's such mails from this address are ignored. Mails with a correct order block, or sent to your reply address, are still read.", s.cfg.MaxMailsPerHour)}})
}

// alertFlood tells the moderator of every running game in which addr plays or moderates that mail from addr
// is being refused in numbers, at most once an hour per game.
func (s *Service) alertFlood(tx *storage.Tx, addr, hour string) error {
	var games []string
	if err := tx.ForEach(bucketGames, func(k string, v []byte) error {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return err
		}
		if g.Status != StatusRunning || g.Moderator == "" {
			return nil
		}
		hit := g.Moderator == addr
		for _, st := range g.Seats {
			hit = hit || st.Email == addr
		}
		if hit {
			games = append(games, k)
		}
		return nil
	}); err != nil {
		return err
	}
	for _, id := range games {
		path := []string{bucketFloodAlert, hour}
		if v, err := tx.Get(path, id); err != nil || v != nil {
			return err
		}
		if err := tx.Put(path, id, []byte{1}); err != nil {
			return err
		}
		g, err := getGame(tx, id)
		if err != nil || g == nil {
			return err
		}
		text := fmt.Sprintf("More than %d mails this hour from %s could not be matched to a player (no correct order block, no reply address); the rest of them are ignored until the hour is over. Someone may be sending mail in that address's name. The player's own mails with a correct order block or to the reply address are still read.", s.cfg.MaxMailsPerHour, addr)
		if err := s.queueModerator(tx, g, "flood alert: mail in "+addr+"'s name", text); err != nil {
			return err
		}
		if err := putGame(tx, g); err != nil {
			return err
		}
	}
	return nil
}

// ---- answers to strangers ----

// mayAnswerStranger decides whether a mail from a sender Sortie could not identify gets an answer: not if it
// looks like an auto-reply and this address was already answered today, and not beyond the hourly cap on
// answers to strangers. Each answer it allows is counted.
func (s *Service) mayAnswerStranger(tx *storage.Tx, env Envelope) (bool, error) {
	now := s.now().UTC()
	if s.looksAutomatic(tx, env) {
		path := []string{bucketAutoReplies, now.Format("20060102")}
		key := storage.KeyOf(strings.ToLower(env.From))
		if v, err := tx.Get(path, key); err != nil || v != nil {
			return false, err
		}
		if err := tx.Put(path, key, []byte{1}); err != nil {
			return false, err
		}
	}
	path := []string{bucketStrangers, now.Format("2006010215")}
	n, err := s.count(tx, path, "replies")
	if err != nil {
		return false, err
	}
	if n == s.cfg.MaxStrangerReplies+1 {
		s.log.Warn().Int("cap", s.cfg.MaxStrangerReplies).Msg("hourly cap on answers to unidentified senders reached; the rest of this hour's are not answered")
	}
	return n <= s.cfg.MaxStrangerReplies, nil
}

// autoSubject matches the subjects of auto-responders that set none of the RFC 3834 headers, and replies to
// Sortie's own refusals ("Re: no orders found").
var autoSubject = regexp.MustCompile(`(?i)^\s*((re|aw|sv|antw|wg|fw|fwd)\s*:\s*)*(` +
	`.*\b(on vacation|on holiday|on leave|out of (the )?office|away from (the |my )?(office|desk|email)|auto(matic|mated)?[- ]?(reply|response|answer|respond)|autoreply|vacation reply|abwesenheit|absence|congés)\b` +
	`|no orders found|your mail was too large|too many mails|your mail could not be handled|not accepted|your mail was not accepted)`)

// looksAutomatic reports whether a mail is probably an automatic answer without the headers that say so:
// its subject is an auto-responder's, or it answers one of Sortie's own refusals or notices to a stranger
// (In-Reply-To or References naming such a mail).
func (s *Service) looksAutomatic(tx *storage.Tx, env Envelope) bool {
	if autoSubject.MatchString(env.Subject) {
		return true
	}
	for _, id := range append([]string{env.InReplyTo}, env.References...) {
		if id == "" {
			continue
		}
		m, ok, err := tx.OutboxByMessageID(id)
		if err == nil && ok && m.Game == "" && (m.Kind == "refusal" || m.Kind == "error") {
			return true
		}
	}
	return false
}

// ---- housekeeping ----

// housekeepEvery is how often the clock prunes.
const housekeepEvery = time.Hour

// housekeep prunes, once an hour, what the intake leaves behind: flood counters and stranger caps of past
// hours and days, seen Message-IDs after storage.SeenRetention, failure records after FailureRetention, and
// answers to strangers (mail of no game) after they have been sent and kept for the same time.
func (s *Service) housekeep() error {
	now := s.now().UTC()
	if last, _ := s.lastHousekeep.Load().(time.Time); !last.IsZero() && now.Sub(last) < housekeepEvery && !now.Before(last) {
		return nil
	}
	err := s.db.Update(func(tx *storage.Tx) error { return s.prune(tx, now) })
	if err == nil {
		s.lastHousekeep.Store(now)
		s.log.Info().Str("hour", now.Format("2006-01-02T15")).Msg("housekeeping done")
	}
	return err
}

// prune deletes everything of the intake's bookkeeping that is past its time at now.
func (s *Service) prune(tx *storage.Tx, now time.Time) error {
	hour := now.Format("2006010215")
	day := now.Format("20060102")
	for _, b := range []struct {
		name, keep string
	}{{bucketFlood, hour}, {bucketFloodSeat, hour}, {bucketFloodAlert, hour}, {bucketStrangers, hour}, {bucketAutoReplies, day}} {
		names, err := tx.Buckets([]string{b.name})
		if err != nil {
			return err
		}
		for _, n := range names {
			if n < b.keep {
				if err := tx.DeleteBucket([]string{b.name, n}); err != nil {
					return err
				}
			}
		}
	}
	if _, err := tx.PruneSeen(now.Add(-storage.SeenRetention)); err != nil {
		return err
	}
	if _, err := tx.PruneOutbox(now.Add(-outboxRetention)); err != nil {
		return err
	}
	var old []string
	if err := tx.ForEach(bucketFailures, func(k string, v []byte) error {
		var f failureRecord
		if json.Unmarshal(v, &f) == nil && f.At.Before(now.Add(-FailureRetention)) {
			old = append(old, k)
		}
		return nil
	}); err != nil {
		return err
	}
	for _, k := range old {
		if err := tx.Delete(bucketFailures, k); err != nil {
			return err
		}
	}
	return nil
}

// floodNotice answers the first mail over an identified sender's hourly limit (notice), once.
func (m *submission) floodNotice(notice bool, err error) error {
	if err != nil || !notice {
		return err
	}
	return m.replySimple("error", m.env.From, "", map[string]any{"Subject": "too many mails",
		"Problems": []string{fmt.Sprintf("Sortie reads at most %d of your mails an hour; the rest of this hour's are ignored.", m.s.cfg.MaxMailsPerHour)}})
}
