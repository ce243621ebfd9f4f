package web

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sortie/adjudicator"
	"sortie/adjudicator/archive"
	"sortie/parser"
)

// hrefs are the links and asset addresses of a page, as written (entities undone).
var hrefRE = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

func hrefs(page string) []string {
	var out []string
	for _, m := range hrefRE.FindAllStringSubmatch(page, -1) {
		out = append(out, strings.ReplaceAll(m[1], "&amp;", "&"))
	}
	return out
}

// A finished game shows everything: the list, the game with its players, turns, verification and
// bundle, every round page with every player's report, the orders, the dice and the record.
func TestFinishedGameShowsEveryRound(t *testing.T) {
	g := newTestGame(t, "g1", 3)
	g.play("g1", 3)
	if st := g.status("g1"); st.Status != adjudicator.StatusOver {
		t.Fatalf("the game is %s", st.Status)
	}
	s := g.server(Options{})

	index := mustGet(t, s, "/")
	for _, want := range []string{`<a href="/g/g1/">Channel, August 1940</a>`, "<td>afd</td>", "<td>over</td>", `<td class="num">3</td>`, "the turn limit (3) was reached"} {
		if !strings.Contains(index, want) {
			t.Errorf("the list does not show %q:\n%s", want, index)
		}
	}
	game := mustGet(t, s, "/g/g1/")
	// A finished game is told in game turns, as its over mail is ("over after turn 3").
	for _, want := range []string{"<dt>Turns played</dt><dd>3</dd>", `<th scope="col">Turn</th>`} {
		if !strings.Contains(game+index, want) {
			t.Errorf("the game's pages do not show %q", want)
		}
	}
	for _, want := range []string{"<li>Alice, RAF</li>", "<li>Bob, Luftwaffe</li>", `href="/g/g1/round/0">Opening position`, `href="/g/g1/round/3">Turn 3`,
		"<strong>Verified:</strong>", "round 3: ok", "dice drawn again from the seed", `href="/g/g1/archive.tar.gz"`} {
		if !strings.Contains(game, want) {
			t.Errorf("the game page does not show %q:\n%s", want, game)
		}
	}
	if strings.Contains(game, "/g/g1/round/4") {
		t.Error("the game page links a round that was not played")
	}
	rec, err := g.svc.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= 3; n++ {
		page := mustGet(t, s, "/g/g1/round/"+itoa(n))
		for _, want := range []string{"What Alice (RAF) was told", "What Bob (Luftwaffe) was told", ghost, "RED1", "KURT"} {
			if !strings.Contains(page, want) {
				t.Errorf("round %d does not show %q", n, want)
			}
		}
		if n == 0 {
			continue
		}
		r := rec.Rounds[n-1]
		_, every, _ := strings.Cut(page, `id="alldice"`)
		every, _, _ = strings.Cut(every, "</table>")
		if got := strings.Count(every, "<tr><td>"); got != len(r.Dice) {
			t.Errorf("round %d's table of every die has %d rows, want %d", n, got, len(r.Dice))
		}
		for u, o := range r.Orders {
			if !strings.Contains(page, "<tr><th scope=\"row\">"+u+"</th><td><code>"+htmlEscape(o)+"</code></td></tr>") {
				t.Errorf("round %d does not show %s's order %q", n, u, o)
			}
		}
		for _, d := range r.Dice {
			if !strings.Contains(page, "<td>"+htmlEscape(d.Label)+"</td><td>d"+itoa(d.Sides)+"</td><td class=\"num\">"+itoa(d.Value)+"</td>") {
				t.Errorf("round %d does not show the die %s", n, d)
			}
		}
		if !strings.Contains(page, `rel="prev"`) || (n < 3) != strings.Contains(page, `rel="next"`) {
			t.Errorf("round %d: prev/next links wrong", n)
		}
	}
	for _, p := range []string{"/g/g1/round/4", "/g/g1/round/4/events.json", "/g/g1/round/0/events.json"} {
		if res, body := get(t, s, p); res.StatusCode != 404 || body != notFoundBody {
			t.Errorf("%s: %d %q", p, res.StatusCode, body)
		}
	}
	res, events := get(t, s, "/g/g1/round/2/events.json")
	if res.Header.Get("Content-Type") != "application/json" || !json.Valid([]byte(events)) || !strings.Contains(events, ghost) {
		t.Errorf("round 2's events: %s, %d bytes", res.Header.Get("Content-Type"), len(events))
	}

	// Every link of every page leads somewhere.
	for _, page := range []string{index, game, mustGet(t, s, "/g/g1/round/2")} {
		for _, h := range hrefs(page) {
			if h == "#content" {
				continue
			}
			if res, _ := get(t, s, h); res.StatusCode != 200 {
				t.Errorf("link %s: %d", h, res.StatusCode)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func htmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;")
	return r.Replace(s)
}

// The bundle is the game's archive: unpacked, `sortie verify` (archive.Verify) checks it, seed and all.
func TestBundleDownloadVerifies(t *testing.T) {
	g := newTestGame(t, "g1", 2)
	g.play("g1", 2)
	s := g.server(Options{})
	res, body := get(t, s, "/g/g1/archive.tar.gz")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/gzip" ||
		res.Header.Get("Content-Disposition") != `attachment; filename="g1-archive.tar.gz"` {
		t.Fatalf("bundle: %d %v", res.StatusCode, res.Header)
	}
	dir := t.TempDir()
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			os.MkdirAll(p, 0o700)
			continue
		}
		b, _ := io.ReadAll(tr)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, secret := range secrets {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds a player's secret", h.Name)
			}
		}
	}
	rep, err := archive.Verify(filepath.Join(dir, "g1-archive"))
	if err != nil || !rep.SeedVerified || len(rep.Rounds) != 2 {
		t.Fatalf("the downloaded bundle does not verify: %v", err)
	}
}

