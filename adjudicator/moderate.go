package adjudicator

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"sortie/parser"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// Moderate runs one moderator command on a game in its own transaction (the CLI's way in; by mail the
// same commands run inside the mail's transaction). It returns what was done, in a sentence.
func (s *Service) Moderate(gameID string, cmd parser.Command) (string, error) {
	var out string
	err := s.db.Update(func(tx *storage.Tx) error {
		g, err := getGame(tx, gameID)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("no game %q", gameID)
		}
		out, err = s.moderate(tx, g, cmd, false)
		return err
	})
	if err == nil {
		s.kick()
	}
	return out, err
}

// moderate applies a moderator command inside tx, saves the game and announces the change to every
// player; the moderator gets the notice too when the command came from the command line (byMail: the
// answer to the mail says what was done, once). Errors that are the moderator's mistake come back as a moderatorError: the mail answer says
// so and nothing changes.
func (s *Service) moderate(tx *storage.Tx, g *Game, cmd parser.Command, byMail bool) (string, error) {
	event, ok := commandEvents[cmd.Name]
	if !ok {
		return "", modErr(cmd.Name + " is not a moderator command")
	}
	if err := g.may(event); err != nil {
		return "", modErr(err.Error())
	}
	done, err := s.command(tx, g, cmd, !byMail)
	if err == nil {
		id, line := g.ID, cmd.String()
		tx.OnCommit(func() {
			s.log.Info().Str("game", id).Str("command", line).Str("done", firstWords(done)).Msg("moderator command")
		})
	}
	return done, err
}

// commandEvents are the moderator's commands as events of the game's life (life.go).
var commandEvents = map[string]Event{
	"PAUSE": EventPause, "RESUME": EventResume, "EXTEND": EventExtend, "PROCESS": EventProcess,
	"ROLLBACK": EventRollback, "REPLACE": EventReplace, "RENEW": EventRenew, "AWAY": EventAway, "BACK": EventAway, "DIGEST": EventDigest,
}

// command carries out a moderator's command that the game's life allows now (moderate).
func (s *Service) command(tx *storage.Tx, g *Game, cmd parser.Command, tellModerator bool) (string, error) {
	now := s.now().UTC()
	var done string
	switch cmd.Name {
	case "PAUSE":
		g.Paused, g.PausedAt = true, now
		done = "The moderator has paused the game: no turn resolves until it resumes, and the deadline moves on by the pause. Orders sent meanwhile are stored."
	case "RESUME":
		if g.Paused {
			g.Deadline = g.Deadline.Add(now.Sub(g.PausedAt))
		}
		g.Paused, g.PausedAt, g.Held = false, time.Time{}, ""
		done = "The moderator has resumed the game. Orders are due by " + deadlineMark + "."
	case "EXTEND":
		h, _ := strconv.Atoi(cmd.Args[0])
		g.Deadline = g.Deadline.Add(time.Duration(h) * time.Hour)
		g.Reminded = nil
		done = fmt.Sprintf("The moderator has extended the deadline by %d hours: orders are now due by %s.", h, deadlineMark)
	case "PROCESS":
		n, _ := strconv.Atoi(cmd.Args[0])
		if n != g.Round {
			return "", modErr(fmt.Sprintf("PROCESS TURN %d: the game is on turn %d; nothing was done", n, g.Round))
		}
		rg, err := s.loadRules(tx, g)
		if err != nil {
			return "", err
		}
		g.Held, g.Paused, g.PausedAt = "", false, time.Time{}
		if err := s.resolveRound(tx, g, rg, EventProcess); err != nil {
			return "", err
		}
		return fmt.Sprintf("turn %d resolved by the moderator", n), nil
	case "ROLLBACK":
		n, _ := strconv.Atoi(cmd.Args[0])
		if err := s.rollback(tx, g, n); err != nil {
			return "", err
		}
		return fmt.Sprintf("game rolled back to the start of turn %d", n), nil
	case "REPLACE":
		if err := s.replace(tx, g, cmd.Args[0], cmd.Args[1]); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s is now played from %s", cmd.Args[0], cmd.Args[1]), nil
	case "RENEW":
		if err := s.renew(tx, g, cmd.Args[0]); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s has a new secret, reply address and web link, mailed to their address; the old ones no longer work", cmd.Args[0]), nil
	case "AWAY", "BACK":
		if len(cmd.Args) == 0 || (cmd.Name == "AWAY" && len(cmd.Args) < 2) {
			return "", modErr(cmd.Name + " from the moderator names the player: " + cmd.Name + " ... player")
		}
		player := cmd.Args[len(cmd.Args)-1]
		st := g.seat(player)
		if st == nil {
			return "", modErr("no player " + player)
		}
		text, err := s.setAway(g, st, cmd)
		if err != nil {
			return "", err
		}
		done = text
	case "DIGEST":
		if err := s.queueDigest(tx, g.Moderator); err != nil {
			return "", err
		}
		return "digest sent", nil
	default:
		return "", modErr(cmd.Name + " is not a moderator command")
	}
	if err := s.announce(tx, g, commandTopic(cmd), done, tellModerator); err != nil {
		return "", err
	}
	return s.withDeadline(done, g, nil), putGame(tx, g)
}

