// Package web is Sortie's web archive (docs/web.md): an HTTP handler that shows the list of games and,
// for each game, its turns with the map, the events and the dice as the viewer may see them, and that
// takes orders sent from a player's plotting board through adjudicator.Service, as a mail would be.
//
//   - Anyone sees the list of games and each game's name, ruleset, status and round (not the round of a
//     running game whose rounds are the engine's stops: their number depends on hidden units).
//   - A finished game, or a running one the moderator made public (Options.Public), shows every round in
//     full: each player's report, every die, the orders, the ruleset's record of events and a map of
//     the whole truth; its archive's verification status; and its export bundle to download.
//   - A running game shows nothing of its rounds. Each player follows their own reports through a secret
//     link (adjudicator.Service.PlayerLink): every page behind it is built from the player's own reports
//     (ruleset.Game.Report, from their side's view only, invariant 4), never from the events or the
//     state.
//   - Behind the same link, while the game runs, the player's plotting board (board.go): their latest
//     picture with the plots they try drawn on it, each plot's forecast as the receipt would give it
//     (adjudicator.Service.Board and TryOrder, which read only the player's own units and what their side
//     has seen), and a Send button that submits the order block through adjudicator.Service.SubmitBoard,
//     the path a mail takes.
//   - An unknown game, a wrong or unknown link, a round not yet played: 404 with the same fixed body.
//
// The handler reads the database only through adjudicator.Service (Record, WebGame, WebGames, AsksOnly,
// Board, TryOrder) and package archive, in read transactions; its one write is SubmitBoard's, the
// service's own submission path. The pages are server-rendered html/template that works without
// JavaScript; a small script (static/app.js) steps through turns without reloading, with the arrow keys
// too, and the board's (static/board.js) tries plots as they are typed.
package web

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Options configure a Server.
type Options struct {
	// Public are the ids of running games shown in full, as a finished game is (web.public).
	Public []string
	// Prefix is the path the archive is served under, e.g. "/sortie" (the path of web.base_url); "" or
	// "/" serves it at the root. Requests outside it get 404.
	Prefix string
	// Log is told of pages that could not be built.
	Log zerolog.Logger
	// Now is the clock of the plotting board's rate limit; nil is the system's.
	Now func() time.Time
	// Rand is where the plotting board's page tokens get their nonces; nil is crypto/rand.
	Rand io.Reader
	// ReadOnly says the database is open read-only (sortie web): the plotting board tries plots but
	// sends nothing, and says to mail the block instead.
	ReadOnly bool
}

// Server is the web archive's handler.
type Server struct {
	svc    *adjudicator.Service
	log    zerolog.Logger
	prefix string
	public map[string]bool
	pages  map[string]*template.Template
	mux    *http.ServeMux
	assets map[string]asset
	// The plotting board's safety (board.go): tries rate-limited per link, nonces for the page tokens,
	// sends refused from another site.
	limit *limiter
	rand  io.Reader
	cross *http.CrossOriginProtection
	plans planCache // plans tried (board.go)
	// readOnly: Options.ReadOnly.
	readOnly bool

	mu    sync.Mutex
	views map[string]*slot // by game id: the game's rounds, rebuilt when the game moves on
	asks  map[string]bool  // by game id: adjudicator.Service.AsksOnly, which never changes in a game
	svgs  svgCache         // map pictures drawn (maps.go)

	// buffers hold rendered pages: a turn page of a big game is hundreds of KiB, grown anew for every
	// request without them. A buffer is Reset as it is put back, and nothing else is kept in it.
	buffers sync.Pool
}

// asset is an embedded file with its content type and a version for cache busting.
type asset struct {
	data    []byte
	ctype   string
	version string
}

// New makes the web archive of a service's games.
func New(svc *adjudicator.Service, opts Options) (*Server, error) {
	s := &Server{svc: svc, log: opts.Log, prefix: strings.TrimRight(opts.Prefix, "/"), public: map[string]bool{},
		views: map[string]*slot{}, asks: map[string]bool{}, assets: map[string]asset{}, rand: opts.Rand, cross: http.NewCrossOriginProtection(), readOnly: opts.ReadOnly}
	s.buffers.New = func() any { return new(bytes.Buffer) }
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	s.limit = newLimiter(now)
	if s.rand == nil {
		s.rand = rand.Reader
	}
	if s.prefix != "" && !strings.HasPrefix(s.prefix, "/") {
		s.prefix = "/" + s.prefix
	}
	for _, id := range opts.Public {
		s.public[strings.ToLower(id)] = true
	}
	for name, ctype := range map[string]string{"style.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8", "board.js": "text/javascript; charset=utf-8"} {
		b, err := fs.ReadFile(staticFiles, "static/"+name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		s.assets[name] = asset{data: b, ctype: ctype, version: hex.EncodeToString(sum[:6])}
	}
	var err error
	if s.pages, err = parsePages(s); err != nil {
		return nil, err
	}
	// The patterns carry the prefix, so the mux's own redirects (a path without its last slash) stay
	// under it.
	mux := http.NewServeMux()
	p := s.prefix
	mux.HandleFunc("GET "+p+"/{$}", s.index)
	mux.HandleFunc("GET "+p+"/g/{game}/{$}", s.game)
	mux.HandleFunc("GET "+p+"/g/{game}/round/{n}", s.round)
	mux.HandleFunc("GET "+p+"/g/{game}/round/{n}/events.json", s.events)
	mux.HandleFunc("GET "+p+"/g/{game}/round/{n}/map/{file}", s.roundMap)
	mux.HandleFunc("GET "+p+"/p/{game}/{key}/report/{n}/map.svg", s.playerMap)
	mux.HandleFunc("GET "+p+"/g/{game}/archive.tar.gz", s.bundle)
	mux.HandleFunc("GET "+p+"/p/{game}/{key}/{$}", s.player)
	mux.HandleFunc("GET "+p+"/p/{game}/{key}/report/{n}", s.playerReport)
	mux.HandleFunc("GET "+p+"/p/{game}/{key}/board", s.board)
	mux.HandleFunc("POST "+p+"/p/{game}/{key}/board", s.boardPost)
	mux.HandleFunc("GET "+p+"/p/{game}/{key}/board/try", s.boardTry)
	mux.HandleFunc("GET "+p+"/p/{game}/{key}/board/map.svg", s.boardMap)
	mux.HandleFunc("GET "+p+"/static/{file}", s.static)
	if p != "" {
		mux.Handle("GET "+p, http.RedirectHandler(p+"/", http.StatusMovedPermanently))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { notFound(w) })
	s.mux = mux
	return s, nil
}

// ServeHTTP serves the archive, with the headers every answer carries.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Nothing but this site's own files, never in a frame; and no link on these pages tells another site
	// where the reader came from (a player's link is a secret).
	h.Set("Content-Security-Policy", pagePolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	s.mux.ServeHTTP(w, r)
}

// pagePolicy lets a page use nothing but the archive's own files (the style sheet, the script, the map
// pictures); a map picture's answer replaces it with its own (maps.go).
const pagePolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// notFoundBody is the whole answer to anything that is not there or not the reader's to see: an
// unknown page or game, a wrong or unknown player link, a round not yet played, a running game's
// rounds. The same bytes and headers every time, so a 404 tells nothing but that.
const notFoundBody = "Not found.\n"

func notFound(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(notFoundBody)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte(notFoundBody))
}

