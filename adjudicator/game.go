// Package adjudicator runs games by mail: it takes a player's message (already turned into text by the
// mailer), finds the order block, checks who sent it, checks every order against that player's own
// units, stores what is valid, answers with a receipt, resolves a round once every order is in or the
// deadline passes, and queues every player's report, all in one transaction per message or round
// (invariants 1-4, docs/architecture.md). It runs each game through the ruleset interface, so it knows no game's
// rules.
package adjudicator

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"sortie/parser"
	"sortie/rules/dice"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// Game is a game as the service keeps it. The ruleset's own state is stored beside it.
type Game struct {
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	Name    string `json:"name"`
	// Scenario is the scenario file as loaded. It is stored in a bucket of its own (scenarios), not in
	// the game record, so the clock's scan of every game stays small; getGame leaves it empty and
	// gameScenario reads it.
	Scenario string    `json:"scenario,omitempty"`
	Source   string    `json:"source"` // where it was loaded from
	Created  time.Time `json:"created"`
	// Seed is the game's secret dice seed (hex). Its SHA-256, Commitment, is published in the first
	// report; the seed itself in the last (invariant 3, docs/architecture.md).
	Seed       string        `json:"seed"`
	Commitment string        `json:"commitment"`
	Moderator  string        `json:"moderator,omitempty"`
	TurnLength time.Duration `json:"turn_length"`
	Round      int           `json:"round"`
	Deadline   time.Time     `json:"deadline"`
	// AllInAt is when the last missing order arrived; zero while orders are missing.
	AllInAt time.Time `json:"all_in_at,omitempty"`
	Waiting []string  `json:"waiting,omitempty"` // players who asked the round to wait for them
	Seats   []Seat    `json:"seats"`
	Status  string    `json:"status"` // running, over
	Result  string    `json:"result,omitempty"`
	// ModSecret signs a moderator's command mails (with the moderator's address).
	ModSecret string `json:"mod_secret,omitempty"`
	// Grace is how long after the deadline the round still waits for late orders.
	Grace time.Duration `json:"grace,omitempty"`
	// Policy is what happens to a player who keeps missing turns.
	Policy NMRPolicy `json:"policy"`
	// Paused stops the clock: no round resolves and the deadline moves on by the pause when it ends.
	Paused   bool      `json:"paused,omitempty"`
	PausedAt time.Time `json:"paused_at,omitzero"`
	// Held says why a round is held for the moderator instead of resolving (an NMR spike).
	Held string `json:"held,omitempty"`
	// Reminded lists the reminders already sent this round.
	Reminded []string `json:"reminded,omitempty"`
	// Turn is the last game turn played (ruleset.LastTurn), kept with Round for lists and the web
	// archive: a finished game is told as over after it, and in some games rounds are not turns.
	Turn int `json:"turn,omitempty"`
	// Epoch counts rollbacks, so the reports of a turn played again get Message-IDs of their own.
	Epoch int `json:"epoch,omitempty"`
	// Rollbacks are the moderator's rollbacks, oldest first: each closed a timeline whose rounds stay in
	// the archive (discardedBucket) and whose mails in the outbox.
	Rollbacks []Rollback `json:"rollbacks,omitempty"`
	// Notices counts announcements, to give each its own Message-ID.
	Notices int `json:"notices,omitempty"`
}

// Rollback is one ROLLBACK TURN: the game was on round From and went back to the start of round To, at
// At, entering epoch Epoch. The rounds To..From-1 as they were played (each with its own epoch) form the
// closed timeline Epoch, kept in the archive under that number.
type Rollback struct {
	Epoch int       `json:"epoch"`
	From  int       `json:"from"`
	To    int       `json:"to"`
	At    time.Time `json:"at"`
}

// NMRPolicy is a game's rule for players who miss turns (PBEM practice: default plot, autopilot after
// N, drop out): every missed turn flies the default; after After consecutive misses the seat goes on
// autopilot (the round no longer waits for it) or drops out (its units leave the game).
type NMRPolicy struct {
	Mode  string `json:"mode" yaml:"mode"`   // default, autopilot or dropout
	After int    `json:"after" yaml:"after"` // consecutive misses before autopilot or dropout
}

// NMR policy modes.
const (
	PolicyDefault   = "default"
	PolicyAutopilot = "autopilot"
	PolicyDropout   = "dropout"
)

