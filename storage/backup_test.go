package storage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// writeRound is one unit of the daemon's work: an order, a dice roll, a receipt and the counter that says how
// many there are, in one transaction. A consistent copy has exactly counter orders and counter mails.
func writeRound(db *DB, n int) error {
	return db.Update(func(tx *Tx) error {
		if err := tx.Put([]string{"orders", "g1"}, SeqKey(uint64(n)), []byte(fmt.Sprintf("plot %d", n))); err != nil {
			return err
		}
		if _, err := tx.Append([]string{"dice", "g1"}, []byte("d6")); err != nil {
			return err
		}
		if _, err := tx.Enqueue(mail(fmt.Sprintf("w%d", n), "g1")); err != nil {
			return err
		}
		return tx.PutJSON([]string{"games"}, "g1", n)
	})
}

// checkConsistent opens a copy and checks that every counter in it agrees, returning the counter.
func checkConsistent(t *testing.T, path string) int {
	t.Helper()
	db, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("backup does not open: %v", err)
	}
	defer db.Close()
	var n int
	mustView(t, db, func(tx *Tx) error {
		if _, err := tx.GetJSON([]string{"games"}, "g1", &n); err != nil {
			return err
		}
		orders, _ := tx.Keys([]string{"orders", "g1"})
		dice, _ := tx.Keys([]string{"dice", "g1"})
		mails, _ := tx.OutboxByGame("g1")
		if len(orders) != n || len(dice) != n || len(mails) != n {
			t.Errorf("backup is torn: counter %d, %d orders, %d dice, %d mails", n, len(orders), len(dice), len(mails))
		}
		if n > 0 {
			if v, _ := tx.Get([]string{"orders", "g1"}, SeqKey(uint64(n))); string(v) != fmt.Sprintf("plot %d", n) {
				t.Errorf("last order = %q", v)
			}
		}
		return nil
	})
	st, err := db.OutboxStats()
	if err != nil || st.Total != n || st.Pending != n {
		t.Errorf("backup outbox %+v, %v", st, err)
	}
	return n
}

