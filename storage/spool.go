package storage

// The intake's spool: mail fetched from a mailbox and held here, durably, until the handler has committed
// it. With a spool the intake can take a whole backlog out of the inbox with one MOVE as soon as it has
// arrived, instead of after each batch's commit (mailer.Spool, docs/architecture.md).
//
// Keys are the mailbox, a zero byte, then the UIDVALIDITY and the UID as eight hex digits each, so a
// mailbox's messages sort by UIDVALIDITY, then UID.

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

func spoolKey(mailbox string, uidValidity, uid uint32) []byte {
	k := make([]byte, 0, len(mailbox)+17)
	k = append(k, mailbox...)
	k = append(k, 0)
	return hex.AppendEncode(k, binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uidValidity), uid))
}

// SpoolMessages holds the messages uids (with their raw bytes, raws[i] for uids[i]) of mailbox and sets
// the mailbox's cursor to (uidValidity, lastUID), in one transaction synced to disk: once it returns, the
// messages may leave the mailbox. A lastUID of 0 leaves the cursor as it is.
func (db *DB) SpoolMessages(mailbox string, uidValidity uint32, uids []uint32, raws [][]byte, lastUID uint32) error {
	if mailbox == "" {
		return fmt.Errorf("storage: spool: %w: empty mailbox name", ErrBadPath)
	}
	if len(uids) != len(raws) {
		return fmt.Errorf("storage: spool: %d UIDs and %d messages", len(uids), len(raws))
	}
	return db.Update(func(tx *Tx) error {
		b := tx.tx.Bucket([]byte(BucketSpool))
		for i, uid := range uids {
			if err := b.Put(spoolKey(mailbox, uidValidity, uid), raws[i]); err != nil {
				return fmt.Errorf("storage: spool %s UID %d: %w", mailbox, uid, err)
			}
		}
		if lastUID == 0 {
			return nil
		}
		return tx.SetCursor(mailbox, uidValidity, lastUID)
	})
}

// Spooled calls fn for each message held for mailbox, by UIDVALIDITY then UID, with a copy of its bytes.
// It stops at fn's first error and returns it.
func (db *DB) Spooled(mailbox string, fn func(uidValidity, uid uint32, raw []byte) error) error {
	if mailbox == "" {
		return fmt.Errorf("storage: spooled: %w: empty mailbox name", ErrBadPath)
	}
	prefix := append([]byte(mailbox), 0)
	return db.View(func(tx *Tx) error {
		b := tx.tx.Bucket([]byte(BucketSpool))
		if b == nil { // a file opened read-only before the spool existed
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			ids, err := hex.DecodeString(string(k[len(prefix):]))
			if err != nil || len(ids) != 8 {
				return fmt.Errorf("storage: spool key %q: %w", k, ErrCorrupt)
			}
			if err := fn(binary.BigEndian.Uint32(ids), binary.BigEndian.Uint32(ids[4:]), bytes.Clone(v)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Unspool lets go of messages of mailbox once they are handled (committed by the handler), in one
// transaction. UIDs not held are ignored.
func (db *DB) Unspool(mailbox string, uidValidity uint32, uids []uint32) error {
	if mailbox == "" {
		return fmt.Errorf("storage: unspool: %w: empty mailbox name", ErrBadPath)
	}
	if len(uids) == 0 {
		return nil
	}
	return db.Update(func(tx *Tx) error {
		b := tx.tx.Bucket([]byte(BucketSpool))
		for _, uid := range uids {
			if err := b.Delete(spoolKey(mailbox, uidValidity, uid)); err != nil {
				return fmt.Errorf("storage: unspool %s UID %d: %w", mailbox, uid, err)
			}
		}
		return nil
	})
}
