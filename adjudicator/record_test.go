package adjudicator

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"sortie/storage"
	"sortie/templates"
)

// TestRecordReadsTheWholeGame: Record gives every round as the service archived it, the state, the
// mails and the commitment the players were shown, with the secrets still in (the archive package
// withholds them).
func TestRecordReadsTheWholeGame(t *testing.T) {
	f := newFixture(t, 0)
	f.play(1)
	rec, err := f.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Rounds) != 1 || rec.Rounds[0].Round != 1 || len(rec.Rounds[0].Orders) != 4 || !json.Valid(rec.State) {
		t.Fatalf("record: %d rounds", len(rec.Rounds))
	}
	r := rec.Rounds[0]
	if r.HashBefore == "" || r.HashAfter == "" || r.Commitment == "" || r.Commitment == r.HashAfter || len(r.Dice) == 0 {
		t.Errorf("round 1: hashes %q %q, commitment %q, %d dice", r.HashBefore, r.HashAfter, r.Commitment, len(r.Dice))
	}
	if rec.StateCommitment != StateCommitment(rec.Game.seedValue(), rec.State) || rec.StateCommitment != r.Commitment {
		t.Errorf("state commitment %s, round's %s", rec.StateCommitment, r.Commitment)
	}
	if len(rec.Mails) == 0 || !strings.Contains(rec.Scenario, "lark-swift-0001") || rec.Game.Seats[0].Secret == "" {
		t.Errorf("the record must hold every mail, the scenario and the secrets")
	}
	// The record is a copy: changing it does not change the service's game.
	rec.Game.Seats[0].Secret = "changed"
	if again, _ := f.s.Record("g1"); again.Game.Seats[0].Secret == "changed" {
		t.Error("the record shares the game's seats")
	}
	if _, err := f.s.Record("nope"); err == nil {
		t.Error("an unknown game has no record")
	}
}

func TestArchiveBackup(t *testing.T) {
	a := newFixture(t, 0)
	a.play(1)
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := a.s.Backup(path); err != nil {
		t.Fatal(err)
	}
	if err := a.s.Backup(a.db.Path()); err == nil {
		t.Error("a backup over the live database must be refused")
	}
	b, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	keys := func(db *storage.DB, path ...string) []string {
		var out []string
		if err := db.View(func(tx *storage.Tx) error {
			var err error
			out, err = tx.Keys(path)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got, want := keys(b, "games"), keys(a.db, "games"); len(got) != 1 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("backup games %v, live %v", got, want)
	}
	if got := keys(b, "archive", "g1"); len(got) != 1 {
		t.Errorf("the backup's archive of g1: %v", got)
	}
	// A service on the backup reads the same game.
	tmpl, _ := templates.New("")
	rec, err := New(b, tmpl, Config{Address: "sortie@sortie.test"}, zerolog.Nop()).Record("g1")
	if err != nil || len(rec.Rounds) != 1 || rec.Rounds[0].HashAfter == "" {
		t.Errorf("the game read from the backup: %v", err)
	}
}
