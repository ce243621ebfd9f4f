package storage

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

type spooledEntry struct {
	uv, uid uint32
	raw     string
}

func spooledOf(t *testing.T, db *DB, mailbox string) []spooledEntry {
	t.Helper()
	var out []spooledEntry
	if err := db.Spooled(mailbox, func(uv, uid uint32, raw []byte) error {
		out = append(out, spooledEntry{uv, uid, string(raw)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSpoolHoldsMailUntilUnspooled: spooled messages come back by UIDVALIDITY then UID, only the
// mailbox's own, with their bytes, after the file is closed and opened again; the cursor moves in the
// same transaction (or stays, for a last UID of 0); Unspool lets go of exactly what it is given.
func TestSpoolHoldsMailUntilUnspooled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SpoolMessages("INBOX", 7, []uint32{10, 2, 300}, [][]byte{[]byte("ten"), []byte("two"), []byte("three hundred")}, 300); err != nil {
		t.Fatal(err)
	}
	if err := db.SpoolMessages("INBOX", 6, []uint32{99}, [][]byte{[]byte("old validity")}, 0); err != nil {
		t.Fatal(err)
	}
	if err := db.SpoolMessages("INBOX2", 7, []uint32{1}, [][]byte{[]byte("other mailbox")}, 1); err != nil {
		t.Fatal(err)
	}
	if uv, last, err := db.LoadCursor("INBOX"); err != nil || uv != 7 || last != 300 {
		t.Fatalf("cursor %d/%d %v, want 7/300: a last UID of 0 must leave it", uv, last, err)
	}
	db.Close()
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := []spooledEntry{{6, 99, "old validity"}, {7, 2, "two"}, {7, 10, "ten"}, {7, 300, "three hundred"}}
	if got := spooledOf(t, db, "INBOX"); !slices.Equal(got, want) {
		t.Fatalf("spooled %v, want %v", got, want)
	}
	if err := db.Unspool("INBOX", 7, []uint32{10, 2, 12345}); err != nil {
		t.Fatal(err)
	}
	want = []spooledEntry{{6, 99, "old validity"}, {7, 300, "three hundred"}}
	if got := spooledOf(t, db, "INBOX"); !slices.Equal(got, want) {
		t.Fatalf("after Unspool %v, want %v", got, want)
	}
	if got := spooledOf(t, db, "INBOX2"); !slices.Equal(got, []spooledEntry{{7, 1, "other mailbox"}}) {
		t.Fatalf("INBOX2 holds %v", got)
	}
	stop := errors.New("stop")
	calls := 0
	if err := db.Spooled("INBOX", func(uint32, uint32, []byte) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("Spooled went on after fn's error: %d calls, %v", calls, err)
	}
}

// TestSpoolIsReserved: the generic record methods cannot write into the spool, and the typed ones refuse
// an empty mailbox or mismatched lists.
func TestSpoolIsReserved(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *Tx) error { return tx.Put([]string{BucketSpool}, "INBOX\x0000000001", []byte("x")) })
	if err == nil {
		t.Fatal("the generic Put wrote into the spool")
	}
	for i, err := range []error{
		db.SpoolMessages("", 1, nil, nil, 0),
		db.SpoolMessages("INBOX", 1, []uint32{1}, nil, 0),
		db.Unspool("", 1, []uint32{1}),
		db.Spooled("", func(uint32, uint32, []byte) error { return nil }),
	} {
		if err == nil {
			t.Errorf("call %d: no error", i)
		}
	}
	if got := spooledOf(t, db, "INBOX"); len(got) != 0 {
		t.Fatalf("spool holds %v", got)
	}
}
