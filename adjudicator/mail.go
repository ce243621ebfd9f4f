package adjudicator

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"sortie/mailer/outmail"
	"sortie/parser"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// receipt is the data of the receipt template: everything about the player's own orders, and of the
// others only who is still missing.
type receipt struct {
	RoundNoun   string // the game's word for a round ("turn")
	UnitNoun    string // the game's word for a unit ("aircraft", "squadron", "unit")
	Game        string
	GameName    string
	Player      string
	Name        string
	Round       int
	Orders      []orderEcho
	BlockErrors []string
	Notes       []string
	Missing     []string // the player's own units still without an order
	Outstanding []string // other players still missing orders (names only)
	// Deadline is when the round's orders are due; empty for a seat not asked this round (notAsked).
	Deadline    string
	Resolving   string
	OrderHeader string
	Status      bool
	Help        bool
	// Commands are the players' commands for the HELP section (parser.Commands), when Help.
	Commands []parser.CommandHelp
	Stored   []string // the player's orders on file this round, canonical
	Exempt   string   // why the round does not wait for this player, if it does not
	// Board says the orders came from the plotting board behind the player's web link (SubmitBoard), not
	// by mail: the receipt says so, so a player who did not send them learns that their link is used.
	Board bool
	// fresh is what this mail stored, by unit (canonical text): fillReceipt need not read those back.
	fresh map[string]string
}

type orderEcho struct {
	Unit      string
	Written   string
	Canonical string
	Preview   []string
	Errors    []string
	Warnings  []string
	Stored    bool
	// OnFile says the order was not stored and an earlier one for the unit stands this round.
	OnFile bool
	// NotDue says a valid order for one of the player's own units was not stored because the round
	// takes no order for it (the impulse game asks for a plane only when its manoeuvre is done).
	NotDue bool
	Line   int
}

// reportData is the data of the report, start and over templates: one player's report, built by the
// ruleset from that player's view only.
type reportData struct {
	// Unit and Units are the game's words for its units ("aircraft", "squadrons"), from its ruleset;
	// RoundNoun its word for a round ("turn", or "round" where rounds are not turns).
	Unit, Units string
	RoundNoun   string
	Game        string
	GameName    string
	Player      string
	Name        string
	Kind        string
	Report      ruleset.Report
	Deadline    string
	Missed      []string
	Commitment  string
	// StateCommitment is the keyed commitment to the state the report shows (StateCommitment).
	StateCommitment string
	// Position marks a report of where things stand that follows no resolved turn (after a rollback).
	Position    bool
	Seed        string
	Secret      string
	ReplyTo     string
	OrderHeader string
	Address     string
	Rules       string
	Notes       []string // announcements from the moderator or the service, shown first
	// NeedSecret says replies carry no identity (the mailbox has no plus-addressing): the block needs
	// the player's SECRET.
	NeedSecret bool
	// WebLink is the player's own secret link to their reports in the web archive, when it is served.
	WebLink string
	// BoardLink is the player's plotting board (BoardPath), beside WebLink, when the web archive is served
	// and the game runs with units for the player to order.
	BoardLink string
}

func (s *Service) deadlineText(g *Game, seat *Seat) string {
	d := g.Deadline.UTC()
	text := d.Format("Mon 2 Jan 2006 15:04 UTC")
	if seat != nil && seat.TZ != "" {
		if loc, err := s.loadLocation(seat.TZ); err == nil {
			text += fmt.Sprintf(" (%s %s)", d.In(loc).Format("Mon 15:04"), seat.TZ)
		}
	}
	return text
}

// loadLocation is time.LoadLocation through the service's cache (Service.zones, name to *time.Location):
// it reads the zone file each time, and every receipt to a seat with a time zone asks for it. A zone
// that fails to load is not cached (asked again next time).
func (s *Service) loadLocation(name string) (*time.Location, error) {
	if loc, ok := s.zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	s.zones.Store(name, loc)
	return loc, nil
}

func (s *Service) replyTo(seat *Seat) string {
	local, domain, ok := strings.Cut(s.cfg.Address, "@")
	if !ok || s.cfg.NoPlusAddressing {
		return s.cfg.Address
	}
	return local + "+" + seat.Token + "@" + domain
}

// asksOnly says a game asks only some players each round (ruleset.Selective).
func asksOnly(rg ruleset.Game) bool {
	sel, ok := rg.(ruleset.Selective)
	return ok && sel.AsksOnly()
}

