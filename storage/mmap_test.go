package storage

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// growBy writes about mb MiB in 1 MiB transactions.
func growBy(t *testing.T, db *DB, mb int) {
	t.Helper()
	chunk := bytes.Repeat([]byte{'g'}, 64<<10)
	for i := range mb {
		mustUpdate(t, db, func(tx *Tx) error {
			for j := range 16 {
				if err := tx.Put([]string{"grow"}, fmt.Sprintf("%04d.%02d", i, j), chunk); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// With the default mapping, a read transaction held open (a backup, a web page being served) does not
// hold up a writer that grows the file: the file fits in the mapping, so nothing is remapped. With bbolt's
// own small mapping the writer waits for the reader to finish.
func TestLongReadDoesNotHoldUpAGrowingWriter(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("the default mapping is bbolt's own on 32-bit systems")
	}
	for _, tc := range []struct {
		mmap    int
		blocked bool
	}{{0, false}, {-1, true}} {
		db, err := Open(filepath.Join(t.TempDir(), "sortie.db"), Options{InitialMmapSize: tc.mmap})
		if err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		reading := make(chan struct{})
		readDone := make(chan error, 1)
		go func() {
			readDone <- db.View(func(tx *Tx) error {
				close(reading)
				<-release
				return nil
			})
		}()
		<-reading
		wrote := make(chan struct{})
		go func() {
			defer close(wrote)
			growBy(t, db, 8)
		}()
		if tc.blocked {
			// The writer must not finish while the read is open; waiting can only make a slow machine pass.
			select {
			case <-wrote:
				t.Errorf("InitialMmapSize %d: the writer grew the file by 8 MiB under an open read; the test cannot tell the mappings apart", tc.mmap)
			case <-time.After(3 * time.Second):
			}
		} else {
			select {
			case <-wrote:
			case <-time.After(hangGuard): // a loaded machine is slow, not wrong: only a writer stuck for minutes fails
				t.Errorf("InitialMmapSize %d: the writer is held up by an open read transaction", tc.mmap)
			}
		}
		close(release)
		<-wrote
		if err := <-readDone; err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A mapping smaller than the file still works: bbolt grows it (the path every file beyond the default
// size takes), and what was written reads back after a reopen.
func TestGrowingBeyondTheMapping(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{InitialMmapSize: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	growBy(t, db, 6)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{InitialMmapSize: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustView(t, db, func(tx *Tx) error {
		v, err := tx.Get([]string{"grow"}, "0005.15")
		if err != nil || len(v) != 64<<10 || v[0] != 'g' {
			t.Errorf("the last chunk: %d bytes, %v", len(v), err)
		}
		return nil
	})
}

// hangGuard is how long a test waits for what must happen before it calls the code stuck: minutes, since a
// loaded machine is slow, not wrong.
const hangGuard = 5 * time.Minute
