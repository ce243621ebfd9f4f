package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"sortie/adjudicator"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// The plotting board (docs/web.md): behind a player's link, their side's latest picture with the plots
// they are trying drawn on it, a plot field per unit with its forecast (the receipt's own check,
// through adjudicator.Service.TryOrder), the order block to paste into a reply, and a button that sends
// it through adjudicator.Service.SubmitBoard, the path a mail takes. Everything on it comes from the
// player's own reports, their seat's board (adjudicator.Service.Board: their own units) and the answers
// of TryOrder, which read only the player's own unit and what the side has seen (invariant 4).
//
//	GET  …/board               the board, with the orders on file (or the defaults) in the fields
//	POST …/board               the form sent back: do=try re-renders it with the plots tried, do=send sends
//	GET  …/board/try?unit=U&plot=T   one unit's forecast, an HTML fragment (the script's tries)
//	GET  …/board/map.svg?o.U=T…      the picture with the plots drawn
//
// A try of any kind costs a token from the link's bucket (limit.go); a send needs the page's token
// (boardToken) and a request from the board's own site (http.CrossOriginProtection).

const (
	// maxBoardBody bounds a form sent back: a few hundred units' plots, never a file.
	maxBoardBody = 64 << 10
	// maxPlot bounds one plot's text: far longer than any order, short enough to echo.
	maxPlot = 400
	// fieldPrefix names a unit's plot field: "o." and the callsign.
	fieldPrefix = "o."
)

// boardPolicy is the archive's page policy (pagePolicy) with one change: the board's own form may be
// sent back to the board (form-action 'self'); every other page keeps form-action 'none'.
const boardPolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// --- the page's token ---------------------------------------------------------------------------

// boardToken is a page's token for sending: "ROUND.NONCE.MAC", MAC being HMAC-SHA256 keyed with the
// player's link key over the game, the player, the round and the nonce. Only a holder of the link makes
// one, it is good for one round, and its nonce names the one submission it may make (the Message-ID
// SubmitBoard de-duplicates by), so the same form sent twice is one submission.
func boardToken(key, game, player string, round int, nonce string) string {
	return strconv.Itoa(round) + "." + nonce + "." + tokenMAC(key, game, player, round, nonce)
}

func tokenMAC(key, game, player string, round int, nonce string) string {
	m := hmac.New(sha256.New, []byte(key))
	fmt.Fprintf(m, "sortie board\x00%s\x00%s\x00%d\x00%s", game, player, round, nonce)
	return hex.EncodeToString(m.Sum(nil))
}

// readToken checks a token against the link it came back to, and gives its round and nonce; false for
// a token this link did not make.
func readToken(tok, key, game, player string) (round int, nonce string, ok bool) {
	rs, rest, ok1 := strings.Cut(tok, ".")
	nonce, mac, ok2 := strings.Cut(rest, ".")
	round, okR := roundNumber(rs)
	if !ok1 || !ok2 || !okR || len(nonce) != 32 || !isHex(nonce) {
		return 0, "", false
	}
	if !hmac.Equal([]byte(mac), []byte(tokenMAC(key, game, player, round, nonce))) {
		return 0, "", false
	}
	return round, nonce, true
}

