package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"sortie/parser"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/storage"
	"sortie/templates"
)

// Config is the service's settings.
type Config struct {
	// Address is the service's mail address, e.g. sortie@example.org. Reply tokens are plus-addresses
	// of it: sortie+TOKEN@example.org.
	Address string
	// Name is the display name on outgoing mail.
	Name string
	// TurnLength is the default time players have for a round.
	TurnLength time.Duration
	// ResolveDelay is how long the service waits after the last order arrives before resolving, so a
	// player can still correct an order. Zero resolves at once, in the same transaction.
	ResolveDelay time.Duration
	// MaxMailSize is the largest order mail read; larger ones get a polite refusal.
	MaxMailSize int
	// MaxMailsPerHour is how many mails one sender may send in an hour; more are ignored (the first
	// one over the limit gets a notice). Identified mail (a player's or moderator's) and mail Sortie cannot
	// match to anyone are counted apart, so a stranger's flood in a player's name never stops her own
	// orders. Zero means 60.
	MaxMailsPerHour int
	// MaxStrangerReplies caps the answers per hour to senders Sortie cannot identify, all together (no
	// backscatter from forged senders). Zero means DefaultMaxStrangerReplies.
	MaxStrangerReplies int
	// Reminders are how long before the deadline players still missing orders are reminded. Nil means
	// 24 hours and 2 hours before.
	Reminders []time.Duration
	// DigestHour is the hour (UTC, 0-23) of the daily digest to moderators; -1 turns it off. The daemon's
	// default is 6.
	DigestHour int
	// NoPlusAddressing says the mailbox does not deliver Address's plus-addresses: mail goes out with
	// the bare address as Reply-To, and players identify themselves by the SECRET on the GAME line.
	NoPlusAddressing bool
	// WebBase is the web archive's address as players reach it (web.base_url), e.g.
	// https://games.example.org/sortie/. Set, every report carries the player's own secret link to their
	// pages there (PlayerLink); empty, reports carry none.
	WebBase string
}

// Service is the adjudicator.
type Service struct {
	db   *storage.DB
	tmpl *templates.Set
	cfg  Config
	log  zerolog.Logger
	// Now is the clock; tests set it.
	Now func() time.Time
	// Notify is called after a commit that queued mail (the daemon wakes its sender).
	Notify func()
	// Timed, if set (by benchmarks), is told how long the parts of resolving a round took: "resolve" (the
	// ruleset), "reports" (every player's report rendered and queued).
	Timed func(part string, d time.Duration)
	// Awaiting, if set, is called (with the game's ID) after a commit that leaves a round waiting for
	// one seat only, its orders or its READY: the next mail may complete the round, so the daemon watches
	// the inbox closely and keeps a connection to the SMTP server ready. It must not block.
	Awaiting func(game string)
	// bugs counts mails whose handling panicked (each was answered and filed); tests require zero.
	bugs atomic.Int64
	// digestDay is the last day (UTC) the digests were looked at, so the clock looks once a day.
	digestDay atomic.Value
	// lastHousekeep is when the clock last pruned the intake's bookkeeping (guard.go).
	lastHousekeep atomic.Value
	// decoded keeps the submit path's last decoded game records and states (decodecache.go).
	decoded decodeCache
}

// New makes a service on an open database.
func New(db *storage.DB, tmpl *templates.Set, cfg Config, log zerolog.Logger) *Service {
	if cfg.Name == "" {
		cfg.Name = "Sortie"
	}
	if cfg.TurnLength == 0 {
		cfg.TurnLength = 48 * time.Hour
	}
	if cfg.MaxMailSize == 0 {
		cfg.MaxMailSize = 256 << 10
	}
	if cfg.MaxMailsPerHour == 0 {
		cfg.MaxMailsPerHour = 60
	}
	if cfg.MaxStrangerReplies == 0 {
		cfg.MaxStrangerReplies = DefaultMaxStrangerReplies
	}
	if cfg.Reminders == nil {
		cfg.Reminders = []time.Duration{24 * time.Hour, 2 * time.Hour}
	}
	return &Service{db: db, tmpl: tmpl, cfg: cfg, log: log, Now: time.Now}
}

func (s *Service) now() time.Time { return s.Now() }

func (s *Service) kick() {
	if s.Notify != nil {
		s.Notify()
	}
}

