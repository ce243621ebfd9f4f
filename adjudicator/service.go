package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"sortie/parser"
	mappicture "sortie/rules/hex/picture"
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
	// rules are the rulesets the service runs games of (WithRulesets).
	rules *registry.Set
	// clock is the time now (WithClock).
	clock func() time.Time
	// notify is told after a commit that queued mail (WithNotify).
	notify func()
	// onTimed is told how long the parts of resolving a round took (WithTimed).
	onTimed func(part string, d time.Duration)
	// onAwaiting is told of a round left waiting for one seat (WithAwaiting).
	onAwaiting func(game string)
	// bugs counts mails whose handling panicked (each was answered and filed); tests require zero.
	bugs atomic.Int64
	// digestDay is the last day (UTC) the digests were looked at, so the clock looks once a day.
	digestDay atomic.Value
	// lastHousekeep is when the clock last pruned the intake's bookkeeping (guard.go).
	lastHousekeep atomic.Value
	// decoded keeps the submit path's last decoded game records and states, and each game's ruleset
	// (decodecache.go).
	decoded decodeCache
	// zones caches time.LoadLocation by name (loadLocation).
	zones sync.Map
	// drawing lets one DrawPictures draw at a time; drawFailed, under it, names the pictures that could
	// not be drawn, not tried again until a restart (pictures.go).
	drawing    sync.Mutex
	drawFailed map[string]bool
	// painters, under drawing, are DrawPictures' Painters, one a core, kept from round to round: a
	// Painter that drew before draws a picture in about three quarters of the time of a fresh one, and
	// keeps some 3 MB for a 100-unit picture (mappicture.Painter).
	painters []*mappicture.Painter
}

// Option sets what a Service tells or asks of the program around it, once, when it is made (New): the
// hooks are fixed for the service's life, so no caller can change them under a running one.
type Option func(*Service)

// WithClock gives the service its clock (time.Now unless given); tests move it by hand.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.clock = now } }

// WithNotify has notify called after a commit that queued mail (the daemon wakes its sender). It must
// not block.
func WithNotify(notify func()) Option { return func(s *Service) { s.notify = notify } }

// WithTimed has timed told (by benchmarks) how long the parts of resolving a round took: "resolve" (the
// ruleset), "reports" (every player's report rendered and queued), and after the commit "pictures" (the
// waiting map pictures drawn and stored: DrawPictures).
func WithTimed(timed func(part string, d time.Duration)) Option {
	return func(s *Service) { s.onTimed = timed }
}

// WithAwaiting has awaiting called (with the game's ID) after a commit that leaves a round waiting for
// one seat only, its orders or its READY: the next mail may complete the round, so the daemon watches
// the inbox closely and keeps a connection to the SMTP server ready. It must not block.
func WithAwaiting(awaiting func(game string)) Option {
	return func(s *Service) { s.onAwaiting = awaiting }
}

// WithRulesets has the service run games of the rulesets in set (registry.Shipped unless given): a
// test hands it a set with a ruleset of its own (registry.Set.With).
func WithRulesets(set *registry.Set) Option { return func(s *Service) { s.rules = set } }

// Rulesets are the rulesets the service runs games of (WithRulesets).
func (s *Service) Rulesets() *registry.Set { return s.rules }

// New makes a service on an open database.
func New(db *storage.DB, tmpl *templates.Set, cfg Config, log zerolog.Logger, opts ...Option) *Service {
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
	s := &Service{db: db, tmpl: tmpl, cfg: cfg, log: log, clock: time.Now, rules: registry.Shipped()}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *Service) now() time.Time { return s.clock() }

func (s *Service) kick() {
	if s.notify != nil {
		s.notify()
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
	// board is the seat a block sent from the plotting board speaks for (SubmitBoard, board.go): set
	// only inside this package, never from a mail, so no mail can claim it.
	board *boardSender
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

// timed tells the hook of WithTimed, if any, how long part took since since.
func (s *Service) timed(part string, since time.Time) {
	if s.onTimed != nil {
		s.onTimed(part, time.Since(since))
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

// blockNotation is a ruleset's order notation for reading blocks, when it offers one (none for nil).
func blockNotation(rs ruleset.Ruleset) parser.Notation {
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
