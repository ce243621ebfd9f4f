package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"sortie/mailer/outmail"
)

// The transactional outbox (invariant 2, docs/architecture.md). Mail is written here in the same transaction as the state
// change that caused it; the sender only ever sees committed mail. Layout under the reserved bucket outbox:
//
//	outbox/mail/<id>           → Outgoing (JSON) without the bytes of its parts; id = SeqKey(n), so key
//	                             order is enqueue order
//	outbox/data/<id>/<nnnn>    → the bytes of part nnnn (from 0000) of mail id, written once at Enqueue;
//	                             a file from before parts lacks the bucket until it is opened read-write
//	outbox/pending/<id>        → next attempt, 8 bytes big-endian Unix nanoseconds (0: due now)
//	outbox/failed/<id>         → "" (gave up: failed-permanently)
//	outbox/msgid/<Message-ID>  → id
//	outbox/game/<game>/<id>    → ""
//	outbox/blob/<name>         → the bytes of a part several mails share (OutMail.PartBlobs), kept once
//	outbox/recipe/<name>       → what blob name is to be made from, until it is made (PromiseBlob, PutBlob)
//	outbox/held/<name>/<id>    → "": mail id waits for blob name, and is not pending until it is stored
//
// The pending index holds only what still has to go, so Pending costs the size of the queue, not of the
// history; mail that is sent leaves it in the same transaction that records the sending. The bytes of a
// mail's parts (a report's map picture, ~100 KB) live apart from its record, so that recording an attempt
// or a sending rewrites a record of a few hundred bytes, not the picture, and the JSON never carries it as
// base64.
//
// A blob is made after the commit that queued its mail: the transaction stores a recipe (PromiseBlob), the
// mail waits in held rather than pending, and PutBlob, in a later transaction, stores the bytes, forgets the
// recipe and makes every mail that waited for them pending in one commit. A crash between the two leaves
// the recipe and the held mail; whoever makes blobs finds the recipe (Recipes) after the restart. A mail
// never leaves without its parts, and each is made and sent once.
const (
	outboxData    = "data"
	outboxMail    = "mail"
	outboxPending = "pending"
	outboxFailed  = "failed"
	outboxMsgID   = "msgid"
	outboxGame    = "game"
	outboxBlob    = "blob"
	outboxRecipe  = "recipe"
	outboxHeld    = "held"
)

// Retry policy of MarkFailed: the first retry after RetryFirst, each further one after twice the previous
// wait, never more than RetryMax; once the first failure is GiveUpAfter old, the mail is failed-permanently.
const (
	RetryFirst  = 30 * time.Second
	RetryMax    = time.Hour
	GiveUpAfter = 48 * time.Hour
)

// OutStatus is where an outgoing mail stands.
type OutStatus string

// The statuses of outgoing mail.
const (
	OutPending OutStatus = "pending"
	OutSent    OutStatus = "sent"
	OutFailed  OutStatus = "failed-permanently"
)

// OutMail is a mail to enqueue: the mail itself (outmail.Mail: what is sent, and what the archive shows, both
// made by outmail.Render) and, for the archive and for moderators, the game it belongs to and its kind.
// MessageID is required and stable; Enqueue fills in Created (the mail's Date) with now if it is zero.
type OutMail struct {
	outmail.Mail
	Game string `json:"game,omitempty"` // the game it belongs to; indexed for OutboxByGame
	Kind string `json:"kind,omitempty"` // receipt, report, error, reminder, …
	// PartBlobs names, for each part by index, the blob that holds its bytes ("" or past the end: the
	// part's own Data). A part stored as a blob is kept once however many mails carry it; its Data is
	// left empty at Enqueue, and filled in when the mail is read whole.
	PartBlobs []string `json:"part_blobs,omitempty"`
}

// partBlob is the blob that holds part i's bytes, or "".
func (m OutMail) partBlob(i int) string {
	if i < len(m.PartBlobs) {
		return m.PartBlobs[i]
	}
	return ""
}

