package adjudicator

// A mail's way through the adjudicator. Submit and SubmitBatch (batch.go) open the write transaction;
// handleOnce drops the same mail fetched again and records, with the outcome, that this one was handled;
// in between a submission takes the mail through its steps, in order (submission.handle), until one of
// them answers it.

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"sortie/parser"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// Submit takes one mail: everything it causes (the record that it was seen, stored orders, the receipt,
// and if it completed the round with no delay, the resolved round and every report) is committed in one
// transaction before Submit returns. A mail handled before is a no-op (handleOnce).
func (s *Service) Submit(env Envelope) (Outcome, error) {
	o, _, err := s.submit(env)
	return o, err
}

// submit is Submit, with the answer its sender was sent in the same transaction, if any (the receipt,
// or why nothing was used), as it was queued.
func (s *Service) submit(env Envelope) (Outcome, answer, error) {
	var outcome Outcome
	var ans answer
	err := s.db.Update(func(tx *storage.Tx) error {
		o, a, err := s.handleOnce(tx, env)
		outcome, ans = o, a
		return err
	})
	if err != nil && (errors.Is(err, errPanic) || !storage.Transient(err)) {
		// Nothing of the mail was kept (the transaction rolled back), and trying again would fail the same
		// way: answer it if possible, record why, and let the intake file it for the moderator (guard.go).
		o, err := s.failMail(env, err)
		return o, answer{}, err
	}
	if err != nil {
		return "", answer{}, err
	}
	s.log.Info().Str("message_id", logID(env.MessageID)).Str("from", logID(env.From)).Str("outcome", string(outcome)).Msg("mail")
	// The caller wakes the sender (WithNotify) once it has finished with the message.
	return outcome, ans, nil
}

// answer is the mail a submission queued to its sender in answer (a receipt, or why nothing was used):
// its subject and body as queued. Empty when it queued none (a duplicate, a mail ignored).
type answer struct {
	Subject, Body string
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
// It returns, with the outcome, the answer the submission queued to the mail's sender (answer).
func (s *Service) handleOnce(tx *storage.Tx, env Envelope) (Outcome, answer, error) {
	byUID := env.Mailbox != "" && env.UID != 0
	if byUID {
		if rec, seen, err := tx.SeenUID(env.Mailbox, env.UIDValid, env.UID); err != nil {
			return "", answer{}, err
		} else if seen {
			return DuplicateOf(Outcome(rec.Outcome)), answer{}, nil
		}
	}
	m := submission{s: s, tx: tx, env: env}
	o, err := m.handleSafely(env.MessageID)
	if err != nil {
		return "", answer{}, err
	}
	if _, dup := o.Duplicated(); dup {
		return o, answer{}, nil
	}
	id := cleanMessageID(env.MessageID) // as the submission read it, which looked it up under its scope
	if m.scope == "" {
		id = ""
	}
	if id == "" && !byUID {
		return o, m.answer, nil // nothing to know it by again
	}
	return o, m.answer, tx.MarkSeen(id, storage.SeenRecord{Scope: m.scope, Mailbox: env.Mailbox, UIDValidity: env.UIDValid, UID: env.UID, At: s.now().UTC(), Outcome: string(o)})
}

// submission is one mail on its way through the adjudicator, inside the write transaction of the mail
// (or of its batch): what the steps so far have learnt of it. Each step reads what the ones before it
// found and either answers the mail (its outcome) or hands it on (next).
type submission struct {
	s   *Service
	tx  *storage.Tx
	env Envelope // its header values made safe (cleanEnvelope); Text the block's text once read
	// scope is whom the mail speaks for in the Message-ID index (storage.SeenRecord.Scope), once known.
	scope string
	block parser.Block
	diags []parser.LineDiagnostic
	below belowQuote // the block filled in below the quoted report, when there was none above it
	// seat and g are the seat the mail speaks for and its game; authErr why there is none.
	seat    *Seat
	g       *Game
	authErr error
	// rs is the game's ruleset (resolved once per game, Service.rulesetOf); rg its game as stored,
	// read only for a game that runs.
	rs  ruleset.Ruleset
	rg  ruleset.Game
	rec receipt // the player's receipt, from the rules step on
	// answer is what was queued to the sender in answer (reply), as queued.
	answer answer
}

// reply queues o, the mail's answer to its sender, and keeps its text (SubmitBoard returns it as it was
// queued: one rendering).
func (m *submission) reply(o outgoing) error {
	m.answer = answer{Subject: o.Subject, Body: o.Body}
	return m.s.enqueue(m.tx, o)
}

// replySimple is queueSimple for the mail's answer to its sender (reply).
func (m *submission) replySimple(name, to, game string, data any) error {
	o, err := m.s.simpleMail(m.tx, name, to, m.env.MessageID, game, data)
	if err != nil {
		return err
	}
	return m.reply(o)
}

// handleSafely is handle with a bug turned into errPanic (logged with the mail's Message-ID as it came):
// the mail is then answered with an apology and filed (Submit), and the inbox goes on.
func (m *submission) handleSafely(messageID string) (o Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			m.s.log.Error().Str("message_id", logID(messageID)).Interface("panic", r).Bytes("stack", debug.Stack()).Msg("bug while handling a mail")
			m.s.bugs.Add(1)
			o, err = "", errPanic
		}
	}()
	return m.handle()
}

