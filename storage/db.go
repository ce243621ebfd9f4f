// Package storage keeps all of Sortie's state in one bbolt file: the games, the orders, the dice log and the
// archive (as generic records under bucket paths), plus the few things with a fixed shape that the mail side
// relies on: the Message-IDs already handled (invariant 1, docs/architecture.md), the IMAP cursor, and the transactional
// outbox (invariant 2).
//
// Every effect is a method on *Tx, so a caller combines several of them in one bbolt transaction: the
// processed Message-ID, the orders, the receipt in the outbox and, when the round is complete, the resolved
// state and every report commit together or not at all.
//
//	err := db.Update(func(tx *storage.Tx) error {
//		if _, seen, err := tx.Seen(msgID); err != nil || seen {
//			return err
//		}
//		if err := tx.PutJSON([]string{"orders", game, storage.SeqKey(round)}, player, plot); err != nil {
//			return err
//		}
//		if _, err := tx.Enqueue(receipt); err != nil {
//			return err
//		}
//		return tx.MarkSeen(msgID, storage.SeenRecord{Mailbox: "INBOX", UIDValidity: v, UID: uid, Outcome: "accepted"})
//	})
//
// The package imports nothing of the project but mailer/outmail, the leaf package of the mail its outbox
// stores; the daemon adapts *DB to mailer.CursorStore (the signatures match) and to mailer.Outbox (an
// Outgoing carries its outmail.Mail whole).
package storage

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DefaultTimeout is how long Open waits for the file lock before it gives up. bbolt flocks the file, and
// without a timeout a second process (a moderator command while the daemon runs) would block forever.
const DefaultTimeout = time.Second

// Errors callers can test with errors.Is.
var (
	// ErrLocked: another process (or another DB in this process) holds the file.
	ErrLocked = errors.New("database is locked by another process")
	// ErrSchemaTooNew: the file was written by a newer Sortie; this build refuses to touch it.
	ErrSchemaTooNew = errors.New("database schema is newer than this build supports")
	// ErrNotSortie: the file is a bbolt database without Sortie's meta bucket.
	ErrNotSortie = errors.New("not a sortie database")
	// ErrNeedsMigration: a read-only open found an older schema, which only a read-write open can migrate.
	ErrNeedsMigration = errors.New("database schema is older than this build and must be migrated")
	// ErrReserved: the generic record methods refuse to write into buckets that have their own typed API.
	ErrReserved = errors.New("bucket is reserved")
	// ErrBadPath: an empty bucket path, bucket name or key.
	ErrBadPath = errors.New("bad bucket path or key")
	// ErrNotFound: an outbox id that does not exist.
	ErrNotFound = errors.New("not found")
	// ErrDuplicateMessageID: the outbox already holds a mail with this Message-ID.
	ErrDuplicateMessageID = errors.New("outbox already holds this Message-ID")
	// ErrCorrupt: the file is not a sound bbolt database (truncated, overwritten, a damaged page).
	ErrCorrupt = errors.New("the database file is damaged")
	// ErrEmptyFile: the file exists and holds nothing; Open makes a new database in it only with
	// Options.InitEmpty, since an empty file where a database should be is more often an accident
	// (a failed copy, a full disk) than a wish to start again.
	ErrEmptyFile = errors.New("the database file is empty (0 bytes)")
	// ErrInvalidMail: an outgoing mail that cannot be sent as it is (no recipient, no Message-ID, a line break
	// in a header field).
	ErrInvalidMail = errors.New("invalid outgoing mail")
)

// Options for Open. The zero value is what the daemon wants.
type Options struct {
	// Timeout is how long to wait for the file lock; 0 means DefaultTimeout.
	Timeout time.Duration
	// Mode is the permission of a newly created file; 0 means 0600 (the file holds player secrets).
	Mode os.FileMode
	// ReadOnly opens with a shared lock and refuses every write. It does not migrate: an older schema
	// gives ErrNeedsMigration. Useful to inspect a backup.
	ReadOnly bool
	// InitialMmapSize maps this many bytes of address space up front; 0 means DefaultMmapSize, a negative
	// value bbolt's own start (32 KiB, doubled as the file grows). While the file fits in the mapping, a
	// long read transaction (a Backup, a web page) never holds up a writer that would otherwise wait to
	// grow it, and no commit copies its pages out of the old mapping to remap. Address space only: the
	// resident memory is what is read, as before.
	InitialMmapSize int
	// InitEmpty lets Open make a new database in an existing zero-length file. A path that does not
	// exist is always created.
	InitEmpty bool

	// schema replaces the package's schema in tests (version and migrations).
	schema *schema
}

// DB is an open Sortie database. All its methods are safe for concurrent use; bbolt serialises writers and
// lets readers run alongside them.
type DB struct {
	bolt *bolt.DB
	path string

	// outboxReady gets a token after every commit that enqueued mail; see OutboxReady.
	outboxReady chan struct{}
}

// DefaultMmapSize is the address space Open maps for a database unless told otherwise: 1 GiB on 64-bit
// systems, far more than a year of a busy daemon's games, and bbolt's growing mapping on 32-bit ones.
const DefaultMmapSize = (1 << 30) * (strconv.IntSize / 64)

