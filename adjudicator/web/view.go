package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"sortie/adjudicator"
	"sortie/adjudicator/archive"
	"sortie/rules/ruleset"
)

// What the archive caches of a game: its record replayed (archive.Replay), each player's reports and
// each round's truth page data, and its verification, all keyed by what changes when the game moves on
// (viewKey). A request reads the game record (one small read transaction) to learn the key; only when it
// has changed is the game read and replayed again.

// maxViews bounds the games kept; past it the cache starts afresh.
const maxViews = 64

// slot holds one game's cached view and verification; each mutex makes concurrent requests wait for
// one build, and a long verification does not hold up the game's pages.
type slot struct {
	mu      sync.Mutex
	v       *gameView
	checkMu sync.Mutex
	check   *checked
}

// gameView is a game replayed, with what its pages need, built as they are asked for.
type gameView struct {
	key    string
	game   adjudicator.WebGame
	replay *archive.Replay

	mu      sync.Mutex
	players map[string][]archive.PlayerReport
	rounds  map[int]*roundData
}

// checked is a game's archive as `sortie verify` sees it, for one key.
type checked struct {
	key    string
	report *archive.VerifyReport
	err    error
}

// viewKey is what changes whenever a game's archive does: a round resolved or rolled back, the end, a
// seat handed to someone else.
func viewKey(g *adjudicator.WebGame) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d/%s/%q", g.Round, g.Epoch, g.Status, g.Result)
	for _, p := range g.Players {
		fmt.Fprintf(&b, "/%q:%q:%q", p.Player, p.Name, p.Side)
	}
	return b.String()
}