// handle is the mail's path: each step in turn until one answers the mail, and the receipt for an order
// mail that every step handed on. (Called directly, not from a list of functions: the submission then
// stays on the stack.)
func (m *submission) handle() (o Outcome, err error) {
	m.env = cleanEnvelope(m.env)
	if o, err = m.screen(); o != next || err != nil { // mail not to be answered, or too large to read
		return o, err
	}
	if o, err = m.read(); o != next || err != nil { // the order block, or one filled in below the quote
		return o, err
	}
	if o, err = m.fromModerator(); o != next || err != nil { // the game's moderator: their commands
		return o, err
	}
	if o, err = m.identify(); o != next || err != nil { // the seat the mail speaks for, if any
		return o, err
	}
	if o, err = m.blockless(); o != next || err != nil { // no block: HELP, or "no orders found"
		return o, err
	}
	if o, err = m.unidentified(); o != next || err != nil { // a block from no seat: a refusal that tells nothing
		return o, err
	}
	if o, err = m.notModerator(); o != next || err != nil { // a moderator's command from a player
		return o, err
	}
	if o, err = m.over(); o != next || err != nil { // a game that has ended: RESEND only
		return o, err
	}
	if o, err = m.rules(); o != next || err != nil { // the game's rules and state; the receipt begun
		return o, err
	}
	if o, err = m.refuse(); o != next || err != nil { // a block refused as a whole
		return o, err
	}
	if o, err = m.commands(); o != next || err != nil { // CLEAR, WAIT, READY, AWAY, BACK
		return o, err
	}
	if o, err = m.orders(); o != next || err != nil { // each order checked by the ruleset, the valid stored
		return o, err
	}
	return m.receipt() // the receipt, and the round resolved if this mail completed it
}

// screen drops mail that must not be answered (a bounce, an auto-reply, no sender) and refuses mail too
// large to read.
func (m *submission) screen() (Outcome, error) {
	if m.env.IgnoreWhy != "" || m.env.From == "" {
		return Ignored, nil
	}
	if limit := m.s.cfg.MaxMailSize; m.env.Oversize || (limit > 0 && m.env.Size > limit) {
		// Never read, so it counts as a stranger's (flood limits count identified mail apart, guard.go).
		return m.answerStranger(Refused, "error", map[string]any{
			"Subject":  "your mail was too large",
			"Problems": []string{fmt.Sprintf("Sortie reads order mails of up to %d KiB; yours was %d KiB. Send the order block as plain text, without attachments.", limit>>10, m.env.Size>>10)},
		})
	}
	return next, nil
}

// read reads the order block (ReadAhead may have read it already), each order line kept as text for the
// game's ruleset; without one above the quote, the block filled in below the quoted report.
func (m *submission) read() (Outcome, error) {
	m.block, m.diags = m.env.readBlock()
	if !m.block.Found && !m.block.HelpOnly {
		if m.below = m.s.blockBelowQuote(m.tx, m.env); m.below.line > 0 {
			m.env.Text = m.below.text
			m.block, m.diags = parser.ParseBlock(m.env.Text)
		}
	}
	return next, nil
}

