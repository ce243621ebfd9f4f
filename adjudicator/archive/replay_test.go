package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sortie/adjudicator"
)

// reportMails are the report mails (start, report, over) a player was sent, in order.
func reportMails(rec *adjudicator.GameRecord, to string) []string {
	var out []string
	for _, m := range rec.Mails {
		if m.To == to && (m.Kind == "start" || m.Kind == "report" || m.Kind == "over") {
			out = append(out, m.Body)
		}
	}
	return out
}

// The replay's reports are what each player was mailed: one per report mail, in order, and every event,
// die and map line of each is in that mail. So the web archive shows a player exactly their mail's view.
func TestReplayReportsAreWhatThePlayersWereMailed(t *testing.T) {
	a := newArchiveGame(t, 3)
	a.play(3)
	rec, err := a.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReplay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if r.AsksOnly || r.Noun != "turn" || len(r.Rounds) != 3 {
		t.Fatalf("replay: asks only %v, noun %q, %d rounds", r.AsksOnly, r.Noun, len(r.Rounds))
	}
	for i, rr := range r.Rounds {
		if rr.Rerun || rr.After.Hash() != rr.HashAfter || rr.Log.Round != rr.Round {
			t.Errorf("round %d: rerun %v, hash %s want %s", rr.Round, rr.Rerun, rr.After.Hash(), rr.HashAfter)
		}
		if i+1 < len(r.Rounds) && rr.After.Round() != r.Rounds[i+1].Round {
			t.Errorf("round %d is followed by round %d", rr.Round, rr.After.Round())
		}
	}
	for _, who := range []struct{ player, addr string }{{"alice", "alice@players.test"}, {"bob", "bob@players.test"}} {
		reps := r.PlayerReports(who.player)
		mails := reportMails(rec, who.addr)
		if len(reps) != 4 || len(mails) != len(reps) {
			t.Fatalf("%s: %d reports, %d report mails", who.player, len(reps), len(mails))
		}
		for k, pr := range reps {
			if pr.Index != k || pr.Report.Round != pr.Round || (k > 0 && pr.Round != k) {
				t.Errorf("%s report %d: index %d, round %d, report's round %d", who.player, k, pr.Index, pr.Round, pr.Report.Round)
			}
			var lines []string
			lines = append(lines, pr.Report.Events...)
			lines = append(lines, pr.Report.Dice...)
			if !pr.Report.Over { // the last mail, "game over", shows no map
				lines = append(lines, strings.Split(strings.TrimSpace(pr.Report.Map), "\n")...)
			}
			for _, u := range pr.Report.Own {
				lines = append(lines, u.Name)
			}
			if k > 0 && len(pr.Report.Events) == 0 {
				t.Errorf("%s report %d has no events", who.player, k)
			}
			for _, l := range lines {
				if l = strings.TrimSpace(l); l != "" && !strings.Contains(mails[k], l) {
					t.Errorf("%s report %d: %q is not in the mail:\n%s", who.player, k, l, mails[k])
				}
			}
			if k > 0 && !strings.Contains(mails[k], pr.Commitment) {
				t.Errorf("%s report %d: the commitment %s is not in the mail", who.player, k, pr.Commitment)
			}
		}
	}
	// Report(player, i) is the same report as the player's own list has.
	got, ok := r.Report("alice", 1)
	want := r.PlayerReports("alice")[2].Report
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if !ok || !bytes.Equal(gb, wb) {
		t.Errorf("Report(alice, 1) differs from alice's second round report")
	}
}

// A state after that does not hash to the round's hash after (the chain broken by hand) is found again
// by re-running the round with its recorded dice; a round that does not re-run is an error.
func TestReplayReRunsABrokenChain(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(2)
	rec, err := a.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	rec.Rounds[1].StateBefore = rec.Rounds[0].StateBefore // round 1's state after is now wrong in the chain
	r, err := NewReplay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Rounds[0].Rerun || r.Rounds[0].After.Hash() != r.Rounds[0].HashAfter || r.Rounds[1].Rerun {
		t.Errorf("round 1: rerun %v, hash %s want %s; round 2 rerun %v", r.Rounds[0].Rerun, r.Rounds[0].After.Hash(), r.Rounds[0].HashAfter, r.Rounds[1].Rerun)
	}
	rec.Rounds[0].Dice = rec.Rounds[0].Dice[1:] // and now it does not re-run either
	if _, err := NewReplay(rec); err == nil || !strings.Contains(err.Error(), "round 1") {
		t.Errorf("a round that does not re-run: %v", err)
	}
}

// A game with no round yet replays to its opening position.
func TestReplayOfANewGame(t *testing.T) {
	a := newArchiveGame(t, 0)
	rec, err := a.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReplay(rec)
	if err != nil {
		t.Fatal(err)
	}
	reps := r.PlayerReports("alice")
	if len(r.Rounds) != 0 || len(reps) != 1 || reps[0].Report.Round != 0 || len(reps[0].Report.Own) != 2 {
		t.Errorf("a new game: %d rounds, %d reports", len(r.Rounds), len(reps))
	}
}

// untar reads a gzipped tar into a folder and returns the names in the order they came.
func untar(t *testing.T, data []byte, dir string) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(p, 0o700); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return names
}

// The bundle is the archive folder as a .tar.gz: unpacked, it verifies like the folder WriteDir writes,
// with the same files and bytes; the same archive always gives the same bundle.
func TestBundleIsTheArchiveFolder(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(2)
	ar, dir := a.export()
	var one, two bytes.Buffer
	if err := ar.WriteTarGz(&one); err != nil {
		t.Fatal(err)
	}
	if err := ar.WriteTarGz(&two); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Error("the same archive gave two different bundles")
	}
	if ar.BundleName() != "g1-archive.tar.gz" {
		t.Errorf("bundle name %q", ar.BundleName())
	}
	out := t.TempDir()
	names := untar(t, one.Bytes(), out)
	// The folder's files, in name order, after the folders.
	want := []string{"g1-archive/", "g1-archive/rounds/"}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, "g1-archive/"+filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	want = append(want, files...)
	if len(files) < 10 {
		t.Fatalf("the folder holds %v", files)
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("bundle holds\n%v\nwant\n%v", names, want)
	}
	for _, n := range want {
		if strings.HasSuffix(n, "/") {
			continue
		}
		got, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(n)))
		exp, _ := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(n, "g1-archive/")))
		if !bytes.Equal(got, exp) {
			t.Errorf("%s differs from the folder's", n)
		}
	}
	rep := mustVerify(t, filepath.Join(out, "g1-archive"))
	if rep.SeedRevealed || len(rep.Rounds) != 2 || rep.Rounds[1].Dice != "recorded" {
		t.Errorf("the unpacked bundle of a running game: seed revealed %v, %d rounds", rep.SeedRevealed, len(rep.Rounds))
	}
	for _, n := range want {
		if b, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(n))); bytes.Contains(b, []byte("lark-kite-wren-41")) {
			t.Errorf("%s holds alice's secret", n)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "g1-archive", "manifest.json")); bytes.Contains(b, []byte(archiveSeed)) {
		t.Error("a running game's bundle holds the seed")
	}
}
