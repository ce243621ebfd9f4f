package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"sortie/adjudicator"
	"sortie/adjudicator/archive"
	"sortie/rules/ruleset"
)

// The pages. Their data never holds an adjudicator.WebGame (whose players carry their link keys): only
// the plain values each page shows.

// pageNames are the page templates, each with the layout and the shared parts.
var pageNames = []string{"index", "game", "round", "player", "report", "board"}

func parsePages(s *Server) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"heading": func(level int, text string) template.HTML {
			level = min(max(level, 2), 6)
			return template.HTML(fmt.Sprintf("<h%d>%s</h%d>", level, template.HTMLEscapeString(text), level))
		},
		"dicetable": func(caption string, rows []diceRow) diceTable { return diceTable{Caption: caption, Rows: rows} },
		"report":    func(who string, level int, r reportView) reportArgs { return reportArgs{Who: who, Level: level, R: r} },
	}
	out := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", "templates/parts.html", "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}

// diceTable is the dice part's data: a table with its caption.
type diceTable struct {
	Caption string
	Rows    []diceRow
}

// reportArgs is the report part's data: whose report, the level of its headings, the report.
type reportArgs struct {
	Who   string
	Level int
	R     reportView
}

// pageBase is what the layout needs.
type pageBase struct {
	Title  string
	Style  string
	Script string
	Home   string
	Crumbs []link
	// Private marks a player's pages (kept out of search engines).
	Private bool
	// BoardScript is the plotting board's own script, on the board only.
	BoardScript string
}

// link is a link with its text; Href empty is the current page.
type link struct{ Href, Text string }

func (s *Server) base(title string, private bool, crumbs ...link) pageBase {
	return pageBase{Title: title, Style: s.assetHref("style.css"), Script: s.assetHref("app.js"), Home: s.href(), Crumbs: crumbs, Private: private}
}

// gameInfo is what any page says of a game.
type gameInfo struct {
	ID, Name, Ruleset, Status, Result, Href string
	Over                                    bool
}

func (s *Server) info(g *adjudicator.WebGame) gameInfo {
	return gameInfo{ID: g.ID, Name: g.Name, Ruleset: g.Ruleset, Status: g.Status, Result: g.Result, Over: g.Over(),
		Href: s.href("g", url.PathEscape(g.ID)) + "/"}
}

// turnNav steps through a game's round pages or a player's reports: plain links that the script turns
// into steps without a reload (and the arrow keys).
type turnNav struct {
	Label      string // what the steps are: "turns", "reports"
	Prev, Next *link
	Up         link
	Pos, Count int // 1-based position of this page, of Count
}

// --- the list of games -------------------------------------------------------------------------

type indexPage struct {
	pageBase
	Games []gameRow
}

type gameRow struct {
	gameInfo
	Round string
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	games, err := s.svc.WebGames()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := indexPage{pageBase: s.base("Games", false, link{Text: "Games"})}
	for i := range games {
		g := &games[i]
		round, err := s.roundText(g)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		p.Games = append(p.Games, gameRow{gameInfo: s.info(g), Round: round})
	}
	s.render(w, r, "index", p, false)
}

// roundText is where a game stands as the public pages give it, in game turns: the turn being played
// (the round, which is the turn in a game whose rounds are turns), or for a finished game the last one
// played, as its over mail says; "" (not shown) for a running game whose rounds are the engine's stops
// (adjudicator.Service.AsksOnly).
func (s *Server) roundText(g *adjudicator.WebGame) (string, error) {
	if g.Over() {
		if g.Turn == 0 { // a game finished before the record kept its turn
			return strconv.Itoa(max(g.Round-1, 0)), nil
		}
		return strconv.Itoa(g.Turn), nil
	}
	if !s.public[strings.ToLower(g.ID)] {
		asks, err := s.asksOnly(g.ID)
		if err != nil {
			return "", err
		}
		if asks {
			return "", nil
		}
	}
	return strconv.Itoa(g.Round), nil
}

// --- a game -------------------------------------------------------------------------------------