// deadlineMark stands for the game's deadline in a notice's text: each reader gets it in UTC and in
// their own time zone (withDeadline).
const deadlineMark = "\x00deadline\x00"

// withDeadline writes the deadline where text has deadlineMark, as seat reads it (nil: UTC only).
func (s *Service) withDeadline(text string, g *Game, seat *Seat) string {
	return strings.ReplaceAll(text, deadlineMark, s.deadlineText(g, seat))
}

type moderatorError struct{ msg string }

func (e moderatorError) Error() string { return e.msg }

func modErr(msg string) error { return moderatorError{msg} }

// setAway handles AWAY date / BACK for a seat.
func (s *Service) setAway(g *Game, st *Seat, cmd parser.Command) (string, error) {
	name := st.Name
	if name == "" {
		name = st.Player
	}
	if cmd.Name == "BACK" {
		st.AwayUntil = time.Time{}
		return fmt.Sprintf("%s is back: the turns wait for their orders again.", name), nil
	}
	until, err := time.Parse("2006-01-02", cmd.Args[0])
	if err != nil {
		return "", modErr("AWAY needs a date YYYY-MM-DD")
	}
	if until.Before(s.now().UTC().Truncate(24 * time.Hour)) {
		return "", modErr("AWAY " + cmd.Args[0] + " is in the past")
	}
	if until.After(s.now().UTC().Add(90 * 24 * time.Hour)) {
		return "", modErr("AWAY may be at most 90 days ahead")
	}
	st.AwayUntil = until
	return fmt.Sprintf("%s is away until %s: the turns do not wait for them, their aircraft fly straight on, and it does not count as missing turns.", name, cmd.Args[0]), nil
}

// announce tells every player of a change to the game, and the moderator too when toModerator (a change
// the moderator did not make); topic is the subject.
func (s *Service) announce(tx *storage.Tx, g *Game, topic, text string, toModerator bool) error {
	g.Notices++
	for _, st := range g.Seats {
		subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": g.ID, "GameName": g.Name, "Topic": topic, "Text": s.withDeadline(text, g, &st)})
		if err != nil {
			return err
		}
		if err := s.enqueue(tx, outgoing{To: st.Email, ToName: st.Name, Game: g, Kind: "announce", Subject: subject, Body: body, Token: st.Token, Key: []string{"announce", g.ID, fmt.Sprint(g.Notices)}}); err != nil {
			return err
		}
	}
	if !toModerator {
		return nil
	}
	return s.queueModerator(tx, g, topic, s.withDeadline(text, g, nil))
}