// Seat is a player's place in a game: who they are and how they prove it.
type Seat struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	Side   string `json:"side"`
	Email  string `json:"email"`
	Secret string `json:"secret"`
	Token  string `json:"token"` // the reply address sortie+TOKEN@domain identifies the seat
	TZ     string `json:"tz,omitempty"`
	// Misses counts consecutive turns without orders.
	Misses    int       `json:"misses,omitempty"`
	Autopilot bool      `json:"autopilot,omitempty"`
	Dropped   bool      `json:"dropped,omitempty"`
	AwayUntil time.Time `json:"away_until,omitzero"` // on leave until the end of this day (UTC)
	// Bot says the computer plays this seat (ruleset.Piloted): it has no mail address, the rounds never
	// wait for it, and its units fly the computer pilot's orders, from its side's view only.
	Bot bool `json:"bot,omitempty"`
	// Asks is, in a game that asks only some players each round (ruleset.Selective: the impulse game),
	// how many rounds this seat has been asked in: its own round number. Its mails, its order block's
	// TURN line and its receipts count in it, so no player can count the rounds others were asked in.
	Asks int `json:"asks,omitempty"`
	// LinkNonce is mixed into the key of the seat's web link (PlayerKey): 128 random bits in hex, new at
	// every REPLACE and RENEW, so the link follows the seat's holder and the old one stops working. Empty
	// for a seat never handed on (and every seat stored before there was a nonce): its key is the seed's
	// alone, as it always was. Withheld from exported archives.
	LinkNonce string `json:"link_nonce,omitempty"`
}

// away reports whether the seat is on leave at t.
func (st *Seat) away(t time.Time) bool {
	return !st.AwayUntil.IsZero() && t.Before(st.AwayUntil.Add(24*time.Hour))
}

// exempt reports whether the round does not wait for this seat: played by the computer, away, on
// autopilot or dropped out.
func (st *Seat) exempt(t time.Time) bool { return st.Bot || st.Dropped || st.Autopilot || st.away(t) }

// Status values of a game.
const (
	StatusRunning = "running"
	StatusOver    = "over"
)

func (g *Game) seat(player string) *Seat {
	for i := range g.Seats {
		if g.Seats[i].Player == player {
			return &g.Seats[i]
		}
	}
	return nil
}

func (g *Game) waiting(player string) bool {
	for _, w := range g.Waiting {
		if w == player {
			return true
		}
	}
	return false
}

func (g *Game) seedValue() dice.Seed {
	s, _ := dice.ParseSeed(g.Seed)
	return s
}

// serviceSection is the `service:` part of a scenario: what the mail service needs.
type serviceSection struct {
	Moderator string                 `yaml:"moderator"`
	TurnHours float64                `yaml:"turn_hours"`
	Players   map[string]seatSection `yaml:"players"`
	// Seed fixes the dice seed (64 hex digits) instead of drawing a secret one: for tests and for
	// replaying a game elsewhere. Players are told in the first report that it was fixed.
	Seed string `yaml:"seed"`
	// GraceHours is how long after the deadline late orders are still taken.
	GraceHours float64 `yaml:"grace_hours"`
	// NMR is the policy for players who miss turns.
	NMR NMRPolicy `yaml:"nmr"`
	// ModeratorSecret signs the moderator's command mails; one is made up when it is not given.
	ModeratorSecret string `yaml:"moderator_secret"`
}

type seatSection struct {
	Email  string `yaml:"email"`
	Secret string `yaml:"secret"`
	TZ     string `yaml:"tz"`
	// Bot has the computer play the seat: no address, the computer pilot's orders every round.
	Bot bool `yaml:"bot"`
}

var gameIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// NewGame reads a scenario, checks it with its ruleset, and stores a new game: seats with secrets and
// reply tokens, a secret dice seed, the first deadline, and the opening mail to every player, all in one
// transaction. id may be empty: one is made from the scenario's name. The scenario may include no
// files; NewGameFiles gives it its folder.
func (s *Service) NewGame(scenario []byte, source, id string) (*Game, error) {
	return s.NewGameFiles(scenario, nil, source, id)
}

// NewGameFiles is NewGame for a scenario with a folder of its own: files it includes (a tables file,
// say) are read from files and nowhere else, never relative to the daemon's working directory.
func (s *Service) NewGameFiles(scenario []byte, files fs.FS, source, id string) (*Game, error) {
	return s.NewGameBots(scenario, files, source, id, nil)
}

