package storage

import (
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the layout this build reads and writes. Raise it together with a migration in current.
const SchemaVersion = 2

// Top-level buckets. Open creates all of them.
const (
	BucketGames   = "games"   // game id → game record
	BucketPlayers = "players" // player records
	BucketRounds  = "rounds"  // rounds/<game>/…
	BucketOrders  = "orders"  // orders/<game>/<round>/<player>
	BucketDice    = "dice"    // dice/<game>/<seq>: the roll log, append-only
	BucketArchive = "archive" // archive/<game>/<turn>/…
	BucketOutbox  = "outbox"  // reserved: see outbox.go
	BucketSeen    = "seen"    // reserved: handled messages, see seen.go
	BucketCursor  = "cursor"  // reserved: IMAP cursor per mailbox
	BucketSpool   = "spool"   // reserved: fetched mail not yet handled, see spool.go
	BucketMeta    = "meta"    // reserved: schema_version and the migration log
)

// metaSchemaVersion is the key under meta that holds the schema version as a decimal string.
const metaSchemaVersion = "schema_version"

// topLevel lists every bucket Open creates, in the order it creates them.
var topLevel = []string{
	BucketGames, BucketPlayers, BucketRounds, BucketOrders, BucketDice, BucketArchive,
	BucketOutbox, BucketSeen, BucketCursor, BucketSpool, BucketMeta,
}

// reserved buckets have a typed API; the generic record methods refuse to write into them so that no caller
// can break the outbox's or the dedup record's own bookkeeping by accident.
var reserved = map[string]bool{BucketOutbox: true, BucketSeen: true, BucketCursor: true, BucketSpool: true, BucketMeta: true}

// migration upgrades the file from schema version from to from+1. It runs inside the transaction that opens
// the file, with the generic record methods allowed to write anywhere, including reserved buckets.
type migration struct {
	from  int
	name  string
	apply func(tx *Tx) error
}

// schema is a target version and the migrations that lead to it.
type schema struct {
	version    int
	migrations []migration
}

// current is this build's schema. To change the layout: raise SchemaVersion and append
// {from: SchemaVersion-1, name: "…", apply: …}.
//
// Version 2 adds the intake's spool (spool.go). Open creates the bucket, as it creates every top-level
// bucket, so the migration has nothing to move; what it does is stamp the file, so that a build from
// before the spool refuses it (a schema too new) instead of opening it and never handing over the mail
// the spool holds, mail already moved out of the inbox.
var current = schema{version: SchemaVersion, migrations: []migration{
	{from: 1, name: "the intake's spool", apply: func(*Tx) error { return nil }},
}}

func (s *schema) validate() error {
	if s.version < 1 {
		return fmt.Errorf("schema version %d: must be at least 1", s.version)
	}
	seen := map[int]bool{}
	for _, m := range s.migrations {
		if m.from < 1 || m.from >= s.version || m.apply == nil {
			return fmt.Errorf("migration %q from version %d: outside 1..%d or empty", m.name, m.from, s.version-1)
		}
		if seen[m.from] {
			return fmt.Errorf("two migrations from version %d", m.from)
		}
		seen[m.from] = true
	}
	return nil
}

func (s *schema) step(from int) (migration, bool) {
	for _, m := range s.migrations {
		if m.from == from {
			return m, true
		}
	}
	return migration{}, false
}

// readVersion returns the stored schema version; present is false when there is none. foreign is true when
// the file holds buckets but no schema version: some other program's bbolt file, which we leave alone.
func readVersion(btx *bolt.Tx) (version int, present, foreign bool, err error) {
	if meta := btx.Bucket([]byte(BucketMeta)); meta != nil {
		if v := meta.Get([]byte(metaSchemaVersion)); v != nil {
			n, err := strconv.Atoi(string(v))
			if err != nil || n < 1 {
				return 0, false, false, fmt.Errorf("meta/%s holds %q, not a version number", metaSchemaVersion, v)
			}
			return n, true, false, nil
		}
	}
	hasBuckets := false
	_ = btx.ForEach(func(name []byte, _ *bolt.Bucket) error {
		hasBuckets = true
		return nil
	})
	return 0, false, hasBuckets, nil
}

// prepare checks the schema and, unless read-only, creates the buckets and runs migrations, all in one
// transaction: a failed migration leaves the file exactly as it was.
func (db *DB) prepare(sc *schema, readOnly bool) error {
	if readOnly {
		return db.bolt.View(func(btx *bolt.Tx) error {
			v, present, foreign, err := readVersion(btx)
			switch {
			case err != nil:
				return err
			case foreign:
				return fmt.Errorf("%w: no %s/%s", ErrNotSortie, BucketMeta, metaSchemaVersion)
			case !present:
				return fmt.Errorf("%w: the file is empty", ErrNeedsMigration)
			case v > sc.version:
				return tooNew(v, sc.version)
			case v < sc.version:
				return fmt.Errorf("%w: the file is at version %d, this build uses %d; open it read-write once",
					ErrNeedsMigration, v, sc.version)
			}
			return nil
		})
	}
	return db.bolt.Update(func(btx *bolt.Tx) error {
		v, present, foreign, err := readVersion(btx)
		switch {
		case err != nil:
			return err
		case foreign:
			return fmt.Errorf("%w: it holds buckets but no %s/%s", ErrNotSortie, BucketMeta, metaSchemaVersion)
		case present && v > sc.version:
			return tooNew(v, sc.version)
		}
		tx := &Tx{tx: btx, db: db, internal: true}
		start := v
		if present {
			for ; v < sc.version; v++ {
				m, ok := sc.step(v)
				if !ok {
					return fmt.Errorf("no migration from schema version %d to %d", v, v+1)
				}
				if err := m.apply(tx); err != nil {
					return fmt.Errorf("migration %d→%d (%s): %w", v, v+1, m.name, err)
				}
				entry := fmt.Sprintf("%s %s", time.Now().UTC().Format(time.RFC3339), m.name)
				if err := tx.Put([]string{BucketMeta}, fmt.Sprintf("migrated_%d_to_%d", v, v+1), []byte(entry)); err != nil {
					return err
				}
			}
		}
		for _, name := range topLevel {
			if _, err := btx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		if err := createOutboxBuckets(btx); err != nil {
			return err
		}
		if err := createSeenBuckets(btx); err != nil {
			return err
		}
		if present && start == sc.version {
			return nil // already stamped
		}
		return btx.Bucket([]byte(BucketMeta)).Put([]byte(metaSchemaVersion), []byte(strconv.Itoa(sc.version)))
	})
}

func tooNew(have, want int) error {
	return fmt.Errorf("%w: the file is at schema version %d, this build of sortie knows only up to %d; "+
		"run a newer sortie, or restore a backup made by this one", ErrSchemaTooNew, have, want)
}
