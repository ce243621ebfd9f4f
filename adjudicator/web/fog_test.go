package web

import (
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var reportPath = regexp.MustCompile(`/report/\d+$`)

// crawl fetches every page and asset reachable from start by following the links of the pages (all of
// the site's own: the script and the style sheet too, the bundle unpacked), and returns them by path.
func crawl(t *testing.T, h http.Handler, start string) map[string]string {
	t.Helper()
	seen := map[string]string{}
	queue := []string{start}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if _, done := seen[p]; done {
			continue
		}
		res, body := get(t, h, p)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s (reached from %s): %d", p, start, res.StatusCode)
		}
		if res.Header.Get("Content-Type") == "application/gzip" {
			zr, err := gzip.NewReader(strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(zr)
			body = string(b)
		}
		seen[p] = body
		for _, l := range hrefs(body) {
			l, _, _ = strings.Cut(l, "#")
			if strings.HasPrefix(l, "/") {
				queue = append(queue, l)
			}
		}
	}
	return seen
}

// A player's link never shows what that player's view does not hold: bob's GHOST, which the RAF never
// saw, is named nowhere alice's link leads (her reports, the list of games, the running game's page,
// the script and the style sheet), nor is bob's link. bob's own link shows GHOST on every report, and
// once the game is over alice's link leads to the whole game, GHOST and all: the crawl would see it.
func TestPlayerLinkShowsOnlyThePlayersView(t *testing.T) {
	g := newTestGame(t, "g1", 4)
	g.play("g1", 3)
	s := g.server(Options{})
	alice, bob := g.link("g1", "alice"), g.link("g1", "bob")
	bobKey := strings.TrimSuffix(strings.TrimPrefix(bob, "/p/g1/"), "/")

	pages := crawl(t, s, alice)
	var paths []string
	for p := range pages {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	reports, pictures := 0, 0
	for _, p := range paths {
		body := pages[p]
		switch {
		case reportPath.MatchString(p):
			reports++
		case strings.HasSuffix(p, "/map.svg"):
			pictures++
			if !strings.Contains(body, "<svg") || !strings.Contains(body, ">RED1</tspan>") {
				t.Errorf("%s is not alice's map picture", p)
			}
		}
		for _, secret := range []string{ghost, bobKey, secrets["alice"], secrets["bob"]} {
			if strings.Contains(body, secret) {
				t.Errorf("%s (reached from alice's link) shows %q", p, secret)
			}
		}
	}
	if reports != 4 || pictures != 4 || pages["/"] == "" || pages["/g/g1/"] == "" {
		t.Errorf("the crawl from alice's link reached %d reports, %d pictures: %v", reports, pictures, paths)
	}
	// Every report alice reached holds her own view: her aircraft, and after the first turn the enemies
	// she saw.
	for _, p := range paths {
		if reportPath.MatchString(p) && (!strings.Contains(pages[p], "RED1") || !strings.HasSuffix(p, "/0") && !strings.Contains(pages[p], "KURT")) {
			t.Errorf("%s does not show alice's view", p)
		}
	}

	// bob's link shows GHOST on each of his reports and their pictures.
	for p, body := range crawl(t, s, bob) {
		if (reportPath.MatchString(p) || strings.HasSuffix(p, "/map.svg")) && !strings.Contains(body, ghost) {
			t.Errorf("bob's %s does not show his own GHOST", p)
		}
	}

	// Over: the whole game is public, and alice's link leads to it.
	g.play("g1", 1)
	found := false
	for _, body := range crawl(t, s, alice) {
		found = found || strings.Contains(body, ghost)
	}
	if !found {
		t.Error("once the game is over alice's link leads to the whole game, but the crawl never saw GHOST")
	}
}
