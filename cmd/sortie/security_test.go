package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestArchiveAndBackupModes: an exported archive and a backup hold players' mail and secrets, so they
// are written for their owner only (0700 folders, 0600 files), whatever the umask.
func TestArchiveAndBackupModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir, cfg, scenario := archiveSetup(t)
	mustRun(t, "game", "new", "--config", cfg, "--id", "g1", scenario)
	mustRun(t, "game", "resolve", "--config", cfg, "g1")
	arch := filepath.Join(dir, "archive")
	mustRun(t, "export", "g1", "--config", cfg, "--out", arch)
	n := 0
	filepath.WalkDir(arch, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(path)
		want := os.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %o, want %o", path, st.Mode().Perm(), want)
		}
		n++
		return nil
	})
	if n < 5 {
		t.Fatalf("the archive has only %d entries", n)
	}
	backup := filepath.Join(dir, "backup.db")
	mustRun(t, "backup", "--config", cfg, "--out", backup)
	if st, err := os.Stat(backup); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("backup: %v %v", st.Mode(), err)
	}
}
