package web

import (
	"bytes"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"sortie/parser"
)

// The plotting board over httptest, on the web tests' Channel game (fixture_test.go) played by the real
// adjudicator: the page, the tries, the sends and what guards them. The browser tests
// (board_browser_test.go) take every ruleset through it in chromium.

var (
	tokenRE = regexp.MustCompile(`name="token" value="([^"]+)"`)
	fieldRE = regexp.MustCompile(`<input type="text" id="plot-\d+" name="([^"]+)" value="([^"]*)"`)
)

// boardForm is the board page's form as a browser would send it back: every plot field and the token.
func boardForm(t testing.TB, page string) url.Values {
	t.Helper()
	f := url.Values{}
	m := tokenRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the board has no token:\n%s", page)
	}
	f.Set("token", html.UnescapeString(m[1]))
	for _, m := range fieldRE.FindAllStringSubmatch(page, -1) {
		f.Set(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	return f
}

// shows says a page shows a text: the text is in the page with its entities undone.
func shows(page, text string) bool { return strings.Contains(html.UnescapeString(page), text) }

// post sends a form to the handler as the board's own page does (same origin).
func post(t testing.TB, h http.Handler, path string, form url.Values, hdr ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.String()
}

// outbox is every mail the service has queued so far.
func (g *testGame) outbox() []string {
	g.t.Helper()
	if _, err := g.svc.DrawPictures(); err != nil { // what the sender does before each pass
		g.t.Fatal(err)
	}
	list, err := g.db.Pending(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 0)
	if err != nil {
		g.t.Fatal(err)
	}
	var out []string
	for _, m := range list {
		out = append(out, m.To+"\n"+m.Subject+"\n"+m.Body)
	}
	return out
}

// The board shows each of the player's aircraft with the order it would fly (the default, as none is on
// file), the forecast the receipt would give, the map, the block to paste and the form; the player's
// page links to it; and its policy lets the form go back to the board while every other page keeps
// form-action 'none'.
func TestBoardPage(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	g.play("g1", 1)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	if home := mustGet(t, s, alice); !strings.Contains(home, `<a href="`+alice+`board">Your plotting board</a>`) {
		t.Errorf("alice's page does not link her board:\n%s", home)
	}
	res, page := get(t, s, alice+"board")
	if res.StatusCode != 200 {
		t.Fatalf("the board: %d\n%s", res.StatusCode, page)
	}
	if got := res.Header.Get("Content-Security-Policy"); got != strings.Replace(pagePolicy, "form-action 'none'", "form-action 'self'", 1) {
		t.Errorf("the board's policy is %q", got)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "private, no-store" {
		t.Errorf("the board's Cache-Control is %q", cc)
	}
	if res, _ := get(t, s, alice+"report/1"); res.Header.Get("Content-Security-Policy") != pagePolicy {
		t.Errorf("a report page's policy changed: %q", res.Header.Get("Content-Security-Policy"))
	}
	seat, ok, err := g.svc.Board("g1", "alice")
	if err != nil || !ok || len(seat.Units) == 0 {
		t.Fatalf("Board: %v %v %+v", ok, err, seat)
	}
	form := boardForm(t, page)
	var block strings.Builder
	block.WriteString(seat.Header + "\n")
	for _, u := range seat.Units {
		if got := form.Get("o." + u.Name); got != u.Default {
			t.Errorf("%s's field holds %q, not its default %q", u.Name, got, u.Default)
		}
		block.WriteString(u.Name + ": " + u.Default + "\n")
	}
	block.WriteString("END\n")
	for _, want := range []string{
		"<h1>Channel, August 1940: plotting board</h1>", "orders for turn 2, due by " + seat.Deadline + "</p>", `<label for="plot-1">Order for RED1</label>`,
		`<p class="good"><strong>Legal.</strong> Read as <code>` + seat.Units[0].Default + `</code>.</p>`,
		`<img class="picture" src="` + alice + `board/map.svg?o.RED1=`, `<pre class="ascii"`,
		`<form method="post" action="` + alice + `board"`, `<button type="submit" name="do" value="send">`,
		`data-header="GAME g1 TURN 2">` + block.String() + `</textarea>`,
		`<script src="/static/board.js?v=`,
	} {
		if !shows(page, want) {
			t.Errorf("the board does not show %q", want)
		}
	}
	if res, js := get(t, s, "/static/board.js"); res.StatusCode != 200 || !strings.Contains(js, "data-forecast") {
		t.Errorf("board.js: %d", res.StatusCode)
	}
}

// An illegal plot's problem shows at its column: a caret under the plot's echo, at the column the check
// gives, with the message; the form round trip (no script) and the script's fragment say the same.
func TestBoardTryShowsTheErrorAtItsColumn(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	page := mustGet(t, s, alice+"board")
	form := boardForm(t, page)
	const bad = "2R 1 TX"
	form.Set("o.RED1", bad)
	form.Set("do", "try")
	res, tried := post(t, s, alice+"board", form)
	if res.StatusCode != 200 {
		t.Fatalf("try: %d\n%s", res.StatusCode, tried)
	}
	plan, _, _ := g.svc.TryOrder("g1", "alice", "RED1", bad)
	if plan.Check.OK() || len(plan.Check.Errors) == 0 {
		t.Fatalf("%q is legal: %+v", bad, plan.Check)
	}
	p := plan.Check.Errors[0]
	echo := bad + "\n" + strings.Repeat(" ", p.Col-1) + "^ " + p.Message + "\n"
	want := []string{`value="` + bad + `"`, `<pre class="echo" aria-hidden="true">` + echo, "<li>At column " + itoa(p.Col) + ": " + p.Message + "</li>",
		"RED1: " + bad + "\n"}
	for _, w := range want {
		if !shows(tried, w) {
			t.Errorf("the tried board does not show %q:\n%s", w, tried)
		}
	}
	// The other aircraft keeps its plot, and the map draws both.
	if !strings.Contains(tried, `value="`+html.EscapeString(form.Get("o.RED2"))+`"`) {
		t.Error("RED2's plot was lost in the round trip")
	}
	res, frag := get(t, s, alice+"board/try?unit=RED1&plot="+url.QueryEscape(bad))
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !shows(frag, want[1]) || !shows(frag, want[2]) {
		t.Errorf("the fragment: %d %s\n%s", res.StatusCode, res.Header.Get("Content-Type"), frag)
	}
	if strings.Contains(frag, "<html") {
		t.Error("the fragment is a whole page")
	}
	if res, _ := get(t, s, alice+"board/try?unit=KURT&plot=6"); res.StatusCode != 400 {
		t.Errorf("a try for bob's KURT: %d", res.StatusCode)
	}
}

// The picture of the board is the player's latest report's, with every plot of its address drawn as a
// plan: the track TryOrder gives, legal or not.
func TestBoardSceneHasThePlans(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	g.play("g1", 1)
	s := g.server(Options{})
	wg, _, _ := g.svc.WebGame("g1")
	pl, _ := seatByKey(&wg, strings.Split(g.link("g1", "alice"), "/")[3])
	v, err := s.view(&wg)
	if err != nil {
		t.Fatal(err)
	}
	seat, _, _ := g.svc.Board("g1", "alice")
	units := []boardUnitView{{Name: "RED1", Text: seat.Units[0].Default}, {Name: "RED2", Text: "2R 1 TX"}}
	sc, _, ok := latestPicture(v, "alice")
	if !ok || sc == nil {
		t.Fatal("no picture")
	}
	plain := len(sc.Plans)
	sc, err = s.boardScene(&wg, pl, v, units)
	if err != nil {
		t.Fatal(err)
	}
	if plain != 0 {
		t.Errorf("the report's own picture has %d plans", plain)
	}
	for _, u := range units {
		plan, _, _ := g.svc.TryOrder("g1", "alice", u.Name, u.Text)
		found := false
		for _, p := range sc.Plans {
			if p.Label == u.Name {
				found = true
				if len(p.Path) != len(plan.Path) || p.Legal != plan.Check.OK() || p.Facing != plan.Facing || p.Faced != plan.Faced {
					t.Errorf("%s's plan on the map is %+v; TryOrder gives %+v", u.Name, p, plan)
				}
			}
		}
		if found != (len(plan.Path) > 0) {
			t.Errorf("%s: drawn %v, its plan has %d hexes", u.Name, found, len(plan.Path))
		}
	}
	res, svg := get(t, s, g.link("g1", "alice")+"board/map.svg?o.RED1="+url.QueryEscape(seat.Units[0].Default))
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" || res.Header.Get("Content-Security-Policy") != svgPolicy || !strings.Contains(svg, "<svg") {
		t.Errorf("the board's picture: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// Sending: the block goes through the service as a mail would, the receipt is shown and mailed, the
// page comes back with a fresh token; the same form sent again is the same submission (a duplicate,
// nothing mailed), a form with a forged token or from another site is refused, and a page of an earlier
// round sends nothing.
// A plot field is one order line: a line break sent in one (a hand-made POST) can neither end the block
// early, which would leave the next unit's order unsent and untold, nor add a line of its own.
func TestBoardPlotIsOneLine(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	form := boardForm(t, mustGet(t, s, alice+"board"))
	form.Set("o.RED1", "2 TR 3\r\nEND\nRED2: 6")
	form.Set("o.RED2", "2 TR 3")
	form.Set("do", "send")
	if res, body := post(t, s, alice+"board", form); res.StatusCode != 200 || !strings.Contains(body, "Your receipt") {
		t.Fatalf("send: %d\n%s", res.StatusCode, body)
	}
	seat, _, _ := g.svc.Board("g1", "alice")
	red2, _, _ := g.svc.TryOrder("g1", "alice", "RED2", "2 TR 3")
	if seat.Units[1].OnFile != red2.Check.Canonical || seat.Units[0].OnFile != "" {
		t.Errorf("orders on file after a plot with line breaks: %+v", seat.Units)
	}
	mails := g.outbox()
	if receipt := mails[len(mails)-1]; !strings.Contains(receipt, "RED1: 2 TR 3  END RED2: 6") {
		t.Errorf("the receipt does not echo RED1's plot as one line:\n%s", receipt)
	}
}

func TestBoardSend(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	page := mustGet(t, s, alice+"board")
	form := boardForm(t, page)
	const plot = "2 TR 3"
	plan, _, _ := g.svc.TryOrder("g1", "alice", "RED1", plot)
	if !plan.Check.OK() {
		t.Fatalf("%q: %+v", plot, plan.Check)
	}
	canonical := plan.Check.Canonical
	form.Set("o.RED1", plot)
	form.Set("do", "send")
	before := len(g.outbox())

	// Another site's form, and a form whose token another link made: refused, nothing stored or mailed.
	if res, body := post(t, s, alice+"board", form, "Sec-Fetch-Site", "cross-site"); res.StatusCode != 403 || !strings.Contains(body, "Nothing was sent") {
		t.Errorf("a cross-site send: %d %q", res.StatusCode, body)
	}
	if res, body := post(t, s, alice+"board", form, "Sec-Fetch-Site", "", "Origin", "https://evil.example", "Host", "example.com"); res.StatusCode != 403 || !strings.Contains(body, "Nothing was sent") {
		t.Errorf("a send from another origin: %d %q", res.StatusCode, body)
	}
	forged := url.Values{}
	for k, v := range form {
		forged[k] = v
	}
	wg, _, _ := g.svc.WebGame("g1")
	forged.Set("token", boardToken(wg.Players[1].Key, "g1", "alice", 1, strings.Repeat("ab", 16)))
	if res, body := post(t, s, alice+"board", forged); res.StatusCode != 403 || !strings.Contains(body, "Nothing was sent") {
		t.Errorf("a forged token: %d\n%s", res.StatusCode, body)
	}
	if n := len(g.outbox()); n != before {
		t.Fatalf("refused sends queued %d mails", n-before)
	}
	if seat, _, _ := g.svc.Board("g1", "alice"); seat.Units[0].OnFile != "" {
		t.Fatalf("a refused send stored %q", seat.Units[0].OnFile)
	}

	res, sent := post(t, s, alice+"board", form)
	if res.StatusCode != 200 || !strings.Contains(sent, "Sent. The receipt below, also mailed to you, says what was stored.") {
		t.Fatalf("send: %d\n%s", res.StatusCode, sent)
	}
	seat, _, _ := g.svc.Board("g1", "alice")
	if seat.Units[0].OnFile != canonical {
		t.Errorf("RED1's order on file is %q, want %q", seat.Units[0].OnFile, canonical)
	}
	mails := g.outbox()[before:]
	if len(mails) != 1 || !strings.HasPrefix(mails[0], "alice@players.test\n") {
		t.Fatalf("the send mailed %q", mails)
	}
	_, receipt, _ := strings.Cut(strings.SplitN(mails[0], "\n", 2)[1], "\n")
	if !shows(sent, `<pre class="receipt" tabindex="0" aria-label="Your receipt">`+receipt+`</pre>`) {
		t.Errorf("the page does not show the receipt mailed:\n%s\n--- mailed:\n%s", sent, receipt)
	}
	if boardForm(t, sent).Get("token") == form.Get("token") {
		t.Error("the page after a send carries the same token")
	}
	if !strings.Contains(sent, `value="`+canonical+`"`) || !strings.Contains(sent, "The order on file.") {
		t.Error("the page after a send does not show the order on file")
	}

	// The same POST again (a reload, a double press): a duplicate, nothing stored again or mailed.
	res, again := post(t, s, alice+"board", form)
	if res.StatusCode != 200 || !strings.Contains(again, "were sent from this page before, so they were not sent again") || strings.Contains(again, "Your receipt") {
		t.Errorf("the same send again: %d\n%s", res.StatusCode, again)
	}
	if n := len(g.outbox()); n != before+1 {
		t.Errorf("the repeated send queued %d mails", n-before-1)
	}

	// A page of turn 1 once turn 2 is open: nothing sent, and the board of turn 2 in its place.
	stale := boardForm(t, sent)
	stale.Set("do", "send")
	stale.Set("o.RED1", "2 TL 4")
	g.play("g1", 1)
	res, late := post(t, s, alice+"board", stale)
	if res.StatusCode != 409 || !strings.Contains(late, "Nothing was sent: that page was for an earlier turn, and orders are now taken for turn 2.") || !strings.Contains(late, "orders for turn 2") {
		t.Errorf("a send from turn 1's page in turn 2: %d\n%s", res.StatusCode, late)
	}
	if !strings.Contains(late, `value="2 TL 4"`) {
		t.Error("a send from turn 1's page in turn 2 lost the plot typed: pressing Send again would send something else")
	}
}

// A link that is no seat's, or a seat's old link after REPLACE or RENEW, gets the archive's one 404 on
// every address of the board, a send included.
func TestBoardOldAndWrongLinks(t *testing.T) {
	for _, cmd := range []parser.Command{{Name: "REPLACE", Args: []string{"alice", "carol@players.test"}}, {Name: "RENEW", Args: []string{"alice"}}} {
		t.Run(cmd.Name, func(t *testing.T) {
			g := newTestGame(t, "g1", 12)
			g.play("g1", 1)
			s := g.server(Options{})
			old := g.link("g1", "alice")
			form := boardForm(t, mustGet(t, s, old+"board"))
			form.Set("do", "send")
			res, _ := get(t, s, "/p/g1/"+strings.Repeat("0", 32)+"/")
			want := headerText(res.Header)
			if _, err := g.svc.Moderate("g1", cmd); err != nil {
				t.Fatal(err)
			}
			wrong := "/p/g1/" + strings.Repeat("0", 32) + "/"
			for _, link := range []string{old, wrong, "/p/nogame/" + strings.TrimPrefix(old, "/p/g1/")} {
				for _, p := range []string{link + "board", link + "board/try?unit=RED1&plot=6", link + "board/map.svg", link + "board/map.svg?o.RED1=6"} {
					res, body := get(t, s, p)
					if res.StatusCode != 404 || body != notFoundBody || headerText(res.Header) != want {
						t.Errorf("%s: %d %q", p, res.StatusCode, body)
					}
				}
				res, body := post(t, s, link+"board", form)
				if res.StatusCode != 404 || body != notFoundBody || headerText(res.Header) != want {
					t.Errorf("a send to %s: %d %q", link, res.StatusCode, body)
				}
			}
			mustGet(t, s, g.link("g1", "alice")+"board")
		})
	}
}

// Tries are rate-limited per link: a burst, then a steady rate; over it, every kind of try says so
// plainly (and checks nothing), while another player's link is untouched. Bodies are bounded.
func TestBoardLimits(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := g.server(Options{Now: func() time.Time { return now }})
	alice, bob := g.link("g1", "alice"), g.link("g1", "bob")
	try := alice + "board/try?unit=RED1&plot=6"
	for i := 0; i < tryBurst; i++ {
		if res, body := get(t, s, try); res.StatusCode != 200 {
			t.Fatalf("try %d: %d %s", i+1, res.StatusCode, body)
		}
	}
	res, frag := get(t, s, try)
	if res.StatusCode != 429 || !strings.Contains(frag, "Too many tries in a short time from this link: nothing was checked.") {
		t.Errorf("a try over the limit: %d %s", res.StatusCode, frag)
	}
	if res, page := get(t, s, alice+"board"); res.StatusCode != 429 || !strings.Contains(page, tooFast) || strings.Contains(page, "Legal.") {
		t.Errorf("the board over the limit: %d", res.StatusCode)
	}
	if res, _ := get(t, s, alice+"board/map.svg?o.RED1=6"); res.StatusCode != 429 {
		t.Errorf("a picture over the limit: %d", res.StatusCode)
	}
	// A try naming no unit of the link's counts too: no request goes unlimited.
	if res, _ := get(t, s, alice+"board/try?unit=NOBODY&plot=6"); res.StatusCode != 429 {
		t.Errorf("a try for no unit over the limit: %d", res.StatusCode)
	}
	mustGet(t, s, bob+"board")
	now = now.Add(time.Second) // tryRate tokens back
	for i := 0; i < tryRate; i++ {
		if res, _ := get(t, s, try); res.StatusCode != 200 {
			t.Fatalf("try %d a second later: %d", i+1, res.StatusCode)
		}
	}
	if res, _ := get(t, s, try); res.StatusCode != 429 {
		t.Errorf("past the rate: %d", res.StatusCode)
	}

	big := url.Values{"do": {"try"}, "o.RED1": {strings.Repeat("1 ", maxBoardBody)}}
	if res, body := post(t, s, alice+"board", big); res.StatusCode != 413 || !strings.Contains(body, "too large") {
		t.Errorf("a huge form: %d %q", res.StatusCode, body)
	}
	now = now.Add(time.Minute)
	long := strings.Repeat("1 ", maxPlot)
	if res, frag := get(t, s, alice+"board/try?unit=RED1&plot="+url.QueryEscape(long)); res.StatusCode != 200 || !strings.Contains(frag, "far too long to be an order") {
		t.Errorf("a long plot: %d %s", res.StatusCode, frag)
	}
}

// The token binds the link, the game, the player and the round.
func TestBoardToken(t *testing.T) {
	const key, other = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
	nonce := strings.Repeat("5a", 16)
	tok := boardToken(key, "g1", "alice", 3, nonce)
	if r, n, ok := readToken(tok, key, "g1", "alice"); !ok || r != 3 || n != nonce {
		t.Fatalf("readToken(%q) = %d %q %v", tok, r, n, ok)
	}
	for what, bad := range map[string][]string{
		"another link's key": {tok, other, "g1", "alice"},
		"another game":       {tok, key, "g2", "alice"},
		"another player":     {tok, key, "g1", "bob"},
		"another round":      {strings.Replace(tok, "3.", "4.", 1), key, "g1", "alice"},
		"another nonce":      {strings.Replace(tok, nonce, strings.Repeat("5b", 16), 1), key, "g1", "alice"},
		"empty":              {"", key, "g1", "alice"},
		"no mac":             {"3." + nonce + ".", key, "g1", "alice"},
	} {
		if _, _, ok := readToken(bad[0], bad[1], bad[2], bad[3]); ok {
			t.Errorf("%s: the token is taken", what)
		}
	}
	if boardMessageID(nonce) == boardMessageID(strings.Repeat("5b", 16)) {
		t.Error("two nonces give one Message-ID")
	}
}

// A crawl from a player's board (every link, picture and address it names, the plots' pictures
// included) never reaches anything of the other side's that a report would not show: bob's unseen
// GHOST, his link, the players' secrets.
func TestBoardCrawlShowsOnlyThePlayersView(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	g.play("g1", 2)
	s := g.server(Options{})
	alice, bob := g.link("g1", "alice"), g.link("g1", "bob")
	bobKey := strings.TrimSuffix(strings.TrimPrefix(bob, "/p/g1/"), "/")
	pages := crawl(t, s, alice+"board")
	boardPics := 0
	for p, body := range pages {
		if strings.Contains(p, "/board/map.svg?") {
			boardPics++
		}
		for _, secret := range []string{ghost, bobKey, secrets["alice"], secrets["bob"]} {
			if strings.Contains(body, secret) {
				t.Errorf("%s (reached from alice's board) shows %q", p, secret)
			}
		}
	}
	if boardPics == 0 || pages[alice] == "" {
		t.Errorf("the crawl reached %d board pictures", boardPics)
	}
	// and what the board's form and script reach: the form sent back, each plot's forecast
	page := pages[alice+"board"]
	form := boardForm(t, page)
	form.Set("do", "try")
	_, tried := post(t, s, regexp.MustCompile(`<form method="post" action="([^"]+)"`).FindStringSubmatch(page)[1], form)
	answers := []string{tried}
	try := html.UnescapeString(regexp.MustCompile(`data-try="([^"]+)"`).FindStringSubmatch(page)[1])
	for k, v := range form {
		if unit, ok := strings.CutPrefix(k, fieldPrefix); ok {
			answers = append(answers, mustGet(t, s, try+"?unit="+url.QueryEscape(unit)+"&plot="+url.QueryEscape(v[0])))
		}
	}
	for _, body := range answers {
		for _, secret := range []string{ghost, bobKey, secrets["alice"], secrets["bob"]} {
			if strings.Contains(body, secret) {
				t.Errorf("alice's board's form or forecasts show %q", secret)
			}
		}
	}
	// and bob's board does show his GHOST, which alice's never saw
	if page := mustGet(t, s, bob+"board"); !strings.Contains(page, ghost) {
		t.Error("bob's board does not show his own GHOST")
	}
}

// The board of a side is the same, byte for byte, in two games that differ only in what the side could
// not see: bob's GHOST far away in one, somewhere else far away in the other.
func TestBoardFogTwins(t *testing.T) {
	boards := map[string]string{}
	for _, ghostHex := range []string{"[-14, 14]", "[-16, 15]"} {
		g := newTestGame(t, "g1", 6, ghostHex)
		g.play("g1", 2)
		s := g.server(Options{Rand: bytes.NewReader(bytes.Repeat([]byte{7}, 1024))})
		alice := g.link("g1", "alice")
		page := mustGet(t, s, alice+"board")
		var all strings.Builder
		all.WriteString(page)
		for _, p := range []string{"board/try?unit=RED1&plot=2R+1+TX", "board/try?unit=RED2&plot=6", "board/map.svg?o.RED1=6&o.RED2=2R%201"} {
			all.WriteString("\n---" + p + "\n" + mustGet(t, s, alice+p))
		}
		for _, sc := range []string{"RED1", "RED2"} {
			f := boardForm(t, page)
			f.Set("o."+sc, "2R 1 TX")
			f.Set("do", "try")
			_, body := post(t, s, alice+"board", f)
			all.WriteString("\n---try\n" + body)
		}
		boards[ghostHex] = all.String()
	}
	if boards["[-14, 14]"] != boards["[-16, 15]"] {
		a, b := boards["[-14, 14]"], boards["[-16, 15]"]
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		t.Errorf("alice's board differs with where her side's unseen enemy is, from byte %d:\n%s\n---\n%s", i, a[max(0, i-200):min(len(a), i+200)], b[max(0, i-200):min(len(b), i+200)])
	}
}

// A forecast is for the game as it stands: the same plot tried again after a round resolved answers
// from where the aircraft now is (the plans the board remembers are the round's).
func TestBoardForecastFollowsTheGame(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	try := alice + "board/try?unit=RED1&plot=6"
	before := mustGet(t, s, try)
	g.play("g1", 1)
	after := mustGet(t, s, try)
	plan, _, _ := g.svc.TryOrder("g1", "alice", "RED1", "6")
	if before == after || !shows(after, plan.Check.Preview[len(plan.Check.Preview)-1]) {
		t.Errorf("after a turn the forecast of the same plot is\n%s\nwant it to end %q", after, plan.Check.Preview[len(plan.Check.Preview)-1])
	}
}

// A finished game's board says orders are no longer taken, has no form, and sends nothing.
func TestBoardOfAFinishedGame(t *testing.T) {
	g := newTestGame(t, "g1", 2)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	form := boardForm(t, mustGet(t, s, alice+"board"))
	form.Set("do", "send")
	g.play("g1", 2)
	page := mustGet(t, s, alice+"board")
	if !strings.Contains(page, "Orders are not taken now") || strings.Contains(page, "<form") {
		t.Errorf("the finished game's board:\n%s", page)
	}
	if strings.Contains(mustGet(t, s, alice), "Your plotting board") {
		t.Error("the finished game's player page links the board")
	}
	before := len(g.outbox())
	if res, body := post(t, s, alice+"board", form); res.StatusCode != 409 || !strings.Contains(body, "Nothing was sent: orders are not taken now") {
		t.Errorf("a send to a finished game: %d\n%s", res.StatusCode, body)
	}
	if res, body := get(t, s, alice+"board/try?unit=RED1&plot=6"); res.StatusCode != 409 || !strings.Contains(body, "Nothing was checked: orders are not taken now") {
		t.Errorf("a try in a finished game: %d", res.StatusCode)
	}
	if n := len(g.outbox()); n != before {
		t.Errorf("a send to a finished game mailed %d", n-before)
	}
}

// The board shows what the receipt's check says, all of it: for random plots, legal and not, the
// forecast the script fetches holds TryOrder's verdict, its canonical reading, every problem with its
// column and every line of the track (TryOrder's Check is CheckOrder's answer: the conformance kit holds
// the rulesets to that, and the rulesets' differential tests hold CheckOrder to the calculator and the
// turn).
func TestBoardForecastIsTheCheck(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	g.play("g1", 1)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	tokens := []string{"1", "2", "3", "4", "6", "TR", "TL", "SR", "SL", "HR", "V", "RB", "N", "I", "STEEP", "+1000", "-1000", "P", "K", "FIRE ANY", "HOLD", "FIRE KURT", "QQ", "R", "0"}
	shapes := []string{"6", "2 TR 3", "3 TL 2", "6 HOLD", "1 TL 4 FIRE ANY", "5 TR", "2 SR 4", "4 -1000 TL 1"}
	rng := rand.New(rand.NewPCG(30, 1))
	legal := 0
	for i := 0; i < 60; i++ {
		words := make([]string, 1+rng.IntN(5))
		for k := range words {
			words[k] = tokens[rng.IntN(len(tokens))]
		}
		plot := strings.Join(words, " ")
		if i%3 == 0 { // a plot of the right length, most of them legal
			plot = shapes[rng.IntN(len(shapes))]
		}
		plan, _, err := g.svc.TryOrder("g1", "alice", "RED1", plot)
		if err != nil {
			t.Fatal(err)
		}
		res, frag := get(t, s, alice+"board/try?unit=RED1&plot="+url.QueryEscape(plot))
		if res.StatusCode != 200 {
			t.Fatalf("%q: %d", plot, res.StatusCode)
		}
		c := plan.Check
		want := []string{"Not legal:</strong> " + itoa(len(c.Errors))}
		if c.OK() {
			legal++
			want = []string{"<strong>Legal.</strong> Read as <code>" + c.Canonical + "</code>."}
		}
		for _, p := range c.Errors {
			if p.Col > 0 {
				want = append(want, "<li>At column "+itoa(p.Col)+": "+p.Message+"</li>")
			} else {
				want = append(want, "<li>"+p.Message+"</li>")
			}
		}
		for _, p := range c.Warnings {
			want = append(want, p.Message+"</li>")
		}
		want = append(want, c.Preview...)
		for _, w := range want {
			if !shows(frag, w) {
				t.Errorf("%q: the forecast does not show %q:\n%s", plot, w, frag)
			}
		}
	}
	if legal == 0 || legal == 60 {
		t.Errorf("%d of 60 random plots were legal: the test tries too narrow a range", legal)
	}
}

// Served from a database open read-only (sortie web), the board tries plots but has no Send button,
// says to mail the block, and a send sent anyway stores and mails nothing.
func TestBoardReadOnly(t *testing.T) {
	g := newTestGame(t, "g1", 6)
	s := g.server(Options{ReadOnly: true})
	alice := g.link("g1", "alice")
	page := mustGet(t, s, alice+"board")
	if strings.Contains(page, `value="send"`) || !strings.Contains(page, "This server only shows the games and takes no orders.") || !strings.Contains(page, "<strong>Legal.</strong>") {
		t.Errorf("the read-only board:\n%s", page)
	}
	form := boardForm(t, page)
	form.Set("do", "send")
	before := len(g.outbox())
	if res, body := post(t, s, alice+"board", form); res.StatusCode != 409 || !strings.Contains(body, "Nothing was sent: this server only shows the games and takes no orders.") {
		t.Errorf("a send to the read-only board: %d\n%s", res.StatusCode, body)
	}
	if seat, _, _ := g.svc.Board("g1", "alice"); seat.Units[0].OnFile != "" || len(g.outbox()) != before {
		t.Errorf("the read-only board stored %q or mailed %d", seat.Units[0].OnFile, len(g.outbox())-before)
	}
}
