package archive

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sortie/adjudicator"
	"sortie/parser"
)

// TestRollbackStaysInTheArchive: a rollback deleted the discarded turns' records, so the export and
// verify never said it happened, and verify reported every commitment matched while mails carried the
// discarded turns' commitments. Now the discarded turns are a closed timeline that verify re-runs, and
// every commitment mailed is accounted for.
func TestRollbackStaysInTheArchive(t *testing.T) {
	a := newArchiveGame(t, 4)
	a.play(3)
	discardedRec, err := a.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.s.Moderate("g1", parser.Command{Name: "ROLLBACK", Args: []string{"2"}}); err != nil {
		t.Fatal(err)
	}
	// While the game runs: the timeline is exported and verifies with the recorded dice.
	ar, dir := a.export()
	if len(ar.Manifest.Timelines) != 1 {
		t.Fatalf("manifest timelines: %+v", ar.Manifest.Timelines)
	}
	tl := ar.Manifest.Timelines[0]
	if tl.Timeline != 1 || tl.From != 4 || tl.To != 2 || jsonOf(tl.Rounds) != "[2,3]" ||
		!strings.Contains(tl.Text, "turns 2 to 3 were played, then rolled back by the moderator on") {
		t.Errorf("timeline: %+v", tl)
	}
	for _, n := range []int{2, 3} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(timelineFile(1, n)))); err != nil {
			t.Errorf("the discarded round %d is not in the archive: %v", n, err)
		}
	}
	rep := mustVerify(t, dir)
	var text strings.Builder
	rep.WriteText(&text)
	for _, want := range []string{"timeline 1, round 2: ok", "timeline 1, round 3: ok", "rolled back: turns 2 to 3 were played"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("verify's report lacks %q:\n%s", want, text.String())
		}
	}
	// Every commitment shown in a mail is one of the archive's, those of the discarded turns included.
	var discarded []string
	for _, r := range discardedRec.Rounds[1:] {
		discarded = append(discarded, r.Commitment)
	}
	// The opening position's, and the one after each of the three turns played (two of them discarded).
	if rep.Mailed != 4 || len(discarded) != 2 {
		t.Errorf("verify counted %d mailed commitments, want 4", rep.Mailed)
	}

	// Played to the end: with the seed revealed, every timeline and every mailed commitment verifies.
	a.play(3)
	ar, dir = a.export()
	if ar.Manifest.Status != adjudicator.StatusOver {
		t.Fatalf("the game is not over: %s", ar.Manifest.Status)
	}
	rep = mustVerify(t, dir)
	if !rep.SeedVerified || rep.Commitments != "verified" {
		t.Errorf("a finished game with a rollback: %+v", rep)
	}

	// Without the timeline, the discarded turns' commitments in the mails are unaccounted for.
	stripTimelines(t, dir)
	mustFail(t, dir, "which no state in the archive gives")
}

// TestVerifyCatchesAChangedTimeline: a discarded round is re-run like any other.
func TestVerifyCatchesAChangedTimeline(t *testing.T) {
	a := newArchiveGame(t, 4)
	a.play(2)
	if _, err := a.s.Moderate("g1", parser.Command{Name: "ROLLBACK", Args: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	_, dir := a.export()
	name := filepath.Join(dir, filepath.FromSlash(timelineFile(1, 2)))
	var r ArchivedRound
	b, _ := os.ReadFile(name)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	r.HashAfter = strings.Repeat("0", 64)
	b, _ = json.MarshalIndent(r, "", "  ")
	os.WriteFile(name, append(b, '\n'), 0o600)
	rewriteSums(t, dir)
	mustFail(t, dir, "timeline 1, round 2: hash after differs")
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// stripTimelines removes the closed timelines from an archive folder, as an older export would have.
func stripTimelines(t *testing.T, dir string) {
	t.Helper()
	var m Manifest
	if err := json.Unmarshal(mustRead(t, dir, fileManifest), &m); err != nil {
		t.Fatal(err)
	}
	m.Timelines = nil
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(dir, fileManifest), append(b, '\n'), 0o600)
	os.RemoveAll(filepath.Join(dir, dirTimelines))
	rewriteSums(t, dir)
}