// notAsked says a game that asks only some players each round (the impulse game) is not asking this
// player this round. Such a player is shown no deadline: when the others' round ends would tell when
// their unseen units finished a manoeuvre.
func notAsked(rg ruleset.Game, player string) bool {
	return asksOnly(rg) && len(rg.Units(player)) == 0
}

// askSeat counts a round the seat is asked in, in a game that asks only some players (Seat.Asks).
func askSeat(rg ruleset.Game, seat *Seat) {
	if asksOnly(rg) && len(rg.Units(seat.Player)) > 0 {
		seat.Asks++
	}
}

// playerRound is the round a seat's orders are for, as its mails number it: the game's round, or in a
// game that asks only some players the seat's own count (Seat.Asks).
func playerRound(g *Game, rg ruleset.Game, seat *Seat) int {
	if asksOnly(rg) {
		return seat.Asks
	}
	return g.Round
}

// blockHeader is the first line of the ready-to-fill block, with the game's word for a round
// (ruleset.BlockWord: "TURN", or "ROUND" where rounds are not turns), the word the player's reports and
// receipts use. It carries no secret: the mail that holds it comes with the seat's reply address as
// Reply-To, and a reply to that identifies the seat (only the welcome shows the secret).
func (s *Service) blockHeader(g *Game, word string, round int) string {
	if s.cfg.NoPlusAddressing {
		// Replies carry no identity without plus-addressing: the player adds the secret (never printed
		// here: only the welcome mail shows it).
		return fmt.Sprintf("GAME %s %s %d SECRET %s", g.ID, word, round, secretPlaceholder)
	}
	return fmt.Sprintf("GAME %s %s %d", g.ID, word, round)
}

// reportJob is one player's report to queue: kind start (the welcome), report (a resolved round),
// over (the last), or position (where things stand after a rollback, with no round resolved).
type reportJob struct {
	g    *Game
	rg   ruleset.Game // the game as the report shows it
	seat *Seat
	kind string
	log  *ruleset.Log // the round resolved (nil for start and position)
	// notes are announcements shown first; built the players' reports and scenes built ahead
	// (buildReports): a player missing from it has theirs built here.
	notes []string
	built map[string]builtReport
}

// Report kinds.
const (
	kindStart    = "start"
	kindReport   = "report"
	kindOver     = "over"
	kindPosition = "position"
)

// queueReport renders a player's report with its web link, promises its map picture (drawn after the
// commit: pictures.go), keeps the whole mail for RESEND, and puts it in the outbox, where it waits for its
// picture.
func (s *Service) queueReport(tx *storage.Tx, j reportJob) error {
	g, rg, seat, kind := j.g, j.rg, j.seat, j.kind
	d, ok := j.built[seat.Player]
	if !ok {
		d = buildReport(rg, seat.Player, j.log)
	}
	rep := d.rep
	if asksOnly(rg) {
		// The seat's own round numbers (Seat.Asks): asked now for round Asks, after its round Asks-1.
		rep.NextRound, rep.Round = seat.Asks, seat.Asks-1
		if kind == kindOver {
			rep.Round = seat.Asks
		}
	}
	if kind == kindPosition {
		rep.Round = rep.NextRound - 1
	}
	state, err := rg.Save()
	if err != nil {
		return err
	}
	data := reportData{StateCommitment: g.commitment(state), Game: g.ID, GameName: g.Name, Player: seat.Player, Name: seat.Name, Kind: kind, Report: rep,
		Deadline: s.deadlineText(g, seat), Commitment: g.Commitment, ReplyTo: s.replyTo(seat), Address: s.cfg.Address,
		OrderHeader: s.blockHeader(g, rep.BlockWord(), rep.NextRound), Rules: g.Ruleset, Notes: j.notes, NeedSecret: s.cfg.NoPlusAddressing,
		Position: kind == kindPosition}
	data.Unit, data.Units = s.unitNouns(g)
	data.RoundNoun = ruleset.RoundNoun(rg)
	data.WebLink = s.webLink(g, seat)
	if kind != kindOver {
		data.BoardLink = s.boardLink(g, rg, seat)
	}
	if j.log != nil {
		for _, p := range j.log.Missed {
			name := p
			if st := g.seat(p); st != nil && st.Name != "" {
				name = st.Name
			}
			data.Missed = append(data.Missed, name)
		}
	}
	template := kind
	switch kind {
	case kindStart:
		// The welcome is the one mail with the secret, for mail written to the bare address.
		data.Secret = seat.Secret
		data.OrderHeader += " SECRET " + seat.Secret
	case kindOver:
		data.Seed = g.Seed
	case kindPosition:
		template = kindReport
	}
	subject, body, err := s.tmpl.Render(template, data)
	if err != nil {
		return err
	}
	parts, blobs, err := reportParts(tx, seat, rep, d)
	if err != nil {
		return err
	}
	round := rep.Round
	key := storage.SeqKey(uint64(round))
	switch {
	case kind == kindPosition:
		key = positionKey(round)
	case kind == kindStart && rep.NextRound > 1:
		// A newcomer's welcome in a game under way (REPLACE) is kept after the seat's report of the
		// round before, which it must not replace (RESEND TURN n still finds that report), and is the
		// latest mail RESEND sends.
		key = storage.SeqKey(uint64(rep.NextRound-1)) + "/welcome"
	}
	o := outgoing{To: seat.Email, ToName: seat.Name, Game: g, Kind: template, Subject: subject, Body: body, Parts: parts, PartBlobs: blobs,
		Token: seat.Token, Key: []string{kind, fmt.Sprint(round), seat.Player, fmt.Sprint(g.Epoch)}}
	// The whole mail is kept for RESEND (a seat the computer plays gets no mail, but its reports are
	// kept too: a player who takes the seat over may ask for them), its picture by name: one copy of it
	// is kept, in the outbox (storage.OutMail.PartBlobs).
	m := s.mail(o)
	saved, err := json.Marshal(savedMail{Mail: m.Mail, PartBlobs: m.PartBlobs})
	if err != nil {
		return err
	}
	if err := tx.Put(reportsBucket(g.ID, seat.Player), key, saved); err != nil {
		return err
	}
	return s.enqueue(tx, o)
}

