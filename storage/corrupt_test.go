package storage

import (
	"encoding/binary"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filledDB makes a real database with some records in it and returns its path, closed.
func filledDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sortie.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if err := db.Update(func(tx *Tx) error {
			for j := 0; j < 40; j++ {
				if err := tx.Put([]string{"games", "g"}, SeqKey(uint64(i*100+j)), []byte(strings.Repeat("x", 200))); err != nil {
					return err
				}
			}
			return tx.Delete([]string{"games", "g"}, SeqKey(uint64(i*100)))
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// corrupt damages a database file the ways disks and accidents do.
func corrupt(t *testing.T, path, how string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	switch how {
	case "truncated":
		// A third of the pages the database uses (the file has room to spare beyond them: bbolt grows it
		// ahead, by as much as 16 MiB).
		ps, hw := usedPages(data)
		data = data[:hw*ps/3]
	case "tail":
		// Cut the last page the database uses.
		ps, hw := usedPages(data)
		data = data[:(hw-1)*ps]
	case "random":
		r := rand.New(rand.NewSource(7))
		r.Read(data)
	case "freelist":
		// Both meta pages name the freelist page: overwrite it (and its header) with junk.
		ps := int(binary.LittleEndian.Uint32(data[16+8:]))
		for m := 0; m < 2; m++ {
			fl := int(binary.LittleEndian.Uint64(data[m*ps+16+32:]))
			for i := fl * ps; i < (fl+1)*ps && i < len(data); i++ {
				data[i] = 0xa5
			}
		}
	case "empty":
		data = nil
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// usedPages reads a bbolt file's page size and high-water mark (the pages in use) from its newer meta page.
func usedPages(data []byte) (pageSize, hw int) {
	ps := int(binary.LittleEndian.Uint32(data[16+8:]))
	m := 0
	if binary.LittleEndian.Uint64(data[ps+16+48:]) > binary.LittleEndian.Uint64(data[16+48:]) {
		m = 1
	}
	return ps, int(binary.LittleEndian.Uint64(data[m*ps+16+40:]))
}

func TestOpenDamagedFiles(t *testing.T) {
	for _, how := range []string{"truncated", "tail", "random", "freelist"} {
		t.Run(how, func(t *testing.T) {
			for _, ro := range []bool{false, true} {
				// A fresh file each time: a panic inside bbolt's own open leaves its lock behind in
				// this process (a real sortie process exits on the error).
				path := filledDB(t)
				corrupt(t, path, how)
				db, err := Open(path, Options{ReadOnly: ro})
				if err == nil {
					db.Close()
					t.Fatalf("read-only %v: a %s file opened", ro, how)
				}
				t.Logf("read-only %v: %v", ro, err)
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
					t.Errorf("read-only %v: %v", ro, err)
				}
			}
		})
	}
}

func TestOpenRefusesAnEmptyFile(t *testing.T) {
	path := filledDB(t)
	corrupt(t, path, "empty")
	if _, err := Open(path, Options{}); !errors.Is(err, ErrEmptyFile) {
		t.Fatalf("an empty file: %v", err)
	}
	if st, _ := os.Stat(path); st.Size() != 0 {
		t.Fatal("the refused file was written")
	}
	db, err := Open(path, Options{InitEmpty: true})
	if err != nil {
		t.Fatalf("InitEmpty: %v", err)
	}
	db.Close()
	// A path that does not exist is still created.
	db, err = Open(filepath.Join(t.TempDir(), "new.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}
