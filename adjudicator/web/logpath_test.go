package web

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// A page that fails is logged with its path, and a player link's key never reaches the log, whatever the
// archive's prefix (web.base_url's path): with a base_url ending in /p/, /p/p/g1/KEY/… used to be logged
// as /p/p/(key)/KEY/… (docs/operations.md, Security; docs/web.md).
func TestFailedPageLogsNoKey(t *testing.T) {
	const key = "Zq7xKEYxK3y"
	cases := []struct{ prefix, path, want string }{
		{"", "/p/g1/" + key + "/report/2", "/p/g1/(key)/report/2"},
		{"", "/p/g1/" + key + "/", "/p/g1/(key)/"},
		{"/p/", "/p/p/g1/" + key + "/report/2", "/p/p/g1/(key)/report/2"},
		{"/p/", "/p/p/g1/" + key + "/report/2/map.svg", "/p/p/g1/(key)/report/2/map.svg"},
		{"/p", "/p/p/p/" + key + "/", "/p/p/p/(key)/"},
		{"/games/p/", "/games/p/p/g1/" + key + "/report/1", "/games/p/p/g1/(key)/report/1"},
		{"/sortie", "/sortie/p/g1/" + key, "/sortie/p/g1/(key)/"},
		{"/p/", "/p/g/g1/round/1", "/p/g/g1/round/1"},
	}
	for _, c := range cases {
		var logs bytes.Buffer
		s, err := New(nil, Options{Prefix: c.prefix, Log: zerolog.New(&logs)})
		if err != nil {
			t.Fatal(err)
		}
		s.fail(httptest.NewRecorder(), httptest.NewRequest("GET", c.path, nil), errors.New("broken"))
		if strings.Contains(logs.String(), key) {
			t.Errorf("prefix %q, %s: the key is in the log: %s", c.prefix, c.path, logs.String())
		}
		if !strings.Contains(logs.String(), `"path":"`+c.want+`"`) {
			t.Errorf("prefix %q, %s: logged %s, want the path %s", c.prefix, c.path, logs.String(), c.want)
		}
	}
}
