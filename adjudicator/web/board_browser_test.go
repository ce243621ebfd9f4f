package web

// The plotting board in Debian's chromium (browser_test.go's harness), for every ruleset, each with a
// bundled scenario played by the real service and served over real HTTP: open the board from the link
// the player's first mail gives, type an illegal plot and see its problem at its column, fix it and see
// the track drawn on the map, send it, find the receipt in the player's mail, resolve the round and find
// the order flown. Once with the script (tries as you type) and once without (each try a form round
// trip). go test -run BrowserBoard -update rewrites docs/images/board.png.

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/rules/afd"
	"sortie/rules/swarm"
	"sortie/rules/tnl"
	"sortie/storage"
	"sortie/templates"
)

// boardCase is a ruleset's bundled scenario for the board's browser tests.
type boardCase struct {
	name     string
	scenario func() ([]byte, error)
}

func boardCases() []boardCase {
	return []boardCase{
		{"afd", func() ([]byte, error) { return afd.BundledScenarioFile("channel-1940") }},
		{"impulse", func() ([]byte, error) { return afd.BundledScenarioFile("kent-impulse-1940") }},
		{"tnl", func() ([]byte, error) { return tnl.BundledScenarioFile("battle-of-britain") }},
		{"swarm", func() ([]byte, error) { return swarm.BundledScenarioFile("kanalkampf-1940") }},
	}
}

// liveGame is a bundled scenario's game on a real service whose mails link to the web server that
// serves it (web.base_url), over real HTTP.
type liveGame struct {
	svc *adjudicator.Service
	db  *storage.DB
	srv *httptest.Server
}