// Envelope is one incoming mail as the mailer read it.
type Envelope struct {
	From       string
	FromName   string
	To         []string
	MessageID  string
	InReplyTo  string
	References []string // the Message-IDs of the References header
	Subject    string
	Text       string // the order text: quoted replies and signature already removed
	// Full is the whole text of the mail, quotes included: where Sortie looks for a block filled in
	// inside the quoted report when Text holds none (belowquote.go).
	Full       string
	Size       int
	Mailbox    string
	UIDValid   uint32
	UID        uint32
	Oversize   bool
	IgnoreWhy  string // set when the mailer found mail that must not be answered
	FromHTML   bool
	ReceivedAt time.Time

	// Unconfirmed says why, when the moderator's receiving server found that the From address's domain
	// did not send the mail or could not confirm that it did (mailer/senderauth), in words that complete
	// "could not confirm that this mail came from that address: …"; empty otherwise (identity.go).
	Unconfirmed string

	// ahead is the order block read from Text by ReadAhead, if it ran.
	ahead *aheadBlock
}

// aheadBlock is an order block read ahead of Submit, with the text it was read from.
type aheadBlock struct {
	text  string
	block parser.Block
	diags []parser.LineDiagnostic
}

// ReadAhead reads the order block of env's Text now, so that Submit and SubmitBatch find it read: the
// intake calls it as a mail arrives, on its own goroutine, while the handler commits the mails before
// it. It needs nothing of the database; a Text changed afterwards is read again.
func (env *Envelope) ReadAhead() {
	block, diags := parser.ParseBlock(env.Text)
	env.ahead = &aheadBlock{text: env.Text, block: block, diags: diags}
}

// readBlock is parser.ParseBlock(env.Text), or what ReadAhead read of that very text.
func (env *Envelope) readBlock() (parser.Block, []parser.LineDiagnostic) {
	if a := env.ahead; a != nil && a.text == env.Text {
		return a.block, a.diags
	}
	return parser.ParseBlock(env.Text)
}

// Outcome is what became of a mail.
type Outcome string

const (
	Accepted  Outcome = "accepted"
	Refused   Outcome = "refused"
	Duplicate Outcome = "duplicate"
	Ignored   Outcome = "ignored"
)

// DuplicateOf is the outcome of a mail handled before whose first handling had the outcome first: it
// does nothing again, and is filed where the first handling filed it (a refused mail fetched again after
// a crash between the commit and the filing is still refused, a failed one still failed). A repeat of a
// mail that was used is plain Duplicate.
func DuplicateOf(first Outcome) Outcome {
	switch first {
	case Refused, Failed:
		return Duplicate + "-" + first
	}
	return Duplicate
}

// Duplicated says whether o is the outcome of a mail handled before (DuplicateOf), and if so what its
// first handling's outcome was, as far as its filing goes (Accepted stands for any mail that was used).
func (o Outcome) Duplicated() (first Outcome, ok bool) {
	switch o {
	case Duplicate:
		return Accepted, true
	case DuplicateOf(Refused):
		return Refused, true
	case DuplicateOf(Failed):
		return Failed, true
	}
	return "", false
}

// Submit takes one mail: everything it causes (the record that it was seen, stored orders, the receipt,
// and if it completed the round with no delay, the resolved round and every report) is committed in one
// transaction before Submit returns. A mail handled before is a no-op (handleOnce).
func (s *Service) Submit(env Envelope) (Outcome, error) {
	var outcome Outcome
	err := s.db.Update(func(tx *storage.Tx) error {
		o, err := s.handleOnce(tx, env)
		outcome = o
		return err
	})
	if err != nil && (errors.Is(err, errPanic) || !storage.Transient(err)) {
		// Nothing of the mail was kept (the transaction rolled back), and trying again would fail the same
		// way: answer it if possible, record why, and let the intake file it for the moderator (guard.go).
		return s.failMail(env, err)
	}
	if err != nil {
		return "", err
	}
	s.log.Info().Str("message_id", logID(env.MessageID)).Str("from", logID(env.From)).Str("outcome", string(outcome)).Msg("mail")
	// The caller wakes the sender (Notify) once it has finished with the message.
	return outcome, nil
}

// errPanic marks a mail whose handling hit a bug: it is answered with an apology and filed, so one bad
// mail cannot stop the inbox.
var errPanic = errors.New("internal error")