// fromModerator carries out a mail from the game's moderator (with the moderator's secret).
func (m *submission) fromModerator() (Outcome, error) {
	if m.env.board != nil {
		return next, nil // the plotting board speaks for a seat, never for the moderator
	}
	g, ok := m.s.moderatorOf(m.tx, m.env, m.block)
	if !ok {
		return next, nil
	}
	if o, err := m.speaksFor(moderatorScope(g)); o != next || err != nil {
		return o, err
	}
	if over, notice, err := m.s.floodSeat(m.tx, g.ID, "moderator"); err != nil || over {
		return Ignored, m.floodNotice(notice, err)
	}
	return m.s.moderatorMail(m.tx, g, m.env, m.block, m.diags)
}

// identify finds the seat the mail speaks for (identity.go). An identified mail is a repeat if its seat
// handled its Message-ID before; its block is read again with the game's notation for hints, and it
// counts towards the seat's flood limit.
func (m *submission) identify() (Outcome, error) {
	m.seat, m.g, m.authErr = m.s.identify(m.tx, m.env, m.block)
	if m.seat == nil || m.authErr != nil {
		return next, nil
	}
	if o, err := m.speaksFor(seatScope(m.g, m.seat)); o != next || err != nil {
		return o, err
	}
	// A ruleset that cannot be used fails the mail where its game is loaded (rules).
	m.rs, _ = m.s.rulesetOf(m.g)
	// Now that the game is known, read the block again with its notation's hints, so a line that lacks
	// its callsign or colon is named in that game's language.
	if n := blockNotation(m.rs); n != nil && needsHints(m.diags) {
		m.block, m.diags = parser.ParseBlockFor(m.env.Text, n)
	}
	if over, notice, err := m.s.floodSeat(m.tx, m.g.ID, m.seat.Player); err != nil || over {
		return Ignored, m.floodNotice(notice, err)
	}
	return next, nil
}

// blockless answers a mail with no order block: HELP for a HELP, or commands from a seat; otherwise what
// an order block is, and why any block below the quote could not be used.
func (m *submission) blockless() (Outcome, error) {
	if m.block.Found {
		return next, nil
	}
	if m.block.HelpOnly || m.seat != nil && len(m.block.Commands) > 0 {
		if m.seat != nil {
			return Accepted, m.replySimple("help", m.env.From, gameIDOf(m.g), m.s.helpData())
		}
		return m.answerStranger(Accepted, "help", m.s.helpData())
	}
	problems := []string{"Sortie found no order block in your mail. An order block starts with a line GAME <game> TURN <n>; the end of every report has one ready to fill in (reply to the report: its reply address identifies you, so no secret is needed)."}
	if len(m.below.why) > 0 {
		problems = append(problems, "In the rest of your mail: "+strings.Join(m.below.why, "; ")+".")
	}
	if m.seat != nil {
		return Refused, m.replySimple("error", m.env.From, "", map[string]any{"Subject": "no orders found", "Problems": problems})
	}
	return m.answerStranger(Refused, "error", map[string]any{"Subject": "no orders found", "Problems": problems})
}

// unidentified refuses a block from no seat with an answer that says nothing about the game or its
// players: the same whether or not the game exists or the address plays in it.
func (m *submission) unidentified() (Outcome, error) {
	if m.authErr == nil {
		return next, nil
	}
	return m.answerStranger(Refused, "refusal", map[string]any{"Game": m.block.Game, "NoSecret": m.block.Secret == "", "ReplyShape": m.s.replyTo(&Seat{Token: "<token>"}), "NeedSecret": m.s.cfg.NoPlusAddressing,
		"Unconfirmed": unconfirmedRefusal(m.env)})
}

// notModerator refuses a player's mail that holds a moderator's command: nothing in it is used.
func (m *submission) notModerator() (Outcome, error) {
	for _, c := range m.block.Commands {
		if slices.Contains(parser.ModeratorCommands, c.Name) {
			return Refused, m.replySimple("error", m.seat.Email, m.g.ID, map[string]any{
				"Subject": c.Name + " is for the moderator", "Problems": []string{c.Name + " is a moderator's command: ask your game's moderator. Nothing in this mail was used."}})
		}
	}
	return next, nil
}

