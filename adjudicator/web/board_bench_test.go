package web

// The plotting board's benchmark (docs/performance.md): serving one try for a side of 20 aircraft in a
// 40-aircraft game, beside the report's picture alone in the same run.
//
//   - BenchmarkBoardTry/served: what the script asks for after a key: the unit's forecast (the fragment:
//     the game record read, the seat's board, TryOrder of a plot not tried before, the template) and the
//     map with all 20 plots drawn (the board again, the other 19 plans as tried before, the picture
//     drawn afresh), both through the handler.
//   - BenchmarkBoardTry/raw: the report's picture alone (picture.SVG of the same scene, no plans), the
//     work the board cannot avoid.
//
// Both report their processor time (cpu-ns/op, the process's user and system time over the loop) beside
// the wall time, which on a loaded machine counts the waits for a processor too.
//
//	go test ./adjudicator/web -run '^$' -bench BoardTry -benchtime 200x -count 6

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode"

	"sortie/adjudicator"
	"sortie/rules/hex/picture"
	"sortie/storage"
)

// boardScenario is a 40-aircraft Air Force game, 20 a side, in a lattice four hexes apart.
func boardScenario() []byte {
	var b strings.Builder
	b.WriteString("ruleset: afd\nname: Board sky\noptions:\n  fog_of_war: true\nmap:\n  min_q: -40\n  max_q: 40\n  min_row: -60\n  max_row: 60\n")
	b.WriteString("sides: [RAF, Luftwaffe]\nplayers:\n  - {id: alice, name: Alice, side: RAF}\n  - {id: bob, name: Bob, side: Luftwaffe}\naircraft:\n")
	for i := 0; i < 40; i++ {
		col, row := i%8, i/8
		side, player, typ := "RAF", "alice", "spitfire-i"
		if (col+row)%2 == 1 {
			side, player, typ = "Luftwaffe", "bob", "bf-109e"
		}
		fmt.Fprintf(&b, "  - {callsign: P%03d, type: %s, side: %s, player: %s, hex: [%d, %d], facing: 0, alt: 10000, speed: 5.0, bank: N}\n",
			i, typ, side, player, -14+4*col, -10+4*row)
	}
	b.WriteString("turns: 10\nvictory:\n  - {side: RAF, kind: destroy, aircraft: [P001], points: 1}\n  - {side: Luftwaffe, kind: destroy, aircraft: [P000], points: 1}\n")
	fmt.Fprintf(&b, "service:\n  seed: %s\n  players:\n    alice: {email: alice@players.test, secret: %s}\n    bob: {bot: true}\n", testSeed, secrets["alice"])
	return []byte(b.String())
}

func BenchmarkBoardTry(b *testing.B) {
	db, err := storage.Open(filepath.Join(b.TempDir(), "sortie.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	g := &testGame{t: b, db: db, id: "sky"}
	g.setNow(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	g.svc = newService(b, db, adjudicator.WithClock(func() time.Time { return *g.now.Load() }))
	if _, err := g.svc.NewGame(boardScenario(), "sky.yaml", "sky"); err != nil {
		b.Fatal(err)
	}
	g.setNow(g.now.Load().Add(time.Hour))
	if _, err := g.svc.ResolveGame("sky", true); err != nil {
		b.Fatal(err)
	}
	// A clock a second on at every reading: the rate limit never holds the benchmark up.
	var tick atomic.Int64
	s := g.server(Options{Now: func() time.Time { return time.Unix(tick.Add(1), 0) }})
	alice := g.link("sky", "alice")
	form := boardForm(b, mustGet(b, s, alice+"board"))
	q := url.Values{}
	units := 0
	for k, v := range form {
		if strings.HasPrefix(k, fieldPrefix) {
			q[k] = v
			units++
		}
	}
	if units != 20 {
		b.Fatalf("alice has %d aircraft on the board", units)
	}
	// Each try types into P000's field a plot it has not tried before in the whole benchmark (the same
	// moves, spaced and lettered anew: the notation reads them alike), so its forecast and the map are
	// made afresh while the other 19 plots stay as they were.
	plot := strings.Fields(form.Get("o.P000"))
	if len(plot) < 2 {
		b.Fatalf("P000's plot %q", plot)
	}
	rest := strings.Join(plot[1:], " ")
	n := 0
	tries := func() (string, string) {
		n++
		if n >= 300<<8 {
			b.Fatal("out of new plots")
		}
		var word strings.Builder
		for k, c := range rest {
			if k < 8 && n>>8&(1<<k) != 0 {
				c = unicode.ToLower(c)
			}
			word.WriteRune(c)
		}
		text := plot[0] + strings.Repeat(" ", 1+n%300) + word.String()
		q.Set("o.P000", text)
		return alice + "board/try?unit=P000&plot=" + url.QueryEscape(text), alice + "board/map.svg?" + q.Encode()
	}
	b.Run("served", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			tryPath, mapPath := tries()
			for _, path := range []string{tryPath, mapPath} {
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				if rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	wg, _, _ := g.svc.WebGame("sky")
	v, err := s.view(&wg)
	if err != nil {
		b.Fatal(err)
	}
	sc, _, ok := latestPicture(v, "alice")
	if !ok || sc == nil {
		b.Fatal("no picture")
	}
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			if _, err := picture.SVG(*sc); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime is the processor time the process has used, user and system, in nanoseconds: on a loaded
// machine a benchmark's wall time counts the waits for a processor, its processor time does not.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