// handleOnce handles a mail in tx unless it was handled before, and records that it was, with its outcome,
// in the same transaction (invariant 1, docs/architecture.md). Handled before means fetched from the same
// place (mailbox, UIDVALIDITY and UID: the same mail again after a crash between the commit and its
// filing, whoever sent it), or the same Message-ID in the same scope: from the seat, the moderator or the
// unidentified address the mail speaks for (storage.SeenRecord.Scope). A Message-ID is the sender's to
// choose, so a stranger's mail under the Message-ID a player's mail program will use next is no duplicate
// of hers: it never suppresses her mail. A duplicate's outcome says where its first handling filed it
// (DuplicateOf).
func (s *Service) handleOnce(tx *storage.Tx, env Envelope) (Outcome, error) {
	byUID := env.Mailbox != "" && env.UID != 0
	if byUID {
		if rec, seen, err := tx.SeenUID(env.Mailbox, env.UIDValid, env.UID); err != nil {
			return "", err
		} else if seen {
			return DuplicateOf(Outcome(rec.Outcome)), nil
		}
	}
	var scope string
	o, err := s.submitSafely(tx, env, &scope)
	if err != nil {
		return "", err
	}
	if _, dup := o.Duplicated(); dup {
		return o, nil
	}
	id := cleanMessageID(env.MessageID) // as submit read it, which looked it up under this scope
	if scope == "" {
		id = ""
	}
	if id == "" && !byUID {
		return o, nil // nothing to know it by again
	}
	return o, tx.MarkSeen(id, storage.SeenRecord{Scope: scope, Mailbox: env.Mailbox, UIDValidity: env.UIDValid, UID: env.UID, At: s.now().UTC(), Outcome: string(o)})
}

// repeat notes the scope a mail speaks for (storage.SeenRecord.Scope) and says whether a mail of that scope
// under its Message-ID was handled before: then o is that first handling's duplicate (DuplicateOf), and
// the mail must do nothing.
func (s *Service) repeat(tx *storage.Tx, env Envelope, scope *string, who string) (o Outcome, dup bool, err error) {
	*scope = who
	rec, seen, err := tx.Seen(who, env.MessageID)
	if err != nil || !seen {
		return "", false, err
	}
	return DuplicateOf(Outcome(rec.Outcome)), true, nil
}

// Scopes of the Message-ID index: the seat a mail speaks for, a game's moderator, or an address Sortie
// could not match to either.
func seatScope(g *Game, seat *Seat) string { return "seat:" + g.ID + "/" + seat.Player }
func moderatorScope(g *Game) string        { return "moderator:" + g.ID }
func senderScope(env Envelope) string      { return "from:" + strings.ToLower(env.From) }

func (s *Service) submitSafely(tx *storage.Tx, env Envelope, scope *string) (o Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Str("message_id", logID(env.MessageID)).Interface("panic", r).Bytes("stack", debug.Stack()).Msg("bug while handling a mail")
			s.bugs.Add(1)
			o, err = "", errPanic
		}
	}()
	return s.submit(tx, env, scope)
}

