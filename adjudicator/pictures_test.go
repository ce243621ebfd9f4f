package adjudicator

import (
	"bytes"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/rules/dice"
	mappicture "sortie/rules/hex/picture"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/storage"
	"sortie/templates"
)

// queuedReports is every report mail of the game in the outbox, whatever its status, as the outbox holds
// it (a picture not drawn yet has no bytes), by recipient.
func (f *fixture) queuedReports(kind string) map[string]storage.Outgoing {
	f.t.Helper()
	out := map[string]storage.Outgoing{}
	if err := f.db.View(func(tx *storage.Tx) error {
		all, err := tx.OutboxByGame("g1")
		for _, m := range all {
			if m.Kind == kind {
				out[m.To] = m
			}
		}
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// pendingOf is every pending mail of a kind, without drawing anything first.
func (f *fixture) pendingOf(kind string) []storage.Outgoing {
	f.t.Helper()
	items, err := f.db.Pending(f.now.Add(10000*time.Hour), 0)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []storage.Outgoing
	for _, m := range items {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// drawWelcomes draws the welcomes' pictures, which the game's start promised.
func (f *fixture) drawWelcomes() {
	f.t.Helper()
	if n, err := f.s.DrawPictures(); err != nil || n != 2 {
		f.t.Fatalf("the welcomes' pictures: %d drawn (%v), want 2", n, err)
	}
}

// The round's transaction draws no picture: it keeps each report's scene and the report waits for its
// picture, so the transaction that holds up the intake is not held by drawing (issue 28, item 5). The
// picture is drawn after the commit, once, and the report then goes with it.
func TestRoundCommitDrawsNoPicture(t *testing.T) {
	f := newFixture(t, 0)
	f.drawWelcomes()
	f.play(1)
	queued := f.queuedReports("report")
	if len(queued) != 2 {
		t.Fatalf("%d reports queued, want 2", len(queued))
	}
	for to, m := range queued {
		if len(m.Parts) != 1 || len(m.Parts[0].Data) != 0 {
			t.Errorf("the report to %s was committed with its picture drawn: %d parts", to, len(m.Parts))
		}
	}
	if got := f.pendingOf("report"); len(got) != 0 {
		t.Fatalf("%d reports are pending before their pictures are drawn", len(got))
	}
	n, err := f.s.DrawPictures()
	if err != nil || n != 2 {
		t.Fatalf("DrawPictures drew %d pictures (%v), want 2", n, err)
	}
	reports := f.pendingOf("report")
	if len(reports) != 2 {
		t.Fatalf("%d reports pending once drawn, want 2", len(reports))
	}
	for _, m := range reports {
		if len(m.Parts) != 1 || !bytes.HasPrefix(m.Parts[0].Data, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("the report to %s goes without its picture", m.To)
		}
	}
	if n, err := f.s.DrawPictures(); err != nil || n != 0 {
		t.Errorf("a second DrawPictures drew %d pictures (%v), want none", n, err)
	}
}

// The kept report names its picture rather than holding a second copy of it (issue 28, item 5: each
// picture was stored twice, once base64 in the kept report). This test reads only what the outbox and the
// kept report hold, so it runs against the code before the change, where it fails.
func TestKeptReportHoldsNoSecondPicture(t *testing.T) {
	f := newFixture(t, 0)
	f.play(1)
	kept := f.keptReport(1)
	if bytes.Contains(kept, []byte(`"data"`)) {
		t.Errorf("the kept report holds the picture's bytes (%d bytes kept)", len(kept))
	}
	if len(kept) > 16<<10 {
		t.Errorf("the kept report is %d bytes: more than a report's text", len(kept))
	}
}

// A crash between the round's commit and the drawing loses no report and sends none twice: after the
// restart the picture is drawn once, the report goes once with it, and the archive meanwhile shows the
// picture the report will carry (invariant 2, docs/architecture.md).
func TestPictureDrawnOnceAfterACrash(t *testing.T) {
	f := newFixture(t, 0)
	f.drawWelcomes()
	f.play(1) // the round resolves in the last order's transaction; nothing draws
	path := f.db.Path()
	if err := f.db.Close(); err != nil { // the crash: the process ends after the commit
		t.Fatal(err)
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	f.db = db
	f.s = New(db, tmpl, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour}, zerolog.Nop(), WithClock(func() time.Time { return f.now }))

	if got := f.pendingOf("report"); len(got) != 0 {
		t.Fatalf("%d reports pending without their pictures after the restart", len(got))
	}
	// The archive shows the reports as they will go, before anything is drawn.
	rec, err := f.s.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	archived := map[string][]byte{}
	for _, m := range rec.Mails {
		if m.Kind == "report" {
			if len(m.Parts) != 1 || len(m.Parts[0].Data) == 0 {
				t.Fatalf("the archive shows the report to %s without its picture", m.To)
			}
			archived[m.To] = m.Parts[0].Data
		}
	}
	// Two drawers at once (the clock and the sender) draw each picture once between them.
	var wg sync.WaitGroup
	drawn := make([]int, 2)
	for i := range drawn {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := f.s.DrawPictures()
			if err != nil {
				t.Error(err)
			}
			drawn[i] = n
		}()
	}
	wg.Wait()
	if drawn[0]+drawn[1] != 2 {
		t.Fatalf("the drawers stored %d and %d pictures, want 2 in all", drawn[0], drawn[1])
	}
	reports := f.pendingOf("report")
	if len(reports) != 2 {
		t.Fatalf("%d reports pending after the restart, want one each", len(reports))
	}
	for _, m := range reports {
		if !bytes.Equal(m.Parts[0].Data, archived[m.To]) {
			t.Errorf("the report to %s carries a picture other than the archive's", m.To)
		}
		if err := db.MarkSent(m.ID, f.now); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.s.Tick(); err != nil {
		t.Fatal(err)
	}
	if got := f.pendingOf("report"); len(got) != 0 {
		t.Errorf("%d reports pending again once sent", len(got))
	}
	st, err := db.OutboxStats()
	if err != nil || st.Held != 0 {
		t.Errorf("outbox after the drawing: %+v (%v)", st, err)
	}
}

// RESEND sends the very picture the report carried (the one copy the outbox keeps), and a RESEND asked
// before the picture is drawn waits for it like the report.
func TestResendSendsTheSamePicture(t *testing.T) {
	f := newFixture(t, 0)
	f.play(1)
	if o := f.mail("alice@players.test", "early@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND TURN 1\nEND"); o != Accepted {
		t.Fatalf("RESEND: %s", o)
	}
	if got := f.pendingOf("resend"); len(got) != 0 {
		t.Fatalf("a RESEND left before the picture it carries was drawn")
	}
	report := f.lastOf("alice@players.test", "report") // draws
	early := f.lastOf("alice@players.test", "resend")
	if o := f.mail("alice@players.test", "late@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND TURN 1\nEND"); o != Accepted {
		t.Fatalf("RESEND: %s", o)
	}
	late := f.lastOf("alice@players.test", "resend")
	if early.MessageID == late.MessageID {
		t.Fatal("the second RESEND was not queued")
	}
	for _, m := range []storage.Outgoing{early, late} {
		if len(m.Parts) != 1 || len(report.Parts) != 1 || !bytes.Equal(m.Parts[0].Data, report.Parts[0].Data) || len(m.Parts[0].Data) == 0 {
			t.Errorf("RESEND %s does not carry the report's picture", m.InReplyTo)
		}
	}
}

// A picture drawn from its kept scene is byte for byte the picture drawn from the report's scene itself,
// for every bundled scenario's reports at the start and after a round: keeping the scene changes no
// picture.
func TestPictureFromKeptSceneIsTheSame(t *testing.T) {
	for _, name := range registry.Names() {
		rs, err := registry.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := rs.(ruleset.Bundled)
		if !ok {
			continue
		}
		files, err := fs.Glob(b.Scenarios(), "*.yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, scn := range files {
			t.Run(name+"/"+scn, func(t *testing.T) {
				data, err := fs.ReadFile(b.Scenarios(), scn)
				if err != nil {
					t.Fatal(err)
				}
				g, err := rs.NewGame(data, b.Scenarios(), scn)
				if err != nil {
					t.Fatal(err)
				}
				check := func(g ruleset.Game, log *ruleset.Log) {
					for _, p := range g.Players() {
						rep := g.Report(p.ID, log)
						sc := rep.Picture()
						if sc == nil {
							continue
						}
						want, err := mappicture.PNG(*sc)
						if err != nil {
							t.Fatal(err)
						}
						built := buildReport(g, p.ID, log)
						got, err := drawScene(new(mappicture.Painter), built.scene)
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(got, want) {
							t.Errorf("round %d, %s: the picture from the kept scene differs from the report's", g.Round(), p.ID)
						}
					}
				}
				check(g, nil)
				orders := map[string]string{}
				for _, p := range g.Players() {
					for _, u := range g.Units(p.ID) {
						orders[u] = g.DefaultOrder(u)
					}
				}
				next, log, err := g.Resolve(orders, dice.NewKeyed(dice.SeedFromUint64(7)))
				if err != nil {
					t.Fatal(err)
				}
				check(next, log)
			})
		}
	}
}