// Outgoing is an outbox entry: the mail plus its delivery state.
type Outgoing struct {
	ID string `json:"id"` // the outbox key; stable
	OutMail
	Status       OutStatus `json:"status"`
	Attempts     int       `json:"attempts,omitempty"`     // failed attempts so far
	NextAttempt  time.Time `json:"next_attempt,omitzero"`  // zero: due at once
	FirstFailure time.Time `json:"first_failure,omitzero"` // the 48 h to give up count from here
	LastAttempt  time.Time `json:"last_attempt,omitzero"`  // time of the last failed attempt
	LastError    string    `json:"last_error,omitempty"`   // what the last failed attempt said
	SentAt       time.Time `json:"sent_at,omitzero"`       // when the server accepted it
}

// OutboxStats counts the outbox.
type OutboxStats struct {
	Total    int // everything ever enqueued
	Pending  int // still to be sent, due or waiting for a retry, or held for a blob
	Held     int // pending items waiting for a blob to be made (PromiseBlob), once per blob waited for
	Retrying int // pending items that failed at least once
	Sent     int
	Failed   int // failed-permanently
	// OldestPending is when the oldest pending item was enqueued (zero when nothing is pending): a sender that
	// is stuck shows here first.
	OldestPending time.Time
}

// Permanent wraps err so that MarkFailed gives up on the mail at once (e.g. an SMTP 5xx reply that says the
// address does not exist). MarkFailed also honours any error in the chain with a method Permanent() bool
// that returns true, so the mailer need not import this package.
func Permanent(err error) error { return permanentError{err} }

type permanentError struct{ err error }

func (p permanentError) Error() string   { return p.err.Error() }
func (p permanentError) Unwrap() error   { return p.err }
func (p permanentError) Permanent() bool { return true }

func isPermanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

func createOutboxBuckets(btx *bolt.Tx) error {
	out := btx.Bucket([]byte(BucketOutbox))
	for _, name := range []string{outboxMail, outboxData, outboxPending, outboxFailed, outboxMsgID, outboxGame, outboxBlob, outboxRecipe, outboxHeld} {
		if _, err := out.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s/%s: %w", BucketOutbox, name, err)
		}
	}
	return nil
}

// outbox gives the outbox's sub-buckets for this transaction, with the append-only fill factor set on those
// whose keys are ids. A nil result means the file has no outbox (only possible read-only on a foreign file).
type outboxBuckets struct {
	mail, data, pending, failed, msgid, game *bolt.Bucket
	// blob, recipe and held are nil in a file from before blobs that is open read-only.
	blob, recipe, held *bolt.Bucket
}

func (tx *Tx) outbox() (outboxBuckets, error) {
	out := tx.tx.Bucket([]byte(BucketOutbox))
	if out == nil {
		return outboxBuckets{}, fmt.Errorf("storage: %w: no %s bucket", ErrNotSortie, BucketOutbox)
	}
	ob := outboxBuckets{
		mail:    out.Bucket([]byte(outboxMail)),
		data:    out.Bucket([]byte(outboxData)),
		pending: out.Bucket([]byte(outboxPending)),
		failed:  out.Bucket([]byte(outboxFailed)),
		msgid:   out.Bucket([]byte(outboxMsgID)),
		game:    out.Bucket([]byte(outboxGame)),
		blob:    out.Bucket([]byte(outboxBlob)),
		recipe:  out.Bucket([]byte(outboxRecipe)),
		held:    out.Bucket([]byte(outboxHeld)),
	}
	if ob.mail == nil || ob.pending == nil || ob.failed == nil || ob.msgid == nil || ob.game == nil {
		return outboxBuckets{}, fmt.Errorf("storage: %w: incomplete %s bucket", ErrNotSortie, BucketOutbox)
	}
	if tx.tx.Writable() {
		ob.mail.FillPercent = appendFillPercent
		if ob.data == nil || ob.blob == nil || ob.recipe == nil || ob.held == nil { // Open creates them in every file it opens read-write
			return outboxBuckets{}, fmt.Errorf("storage: %w: incomplete %s bucket", ErrNotSortie, BucketOutbox)
		}
		ob.data.FillPercent = appendFillPercent
		ob.pending.FillPercent = appendFillPercent
		ob.failed.FillPercent = appendFillPercent
	}
	return ob, nil
}