// submit handles a mail; scope is set to the scope it speaks for once that is known (repeat), and a mail
// of a scope that already handled its Message-ID does nothing.
func (s *Service) submit(tx *storage.Tx, env Envelope, scope *string) (Outcome, error) {
	env = cleanEnvelope(env)
	if env.IgnoreWhy != "" {
		return Ignored, nil
	}
	if env.From == "" {
		return Ignored, nil
	}
	// Flood limits count identified mail and strangers' mail apart (guard.go); an oversize mail is never
	// read, so it counts as a stranger's.
	stranger := func(o Outcome, name string, data map[string]any) (Outcome, error) {
		if d, dup, err := s.repeat(tx, env, scope, senderScope(env)); dup || err != nil {
			return d, err
		}
		if done, fo, err := s.floodStranger(tx, env); done || err != nil {
			return fo, err
		}
		if ok, err := s.mayAnswerStranger(tx, env); err != nil || !ok {
			return o, err
		}
		return o, s.queueSimple(tx, name, env.From, env.MessageID, "", data)
	}
	if env.Oversize || (s.cfg.MaxMailSize > 0 && env.Size > s.cfg.MaxMailSize) {
		return stranger(Refused, "error", map[string]any{
			"Subject":  "your mail was too large",
			"Problems": []string{fmt.Sprintf("Sortie reads order mails of up to %d KiB; yours was %d KiB. Send the order block as plain text, without attachments.", s.cfg.MaxMailSize>>10, env.Size>>10)},
		})
	}
	// The block keeps each order line as text: the game's ruleset reads it in its own notation.
	block, diags := env.readBlock()
	var below belowQuote
	if !block.Found && !block.HelpOnly {
		if below = s.blockBelowQuote(tx, env); below.line > 0 {
			env.Text = below.text
			block, diags = parser.ParseBlock(env.Text)
		}
	}
	if g, ok := s.moderatorOf(tx, env, block); ok {
		if d, dup, err := s.repeat(tx, env, scope, moderatorScope(g)); dup || err != nil {
			return d, err
		}
		if over, notice, err := s.floodSeat(tx, g.ID, "moderator"); err != nil || over {
			return Ignored, s.floodNotice(tx, env, notice, err)
		}
		return s.moderatorMail(tx, g, env, block, diags)
	}
	seat, g, authErr := s.identify(tx, env, block)
	if seat != nil && authErr == nil {
		if d, dup, err := s.repeat(tx, env, scope, seatScope(g, seat)); dup || err != nil {
			return d, err
		}
		// Now that the game is known, read the block again with its notation's hints, so a line that
		// lacks its callsign or colon is named in that game's language.
		if n := blockNotation(g); n != nil && needsHints(diags) {
			block, diags = parser.ParseBlockFor(env.Text, n)
		}
		if over, notice, err := s.floodSeat(tx, g.ID, seat.Player); err != nil || over {
			return Ignored, s.floodNotice(tx, env, notice, err)
		}
	}
	if !block.Found {
		if block.HelpOnly || seat != nil && len(block.Commands) > 0 {
			if seat != nil {
				return Accepted, s.queueSimple(tx, "help", env.From, env.MessageID, gameIDOf(g), s.helpData())
			}
			return stranger(Accepted, "help", s.helpData())
		}
		problems := []string{"Sortie found no order block in your mail. An order block starts with a line GAME <game> TURN <n>; the end of every report has one ready to fill in (reply to the report: its reply address identifies you, so no secret is needed)."}
		if len(below.why) > 0 {
			problems = append(problems, "In the rest of your mail: "+strings.Join(below.why, "; ")+".")
		}
		if seat != nil {
			return Refused, s.queueSimple(tx, "error", env.From, env.MessageID, "", map[string]any{"Subject": "no orders found", "Problems": problems})
		}
		return stranger(Refused, "error", map[string]any{"Subject": "no orders found", "Problems": problems})
	}
	if authErr != nil {
		// A refusal that says nothing about the game or its players: the same answer whether or not
		// the game exists or the address plays in it.
		return stranger(Refused, "refusal", map[string]any{"Game": block.Game, "NoSecret": block.Secret == "", "ReplyShape": s.replyTo(&Seat{Token: "<token>"}), "NeedSecret": s.cfg.NoPlusAddressing,
			"Unconfirmed": unconfirmedRefusal(env)})
	}
	for _, c := range block.Commands {
		if slices.Contains(parser.ModeratorCommands, c.Name) {
			return Refused, s.queueSimple(tx, "error", seat.Email, env.MessageID, g.ID, map[string]any{
				"Subject": c.Name + " is for the moderator", "Problems": []string{c.Name + " is a moderator's command: ask your game's moderator. Nothing in this mail was used."}})
		}
	}
	if g.Status != StatusRunning {
		// A finished game still answers RESEND: a player may need the final report again.
		if len(block.Orders) == 0 && len(block.Refused) == 0 && len(block.Commands) > 0 && onlyCommand(block, "RESEND") {
			resent := map[string]bool{}
			var notes []string
			allExact := true
			for _, c := range block.Commands {
				note, exact, err := s.resend(tx, g, seat, c.Args, env.MessageID, resent)
				if err != nil {
					return "", err
				}
				notes, allExact = append(notes, note), allExact && exact
			}
			if allExact {
				return Accepted, nil // the report itself is the answer
			}
			return Accepted, s.queueSimple(tx, "error", seat.Email, env.MessageID, g.ID, map[string]any{
				"Subject": "your RESEND in game " + g.ID, "Problems": append([]string{"Game " + g.ID + " has ended: " + g.Result}, notes...)})
		}
		return Refused, s.queueSimple(tx, "error", seat.Email, env.MessageID, g.ID, map[string]any{
			"Subject": "game " + g.ID + " is over", "Problems": []string{"Game " + g.ID + " has ended: " + g.Result,
				"It takes no more orders; RESEND (or RESEND TURN n) in a block still sends you a report again."}})
	}
	rg, err := s.cachedRules(tx, g)
	if err != nil {
		return "", err
	}
	rec := receipt{Game: g.ID, GameName: g.Name, Player: seat.Player, Name: seat.Name, Round: g.Round, RoundNoun: ruleset.RoundNoun(rg)}
	rec.UnitNoun, _ = unitNouns(g)
	if below.line > 0 {
		rec.Notes = append(rec.Notes, fmt.Sprintf("There was no order block above the quoted report in your mail, so Sortie read the one you filled in below it, at line %d.", below.line))
	}
	for _, d := range diags {
		if d.Severity == parser.SeverityError && (d.Line == 0 || !orderLine(block, d.Line)) && !refusedLine(block, d.Line) {
			rec.BlockErrors = append(rec.BlockErrors, d.Error())
		}
	}
	if parser.BlockRefused(diags) {
		return s.refuseBlock(tx, g, rg, seat, env, block, diags, &rec)
	}
	if err := s.playerCommands(tx, g, seat, block, diags, &rec); err != nil {
		return "", err
	}
	if err := s.playerOrders(tx, g, rg, seat, env, block, diags, &rec); err != nil {
		return "", err
	}
	return s.sendReceipt(tx, g, rg, seat, env, block, &rec)
}

