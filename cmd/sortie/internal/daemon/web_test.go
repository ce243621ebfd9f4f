package daemon

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"sortie/rules/afd"
)

// The web: section is checked like the rest: a bad address, a base URL that is not one, a path the
// archive cannot be served under; a good one gives the prefix and the players' links.
func TestWebConfig(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "web:\n  listen: 127.0.0.1:8080\n  base_url: https://games.example.org/sortie/\n  public: [g1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Web.Prefix() != "/sortie" || c.Web.Link("p/g1/abc/") != "https://games.example.org/sortie/p/g1/abc/" || c.Web.Public[0] != "g1" {
		t.Errorf("prefix %q, link %q", c.Web.Prefix(), c.Web.Link("p/g1/abc/"))
	}
	if (WebConfig{}).Link("p/g1/abc/") != "/p/g1/abc/" || (WebConfig{BaseURL: "http://h"}).Prefix() != "" {
		t.Error("without a base URL or its path")
	}
	_, err = LoadConfig(writeConfig(t, "web:\n  listen: 8080\n  base_url: games.example.org\n  public: [\"\"]\n"))
	for _, want := range []string{`web.listen: a host and port such as 127.0.0.1:8080, not "8080"`, `web.base_url: an http or https address`, "web.public[0]: a game id"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the error must say %q: %v", want, err)
		}
	}
	for _, bad := range []string{"https://h/a?b=1", "https://u@h/", "https://h/a%20b/", "https://h/{x}/"} {
		if _, err := LoadConfig(writeConfig(t, "web:\n  base_url: \""+bad+"\"\n")); err == nil || !strings.Contains(err.Error(), "web.base_url") {
			t.Errorf("base_url %s: %v", bad, err)
		}
	}
}

// With web.listen the daemon serves the web archive of its own games beside the mail, over real HTTP,
// under base_url's path; it stops with the daemon.
func TestDaemonServesTheWebArchive(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "web:\n  listen: 127.0.0.1:0\n  base_url: http://games.test/sortie/\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDaemon(c)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, []byte("\nservice:\n  players:\n    alice: {email: alice@players.test}\n    bob: {email: bob@players.test}\n")...)
	if _, err := d.Svc.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	base := "http://" + d.Web.Addr() + "/sortie/"
	get := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(base); code != 200 || !strings.Contains(body, `href="/sortie/g/g1/"`) {
		t.Errorf("the list: %d\n%s", code, body)
	}
	link, err := d.Svc.PlayerLink("g1", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if code, body := get(base + link); code != 200 || !strings.Contains(body, "Alice's reports") {
		t.Errorf("alice's link %s: %d", link, code)
	}
	if code, _ := get("http://" + d.Web.Addr() + "/"); code != 404 {
		t.Errorf("outside base_url's path: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the daemon stopped with %v", err)
		}
	case <-time.After(hangGuard):
		t.Fatalf("the daemon did not stop within %v", hangGuard)
	}
	if c, err := net.DialTimeout("tcp", d.Web.Addr(), time.Second); err == nil {
		c.Close()
		t.Error("the web archive still listens after the daemon stopped")
	}
}

// A web.listen address in use stops the daemon from starting, with the address in the error.
func TestWebListenInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := LoadConfig(writeConfig(t, fmt.Sprintf("web:\n  listen: %s\n", ln.Addr())))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDaemon(c)
	if err == nil {
		d.Close()
		t.Fatal("the daemon started on an address in use")
	}
	if !strings.Contains(err.Error(), ln.Addr().String()) {
		t.Errorf("the error does not name the address: %v", err)
	}
	// The database was closed again: it opens.
	if d, err := NewDaemon(&Config{Database: c.Database, Address: c.Address}); err != nil {
		t.Errorf("the database was left locked: %v", err)
	} else {
		d.Close()
	}
}