// rollback returns a game to the start of round n: the state before round n from the archive. Nothing
// is deleted: the rounds played since move to the archive's closed timeline (discardedBucket, named by
// the epoch the rollback enters), each player's reports of them likewise (so RESEND can say what became
// of them), and the orders waiting for the current round are dropped. Every player gets their position
// for round n, with its map and web link; the moderator a notice of what was done.
func (s *Service) rollback(tx *storage.Tx, g *Game, n int) error {
	if n < 1 || n >= g.Round {
		return modErr(fmt.Sprintf("ROLLBACK TURN %d: the game is on turn %d; roll back to an earlier turn", n, g.Round))
	}
	b, err := tx.Get(archiveBucket(g.ID), storage.SeqKey(uint64(n)))
	if err != nil {
		return err
	}
	if b == nil {
		return modErr(fmt.Sprintf("turn %d is not in the archive", n))
	}
	var rec archiveRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return err
	}
	if err := tx.Put(bucketState, g.ID, rec.StateBefore); err != nil {
		return err
	}
	from, timeline, now := g.Round, g.Epoch+1, s.now().UTC()
	for r := n; r <= from; r++ {
		key := storage.SeqKey(uint64(r))
		if v, err := tx.Get(archiveBucket(g.ID), key); err != nil {
			return err
		} else if v != nil {
			if err := tx.Put(discardedBucket(g.ID), discardedKey(timeline, r), v); err != nil {
				return err
			}
			if err := tx.Delete(archiveBucket(g.ID), key); err != nil {
				return err
			}
		}
		keys, err := tx.Keys(ordersBucket(g.ID, r))
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := tx.Delete(ordersBucket(g.ID, r), k); err != nil {
				return err
			}
		}
	}
	rg, err := s.loadRules(tx, g)
	if err != nil {
		return err
	}
	g.Round, g.Status, g.Result = n, StatusRunning, ""
	selective := asksOnly(rg)
	for i := range g.Seats {
		st := &g.Seats[i]
		if asks, ok := rec.Asks[st.Player]; ok && selective {
			st.Asks = asks // the seat's own count as it stood when round n was asked for
		} else if selective {
			askSeat(rg, st) // a record from before the counts were kept: asked once more
		}
		if err := discardReports(tx, g.ID, st.Player, timeline, playerRound(g, rg, st)); err != nil {
			return err
		}
	}
	g.Epoch = timeline
	g.Rollbacks = append(g.Rollbacks, Rollback{Epoch: timeline, From: from, To: n, At: now})
	g.AllInAt, g.Waiting, g.Held, g.Reminded = time.Time{}, nil, "", nil
	g.Deadline = now.Add(g.TurnLength)
	if g.Paused {
		g.PausedAt = now // the new deadline starts now, and moves on by the pause from here
	}
	noun := ruleset.RoundNoun(rg)
	for i := range g.Seats {
		st := &g.Seats[i]
		text := fmt.Sprintf("The moderator has rolled the game back from %s %d to the start of %s %d: what happened since no longer counts. Orders for %s %d are due by %s; your position is below.",
			noun, from, noun, n, noun, n, deadlineMark)
		if selective {
			// The game's own round numbers would tell how often others were asked: the seat's count only.
			text = fmt.Sprintf("The moderator has rolled the game back to an earlier point: what happened since no longer counts. You are asked again for your %s %d, due by %s; your position is below.",
				noun, st.Asks, deadlineMark)
		}
		if err := s.queueReport(tx, reportJob{g: g, rg: rg, seat: st, kind: kindPosition, notes: []string{s.withDeadline(text, g, st)}}); err != nil {
			return err
		}
	}
	played := fmt.Sprintf("%s %d", noun, n)
	if from-1 > n {
		played = fmt.Sprintf("%ss %d to %d", noun, n, from-1)
	}
	text := fmt.Sprintf("Game %s has been rolled back from %s %d to the start of %s %d. Every player has been mailed their position for %s %d, with its map; orders are due by %s.\n"+
		"%s as played stay in the archive as a closed timeline (number %d): the export, the web archive and sortie verify show it.",
		g.ID, noun, from, noun, n, noun, n, deadlineMark, upperFirst(played), timeline)
	if err := s.queueModerator(tx, g, fmt.Sprintf("rolled back to %s %d", noun, n), s.withDeadline(text, g, nil)); err != nil {
		return err
	}
	return putGame(tx, g)
}

// discardReports moves a player's kept reports of rounds from round on (as the player's mails number
// them) to the closed timeline's, so the latest kept report is one of the timeline that goes on.
func discardReports(tx *storage.Tx, game, player string, timeline, round int) error {
	keys, err := tx.Keys(reportsBucket(game, player))
	if err != nil {
		return err
	}
	first := storage.SeqKey(uint64(round))
	for _, k := range keys {
		if k < first {
			continue
		}
		v, err := tx.Get(reportsBucket(game, player), k)
		if err != nil {
			return err
		}
		if err := tx.Put(discardedReportsBucket(game, player), storage.SeqKey(uint64(timeline))+"/"+k, v); err != nil {
			return err
		}
		if err := tx.Delete(reportsBucket(game, player), k); err != nil {
			return err
		}
	}
	return nil
}