func (s *Server) slot(id string) *slot {
	id = strings.ToLower(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := s.views[id]
	if sl == nil {
		if len(s.views) >= maxViews {
			s.views = map[string]*slot{}
		}
		sl = &slot{}
		s.views[id] = sl
	}
	return sl
}

// view is the game's view for the game record g just read: the cached one when g has not moved on.
func (s *Server) view(g *adjudicator.WebGame) (*gameView, error) {
	sl := s.slot(g.ID)
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.v != nil && sl.v.key == viewKey(g) {
		return sl.v, nil
	}
	rec, err := s.svc.Record(g.ID)
	if err != nil {
		return nil, err
	}
	rp, err := archive.NewReplay(rec)
	if err != nil {
		return nil, err
	}
	// The key of what was read: a round resolved between the two reads gives a newer view, never an
	// older one, and the next request reads it again.
	wg := adjudicator.WebGameOf(&rec.Game)
	sl.v = &gameView{key: viewKey(&wg), game: wg, replay: rp, players: map[string][]archive.PlayerReport{}, rounds: map[int]*roundData{}}
	return sl.v, nil
}

// reports are a player's reports, built once per view.
func (v *gameView) reports(player string) []archive.PlayerReport {
	v.mu.Lock()
	defer v.mu.Unlock()
	r, ok := v.players[player]
	if !ok {
		r = v.replay.PlayerReports(player)
		v.players[player] = r
	}
	return r
}

// pages is how many round pages a viewable game has: the opening position and every archived round.
func (v *gameView) pages() int { return len(v.replay.Rounds) + 1 }

// asksOnly is adjudicator.Service.AsksOnly, remembered per game (it never changes in a game).
func (s *Server) asksOnly(id string) (bool, error) {
	s.mu.Lock()
	v, ok := s.asks[strings.ToLower(id)]
	s.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := s.svc.AsksOnly(id)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	s.asks[strings.ToLower(id)] = v
	s.mu.Unlock()
	return v, nil
}

// verify is the game's archive verified as `sortie verify` does it (archive.Export, written to a
// temporary folder, archive.Verify), once per key.
func (s *Server) verify(g *adjudicator.WebGame) *checked {
	sl := s.slot(g.ID)
	sl.checkMu.Lock()
	defer sl.checkMu.Unlock()
	key := viewKey(g)
	if sl.check != nil && sl.check.key == key {
		return sl.check
	}
	c := &checked{key: key}
	c.report, c.err = s.verifyGame(g.ID)
	sl.check = c
	return c
}

func (s *Server) verifyGame(id string) (*archive.VerifyReport, error) {
	a, err := archive.Export(s.svc, id)
	if err != nil {
		return nil, err
	}
	if !s.viewableArchive(a) {
		return nil, fmt.Errorf("the game is running again")
	}
	dir, err := os.MkdirTemp("", "sortie-web-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	folder := filepath.Join(dir, "archive")
	if err := a.WriteDir(folder); err != nil {
		return nil, err
	}
	rep, err := archive.Verify(folder)
	if rep != nil {
		rep.Dir = a.BundleName()
		return rep, nil // a failed verification is a result, shown as such
	}
	return nil, err
}

// roundData is what a viewable game's round page shows, built once per view: every player's report,
// the orders, the dice, the ruleset's events and the map of the whole truth.
type roundData struct {
	Index   int // 0: the opening position; n: the n-th archived round
	Round   int // the game's number of the round (0 for the opening)
	Label   string
	Reports []seatReport
	Truth   *mapView
	Orders  []orderRow
	Dice    []diceRow
	Missed  []string
	Events  []byte // the ruleset's record, indented JSON
	// Resolved is when the round was resolved; Commitment the state commitment the players were shown.
	Resolved   time.Time
	Commitment string
}

// seatReport is one player's report on a round page.
type seatReport struct {
	ID     string // the section's id on the page
	Player string
	Name   string
	Side   string
	Bot    bool
	// Told is false when the round reported nothing to this player (a game that asks only some players).
	Told   bool
	Report reportView
}

type orderRow struct{ Unit, Order string }

// round is round page i's data; base is the page's own address, under which its pictures are.
func (v *gameView) round(i int, base string) *roundData {
	v.mu.Lock()
	defer v.mu.Unlock()
	if d, ok := v.rounds[i]; ok {
		return d
	}
	rp := v.replay
	d := &roundData{Index: i, Label: "Opening position"}
	var scenes []sideScene
	for k, p := range v.game.Players {
		sr := seatReport{ID: fmt.Sprintf("seat-%d", k+1), Player: p.Player, Name: orID(p.Name, p.Player), Side: p.Side, Bot: p.Bot, Told: true}
		var rep ruleset.Report
		if i == 0 {
			rep = rp.Start.Report(p.Player, nil)
		} else {
			rep, sr.Told = rp.Report(p.Player, i-1)
		}
		if sr.Told {
			sr.Report = newReportView(rep, sr.ID+"-map")
			if m := sr.Report.Map; m != nil && m.scene != nil {
				m.Src = fmt.Sprintf("%s/map/%d.svg", base, k+1)
			}
			scenes = append(scenes, sideScene{side: p.Side, scene: rep.Scene})
		}
		d.Reports = append(d.Reports, sr)
	}
	if i > 0 {
		rr := rp.Rounds[i-1]
		d.Round = rr.Round
		d.Label = v.roundLabel(i)
		d.Resolved, d.Commitment = rr.Resolved, rr.Commitment
		for _, u := range sortedKeys(rr.Orders) {
			d.Orders = append(d.Orders, orderRow{Unit: u, Order: rr.Orders[u]})
		}
		for _, roll := range rr.Dice {
			d.Dice = append(d.Dice, diceRow{What: roll.Label, Die: fmt.Sprintf("d%d", roll.Sides), Value: fmt.Sprint(roll.Value)})
		}
		for _, m := range rr.Missed {
			d.Missed = append(d.Missed, v.playerName(m))
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, rr.Events, "", "  "); err == nil {
			d.Events = append(ind.Bytes(), '\n')
		} else {
			d.Events = rr.Events
		}
	}
	when := "opening positions"
	if i > 0 {
		when = "after " + strings.ToLower(d.Label)
	}
	d.Truth = truthMap(scenes, sidesInOrder(v.game.Players), "map-truth", fmt.Sprintf("%s: %s, every unit", v.game.Name, strings.ToLower(d.Label)),
		fmt.Sprintf("%s · %s · every unit", v.game.Name, when))
	if d.Truth != nil {
		d.Truth.Src = base + "/map/all.svg"
	}
	v.rounds[i] = d
	return d
}

// playerName is how the pages name a player: the seat's name, or its id.
func (v *gameView) playerName(player string) string {
	for _, p := range v.game.Players {
		if p.Player == player && p.Name != "" {
			return p.Name
		}
	}
	return player
}

func sidesInOrder(players []adjudicator.WebPlayer) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range players {
		if !seen[p.Side] {
			seen[p.Side] = true
			out = append(out, p.Side)
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// title is a word with its first letter in capitals.
func title(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}
