package web

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/rules/afd"
	"sortie/storage"
	"sortie/templates"
)

const testSeed = "5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5eb5"

// ghost is a Luftwaffe fighter far from the fight, flying away from it: the RAF never sees it, so no
// page alice's link reaches may name it.
const ghost = "GHOST"

// testGame is a game played by the real adjudicator on a real bbolt file: the bundled Channel 1940
// scenario with an unseen enemy added, orders written each turn by the rulesets' computer pilots and
// mailed in with each player's secret.
type testGame struct {
	t   testing.TB
	svc *adjudicator.Service
	db  *storage.DB
	// now is the service's clock, read by web requests on their own goroutines while play moves it.
	now atomic.Pointer[time.Time]
	id  string
	n   int
	// ghostAt is where GHOST starts ("[-14, 14]" unless newTestGame is told otherwise).
	ghostAt string
}

func (g *testGame) setNow(t time.Time) { g.now.Store(&t) }

var secrets = map[string]string{"alice": "lark-kite-wren-41", "bob": "wren-owl-raven-17"}

// newTestGame starts the game; turns replaces the scenario's turn limit; ghostAt, if given, is where
// GHOST starts.
func newTestGame(t testing.TB, id string, turns int, ghostAt ...string) *testGame {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "sortie.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	g := &testGame{t: t, db: db, id: id, ghostAt: "[-14, 14]"}
	if len(ghostAt) > 0 {
		g.ghostAt = ghostAt[0]
	}
	g.setNow(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	g.svc = newService(t, db, adjudicator.WithClock(func() time.Time { return *g.now.Load() }))
	g.add(id, turns)
	return g
}

func newService(t testing.TB, db *storage.DB, opts ...adjudicator.Option) *adjudicator.Service {
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	return adjudicator.New(db, tmpl, adjudicator.Config{Address: "sortie@sortie.test", Name: "Sortie", TurnLength: 48 * time.Hour}, zerolog.Nop(), opts...)
}

// add starts another game of the same scenario on the same service.
func (g *testGame) add(id string, turns int) {
	g.t.Helper()
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		g.t.Fatal(err)
	}
	scn = bytes.Replace(scn, []byte("\nturns: 12\n"), []byte(fmt.Sprintf("\nturns: %d\n", turns)), 1)
	scn = bytes.Replace(scn, []byte("\nturns:"), []byte(fmt.Sprintf("\n  - {callsign: %s, type: bf-109e, side: Luftwaffe, player: bob, hex: %s, facing: 6, alt: 20000, speed: 6.0, bank: N}\nturns:", ghost, g.ghostAt)), 1)
	scn = append(scn, []byte(fmt.Sprintf(`
service:
  moderator: mod@players.test
  seed: %s
  players:
    alice: {email: alice@players.test, secret: %s}
    bob: {email: bob@players.test, secret: %s}
`, testSeed, secrets["alice"], secrets["bob"]))...)
	if _, err := g.svc.NewGame(scn, "channel.yaml", id); err != nil {
		g.t.Fatal(err)
	}
}

func (g *testGame) status(id string) *adjudicator.GameStatus {
	g.t.Helper()
	st, err := g.svc.Status(id)
	if err != nil {
		g.t.Fatal(err)
	}
	return st
}

// play plays n turns of game id: each seat's holder mails the computer pilot's orders from their address
// with their secret (GHOST flies straight on, away from the fight) and the round resolves when both are
// in.
func (g *testGame) play(id string, n int) {
	g.t.Helper()
	for i := 0; i < n; i++ {
		st := g.status(id)
		if st.Status != adjudicator.StatusRunning {
			g.t.Fatalf("game %s is %s", id, st.Status)
		}
		g.setNow(g.now.Load().Add(time.Hour))
		// Each seat's holder now, with their secret: the moderator may have handed a seat on or renewed it.
		seats, err := g.svc.Seats(id)
		if err != nil {
			g.t.Fatal(err)
		}
		for _, seat := range seats {
			player := seat.Player
			orders, err := g.svc.PilotOrders(id, player)
			if err != nil {
				g.t.Fatal(err)
			}
			if _, ok := orders[ghost]; ok {
				orders[ghost] = "6"
			}
			units := make([]string, 0, len(orders))
			for u := range orders {
				units = append(units, u)
			}
			sort.Strings(units)
			var b strings.Builder
			fmt.Fprintf(&b, "GAME %s TURN %d SECRET %s\n", id, st.Round, seat.Secret)
			for _, u := range units {
				fmt.Fprintf(&b, "%s: %s\n", u, orders[u])
			}
			b.WriteString("END\n")
			g.n++
			if _, err := g.svc.Submit(adjudicator.Envelope{From: seat.Email, MessageID: fmt.Sprintf("m%d@players.test", g.n),
				Text: b.String(), Size: b.Len(), To: []string{"sortie@sortie.test"}}); err != nil {
				g.t.Fatal(err)
			}
		}
		if g.status(id).Round == st.Round {
			if _, err := g.svc.ResolveGame(id, true); err != nil {
				g.t.Fatal(err)
			}
		}
		if got := g.status(id); got.Round != st.Round+1 && got.Status == adjudicator.StatusRunning {
			g.t.Fatalf("game %s: turn %d did not resolve", id, st.Round)
		}
	}
}

// link is a player's link path, from the root.
func (g *testGame) link(id, player string) string {
	g.t.Helper()
	p, err := g.svc.PlayerLink(id, player)
	if err != nil {
		g.t.Fatal(err)
	}
	return "/" + p
}

// server is the web archive of the game's service.
func (g *testGame) server(opts Options) *Server {
	g.t.Helper()
	s, err := New(g.svc, opts)
	if err != nil {
		g.t.Fatal(err)
	}
	return s
}

// get serves one request and returns the response and its body.
func get(t testing.TB, h http.Handler, path string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// mustGet is get that requires 200.
func mustGet(t testing.TB, h http.Handler, path string) string {
	t.Helper()
	res, body := get(t, h, path)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, res.StatusCode, body)
	}
	return body
}