// Open opens (creating if needed) the database at path, creates the top-level buckets and brings the schema
// up to date: a fresh file is stamped with the current version, an older one runs the registered migrations
// in one transaction, a newer one is refused with ErrSchemaTooNew.
func Open(path string, opts Options) (*DB, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	mode := opts.Mode
	if mode == 0 {
		mode = 0o600
	}
	mmap := opts.InitialMmapSize
	switch {
	case mmap == 0:
		mmap = DefaultMmapSize
	case mmap < 0:
		mmap = 0
	}
	sc := &current
	if opts.schema != nil {
		sc = opts.schema
	}
	if err := sc.validate(); err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}

	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() == 0 && (!opts.InitEmpty || opts.ReadOnly) {
		return nil, fmt.Errorf("storage: open %s: %w", path, ErrEmptyFile)
	}
	var bdb *bolt.DB
	err := guard(func() error {
		var err error
		bdb, err = bolt.Open(path, mode, &bolt.Options{
			Timeout:         timeout,
			ReadOnly:        opts.ReadOnly,
			InitialMmapSize: mmap,
			// NoSync stays false: an order acknowledged to a player must be on disk.
		})
		return err
	})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("storage: open %s: %w (gave up after %s; is another sortie running on this file?): %w",
				path, ErrLocked, timeout, err)
		}
		if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrVersionMismatch) || errors.Is(err, berrors.ErrChecksum) {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	db := &DB{bolt: bdb, path: path, outboxReady: make(chan struct{}, 1)}
	if err := guard(db.check); err != nil {
		_ = guard(bdb.Close)
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	if err := guard(func() error { return db.prepare(sc, opts.ReadOnly) }); err != nil {
		_ = guard(bdb.Close)
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	return db, nil
}

// checkLimit is the largest file whose every page Open checks; a bigger one gets a shallow check (its
// meta pages and freelist only), so opening stays quick.
const checkLimit = 256 << 20

// check runs bbolt's consistency check over the file: every page reachable once and only once, every
// branch and leaf well formed. A damaged file gives ErrCorrupt with the first problems found.
func (db *DB) check() error {
	var problems []string
	err := db.bolt.View(func(btx *bolt.Tx) error {
		// A file shorter than the database its meta page describes was cut off; reading its missing
		// pages would fault, so that is caught first.
		if st, err := os.Stat(db.path); err == nil && st.Size() < btx.Size() {
			problems = append(problems, fmt.Sprintf("the file is %d bytes but its database needs %d (truncated)", st.Size(), btx.Size()))
			return nil
		}
		if btx.Size() > checkLimit {
			return nil
		}
		for err := range btx.Check() {
			if len(problems) < 3 {
				problems = append(problems, err.Error())
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrCorrupt, strings.Join(problems, "; "))
	}
	return nil
}

// guard runs fn and turns a panic inside it, or a fault reading the mapped file, into ErrCorrupt: bbolt
// panics on some damaged pages ("invalid freelist page", out-of-range slices) instead of returning an
// error.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	return fn()
}

// Close releases the file. It waits for running transactions to finish.
func (db *DB) Close() error {
	return db.bolt.Close()
}

// Path is the file the database lives in.
func (db *DB) Path() string { return db.path }

// Update runs fn in one read-write transaction. If fn returns an error (or panics) nothing it did is kept;
// otherwise everything commits together, synced to disk, before Update returns.
func (db *DB) Update(fn func(tx *Tx) error) error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		return fn(&Tx{tx: btx, db: db})
	})
}

// View runs fn in one read-only transaction that sees a consistent snapshot.
func (db *DB) View(fn func(tx *Tx) error) error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		return fn(&Tx{tx: btx, db: db})
	})
}

// Backup writes a consistent copy of the whole database to w while writers carry on, and returns the number
// of bytes written. The copy is a bbolt file that Open accepts.
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(btx *bolt.Tx) error {
		var err error
		n, err = btx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("storage: backup: %w", err)
	}
	return n, nil
}

// BackupTo writes a consistent copy to path: first to a temporary file in the same folder, which is synced
// and then renamed over path, so path always holds either the previous backup or a complete new one.
func (db *DB) BackupTo(path string) (err error) {
	if same, err := samePath(db.path, path); err != nil {
		return fmt.Errorf("storage: backup to %s: %w", path, err)
	} else if same {
		return fmt.Errorf("storage: backup to %s: that is the live database", path)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("storage: backup to %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err = db.Backup(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("storage: backup to %s: sync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("storage: backup to %s: close: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("storage: backup to %s: %w", path, err)
	}
	// Make the rename itself durable. Not every platform can sync a directory; the data is already synced.
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// OutboxReady returns a channel that receives a token after any commit that put mail in the outbox, so the
// sender can wake up at once instead of waiting for its next poll. Tokens do not queue up: one token may
// stand for several commits, so the sender drains Pending each time.
func (db *DB) OutboxReady() <-chan struct{} { return db.outboxReady }

func (db *DB) signalOutbox() {
	select {
	case db.outboxReady <- struct{}{}:
	default:
	}
}

// samePath reports whether a and b name the same file (or would, once b exists).
func samePath(a, b string) (bool, error) {
	aa, err := filepath.Abs(a)
	if err != nil {
		return false, err
	}
	bb, err := filepath.Abs(b)
	if err != nil {
		return false, err
	}
	if aa == bb {
		return true, nil
	}
	ai, err := os.Stat(a)
	if err != nil {
		return false, nil
	}
	bi, err := os.Stat(b)
	if err != nil {
		return false, nil
	}
	return os.SameFile(ai, bi), nil
}
