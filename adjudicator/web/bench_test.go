package web

// Benchmarks of the web archive (docs/performance.md), on a 100-aircraft game played by the computer
// pilots for three turns on a real bbolt file:
//
//   - BenchmarkTurnPage/served: GET a turn page through the handler (httptest): the game record read to
//     learn whether the cached view is current, the page's data from the cache, the template executed,
//     the answer written. round is the public page of a finished game's turn (every player's report,
//     every die, every order, the rules' record); report is a player's report behind their link.
//     Raw, in the same run (BenchmarkTurnPage/raw): the same template executed on the same prepared
//     data into a buffer, the work the handler cannot avoid.
//   - BenchmarkGameView/build: the first request of a game that moved on: Service.Record, the replay of
//     every round and the turn page's data. Raw (BenchmarkGameView/record): Service.Record alone.
//   - BenchmarkGameView/verify: the game page's verification when the game moved on: the archive
//     exported, written to a temporary folder and verified. Raw (BenchmarkGameView/verify-folder):
//     archive.Verify of the same folder, written beforehand.
//
//	go test ./adjudicator/web -run '^$' -bench 'TurnPage|GameView' -benchtime 2s

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sortie/adjudicator"
	"sortie/adjudicator/archive"
	"sortie/storage"
)

// bigScenario is a 100-aircraft Air Force game: a 10×10 lattice four hexes apart, the sides alternating
// like the squares of a chessboard, everyone heading north at 10,000 ft, so every plane is in a fight.
func bigScenario(turns int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "ruleset: afd\nname: Big sky\noptions:\n  fog_of_war: true\nmap:\n  min_q: -60\n  max_q: 60\n  min_row: -90\n  max_row: 90\n")
	b.WriteString("sides: [RAF, Luftwaffe]\nplayers:\n  - {id: alice, name: Alice, side: RAF}\n  - {id: bob, name: Bob, side: Luftwaffe}\naircraft:\n")
	for i := 0; i < 100; i++ {
		col, row := i%10, i/10
		side, player, typ := "RAF", "alice", "spitfire-i"
		if (col+row)%2 == 1 {
			side, player, typ = "Luftwaffe", "bob", "bf-109e"
		}
		fmt.Fprintf(&b, "  - {callsign: P%03d, type: %s, side: %s, player: %s, hex: [%d, %d], facing: 0, alt: 10000, speed: 5.0, bank: N}\n",
			i, typ, side, player, -18+4*col, -18+4*row)
	}
	fmt.Fprintf(&b, "turns: %d\nvictory:\n  - {side: RAF, kind: destroy, aircraft: [P001], points: 1}\n  - {side: Luftwaffe, kind: destroy, aircraft: [P000], points: 1}\n", turns)
	fmt.Fprintf(&b, "service:\n  seed: %s\n  players:\n    alice: {bot: true}\n    bob: {bot: true}\n", testSeed)
	return []byte(b.String())
}

// bigGame is the 100-aircraft game after three turns, finished (turns: 3), on its own database.
func bigGame(b *testing.B) *testGame {
	b.Helper()
	db, err := storage.Open(filepath.Join(b.TempDir(), "sortie.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	g := &testGame{t: b, db: db, id: "big"}
	g.setNow(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	g.svc = newService(b, db, adjudicator.WithClock(func() time.Time { return *g.now.Load() }))
	if _, err := g.svc.NewGame(bigScenario(3), "big.yaml", "big"); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		g.setNow(g.now.Load().Add(time.Hour))
		if _, err := g.svc.ResolveGame("big", true); err != nil {
			b.Fatal(err)
		}
	}
	if st := g.status("big"); st.Status != adjudicator.StatusOver {
		b.Fatalf("the big game is %s at round %d", st.Status, st.Round)
	}
	return g
}

func BenchmarkTurnPage(b *testing.B) {
	g := bigGame(b)
	s := g.server(Options{})
	pages := map[string]string{"round": "/g/big/round/2", "report": g.link("big", "alice") + "report/2"}
	for _, name := range []string{"round", "report"} {
		path := pages[name]
		body := mustGet(b, s, path) // builds the cached view
		b.Run("served/"+name, func(b *testing.B) {
			b.ReportAllocs()
			req := httptest.NewRequest(http.MethodGet, path, nil)
			for b.Loop() {
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code)
				}
			}
			b.ReportMetric(float64(len(body)), "bytes/page")
		})
		// The raw cost: the same template on the same data, prepared beforehand.
		tmpl, data := preparedPage(b, s, g, name)
		b.Run("raw/"+name, func(b *testing.B) {
			b.ReportAllocs()
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := s.pages[tmpl].ExecuteTemplate(&buf, "layout", data); err != nil {
					b.Fatal(err)
				}
			}
			if buf.String() != body {
				b.Fatal("the raw page is not the served one")
			}
		})
	}
}

// preparedPage is the data the handler renders for a turn page, built by the handler's own code.
func preparedPage(b *testing.B, s *Server, g *testGame, name string) (string, any) {
	b.Helper()
	wg, ok, err := g.svc.WebGame("big")
	if err != nil || !ok {
		b.Fatal(err)
	}
	if name == "round" {
		p, ok, err := s.roundPage(&wg, 2)
		if err != nil || !ok {
			b.Fatal(err)
		}
		return "round", p
	}
	v, err := s.view(&wg)
	if err != nil {
		b.Fatal(err)
	}
	pl, _ := seatByKey(&wg, wg.Players[0].Key)
	p, ok := s.reportPage(&wg, pl, v, 2)
	if !ok {
		b.Fatal("no report 2")
	}
	return "report", p
}

func BenchmarkGameView(b *testing.B) {
	g := bigGame(b)
	s := g.server(Options{})
	wg, _, err := g.svc.WebGame("big")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sl := s.slot("big")
			sl.mu.Lock()
			sl.v = nil // as if the game had moved on
			sl.mu.Unlock()
			v, err := s.view(&wg)
			if err != nil {
				b.Fatal(err)
			}
			v.round(2, s.roundHref("big", 2))
		}
	})
	b.Run("record", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := g.svc.Record("big"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			sl := s.slot("big")
			sl.checkMu.Lock()
			sl.check = nil
			sl.checkMu.Unlock()
			if c := s.verify(&wg); c.err != nil || !c.report.OK() {
				b.Fatalf("%v", c.err)
			}
		}
	})
	a, err := archive.Export(g.svc, "big")
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "archive")
	if err := a.WriteDir(dir); err != nil {
		b.Fatal(err)
	}
	b.Run("verify-folder", func(b *testing.B) {
		for b.Loop() {
			if rep, err := archive.Verify(dir); err != nil || !rep.OK() {
				b.Fatal(err)
			}
		}
	})
}