// refuseBlock answers a block refused as a whole (a fault in its header, say): nothing in it is used,
// and the receipt lists every problem.
func (s *Service) refuseBlock(tx *storage.Tx, g *Game, rg ruleset.Game, seat *Seat, env Envelope, block parser.Block, diags []parser.LineDiagnostic, rec *receipt) (Outcome, error) {
	// A fault in the header or the block as a whole: nothing in it is used.
	for _, d := range diags {
		if d.Severity == parser.SeverityError && (orderLine(block, d.Line) || refusedLine(block, d.Line)) {
			rec.BlockErrors = append(rec.BlockErrors, d.Error())
		}
	}
	rec.BlockErrors = append(rec.BlockErrors, "Because of the problems above nothing in this mail was used; fix them and send the block again.")
	if err := s.fillReceipt(tx, g, rg, seat, rec, nil); err != nil {
		return "", err
	}
	subject, body, err := s.tmpl.Render("receipt", *rec)
	if err != nil {
		return "", err
	}
	return Refused, s.enqueue(tx, outgoing{To: seat.Email, ToName: seat.Name, Game: g, Kind: "receipt", Subject: subject, Body: body, InReplyTo: env.MessageID, Token: seat.Token, Key: []string{"receipt", env.MessageID}})
}

// playerCommands carries out a player's commands before the orders, so that CLEAR then new orders in one
// mail works.
func (s *Service) playerCommands(tx *storage.Tx, g *Game, seat *Seat, block parser.Block, diags []parser.LineDiagnostic, rec *receipt) error {
	// Commands first: CLEAR before new orders, so "CLEAR" then orders in one mail works.
	for _, c := range block.Commands {
		switch c.Name {
		case "CLEAR":
			n, err := s.clear(tx, g, seat.Player, c.Args)
			if err != nil {
				return err
			}
			// What it withdrew on file, and (the block reads top to bottom) what it withdrew of this mail.
			note := c.String() + ": "
			switch n {
			case 0:
				note += "no order was on file to withdraw"
			case 1:
				note += "1 order on file withdrawn"
			default:
				note += fmt.Sprintf("%d orders on file withdrawn", n)
			}
			for _, d := range diags {
				if d.Line == c.Line && d.Code == parser.CodeCleared {
					note += "; " + strings.TrimPrefix(d.Message, c.String()+" ")
				}
			}
			rec.Notes = append(rec.Notes, note)
		case "WAIT":
			if !g.waiting(seat.Player) {
				g.Waiting = append(g.Waiting, seat.Player)
			}
			rec.Notes = append(rec.Notes, "WAIT: the round will wait for you until the deadline or your READY")
		case "AWAY", "BACK":
			// A player speaks for themselves only; the moderator may speak for anyone.
			who := ""
			if c.Name == "AWAY" && len(c.Args) == 2 {
				who = c.Args[1]
			}
			if c.Name == "BACK" && len(c.Args) == 1 {
				who = c.Args[0]
			}
			if who != "" && who != seat.Player {
				rec.Notes = append(rec.Notes, c.Name+": you can only say this for yourself (the moderator can for anyone)")
				continue
			}
			if c.Name == "AWAY" && len(c.Args) >= 1 {
				c.Args = []string{c.Args[0], seat.Player}
			} else {
				c.Args = []string{seat.Player}
			}
			text, err := s.setAway(g, seat, c)
			if err != nil {
				rec.Notes = append(rec.Notes, c.Name+": "+err.Error())
				continue
			}
			rec.Notes = append(rec.Notes, text)
			if err := s.announce(tx, g, strings.ToLower(c.Name)+": "+seat.Name, text, true); err != nil {
				return err
			}
		case "READY":
			g.Waiting = remove(g.Waiting, seat.Player)
			g.AllInAt = time.Time{} // the resolve delay counts from this change
			rec.Notes = append(rec.Notes, "READY: the round no longer waits for you")
		}
	}
	return nil
}

