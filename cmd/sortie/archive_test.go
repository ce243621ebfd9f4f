package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/adjudicator/archive"
	"sortie/cmd/sortie/internal/daemon"
	"sortie/rules/afd"
	"sortie/storage"
	"sortie/templates"
)

const archiveTestSeed = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12"

// archiveSetup writes a configuration (no mail servers) and a scenario into a fresh folder.
func archiveSetup(t *testing.T) (dir, cfg, scenario string) {
	t.Helper()
	dir = t.TempDir()
	cfg = filepath.Join(dir, "sortie.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("database: %s\naddress: sortie@sortie.test\nlog_level: warn\n", filepath.Join(dir, "sortie.db"))), 0o644)
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte(fmt.Sprintf("\nservice:\n  seed: %s\n  players:\n    alice: {email: alice@players.test, secret: lark-kite-wren-11}\n    bob: {email: bob@players.test}\n", archiveTestSeed))...)
	scenario = filepath.Join(dir, "channel.yaml")
	os.WriteFile(scenario, scn, 0o644)
	return dir, cfg, scenario
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := sortie(t, args...)
	if code != 0 {
		t.Fatalf("sortie %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	return out
}

// resum recomputes SHA256SUMS after a change, as a forger would.
func resum(t *testing.T, dir string) {
	t.Helper()
	sums, _ := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		_, name, _ := strings.Cut(line, "  ")
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), name)
	}
	os.WriteFile(filepath.Join(dir, "SHA256SUMS"), b.Bytes(), 0o644)
}

