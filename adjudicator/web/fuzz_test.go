package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzPaths: whatever path a reader sends, the archive answers without failing, and a player's page is
// served only for the player's own key: any other path under /p/ is 404 or a redirect to the same path
// with a slash.
func FuzzPaths(f *testing.F) {
	g := newTestGame(f, "g1", 12)
	g.play("g1", 1)
	s := g.server(Options{})
	alice := g.link("g1", "alice")
	bob := g.link("g1", "bob")
	for _, p := range []string{"/", "/g/g1/", "/g/g1/round/0", "/g/g1/archive.tar.gz", alice, alice + "report/1", alice + "report/01",
		bob + "report/0", "/p/g1/" + strings.Repeat("0", 32) + "/", "/static/app.js", "/g/%2e%2e/", "/p/g1/../g1/", "//", "/p/g1/x/report/1"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		req, err := http.NewRequest(http.MethodGet, "http://sortie.test"+p, nil)
		if err != nil || !strings.HasPrefix(req.URL.Path, "/") {
			return
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		switch {
		case rec.Code == http.StatusNotFound:
			if rec.Body.String() != notFoundBody {
				t.Fatalf("%q: a 404 with another body", p)
			}
		case rec.Code/100 == 3:
		case rec.Code == http.StatusOK:
			path := req.URL.Path
			if strings.HasPrefix(path, "/p/") && !strings.HasPrefix(path, alice) && !strings.HasPrefix(path, bob) {
				t.Fatalf("%q (path %q) served a player's page without the player's key", p, path)
			}
		default:
			t.Fatalf("%q: status %d", p, rec.Code)
		}
	})
}