func TestBackupWhileWriting(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(filepath.Join(dir, "sortie.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	var written atomic.Int64
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for n := 1; ; n++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := writeRound(db, n); err != nil {
				done <- err
				return
			}
			written.Store(int64(n))
		}
	}()
	for written.Load() < 200 {
		time.Sleep(time.Millisecond)
	}

	// To a writer, several times while the writer runs.
	var copies []int
	for i := range 3 {
		var buf bytes.Buffer
		n, err := db.Backup(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if n != int64(buf.Len()) {
			t.Errorf("Backup reported %d bytes, wrote %d", n, buf.Len())
		}
		p := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, checkConsistent(t, p))
	}
	// To a file, replacing an older backup.
	backup := filepath.Join(dir, "backups", "sortie-backup.db")
	if err := os.MkdirAll(filepath.Dir(backup), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(backup, []byte("yesterday's backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := db.BackupTo(backup); err != nil {
		t.Fatal(err)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	final := int(written.Load())
	fromFile := checkConsistent(t, backup)
	copies = append(copies, fromFile)
	for i, n := range copies {
		if n < 200 || n > final {
			t.Errorf("copy %d holds %d rounds; the writer had done 200 before and %d after", i, n, final)
		}
	}
	if fromFile == final {
		t.Logf("note: the writer did not get ahead of the file backup (%d rounds)", final)
	}
	entries, _ := os.ReadDir(filepath.Dir(backup))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("backup folder holds %v; the temp file was left behind", names)
	}
	if info, _ := os.Stat(backup); info.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v", info.Mode().Perm())
	}

	// The live database refuses to be its own backup target.
	if err := db.BackupTo(db.Path()); err == nil || !strings.Contains(err.Error(), "live database") {
		t.Errorf("BackupTo(live path) = %v", err)
	}
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(db.Path(), link); err != nil {
		t.Fatal(err)
	}
	if err := db.BackupTo(link); err == nil || !strings.Contains(err.Error(), "live database") {
		t.Errorf("BackupTo(a symlink to the live file) = %v", err)
	}
	// A folder that does not exist: an error, nothing written.
	if err := db.BackupTo(filepath.Join(dir, "missing", "b.db")); err == nil {
		t.Error("BackupTo into a missing folder succeeded")
	}
	checkConsistent(t, backup) // still the good one
	t.Logf("copies hold %v rounds; the writer did %d", copies, final)
}

// Many goroutines doing what the daemon does at once: intake transactions, readers, one sender, the cursor.
// Run with -race.
func TestConcurrentUse(t *testing.T) {
	db := openTemp(t)
	const writers, perWriter = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	writersDone := make(chan struct{})

	var wwg sync.WaitGroup
	for w := range writers {
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			for i := range perWriter {
				msgID := fmt.Sprintf("w%d-%d@example.test", w, i)
				err := db.Update(func(tx *Tx) error {
					if _, seen, err := tx.Seen("seat:g/p", msgID); err != nil || seen {
						return err
					}
					if err := tx.Put([]string{"orders", fmt.Sprintf("g%d", w)}, SeqKey(uint64(i)), []byte("plot")); err != nil {
						return err
					}
					if _, err := tx.Enqueue(mail(fmt.Sprintf("w%d-%d", w, i), fmt.Sprintf("g%d", w))); err != nil {
						return err
					}
					return tx.MarkSeen(msgID, SeenRecord{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(w*perWriter + i + 1), Outcome: "accepted", Scope: "seat:g/p"})
				})
				if err != nil {
					errs <- err
					return
				}
				if err := db.SaveCursor("INBOX", 1, uint32(w*perWriter+i+1)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	go func() { wwg.Wait(); close(writersDone) }()

	// Readers.
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-writersDone:
					return
				default:
				}
				err := db.View(func(tx *Tx) error {
					games, err := tx.Buckets([]string{"orders"})
					if err != nil {
						return err
					}
					for _, g := range games {
						if err := tx.ForEach([]string{"orders", g}, func(string, []byte) error { return nil }); err != nil {
							return err
						}
					}
					_, err = tx.OutboxByGame("g0")
					return err
				})
				if err == nil {
					_, err = db.OutboxStats()
				}
				if err == nil {
					_, _, err = db.LoadCursor("INBOX")
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}

	// One sender (Pending hands out no leases, so the daemon runs one).
	sent := map[string]int{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		finishing := false
		for {
			list, err := db.Pending(time.Now(), 25)
			if err != nil {
				errs <- err
				return
			}
			for i, o := range list {
				sent[o.ID]++
				if i%7 == 3 && o.Attempts == 0 {
					err = db.MarkFailed(o.ID, fmt.Errorf("421 busy"), time.Now().Add(-time.Minute)) // due again at once
				} else {
					err = db.MarkSent(o.ID, time.Now())
				}
				if err != nil {
					errs <- err
					return
				}
			}
			if len(list) == 0 {
				if finishing {
					return
				}
				select {
				case <-writersDone:
					finishing = true // one more pass after the last commit
				case <-db.OutboxReady():
				case <-time.After(10 * time.Millisecond):
				}
			}
		}
	}()

	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st, err := db.OutboxStats()
	if err != nil {
		t.Fatal(err)
	}
	if want := (OutboxStats{Total: writers * perWriter, Sent: writers * perWriter}); st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
	for id, n := range sent {
		o := item(t, db, id)
		want := 1
		if o.Attempts > 0 {
			want = 2 // the failed attempt and the successful one
		}
		if n != want {
			t.Errorf("%s handed to the sender %d times (attempts %d)", id, n, o.Attempts)
		}
	}
	if len(sent) != writers*perWriter {
		t.Errorf("sender saw %d mails", len(sent))
	}
	if v, u, err := db.LoadCursor("INBOX"); v != 1 || u == 0 || err != nil {
		t.Errorf("cursor %d/%d, %v", v, u, err)
	}
}