// playerOrders checks each order line through the game's ruleset and stores the valid ones for the
// player's own units, echoing each in the receipt as it was read.
func (s *Service) playerOrders(tx *storage.Tx, g *Game, rg ruleset.Game, seat *Seat, env Envelope, block parser.Block, diags []parser.LineDiagnostic, rec *receipt) error {
	if want := playerRound(g, rg, seat); len(block.Orders) > 0 && block.Turn != want {
		rec.BlockErrors = append(rec.BlockErrors, turnGuardMessage(block.Turn, want))
	} else {
		mine := map[string]bool{}
		for _, u := range ruleset.OrderableUnits(rg, seat.Player) {
			mine[u] = true
		}
		lines := append(append([]parser.BlockOrder(nil), block.Orders...), block.Refused...)
		sort.SliceStable(lines, func(i, j int) bool { return lines[i].Line < lines[j].Line })
		for _, o := range lines {
			echo := orderEcho{Unit: o.Callsign, Written: strings.TrimSpace(o.Text), Line: o.Line}
			lineErrs := false
			// The problems of the line, from the block parser and from the rules, are told in column order.
			var errs, warns []positioned
			for _, d := range lineDiags(diags, o.Line) {
				if d.Severity == parser.SeverityError {
					lineErrs = true
					errs = append(errs, positioned{d.Col, diagText(d)})
				} else {
					warns = append(warns, positioned{d.Col, diagText(d)})
				}
			}
			{
				// Check the order as the player wrote it, so columns point into their line; a line the
				// block refused (a missing colon) is checked too, so every mistake is told at once.
				offset := o.Column - 1
				chk := rg.CheckOrder(seat.Player, o.Callsign, o.Text)
				if !lineErrs {
					echo.Canonical, echo.Preview = chk.Canonical, chk.Preview
				}
				for _, p := range chk.Errors {
					p = shift(p, offset)
					errs = append(errs, positioned{p.Col, problemText(p)})
				}
				for _, p := range chk.Warnings {
					if !parserWarning(p, diags, o.Line) {
						p = shift(p, offset)
						warns = append(warns, positioned{p.Col, problemText(p)})
					}
				}
				echo.Errors, echo.Warnings = inColumnOrder(errs), inColumnOrder(warns)
				if !lineErrs && chk.OK() && mine[o.Callsign] {
					b, _ := json.Marshal(storedOrder{Unit: o.Callsign, Player: seat.Player, Text: chk.Canonical, MessageID: env.MessageID, At: s.now().UTC()})
					if err := tx.Put(ordersBucket(g.ID, g.Round), o.Callsign, b); err != nil {
						return err
					}
					echo.Stored = true
					if rec.fresh == nil {
						rec.fresh = map[string]string{}
					}
					rec.fresh[o.Callsign] = chk.Canonical
					if seat.Autopilot {
						seat.Autopilot = false
						rec.Notes = append(rec.Notes, "You are back from autopilot: the turns wait for your orders again.")
					}
				}
			}
			if !echo.Stored && mine[o.Callsign] {
				if _, ok, err := s.order(tx, g, o.Callsign); err != nil {
					return err
				} else {
					echo.OnFile = ok
				}
			}
			rec.Orders = append(rec.Orders, echo)
		}
	}
	return nil
}

