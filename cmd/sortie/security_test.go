package main

import (
	"bytes"
	"context"
	le "encoding/binary"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// damage spoils a database file the ways disks and accidents do (see storage's own tests).
func damage(t *testing.T, path, how string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := int(le.LittleEndian.Uint32(data[16+8:]))
	switch how {
	case "truncated":
		data = data[:3*ps]
	case "empty":
		data = nil
	case "random":
		rand.New(rand.NewSource(11)).Read(data)
	case "freelist":
		for m := 0; m < 2; m++ {
			fl := int(le.LittleEndian.Uint64(data[m*ps+16+32:]))
			for i := fl * ps; i < (fl+1)*ps && i < len(data); i++ {
				data[i] = 0xa5
			}
		}
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedDatabaseThroughTheBinary: serve, game list, game status and export on a damaged or empty
// database each end with a clear error that names the file and the newest backup, never a Go trace; an
// empty file is not silently made a new database, but is with --init.
func TestDamagedDatabaseThroughTheBinary(t *testing.T) {
	dir, cfg, scenario := archiveSetup(t)
	backups := filepath.Join(dir, "backups")
	os.Mkdir(backups, 0o700)
	f, _ := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintf(f, "backup:\n  dir: %s\n", backups)
	f.Close()
	mustRun(t, "game", "new", "--config", cfg, "--id", "g1", scenario)
	mustRun(t, "game", "resolve", "--config", cfg, "g1")
	older := filepath.Join(backups, "sortie-20261120-060000.db")
	latest := filepath.Join(backups, "sortie-20261122-060000.db")
	mustRun(t, "backup", "--config", cfg, "--out", older)
	mustRun(t, "backup", "--config", cfg, "--out", latest)
	db := filepath.Join(dir, "sortie.db")
	good, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"truncated", "empty", "random", "freelist"} {
		t.Run(how, func(t *testing.T) {
			os.WriteFile(db, good, 0o600)
			damage(t, db, how)
			for _, args := range [][]string{
				{"serve", "--config", cfg},
				{"game", "list", "--config", cfg},
				{"game", "status", "--config", cfg, "g1"},
				{"export", "g1", "--config", cfg, "--out", filepath.Join(dir, "out-"+how)},
			} {
				out, errOut, code := sortieWithin(t, 30*time.Second, args...)
				if code != 1 || strings.Contains(errOut, "goroutine ") || strings.Contains(errOut, "panic") && !strings.Contains(errOut, "damaged") {
					t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
					continue
				}
				if !strings.Contains(errOut, db) || !strings.Contains(errOut, "latest backup is "+latest) {
					t.Errorf("%v: the error must name the file and the latest backup:\n%s", args, errOut)
				}
				if how == "empty" && !strings.Contains(errOut, "--init") {
					t.Errorf("%v: an empty file must point to --init:\n%s", args, errOut)
				}
			}
			if st, _ := os.Stat(db); how == "empty" && st.Size() != 0 {
				t.Fatal("the empty file was made a database without --init")
			}
		})
	}
	// With --init the empty file becomes a new database.
	damage(t, db, "empty")
	mustRun(t, "game", "new", "--config", cfg, "--id", "g2", "--init", scenario)
	if out := mustRun(t, "game", "list", "--config", cfg); !strings.Contains(out, "g2") || strings.Contains(out, "g1 ") {
		t.Errorf("after --init:\n%s", out)
	}
}

// sortieWithin runs the binary like sortie, but kills it after d (a daemon that wrongly starts would
// otherwise run on).
func sortieWithin(t *testing.T, d time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		return o.String(), e.String() + "\n(killed: still running after " + d.String() + ")", -1
	}
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestControlSocketAccess: the daemon's control socket is 0600 even under umask 000; a user who is
// not the daemon's (nor root, nor in control.group) is refused even if the socket's mode lets them
// connect; a scenario sent over the socket cannot make the daemon read a file elsewhere on its disk,
// and the error never shows that file's text.
func TestControlSocketAccess(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir, cfg, scenario := archiveSetup(t)
	os.Chmod(dir, 0o755)
	secret := filepath.Join(t.TempDir(), "shadow")
	os.WriteFile(secret, []byte("root:$6$SECRETHASHxyz:19000:0:99999:7:::\n"), 0o600)
	scn, _ := os.ReadFile(scenario)
	hostile := filepath.Join(dir, "hostile.yaml")
	os.WriteFile(hostile, []byte(strings.Replace(string(scn), "options:\n", "options:\n  tables: "+secret+"\n", 1)), 0o644)
	relative := filepath.Join(dir, "relative.yaml")
	os.WriteFile(relative, []byte(strings.Replace(string(scn), "options:\n", "options:\n  tables: ../../../../../../.."+secret+"\n", 1)), 0o644)

	cmd := exec.Command(binary, "serve", "--config", cfg)
	var serveErr bytes.Buffer
	cmd.Stderr = &serveErr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	sock := socketPath(filepath.Join(dir, "sortie.db"))
	// The daemon makes the socket under a umask of its own that leaves it 0600 as it is created, whatever
	// the umask it was started with: once the socket is there, its mode is final (no group is set here).
	guard := time.After(hangGuard)
	for {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		select {
		case <-guard:
			t.Fatalf("no control socket\n%s", serveErr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if st, err := os.Stat(sock); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("control socket mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	for _, scn := range []string{hostile, relative} {
		out, errOut, code := sortieWithin(t, 30*time.Second, "game", "new", "--config", cfg, scn)
		if code == 0 || strings.Contains(out+errOut, "SECRETHASH") || strings.Contains(out+errOut, "root:") {
			t.Errorf("%s over the socket: exit %d\n%s\n%s", filepath.Base(scn), code, out, errOut)
		}
		if !strings.Contains(errOut, "inside the scenario's folder") {
			t.Errorf("%s: the refusal should say why:\n%s", filepath.Base(scn), errOut)
		}
	}
	// A tables file beside the scenario is sent along by the client, so a game that includes one starts
	// through the running daemon too, without the daemon reading its own disk.
	os.WriteFile(filepath.Join(dir, "kinder.yaml"), []byte("label: kinder\ndeflection:\n  \"5-7\": {1E: +2, ME: +2}\n  \"4/8\": {1E: 0, ME: +1}\n  \"9-3\": {1E: -2, ME: -1}\n"), 0o600)
	withTables := filepath.Join(dir, "tables.yaml")
	os.WriteFile(withTables, []byte(strings.Replace(string(scn), "options:\n", "options:\n  tables: kinder.yaml\n", 1)), 0o644)
	if out, errOut, code := sortieWithin(t, 30*time.Second, "game", "new", "--config", cfg, "--id", "tabled", withTables); code != 0 || !strings.Contains(out, "game tabled started") {
		t.Errorf("a scenario with its tables file beside it, over the socket: exit %d\n%s\n%s", code, out, errOut)
	}
	// Another user, even with the socket opened to everyone, is refused by its credentials.
	if os.Getuid() != 0 {
		t.Log("not root: the other-user check is skipped")
		return
	}
	os.Chmod(sock, 0o666)
	os.Chmod(filepath.Dir(dir), 0o755)
	binDir, err := os.MkdirTemp("", "sortie-other")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(binDir)
	os.Chmod(binDir, 0o755)
	bin, _ := os.ReadFile(binary)
	os.WriteFile(filepath.Join(binDir, "sortie"), bin, 0o755)
	other := exec.Command(filepath.Join(binDir, "sortie"), "game", "list", "--config", cfg)
	other.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	os.Chmod(cfg, 0o644)
	var o, e bytes.Buffer
	other.Stdout, other.Stderr = &o, &e
	err = other.Run()
	if err == nil || !strings.Contains(e.String(), "refuses commands from this user") {
		t.Errorf("another user: %v\n%s\n%s", err, o.String(), e.String())
	}
	if out := mustRun(t, "game", "list", "--config", cfg); !strings.Contains(out, "GAME") {
		t.Errorf("the daemon's own user: %s", out)
	}
}