// serverErrorBody answers a page that could not be built; the reason goes to the log only.
const serverErrorBody = "The page could not be built; the server's log says why.\n"

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error().Err(err).Str("path", s.logPath(r.URL.Path)).Msg("web archive: page failed")
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusInternalServerError)
	w.Write([]byte(serverErrorBody))
}

// logPath is a path for the log: a player link's key left out, since whoever reads the log need not
// read that player's reports. The link is read from the path's start under the archive's prefix, which
// may itself be "/p" or hold "/p/" (a base_url of https://host/p/ used to let the key through, logged as
// /p/p/(key)/KEY/…).
func (s *Server) logPath(p string) string {
	rest, ok := strings.CutPrefix(p, s.prefix)
	if !ok {
		return p
	}
	rest, ok = strings.CutPrefix(rest, "/p/")
	if !ok {
		return p
	}
	game, rest, ok := strings.Cut(rest, "/")
	if !ok {
		return p
	}
	_, rest, _ = strings.Cut(rest, "/")
	return s.prefix + "/p/" + game + "/(key)/" + rest
}

// render writes a page, rendered in full before the first byte goes out (a failed template gives a 500,
// not half a page).
func (s *Server) render(w http.ResponseWriter, r *http.Request, name string, data any, private bool) {
	s.renderCode(w, r, name, data, private, http.StatusOK)
}

// renderCode is render with another status than 200 (a board refusing a send says why on the page).
func (s *Server) renderCode(w http.ResponseWriter, r *http.Request, name string, data any, private bool, code int) {
	s.renderPart(w, r, name, "layout", data, code, private)
}

// renderPart renders one template of a page's set: the layout (a whole page) or a part of it (the
// board's forecast, fetched by its script).
func (s *Server) renderPart(w http.ResponseWriter, r *http.Request, name, part string, data any, code int, private bool) {
	b := s.buffers.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= 4<<20 { // a page of a huge game is not kept for the next
			b.Reset()
			s.buffers.Put(b)
		}
	}()
	if err := s.pages[name].ExecuteTemplate(b, part, data); err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	if private {
		// A player's pages stay out of shared caches, the browser's disk and search engines.
		h.Set("Cache-Control", "private, no-store")
		h.Set("X-Robots-Tag", "noindex, nofollow")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	w.WriteHeader(code)
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b.Bytes())
}

func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	a, ok := s.assets[r.PathValue("file")]
	if !ok {
		notFound(w)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Content-Length", strconv.Itoa(len(a.data)))
	if r.URL.Query().Get("v") == a.version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if r.Method == http.MethodHead {
		return
	}
	w.Write(a.data)
}

// href is a path of the archive as a link: under the prefix.
func (s *Server) href(parts ...string) string {
	return s.prefix + "/" + strings.TrimPrefix(path.Join(parts...), "/")
}

// assetHref is a static file's link with its version.
func (s *Server) assetHref(name string) string {
	return s.href("static", name) + "?v=" + s.assets[name].version
}

// viewable says a game's rounds may be shown to anyone: it is over, or its moderator made it public.
func (s *Server) viewable(g *adjudicator.WebGame) bool {
	return g.Over() || s.public[strings.ToLower(g.ID)]
}

// roundNumber reads a round or report number from a path: decimal digits, no sign, no leading zero.
func roundNumber(v string) (int, bool) {
	if v == "" || len(v) > 6 || (len(v) > 1 && v[0] == '0') {
		return 0, false
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// seatByKey finds the player whose link key is key, comparing with every seat's key in constant time
// (no early exit), so the time taken does not tell how much of a guess was right.
func seatByKey(g *adjudicator.WebGame, key string) (adjudicator.WebPlayer, bool) {
	var found adjudicator.WebPlayer
	hit := 0
	for _, p := range g.Players {
		eq := subtle.ConstantTimeCompare([]byte(p.Key), []byte(key))
		if eq == 1 {
			found = p
		}
		hit |= eq
	}
	return found, hit == 1 && len(key) == 32
}
