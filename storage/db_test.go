package storage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// openTemp opens a fresh database in the test's temp folder and closes it when the test ends.
func openTemp(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "sortie.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func mustUpdate(t testing.TB, db *DB, fn func(tx *Tx) error) {
	t.Helper()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func mustView(t testing.TB, db *DB, fn func(tx *Tx) error) {
	t.Helper()
	if err := db.View(fn); err != nil {
		t.Fatal(err)
	}
}

// rawVersion reads meta/schema_version with bbolt itself, bypassing the package.
func rawVersion(t *testing.T, path string) string {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	var v string
	_ = bdb.View(func(btx *bolt.Tx) error {
		if b := btx.Bucket([]byte(BucketMeta)); b != nil {
			v = string(b.Get([]byte(metaSchemaVersion)))
		}
		return nil
	})
	return v
}

func TestOpenCreatesBucketsAndStampsVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
	mustView(t, db, func(tx *Tx) error {
		names, err := tx.Buckets(nil)
		if err != nil {
			return err
		}
		for _, want := range topLevel {
			if !contains(names, want) {
				t.Errorf("top-level bucket %q missing; have %v", want, names)
			}
		}
		return nil
	})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got := rawVersion(t, path); got != fmt.Sprint(SchemaVersion) {
		t.Errorf("schema_version = %q, want %d", got, SchemaVersion)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("file mode %v, want 0600", perm)
	}
}

func TestReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, db, func(tx *Tx) error {
		if err := tx.Put([]string{"games"}, "g1", []byte("first game")); err != nil {
			return err
		}
		if err := tx.PutJSON([]string{"orders", "g1", SeqKey(7)}, "alice", map[string]string{"plot": "3L2"}); err != nil {
			return err
		}
		if err := tx.MarkSeen("<m1@example.test>", SeenRecord{Mailbox: "INBOX", UIDValidity: 9, UID: 4, Outcome: "accepted", Scope: "seat:g1/alice"}); err != nil {
			return err
		}
		_, err := tx.Enqueue(mail("r1", "g1"))
		return err
	})
	if err := db.SaveCursor("INBOX", 9, 4); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustView(t, db, func(tx *Tx) error {
		v, err := tx.Get([]string{"games"}, "g1")
		if err != nil || string(v) != "first game" {
			t.Errorf("games/g1 = %q, %v", v, err)
		}
		var plot map[string]string
		if ok, err := tx.GetJSON([]string{"orders", "g1", SeqKey(7)}, "alice", &plot); !ok || err != nil || plot["plot"] != "3L2" {
			t.Errorf("orders/g1/7/alice = %v, %v, %v", plot, ok, err)
		}
		if rec, ok, err := tx.Seen("seat:g1/alice", "m1@example.test"); !ok || err != nil || rec.Outcome != "accepted" {
			t.Errorf("Seen = %+v, %v, %v", rec, ok, err)
		}
		return nil
	})
	if v, u, err := db.LoadCursor("INBOX"); v != 9 || u != 4 || err != nil {
		t.Errorf("LoadCursor = %d, %d, %v", v, u, err)
	}
	if p, err := db.Pending(time.Now(), 0); err != nil || len(p) != 1 || p[0].MessageID != "r1@sortie.test" {
		t.Errorf("Pending after reopen = %+v, %v", p, err)
	}
}

func TestSecondOpenIsLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// The default timeout: bbolt flocks the file, and flock conflicts between two open files of one process
	// exactly as between two processes.
	start := time.Now()
	db2, err := Open(path, Options{})
	elapsed := time.Since(start)
	if err == nil {
		db2.Close()
		t.Fatal("second Open succeeded")
	}
	if !errors.Is(err, ErrLocked) || !errors.Is(err, berrors.ErrTimeout) {
		t.Errorf("error %v is not ErrLocked/bbolt's ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "database is locked by another process") || !strings.Contains(err.Error(), path) {
		t.Errorf("error message %q does not say the file is locked", err)
	}
	// Only lower bounds (less bbolt's last retry interval): a loaded machine may take longer to give up,
	// never less.
	if elapsed < DefaultTimeout*9/10 {
		t.Errorf("gave up after %v, before the default timeout %v", elapsed, DefaultTimeout)
	}

	// An explicit timeout, longer than the default so that waiting at least that long shows it was used.
	start = time.Now()
	if _, err := Open(path, Options{Timeout: 2 * DefaultTimeout}); !errors.Is(err, ErrLocked) {
		t.Errorf("second Open with a timeout of %v: %v", 2*DefaultTimeout, err)
	}
	if elapsed := time.Since(start); elapsed < 2*DefaultTimeout*9/10 {
		t.Errorf("a timeout of %v gave up after %v", 2*DefaultTimeout, elapsed)
	}

	// Released on Close.
	db.Close()
	db3, err := Open(path, Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	db3.Close()
}

// writeRawVersion sets meta/schema_version (and a record) with bbolt directly, as an older or newer build would.
func writeRawVersion(t *testing.T, path, version string) {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if err := bdb.Update(func(btx *bolt.Tx) error {
		b, err := btx.CreateBucketIfNotExists([]byte(BucketMeta))
		if err != nil {
			return err
		}
		return b.Put([]byte(metaSchemaVersion), []byte(version))
	}); err != nil {
		t.Fatal(err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, db, func(tx *Tx) error { return tx.Put([]string{"games"}, "g1", []byte("x")) })
	db.Close()
	writeRawVersion(t, path, fmt.Sprint(SchemaVersion+1))
	before, _ := os.ReadFile(path)

	_, err = Open(path, Options{})
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a newer file: %v, want ErrSchemaTooNew", err)
	}
	want := fmt.Sprintf("schema version %d, this build of sortie knows only up to %d", SchemaVersion+1, SchemaVersion)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
	if _, err := Open(path, Options{ReadOnly: true}); !errors.Is(err, ErrSchemaTooNew) {
		t.Errorf("read-only Open of a newer file: %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("refusing to open changed the file")
	}
	// The lock was released: the file can be opened by bbolt again.
	writeRawVersion(t, path, fmt.Sprint(SchemaVersion))
}

func TestForeignFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = bdb.Update(func(btx *bolt.Tx) error {
		_, err := btx.CreateBucket([]byte("widgets"))
		return err
	})
	bdb.Close()
	if _, err := Open(path, Options{}); !errors.Is(err, ErrNotSortie) {
		t.Errorf("Open of a foreign bbolt file: %v, want ErrNotSortie", err)
	}
	if v := rawVersion(t, path); v != "" {
		t.Errorf("foreign file got schema_version %q", v)
	}
}

func TestMigrations(t *testing.T) {
	// A file written at version 1 with two games whose records are plain names.
	makeV1 := func(t *testing.T) string {
		path := filepath.Join(t.TempDir(), "sortie.db")
		db, err := Open(path, Options{schema: &schema{version: 1}})
		if err != nil {
			t.Fatal(err)
		}
		mustUpdate(t, db, func(tx *Tx) error {
			if err := tx.Put([]string{"games"}, "g1", []byte("Dunkirk")); err != nil {
				return err
			}
			return tx.Put([]string{"games"}, "g2", []byte("Malta"))
		})
		db.Close()
		return path
	}
	var ran []string
	// 1→2 wraps every game record in JSON; 2→3 adds a bucket and writes to a reserved one.
	v3 := &schema{version: 3, migrations: []migration{
		{from: 2, name: "players index", apply: func(tx *Tx) error {
			ran = append(ran, "2→3")
			if err := tx.Put([]string{"players", "by-address"}, "-", []byte{}); err != nil {
				return err
			}
			return tx.Put([]string{BucketMeta}, "note", []byte("migrated"))
		}},
		{from: 1, name: "games as JSON", apply: func(tx *Tx) error {
			ran = append(ran, "1→2")
			keys, err := tx.Keys([]string{"games"})
			if err != nil {
				return err
			}
			for _, k := range keys {
				v, err := tx.Get([]string{"games"}, k)
				if err != nil {
					return err
				}
				if err := tx.PutJSON([]string{"games"}, k, map[string]string{"name": string(v)}); err != nil {
					return err
				}
			}
			return nil
		}},
	}}

	t.Run("older version migrates in order", func(t *testing.T) {
		path := makeV1(t)
		ran = nil
		db, err := Open(path, Options{schema: v3})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ran, []string{"1→2", "2→3"}) {
			t.Errorf("migrations ran %v", ran)
		}
		mustView(t, db, func(tx *Tx) error {
			var g map[string]string
			if ok, err := tx.GetJSON([]string{"games"}, "g2", &g); !ok || err != nil || g["name"] != "Malta" {
				t.Errorf("games/g2 after migration: %v %v %v", g, ok, err)
			}
			if v, _ := tx.Get([]string{BucketMeta}, "note"); string(v) != "migrated" {
				t.Errorf("meta/note = %q", v)
			}
			if v, _ := tx.Get([]string{BucketMeta}, "migrated_1_to_2"); !strings.Contains(string(v), "games as JSON") {
				t.Errorf("migration log = %q", v)
			}
			return nil
		})
		db.Close()
		if v := rawVersion(t, path); v != "3" {
			t.Errorf("schema_version after migration = %q", v)
		}
		// Opening again runs nothing.
		ran = nil
		db, err = Open(path, Options{schema: v3})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		if len(ran) != 0 {
			t.Errorf("second open ran %v", ran)
		}
		// And this build (version 1) now refuses it.
		if _, err := Open(path, Options{}); !errors.Is(err, ErrSchemaTooNew) {
			t.Errorf("version-1 build opened a version-3 file: %v", err)
		}
	})

	t.Run("a failing migration changes nothing", func(t *testing.T) {
		path := makeV1(t)
		failing := &schema{version: 3, migrations: []migration{
			v3.migrations[1],
			{from: 2, name: "broken", apply: func(tx *Tx) error { return errors.New("disk says no") }},
		}}
		_, err := Open(path, Options{schema: failing})
		if err == nil || !strings.Contains(err.Error(), "migration 2→3 (broken): disk says no") {
			t.Fatalf("Open with a failing migration: %v", err)
		}
		if v := rawVersion(t, path); v != "1" {
			t.Errorf("schema_version = %q after a failed migration", v)
		}
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		mustView(t, db, func(tx *Tx) error {
			if v, _ := tx.Get([]string{"games"}, "g1"); string(v) != "Dunkirk" {
				t.Errorf("games/g1 = %q: the first migration's change was kept", v)
			}
			return nil
		})
	})

	t.Run("a gap in the chain is refused", func(t *testing.T) {
		path := makeV1(t)
		gap := &schema{version: 3, migrations: []migration{v3.migrations[0]}} // only 2→3
		if _, err := Open(path, Options{schema: gap}); err == nil || !strings.Contains(err.Error(), "no migration from schema version 1 to 2") {
			t.Errorf("Open with a gap: %v", err)
		}
		if v := rawVersion(t, path); v != "1" {
			t.Errorf("schema_version = %q", v)
		}
	})

	t.Run("read-only does not migrate", func(t *testing.T) {
		path := makeV1(t)
		if _, err := Open(path, Options{schema: v3, ReadOnly: true}); !errors.Is(err, ErrNeedsMigration) {
			t.Errorf("read-only Open of an older file: %v", err)
		}
		db, err := Open(path, Options{schema: &schema{version: 1}, ReadOnly: true})
		if err != nil {
			t.Fatalf("read-only Open at the file's version: %v", err)
		}
		defer db.Close()
		if err := db.Update(func(tx *Tx) error { return tx.Put([]string{"games"}, "g3", nil) }); err == nil {
			t.Error("Update on a read-only database succeeded")
		}
	})
}