// fillReceipt adds what the player has on file and who is still missing; miss is what s.missing says, or
// nil to have it asked.
func (s *Service) fillReceipt(tx *storage.Tx, g *Game, rg ruleset.Game, seat *Seat, rec *receipt, miss map[string][]string) error {
	if miss == nil {
		var err error
		if miss, err = s.missing(tx, g, rg); err != nil {
			return err
		}
	}
	rec.Missing = miss[seat.Player]
	if seat.exempt(s.now().UTC()) {
		switch {
		case seat.Dropped:
			rec.Exempt = "You have dropped out of this game."
		case seat.Autopilot:
			rec.Exempt = "You are on autopilot: the turns do not wait for you; orders you send are still used."
		default:
			rec.Exempt = "You are away: the turns do not wait for you; orders you send are still used."
		}
	}
	// In a game that asks only some players each round (the impulse game), who else is asked tells when
	// their unseen units finished a manoeuvre: the receipt names no one (fog of war).
	selective := asksOnly(rg)
	for _, p := range sortedKeys(miss) {
		if p == seat.Player || selective {
			continue
		}
		name := p
		if st := g.seat(p); st != nil && st.Name != "" {
			name = st.Name
		}
		rec.Outstanding = append(rec.Outstanding, name)
	}
	// The player's own orders only, each read by its key: the round's other orders are not decoded.
	for _, u := range ruleset.OrderableUnits(rg, seat.Player) {
		if text, ok := rec.fresh[u]; ok {
			rec.Stored = append(rec.Stored, u+": "+text)
			continue
		}
		o, ok, err := s.order(tx, g, u)
		if err != nil {
			return err
		}
		if ok {
			rec.Stored = append(rec.Stored, u+": "+o.Text)
		}
	}
	rec.Round = playerRound(g, rg, seat)
	if notAsked(rg, seat.Player) {
		if rec.Exempt == "" {
			rec.Exempt = notAskedText
		}
	} else {
		rec.Deadline = s.deadlineText(g, seat)
	}
	rec.OrderHeader = s.blockHeader(g, ruleset.BlockWord(ruleset.RoundNoun(rg)), playerRound(g, rg, seat))
	switch {
	case stillness(g, false) != "":
		// Paused or held: said to everyone (the moderator announced it), whether or not every order is in.
		rec.Resolving = stillness(g, len(miss) == 0 && !selective)
	case len(miss) > 0 || selective:
		// Whether the round is complete would tell a player of a game that asks only some (the
		// impulse game) whether others are asked too: it is not said.
	case len(g.Waiting) > 0:
		rec.Resolving = "All orders are in, but the round waits for a player who sent WAIT (until READY or the deadline)."
	case s.cfg.ResolveDelay == 0:
		rec.Resolving = "All orders are in: the round is being resolved now."
	default:
		rec.Resolving = fmt.Sprintf("All orders are in: the round resolves in %s unless someone sends WAIT or changes an order.", s.cfg.ResolveDelay.Round(time.Second))
	}
	return nil
}

