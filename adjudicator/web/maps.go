package web

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"sortie/adjudicator"
	hexmap "sortie/rules/hex"
	"sortie/rules/hex/picture"
)

// The map pictures. Each is an SVG of its own (package picture draws it from a scene), shown on its page
// by an <img> with the ASCII map beside it as its text: a picture embeds the subset of its fonts it
// needs, so several inline on one page would redefine each other's fonts, and a 100-aircraft turn page
// would carry a megabyte of pictures on every step. A player's picture is served only behind their link,
// and is the one their mail carried.

// svgPolicy lets a picture use its own styles and embedded fonts, and nothing else.
const svgPolicy = "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:"

// svgBudget bounds the bytes of pictures kept drawn; past it the least recently used go.
const svgBudget = 32 << 20

// svgCache keeps drawn pictures by key (the game's view key and the picture's path), least recently
// used first out.
type svgCache struct {
	mu    sync.Mutex
	ll    *list.List
	m     map[string]*list.Element
	bytes int
}

type svgEntry struct {
	key string
	svg []byte
}

func (c *svgCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*svgEntry).svg, true
	}
	return nil, false
}

func (c *svgCache) put(key string, svg []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m, c.ll = map[string]*list.Element{}, list.New()
	}
	if _, ok := c.m[key]; ok || len(svg) > svgBudget {
		return
	}
	c.m[key] = c.ll.PushFront(&svgEntry{key: key, svg: svg})
	c.bytes += len(svg)
	for c.bytes > svgBudget {
		e := c.ll.Back()
		c.ll.Remove(e)
		old := e.Value.(*svgEntry)
		delete(c.m, old.key)
		c.bytes -= len(old.svg)
	}
}

// serveSVG draws (or finds drawn) a scene's picture and serves it. key names the picture for the cache
// and the ETag: the game's view key and the picture's path.
func (s *Server) serveSVG(w http.ResponseWriter, r *http.Request, key string, sc *hexmap.Scene, private bool) {
	s.serveSceneSVG(w, r, key, func() (*hexmap.Scene, error) { return sc, nil }, private)
}

// serveSceneSVG is serveSVG of a scene made only when its picture is not drawn already (the board's,
// whose plans cost a check each).
func (s *Server) serveSceneSVG(w http.ResponseWriter, r *http.Request, key string, scene func() (*hexmap.Scene, error), private bool) {
	sum := sha256.Sum256([]byte(key))
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("Content-Security-Policy", svgPolicy)
	if private {
		h.Set("Cache-Control", "private, no-store")
		h.Set("X-Robots-Tag", "noindex, nofollow")
	} else {
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", etag)
		if inm := r.Header.Get("If-None-Match"); inm != "" && strings.Contains(inm, etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	svg, ok := s.svgs.get(key)
	if !ok {
		sc, err := scene()
		if err == nil && sc == nil {
			err = fmt.Errorf("no scene to draw")
		}
		if err == nil {
			svg, err = picture.SVG(*sc)
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.svgs.put(key, svg)
	}
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Content-Length", strconv.Itoa(len(svg)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(svg)
}

// roundMap serves a picture of a viewable game's round page: all.svg, every unit; K.svg, what the K-th
// seat was shown.
func (s *Server) roundMap(w http.ResponseWriter, r *http.Request) {
	g, v, n, ok := s.publicRound(w, r, 0)
	if !ok {
		return
	}
	d := v.round(n, s.roundHref(g.ID, n))
	var m *mapView
	file := r.PathValue("file")
	if file == "all.svg" {
		m = d.Truth
	} else if k, ok := roundNumber(strings.TrimSuffix(file, ".svg")); ok && strings.HasSuffix(file, ".svg") && k >= 1 && k <= len(d.Reports) && d.Reports[k-1].Told {
		m = d.Reports[k-1].Report.Map
	}
	if m == nil || m.scene == nil {
		notFound(w)
		return
	}
	s.serveSVG(w, r, v.key+"\x00"+r.URL.Path, m.scene, false)
}

// playerMap serves the picture of a player's report: the one their mail carried.
func (s *Server) playerMap(w http.ResponseWriter, r *http.Request) {
	n, okN := roundNumber(r.PathValue("n"))
	if !okN {
		notFound(w)
		return
	}
	g, pl, v, ok := s.playerGame(w, r)
	if !ok {
		return
	}
	reps := v.reports(pl.Player)
	if n >= len(reps) {
		notFound(w)
		return
	}
	sc := reps[n].Report.Picture()
	if sc == nil {
		notFound(w)
		return
	}
	s.serveSVG(w, r, v.key+"\x00"+adjudicator.PlayerPath(g.ID, pl.Key)+strconv.Itoa(n), sc, true)
}