// Enqueue puts a mail in the outbox as part of this transaction and returns its id. Nothing is sent unless the
// transaction commits. MessageID is required (stable, so a resend after a crash is recognisable); a second
// mail with the same MessageID is refused with ErrDuplicateMessageID and the id of the first. A part named
// in PartBlobs must have its blob stored or promised (PromiseBlob); while one is only promised, the mail is
// held, and PutBlob makes it pending.
func (tx *Tx) Enqueue(m OutMail) (string, error) {
	m.MessageID = NormalizeMessageID(m.MessageID)
	m.InReplyTo = NormalizeMessageID(m.InReplyTo)
	if err := validateMail(m); err != nil {
		return "", err
	}
	ob, err := tx.outbox()
	if err != nil {
		return "", err
	}
	if id := ob.msgid.Get([]byte(m.MessageID)); id != nil {
		return string(id), fmt.Errorf("storage: enqueue %q: %w (id %s)", m.MessageID, ErrDuplicateMessageID, id)
	}
	n, err := ob.mail.NextSequence()
	if err != nil {
		return "", fmt.Errorf("storage: enqueue: %w", err)
	}
	if m.Created.IsZero() {
		m.Created = time.Now()
	}
	m.Created = m.Created.UTC()
	rec := Outgoing{ID: SeqKey(n), OutMail: m, Status: OutPending}
	if err := putOutgoing(ob, rec); err != nil {
		return "", err
	}
	id := []byte(rec.ID)
	held := false
	for i, p := range m.Parts {
		if name := m.partBlob(i); name != "" {
			if ob.blob.Get([]byte(name)) != nil {
				continue
			}
			if ob.recipe.Get([]byte(name)) == nil {
				return "", fmt.Errorf("storage: enqueue: %w: part %d: blob %q is neither stored nor promised", ErrInvalidMail, i+1, name)
			}
			w, err := ob.held.CreateBucketIfNotExists([]byte(name))
			if err != nil {
				return "", fmt.Errorf("storage: enqueue: part %d: %w", i+1, err)
			}
			if err := w.Put(id, []byte{}); err != nil {
				return "", fmt.Errorf("storage: enqueue: part %d: %w", i+1, err)
			}
			held = true
			continue
		}
		if err := ob.data.Put(partKey(rec.ID, i), p.Data); err != nil {
			return "", fmt.Errorf("storage: enqueue: part %d: %w", i+1, err)
		}
	}
	if !held {
		if err := ob.pending.Put(id, nanos(time.Time{})); err != nil {
			return "", fmt.Errorf("storage: enqueue: %w", err)
		}
	}
	if err := ob.msgid.Put([]byte(m.MessageID), id); err != nil {
		return "", fmt.Errorf("storage: enqueue: %w", err)
	}
	if m.Game != "" {
		g, err := ob.game.CreateBucketIfNotExists([]byte(m.Game))
		if err != nil {
			return "", fmt.Errorf("storage: enqueue: game index %q: %w", m.Game, err)
		}
		g.FillPercent = appendFillPercent
		if err := g.Put(id, []byte{}); err != nil {
			return "", fmt.Errorf("storage: enqueue: %w", err)
		}
	}
	if !tx.outboxSignal {
		tx.outboxSignal = true
		tx.OnCommit(tx.db.signalOutbox)
	}
	return rec.ID, nil
}