func (s *Service) helpData() map[string]any {
	return map[string]any{"Address": s.cfg.Address, "Name": s.cfg.Name, "NeedSecret": s.cfg.NoPlusAddressing, "Commands": parser.Commands()}
}

// queueSimple renders a template with data and queues it to one address.
func (s *Service) queueSimple(tx *storage.Tx, name, to, inReplyTo, game string, data any) error {
	o, err := s.simpleMail(tx, name, to, inReplyTo, game, data)
	if err != nil {
		return err
	}
	return s.enqueue(tx, o)
}

// simpleMail is the mail queueSimple queues: the template rendered with data, to one address.
func (s *Service) simpleMail(tx *storage.Tx, name, to, inReplyTo, game string, data any) (outgoing, error) {
	subject, body, err := s.tmpl.Render(name, data)
	if err != nil {
		return outgoing{}, err
	}
	var g *Game
	if game != "" {
		g, _ = s.gameView(tx, game) // read for its name and threading only
	}
	return outgoing{To: to, Game: g, Kind: name, Subject: subject, Body: body, InReplyTo: inReplyTo, Key: []string{name, inReplyTo, to}}, nil
}

// queueModerator mails the game's moderator a notice; topic is its subject, saying what it is (a notice
// that needs action starts with a word in capitals, e.g. "HELD: turn 3 of chan1 needs you").
func (s *Service) queueModerator(tx *storage.Tx, g *Game, topic, text string) error {
	if g.Moderator == "" {
		return nil
	}
	subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": g.ID, "GameName": g.Name, "Topic": topic, "Text": text})
	if err != nil {
		return err
	}
	g.Notices++
	return s.enqueue(tx, outgoing{To: g.Moderator, Game: g, Kind: "moderator", Subject: subject, Body: body, Key: []string{"moderator", g.ID, fmt.Sprint(g.Notices), text}})
}

// enqueue writes one mail to the outbox in the caller's transaction, with a Message-ID made from what
// caused it (so a re-run of the same effect would give the same id).
// outgoing is one mail for the outbox: who it is for, which game and kind, its text, and the parts that
// make its Message-ID stable (the same cause gives the same ID, so a mail is never queued twice).
type outgoing struct {
	To, ToName    string
	Game          *Game // nil for mail that belongs to no game
	Kind          string
	Subject, Body string
	Parts         []outmail.Part // a report's picture, say
	PartBlobs     []string       // for each part, the outbox blob that holds its bytes ("": its own Data)
	InReplyTo     string
	Token         string // the seat's reply token, for its personal Reply-To
	Key           []string
}

func (s *Service) enqueue(tx *storage.Tx, o outgoing) error {
	if o.To == "" {
		return nil // a seat the computer plays has no address: its reports are kept, not sent
	}
	_, err := tx.Enqueue(s.mail(o))
	if errors.Is(err, storage.ErrDuplicateMessageID) {
		// The same cause already queued this very mail (its Message-ID is made from the cause): it is on
		// its way, and a second copy must never fail the mail that asked for it.
		return nil
	}
	return err
}

// mail is the outbox's mail for o: from the service under its name (kept with the mail, so the archive
// shows the name it was sent under), dated now, with a Message-ID made from its cause.
func (s *Service) mail(o outgoing) storage.OutMail {
	m := storage.OutMail{Mail: outmail.Mail{From: s.cfg.Address, FromName: s.cfg.Name, To: o.To, ToName: o.ToName, Subject: o.Subject,
		Body: o.Body, Parts: o.Parts, InReplyTo: o.InReplyTo, Created: s.now().UTC(), Headers: map[string]string{}}, Kind: o.Kind, PartBlobs: o.PartBlobs}
	m.MessageID = s.messageID(append([]string{o.Kind, o.To, o.Subject}, o.Key...)...)
	if o.Game != nil {
		m.Game = o.Game.ID
		m.Headers["X-Sortie-Game"] = o.Game.ID
	}
	if o.Token != "" {
		m.ReplyTo = s.replyTo(&Seat{Token: o.Token})
	}
	return m
}

// unitNouns are the game's words for its units, from its ruleset (ruleset.Vocabulary).
func (s *Service) unitNouns(g *Game) (string, string) {
	rs, err := s.rules.Get(g.Ruleset)
	if err != nil {
		return "unit", "units"
	}
	return ruleset.UnitNouns(rs)
}