// upperFirst is s with its first letter in capitals.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// replace gives a seat to a new player: new address, secret, reply token and web link (renewSeat); the
// newcomer gets a welcome with the current position, the old address a notice, everyone an announcement.
func (s *Service) replace(tx *storage.Tx, g *Game, player, email string) error {
	st := g.seat(player)
	if st == nil {
		return modErr("no player " + player)
	}
	old := st.Email
	if err := renewSeat(tx, g, st); err != nil {
		return err
	}
	st.Email = strings.ToLower(email)
	// A seat the computer played goes to a person: the rounds wait for them from now on.
	st.Misses, st.Autopilot, st.AwayUntil, st.Bot = 0, false, time.Time{}, false
	rg, err := s.loadRules(tx, g)
	if err != nil {
		return err
	}
	if err := s.queueReport(tx, reportJob{g: g, rg: rg, seat: st, kind: kindStart}); err != nil {
		return err
	}
	subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": g.ID, "GameName": g.Name, "Topic": "your seat has a new player",
		"Text": fmt.Sprintf("The moderator has handed your seat (%s) in game %s to another player. Your secret no longer works, nor do your reply address and web link. Thank you for playing.", player, g.ID)})
	if err != nil {
		return err
	}
	g.Notices++
	if err := s.enqueue(tx, outgoing{To: old, Game: g, Kind: "announce", Subject: subject, Body: body, Key: []string{"replaced", g.ID, old, fmt.Sprint(g.Notices)}}); err != nil {
		return err
	}
	for _, other := range g.Seats {
		if other.Player == player {
			continue
		}
		subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": g.ID, "GameName": g.Name, "Topic": player + " has a new player",
			"Text": fmt.Sprintf("%s has a new player from now on.", player)})
		if err != nil {
			return err
		}
		if err := s.enqueue(tx, outgoing{To: other.Email, ToName: other.Name, Game: g, Kind: "announce", Subject: subject, Body: body, Token: other.Token, Key: []string{"replace-note", g.ID, player, fmt.Sprint(g.Notices)}}); err != nil {
			return err
		}
	}
	return putGame(tx, g)
}

// digestLine is one game in a moderator's digest.
type digestLine struct {
	ID, Name, State, Deadline string
	Round                     int
	Missing                   []string
}

// queueDigest mails a moderator the list of their games: round, deadline, who is missing.
func (s *Service) queueDigest(tx *storage.Tx, moderator string) error {
	lines, _, err := s.digestLines(tx, moderator)
	if err != nil {
		return err
	}
	return s.queueDigestLines(tx, moderator, lines[moderator])
}

// digestLines reads every game once and returns the digest lines of each moderator's games (only of
// moderator's, when it is not empty), and the moderators who have a running game.
func (s *Service) digestLines(tx *storage.Tx, moderator string) (lines map[string][]digestLine, running map[string]bool, err error) {
	lines, running = map[string][]digestLine{}, map[string]bool{}
	err = tx.ForEach(bucketGames, func(k string, v []byte) error {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return err
		}
		if g.Moderator == "" || (moderator != "" && g.Moderator != moderator) {
			return nil
		}
		d := digestLine{ID: g.ID, Name: g.Name, Round: g.Round, State: g.Status, Deadline: g.Deadline.Format("Mon 2 Jan 15:04 UTC")}
		switch {
		case g.Paused:
			d.State = "paused"
		case g.Held != "":
			d.State = "held: " + g.Held
		}
		if g.Status == StatusRunning {
			running[g.Moderator] = true
			rg, err := s.loadRules(tx, &g)
			if err != nil {
				return err
			}
			miss, err := s.missing(tx, &g, rg)
			if err != nil {
				return err
			}
			d.Missing = append(d.Missing, sortedKeys(miss)...)
		}
		lines[g.Moderator] = append(lines[g.Moderator], d)
		return nil
	})
	return lines, running, err
}

