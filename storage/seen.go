package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Layout of the reserved buckets seen and cursor:
//
//	seen/msgid/<scope>\x00<Message-ID>              → SeenRecord (JSON)
//	seen/uid/<mailbox>\x00<uidvalidity:%08x><uid:%08x> → SeenRecord (JSON)
//	cursor/<mailbox>                                 → {"uid_validity":…,"last_uid":…}
//
// A message is known by both its Message-ID and where it was fetched from (a UID means nothing without its
// UIDVALIDITY, and a resent mail keeps its Message-ID): the same mail resent by a player has a new
// UID, and a mail without a Message-ID still has a UID.
//
// A Message-ID is chosen by the sender, so anyone can send a mail under the Message-ID a player's mail
// program will use next. It therefore counts only within a scope, who the mail was found to speak for (a
// seat of a game, a game's moderator, or an unidentified sender's address): a mail can be a duplicate only
// of an earlier one in its own scope. The UID index says where the server delivered a mail, which no
// sender chooses: a mail fetched again from the same place (after a crash between the commit and the
// filing) is the same mail, whoever sent it.
const (
	seenByMsgID = "msgid"
	seenByUID   = "uid"
)

// SeenRecord is what Sortie remembers of a message it has handled (invariant 1, docs/architecture.md).
type SeenRecord struct {
	MessageID   string    `json:"message_id,omitempty"` // filled in by MarkSeen, without angle brackets
	Mailbox     string    `json:"mailbox,omitempty"`
	UIDValidity uint32    `json:"uid_validity,omitempty"`
	UID         uint32    `json:"uid,omitempty"`
	At          time.Time `json:"at,omitzero"`       // when it was handled; MarkSeen fills in now if zero
	Outcome     string    `json:"outcome,omitempty"` // e.g. accepted, refused, ignored, failed: where the mail was filed
	// Scope is who the mail was found to speak for (see the layout above); "" when it was not read that
	// far (a mail set aside unread, say), which leaves it out of the Message-ID index.
	Scope string `json:"scope,omitempty"`
}

func createSeenBuckets(btx *bolt.Tx) error {
	seen := btx.Bucket([]byte(BucketSeen))
	for _, name := range []string{seenByMsgID, seenByUID} {
		if _, err := seen.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s/%s: %w", BucketSeen, name, err)
		}
	}
	return nil
}

// NormalizeMessageID trims white space and the angle brackets, so "<a@b>" and "a@b" are the same message.
// Case is kept: the left part of a Message-ID is case-sensitive.
func NormalizeMessageID(id string) string {
	id = strings.TrimSpace(id)
	id = strings.TrimPrefix(id, "<")
	id = strings.TrimSuffix(id, ">")
	return strings.TrimSpace(id)
}

// MaxKeyLen is the longest header value (a Message-ID, an address) used as a key as it is; a longer one, or one
// with a control character (a bare CR, say), is replaced by KeyOf with a hash of it. bbolt refuses keys over
// 32 KiB, and a header used as a key must never make a mail fail.
const MaxKeyLen = 512

// KeyOf returns v itself when it is short and printable, else "sha256:" and the hex digest of v: a key that
// always fits, and the same for the same value.
func KeyOf(v string) string {
	if len(v) <= MaxKeyLen && !strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return v
	}
	h := sha256.Sum256([]byte(v))
	return "sha256:" + hex.EncodeToString(h[:])
}

// seenKey is the key of a normalised Message-ID within a scope. KeyOf never leaves a NUL in a key, so the
// scope and the Message-ID cannot run into each other.
func seenKey(scope, id string) []byte { return []byte(KeyOf(scope) + "\x00" + KeyOf(id)) }

// clip shortens a value kept for the record (not a key) to at most n bytes.
func clip(v string, n int) string {
	if len(v) <= n {
		return v
	}
	return v[:n] + "…"
}

func uidKey(mailbox string, uidValidity, uid uint32) []byte {
	return fmt.Appendf(nil, "%s\x00%08x%08x", KeyOf(mailbox), uidValidity, uid)
}

// Seen looks a message up by its Message-ID within scope (SeenRecord.Scope): a mail of another scope under
// the same Message-ID is not this one. An empty Message-ID or scope is never seen.
func (tx *Tx) Seen(scope, messageID string) (SeenRecord, bool, error) {
	id := NormalizeMessageID(messageID)
	if id == "" || scope == "" {
		return SeenRecord{}, false, nil
	}
	return tx.seenGet(seenByMsgID, seenKey(scope, id))
}

// SeenUID looks a message up by where it was fetched from.
func (tx *Tx) SeenUID(mailbox string, uidValidity, uid uint32) (SeenRecord, bool, error) {
	return tx.seenGet(seenByUID, uidKey(mailbox, uidValidity, uid))
}