// sendReceipt finishes the receipt (what is still missing, STATUS, HELP, RESEND), queues it, and resolves
// the round when this mail completed it.
func (s *Service) sendReceipt(tx *storage.Tx, g *Game, rg ruleset.Game, seat *Seat, env Envelope, block parser.Block, rec *receipt) (Outcome, error) {
	resolveNow, miss, err := s.updateAllIn(tx, g, rg)
	if err != nil {
		return "", err
	}
	if !resolveNow && s.Awaiting != nil && g.Status == StatusRunning && waitsForOne(g, miss) {
		id := g.ID
		tx.OnCommit(func() { s.Awaiting(id) })
	}
	if err := s.fillReceipt(tx, g, rg, seat, rec, miss); err != nil {
		return "", err
	}
	if from := strings.ToLower(env.From); from != "" && from != strings.ToLower(seat.Email) {
		// Sent to the seat's reply address from another address: accepted (the address is the key),
		// and said, so a player whose reply address has leaked learns of it from the first such mail.
		rec.Notes = append(rec.Notes, fmt.Sprintf("This mail came from %s, not from your address %s; Sortie took it because it was sent to your reply address. If you did not send it, tell your moderator: RENEW gives your seat a new reply address.", env.From, seat.Email))
	}
	if note := s.unconfirmedNote(env, seat); note != "" {
		rec.Notes = append(rec.Notes, note)
	}
	resent := map[string]bool{} // one copy of each report per mail, however often RESEND names it
	for _, c := range block.Commands {
		switch c.Name {
		case "STATUS":
			rec.Status = true
		case "HELP":
			rec.Help, rec.Commands = true, parser.Commands()
		case "RESEND":
			note, _, err := s.resend(tx, g, seat, c.Args, env.MessageID, resent)
			if err != nil {
				return "", err
			}
			rec.Notes = append(rec.Notes, note)
		}
	}
	subject, body, err := s.tmpl.Render("receipt", *rec)
	if err != nil {
		return "", err
	}
	if err := s.enqueue(tx, outgoing{To: seat.Email, ToName: seat.Name, Game: g, Kind: "receipt", Subject: subject, Body: body, InReplyTo: env.MessageID, Token: seat.Token, Key: []string{"receipt", env.MessageID}}); err != nil {
		return "", err
	}
	if resolveNow {
		if err := s.resolveRound(tx, g, rg, EventAllIn); err != nil {
			return "", err
		}
		return Accepted, nil
	}
	return Accepted, s.putGameIfChanged(tx, g)
}

// positioned is a problem's text and its column (0: the whole line).
type positioned struct {
	col  int
	text string
}

// inColumnOrder is the texts of ps by column, the whole line's first, in the order given where columns
// are equal; nil for none.
func inColumnOrder(ps []positioned) []string {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].col < ps[j].col })
	var out []string
	for _, p := range ps {
		out = append(out, p.text)
	}
	return out
}

func shift(p ruleset.Problem, offset int) ruleset.Problem {
	if p.Col > 0 {
		p.Col += offset
	}
	return p
}

// parserWarning reports whether a warning the ruleset gives is one the block parser already gave for
// that line (the notation's warnings come from both).
func parserWarning(p ruleset.Problem, diags []parser.LineDiagnostic, line int) bool {
	for _, d := range diags {
		if d.Line == line && d.Code == p.Code {
			return true
		}
	}
	return false
}

func refusedLine(b parser.Block, line int) bool {
	for _, o := range b.Refused {
		if o.Line == line {
			return true
		}
	}
	return false
}

func orderLine(b parser.Block, line int) bool {
	for _, o := range b.Orders {
		if o.Line == line {
			return true
		}
	}
	return false
}

func lineDiags(ds []parser.LineDiagnostic, line int) []parser.Diagnostic {
	var out []parser.Diagnostic
	for _, d := range ds {
		if d.Line == line {
			out = append(out, d.Diagnostic)
		}
	}
	return out
}

// diagText writes a parser diagnostic the way receipts write every problem: "column N: message".
func diagText(d parser.Diagnostic) string {
	p := ruleset.Problem{Code: d.Code, Message: d.Message, Col: d.Col}
	if d.Suggestion != "" && !strings.Contains(d.Message, d.Suggestion) {
		p.Message += " (did you mean " + d.Suggestion + "?)"
	}
	return problemText(p)
}

func problemText(p ruleset.Problem) string {
	if p.Col > 0 {
		return fmt.Sprintf("column %d: %s", p.Col, p.Message)
	}
	return p.Message
}

func turnGuardMessage(got, want int) string {
	if got == 0 {
		return fmt.Sprintf("your orders say no TURN: the game is on turn %d; write TURN %d on the GAME line. Nothing was stored.", want, want)
	}
	return fmt.Sprintf("your orders are for turn %d, but the game is on turn %d. Nothing was stored; send orders for turn %d.", got, want, want)
}