func newLiveGame(t *testing.T, c boardCase) *liveGame {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/"
	db, err := storage.Open(filepath.Join(t.TempDir(), "sortie.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	svc := adjudicator.New(db, tmpl, adjudicator.Config{Address: "sortie@sortie.test", Name: "Sortie", TurnLength: 48 * time.Hour, WebBase: base},
		zerolog.Nop(), adjudicator.WithClock(func() time.Time { return now }))
	scn, err := c.scenario()
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, fmt.Sprintf("\nservice:\n  moderator: mod@players.test\n  seed: %s\n  players:\n    alice: {email: alice@players.test, secret: %s}\n    bob: {email: bob@players.test, secret: %s}\n",
		testSeed, secrets["alice"], secrets["bob"])...)
	if _, err := svc.NewGame(scn, c.name+".yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	web, err := New(svc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: web}}
	srv.Start()
	t.Cleanup(srv.Close)
	return &liveGame{svc: svc, db: db, srv: srv}
}

// mails are the mails queued to an address, oldest first: subject and body.
func (lg *liveGame) mails(t *testing.T, to string) [][2]string {
	t.Helper()
	if _, err := lg.svc.DrawPictures(); err != nil { // what the sender does before each pass
		t.Fatal(err)
	}
	list, err := lg.db.Pending(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, m := range list {
		if m.To == to {
			out = append(out, [2]string{m.Subject, m.Body})
		}
	}
	return out
}

var boardLinkRE = regexp.MustCompile(`http://127\.0\.0\.1:\d+/p/\S+/board\b`)

// fetchText is a GET over real HTTP.
func fetchText(t *testing.T, u string) string {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", u, res.StatusCode)
	}
	return string(b)
}

// waitEval waits until a script's answer on the page satisfies ok, and returns it.
func waitEval(t *testing.T, ctx context.Context, what, js string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(browserHang)
	var got string
	for {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err == nil && ok(v) {
			return v
		}
		got = v
		if time.Now().After(deadline) {
			t.Fatalf("%s: the page shows %q (%v)", what, got, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const (
	forecastJS = `(document.getElementById("forecast-1") || {textContent: ""}).textContent`
	echoJS     = `(document.querySelector("#forecast-1 pre.echo") || {textContent: ""}).textContent`
	pictureJS  = `(document.querySelector("figure.map img.picture") || {getAttribute: () => ""}).getAttribute("src")`
	noticeJS   = `document.getElementById("board-notice").textContent`
)

func TestBrowserBoard(t *testing.T) {
	for _, c := range boardCases() {
		for _, scripts := range []bool{true, false} {
			name := c.name + "/script"
			if !scripts {
				name = c.name + "/noscript"
			}
			t.Run(name, func(t *testing.T) { boardInBrowser(t, c, scripts) })
		}
	}
}

func boardInBrowser(t *testing.T, c boardCase, scripts bool) {
	ctx := browser(t, scripts)
	lg := newLiveGame(t, c)
	// The board's link, as alice's first mail gives it.
	var link string
	for _, m := range lg.mails(t, "alice@players.test") {
		if l := boardLinkRE.FindString(m[1]); l != "" {
			link = l
		}
	}
	if link == "" {
		t.Fatalf("no mail to alice links her board: %q", lg.mails(t, "alice@players.test"))
	}
	seat, ok, err := lg.svc.Board("g1", "alice")
	if err != nil || !ok || !seat.Open || len(seat.Units) == 0 {
		t.Fatalf("alice's board: %v %v %+v", ok, err, seat)
	}
	unit := seat.Units[0]
	bad := unit.Default + " QQ"
	badPlan, _, _ := lg.svc.TryOrder("g1", "alice", unit.Name, bad)
	if badPlan.Check.OK() || badPlan.Check.Errors[0].Col == 0 {
		t.Fatalf("%q: %+v", bad, badPlan.Check)
	}
	col := badPlan.Check.Errors[0].Col
	pilot, err := lg.svc.PilotOrders("g1", "alice")
	if err != nil {
		t.Fatal(err)
	}
	fix := pilot[unit.Name]
	fixPlan, _, _ := lg.svc.TryOrder("g1", "alice", unit.Name, fix)
	if !fixPlan.Check.OK() {
		t.Fatalf("the pilot's %q: %+v", fix, fixPlan.Check)
	}

	do(t, ctx, chromedp.Navigate(link), chromedp.WaitVisible("#plot-1"))
	if h := heading(t, ctx); !strings.HasSuffix(h, ": plotting board") {
		t.Fatalf("heading %q", h)
	}
	if lab := run(t, ctx, chromedp.Evaluate[string](`document.getElementById("plot-1").labels[0].textContent`)); lab != "Order for "+unit.Name {
		t.Errorf("the first plot field is labelled %q", lab)
	}
	plain := fetchText(t, strings.TrimSuffix(link, "/board")+"/board/map.svg")

	// type into the first plot field; without the script, send the form back with Try
	typeIn := func(text string) {
		t.Helper()
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("plot-1").value = ""; undefined`), chromedp.Focus("#plot-1"), chromedp.SendKeys("#plot-1", text))
		if !scripts {
			if _, err := chromedp.RunResponse(ctx, chromedp.Click(`button[value="try"]`, chromedp.NodeVisible)); err != nil {
				t.Fatal(err)
			}
			do(t, ctx, chromedp.WaitVisible("#plot-1"))
		}
	}

	// An illegal plot: its problem at its column, a caret under it.
	typeIn(bad)
	// (the script tries as the keys come: wait for the forecast of the whole plot, not of a part typed)
	echo := strings.Split(waitEval(t, ctx, "the echo", echoJS, func(s string) bool { return strings.HasPrefix(s, bad+"\n") }), "\n")
	if len(echo) < 2 || echo[0] != bad || strings.Index(echo[1], "^") != col-1 {
		t.Errorf("the echo of %q does not point at column %d:\n%s", bad, col, strings.Join(echo, "\n"))
	}
	if f := run(t, ctx, chromedp.Evaluate[string](forecastJS)); !strings.Contains(f, fmt.Sprintf("At column %d: %s", col, badPlan.Check.Errors[0].Message)) {
		t.Errorf("the forecast does not give the problem at column %d:\n%s", col, f)
	}

	// Fixed: legal, the block holds it, and the map draws its track.
	typeIn(fix)
	waitEval(t, ctx, "the fixed plot's forecast", forecastJS, func(s string) bool { return strings.Contains(s, "Legal. Read as "+fixPlan.Check.Canonical+".") })
	if src := run(t, ctx, chromedp.Evaluate[string](`document.getElementById("source-1").textContent`)); src != "As you tried it: not sent yet." {
		t.Errorf("the plot tried is said to be %q", src)
	}
	if b := run(t, ctx, chromedp.Evaluate[string](`document.getElementById("block").value`)); !strings.Contains(b, seat.Header+"\n") || !strings.Contains(b, "\n"+unit.Name+": "+fix+"\n") || !strings.HasSuffix(b, "END\n") {
		t.Errorf("the order block:\n%s", b)
	}
	src := waitEval(t, ctx, "the map with the fixed plot", pictureJS, func(s string) bool {
		u, err := url.Parse(s)
		return err == nil && u.Query().Get("o."+unit.Name) == fix
	})
	if drawn := fetchText(t, lg.srv.URL+src); drawn == plain {
		t.Errorf("the map with %s's plot %q is the map without it", unit.Name, fix)
	}
	if scripts && c.name == "afd" {
		boardScreenshot(t, ctx)
		phone(t, ctx)
	}

	// Send: the receipt on the page is the one mailed.
	before := len(lg.mails(t, "alice@players.test"))
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(`button[value="send"]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.WaitVisible("#board-notice"))
	waitEval(t, ctx, "the send's outcome", noticeJS, func(s string) bool {
		return strings.Contains(s, "Sent. The receipt below, also mailed to you, says what was stored.")
	})
	mails := lg.mails(t, "alice@players.test")[before:]
	if len(mails) != 1 {
		t.Fatalf("the send mailed alice %d mails", len(mails))
	}
	if shown := run(t, ctx, chromedp.Evaluate[string](`document.querySelector("pre.receipt").textContent`)); shown != mails[0][1] {
		t.Errorf("the receipt on the page:\n%s\n--- the receipt mailed:\n%s", shown, mails[0][1])
	}

	// The turn flies the order sent.
	if _, err := lg.svc.ResolveGame("g1", true); err != nil {
		t.Fatal(err)
	}
	rec, err := lg.svc.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Rounds) == 0 {
		t.Fatal("no round was resolved")
	}
	if got := rec.Rounds[len(rec.Rounds)-1].Orders[unit.Name]; got != fixPlan.Check.Canonical {
		t.Errorf("the round flew %s on %q, not the %q sent", unit.Name, got, fixPlan.Check.Canonical)
	}
}

// boardScreenshot is the board with a plot tried, for docs/web.md and docs/orders.md: written by
// -update, compared with it otherwise.
func boardScreenshot(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, chromedp.EmulateViewport(1024, 1100), chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); window.scrollTo(0, 0); undefined`))
	got := capture(t, ctx)
	path := filepath.Join("..", "..", "docs", "images", "board.png")
	if *update {
		if err := writePNG(path, got); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (go test -run BrowserBoard -update writes it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "board", got, want)
	do(t, ctx, chromedp.EmulateViewport(1024, 768))
}

// phone checks the board on a phone's screen: one column, nothing wider than the screen, every
// plot field reachable by Tab in order.
func phone(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, chromedp.EmulateViewport(375, 740))
	if w := run(t, ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 375 {
		t.Errorf("on a phone the board is %d px wide", w)
	}
	fields := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("input[data-unit]").length`))
	do(t, ctx, chromedp.Focus("#plot-1"))
	for i := 2; i <= fields; i++ {
		do(t, ctx, chromedp.KeyEvent(kb.Tab))
		if id := run(t, ctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != fmt.Sprintf("plot-%d", i) {
			t.Errorf("Tab from plot-%d goes to %q", i-1, id)
			break
		}
	}
	do(t, ctx, chromedp.EmulateViewport(1024, 768))
}