func (tx *Tx) seenGet(index string, key []byte) (SeenRecord, bool, error) {
	var rec SeenRecord
	seen := tx.tx.Bucket([]byte(BucketSeen))
	if seen == nil {
		return rec, false, nil
	}
	b := seen.Bucket([]byte(index))
	if b == nil {
		return rec, false, nil
	}
	v := b.Get(key)
	if v == nil {
		return rec, false, nil
	}
	if err := json.Unmarshal(v, &rec); err != nil {
		return rec, true, fmt.Errorf("storage: seen record %q: %w", key, err)
	}
	return rec, true, nil
}

// MarkSeen records that a message has been handled, under its Message-ID within rec.Scope when both are
// given and, when rec names a mailbox and a UID, under (mailbox, UIDVALIDITY, UID) too. Marking again
// overwrites (e.g. a new outcome). It needs at least one of the two keys.
func (tx *Tx) MarkSeen(messageID string, rec SeenRecord) error {
	id := NormalizeMessageID(messageID)
	byUID := rec.Mailbox != "" && rec.UID != 0
	byID := id != "" && rec.Scope != ""
	if !byID && !byUID {
		return fmt.Errorf("storage: mark seen: %w: neither a Message-ID with its scope nor a mailbox and UID", ErrBadPath)
	}
	key := seenKey(rec.Scope, id) // of the whole scope; the record keeps it clipped
	rec.MessageID = clip(id, MaxKeyLen)
	rec.Scope = clip(rec.Scope, MaxKeyLen)
	if rec.At.IsZero() {
		rec.At = time.Now()
	}
	rec.At = rec.At.UTC()
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("storage: mark seen: %w", err)
	}
	seen := tx.tx.Bucket([]byte(BucketSeen))
	if byID {
		if err := seen.Bucket([]byte(seenByMsgID)).Put(key, data); err != nil {
			return fmt.Errorf("storage: mark seen %q: %w", clip(id, 80), err)
		}
	}
	if byUID {
		if err := seen.Bucket([]byte(seenByUID)).Put(uidKey(rec.Mailbox, rec.UIDValidity, rec.UID), data); err != nil {
			return fmt.Errorf("storage: mark seen %s/%d/%d: %w", rec.Mailbox, rec.UIDValidity, rec.UID, err)
		}
	}
	return nil
}

type cursorRecord struct {
	UIDValidity uint32 `json:"uid_validity"`
	LastUID     uint32 `json:"last_uid"`
}

// Cursor returns the intake's place in mailbox: its UIDVALIDITY and the highest UID handled; 0, 0 if none.
func (tx *Tx) Cursor(mailbox string) (uidValidity, lastUID uint32, err error) {
	if mailbox == "" {
		return 0, 0, fmt.Errorf("storage: cursor: %w: empty mailbox name", ErrBadPath)
	}
	b := tx.tx.Bucket([]byte(BucketCursor))
	if b == nil {
		return 0, 0, nil
	}
	v := b.Get([]byte(mailbox))
	if v == nil {
		return 0, 0, nil
	}
	var c cursorRecord
	if err := json.Unmarshal(v, &c); err != nil {
		return 0, 0, fmt.Errorf("storage: cursor %q: %w", mailbox, err)
	}
	return c.UIDValidity, c.LastUID, nil
}

// SetCursor stores the intake's place in mailbox. When the server reports a new UIDVALIDITY, the intake
// stores it with lastUID 0 (or where it resumed); this method keeps whatever it is given.
func (tx *Tx) SetCursor(mailbox string, uidValidity, lastUID uint32) error {
	if mailbox == "" {
		return fmt.Errorf("storage: set cursor: %w: empty mailbox name", ErrBadPath)
	}
	data, err := json.Marshal(cursorRecord{UIDValidity: uidValidity, LastUID: lastUID})
	if err != nil {
		return err
	}
	if err := tx.tx.Bucket([]byte(BucketCursor)).Put([]byte(mailbox), data); err != nil {
		return fmt.Errorf("storage: set cursor %q: %w", mailbox, err)
	}
	return nil
}

// LoadCursor is Cursor in its own transaction (mailer.CursorStore).
func (db *DB) LoadCursor(mailbox string) (uidValidity, lastUID uint32, err error) {
	err = db.View(func(tx *Tx) error {
		uidValidity, lastUID, err = tx.Cursor(mailbox)
		return err
	})
	return uidValidity, lastUID, err
}

// SaveCursor is SetCursor in its own transaction (mailer.CursorStore).
func (db *DB) SaveCursor(mailbox string, uidValidity, lastUID uint32) error {
	return db.Update(func(tx *Tx) error {
		return tx.SetCursor(mailbox, uidValidity, lastUID)
	})
}
