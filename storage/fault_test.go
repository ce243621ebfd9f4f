package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"sortie/mailer/outmail"
)

func TestTransient(t *testing.T) {
	transient := []error{
		&fs.PathError{Op: "write", Path: "/x/sortie.db", Err: syscall.ENOSPC},
		fmt.Errorf("commit: %w", syscall.EIO),
		fmt.Errorf("storage: open: %w", ErrLocked),
		berrors.ErrTimeout, berrors.ErrDatabaseNotOpen, berrors.ErrTxClosed,
		&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED},
	}
	for _, err := range transient {
		if !Transient(err) {
			t.Errorf("%v should be transient", err)
		}
	}
	permanent := []error{
		berrors.ErrKeyTooLarge, berrors.ErrValueTooLarge, ErrDuplicateMessageID, ErrInvalidMail, ErrBadPath,
		errors.New("templates: refusal: index out of range"), fmt.Errorf("wrapped: %w", berrors.ErrKeyTooLarge),
	}
	for _, err := range permanent {
		if Transient(err) {
			t.Errorf("%v should be permanent", err)
		}
	}
	if Transient(nil) {
		t.Error("nil")
	}
}

// Transient classifies the errors bbolt itself returns, not only the variables it exports: the ones a real
// bbolt database gives for a closed database, a finished transaction, a write to a read-only file and a key
// over its limit.
func TestTransientOnBboltsOwnErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bolt.db")
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	keyErr := bdb.Update(func(btx *bolt.Tx) error {
		b, err := btx.CreateBucketIfNotExists([]byte("b"))
		if err != nil {
			return err
		}
		return b.Put(make([]byte, bolt.MaxKeySize+1), []byte("v"))
	})
	tx, err := bdb.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	txErr := tx.Rollback()
	if err := bdb.Close(); err != nil {
		t.Fatal(err)
	}
	_, closedErr := bdb.Begin(false)

	ro, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	roErr := ro.Update(func(*bolt.Tx) error { return nil })

	for _, c := range []struct {
		name      string
		err, want error
		transient bool
	}{
		{"key too large", keyErr, berrors.ErrKeyTooLarge, false},
		{"tx closed", txErr, berrors.ErrTxClosed, true},
		{"database not open", closedErr, berrors.ErrDatabaseNotOpen, true},
		{"read-only", roErr, berrors.ErrDatabaseReadOnly, true},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: bbolt returned %v, not %v", c.name, c.err, c.want)
		}
		if got := Transient(fmt.Errorf("wrapped: %w", c.err)); got != c.transient {
			t.Errorf("%s: Transient(%v) = %v, want %v", c.name, c.err, got, c.transient)
		}
	}
}

// A Message-ID over bbolt's 32 KiB key limit, or with a bare CR, is remembered and recognised like any
// other (it used to fail the mail's transaction with "key too large", for ever).
func TestSeenTakesAnyMessageID(t *testing.T) {
	db := openTemp(t)
	ids := []string{strings.Repeat("x", 40<<10) + "@evil.test", "bare\rcr@evil.test", "nul\x00@evil.test", "plain@evil.test"}
	mustUpdate(t, db, func(tx *Tx) error {
		for i, id := range ids {
			if err := tx.MarkSeen(id, SeenRecord{Mailbox: strings.Repeat("M", 40<<10), UIDValidity: 1, UID: uint32(i + 1), Outcome: "refused", Scope: "from:" + id}); err != nil {
				return err
			}
		}
		return nil
	})
	mustView(t, db, func(tx *Tx) error {
		for _, id := range ids {
			rec, ok, err := tx.Seen("from:"+id, id)
			if err != nil || !ok || rec.Outcome != "refused" || len(rec.MessageID) > MaxKeyLen+8 {
				t.Errorf("%.20q: %v %v %d", id, ok, err, len(rec.MessageID))
			}
		}
		if _, ok, _ := tx.Seen("from:bare\rcr@evil.test2", "bare\rcr@evil.test2"); ok {
			t.Error("a different Message-ID is not seen")
		}
		return nil
	})
	if KeyOf("plain@evil.test") != "plain@evil.test" {
		t.Error("a short printable key is kept as it is")
	}
}

func TestPruneSeenAndOutbox(t *testing.T) {
	db := openTemp(t)
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	mustUpdate(t, db, func(tx *Tx) error {
		for i := range 100 {
			at := now.Add(time.Duration(i) * 24 * time.Hour / 2)
			if err := tx.MarkSeen(fmt.Sprintf("m%03d", i), SeenRecord{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), At: at, Scope: "seat:g1/alice"}); err != nil {
				return err
			}
			game := ""
			if i%2 == 0 {
				game = "g1"
			}
			if _, err := tx.Enqueue(OutMail{Mail: outmail.Mail{To: "x@y.test", MessageID: fmt.Sprintf("o%03d", i), Created: at}, Game: game}); err != nil {
				return err
			}
		}
		return nil
	})
	pending, _ := db.Pending(now.Add(1000*time.Hour), 0)
	var ids []string
	for _, p := range pending[:90] {
		ids = append(ids, p.ID)
	}
	if err := db.MarkSentMany(ids, now); err != nil {
		t.Fatal(err)
	}
	cut := now.Add(25 * 24 * time.Hour) // records 0..49 are older
	mustUpdate(t, db, func(tx *Tx) error {
		n, err := tx.PruneSeen(cut)
		if err != nil || n != 100 { // 50 records, each under its Message-ID and its UID
			t.Errorf("PruneSeen: %d %v", n, err)
		}
		m, err := tx.PruneOutbox(cut)
		if err != nil || m != 25 { // of the 50 older ones, those of no game
			t.Errorf("PruneOutbox: %d %v", m, err)
		}
		return nil
	})
	mustView(t, db, func(tx *Tx) error {
		for i := range 100 {
			_, ok, _ := tx.Seen("seat:g1/alice", fmt.Sprintf("m%03d", i))
			if ok != (i >= 50) {
				t.Errorf("m%03d seen=%v", i, ok)
			}
			_, ok, _ = tx.OutboxByMessageID(fmt.Sprintf("o%03d", i))
			if ok != (i >= 50 || i%2 == 0) {
				t.Errorf("o%03d kept=%v", i, ok)
			}
		}
		return nil
	})
}