func validateMail(m OutMail) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("storage: enqueue: %w: %s", ErrInvalidMail, fmt.Sprintf(format, args...))
	}
	if strings.TrimSpace(m.To) == "" {
		return bad("no recipient")
	}
	if m.MessageID == "" {
		return bad("no Message-ID (the outbox needs a stable one)")
	}
	// A line break in a header field would let text (a player's, say) add headers of its own.
	for _, f := range [...]struct{ name, v string }{
		{"From", m.From}, {"FromName", m.FromName}, {"To", m.To}, {"ToName", m.ToName}, {"ReplyTo", m.ReplyTo}, {"Subject", m.Subject},
		{"MessageID", m.MessageID}, {"InReplyTo", m.InReplyTo},
	} {
		if strings.ContainsAny(f.v, "\r\n") {
			return bad("line break in %s", f.name)
		}
	}
	for k, v := range m.Headers {
		if k == "" || strings.ContainsAny(k, ": \t\r\n") {
			return bad("header name %q", k)
		}
		if strings.ContainsAny(v, "\r\n") {
			return bad("line break in header %s", k)
		}
	}
	check := m.Mail
	if len(m.PartBlobs) > 0 {
		if len(m.PartBlobs) > len(m.Parts) {
			return bad("%d part blobs for %d parts", len(m.PartBlobs), len(m.Parts))
		}
		check.Parts = slices.Clone(m.Parts)
		for i := range check.Parts {
			if name := m.partBlob(i); name != "" {
				if len(check.Parts[i].Data) > 0 {
					return bad("part %d has bytes of its own and blob %q", i+1, name)
				}
				if err := checkBlobName(name); err != nil {
					return bad("part %d: %v", i+1, err)
				}
				check.Parts[i].Data = []byte{0} // the blob's bytes, for the check's sake
			}
		}
	}
	if err := outmail.CheckParts(check); err != nil {
		return bad("%v", err)
	}
	return nil
}

// OutboxItem returns one outbox entry by id, with its parts.
func (tx *Tx) OutboxItem(id string) (Outgoing, bool, error) {
	ob, err := tx.outbox()
	if err != nil {
		return Outgoing{}, false, err
	}
	return getMail(ob, id)
}

// OutboxByGame lists every outbox entry of a game with its parts, whatever its status, in enqueue order (for
// the archive).
func (tx *Tx) OutboxByGame(game string) ([]Outgoing, error) {
	ob, err := tx.outbox()
	if err != nil {
		return nil, err
	}
	g := ob.game.Bucket([]byte(game))
	if game == "" || g == nil {
		return nil, nil
	}
	var list []Outgoing
	c := g.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		rec, ok, err := getMail(ob, string(k))
		if err != nil {
			return nil, err
		}
		if ok {
			list = append(list, rec)
		}
	}
	return list, nil
}

// Pending returns up to limit mails due at now (limit <= 0: all), oldest first, with their parts. Mail waiting for a retry
// whose time has not come is left out; sent and failed-permanently mail never appears.
func (db *DB) Pending(now time.Time, limit int) ([]Outgoing, error) {
	var list []Outgoing
	err := db.View(func(tx *Tx) error {
		ob, err := tx.outbox()
		if err != nil {
			return err
		}
		due := now.UnixNano()
		c := ob.pending.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if next := int64(binary.BigEndian.Uint64(v)); next != 0 && next > due {
				continue
			}
			rec, ok, err := getMail(ob, string(k))
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("storage: outbox: pending id %s has no mail", k)
			}
			list = append(list, rec)
			if limit > 0 && len(list) >= limit {
				break
			}
		}
		return nil
	})
	return list, err
}

// MarkSent records that the SMTP server accepted the mail at at. It leaves the pending index in the same
// commit, so it is never returned by Pending again. Marking a sent mail again changes nothing; marking a
// failed-permanently one (the sender tried anyway) records the success.
func (db *DB) MarkSent(id string, at time.Time) error { return db.MarkSentMany([]string{id}, at) }

// MarkSentMany records several mails as sent in one transaction (one disk sync for all): the sender
// records what the server accepted while the next message is on the wire. Like MarkSent it is
// idempotent, and an unknown id fails the whole call.
func (db *DB) MarkSentMany(ids []string, at time.Time) error {
	return db.Update(func(tx *Tx) error {
		ob, err := tx.outbox()
		if err != nil {
			return err
		}
		for _, id := range ids {
			rec, ok, err := getOutgoing(ob, id)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("storage: mark sent %q: %w", id, ErrNotFound)
			}
			if rec.Status == OutSent {
				continue
			}
			rec.Status = OutSent
			rec.SentAt = at.UTC()
			rec.NextAttempt = time.Time{}
			if err := ob.pending.Delete([]byte(id)); err != nil {
				return err
			}
			if err := ob.failed.Delete([]byte(id)); err != nil {
				return err
			}
			if err := putOutgoing(ob, rec); err != nil {
				return err
			}
		}
		return nil
	})
}