func remove(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func gameIDOf(g *Game) string {
	if g == nil {
		return ""
	}
	return g.ID
}

type storedOrder struct {
	Unit      string    `json:"unit"`
	Player    string    `json:"player"`
	Text      string    `json:"text"`
	MessageID string    `json:"message_id"`
	At        time.Time `json:"at"`
}

func (s *Service) orders(tx *storage.Tx, g *Game) (map[string]storedOrder, error) {
	out := map[string]storedOrder{}
	err := tx.ForEach(ordersBucket(g.ID, g.Round), func(k string, v []byte) error {
		var o storedOrder
		if err := json.Unmarshal(v, &o); err != nil {
			return err
		}
		out[k] = o
		return nil
	})
	return out, err
}

// order is the stored order of one unit this round, if any.
func (s *Service) order(tx *storage.Tx, g *Game, unit string) (storedOrder, bool, error) {
	var o storedOrder
	v, err := tx.Get(ordersBucket(g.ID, g.Round), unit)
	if err != nil || v == nil {
		return o, false, err
	}
	if err := json.Unmarshal(v, &o); err != nil {
		return o, false, err
	}
	return o, true, nil
}

func (s *Service) clear(tx *storage.Tx, g *Game, player string, units []string) (int, error) {
	have, err := s.orders(tx, g)
	if err != nil {
		return 0, err
	}
	n := 0
	for unit, o := range have {
		if o.Player != player {
			continue
		}
		if len(units) > 0 && !containsFold(units, unit) {
			continue
		}
		if err := tx.Delete(ordersBucket(g.ID, g.Round), unit); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// missing lists, per player, the units still without an order this round.
func (s *Service) missing(tx *storage.Tx, g *Game, rg ruleset.Game) (map[string][]string, error) {
	keys, err := tx.Keys(ordersBucket(g.ID, g.Round)) // which units have an order: no need to decode them
	if err != nil {
		return nil, err
	}
	have := make(map[string]bool, len(keys))
	for _, k := range keys {
		have[k] = true
	}
	out := map[string][]string{}
	now := s.now().UTC()
	for _, st := range g.Seats {
		if st.exempt(now) {
			continue
		}
		for _, u := range rg.Units(st.Player) {
			if !have[u] {
				out[st.Player] = append(out[st.Player], u)
			}
		}
	}
	return out, nil
}

// updateAllIn records when the round became complete, and says whether to resolve it at once; miss is
// what is still missing, by player.
func (s *Service) updateAllIn(tx *storage.Tx, g *Game, rg ruleset.Game) (resolveNow bool, miss map[string][]string, err error) {
	miss, err = s.missing(tx, g, rg)
	if err != nil {
		return false, nil, err
	}
	if len(miss) > 0 {
		g.AllInAt = time.Time{}
		return false, miss, nil
	}
	if g.AllInAt.IsZero() {
		g.AllInAt = s.now().UTC()
	}
	// Only a running game resolves when its last order comes: a paused or held one waits for the
	// moderator (life.go), and the clock resolves it once it runs again.
	return len(g.Waiting) == 0 && s.cfg.ResolveDelay == 0 && g.may(EventAllIn) == nil, miss, nil
}

func (s *Service) timed(part string, since time.Time) {
	if s.Timed != nil {
		s.Timed(part, time.Since(since))
	}
}

// messageID makes a stable, unique Message-ID for an outgoing mail from what caused it.
func (s *Service) messageID(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	_, domain, ok := strings.Cut(s.cfg.Address, "@")
	if !ok {
		domain = "sortie.invalid"
	}
	return hex.EncodeToString(h[:12]) + "@" + domain
}

func sortedKeys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// blockNotation is the game's order notation for reading blocks, when its ruleset offers one.
func blockNotation(g *Game) parser.Notation {
	rs, err := registry.Get(g.Ruleset)
	if err != nil {
		return nil
	}
	if h, ok := rs.(ruleset.Hinter); ok {
		return h.BlockNotation()
	}
	return nil
}

// needsHints says whether a block read without a notation has a line whose reading a notation changes:
// one that is neither a command nor an order line, or one found after the block.
func needsHints(diags []parser.LineDiagnostic) bool {
	for _, d := range diags {
		if d.Code == parser.CodeUnknownCmd || d.Code == parser.CodeAfterBlock {
			return true
		}
	}
	return false
}
