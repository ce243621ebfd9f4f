package storage

import (
	"encoding/json"
	"time"
)

// Pruning. The records of handled mail grow with every mail a stranger sends; the daemon's clock prunes them
// so that a steady stream of mail leaves the file at a steady size (bbolt reuses the freed pages).

// SeenRetention is how long a handled Message-ID is remembered: far longer than any mail server holds a mail
// for redelivery (days), so a duplicate delivery is still recognised, and short enough that the record of
// a stranger's flood does not stay forever.
const SeenRetention = 30 * 24 * time.Hour

// PruneSeen forgets handled messages (both indexes) recorded before cutoff. It returns how many records it
// removed.
func (tx *Tx) PruneSeen(cutoff time.Time) (int, error) {
	seen := tx.tx.Bucket([]byte(BucketSeen))
	if seen == nil {
		return 0, nil
	}
	n := 0
	for _, name := range []string{seenByMsgID, seenByUID} {
		b := seen.Bucket([]byte(name))
		if b == nil {
			continue
		}
		c := b.Cursor()
		for k, v := c.First(); k != nil; {
			var rec SeenRecord
			if err := json.Unmarshal(v, &rec); err == nil && !rec.At.IsZero() && rec.At.Before(cutoff) {
				kc := append([]byte(nil), k...)
				if err := c.Delete(); err != nil {
					return n, err
				}
				n++
				k, v = c.Seek(kc) // the key after the deleted one
				continue
			}
			k, v = c.Next()
		}
	}
	return n, nil
}

// PruneOutbox removes outgoing mail that belongs to no game (refusals and notices to strangers) once it is
// sent or failed-permanently and was created before cutoff. Mail of a game is kept: it is part of the game's
// archive.
func (tx *Tx) PruneOutbox(cutoff time.Time) (int, error) {
	ob, err := tx.outbox()
	if err != nil {
		return 0, err
	}
	var ids []Outgoing
	c := ob.mail.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var rec Outgoing
		if err := json.Unmarshal(v, &rec); err != nil {
			continue
		}
		if rec.Game == "" && rec.Status != OutPending && rec.Created.Before(cutoff) {
			ids = append(ids, rec)
		}
	}
	for _, rec := range ids {
		id := []byte(rec.ID)
		if err := ob.mail.Delete(id); err != nil {
			return 0, err
		}
		if err := ob.failed.Delete(id); err != nil {
			return 0, err
		}
		if err := deleteParts(ob, rec); err != nil {
			return 0, err
		}
		if got := ob.msgid.Get([]byte(rec.MessageID)); got != nil && string(got) == rec.ID {
			if err := ob.msgid.Delete([]byte(rec.MessageID)); err != nil {
				return 0, err
			}
		}
	}
	return len(ids), nil
}

// OutboxByMessageID returns the outgoing mail with this Message-ID (angle brackets or not), if the outbox
// still holds it: how Sortie recognises a reply to one of its own mails.
func (tx *Tx) OutboxByMessageID(messageID string) (Outgoing, bool, error) {
	id := NormalizeMessageID(messageID)
	if id == "" || len(id) > MaxKeyLen {
		return Outgoing{}, false, nil
	}
	ob, err := tx.outbox()
	if err != nil {
		return Outgoing{}, false, err
	}
	key := ob.msgid.Get([]byte(id))
	if key == nil {
		return Outgoing{}, false, nil
	}
	return getMail(ob, string(key))
}
