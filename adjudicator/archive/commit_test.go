package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sortie/adjudicator"
	"sortie/parser"
	"sortie/rules/dice"
)

// TestNoPlainStateHashReachesAPlayer: the plain SHA-256 of a state is an oracle (re-run the open engine
// on guesses of an unseen enemy's plot until the hash matches), so no mail, no status and no manifest
// shows it; what they show is the keyed commitment, which cannot be computed without the seed. It used to
// fail: every report carried the plain hash.
func TestNoPlainStateHashReachesAPlayer(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(2)
	rec, err := a.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	var plain []string
	for _, r := range rec.Rounds {
		plain = append(plain, r.HashBefore, r.HashAfter)
		if r.Commitment == "" || r.Commitment == r.HashAfter {
			t.Errorf("round %d records the commitment %q", r.Round, r.Commitment)
		}
	}
	mails := rec.Mails
	if len(plain) != 4 || len(mails) == 0 {
		t.Fatalf("%d hashes, %d mails", len(plain), len(mails))
	}
	st, err := a.s.Status("g1")
	if err != nil {
		t.Fatal(err)
	}
	ar, dir := a.export()
	manifest := string(mustRead(t, dir, fileManifest))
	for _, h := range plain {
		for _, m := range mails {
			if strings.Contains(m.Subject+m.Body, h) {
				t.Errorf("a %s mail to %s shows the plain state hash %s", m.Kind, m.To, h)
			}
		}
		if st.StateCommitment == h || strings.Contains(manifest, h) {
			t.Errorf("the status or the manifest shows the plain state hash %s", h)
		}
	}
	// The reports show the commitment the archive records, and it is the keyed one.
	seed, _ := dice.ParseSeed(archiveSeed)
	last := ar.Rounds[len(ar.Rounds)-1]
	if want := adjudicator.StateCommitment(seed, ar.State); last.Commitment != want || st.StateCommitment != want || ar.Manifest.StateCommitment != want {
		t.Errorf("commitments: round %s, status %s, manifest %s, recomputed %s", last.Commitment, st.StateCommitment, ar.Manifest.StateCommitment, want)
	}
	shown := false
	for _, m := range mails {
		shown = shown || (m.Kind == "report" && strings.Contains(m.Body, "State commitment after this turn: "+last.Commitment))
	}
	if !shown {
		t.Error("no report shows the commitment to the state after the last turn")
	}
	// Another seed gives other commitments: the key is the game's own.
	if adjudicator.StateCommitment(dice.Seed{1}, ar.State) == last.Commitment {
		t.Error("the commitment does not depend on the seed")
	}
}

// TestVerifyChecksCommitments: while the game runs, verify says it cannot check the commitments yet;
// once it is over, it recomputes each turn's from the revealed seed, and a changed one fails.
func TestVerifyChecksCommitments(t *testing.T) {
	a := newArchiveGame(t, 2)
	a.play(1)
	_, dir := a.export()
	rep := mustVerify(t, dir)
	var text strings.Builder
	rep.WriteText(&text)
	if rep.Commitments != "not yet" || !strings.Contains(text.String(), "cannot be recomputed yet") {
		t.Errorf("a running game's commitments: %q\n%s", rep.Commitments, text.String())
	}

	a.play(1)
	ar, dir := a.export()
	if ar.Manifest.Status != adjudicator.StatusOver {
		t.Fatal("the game is not over")
	}
	rep = mustVerify(t, dir)
	text.Reset()
	rep.WriteText(&text)
	if rep.Commitments != "verified" || !strings.Contains(text.String(), "recomputed from the seed and matches") {
		t.Errorf("a finished game's commitments: %q\n%s", rep.Commitments, text.String())
	}
	if strings.Contains(text.String(), "no mail") {
		t.Errorf("every commitment must be in the mails:\n%s", text.String())
	}

	// A commitment that is not the one of the state after the round.
	r := readRound(t, dir, 2)
	r.Commitment = adjudicator.StateCommitment(dice.Seed{9}, r.StateBefore)
	writeRound(t, dir, r)
	rewriteSums(t, dir)
	mustFail(t, dir, "round 2: the state after does not give the commitment")
	_, dir = a.export()
	b := bytes.Replace(mustRead(t, dir, fileManifest), []byte(ar.Manifest.StateCommitment), []byte(strings.Repeat("ab", 32)), 1)
	os.WriteFile(filepath.Join(dir, fileManifest), b, 0o644)
	rewriteSums(t, dir)
	mustFail(t, dir, "does not give the state commitment")
}

// TestRollbackEpochVerifies: a turn played again after ROLLBACK draws from a stream keyed by the epoch,
// the archive records the epoch, and verify re-draws the dice from the revealed seed exactly.
func TestRollbackEpochVerifies(t *testing.T) {
	a := newArchiveGame(t, 2)
	a.play(1)
	first, _ := a.export()
	if _, err := a.s.Moderate("g1", parser.Command{Name: "ROLLBACK", Args: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	a.play(2)
	ar, dir := a.export()
	if ar.Rounds[0].Epoch != 1 || ar.Rounds[1].Epoch != 1 {
		t.Errorf("epochs after a rollback: %d, %d", ar.Rounds[0].Epoch, ar.Rounds[1].Epoch)
	}
	if diffDice(first.Rounds[0].Dice, ar.Rounds[0].Dice, "undone", "replayed") == "" {
		t.Error("turn 1 played again with the same orders rolled the same dice")
	}
	rep := mustVerify(t, dir)
	if !rep.SeedVerified || rep.Commitments != "verified" {
		t.Errorf("report: %+v", rep)
	}
	// The epoch is part of the check: without it the dice are not the seed's.
	r := readRound(t, dir, 1)
	r.Epoch = 0
	writeRound(t, dir, r)
	rewriteSums(t, dir)
	mustFail(t, dir, "round 1: dice differ")
}