// MarkFailed records a failed attempt at at and schedules the next one: RetryFirst after the first failure,
// doubling up to RetryMax. When the first failure is GiveUpAfter old, or sendErr is permanent (see
// Permanent), the mail becomes failed-permanently and leaves the queue. Failures reported for a mail that is
// already sent or failed-permanently change nothing.
func (db *DB) MarkFailed(id string, sendErr error, at time.Time) error {
	return db.Update(func(tx *Tx) error {
		ob, err := tx.outbox()
		if err != nil {
			return err
		}
		rec, ok, err := getOutgoing(ob, id)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("storage: mark failed %q: %w", id, ErrNotFound)
		}
		if rec.Status != OutPending {
			return nil
		}
		at = at.UTC()
		rec.Attempts++
		rec.LastAttempt = at
		rec.LastError = "unknown error"
		if sendErr != nil {
			rec.LastError = sendErr.Error()
		}
		if rec.FirstFailure.IsZero() {
			rec.FirstFailure = at
		}
		if isPermanent(sendErr) || at.Sub(rec.FirstFailure) >= GiveUpAfter {
			rec.Status = OutFailed
			rec.NextAttempt = time.Time{}
			if err := ob.pending.Delete([]byte(id)); err != nil {
				return err
			}
			if err := ob.failed.Put([]byte(id), []byte{}); err != nil {
				return err
			}
			return putOutgoing(ob, rec)
		}
		rec.NextAttempt = at.Add(Backoff(rec.Attempts))
		if err := ob.pending.Put([]byte(id), nanos(rec.NextAttempt)); err != nil {
			return err
		}
		return putOutgoing(ob, rec)
	})
}

// Backoff is the wait after the n-th failed attempt (n >= 1): 30 s, 1 min, 2 min, … capped at 1 h.
func Backoff(n int) time.Duration {
	d := RetryFirst
	for i := 1; i < n && d < RetryMax; i++ {
		d *= 2
	}
	return min(d, RetryMax)
}

// Requeue puts a failed-permanently (or waiting) mail back in the queue, due at once, with a fresh retry
// budget: for a moderator who fixed the cause. It reports false for a mail already sent, which it leaves alone.
func (db *DB) Requeue(id string) (bool, error) {
	requeued := false
	err := db.Update(func(tx *Tx) error {
		ob, err := tx.outbox()
		if err != nil {
			return err
		}
		rec, ok, err := getOutgoing(ob, id)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("storage: requeue %q: %w", id, ErrNotFound)
		}
		if rec.Status == OutSent {
			return nil
		}
		rec.Status = OutPending
		rec.Attempts = 0
		rec.NextAttempt = time.Time{}
		rec.FirstFailure = time.Time{}
		if err := ob.failed.Delete([]byte(id)); err != nil {
			return err
		}
		requeued = true
		if heldOn(ob, rec) {
			return putOutgoing(ob, rec) // still waits for a blob: PutBlob makes it pending
		}
		if err := ob.pending.Put([]byte(id), nanos(time.Time{})); err != nil {
			return err
		}
		if !tx.outboxSignal {
			tx.outboxSignal = true
			tx.OnCommit(db.signalOutbox)
		}
		return putOutgoing(ob, rec)
	})
	return requeued && err == nil, err
}

