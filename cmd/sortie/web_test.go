package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"sortie/storage"
)

// startWeb runs `sortie web` on a free port and returns its address; the process is stopped (SIGTERM)
// at cleanup and must exit 0.
func startWeb(t *testing.T, cfg string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(binary, "web", "--config", cfg, "--listen", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`at http://(127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	if err != nil || m == nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("sortie web said %q (%v)\n%s", line, err, errOut.String())
	}
	go io.Copy(io.Discard, out)
	return m[1], cmd
}

func stopWeb(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("sortie web stopped with %v", err)
		}
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		t.Fatal("sortie web did not stop on SIGTERM")
	}
}

// sortie web serves the games of a database no daemon runs on, read-only: the list, the game, a
// player's link (`sortie game` printed the seats); and it stops cleanly on SIGTERM.
func TestWebCommandServesTheDatabase(t *testing.T) {
	_, cfg, scenario := archiveSetup(t)
	mustRun(t, "game", "new", "--config", cfg, "--id", "g1", scenario)
	addr, cmd := startWeb(t, cfg)
	res, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), `href="/g/g1/"`) {
		t.Errorf("the list: %d\n%s", res.StatusCode, b)
	}
	// While it runs, the database is open read-only: a command that writes waits, and gives up.
	_, errOut, code := sortie(t, "game", "resolve", "--config", cfg, "g1")
	if code == 0 || !strings.Contains(errOut, "locked") {
		t.Errorf("a write while sortie web runs: exit %d, %s", code, errOut)
	}
	stopWeb(t, cmd)
	mustRun(t, "game", "resolve", "--config", cfg, "g1")
}

// With the daemon running, sortie web says to let the daemon serve the archive; with the database
// locked by another writer it gives up after a while with a clear message.
func TestWebCommandRefusesARunningDaemonAndALock(t *testing.T) {
	dir, cfg, _ := archiveSetup(t)
	db := filepath.Join(dir, "sortie.db")
	ln, err := net.Listen("unix", db+".sock") // what a running daemon listens on
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, errOut, code := sortie(t, "web", "--config", cfg)
	ln.Close()
	os.Remove(db + ".sock")
	if code != 1 || !strings.Contains(errOut, "the sortie daemon is running") || !strings.Contains(errOut, "web.listen") {
		t.Errorf("with a daemon running: exit %d, %s", code, errOut)
	}

	w, err := storage.Open(db, storage.Options{}) // a writer holds the file
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, errOut, code = sortie(t, "web", "--config", cfg, "--listen", "127.0.0.1:0")
	w.Close()
	if code != 1 || !strings.Contains(errOut, "Another sortie is writing") || time.Since(start) < webOpenTimeout/2 {
		t.Errorf("with the database locked: exit %d after %s, %s", code, time.Since(start), errOut)
	}
	if out, errOut, code := sortie(t, "web"); code != 2 || !strings.Contains(errOut, "--config is required") {
		t.Errorf("without --config: exit %d, %s %s", code, out, errOut)
	}
	if out := mustRun(t, "web", "--help"); !strings.Contains(out, "read-only") {
		t.Errorf("help: %s", out)
	}
}