func TestUpdateIsAllOrNothing(t *testing.T) {
	db := openTemp(t)
	boom := errors.New("boom")
	effects := func(tx *Tx) error {
		if err := tx.MarkSeen("m1@example.test", SeenRecord{Mailbox: "INBOX", UIDValidity: 1, UID: 10, Outcome: "accepted", Scope: "seat:g1/alice"}); err != nil {
			return err
		}
		if err := tx.Put([]string{"orders", "g1", SeqKey(1)}, "alice", []byte("3L2")); err != nil {
			return err
		}
		if _, err := tx.Enqueue(mail("receipt-1", "g1")); err != nil {
			return err
		}
		if _, err := tx.Append([]string{"dice", "g1"}, []byte("d6=4 for alice's gunnery")); err != nil {
			return err
		}
		return tx.SetCursor("INBOX", 1, 10)
	}
	nothingVisible := func(t *testing.T) {
		t.Helper()
		mustView(t, db, func(tx *Tx) error {
			if _, ok, _ := tx.Seen("seat:g1/alice", "m1@example.test"); ok {
				t.Error("seen by Message-ID")
			}
			if _, ok, _ := tx.SeenUID("INBOX", 1, 10); ok {
				t.Error("seen by UID")
			}
			if v, _ := tx.Get([]string{"orders", "g1", SeqKey(1)}, "alice"); v != nil {
				t.Errorf("order visible: %q", v)
			}
			if names, _ := tx.Buckets([]string{"orders"}); len(names) != 0 {
				t.Errorf("order buckets visible: %v", names)
			}
			if keys, _ := tx.Keys([]string{"dice", "g1"}); len(keys) != 0 {
				t.Errorf("dice visible: %v", keys)
			}
			if v, u, _ := tx.Cursor("INBOX"); v != 0 || u != 0 {
				t.Errorf("cursor moved to %d/%d", v, u)
			}
			if list, _ := tx.OutboxByGame("g1"); len(list) != 0 {
				t.Errorf("outbox by game: %v", list)
			}
			return nil
		})
		if p, _ := db.Pending(time.Now(), 0); len(p) != 0 {
			t.Errorf("pending: %v", p)
		}
		if st, _ := db.OutboxStats(); st != (OutboxStats{}) {
			t.Errorf("outbox stats %+v", st)
		}
	}

	t.Run("error", func(t *testing.T) {
		err := db.Update(func(tx *Tx) error {
			if err := effects(tx); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v", err)
		}
		nothingVisible(t)
		select {
		case <-db.OutboxReady():
			t.Error("OutboxReady signalled for a rolled-back enqueue")
		default:
		}
	})
	t.Run("panic", func(t *testing.T) {
		func() {
			defer func() { _ = recover() }()
			_ = db.Update(func(tx *Tx) error {
				_ = effects(tx)
				panic("adjudicator bug")
			})
		}()
		nothingVisible(t)
	})
	t.Run("commit", func(t *testing.T) {
		mustUpdate(t, db, effects)
		mustView(t, db, func(tx *Tx) error {
			if _, ok, _ := tx.Seen("seat:g1/alice", "m1@example.test"); !ok {
				t.Error("not seen")
			}
			if v, _ := tx.Get([]string{"orders", "g1", SeqKey(1)}, "alice"); string(v) != "3L2" {
				t.Errorf("order = %q", v)
			}
			if keys, _ := tx.Keys([]string{"dice", "g1"}); !reflect.DeepEqual(keys, []string{SeqKey(1)}) {
				t.Errorf("dice keys %v (a rolled-back sequence number must be drawn again)", keys)
			}
			return nil
		})
		if p, _ := db.Pending(time.Now(), 0); len(p) != 1 || p[0].ID != SeqKey(1) {
			t.Errorf("pending: %+v", p)
		}
		select {
		case <-db.OutboxReady():
		default:
			t.Error("OutboxReady not signalled after a committed enqueue")
		}
	})
}

func TestGetReturnsCopies(t *testing.T) {
	db := openTemp(t)
	buf := []byte("original")
	mustUpdate(t, db, func(tx *Tx) error {
		if err := tx.Put([]string{"games"}, "g1", buf); err != nil {
			return err
		}
		copy(buf, "XXXXXXXX") // Put copied; the caller may reuse its buffer at once
		return tx.Put([]string{"games"}, "g2", []byte("second"))
	})
	var got []byte
	var each [][]byte
	mustView(t, db, func(tx *Tx) error {
		var err error
		got, err = tx.Get([]string{"games"}, "g1")
		if err != nil {
			return err
		}
		return tx.ForEach([]string{"games"}, func(k string, v []byte) error {
			each = append(each, v)
			return nil
		})
	})
	// Write a lot so that the pages the View saw are reused and the map may move.
	for i := range 50 {
		mustUpdate(t, db, func(tx *Tx) error {
			if err := tx.Delete([]string{"games"}, "g1"); err != nil {
				return err
			}
			return tx.Put([]string{"games"}, fmt.Sprintf("filler%03d", i), bytes.Repeat([]byte{'z'}, 4096))
		})
	}
	if string(got) != "original" {
		t.Errorf("Get's slice changed after the transaction: %q", got)
	}
	if len(each) != 2 || string(each[0]) != "original" || string(each[1]) != "second" {
		t.Errorf("ForEach's slices changed after the transaction: %q", each)
	}
	got[0] = 'O' // mutating the copy is harmless
	mustView(t, db, func(tx *Tx) error {
		if v, _ := tx.Get([]string{"games"}, "g2"); string(v) != "second" {
			t.Errorf("g2 = %q", v)
		}
		return nil
	})
}

func TestGenericRecords(t *testing.T) {
	db := openTemp(t)
	mustUpdate(t, db, func(tx *Tx) error {
		for _, k := range []string{"b", "a", "c", "aa"} {
			if err := tx.Put([]string{"archive", "g1"}, k, []byte("v"+k)); err != nil {
				return err
			}
		}
		if err := tx.Put([]string{"archive", "g1", SeqKey(2)}, "report", []byte("turn 2")); err != nil {
			return err
		}
		if err := tx.Put([]string{"archive", "g1", SeqKey(10)}, "report", []byte("turn 10")); err != nil {
			return err
		}
		return tx.Put([]string{"archive", "g1"}, "empty", nil)
	})
	mustView(t, db, func(tx *Tx) error {
		var order []string
		err := tx.ForEach([]string{"archive", "g1"}, func(k string, v []byte) error {
			order = append(order, k+"="+string(v))
			return nil
		})
		if err != nil {
			return err
		}
		if want := []string{"a=va", "aa=vaa", "b=vb", "c=vc", "empty="}; !reflect.DeepEqual(order, want) {
			t.Errorf("ForEach order %v, want %v (byte order, nested buckets skipped)", order, want)
		}
		keys, _ := tx.Keys([]string{"archive", "g1"})
		if want := []string{"a", "aa", "b", "c", "empty"}; !reflect.DeepEqual(keys, want) {
			t.Errorf("Keys = %v", keys)
		}
		turns, _ := tx.Buckets([]string{"archive", "g1"})
		if want := []string{SeqKey(2), SeqKey(10)}; !reflect.DeepEqual(turns, want) {
			t.Errorf("Buckets = %v, want %v", turns, want)
		}
		if v, _ := tx.Get([]string{"archive", "g1"}, "empty"); v == nil || len(v) != 0 {
			t.Errorf("empty value = %#v, want non-nil empty", v)
		}
		if v, _ := tx.Get([]string{"archive", "g1"}, "nope"); v != nil {
			t.Errorf("absent key = %#v", v)
		}
		if v, _ := tx.Get([]string{"archive", "nogame", "x"}, "nope"); v != nil {
			t.Errorf("absent bucket = %#v", v)
		}
		if v, _ := tx.Get([]string{"archive"}, "g1"); v != nil {
			t.Errorf("a bucket read as a value: %#v", v)
		}
		if keys, err := tx.Keys([]string{"nothing"}); keys != nil || err != nil {
			t.Errorf("Keys of a missing bucket = %v, %v", keys, err)
		}
		if err := tx.Put([]string{"games"}, "x", nil); err == nil {
			t.Error("Put in a View succeeded")
		}
		return nil
	})

	stop := errors.New("stop")
	mustView(t, db, func(tx *Tx) error {
		n := 0
		err := tx.ForEach([]string{"archive", "g1"}, func(string, []byte) error {
			n++
			return stop
		})
		if !errors.Is(err, stop) || n != 1 {
			t.Errorf("ForEach did not stop: %v after %d", err, n)
		}
		return nil
	})

	mustUpdate(t, db, func(tx *Tx) error {
		if err := tx.Delete([]string{"archive", "g1"}, "b"); err != nil {
			return err
		}
		if err := tx.Delete([]string{"archive", "g1"}, "never-there"); err != nil {
			return err
		}
		if err := tx.Delete([]string{"archive", "no-such-game"}, "x"); err != nil {
			return err
		}
		if err := tx.DeleteBucket([]string{"archive", "g1", SeqKey(10)}); err != nil {
			return err
		}
		return tx.DeleteBucket([]string{"archive", "g9"})
	})
	mustView(t, db, func(tx *Tx) error {
		if v, _ := tx.Get([]string{"archive", "g1"}, "b"); v != nil {
			t.Error("deleted key still there")
		}
		if turns, _ := tx.Buckets([]string{"archive", "g1"}); !reflect.DeepEqual(turns, []string{SeqKey(2)}) {
			t.Errorf("after DeleteBucket: %v", turns)
		}
		return nil
	})

	type game struct {
		Name  string `json:"name"`
		Round int    `json:"round"`
	}
	mustUpdate(t, db, func(tx *Tx) error {
		return tx.PutJSON([]string{"games"}, "g1", game{"Dunkirk", 3})
	})
	mustView(t, db, func(tx *Tx) error {
		var g game
		if ok, err := tx.GetJSON([]string{"games"}, "g1", &g); !ok || err != nil || g != (game{"Dunkirk", 3}) {
			t.Errorf("GetJSON = %+v, %v, %v", g, ok, err)
		}
		g = game{Name: "untouched"}
		if ok, err := tx.GetJSON([]string{"games"}, "g2", &g); ok || err != nil || g.Name != "untouched" {
			t.Errorf("GetJSON of a missing key = %+v, %v, %v", g, ok, err)
		}
		return nil
	})
}

func TestBadPathsAndReservedBuckets(t *testing.T) {
	db := openTemp(t)
	mustUpdate(t, db, func(tx *Tx) error {
		for _, c := range []struct {
			path []string
			key  string
			want error
		}{
			{nil, "k", ErrBadPath},
			{[]string{"games", ""}, "k", ErrBadPath},
			{[]string{"games"}, "", ErrBadPath},
			{[]string{BucketOutbox}, "k", ErrReserved},
			{[]string{BucketSeen, "msgid"}, "k", ErrReserved},
			{[]string{BucketCursor}, "INBOX", ErrReserved},
			{[]string{BucketMeta}, metaSchemaVersion, ErrReserved},
		} {
			if err := tx.Put(c.path, c.key, []byte("x")); !errors.Is(err, c.want) {
				t.Errorf("Put(%q, %q) = %v, want %v", c.path, c.key, err, c.want)
			}
			if err := tx.Delete(c.path, c.key); !errors.Is(err, c.want) {
				t.Errorf("Delete(%q, %q) = %v, want %v", c.path, c.key, err, c.want)
			}
		}
		if _, err := tx.NextSeq([]string{BucketOutbox, "mail"}); !errors.Is(err, ErrReserved) {
			t.Errorf("NextSeq on the outbox: %v", err)
		}
		if err := tx.DeleteBucket([]string{BucketOutbox, "pending"}); !errors.Is(err, ErrReserved) {
			t.Errorf("DeleteBucket in the outbox: %v", err)
		}
		if err := tx.DeleteBucket([]string{"games"}); !errors.Is(err, ErrBadPath) {
			t.Errorf("DeleteBucket of a top-level bucket: %v", err)
		}
		// Reading a reserved bucket is allowed.
		if v, err := tx.Get([]string{BucketMeta}, metaSchemaVersion); err != nil || string(v) != fmt.Sprint(SchemaVersion) {
			t.Errorf("Get meta/schema_version = %q, %v", v, err)
		}
		// A key that is a bucket cannot be overwritten by a value, nor the other way round.
		if err := tx.Put([]string{"orders", "g1", "r1"}, "p", []byte("x")); err != nil {
			return err
		}
		if err := tx.Put([]string{"orders", "g1"}, "r1", []byte("x")); err == nil {
			t.Error("a value replaced a bucket")
		}
		if err := tx.Put([]string{"orders", "g1", "r1", "p"}, "k", []byte("x")); err == nil {
			t.Error("a bucket replaced a value")
		}
		return nil
	})
	mustView(t, db, func(tx *Tx) error {
		if v, _ := tx.Get([]string{BucketMeta}, metaSchemaVersion); string(v) != fmt.Sprint(SchemaVersion) {
			t.Errorf("schema_version = %q after the refused writes", v)
		}
		return nil
	})
}

func TestSequences(t *testing.T) {
	db := openTemp(t)
	var got []uint64
	mustUpdate(t, db, func(tx *Tx) error {
		for range 3 {
			n, err := tx.NextSeq([]string{"dice", "g1"})
			if err != nil {
				return err
			}
			got = append(got, n)
		}
		n, err := tx.NextSeq([]string{"dice", "g2"}) // every bucket counts on its own
		got = append(got, n)
		return err
	})
	mustUpdate(t, db, func(tx *Tx) error {
		n, err := tx.NextSeq([]string{"dice", "g1"})
		got = append(got, n)
		return err
	})
	if want := []uint64{1, 2, 3, 1, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("NextSeq gave %v, want %v", got, want)
	}

	var keys []string
	for _, n := range []uint64{0, 1, 9, 10, 99, 100, 1 << 40, ^uint64(0)} {
		k := SeqKey(n)
		if len(k) != 20 {
			t.Errorf("SeqKey(%d) = %q: not 20 wide", n, k)
		}
		if back, err := ParseSeqKey(k); err != nil || back != n {
			t.Errorf("ParseSeqKey(%q) = %d, %v", k, back, err)
		}
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		if keys[i-1] >= keys[i] {
			t.Errorf("SeqKey order: %q >= %q", keys[i-1], keys[i])
		}
	}
	for _, bad := range []string{"", "12", "0000000000000000000x", "-0000000000000000001", "99999999999999999999"} {
		if _, err := ParseSeqKey(bad); err == nil {
			t.Errorf("ParseSeqKey(%q) accepted", bad)
		}
	}

	// Append keeps insertion order across 10 → 11 and beyond, where plain decimal keys would not.
	mustUpdate(t, db, func(tx *Tx) error {
		for i := range 12 {
			if _, err := tx.AppendJSON([]string{"dice", "g3"}, map[string]int{"roll": i}); err != nil {
				return err
			}
		}
		return nil
	})
	mustView(t, db, func(tx *Tx) error {
		i := 0
		return tx.ForEach([]string{"dice", "g3"}, func(k string, v []byte) error {
			if want := fmt.Sprintf(`{"roll":%d}`, i); string(v) != want {
				t.Errorf("dice/g3/%s = %s, want %s", k, v, want)
			}
			i++
			return nil
		})
	})
}

func TestSeenAndCursor(t *testing.T) {
	db := openTemp(t)
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	mustUpdate(t, db, func(tx *Tx) error {
		if err := tx.MarkSeen(" <Orders.1@Example.test> ", SeenRecord{Mailbox: "INBOX", UIDValidity: 1795304053, UID: 7, At: at, Outcome: "accepted", Scope: "seat:g1/alice"}); err != nil {
			return err
		}
		// No Message-ID: known by UID alone.
		if err := tx.MarkSeen("", SeenRecord{Mailbox: "INBOX", UIDValidity: 1795304053, UID: 8, Outcome: "rejected"}); err != nil {
			return err
		}
		if err := tx.MarkSeen("", SeenRecord{Outcome: "?"}); !errors.Is(err, ErrBadPath) {
			t.Errorf("MarkSeen with no key: %v", err)
		}
		// A Message-ID without a scope is no key either: it would let any sender's mail stand for any other's.
		if err := tx.MarkSeen("a@b", SeenRecord{Outcome: "?"}); !errors.Is(err, ErrBadPath) {
			t.Errorf("MarkSeen with a Message-ID but no scope: %v", err)
		}
		return nil
	})
	mustView(t, db, func(tx *Tx) error {
		rec, ok, err := tx.Seen("seat:g1/alice", "Orders.1@Example.test")
		if !ok || err != nil {
			t.Fatalf("Seen = %v, %v", ok, err)
		}
		want := SeenRecord{MessageID: "Orders.1@Example.test", Mailbox: "INBOX", UIDValidity: 1795304053, UID: 7, At: at.UTC(), Outcome: "accepted", Scope: "seat:g1/alice"}
		if !reflect.DeepEqual(rec, want) {
			t.Errorf("Seen = %+v, want %+v", rec, want)
		}
		if _, ok, _ := tx.Seen("seat:g1/alice", "<Orders.1@Example.test>"); !ok {
			t.Error("angle brackets make a different message")
		}
		if _, ok, _ := tx.Seen("seat:g1/alice", "orders.1@example.test"); ok {
			t.Error("Message-IDs are case-sensitive")
		}
		if _, ok, _ := tx.Seen("seat:g1/bob", "Orders.1@Example.test"); ok {
			t.Error("a Message-ID seen in one scope is seen in another")
		}
		if _, ok, _ := tx.Seen("", "Orders.1@Example.test"); ok {
			t.Error("a Message-ID is seen without a scope")
		}
		if _, ok, _ := tx.Seen("seat:g1/alice", ""); ok {
			t.Error("the empty Message-ID is seen")
		}
		if rec, ok, _ := tx.SeenUID("INBOX", 1795304053, 7); !ok || rec.MessageID != "Orders.1@Example.test" {
			t.Errorf("SeenUID 7 = %+v, %v", rec, ok)
		}
		if rec, ok, _ := tx.SeenUID("INBOX", 1795304053, 8); !ok || rec.Outcome != "rejected" || rec.At.IsZero() {
			t.Errorf("SeenUID 8 = %+v, %v", rec, ok)
		}
		if _, ok, _ := tx.SeenUID("INBOX", 1795304054, 7); ok {
			t.Error("a new UIDVALIDITY is the same mailbox")
		}
		if _, ok, _ := tx.SeenUID("Processed", 1795304053, 7); ok {
			t.Error("another mailbox is the same")
		}
		return nil
	})

	// Cursor: absent, set in a transaction, DB-level round trip, several mailboxes.
	if v, u, err := db.LoadCursor("INBOX"); v != 0 || u != 0 || err != nil {
		t.Errorf("LoadCursor of a new mailbox = %d, %d, %v", v, u, err)
	}
	if err := db.SaveCursor("INBOX", 1795304053, 8); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveCursor("Orders/Afd", 42, 1); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, db, func(tx *Tx) error {
		v, u, err := tx.Cursor("INBOX")
		if v != 1795304053 || u != 8 || err != nil {
			t.Errorf("Cursor = %d, %d, %v", v, u, err)
		}
		return tx.SetCursor("INBOX", v, u+1)
	})
	if v, u, err := db.LoadCursor("INBOX"); v != 1795304053 || u != 9 || err != nil {
		t.Errorf("LoadCursor = %d, %d, %v", v, u, err)
	}
	if v, u, err := db.LoadCursor("Orders/Afd"); v != 42 || u != 1 || err != nil {
		t.Errorf("LoadCursor(Orders/Afd) = %d, %d, %v", v, u, err)
	}
	if err := db.SaveCursor("", 1, 1); !errors.Is(err, ErrBadPath) {
		t.Errorf("SaveCursor with no mailbox: %v", err)
	}
}