// OutboxStats counts the outbox in one read transaction.
func (db *DB) OutboxStats() (OutboxStats, error) {
	var st OutboxStats
	err := db.View(func(tx *Tx) error {
		ob, err := tx.outbox()
		if err != nil {
			return err
		}
		st.Total = ob.mail.Stats().KeyN
		c := ob.pending.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if st.Pending == 0 {
				rec, ok, err := getOutgoing(ob, string(k))
				if err != nil {
					return err
				}
				if ok {
					st.OldestPending = rec.Created
				}
			}
			st.Pending++
			if binary.BigEndian.Uint64(v) != 0 {
				st.Retrying++
			}
		}
		if ob.held != nil {
			err := ob.held.ForEachBucket(func(k []byte) error {
				st.Held += ob.held.Bucket(k).Stats().KeyN
				return nil
			})
			if err != nil {
				return err
			}
			st.Pending += st.Held
		}
		st.Failed = ob.failed.Stats().KeyN
		st.Sent = st.Total - st.Pending - st.Failed
		return nil
	})
	return st, err
}

// getOutgoing reads an outbox record: the mail and its delivery state, its parts without their bytes
// (enough to record an attempt and put it back with putOutgoing). getMail adds the bytes.
func getOutgoing(ob outboxBuckets, id string) (Outgoing, bool, error) {
	var rec Outgoing
	v := ob.mail.Get([]byte(id))
	if v == nil {
		return rec, false, nil
	}
	if err := json.Unmarshal(v, &rec); err != nil {
		return rec, true, fmt.Errorf("storage: outbox %s: %w", id, err)
	}
	return rec, true, nil
}

// getMail reads an outbox record whole: getOutgoing and the bytes of every part.
func getMail(ob outboxBuckets, id string) (Outgoing, bool, error) {
	rec, ok, err := getOutgoing(ob, id)
	if err != nil || !ok || len(rec.Parts) == 0 {
		return rec, ok, err
	}
	parts := make([]outmail.Part, len(rec.Parts))
	for i, p := range rec.Parts {
		if name := rec.partBlob(i); name != "" {
			// A blob not yet made leaves the part empty: the mail is held (Enqueue), never pending.
			if ob.blob != nil {
				if v := ob.blob.Get([]byte(name)); v != nil {
					p.Data = append([]byte(nil), v...)
				}
			}
			parts[i] = p
			continue
		}
		var v []byte
		if ob.data != nil {
			v = ob.data.Get(partKey(id, i))
		}
		if v == nil {
			return rec, true, fmt.Errorf("storage: outbox %s: part %d has no data", id, i+1)
		}
		p.Data = append([]byte(nil), v...) // bbolt's slice is only valid in the transaction
		parts[i] = p
	}
	rec.Parts = parts
	return rec, true, nil
}

// putOutgoing writes an outbox record, without the bytes of its parts (Enqueue writes those once).
func putOutgoing(ob outboxBuckets, rec Outgoing) error {
	if len(rec.Parts) > 0 {
		parts := make([]outmail.Part, len(rec.Parts))
		for i, p := range rec.Parts {
			p.Data = nil
			parts[i] = p
		}
		rec.Parts = parts
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("storage: outbox %s: %w", rec.ID, err)
	}
	if err := ob.mail.Put([]byte(rec.ID), data); err != nil {
		return fmt.Errorf("storage: outbox %s: %w", rec.ID, err)
	}
	return nil
}

// partKey is where the bytes of part i of mail id are: under the mail's id, in part order.
func partKey(id string, i int) []byte { return fmt.Appendf(nil, "%s/%04d", id, i) }

// deleteParts removes the bytes of a mail's parts (PruneOutbox).
func deleteParts(ob outboxBuckets, rec Outgoing) error {
	if ob.data == nil {
		return nil
	}
	for i := range rec.Parts {
		if rec.partBlob(i) != "" {
			continue // shared: a blob outlives the mails that carry it
		}
		if err := ob.data.Delete(partKey(rec.ID, i)); err != nil {
			return err
		}
	}
	return nil
}

// nanos encodes a time for the pending index; the zero time is 0 (due at once).
func nanos(t time.Time) []byte {
	b := make([]byte, 8)
	if !t.IsZero() {
		binary.BigEndian.PutUint64(b, uint64(t.UnixNano()))
	}
	return b
}