// queueDigestLines renders one moderator's digest from their games' lines and queues it.
func (s *Service) queueDigestLines(tx *storage.Tx, moderator string, lines []digestLine) error {
	if len(lines) == 0 {
		return nil
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].ID < lines[j].ID })
	var b strings.Builder
	fmt.Fprintf(&b, "Your games on %s:\n\n", s.now().UTC().Format("Mon 2 Jan 2006"))
	for _, d := range lines {
		fmt.Fprintf(&b, "  %-16s turn %-3d %-10s due %s", d.ID, d.Round, d.State, d.Deadline)
		if len(d.Missing) > 0 {
			fmt.Fprintf(&b, "  missing: %s", strings.Join(d.Missing, ", "))
		}
		fmt.Fprintf(&b, "\n           %s\n", d.Name)
	}
	subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": "digest", "GameName": "Sortie", "Topic": "daily digest of your games", "Text": b.String()})
	if err != nil {
		return err
	}
	return s.enqueue(tx, outgoing{To: moderator, Kind: "digest", Subject: subject, Body: body, Key: []string{"digest", moderator, s.now().UTC().Format(time.RFC3339)}})
}

// moderatorOf recognises a moderator's mail: the game named in the block, sent from its moderator's
// address with the moderator secret.
func (s *Service) moderatorOf(tx *storage.Tx, env Envelope, b parser.Block) (*Game, bool) {
	if !b.Found || b.Game == "" || b.Secret == "" {
		return nil, false
	}
	g, err := s.gameView(tx, b.Game) // copied only when it is the moderator's mail
	if err != nil || g == nil || g.Moderator == "" || g.ModSecret == "" {
		return nil, false
	}
	if strings.ToLower(env.From) != g.Moderator || !secretMatches(b.Secret, g.ModSecret) {
		return nil, false
	}
	return cloneGame(g), true
}

// moderatorMail runs a moderator's command mail: each command in order; a mistake stops nothing else
// but is reported. The answer lists what was done.
func (s *Service) moderatorMail(tx *storage.Tx, g *Game, env Envelope, b parser.Block, diags []parser.LineDiagnostic) (Outcome, error) {
	var lines []string
	if note := unconfirmedModeratorNote(env); note != "" {
		lines = append(lines, note)
	}
	for _, d := range diags {
		if d.Severity == parser.SeverityError {
			lines = append(lines, "error: "+d.Error())
		}
	}
	if len(b.Orders) > 0 {
		lines = append(lines, "order lines are for players; they were not used")
	}
	for _, c := range b.Commands {
		if !slices.Contains(parser.ModeratorCommands, c.Name) && c.Name != "AWAY" && c.Name != "BACK" && c.Name != "STATUS" {
			lines = append(lines, c.String()+": not a moderator command here")
			continue
		}
		if c.Name == "STATUS" {
			lines = append(lines, fmt.Sprintf("STATUS: game %s is on turn %d, %s, due %s", g.ID, g.Round, g.Status, g.Deadline.Format(time.RFC1123)))
			continue
		}
		done, err := s.moderate(tx, g, c, true)
		var me moderatorError
		switch {
		case err == nil:
			lines = append(lines, c.String()+": done. "+done)
		case asModErr(err, &me):
			lines = append(lines, c.String()+": NOT DONE: "+me.msg)
		default:
			return "", err
		}
		// moderate saved the game; read it back for the next command.
		if ng, err := getGame(tx, g.ID); err == nil && ng != nil {
			*g = *ng
		}
	}
	if len(lines) == 0 {
		lines = append(lines, "the mail held no commands")
	}
	subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": g.ID, "GameName": g.Name, "Topic": "your commands", "Text": "Your commands:\n\n  " + strings.Join(lines, "\n  ")})
	if err != nil {
		return "", err
	}
	return Accepted, s.enqueue(tx, outgoing{To: g.Moderator, Game: g, Kind: "moderator", Subject: subject, Body: body, InReplyTo: env.MessageID, Key: []string{"moderator-receipt", env.MessageID}})
}

func asModErr(err error, target *moderatorError) bool {
	me, ok := err.(moderatorError)
	if ok {
		*target = me
	}
	return ok
}