// over answers a mail to a game that has ended: it takes no more orders, but still answers RESEND, as a
// player may need the final report again.
func (m *submission) over() (Outcome, error) {
	g, b := m.g, m.block
	if g.Status == StatusRunning {
		return next, nil
	}
	if len(b.Orders) == 0 && len(b.Refused) == 0 && len(b.Commands) > 0 && onlyCommand(b, "RESEND") {
		resent := map[string]bool{}
		var notes []string
		allExact := true
		for _, c := range b.Commands {
			note, exact, err := m.s.resend(m.tx, g, m.seat, c.Args, m.env.MessageID, resent)
			if err != nil {
				return "", err
			}
			notes, allExact = append(notes, note), allExact && exact
		}
		if allExact {
			return Accepted, nil // the report itself is the answer
		}
		return Accepted, m.replySimple("error", m.seat.Email, g.ID, map[string]any{
			"Subject": "your RESEND in game " + g.ID, "Problems": append([]string{"Game " + g.ID + " has ended: " + g.Result}, notes...)})
	}
	return Refused, m.replySimple("error", m.seat.Email, g.ID, map[string]any{
		"Subject": "game " + g.ID + " is over", "Problems": []string{"Game " + g.ID + " has ended: " + g.Result,
			"It takes no more orders; RESEND (or RESEND TURN n) in a block still sends you a report again."}})
}

// rules loads the game's state through its ruleset and begins the receipt with the block's faults that
// belong to no order line.
func (m *submission) rules() (Outcome, error) {
	rg, err := m.s.cachedRules(m.tx, m.g)
	if err != nil {
		return "", err
	}
	m.rg = rg
	m.rec = receipt{Game: m.g.ID, GameName: m.g.Name, Player: m.seat.Player, Name: m.seat.Name, Round: m.g.Round, RoundNoun: ruleset.RoundNoun(rg),
		Board: m.env.board != nil}
	m.rec.UnitNoun, _ = ruleset.UnitNouns(m.rs)
	if m.below.line > 0 {
		m.rec.Notes = append(m.rec.Notes, fmt.Sprintf("There was no order block above the quoted report in your mail, so Sortie read the one you filled in below it, at line %d.", m.below.line))
	}
	for _, d := range m.diags {
		if d.Severity == parser.SeverityError && (d.Line == 0 || !orderLine(m.block, d.Line)) && !refusedLine(m.block, d.Line) {
			m.rec.BlockErrors = append(m.rec.BlockErrors, d.Error())
		}
	}
	return next, nil
}

// refuse answers a block refused as a whole (a fault in its header, say): nothing in it is used, and the
// receipt lists every problem.
func (m *submission) refuse() (Outcome, error) {
	if !parser.BlockRefused(m.diags) {
		return next, nil
	}
	for _, d := range m.diags {
		if d.Severity == parser.SeverityError && (orderLine(m.block, d.Line) || refusedLine(m.block, d.Line)) {
			m.rec.BlockErrors = append(m.rec.BlockErrors, d.Error())
		}
	}
	m.rec.BlockErrors = append(m.rec.BlockErrors, "Because of the problems above nothing in this mail was used; fix them and send the block again.")
	if err := m.s.fillReceipt(m.tx, m.g, m.rg, m.seat, &m.rec, nil); err != nil {
		return "", err
	}
	subject, body, err := m.s.tmpl.Render("receipt", m.rec)
	if err != nil {
		return "", err
	}
	return Refused, m.reply(outgoing{To: m.seat.Email, ToName: m.seat.Name, Game: m.g, Kind: "receipt", Subject: subject, Body: body, InReplyTo: m.env.MessageID, Token: m.seat.Token, Key: []string{"receipt", m.env.MessageID}})
}

