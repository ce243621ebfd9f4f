package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"sortie/adjudicator"
	"sortie/rules/afd"
)

// TestBackupDoesNotBlockTheClock: a scheduled backup that takes long runs beside the clock, so a
// deadline passing meanwhile still resolves; and no second backup starts while one is running.
func TestBackupDoesNotBlockTheClock(t *testing.T) {
	dir := t.TempDir()
	cfg := &Config{Database: filepath.Join(dir, "sortie.db"), Address: "sortie@sortie.test", ResolveDelay: "0s", LogLevel: "error"}
	cfg.Backup.Dir, cfg.Backup.Every = filepath.Join(dir, "backups"), "1ms"
	d, err := NewDaemon(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.Tick = 5 * time.Millisecond
	release := make(chan struct{})
	var running, most, calls atomic.Int32
	d.backupHook = func(now time.Time) error {
		n := running.Add(1)
		defer running.Add(-1)
		if n > most.Load() {
			most.Store(n)
		}
		calls.Add(1)
		<-release
		return d.backup(now)
	}
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte("\nservice:\n  players:\n    alice: {email: alice@players.test, secret: lark-swift-0001}\n    bob: {email: bob@players.test, secret: kite-heron-0002}\n")...)
	if _, err := d.Svc.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	// Wait for the first backup to be under way, then let both players' orders in.
	for calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	for _, p := range []struct{ from, secret, units string }{{"alice@players.test", "lark-swift-0001", "RED1: 6\nRED2: 6"}, {"bob@players.test", "kite-heron-0002", "HANS: 6\nKURT: 5 HOLD"}} {
		if _, err := d.Svc.Submit(adjudicator.Envelope{From: p.from, To: []string{"sortie@sortie.test"}, MessageID: "t1." + p.from, Text: fmt.Sprintf("GAME g1 TURN 1 SECRET %s\n%s\nEND", p.secret, p.units), Size: 100}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(hangGuard)
	for {
		st, err := d.Svc.Status("g1")
		if err != nil {
			t.Fatal(err)
		}
		if st.Round == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the round did not resolve while a backup was running: the clock is blocked")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // several more backups fall due meanwhile
	if c := calls.Load(); c != 1 {
		t.Errorf("%d backups started while the first was still running", c)
	}
	close(release)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if most.Load() != 1 {
		t.Errorf("%d backups ran at once", most.Load())
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "backups", "sortie-*.db")); len(m) == 0 {
		t.Error("the held-back backup was not written before Run returned")
	}
}