// NewGameBots is NewGameFiles with the computer playing every seat of the sides named in bots that the
// service section gives no mail address (`sortie game new --bot SIDE`): a solo player's opponent.
func (s *Service) NewGameBots(scenario []byte, files fs.FS, source, id string, bots []string) (*Game, error) {
	name, err := registry.Detect(scenario)
	if err != nil {
		return nil, err
	}
	rs, err := s.rules.Get(name)
	if err != nil {
		return nil, err
	}
	part, err := GamePart(scenario)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	// Every problem of the file comes in one list, in line order: the service section's and the
	// game part's (the ruleset's), so a moderator fixes them in one go.
	se := &ruleset.ScenarioError{File: source}
	lines := scenarioLines(scenario)
	add := se.Adder(lines)
	problem := func(path, format string, args ...any) {
		if path == "" {
			add(path, format, args...)
			return
		}
		add(path, "%s: %s", path, fmt.Sprintf(format, args...))
	}
	svc, svcProblems := decodeService(scenario)
	se.Problems = append(se.Problems, svcProblems...)
	rg, err := rs.NewGame(part, files, source)
	if err != nil {
		var rse *ruleset.ScenarioError
		if !errors.As(err, &rse) {
			return nil, err
		}
		se.Problems = append(se.Problems, rse.Problems...)
	}
	var players []ruleset.Player
	if rg != nil {
		players = rg.Players()
	}
	if id == "" && rg != nil {
		id = slug(rg.Name()) + "-" + randomHex(2)
	}
	id = strings.ToLower(id)
	if !gameIDRE.MatchString(id) {
		problem("", "game id %q: use 1-40 lower-case letters, digits, - and _", id)
	}
	g := &Game{ID: id, Ruleset: name, Scenario: string(scenario), Source: source, Created: s.now().UTC(),
		Moderator: strings.ToLower(svc.Moderator), Status: StatusRunning}
	if rg != nil {
		g.Name, g.Round, g.Turn = rg.Name(), rg.Round(), ruleset.LastTurn(rg)
	}
	g.TurnLength = s.cfg.TurnLength
	if svc.TurnHours > 0 {
		g.TurnLength = time.Duration(svc.TurnHours * float64(time.Hour))
	}
	g.Grace = time.Duration(svc.GraceHours * float64(time.Hour))
	g.Policy = svc.NMR
	switch g.Policy.Mode {
	case "":
		g.Policy.Mode = PolicyDefault
	case PolicyDefault:
	case PolicyAutopilot, PolicyDropout:
		if g.Policy.After < 1 {
			problem("service.nmr.after", "how many missed turns in a row before %s (1 or more)", g.Policy.Mode)
		}
	default:
		problem("service.nmr.mode", "default, autopilot or dropout, not %q", g.Policy.Mode)
	}
	if p := controlProblem(g.Name); p != "" {
		problem("name", "the game's name %s", p)
	}
	for _, p := range players {
		if why := controlProblem(p.Name + p.Side + p.ID); why != "" {
			problem("players."+p.ID, "the player's name, side or id %s", why)
		}
	}
	if svc.Moderator != "" {
		if addr, err := mail.ParseAddress(svc.Moderator); err != nil {
			problem("service.moderator", "%v", err)
		} else {
			g.Moderator = strings.ToLower(addr.Address)
		}
	}
	g.ModSecret = svc.ModeratorSecret
	if g.ModSecret != "" {
		if why := secretProblem(g.ModSecret); why != "" {
			problem("service.moderator_secret", "%s", why)
		}
	}
	if g.ModSecret == "" && g.Moderator != "" {
		g.ModSecret = newSecret()
	}
	if svc.Seed != "" {
		if _, err := dice.ParseSeed(svc.Seed); err != nil {
			problem("service.seed", "%v", err)
		}
		g.Seed = strings.ToLower(svc.Seed)
	} else {
		seed := make([]byte, 32)
		if _, err := rand.Read(seed); err != nil {
			return nil, err
		}
		g.Seed = hex.EncodeToString(seed)
	}
	g.Commitment = g.seedValue().Commitment()
	// Each seat the service section gives is checked, whether or not the game part could be read.
	addrs := map[string]string{}
	for _, key := range sortedSeatKeys(svc.Players) {
		sec, path := svc.Players[key], "service.players."+key
		if sec.Email != "" {
			if addr, err := mail.ParseAddress(sec.Email); err != nil {
				problem(path+".email", "%v", err)
			} else {
				addrs[key] = strings.ToLower(addr.Address)
			}
		}
		if sec.TZ != "" {
			if _, err := time.LoadLocation(sec.TZ); err != nil {
				problem(path+".tz", "unknown time zone %q", sec.TZ)
			}
		}
		if sec.Secret != "" {
			if why := secretProblem(sec.Secret); why != "" {
				problem(path+".secret", "%s", why)
			}
		}
		known := rg == nil
		for _, p := range players {
			known = known || p.ID == key
		}
		if !known {
			problem(path, "not a player of the scenario")
		}
	}
	botSide := map[string]bool{}
	for _, side := range bots {
		botSide[side] = true
		found := rg == nil
		for _, p := range players {
			found = found || p.Side == side
		}
		if !found {
			problem("", "--bot %s: the scenario has no side %q", side, side)
		}
	}
	for _, p := range players {
		sec, path := svc.Players[p.ID], "service.players."+p.ID
		if sec.Bot || botSide[p.Side] && sec.Email == "" {
			if sec.Email != "" {
				problem(path+".email", "player %s is played by the computer (bot: true): it has no mail address", p.ID)
			}
			if _, ok := rg.(ruleset.Piloted); !ok {
				problem(path+".bot", "the %s ruleset has no computer pilot to play %s", name, p.ID)
			}
			g.Seats = append(g.Seats, Seat{Player: p.ID, Name: p.Name, Side: p.Side, Bot: true, Secret: newSecret(), Token: randomHex(8)})
			continue
		}
		if sec.Email == "" {
			if !misspeltEmail(svcProblems, lines, path, sortedSeatKeys(svc.Players)) {
				problem(path+".email", "player %s needs a mail address", p.ID)
			}
			continue
		}
		secret := sec.Secret
		if secret == "" {
			secret = newSecret()
		}
		g.Seats = append(g.Seats, Seat{Player: p.ID, Name: p.Name, Side: p.Side, Email: addrs[p.ID],
			Secret: secret, Token: randomHex(8), TZ: sec.TZ})
	}
	if err := se.Err(); err != nil {
		return nil, err
	}
	g.Deadline = s.now().UTC().Add(g.TurnLength)
	for i := range g.Seats {
		askSeat(rg, &g.Seats[i]) // the welcome asks for the first orders
	}
	state, err := rg.Save()
	if err != nil {
		return nil, err
	}
	err = s.db.Update(func(tx *storage.Tx) error {
		if old, err := tx.Get(bucketGames, g.ID); err != nil {
			return err
		} else if old != nil {
			return fmt.Errorf("a game %q exists already", g.ID)
		}
		if err := putGame(tx, g); err != nil {
			return err
		}
		if err := tx.Put(bucketState, g.ID, state); err != nil {
			return err
		}
		for _, st := range g.Seats {
			if err := tx.Put(bucketTokens, st.Token, []byte(g.ID+"/"+st.Player)); err != nil {
				return err
			}
		}
		for i := range g.Seats {
			if err := s.queueReport(tx, reportJob{g: g, rg: rg, seat: &g.Seats[i], kind: kindStart}); err != nil {
				return err
			}
		}
		return s.queueModerator(tx, g, "game started", fmt.Sprintf("Game %s (%s) has started with %d players; the first deadline is %s.\n\n"+
			"You moderate it. Your command mails start with the line\n\n  GAME %s SECRET %s\n\nand may hold these commands, one per line, then END (docs/operations.md):\n\n  %s",
			g.ID, g.Name, len(g.Seats), g.Deadline.Format(time.RFC1123), g.ID, g.ModSecret, strings.Join(parser.ModeratorUsage(), "\n  ")))
	})
	if err != nil {
		return nil, err
	}
	s.kick()
	return g, nil
}