// commands carries out the player's commands before the orders, so that CLEAR then new orders in one
// mail works.
func (m *submission) commands() (Outcome, error) {
	for _, c := range m.block.Commands {
		switch c.Name {
		case "CLEAR":
			n, err := m.s.clear(m.tx, m.g, m.seat.Player, c.Args)
			if err != nil {
				return "", err
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
			for _, d := range m.diags {
				if d.Line == c.Line && d.Code == parser.CodeCleared {
					note += "; " + strings.TrimPrefix(d.Message, c.String()+" ")
				}
			}
			m.rec.Notes = append(m.rec.Notes, note)
		case "WAIT":
			if !m.g.waiting(m.seat.Player) {
				m.g.Waiting = append(m.g.Waiting, m.seat.Player)
			}
			m.rec.Notes = append(m.rec.Notes, "WAIT: the round will wait for you until the deadline or your READY")
		case "AWAY", "BACK":
			// A player speaks for themselves only; the moderator may speak for anyone.
			who := ""
			if c.Name == "AWAY" && len(c.Args) == 2 {
				who = c.Args[1]
			}
			if c.Name == "BACK" && len(c.Args) == 1 {
				who = c.Args[0]
			}
			if who != "" && who != m.seat.Player {
				m.rec.Notes = append(m.rec.Notes, c.Name+": you can only say this for yourself (the moderator can for anyone)")
				continue
			}
			if c.Name == "AWAY" && len(c.Args) >= 1 {
				c.Args = []string{c.Args[0], m.seat.Player}
			} else {
				c.Args = []string{m.seat.Player}
			}
			text, err := m.s.setAway(m.g, m.seat, c)
			if err != nil {
				m.rec.Notes = append(m.rec.Notes, c.Name+": "+err.Error())
				continue
			}
			m.rec.Notes = append(m.rec.Notes, text)
			if err := m.s.announce(m.tx, m.g, strings.ToLower(c.Name)+": "+m.seat.Name, text, true); err != nil {
				return "", err
			}
		case "READY":
			m.g.Waiting = remove(m.g.Waiting, m.seat.Player)
			m.g.AllInAt = time.Time{} // the resolve delay counts from this change
			m.rec.Notes = append(m.rec.Notes, "READY: the round no longer waits for you")
		}
	}
	return next, nil
}

// orders checks each order line through the game's ruleset and stores the valid ones for the player's own
// units, echoing each in the receipt as it was read.
func (m *submission) orders() (Outcome, error) {
	if want := playerRound(m.g, m.rg, m.seat); len(m.block.Orders) > 0 && m.block.Turn != want {
		m.rec.BlockErrors = append(m.rec.BlockErrors, turnGuardMessage(m.block.Turn, want))
	} else {
		mine := map[string]bool{}
		for _, u := range ruleset.OrderableUnits(m.rg, m.seat.Player) {
			mine[u] = true
		}
		lines := append(append([]parser.BlockOrder(nil), m.block.Orders...), m.block.Refused...)
		sort.SliceStable(lines, func(i, j int) bool { return lines[i].Line < lines[j].Line })
		for _, o := range lines {
			echo := orderEcho{Unit: o.Callsign, Written: strings.TrimSpace(o.Text), Line: o.Line}
			lineErrs := false
			// The problems of the line, from the block parser and from the rules, are told in column order.
			var errs, warns []positioned
			for _, d := range lineDiags(m.diags, o.Line) {
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
				chk := m.rg.CheckOrder(m.seat.Player, o.Callsign, o.Text)
				if !lineErrs {
					echo.Canonical, echo.Preview = chk.Canonical, chk.Preview
				}
				for _, p := range chk.Errors {
					p = shift(p, offset)
					errs = append(errs, positioned{p.Col, problemText(p)})
				}
				for _, p := range chk.Warnings {
					if !parserWarning(p, m.diags, o.Line) {
						p = shift(p, offset)
						warns = append(warns, positioned{p.Col, problemText(p)})
					}
				}
				echo.Errors, echo.Warnings = inColumnOrder(errs), inColumnOrder(warns)
				if !lineErrs && chk.OK() && mine[o.Callsign] {
					b, _ := json.Marshal(storedOrder{Unit: o.Callsign, Player: m.seat.Player, Text: chk.Canonical, MessageID: m.env.MessageID, At: m.s.now().UTC()})
					if err := m.tx.Put(ordersBucket(m.g.ID, m.g.Round), o.Callsign, b); err != nil {
						return "", err
					}
					echo.Stored = true
					if m.rec.fresh == nil {
						m.rec.fresh = map[string]string{}
					}
					m.rec.fresh[o.Callsign] = chk.Canonical
					if m.seat.Autopilot {
						m.seat.Autopilot = false
						m.rec.Notes = append(m.rec.Notes, "You are back from autopilot: the turns wait for your orders again.")
					}
				}
				// A valid order for a unit of the player's that this round takes no order for.
				echo.NotDue = !lineErrs && chk.OK() && !mine[o.Callsign]
			}
			if !echo.Stored && mine[o.Callsign] {
				if _, ok, err := m.s.order(m.tx, m.g, o.Callsign); err != nil {
					return "", err
				} else {
					echo.OnFile = ok
				}
			}
			m.rec.Orders = append(m.rec.Orders, echo)
		}
	}
	return next, nil
}

// receipt finishes the receipt (what is still missing, STATUS, HELP, RESEND), queues it, and resolves the
// round when this mail completed it.
func (m *submission) receipt() (Outcome, error) {
	resolveNow, miss, err := m.s.updateAllIn(m.tx, m.g, m.rg)
	if err != nil {
		return "", err
	}
	if awaiting := m.s.onAwaiting; !resolveNow && awaiting != nil && m.g.Status == StatusRunning && waitsForOne(m.g, miss) {
		id := m.g.ID
		m.tx.OnCommit(func() { awaiting(id) })
	}
	if err := m.s.fillReceipt(m.tx, m.g, m.rg, m.seat, &m.rec, miss); err != nil {
		return "", err
	}
	if from := strings.ToLower(m.env.From); from != "" && from != strings.ToLower(m.seat.Email) {
		// Sent to the seat's reply address from another address: accepted (the address is the key),
		// and said, so a player whose reply address has leaked learns of it from the first such mail.
		m.rec.Notes = append(m.rec.Notes, fmt.Sprintf("This mail came from %s, not from your address %s; Sortie took it because it was sent to your reply address. If you did not send it, tell your moderator: RENEW gives your seat a new reply address.", m.env.From, m.seat.Email))
	}
	if note := m.s.unconfirmedNote(m.env, m.seat); note != "" {
		m.rec.Notes = append(m.rec.Notes, note)
	}
	resent := map[string]bool{} // one copy of each report per mail, however often RESEND names it
	for _, c := range m.block.Commands {
		switch c.Name {
		case "STATUS":
			m.rec.Status = true
		case "HELP":
			m.rec.Help, m.rec.Commands = true, parser.Commands()
		case "RESEND":
			note, _, err := m.s.resend(m.tx, m.g, m.seat, c.Args, m.env.MessageID, resent)
			if err != nil {
				return "", err
			}
			m.rec.Notes = append(m.rec.Notes, note)
		}
	}
	subject, body, err := m.s.tmpl.Render("receipt", m.rec)
	if err != nil {
		return "", err
	}
	if err := m.reply(outgoing{To: m.seat.Email, ToName: m.seat.Name, Game: m.g, Kind: "receipt", Subject: subject, Body: body, InReplyTo: m.env.MessageID, Token: m.seat.Token, Key: []string{"receipt", m.env.MessageID}}); err != nil {
		return "", err
	}
	if resolveNow {
		if err := m.s.resolveRound(m.tx, m.g, m.rg, EventAllIn); err != nil {
			return "", err
		}
		return Accepted, nil
	}
	return Accepted, m.s.putGameIfChanged(m.tx, m.g)
}

// speaksFor notes whom the mail speaks for (its scope in the Message-ID index, storage.SeenRecord.Scope)
// and answers it as a duplicate (DuplicateOf) when a mail of that scope under its Message-ID was handled
// before: it must then do nothing.
func (m *submission) speaksFor(scope string) (Outcome, error) {
	m.scope = scope
	rec, seen, err := m.tx.Seen(scope, m.env.MessageID)
	if err != nil || !seen {
		return next, err
	}
	return DuplicateOf(Outcome(rec.Outcome)), nil
}

// Scopes of the Message-ID index: the seat a mail speaks for, a game's moderator, or an address Sortie
// could not match to either.
func seatScope(g *Game, seat *Seat) string { return "seat:" + g.ID + "/" + seat.Player }
func moderatorScope(g *Game) string        { return "moderator:" + g.ID }
func senderScope(env Envelope) string      { return "from:" + strings.ToLower(env.From) }

// answerStranger answers, with outcome o, a mail Sortie cannot match to a seat or moderator: its
// Message-ID counts within its sender's address, and it is answered with the template name only within
// that address's flood limit and the cap on answers to strangers (guard.go).
func (m *submission) answerStranger(o Outcome, name string, data map[string]any) (Outcome, error) {
	if d, err := m.speaksFor(senderScope(m.env)); d != next || err != nil {
		return d, err
	}
	if done, fo, err := m.s.floodStranger(m.tx, m.env); done || err != nil {
		return fo, err
	}
	if ok, err := m.s.mayAnswerStranger(m.tx, m.env); err != nil || !ok {
		return o, err
	}
	return o, m.replySimple(name, m.env.From, "", data)
}