// remind sends the reminders that are due for a game: before the deadline to players still missing
// orders, and once the deadline has passed (during the grace period) to the late ones.
func (s *Service) remind(tx *storage.Tx, g *Game, rg ruleset.Game) (bool, error) {
	now := s.now().UTC()
	key := dueReminder(g, now, s.cfg.Reminders)
	if key == "" {
		return false, nil
	}
	miss, err := s.missing(tx, g, rg)
	if err != nil {
		return false, err
	}
	// Each player's reminder names the round as their own mails do (in a game that asks only some
	// players, their own count: the game's would tell how often others were asked).
	noun := ruleset.RoundNoun(rg)
	_, units := s.unitNouns(g)
	g.Reminded = append(g.Reminded, key)
	for _, p := range sortedKeys(miss) {
		st := g.seat(p)
		if st == nil {
			continue
		}
		round := playerRound(g, rg, st)
		text := fmt.Sprintf("Reminder: orders for %s %d are due by %s, and yours are missing for %s.", noun, round, deadlineMark, strings.Join(miss[p], ", "))
		topic := fmt.Sprintf("reminder: %s %d orders due %s", noun, round, g.Deadline.Format("Mon 2 Jan 15:04 UTC"))
		if key == "late" {
			text = fmt.Sprintf("The deadline for %s %d has passed and your orders are missing for %s. They are still taken until %s; after that your %s fly straight on.",
				noun, round, strings.Join(miss[p], ", "), g.Deadline.Add(g.Grace).Format("Mon 2 Jan 15:04 UTC"), units)
			topic = fmt.Sprintf("LATE: %s %d orders missing", noun, round)
		}
		subject, body, err := s.tmpl.Render("announce", map[string]any{"Game": g.ID, "GameName": g.Name, "Topic": topic, "Text": s.withDeadline(text, g, st)})
		if err != nil {
			return false, err
		}
		if err := s.enqueue(tx, outgoing{To: st.Email, ToName: st.Name, Game: g, Kind: "reminder", Subject: subject, Body: body, Token: st.Token, Key: []string{"reminder", g.ID, fmt.Sprint(g.Round), key, p}}); err != nil {
			return false, err
		}
	}
	return true, putGame(tx, g)
}

// dueReminder names the reminder due now and not yet sent this round: "late" once the deadline has
// passed, else the nearest of the reminders before the deadline whose time has come; "" if none. Only
// the nearest counts, so a player reminded a day ahead is reminded again two hours ahead. A reminder
// earlier than half the game's turn before the deadline is not sent: with a turn of 24 hours, the
// reminder a day ahead would come in the same second as the report.
func dueReminder(g *Game, now time.Time, before []time.Duration) string {
	key := ""
	if !now.Before(g.Deadline) {
		key = "late"
	} else {
		nearest := time.Duration(-1)
		for _, d := range before {
			if g.TurnLength > 0 && 2*d > g.TurnLength {
				continue
			}
			if !now.Before(g.Deadline.Add(-d)) && (nearest < 0 || d < nearest) {
				nearest = d
			}
		}
		if nearest >= 0 {
			key = nearest.String()
		}
	}
	if key == "" || slices.Contains(g.Reminded, key) {
		return ""
	}
	return key
}

// spike reports whether a round that is due by the deadline should be held for the moderator: at least
// two players, and at least half of those the round waits for, sent nothing at all — more often lost
// mail than lost interest (PBEM practice: NMR spike).
func (s *Service) spike(tx *storage.Tx, g *Game, rg ruleset.Game) (string, error) {
	have, err := s.orders(tx, g)
	if err != nil {
		return "", err
	}
	now := s.now().UTC()
	active, silent := 0, []string{}
	for _, st := range g.Seats {
		if st.exempt(now) || len(rg.Units(st.Player)) == 0 {
			continue
		}
		active++
		sent := false
		for _, o := range have {
			sent = sent || o.Player == st.Player
		}
		if !sent {
			silent = append(silent, st.Player)
		}
	}
	if len(silent) >= 2 && 2*len(silent) >= active {
		return fmt.Sprintf("%d of %d players sent no orders at all (%s): lost mail?", len(silent), active, strings.Join(silent, ", ")), nil
	}
	return "", nil
}

// heldTopic is the subject of a notice that a round is held for the moderator.
func heldTopic(g *Game) string {
	return fmt.Sprintf("HELD: turn %d of %s needs you", g.Round, g.ID)
}

// commandTopic is the subject of the notice a moderator's command sends: the command in a few words.
func commandTopic(cmd parser.Command) string {
	words := append([]string{strings.ToLower(cmd.Name)}, cmd.Args...)
	return firstWords(strings.Join(words, " "))
}

// firstWords is the start of a text, short enough for a subject: its first line, at most 60 characters,
// cut at a word.
func firstWords(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60])
		if i := strings.LastIndex(s, " "); i > 20 {
			s = s[:i]
		}
		s += "…"
	}
	return s
}