var (
	bucketGames     = []string{"games"}
	bucketState     = []string{"state"}
	bucketTokens    = []string{"tokens"}
	bucketScenarios = []string{"scenarios"}
)

func ordersBucket(game string, round int) []string {
	return []string{"orders", game, fmt.Sprintf("%06d", round)}
}
func archiveBucket(game string) []string { return []string{"archive", game} }

// discardedBucket holds the archive records of rounds a rollback discarded, keyed by discardedKey.
func discardedBucket(game string) []string { return []string{"archive-discarded", game} }

// discardedKey is a discarded round's key: the timeline (the epoch its rollback entered), then the round.
func discardedKey(timeline, round int) string {
	return storage.SeqKey(uint64(timeline)) + "/" + storage.SeqKey(uint64(round))
}

// discardedReportsBucket keeps a player's reports of rounds a rollback discarded, keyed by discardedKey
// with the round as the player's mails number it: RESEND of such a round says what became of it.
func discardedReportsBucket(game, player string) []string {
	return []string{"reports-discarded", game, player}
}

// positionKey is where a player's position mail after a rollback is kept among their reports: just after
// the report of the round before (round), so the latest kept mail is the one RESEND sends, and a report
// of the round asked for comes after it.
func positionKey(round int) string { return storage.SeqKey(uint64(round)) + "/position" }
func reportsBucket(game, player string) []string {
	return []string{"reports", game, player}
}

