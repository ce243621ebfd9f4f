package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/adjudicator/web"
)

// WebConfig is the configuration's web: section: the read-only web archive of the games (docs/web.md),
// served by the daemon itself when Listen is set, or by `sortie web` when no daemon runs.
type WebConfig struct {
	// Listen is the address the archive is served on, e.g. 127.0.0.1:8080 (behind a reverse proxy for
	// TLS). Empty: the daemon serves none.
	Listen string `yaml:"listen"`
	// BaseURL is the archive's address as players reach it, e.g. https://games.example.org/sortie/: the
	// beginning of each player's link. Its path is where the archive is served (the proxy passes it on).
	BaseURL string `yaml:"base_url"`
	// Public are the ids of running games shown in full to everyone, as finished games are.
	Public []string `yaml:"public"`
	// ReadOnly is not configured: `sortie web` sets it, having opened the database read-only, so the
	// plotting board tries plots but sends none.
	ReadOnly bool `yaml:"-"`
}

// DefaultWebListen is where `sortie web` listens when neither --listen nor web.listen says.
const DefaultWebListen = "127.0.0.1:8080"

// problems lists what is wrong with the section, each prefixed with its key.
func (w WebConfig) problems() []string {
	var out []string
	if w.Listen != "" {
		if _, port, err := net.SplitHostPort(w.Listen); err != nil || port == "" {
			out = append(out, fmt.Sprintf("web.listen: a host and port such as 127.0.0.1:8080, not %q", w.Listen))
		}
	}
	if w.BaseURL != "" {
		u, err := url.Parse(w.BaseURL)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			out = append(out, fmt.Sprintf("web.base_url: an http or https address such as https://games.example.org/sortie/, not %q", w.BaseURL))
		case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
			out = append(out, "web.base_url: an address without a query, a fragment or a user name")
		case strings.ContainsFunc(u.Path, func(r rune) bool { return !pathRune(r) }):
			out = append(out, fmt.Sprintf("web.base_url: its path %q may hold only letters, digits and - _ . /", u.Path))
		}
	}
	for i, id := range w.Public {
		if strings.TrimSpace(id) == "" {
			out = append(out, fmt.Sprintf("web.public[%d]: a game id", i))
		}
	}
	return out
}

func pathRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./", r)
}

// Prefix is the path the archive is served under: base_url's path without its last slash.
func (w WebConfig) Prefix() string {
	if w.BaseURL == "" {
		return ""
	}
	u, err := url.Parse(w.BaseURL)
	if err != nil {
		return ""
	}
	return strings.TrimRight(u.Path, "/")
}

// Link is a player's whole link: base_url and the player's path (adjudicator.Service.PlayerLink); the
// path alone, from the root, when no base_url is set.
func (w WebConfig) Link(path string) string {
	if w.BaseURL == "" {
		return "/" + path
	}
	return strings.TrimRight(w.BaseURL, "/") + "/" + path
}

// WebServer serves the web archive of a service's games on a listener.
type WebServer struct {
	srv *http.Server
	ln  net.Listener
	log zerolog.Logger
}

// NewWebServer listens on addr (so a port in use is an error at once) and prepares the archive.
func NewWebServer(w WebConfig, addr string, svc *adjudicator.Service, log zerolog.Logger) (*WebServer, error) {
	h, err := web.New(svc, web.Options{Public: w.Public, Prefix: w.Prefix(), Log: log, ReadOnly: w.ReadOnly})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web archive: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	return &WebServer{srv: srv, ln: ln, log: log}, nil
}

// Addr is the address the archive listens on (with the port chosen, for :0).
func (w *WebServer) Addr() string { return w.ln.Addr().String() }

// Run serves until ctx is cancelled, then lets the requests under way finish (for up to 5 seconds).
func (w *WebServer) Run(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- w.srv.Serve(w.ln) }()
	w.log.Info().Str("addr", w.Addr()).Msg("web archive is serving")
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := w.srv.Shutdown(stop)
	if e := <-done; err == nil && !errors.Is(e, http.ErrServerClosed) {
		err = e
	}
	return err
}
