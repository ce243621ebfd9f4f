package web

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// Readers while the game moves on: every answer is a whole page of the game as it stood (200), or 404
// for a page not there yet; never a failure. Run with -race, it also checks the caches' locking.
func TestReadersWhileRoundsResolve(t *testing.T) {
	g := newTestGame(t, "g1", 12)
	s := g.server(Options{Public: []string{"g1"}})
	alice := g.link("g1", "alice")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				paths := []string{"/", "/g/g1/", "/g/g1/round/" + strconv.Itoa(n%4), alice, alice + "report/" + strconv.Itoa(n%4)}
				p := paths[(i+n)%len(paths)]
				res, body := get(t, s, p)
				if res.StatusCode != http.StatusOK && (res.StatusCode != http.StatusNotFound || body != notFoundBody) {
					errs <- p + ": " + strconv.Itoa(res.StatusCode)
					return
				}
			}
		}(i)
	}
	g.play("g1", 4)
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	mustGet(t, s, alice+"report/4")
}