func TestExportVerifyBackupCommands(t *testing.T) {
	dir, cfg, scenario := archiveSetup(t)
	mustRun(t, "game", "new", "--config", cfg, "--id", "g1", scenario)
	mustRun(t, "game", "resolve", "--config", cfg, "g1")
	mustRun(t, "game", "resolve", "--config", cfg, "g1")

	arch := filepath.Join(dir, "archive")
	out := mustRun(t, "export", "g1", "--config", cfg, "--out", arch)
	if !strings.Contains(out, "game g1 exported to") || !strings.Contains(out, "2 turn(s)") || !strings.Contains(out, "seed is withheld") {
		t.Errorf("export said: %s", out)
	}
	out = mustRun(t, "verify", arch)
	for _, want := range []string{"round 1: ok", "round 2: ok", "verified: all 2 round(s)"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, "verify", "--json", arch)
	var rep archive.VerifyReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || !rep.OK() || len(rep.Rounds) != 2 {
		t.Errorf("verify --json: %v\n%s", err, out)
	}

	// A forged order in round 2: exit 1, and the turn is named.
	path := filepath.Join(arch, "rounds", "0002.json")
	b, _ := os.ReadFile(path)
	var r map[string]json.RawMessage
	json.Unmarshal(b, &r)
	r["orders"] = json.RawMessage(`{"RED1": "1 TL 4"}`)
	b, _ = json.MarshalIndent(r, "", "  ")
	os.WriteFile(path, b, 0o644)
	resum(t, arch)
	out, errOut, code := sortie(t, "verify", arch)
	if code != 1 || !strings.Contains(out, "round 1: ok") || !strings.Contains(out, "round 2: FAILED") ||
		!strings.Contains(errOut, "round 2: events differ") || !strings.Contains(out, "NOT VERIFIED") {
		t.Errorf("a forged turn: exit %d\n%s\n%s", code, out, errOut)
	}

	// Usage errors exit 2.
	for _, args := range [][]string{
		{"export"},
		{"export", "g1", "--config", cfg},
		{"export", "g1", "--out", filepath.Join(dir, "x")},
		{"export", "g1", "--config", cfg, "--out", arch}, // not empty
		{"export", "nosuch", "--config", cfg, "--out", filepath.Join(dir, "y")},
		{"verify"},
		{"verify", filepath.Join(dir, "nowhere")},
		{"backup", "--config", cfg},
		{"backup", "--out", filepath.Join(dir, "b.db")},
		{"backup", "--config", cfg, "--out", filepath.Join(dir, "no", "such", "b.db")},
	} {
		if out, errOut, code := sortie(t, args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	if _, errOut, code := sortie(t, "verify", dir); code != 1 || !strings.Contains(errOut, "not a sortie archive") {
		t.Errorf("verify of a folder that is no archive: exit %d %s", code, errOut)
	}

	// A backup, and the game in it.
	backup := filepath.Join(dir, "backup.db")
	if out := mustRun(t, "backup", "--config", cfg, "--out", backup); !strings.Contains(out, "written to "+backup) {
		t.Errorf("backup said: %s", out)
	}
	checkBackup(t, backup)
}

// checkBackup opens a backup file and finds game g1 with its archived turns.
func checkBackup(t *testing.T, path string) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var games, rounds []string
	db.View(func(tx *storage.Tx) error {
		games, _ = tx.Keys([]string{"games"})
		rounds, _ = tx.Keys([]string{"archive", "g1"})
		return nil
	})
	if strings.Join(games, ",") != "g1" || len(rounds) < 1 {
		t.Errorf("the backup holds games %v with %d archived turn(s)", games, len(rounds))
	}
}

// The daemon's half of the control protocol, run in this process on a service of its own: what
// serve.go's socket does once gameCommand hands archive commands to archiveCommand.
func TestArchiveCommandsOverControlSocket(t *testing.T) {
	dir, cfgPath, scenario := archiveSetup(t)
	cfg, err := daemon.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(cfg.Database, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tmpl, _ := templates.New("")
	svc := adjudicator.New(db, tmpl, cfg.AdjudicatorConfig(), zerolog.Nop())
	scn, _ := os.ReadFile(scenario)
	if _, err := svc.NewGame(scn, scenario, "g1"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ResolveGame("g1", true); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", socketPath(cfg.Database))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var req controlRequest
			json.NewDecoder(c).Decode(&req)
			var out bytes.Buffer
			handled, err := archiveCommand(svc, req.Args, &out)
			if !handled {
				err = usagef("game: unknown command %q", req.Args[0])
			}
			resp := controlResponse{Output: out.String()}
			if err != nil {
				resp.Error = err.Error()
				var u usageError
				if resp.Usage = errors.As(err, &u); resp.Usage {
					resp.Error = u.msg
				}
			}
			json.NewEncoder(c).Encode(resp)
			c.Close()
		}
	}()

	// The database is held here, so the commands can only work through the socket.
	arch := filepath.Join(dir, "archive")
	var out bytes.Buffer
	if err := cmdExport([]string{"g1", "--config", cfgPath, "--out", arch}, &out); err != nil {
		t.Fatal(err)
	}
	if rep, err := archive.Verify(arch); err != nil || len(rep.Rounds) != 1 {
		t.Fatalf("the archive that came through the socket: %v", err)
	}
	if err := cmdExport([]string{"nosuch", "--config", cfgPath, "--out", filepath.Join(dir, "a2")}, &out); err == nil ||
		!errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "no game") {
		t.Errorf("an unknown game through the socket: %v", err)
	}
	backup := filepath.Join(dir, "backup.db")
	if err := cmdBackup([]string{"--config", cfgPath, "--out", backup}, &out); err != nil {
		t.Fatal(err)
	}
	checkBackup(t, backup)
	var w bytes.Buffer
	if handled, err := archiveCommand(svc, []string{"backup", "relative.db"}, &w); !handled || err == nil {
		t.Errorf("a relative backup path in the daemon: %v %v", handled, err)
	}
	if handled, _ := archiveCommand(svc, []string{"list"}, &w); handled {
		t.Error("archiveCommand must leave the game commands alone")
	}
}

// With the real daemon running: export and backup go through its socket. Until serve.go hands archive
// commands to archiveCommand the daemon answers "unknown command", and the test says so and skips.
func TestArchiveCommandsWhileDaemonRuns(t *testing.T) {
	dir, cfg, scenario := archiveSetup(t)
	mustRun(t, "game", "new", "--config", cfg, "--id", "g1", scenario)
	mustRun(t, "game", "resolve", "--config", cfg, "g1")
	cmd := exec.Command(binary, "serve", "--config", cfg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	sock := socketPath(filepath.Join(dir, "sortie.db"))
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > time.Minute { // a generous wait for the daemon's start, not a speed claim
			t.Fatalf("the daemon did not open its socket within a minute\n%s", stderr.String())
		}
	}
	arch := filepath.Join(dir, "archive")
	out, errOut, code := sortie(t, "export", "g1", "--config", cfg, "--out", arch)
	if code != 0 {
		t.Fatalf("export while the daemon runs: exit %d\n%s\n%s", code, out, errOut)
	}
	mustRun(t, "verify", arch)
	backup := filepath.Join(dir, "backup.db")
	mustRun(t, "backup", "--config", cfg, "--out", backup)
	checkBackup(t, backup)
}