func putGame(tx *storage.Tx, g *Game) error {
	if g.Scenario != "" {
		if err := tx.Put(bucketScenarios, g.ID, []byte(g.Scenario)); err != nil {
			return err
		}
	}
	c := *g
	c.Scenario = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return err
	}
	return tx.Put(bucketGames, g.ID, b)
}

// gameScenario reads the scenario a game was created from.
func gameScenario(tx *storage.Tx, id string) (string, error) {
	b, err := tx.Get(bucketScenarios, id)
	return string(b), err
}

func getGame(tx *storage.Tx, id string) (*Game, error) {
	b, err := tx.Get(bucketGames, strings.ToLower(id))
	if err != nil || b == nil {
		return nil, err
	}
	var g Game
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

func (s *Service) loadRules(tx *storage.Tx, g *Game) (ruleset.Game, error) {
	rs, err := s.rules.Get(g.Ruleset)
	if err != nil {
		return nil, err
	}
	b, err := tx.Get(bucketState, g.ID)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, fmt.Errorf("game %s has no state", g.ID)
	}
	return rs.Load(b)
}

func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 24 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		s = "game"
	}
	return s
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// secretAlphabet is Crockford's base32: digits and capitals without I, L, O and U, so a secret read
// aloud or copied by hand has no look-alike letters.
const secretAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// MinSecretLength is the shortest secret a scenario may set for a player or the moderator, counted in
// letters and digits (dashes, underscores and spaces do not count).
const MinSecretLength = 12

// newSecret makes a secret a player can type: 80 bits from crypto/rand as four groups of four base32
// characters, e.g. 7KQ2-M9XD-4HRT-W3PF.
func newSecret() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	var out strings.Builder
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			out.WriteByte('-')
		}
		out.WriteByte(secretAlphabet[c&31]) // 5 bits of each random byte: 16 × 5 = 80 bits
	}
	return out.String()
}

// normalSecret is the form in which secrets are compared: upper case, without dashes, underscores and
// spaces, with the letters Crockford's base32 reads as digits (O as 0, I and L as 1) made digits.
func normalSecret(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch r {
		case '-', '_', ' ', '\t':
		case 'O':
			b.WriteByte('0')
		case 'I', 'L':
			b.WriteByte('1')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// secretMatches compares a secret given in a mail with the one on file, in constant time. An empty
// secret on file matches nothing.
func secretMatches(given, stored string) bool {
	g, st := normalSecret(given), normalSecret(stored)
	if st == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(g), []byte(st)) == 1
}

// secretProblem says what is wrong with a secret a scenario sets, or "".
func secretProblem(secret string) string {
	n := utf8.RuneCountInString(normalSecret(secret))
	if n < MinSecretLength {
		return fmt.Sprintf("a secret needs at least %d letters and digits (not counting dashes), this one has %d; leave it out and Sortie makes one up", MinSecretLength, n)
	}
	if !validSecretWord(secret) {
		return "a secret is one word of letters, digits, - and _ (up to 40), so that it fits on the GAME line"
	}
	return ""
}

func validSecretWord(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 40 {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// controlProblem says whether text that reaches a mail header (a game's name, a player's name) holds a
// control character such as a line break.
func controlProblem(text string) string {
	for _, r := range text {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return fmt.Sprintf("holds a control character (%U); names go into mail subjects and must be one line of text", r)
		}
	}
	return ""
}