func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// newNonce is 128 random bits in hex, from the server's source of randomness.
func (s *Server) newNonce() (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(s.rand, b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// boardMessageID is the Message-ID of the submission a token's nonce names.
func boardMessageID(nonce string) string { return "board-" + nonce + "@sortie.board" }

// --- the page ----------------------------------------------------------------------------------

type boardPage struct {
	pageBase
	Game       gameInfo
	Name, Side string
	RoundTitle string
	Deadline   string // when the orders are due, as the receipt says it
	Note       string // why the round stands still (paused, held), as the receipt says it
	Open       bool
	Closed     string
	CanSend    bool   // the Send button: false where the server takes no orders (Options.ReadOnly)
	NoSend     string // why not, when it cannot
	UnitNoun   string
	Action     string // the form's address: the board itself
	TryHref    string // one unit's forecast (the script's tries)
	MapHref    string // the picture, without the plots
	Reports    string // the player's own pages
	Token      string
	Header     string
	Units      []boardUnitView
	Block      string
	BlockRows  int
	Map        *mapView
	Notice     *notice
	Sent       *sentView
}

// notice is a line at the top of the board: what happened to the last thing the player did.
type notice struct {
	Kind string // "good", "bad", "info": the style, never the only sign (the text says it)
	Text string
}

// sentView is a submission's outcome and the receipt that was mailed for it.
type sentView struct {
	Subject, Receipt string
}

type boardUnitView struct {
	N        int
	Name     string
	Field    string
	Text     string
	Source   string // where the field's text came from, in the player's words
	Default  string
	Standing bool
	Help     []string
	Forecast forecastView
}

// forecastView is one plot's forecast as the board shows it: what the receipt would say of it.
type forecastView struct {
	ID        string
	Unit      string
	Empty     bool
	Default   string
	TooLong   bool
	OK        bool
	Canonical string
	Echo      string      // the plot as it was checked, for the problems' columns
	Marks     []caretLine // a line under Echo for each problem with a column
	Problems  []problemView
	Warnings  []problemView
	Preview   []string
	Reach     []string
	Limited   bool // over the link's rate limit: nothing was checked
}

// caretLine points at a column of the echoed plot: Pad spaces, a caret, the message.
type caretLine struct{ Pad, Text string }

type problemView struct {
	Col  int
	Text string
}

// seatOf is the request's game and seat, with the player's board; it answers 404 (or an error) itself
// and returns false when the link is not a seat's.
func (s *Server) seatOf(w http.ResponseWriter, r *http.Request) (*adjudicator.WebGame, adjudicator.WebPlayer, *gameView, adjudicator.BoardSeat, bool) {
	g, pl, v, ok := s.playerGame(w, r)
	if !ok {
		return nil, pl, nil, adjudicator.BoardSeat{}, false
	}
	seat, ok, err := s.svc.Board(g.ID, pl.Player)
	if err != nil {
		s.fail(w, r, err)
		return nil, pl, nil, seat, false
	}
	if !ok {
		notFound(w)
		return nil, pl, nil, seat, false
	}
	return g, pl, v, seat, true
}

func (s *Server) boardHref(g *adjudicator.WebGame, pl adjudicator.WebPlayer, parts ...string) string {
	return s.href(append([]string{adjudicator.PlayerPath(g.ID, pl.Key), "board"}, parts...)...)
}

// limitKey names a link's bucket: the game and the seat (a seat's new link starts a new bucket only
// when its holder changes, which the moderator does).
func limitKey(g *adjudicator.WebGame, pl adjudicator.WebPlayer) string {
	return strings.ToLower(g.ID) + "\x00" + pl.Player
}

// board serves the board with the orders on file, or the defaults, in the fields.
func (s *Server) board(w http.ResponseWriter, r *http.Request) {
	g, pl, v, seat, ok := s.seatOf(w, r)
	if !ok {
		return
	}
	if !s.limit.take(limitKey(g, pl)) {
		s.renderBoard(w, r, http.StatusTooManyRequests, g, pl, v, seat, nil, &notice{Kind: "bad", Text: tooFast}, nil)
		return
	}
	s.renderBoard(w, r, http.StatusOK, g, pl, v, seat, nil, nil, nil)
}

// tooFast is the answer to a link over its rate limit.
const tooFast = "Too many tries in a short time from this link: nothing was checked. Wait a few seconds, then try again."

// boardPost takes the form back: do=try shows the board with the plots tried, do=send sends them.
func (s *Server) boardPost(w http.ResponseWriter, r *http.Request) {
	if err := s.cross.Check(r); err != nil {
		s.refuse(w, http.StatusForbidden, "This form can be sent only from its own page on this site. Nothing was sent.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBoardBody)
	if err := r.ParseForm(); err != nil {
		s.refuse(w, http.StatusRequestEntityTooLarge, "The form was too large or malformed to read. Nothing was sent.")
		return
	}
	g, pl, v, seat, ok := s.seatOf(w, r)
	if !ok {
		return
	}
	if !s.limit.take(limitKey(g, pl)) {
		s.renderBoard(w, r, http.StatusTooManyRequests, g, pl, v, seat, r.PostForm, &notice{Kind: "bad", Text: tooFast}, nil)
		return
	}
	if r.PostForm.Get("do") != "send" {
		s.renderBoard(w, r, http.StatusOK, g, pl, v, seat, r.PostForm, nil, nil)
		return
	}
	round, nonce, good := readToken(r.PostForm.Get("token"), pl.Key, g.ID, pl.Player)
	switch {
	case s.readOnly:
		s.renderBoard(w, r, http.StatusConflict, g, pl, v, seat, r.PostForm, &notice{Kind: "bad", Text: "Nothing was sent: " + readOnlyText}, nil)
		return
	case !good:
		s.renderBoard(w, r, http.StatusForbidden, g, pl, v, seat, r.PostForm,
			&notice{Kind: "bad", Text: "This page's form did not come from your board (its token is not one your link made). Nothing was sent: check your plots below and send again."}, nil)
		return
	case !seat.Open:
		s.renderBoard(w, r, http.StatusConflict, g, pl, v, seat, nil, &notice{Kind: "bad", Text: "Nothing was sent: " + closedText(seat)}, nil)
		return
	case round != seat.Round:
		// The plots as typed stay in the fields, tried against the new round: sending again sends them.
		s.renderBoard(w, r, http.StatusConflict, g, pl, v, seat, r.PostForm,
			&notice{Kind: "bad", Text: fmt.Sprintf("Nothing was sent: that page was for an earlier %s, and orders are now taken for %s. The board below is for %s: check your plots and send again.",
				roundWord(seat), seat.RoundTitle, seat.RoundTitle)}, nil)
		return
	}
	units := s.boardUnits(g, pl, seat, r.PostForm, false)
	block := orderBlock(seat.Header, units)
	res, err := s.svc.SubmitBoard(g.ID, pl.Player, boardMessageID(nonce), block)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The seat as it stands now: the orders on file, or the next round if this completed one.
	g2, ok, err := s.svc.WebGame(g.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pl2, okP := adjudicator.WebPlayer{}, false
	if ok {
		pl2, okP = seatByKey(&g2, pl.Key)
	}
	if !okP { // the seat was handed on meanwhile: the link is no longer this player's
		notFound(w)
		return
	}
	v2, err := s.view(&g2)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	seat2, ok, err := s.svc.Board(g2.ID, pl2.Player)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !ok {
		notFound(w)
		return
	}
	var n *notice
	var sent *sentView
	var form url.Values
	switch {
	case res.Duplicate:
		n = &notice{Kind: "info", Text: "These orders were sent from this page before, so they were not sent again: this was the same send repeated (a reload, or the button pressed twice). What is on file is shown below."}
	case res.Outcome == adjudicator.Accepted:
		n = &notice{Kind: "good", Text: "Sent. The receipt below, also mailed to you, says what was stored."}
		sent = &sentView{Subject: res.Subject, Receipt: res.Receipt}
	case res.Outcome == adjudicator.Refused:
		n = &notice{Kind: "bad", Text: "Sent, but refused: nothing of it was used. The receipt below, also mailed to you, says why."}
		sent = &sentView{Subject: res.Subject, Receipt: res.Receipt}
		form = r.PostForm // the plots as sent, to fix
	case res.Outcome == adjudicator.Ignored:
		n = &notice{Kind: "bad", Text: "Not taken: too many mails and sends came from you in a short time, so this one was set aside. Wait a while, then send again."}
		if res.Receipt != "" {
			sent = &sentView{Subject: res.Subject, Receipt: res.Receipt}
		}
		form = r.PostForm
	default:
		n = &notice{Kind: "bad", Text: "The send could not be handled; the moderator's log says why. Your orders were not taken."}
		form = r.PostForm
	}
	s.renderBoard(w, r, http.StatusOK, &g2, pl2, v2, seat2, form, n, sent)
}

// readOnlyText is what the board says where it cannot send (sortie web, on a database open read-only).
const readOnlyText = "this server only shows the games and takes no orders. Paste your order block into a reply to your last report."

// refuse answers a request that cannot reach the board at all with a short page of its own.
func (s *Server) refuse(w http.ResponseWriter, code int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	io.WriteString(w, msg+"\n")
}

func roundWord(seat adjudicator.BoardSeat) string {
	w, _, _ := strings.Cut(seat.RoundTitle, " ")
	if w == "" {
		return "round"
	}
	return strings.ToLower(w)
}

func closedText(seat adjudicator.BoardSeat) string {
	if seat.Closed != "" {
		return "orders are not taken now: " + seat.Closed
	}
	return "orders are not taken now."
}

// boardUnits are the seat's units with their plots: the form's (when form is not nil and holds one),
// else the order on file, else the default; each with its forecast unless over the rate limit.
func (s *Server) boardUnits(g *adjudicator.WebGame, pl adjudicator.WebPlayer, seat adjudicator.BoardSeat, form url.Values, check bool) []boardUnitView {
	out := make([]boardUnitView, 0, len(seat.Units))
	for i, u := range seat.Units {
		bu := boardUnitView{N: i + 1, Name: u.Name, Field: fieldPrefix + u.Name, Default: u.Default, Standing: u.Standing, Help: u.Help}
		if vs, ok := form[bu.Field]; ok && form != nil {
			bu.Text, bu.Source = oneLine(vs[0]), "As you tried it: not sent yet."
		} else if u.OnFile != "" {
			bu.Text, bu.Source = u.OnFile, "The order on file."
		} else {
			bu.Text, bu.Source = u.Default, "The default order: what "+u.Name+" does if no order comes."
		}
		if check {
			bu.Forecast = s.forecast(g, pl, u, bu.Text, i+1)
		}
		out = append(out, bu)
	}
	return out
}

// oneLine is a plot field's text as one order line: a line break (only a hand-made POST can send one)
// becomes a space, so it can neither end the block early nor slip in a line of its own, and the
// columns of the text stay where the player sees them.
func oneLine(text string) string {
	return strings.TrimSpace(strings.NewReplacer("\r", " ", "\n", " ").Replace(text))
}

// forecast is a plot's forecast: TryOrder's plan, as the page shows it.
func (s *Server) forecast(g *adjudicator.WebGame, pl adjudicator.WebPlayer, u adjudicator.BoardUnit, text string, n int) forecastView {
	f := forecastView{ID: "forecast-" + strconv.Itoa(n), Unit: u.Name, Default: u.Default}
	switch {
	case text == "":
		f.Empty = true
		return f
	case len(text) > maxPlot:
		f.TooLong = true
		return f
	}
	plan, ok, err := s.tryOrder(g, pl, u.Name, text)
	if err != nil || !ok {
		f.Problems = []problemView{{Text: "The plot could not be checked just now; try again."}}
		if err != nil {
			s.log.Error().Err(err).Msg("web archive: a board try failed")
		}
		return f
	}
	return forecastOf(f, text, plan)
}

// forecastOf fills a forecast from a plan: the problems at their columns under the plot as checked.
func forecastOf(f forecastView, text string, plan ruleset.Plan) forecastView {
	c := plan.Check
	f.OK, f.Canonical, f.Echo = c.OK(), c.Canonical, text
	f.Preview, f.Reach = c.Preview, plan.Reach
	width := utf8.RuneCountInString(text)
	for _, p := range c.Errors {
		f.Problems = append(f.Problems, problemView{Col: p.Col, Text: p.Message})
		if p.Col > 0 {
			f.Marks = append(f.Marks, caretLine{Pad: strings.Repeat(" ", min(p.Col-1, width)), Text: p.Message})
		}
	}
	for _, p := range c.Warnings {
		f.Warnings = append(f.Warnings, problemView{Col: p.Col, Text: p.Message})
	}
	return f
}

// orderBlock is the block a player would mail: the header, a line per unit with a plot, END.
func orderBlock(header string, units []boardUnitView) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteByte('\n')
	for _, u := range units {
		if u.Text == "" {
			continue
		}
		b.WriteString(u.Name)
		b.WriteString(": ")
		b.WriteString(u.Text)
		b.WriteByte('\n')
	}
	b.WriteString("END\n")
	return b.String()
}

// plotQuery is the plots as the picture's address carries them, in the seat's unit order.
func plotQuery(units []boardUnitView) string {
	var b strings.Builder
	for _, u := range units {
		if u.Text == "" || len(u.Text) > maxPlot {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(queryEscape(u.Field))
		b.WriteByte('=')
		b.WriteString(queryEscape(u.Text))
	}
	return b.String()
}

// queryEscape escapes a query's name or value with %20 for a space (a "+" would be written &#43; in
// the page's attribute).
func queryEscape(v string) string { return strings.ReplaceAll(url.QueryEscape(v), "+", "%20") }

// latestPicture is the player's latest report's picture and its ASCII map, nil when none has one.
func latestPicture(v *gameView, player string) (*hexmap.Scene, ruleset.Report, bool) {
	reps := v.reports(player)
	if len(reps) == 0 {
		return nil, ruleset.Report{}, false
	}
	rep := reps[len(reps)-1].Report
	return rep.Picture(), rep, true
}

// renderBoard renders the board: form is the plots sent back (nil: the orders on file).
func (s *Server) renderBoard(w http.ResponseWriter, r *http.Request, code int, g *adjudicator.WebGame, pl adjudicator.WebPlayer, v *gameView,
	seat adjudicator.BoardSeat, form url.Values, n *notice, sent *sentView) {
	name := orID(pl.Name, pl.Player)
	home := s.playerHref(g, pl)
	p := boardPage{pageBase: s.base("Plotting board · "+name+" · "+g.Name, true, link{Href: s.href(), Text: "Games"}, link{Href: home, Text: g.Name + ": " + name}, link{Text: "Plotting board"}),
		Game: s.info(g), Name: name, Side: pl.Side, RoundTitle: seat.RoundTitle, Deadline: seat.Deadline, Note: seat.Note, Open: seat.Open, Closed: title(closedText(seat)), UnitNoun: seat.UnitNoun,
		Action: s.boardHref(g, pl), TryHref: s.boardHref(g, pl, "try"), MapHref: s.boardHref(g, pl, "map.svg"), Reports: home,
		Header: seat.Header, Notice: n, Sent: sent, CanSend: !s.readOnly}
	if s.readOnly {
		p.NoSend = title(readOnlyText)
	}
	p.BoardScript = s.assetHref("board.js")
	limited := code == http.StatusTooManyRequests
	p.Units = s.boardUnits(g, pl, seat, form, seat.Open && !limited)
	if limited {
		for i := range p.Units {
			p.Units[i].Forecast = forecastView{ID: "forecast-" + strconv.Itoa(i+1), Unit: p.Units[i].Name, Limited: true}
		}
	}
	if seat.Open {
		p.Block = orderBlock(seat.Header, p.Units)
		p.BlockRows = strings.Count(p.Block, "\n") + 1
		nonce, err := s.newNonce()
		if err != nil {
			s.fail(w, r, err)
			return
		}
		p.Token = boardToken(pl.Key, g.ID, pl.Player, seat.Round, nonce)
	}
	if sc, rep, ok := latestPicture(v, pl.Player); ok && (sc != nil || rep.Map != "") {
		p.Map = &mapView{ID: "board-map", Caption: "What " + pl.Side + " could see at your latest report, with your plots drawn on it", ASCII: strings.TrimRight(rep.Map, "\n"), scene: sc, Fold: true}
		if sc != nil {
			p.Map.Src = p.MapHref
			if q := plotQuery(p.Units); q != "" && seat.Open {
				p.Map.Src += "?" + q
			}
		}
	}
	w.Header().Set("Content-Security-Policy", boardPolicy)
	s.renderCode(w, r, "board", p, true, code)
}

// boardTry answers one unit's forecast as an HTML fragment: the script's try as the player types.
func (s *Server) boardTry(w http.ResponseWriter, r *http.Request) {
	g, pl, _, seat, ok := s.seatOf(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	unit, text := q.Get("unit"), oneLine(q.Get("plot"))
	k := -1
	for i, u := range seat.Units {
		if u.Name == unit {
			k = i
		}
	}
	// Every try counts against the link's limit, a refused one too: no request goes unlimited.
	limited := !s.limit.take(limitKey(g, pl))
	switch {
	case limited && k < 0:
		s.refuse(w, http.StatusTooManyRequests, tooFast)
	case !seat.Open:
		s.refuse(w, http.StatusConflict, "Nothing was checked: "+closedText(seat))
	case k < 0:
		s.refuse(w, http.StatusBadRequest, "None of your units is called that.")
	case limited:
		f := forecastView{ID: "forecast-" + strconv.Itoa(k+1), Unit: unit, Limited: true}
		s.renderPart(w, r, "board", "forecast", f, http.StatusTooManyRequests, true)
	default:
		s.renderPart(w, r, "board", "forecast", s.forecast(g, pl, seat.Units[k], text, k+1), http.StatusOK, true)
	}
}

// boardMap serves the latest picture with the plots of the address drawn on it.
func (s *Server) boardMap(w http.ResponseWriter, r *http.Request) {
	g, pl, v, seat, ok := s.seatOf(w, r)
	if !ok {
		return
	}
	if sc, _, ok := latestPicture(v, pl.Player); !ok || sc == nil {
		notFound(w)
		return
	}
	q := r.URL.Query()
	var units []boardUnitView
	for _, u := range seat.Units {
		if vs, ok := q[fieldPrefix+u.Name]; ok && seat.Open {
			units = append(units, boardUnitView{Name: u.Name, Field: fieldPrefix + u.Name, Text: oneLine(vs[0])})
		}
	}
	if len(units) > 0 && !s.limit.take(limitKey(g, pl)) {
		s.refuse(w, http.StatusTooManyRequests, tooFast)
		return
	}
	key := v.key + "\x00" + adjudicator.PlayerPath(g.ID, pl.Key) + "board\x00" + strconv.Itoa(seat.Round) + "\x00" + plotQuery(units)
	s.serveSceneSVG(w, r, key, func() (*hexmap.Scene, error) { return s.boardScene(g, pl, v, units) }, true)
}

// tryOrder is adjudicator.Service.TryOrder, remembered for the game as it stands (its view key: a
// round resolved, a rollback, a seat handed on, the end all change it): typing in one field tries that
// plot, and the map draws the others' plans from here without checking them again.
func (s *Server) tryOrder(g *adjudicator.WebGame, pl adjudicator.WebPlayer, unit, text string) (ruleset.Plan, bool, error) {
	key := viewKey(g) + "\x00" + strings.ToLower(g.ID) + "\x00" + pl.Player + "\x00" + unit + "\x00" + text
	if p, ok := s.plans.get(key); ok {
		return p, true, nil
	}
	p, ok, err := s.svc.TryOrder(g.ID, pl.Player, unit, text)
	if err == nil && ok {
		s.plans.put(key, p)
	}
	return p, ok, err
}

// planCache keeps the plans tried lately, up to maxPlans; past it, it starts afresh.
type planCache struct {
	mu sync.Mutex
	m  map[string]ruleset.Plan
}

// maxPlans bounds the plans kept: a few hundred players' boards of tries.
const maxPlans = 8192

func (c *planCache) get(key string) (ruleset.Plan, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.m[key]
	return p, ok
}

func (c *planCache) put(key string, p ruleset.Plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxPlans {
		c.m = map[string]ruleset.Plan{}
	}
	c.m[key] = p
}

// boardScene is the player's latest picture with the units' plots drawn on it as plans (the tracks
// TryOrder gives, legal or not); nil when the player has no picture.
func (s *Server) boardScene(g *adjudicator.WebGame, pl adjudicator.WebPlayer, v *gameView, units []boardUnitView) (*hexmap.Scene, error) {
	sc, _, ok := latestPicture(v, pl.Player)
	if !ok || sc == nil {
		return nil, nil
	}
	for _, u := range units {
		if u.Text == "" || len(u.Text) > maxPlot {
			continue
		}
		plan, ok, err := s.tryOrder(g, pl, u.Name, u.Text)
		if err != nil {
			return nil, err
		}
		if ok && len(plan.Path) > 0 {
			sc.Plans = append(sc.Plans, hexmap.ScenePlan{Label: u.Name, Path: plan.Path, Facing: plan.Facing, Faced: plan.Faced, Legal: plan.Check.OK()})
		}
	}
	return sc, nil
}