// A running game shows nothing of its rounds: no round page, no bundle, no verification, no players;
// only its name, rules, status and round.
func TestRunningGameShowsNothingOfItsRounds(t *testing.T) {
	g := newTestGame(t, "g1", 12)
	g.play("g1", 2)
	s := g.server(Options{})
	game := mustGet(t, s, "/g/g1/")
	for _, not := range []string{"round/", "archive.tar.gz", "Verification", "Alice", "RED1", ghost, "Luftwaffe"} {
		if strings.Contains(game, not) {
			t.Errorf("a running game's page shows %q", not)
		}
	}
	if !strings.Contains(game, "<dt>Turn</dt><dd>3</dd>") || !strings.Contains(game, "This game is running") {
		t.Errorf("the running game's page:\n%s", game)
	}
	for _, p := range []string{"/g/g1/round/0", "/g/g1/round/1", "/g/g1/round/1/events.json", "/g/g1/archive.tar.gz"} {
		if res, body := get(t, s, p); res.StatusCode != 404 || body != notFoundBody {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	// Once over, everything shows; the cached view and verification follow the game.
	g.play("g1", 10)
	if !strings.Contains(mustGet(t, s, "/g/g1/"), `href="/g/g1/round/12"`) {
		t.Error("the finished game's page does not list its last round")
	}
	mustGet(t, s, "/g/g1/round/12")
}

// A running game its moderator made public shows every round while it runs; its bundle withholds the
// seed, and its verification says so.
func TestPublicRunningGame(t *testing.T) {
	g := newTestGame(t, "g1", 12)
	g.play("g1", 2)
	s := g.server(Options{Public: []string{"G1"}})
	game := mustGet(t, s, "/g/g1/")
	for _, want := range []string{"public: its moderator shows it while it runs", `href="/g/g1/round/2"`, "recorded dice replayed", "<strong>Verified:</strong>"} {
		if !strings.Contains(game, want) {
			t.Errorf("the public game's page does not show %q", want)
		}
	}
	if !strings.Contains(mustGet(t, s, "/g/g1/round/2"), ghost) {
		t.Error("a public game's round does not show every unit")
	}
	res, body := get(t, s, "/g/g1/archive.tar.gz")
	if res.StatusCode != 200 {
		t.Fatalf("bundle: %d", res.StatusCode)
	}
	zr, _ := gzip.NewReader(strings.NewReader(body))
	all, _ := io.ReadAll(zr)
	if bytes.Contains(all, []byte(testSeed)) {
		t.Error("a running game's bundle holds the seed")
	}
}

// A player's link shows that player's reports, round by round, and the game's pages once it is over.
func TestPlayerLink(t *testing.T) {
	g := newTestGame(t, "g1", 3)
	g.play("g1", 2)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	if !regexp.MustCompile(`^/p/g1/[0-9a-f]{32}/$`).MatchString(alice) {
		t.Fatalf("alice's link %q", alice)
	}
	home := mustGet(t, s, alice)
	for _, want := range []string{"Alice's reports", "You fly for RAF", `href="` + alice + `report/0">Opening position`, `href="` + alice + `report/2">Turn 2`} {
		if !strings.Contains(home, want) {
			t.Errorf("alice's page does not show %q:\n%s", want, home)
		}
	}
	if strings.Contains(home, "report/3") || strings.Contains(home, "every turn, from every side") {
		t.Error("alice's page shows a report not yet sent, or the game before it is over")
	}
	rep := mustGet(t, s, alice+"report/1")
	for _, want := range []string{"Channel, August 1940: Turn 1", "Alice, RAF", "RED1", "Dice shown to you", `rel="prev"`, `rel="next"`, "State commitment"} {
		if !strings.Contains(rep, want) {
			t.Errorf("alice's report 1 does not show %q", want)
		}
	}
	res, _ := get(t, s, alice+"report/1")
	if res.Header.Get("Cache-Control") != "private, no-store" || res.Header.Get("X-Robots-Tag") == "" || !strings.Contains(rep, `<meta name="robots" content="noindex, nofollow">`) {
		t.Errorf("a player's page may be cached or indexed: %v", res.Header)
	}
	if res, _ := get(t, s, alice+"report/3"); res.StatusCode != 404 {
		t.Errorf("a report not yet sent: %d", res.StatusCode)
	}
	// The cache follows the game: the next round's report appears, and the game's pages once it is over.
	g.play("g1", 1)
	mustGet(t, s, alice+"report/3")
	if !strings.Contains(mustGet(t, s, alice), `href="/g/g1/">every turn, from every side`) {
		t.Error("alice's page does not lead to the finished game")
	}
	// The link is the seed's, the game's and the player's: not the reply token, not the secret, and
	// another for every player and game.
	seats, err := g.svc.Seats("g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range seats {
		link := g.link("g1", st.Player)
		if strings.Contains(link, st.Token) || strings.Contains(strings.ToLower(link), strings.ToLower(strings.ReplaceAll(st.Secret, "-", ""))) {
			t.Errorf("%s's link %s carries the reply token or the secret", st.Player, link)
		}
	}
	g.add("g2", 3)
	if g.link("g1", "alice") == g.link("g1", "bob") || strings.TrimPrefix(g.link("g1", "alice"), "/p/g1/") == strings.TrimPrefix(g.link("g2", "alice"), "/p/g2/") {
		t.Error("two links share a key")
	}
	if _, err := g.svc.PlayerLink("g1", "carol"); err == nil {
		t.Error("a link for a player who is not in the game")
	}
	if _, err := g.svc.PlayerLink("nope", "alice"); err == nil {
		t.Error("a link for a game that does not exist")
	}
}

// A link belongs to whoever holds the seat: when the moderator hands it to someone else (REPLACE) or
// renews the player's secrets (RENEW), the seat gets a new link and the old one answers the same 404 as
// any wrong link, for every page, the turns played since included. The new link shows the seat's whole
// history, which its holder inherits.
func TestOldLinkStopsWithTheSeat(t *testing.T) {
	for _, cmd := range []parser.Command{{Name: "REPLACE", Args: []string{"alice", "carol@players.test"}}, {Name: "RENEW", Args: []string{"alice"}}} {
		t.Run(cmd.Name, func(t *testing.T) {
			g := newTestGame(t, "g1", 12)
			g.play("g1", 2)
			s := g.server(Options{})
			old := g.link("g1", "alice")
			mustGet(t, s, old+"report/2") // and it is cached
			res, _ := get(t, s, "/p/g1/"+strings.Repeat("0", 32)+"/")
			want := headerText(res.Header)
			if _, err := g.svc.Moderate("g1", cmd); err != nil {
				t.Fatal(err)
			}
			g.play("g1", 1)
			now := g.link("g1", "alice")
			if now == old {
				t.Fatalf("%s left the seat's link as it was: %s", cmd.Name, now)
			}
			for _, p := range []string{old, old + "report/3", old + "report/3/map.svg", old + "report/2", old + "report/0"} {
				res, body := get(t, s, p)
				if res.StatusCode != 404 || body != notFoundBody || headerText(res.Header) != want {
					t.Errorf("the old link after %s: %s: %d %q\n%s", cmd.Name, p, res.StatusCode, body, headerText(res.Header))
				}
			}
			home := mustGet(t, s, now)
			for _, want := range []string{`href="` + now + `report/0">Opening position`, `href="` + now + `report/3">Turn 3`} {
				if !strings.Contains(home, want) {
					t.Errorf("the new link's page does not show %q:\n%s", want, home)
				}
			}
			for _, p := range []string{now + "report/3", now + "report/3/map.svg", now + "report/1"} {
				mustGet(t, s, p)
			}
			if strings.Contains(mustGet(t, s, now+"report/3"), strings.TrimPrefix(old, "/p/g1/")) {
				t.Error("the new holder's page names the old link")
			}
			if b := g.link("g1", "bob"); b == now || b == old {
				t.Error("bob's link is alice's")
			}
		})
	}
}

// Everything that is not there, or not the reader's: 404 with the same body and headers, whatever was
// wrong.
func TestNotFoundSaysNothingElse(t *testing.T) {
	g := newTestGame(t, "g1", 12)
	g.play("g1", 2)
	g.add("g2", 12)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	key := strings.TrimSuffix(strings.TrimPrefix(alice, "/p/g1/"), "/")
	wrong := []byte(key)
	wrong[31] ^= 1
	if wrong[31] > 'f' || (wrong[31] > '9' && wrong[31] < 'a') {
		wrong[31] = '0'
	}
	other := strings.TrimSuffix(strings.TrimPrefix(g.link("g2", "alice"), "/p/g2/"), "/")
	paths := []string{
		"/p/g1/" + string(wrong) + "/",            // one digit wrong
		"/p/g1/" + strings.ToUpper(key) + "/",     // the key in capitals
		"/p/g1/" + key[:31] + "/",                 // one digit short
		"/p/g1/" + key + "0/",                     // one digit long
		"/p/g1/" + other + "/",                    // alice's key of another game
		"/p/g2/" + key + "/",                      // the other way round
		"/p/nope/" + key + "/",                    // no such game
		"/p/g1/" + key + "/report/3",              // a report not yet sent
		"/p/g1/" + key + "/report/03",             // not a number as written
		"/p/g1/" + key + "/report/-1",             //
		"/p/g1/" + key + "/report/99999999999999", //
		"/p/g1/" + string(wrong) + "/report/0",    // a wrong key's report
		"/p/g1/", "/p/",                           // no key
		"/g/g1/round/0", "/g/g1/archive.tar.gz", // a running game's rounds
		"/g/nope/", "/g/nope/round/0", "/nope", "/static/nope.css", "/static/",
	}
	var first http.Header
	for _, p := range paths {
		res, body := get(t, s, p)
		if res.StatusCode != 404 || body != notFoundBody {
			t.Errorf("%s: %d %q", p, res.StatusCode, body)
			continue
		}
		if first == nil {
			first = res.Header
			continue
		}
		if a, b := headerText(first), headerText(res.Header); a != b {
			t.Errorf("%s: headers differ:\n%s\nfrom the first 404's\n%s", p, b, a)
		}
	}
	if res, _ := get(t, s, alice); res.StatusCode != 200 {
		t.Errorf("alice's own link: %d", res.StatusCode)
	}
	// Without its last slash a link, right or wrong, is sent to the same path with it: nothing is
	// looked up.
	for _, k := range []string{key, string(wrong)} {
		res, _ := get(t, s, "/p/g1/"+k)
		if res.StatusCode != http.StatusTemporaryRedirect || res.Header.Get("Location") != "/p/g1/"+k+"/" {
			t.Errorf("/p/g1/%s: %d to %q", k, res.StatusCode, res.Header.Get("Location"))
		}
	}
}

func headerText(h http.Header) string {
	var b strings.Builder
	h.Write(&b)
	return b.String()
}

// seatByKey compares every seat's key, and takes only a whole, exact key.
func TestSeatByKey(t *testing.T) {
	g := &adjudicator.WebGame{Players: []adjudicator.WebPlayer{{Player: "a", Key: strings.Repeat("a", 32)}, {Player: "b", Key: strings.Repeat("b", 32)}}}
	for key, want := range map[string]string{strings.Repeat("a", 32): "a", strings.Repeat("b", 32): "b", strings.Repeat("a", 31): "",
		strings.Repeat("a", 33): "", "": "", strings.Repeat("c", 32): "", strings.Repeat("A", 32): ""} {
		p, ok := seatByKey(g, key)
		if ok != (want != "") || p.Player != want {
			t.Errorf("key %q: %q %v, want %q", key, p.Player, ok, want)
		}
	}
	empty := &adjudicator.WebGame{Players: []adjudicator.WebPlayer{{Player: "x", Key: ""}}}
	if _, ok := seatByKey(empty, ""); ok {
		t.Error("an empty key matched")
	}
}

// Every answer carries the security headers; HEAD works; the assets are versioned and cached.
func TestHeadersAndAssets(t *testing.T) {
	g := newTestGame(t, "g1", 12)
	s := g.server(Options{})
	for _, p := range []string{"/", "/g/g1/", g.link("g1", "alice"), "/nope"} {
		res, _ := get(t, s, p)
		for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
			if res.Header.Get(h) != want {
				t.Errorf("%s: %s %q", p, h, res.Header.Get(h))
			}
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("%s: CSP %q", p, csp)
		}
	}
	index := mustGet(t, s, "/")
	var css, js string
	for _, h := range hrefs(index) {
		switch {
		case strings.HasPrefix(h, "/static/style.css?v="):
			css = h
		case strings.HasPrefix(h, "/static/app.js?v="):
			js = h
		}
	}
	if css == "" || js == "" {
		t.Fatalf("the page links no versioned assets: %v", hrefs(index))
	}
	for _, p := range []string{css, js} {
		res, body := get(t, s, p)
		if res.StatusCode != 200 || len(body) < 100 || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d, %d bytes, %q", p, res.StatusCode, len(body), res.Header.Get("Cache-Control"))
		}
	}
	if res, _ := get(t, s, "/static/app.js?v=old"); res.Header.Get("Cache-Control") != "no-cache" {
		t.Error("an old asset version is cached for good")
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/g/g1/", nil))
	if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/g/g1/", strings.NewReader("x")))
	if rec.Code == 200 {
		t.Error("a POST was served")
	}
}

// Under a prefix (the path of web.base_url) every link carries it, and nothing outside it is served.
func TestPrefix(t *testing.T) {
	g := newTestGame(t, "g1", 2)
	g.play("g1", 2)
	s := g.server(Options{Prefix: "/sortie/"})
	index := mustGet(t, s, "/sortie/")
	if res, _ := get(t, s, "/sortie"); res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/sortie/" {
		t.Errorf("/sortie: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := get(t, s, "/sortie/g/g1"); res.StatusCode/100 != 3 || res.Header.Get("Location") != "/sortie/g/g1/" {
		t.Errorf("/sortie/g/g1: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	for _, page := range []string{index, mustGet(t, s, "/sortie/g/g1/"), mustGet(t, s, "/sortie/g/g1/round/1"), mustGet(t, s, "/sortie"+g.link("g1", "bob"))} {
		for _, h := range hrefs(page) {
			if h == "#content" {
				continue
			}
			if !strings.HasPrefix(h, "/sortie/") {
				t.Errorf("link %s is outside the prefix", h)
			} else if res, _ := get(t, s, h); res.StatusCode != 200 {
				t.Errorf("link %s: %d", h, res.StatusCode)
			}
		}
	}
	for _, p := range []string{"/", "/g/g1/", "/sortiex/", "/sortie-g/g1/"} {
		if res, _ := get(t, s, p); res.StatusCode != 404 {
			t.Errorf("%s outside the prefix: %d", p, res.StatusCode)
		}
	}
}

// The map pictures: an SVG of their own beside the ASCII map, with their own narrow policy; a player's
// is theirs alone, the public ones revalidate by ETag; a picture not on the page is 404.
func TestMapPictures(t *testing.T) {
	g := newTestGame(t, "g1", 3)
	g.play("g1", 3)
	s := g.server(Options{})
	page := mustGet(t, s, "/g/g1/round/2")
	for _, want := range []string{`<img class="picture" src="/g/g1/round/2/map/all.svg" alt="Channel, August 1940: turn 2, every unit: the map as a picture. The same map follows as text.">`,
		`src="/g/g1/round/2/map/1.svg"`, `src="/g/g1/round/2/map/2.svg"`, `<pre class="ascii"`} {
		if !strings.Contains(page, want) {
			t.Errorf("round 2 does not show %q", want)
		}
	}
	res, all := get(t, s, "/g/g1/round/2/map/all.svg")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" || res.Header.Get("Content-Security-Policy") != svgPolicy ||
		!strings.HasPrefix(all, "<svg") || !strings.Contains(all, ">"+ghost+"</tspan>") || !strings.Contains(all, ">RED1</tspan>") {
		t.Fatalf("the map of every unit: %d %v", res.StatusCode, res.Header)
	}
	_, alice := get(t, s, "/g/g1/round/2/map/1.svg")
	if strings.Contains(alice, ghost) || !strings.Contains(alice, ">RED1</tspan>") {
		t.Error("alice's picture on the round page is not her view")
	}
	req := httptest.NewRequest(http.MethodGet, "/g/g1/round/2/map/all.svg", nil)
	req.Header.Set("If-None-Match", res.Header.Get("ETag"))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Errorf("a picture the browser has: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	for _, p := range []string{"/g/g1/round/2/map/3.svg", "/g/g1/round/2/map/0.svg", "/g/g1/round/2/map/01.svg", "/g/g1/round/2/map/1",
		"/g/g1/round/2/map/x.svg", "/g/g1/round/9/map/all.svg", "/g/nope/round/2/map/all.svg"} {
		if res, body := get(t, s, p); res.StatusCode != 404 || body != notFoundBody {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	link := g.link("g1", "alice")
	res, mine := get(t, s, link+"report/2/map.svg")
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "private, no-store" || res.Header.Get("ETag") != "" || mine != alice {
		t.Errorf("alice's own picture: %d %v; the same as on the round page: %v", res.StatusCode, res.Header, mine == alice)
	}
	if !strings.Contains(mustGet(t, s, link+"report/2"), `src="`+link+`report/2/map.svg"`) {
		t.Error("alice's report does not show her picture")
	}
	wrong := strings.Replace(link, link[len(link)-3:len(link)-1], "zz", 1)
	for _, p := range []string{wrong + "report/2/map.svg", link + "report/4/map.svg", link + "report/02/map.svg"} {
		if res, body := get(t, s, p); res.StatusCode != 404 || body != notFoundBody {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	// A running game's pictures are its rounds: not shown.
	g.add("g2", 12)
	g.play("g2", 1)
	if res, _ := get(t, s, "/g/g2/round/1/map/all.svg"); res.StatusCode != 404 {
		t.Errorf("a running game's picture: %d", res.StatusCode)
	}
}

// A finished game the moderator rolls back runs again: its rounds stop showing at once, cached or not,
// and a player's pages hold only the rounds that still stand.
func TestRolledBackGameHidesItsRoundsAgain(t *testing.T) {
	g := newTestGame(t, "g1", 3)
	g.play("g1", 3)
	s := g.server(Options{})
	mustGet(t, s, "/g/g1/round/2")
	mustGet(t, s, "/g/g1/round/2/map/all.svg")
	alice := g.link("g1", "alice")
	mustGet(t, s, alice+"report/3")
	if _, err := g.svc.Moderate("g1", parser.Command{Name: "ROLLBACK", Args: []string{"2"}}); err != nil {
		t.Fatal(err)
	}
	if st := g.status("g1"); st.Status != adjudicator.StatusRunning || st.Round != 2 {
		t.Fatalf("after the rollback: %s, round %d", st.Status, st.Round)
	}
	for _, p := range []string{"/g/g1/round/0", "/g/g1/round/1", "/g/g1/round/1/events.json", "/g/g1/round/1/map/all.svg", "/g/g1/archive.tar.gz", alice + "report/2"} {
		if res, body := get(t, s, p); res.StatusCode != 404 || body != notFoundBody {
			t.Errorf("%s after the rollback: %d", p, res.StatusCode)
		}
	}
	if game := mustGet(t, s, "/g/g1/"); strings.Contains(game, "round/") || !strings.Contains(game, "This game is running") {
		t.Error("the game's page still shows its rounds")
	}
	mustGet(t, s, alice+"report/1")
}

// TestFinishedGameShowsItsRollbacks: a rollback used to erase the discarded turns, so the finished
// game's page never said it had happened. Now the page lists it, and the verification re-runs its turns.
func TestFinishedGameShowsItsRollbacks(t *testing.T) {
	g := newTestGame(t, "g1", 3)
	g.play("g1", 2)
	if _, err := g.svc.Moderate("g1", parser.Command{Name: "ROLLBACK", Args: []string{"2"}}); err != nil {
		t.Fatal(err)
	}
	g.play("g1", 2)
	if st := g.status("g1"); st.Status != adjudicator.StatusOver {
		t.Fatalf("the game is %s", st.Status)
	}
	s := g.server(Options{})
	game := mustGet(t, s, "/g/g1/")
	for _, want := range []string{"Rolled back", "<li>turn 2 was played, then rolled back by the moderator on", "timeline 1, round 2: ok", "<strong>Verified:</strong>"} {
		if !strings.Contains(game, want) {
			t.Errorf("the game page does not show %q:\n%s", want, game)
		}
	}
}