type gamePage struct {
	pageBase
	Game     gameInfo
	Round    string
	Created  string
	Viewable bool
	Public   bool // running, and public by the moderator's choice
	Players  []playerRow
	Rounds   []link
	// Rollbacks say what the moderator's rollbacks discarded, a sentence each: those turns stay in the
	// archive (and its download) as closed timelines.
	Rollbacks []string
	Check     *checkView
	Bundle    string
}

type playerRow struct {
	Name, Side string
	Bot        bool
}

// checkView is a game's verification on its page.
type checkView struct {
	OK    bool
	Lines []string // `sortie verify`'s report, line by line
	Error string
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	g, ok, err := s.svc.WebGame(r.PathValue("game"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !ok {
		notFound(w)
		return
	}
	gi := s.info(&g)
	p := gamePage{pageBase: s.base(g.Name, false, link{Href: s.href(), Text: "Games"}, link{Text: g.Name}), Game: gi,
		Created: g.Created.UTC().Format("2 January 2006")}
	if p.Round, err = s.roundText(&g); err != nil {
		s.fail(w, r, err)
		return
	}
	if s.viewable(&g) {
		v, ok, err := s.publicView(&g)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if !ok { // it was reopened (a rollback) between the two reads: shown as it now stands
			s.render(w, r, "game", p, false)
			return
		}
		p.Viewable, p.Public = true, !v.game.Over()
		for _, pl := range v.game.Players {
			p.Players = append(p.Players, playerRow{Name: orID(pl.Name, pl.Player), Side: pl.Side, Bot: pl.Bot})
		}
		for i := 0; i < v.pages(); i++ {
			p.Rounds = append(p.Rounds, link{Href: s.roundHref(g.ID, i), Text: v.roundLabel(i)})
		}
		for _, rb := range v.replay.Game.Rollbacks {
			p.Rollbacks = append(p.Rollbacks, adjudicator.RollbackText(rb, v.replay.Noun))
		}
		c := s.verify(&g)
		cv := &checkView{}
		if c.err != nil {
			cv.Error = c.err.Error()
		} else {
			cv.OK = c.report.OK()
			var b bytes.Buffer
			c.report.WriteText(&b)
			cv.Lines = strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		}
		p.Check = cv
		p.Bundle = gi.Href + "archive.tar.gz"
	}
	s.render(w, r, "game", p, false)
}

func orID(name, id string) string {
	if name == "" {
		return id
	}
	return name
}

func (s *Server) roundHref(game string, i int) string {
	return s.href("g", url.PathEscape(game), "round", strconv.Itoa(i))
}

// roundLabel names round page i.
func (v *gameView) roundLabel(i int) string {
	if i == 0 {
		return "Opening position"
	}
	rr := v.replay.Rounds[i-1]
	return title(ruleset.RoundTitle(v.replay.Noun, rr.Round, ruleset.LastTurn(rr.After)))
}

// --- a round of a viewable game ----------------------------------------------------------------

type roundPage struct {
	pageBase
	Game gameInfo
	Nav  turnNav
	R    *roundData
	// EventsHref is the round's events as the archive keeps them (JSON).
	EventsHref string
}

func (s *Server) round(w http.ResponseWriter, r *http.Request) {
	g, ok, err := s.svc.WebGame(r.PathValue("game"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	n, okN := roundNumber(r.PathValue("n"))
	if !ok || !okN || !s.viewable(&g) {
		notFound(w)
		return
	}
	p, ok, err := s.roundPage(&g, n)
	switch {
	case err != nil:
		s.fail(w, r, err)
	case !ok:
		notFound(w)
	default:
		s.render(w, r, "round", p, false)
	}
}

// publicRound reads the request's viewable game and its round page n (at least first), or answers the
// request itself (an error, or the one fixed 404) and returns false.
func (s *Server) publicRound(w http.ResponseWriter, r *http.Request, first int) (adjudicator.WebGame, *gameView, int, bool) {
	g, ok, err := s.svc.WebGame(r.PathValue("game"))
	if err != nil {
		s.fail(w, r, err)
		return g, nil, 0, false
	}
	n, okN := roundNumber(r.PathValue("n"))
	if !ok || !okN || n < first || !s.viewable(&g) {
		notFound(w)
		return g, nil, 0, false
	}
	v, ok, err := s.publicView(&g)
	if err != nil {
		s.fail(w, r, err)
		return g, nil, 0, false
	}
	if !ok || n >= v.pages() {
		notFound(w)
		return g, nil, 0, false
	}
	return g, v, n, true
}

// roundPage is round page n of a viewable game; false when the game has no such round.
func (s *Server) roundPage(g *adjudicator.WebGame, n int) (roundPage, bool, error) {
	v, ok, err := s.publicView(g)
	if err != nil || !ok || n >= v.pages() {
		return roundPage{}, false, err
	}
	d := v.round(n, s.roundHref(g.ID, n))
	gi := s.info(g)
	p := roundPage{pageBase: s.base(d.Label+" · "+g.Name, false, link{Href: s.href(), Text: "Games"}, link{Href: gi.Href, Text: g.Name}, link{Text: d.Label}),
		Game: gi, R: d, Nav: turnNav{Label: "Turns", Up: link{Href: gi.Href, Text: "All turns"}, Pos: n + 1, Count: v.pages()}}
	if n > 0 {
		p.Nav.Prev = &link{Href: s.roundHref(g.ID, n-1), Text: v.roundLabel(n - 1)}
	}
	if n+1 < v.pages() {
		p.Nav.Next = &link{Href: s.roundHref(g.ID, n+1), Text: v.roundLabel(n + 1)}
	}
	if n > 0 {
		p.EventsHref = s.roundHref(g.ID, n) + "/events.json"
	}
	return p, true, nil
}

// events serves a round's events as the archive keeps them: the ruleset's own JSON, indented.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	g, v, n, ok := s.publicRound(w, r, 1)
	if !ok {
		return
	}
	b := v.round(n, s.roundHref(g.ID, n)).Events
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b)
}

// publicView is a viewable game's view, and whether the game is still viewable as the view read it: the
// handlers decide on the game record they read first, but a rollback may reopen a finished game before
// its record is read again, and then none of the rounds may show.
func (s *Server) publicView(g *adjudicator.WebGame) (*gameView, bool, error) {
	v, err := s.view(g)
	if err != nil {
		return nil, false, err
	}
	return v, s.viewable(&v.game), nil
}

// viewableArchive says an exported archive is of a game whose rounds anyone may see.
func (s *Server) viewableArchive(a *archive.Archive) bool {
	return a.Manifest.Status == adjudicator.StatusOver || s.public[strings.ToLower(a.Manifest.Game)]
}

// --- the export bundle --------------------------------------------------------------------------

func (s *Server) bundle(w http.ResponseWriter, r *http.Request) {
	g, ok, err := s.svc.WebGame(r.PathValue("game"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !ok || !s.viewable(&g) {
		notFound(w)
		return
	}
	a, err := archive.Export(s.svc, g.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !s.viewableArchive(a) { // reopened between the two reads
		notFound(w)
		return
	}
	var b bytes.Buffer
	if err := a.WriteTarGz(&b); err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/gzip")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", a.BundleName()))
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	h.Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b.Bytes())
}

// --- a player's own pages -----------------------------------------------------------------------

// playerGame finds the game and the seat a player link names, or answers 404.
func (s *Server) playerGame(w http.ResponseWriter, r *http.Request) (*adjudicator.WebGame, adjudicator.WebPlayer, *gameView, bool) {
	g, ok, err := s.svc.WebGame(r.PathValue("game"))
	if err != nil {
		s.fail(w, r, err)
		return nil, adjudicator.WebPlayer{}, nil, false
	}
	var p adjudicator.WebPlayer
	if ok {
		p, ok = seatByKey(&g, r.PathValue("key"))
	}
	if !ok {
		notFound(w)
		return nil, p, nil, false
	}
	v, err := s.view(&g)
	if err != nil {
		s.fail(w, r, err)
		return nil, p, nil, false
	}
	return &g, p, v, true
}

type playerPage struct {
	pageBase
	Game    gameInfo
	Name    string
	Side    string
	Reports []link
	// Board is the player's plotting board, while the game runs.
	Board string
}

func (s *Server) playerHref(g *adjudicator.WebGame, p adjudicator.WebPlayer) string {
	return s.href(adjudicator.PlayerPath(g.ID, p.Key)) + "/"
}

func (s *Server) reportHref(g *adjudicator.WebGame, p adjudicator.WebPlayer, i int) string {
	return s.href(adjudicator.PlayerPath(g.ID, p.Key), "report", strconv.Itoa(i))
}

func (s *Server) player(w http.ResponseWriter, r *http.Request) {
	g, pl, v, ok := s.playerGame(w, r)
	if !ok {
		return
	}
	name := orID(pl.Name, pl.Player)
	pg := playerPage{pageBase: s.base(name+" · "+g.Name, true, link{Href: s.href(), Text: "Games"}, link{Text: g.Name + ": " + name}),
		Game: s.info(g), Name: name, Side: pl.Side}
	if !g.Over() {
		pg.Board = s.boardHref(g, pl)
	}
	for _, rep := range v.reports(pl.Player) {
		pg.Reports = append(pg.Reports, link{Href: s.reportHref(g, pl, rep.Index), Text: reportLabel(v.replay.Noun, rep)})
	}
	s.render(w, r, "player", pg, true)
}

// reportLabel names a player's report by the player's own numbering.
func reportLabel(noun string, rep archive.PlayerReport) string {
	if rep.Index == 0 {
		return "Opening position"
	}
	return title(rep.Report.Title())
}

type reportPage struct {
	pageBase
	Game       gameInfo
	Name       string
	Side       string
	Label      string
	Nav        turnNav
	Report     reportView
	Missed     []string
	Commitment string
}

func (s *Server) playerReport(w http.ResponseWriter, r *http.Request) {
	n, okN := roundNumber(r.PathValue("n"))
	if !okN {
		notFound(w)
		return
	}
	g, pl, v, ok := s.playerGame(w, r)
	if !ok {
		return
	}
	p, ok := s.reportPage(g, pl, v, n)
	if !ok {
		notFound(w)
		return
	}
	s.render(w, r, "report", p, true)
}

// reportPage is a player's report n; false when they have no such report.
func (s *Server) reportPage(g *adjudicator.WebGame, pl adjudicator.WebPlayer, v *gameView, n int) (reportPage, bool) {
	reps := v.reports(pl.Player)
	if n >= len(reps) {
		return reportPage{}, false
	}
	rep := reps[n]
	name := orID(pl.Name, pl.Player)
	label := reportLabel(v.replay.Noun, rep)
	home := s.playerHref(g, pl)
	pg := reportPage{pageBase: s.base(label+" · "+name+" · "+g.Name, true, link{Href: s.href(), Text: "Games"}, link{Href: home, Text: g.Name + ": " + name}, link{Text: label}),
		Game: s.info(g), Name: name, Side: pl.Side, Label: label, Report: newReportView(rep.Report, "map-own"),
		Commitment: rep.Commitment, Nav: turnNav{Label: "Reports", Up: link{Href: home, Text: "All your reports"}, Pos: n + 1, Count: len(reps)}}
	if m := pg.Report.Map; m != nil && m.scene != nil {
		m.Src = s.reportHref(g, pl, n) + "/map.svg"
	}
	for _, m := range rep.Missed {
		pg.Missed = append(pg.Missed, v.playerName(m))
	}
	if n > 0 {
		pg.Nav.Prev = &link{Href: s.reportHref(g, pl, n-1), Text: reportLabel(v.replay.Noun, reps[n-1])}
	}
	if n+1 < len(reps) {
		pg.Nav.Next = &link{Href: s.reportHref(g, pl, n+1), Text: reportLabel(v.replay.Noun, reps[n+1])}
	}
	return pg, true
}