// The daemon passes *DB where the mailer wants a CursorStore; this is mailer.CursorStore spelled out, since
// storage may not import the mailer.
var _ interface {
	LoadCursor(mailbox string) (uidValidity, lastUID uint32, err error)
	SaveCursor(mailbox string, uidValidity, lastUID uint32) error
} = (*DB)(nil)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Peek gives the stored bytes, nil for a missing key or bucket, and refuses what Get refuses.
func TestPeek(t *testing.T) {
	db := openTemp(t)
	mustUpdate(t, db, func(tx *Tx) error {
		if err := tx.Put([]string{"games"}, "g1", []byte("stored")); err != nil {
			return err
		}
		if v, err := tx.Peek([]string{"games"}, "g1"); err != nil || string(v) != "stored" {
			t.Errorf("Peek in the writing transaction: %q, %v", v, err)
		}
		return nil
	})
	mustView(t, db, func(tx *Tx) error {
		if v, err := tx.Peek([]string{"games"}, "g1"); err != nil || string(v) != "stored" {
			t.Errorf("Peek: %q, %v", v, err)
		}
		if v, err := tx.Peek([]string{"games"}, "nope"); err != nil || v != nil {
			t.Errorf("Peek of a missing key: %q, %v", v, err)
		}
		if v, err := tx.Peek([]string{"nobucket"}, "g1"); err != nil || v != nil {
			t.Errorf("Peek in a missing bucket: %q, %v", v, err)
		}
		_, gerr := tx.Get(nil, "g1")
		_, perr := tx.Peek(nil, "g1")
		if gerr == nil || perr == nil {
			t.Errorf("an empty path: Get %v, Peek %v; both must refuse it", gerr, perr)
		}
		return nil
	})
}

// TestSpoolSchema: a file from before the spool (version 1) is stamped version 2 when opened, with the
// spool bucket; a build that knows only version 1 then refuses it rather than ignore the mail its spool
// holds.
func TestSpoolSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{schema: &schema{version: 1}})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := rawVersion(t, path); got != "1" {
		t.Fatalf("schema_version %q, want 1", got)
	}
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := db.SpoolMessages("INBOX", 1, []uint32{7}, [][]byte{[]byte("held")}, 7); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := rawVersion(t, path); got != "2" {
		t.Fatalf("schema_version %q after opening with this build, want 2", got)
	}
	if _, err := Open(path, Options{schema: &schema{version: 1}}); !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("a build from before the spool opened the file: %v", err)
	}
}
