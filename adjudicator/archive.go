package adjudicator

// Archives (docs/archives.md): a game exported to a folder that anyone can check with `sortie verify`,
// and consistent backups of the whole database.
//
// An archive holds every resolved round as the service kept it (the state before, the orders, the
// events, the dice, the hashes), the current state, every mail of the game as an mbox, the dice log,
// the rules version and a manifest, with SHA256SUMS over all of it. Verify re-adjudicates every round
// with this build's rules and compares the result byte for byte; once the game is over the manifest
// holds the seed, and the dice are drawn from it again instead of being replayed as recorded.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"sortie/rules/dice"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/storage"
)

// ArchiveFormat names the layout WriteDir writes and Verify reads; ArchiveFormatVersion is its version.
// A change that an older Verify could misread gets a new version.
const (
	ArchiveFormat        = "sortie-archive"
	ArchiveFormatVersion = 1
)

// The files of an archive folder.
const (
	fileManifest = "manifest.json"
	fileGame     = "game.json"
	fileScenario = "scenario.yaml"
	fileState    = "state.json"
	fileMbox     = "mail.mbox"
	fileDice     = "dice.log"
	fileSums     = "SHA256SUMS"
	dirRounds    = "rounds"
)

// withheld replaces what an archive must not show: player secrets, reply tokens, and the seed while
// the game runs.
const withheld = "withheld"

// Manifest says what an archive is: the game, the rules it was played under, the seed commitment and,
// once the game is over, the seed.
type Manifest struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	Game          string `json:"game"`
	Name          string `json:"name"`
	Ruleset       string `json:"ruleset"`
	// RulesVersion fingerprints the rules data the game was played with (RulesVersion); Sortie is the
	// build that exported it (the engine's code).
	RulesVersion string    `json:"rules_version"`
	Sortie       string    `json:"sortie"`
	Created      time.Time `json:"created"`
	Exported     time.Time `json:"exported"`
	Status       string    `json:"status"`
	Result       string    `json:"result,omitempty"`
	// Round is the round to be ordered next; Rounds the resolved rounds, each in rounds/NNNN.json.
	Round  int   `json:"round"`
	Rounds []int `json:"rounds"`
	// StateCommitment is the commitment to state.json the players were shown (StateCommitment): it
	// can be checked once the seed is revealed. The plain hash is never published.
	StateCommitment string `json:"state_commitment"`
	// Commitment is the SHA-256 of the seed, published in the first report. Seed is the seed itself,
	// present only when the game is over.
	Commitment string `json:"commitment"`
	Seed       string `json:"seed,omitempty"`
	Mails      int    `json:"mails"`
}

// ArchivedRound is one resolved round as the archive keeps it (rounds/NNNN.json).
type ArchivedRound struct {
	Round int `json:"round"`
	// Epoch is how many rollbacks the game had seen when the round was played: with the seed it names
	// the round's dice stream.
	Epoch int `json:"epoch,omitempty"`
	// Keyed says every roll was drawn from a stream of its own, named by its label (dice.Keyed), so a
	// side's dice do not depend on how many rolls its hidden enemies made; rounds archived before that
	// drew from one sequence.
	Keyed      bool      `json:"keyed,omitempty"`
	Resolved   time.Time `json:"resolved"`
	HashBefore string    `json:"hash_before"`
	HashAfter  string    `json:"hash_after"`
	// Commitment is the commitment to the state after the round that the players were shown.
	Commitment string            `json:"commitment,omitempty"`
	Orders     map[string]string `json:"orders"`
	Missed     []string          `json:"missed,omitempty"`
	// Withdrawn are players whose units were taken out after the round (NMR dropout): part of the
	// step from the state before to the hash after.
	Withdrawn []string `json:"withdrawn,omitempty"`
	// Events are the ruleset's events, as JSON; Dice every die thrown, in order.
	Events      json.RawMessage `json:"events"`
	Dice        []dice.Roll     `json:"dice"`
	StateBefore json.RawMessage `json:"state_before"`
}

// Archive is a game exported from the database, ready to be written to a folder. It is plain data (it
// travels as JSON from a running daemon to the command that writes it).
type Archive struct {
	Manifest Manifest        `json:"manifest"`
	Game     Game            `json:"game"`     // secrets and reply tokens blanked; the seed only when over
	Scenario string          `json:"scenario"` // as loaded, with secrets (and a fixed seed) withheld
	Rounds   []ArchivedRound `json:"rounds"`
	State    json.RawMessage `json:"state"`
	// Mails are every mail the game queued, in outbox order, with secrets and reply tokens withheld.
	Mails    []storage.Outgoing `json:"mails"`
	FromName string             `json:"from_name"` // the display name on the service's mail
}

// Export reads one game, in one read transaction, into an archive: the game record without player
// secrets and reply tokens, every archived round in order, the current state, every mail of the game
// and a manifest. The seed is included only when the game is over.
func (s *Service) Export(gameID string) (*Archive, error) {
	a := &Archive{FromName: s.cfg.Name}
	err := s.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, gameID)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("no game %q", gameID)
		}
		rg, err := loadRules(tx, g)
		if err != nil {
			return err
		}
		if a.State, err = rg.Save(); err != nil {
			return err
		}
		err = tx.ForEach(archiveBucket(g.ID), func(k string, v []byte) error {
			var rec archiveRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return fmt.Errorf("archive of %s, record %s: %w", g.ID, k, err)
			}
			r := ArchivedRound{Round: rec.Round, Epoch: rec.Epoch, Keyed: rec.Keyed, Commitment: rec.Commitment, Resolved: rec.Resolved, HashBefore: rec.HashBefore, HashAfter: rec.HashAfter,
				Orders: rec.Orders, StateBefore: rec.StateBefore, Withdrawn: rec.Withdrawn, Events: json.RawMessage("null")}
			if r.Orders == nil {
				r.Orders = map[string]string{}
			}
			if rec.Log != nil {
				r.Missed, r.Dice = rec.Log.Missed, rec.Log.Dice
				if len(rec.Log.Events) > 0 {
					r.Events = json.RawMessage(rec.Log.Events)
				}
			}
			if r.Dice == nil {
				r.Dice = []dice.Roll{}
			}
			if !json.Valid(r.Events) {
				return fmt.Errorf("archive of %s, round %d: the events are not JSON", g.ID, rec.Round)
			}
			if !json.Valid(r.StateBefore) {
				return fmt.Errorf("archive of %s, round %d: the state before is not JSON", g.ID, rec.Round)
			}
			a.Rounds = append(a.Rounds, r)
			return nil
		})
		if err != nil {
			return err
		}
		if a.Mails, err = tx.OutboxByGame(g.ID); err != nil {
			return err
		}
		over := g.Status == StatusOver
		red := newRedactor(g)
		for i := range a.Mails {
			red.mail(&a.Mails[i])
		}
		scenario, err := gameScenario(tx, g.ID)
		if err != nil {
			return err
		}
		if a.Scenario, err = redactScenario(scenario, !over); err != nil {
			return fmt.Errorf("game %s: scenario: %w", g.ID, err)
		}
		a.Scenario = red.text(a.Scenario) // a secret also written in a comment, say
		a.Game = *g
		a.Game.Scenario, a.Game.ModSecret = "", ""
		a.Game.Seats = append([]Seat(nil), g.Seats...)
		for i := range a.Game.Seats {
			a.Game.Seats[i].Secret, a.Game.Seats[i].Token = "", ""
		}
		if !over {
			a.Game.Seed = ""
		}
		version, err := RulesVersion(g.Ruleset)
		if err != nil {
			return err
		}
		a.Manifest = Manifest{Format: ArchiveFormat, FormatVersion: ArchiveFormatVersion, Game: g.ID, Name: g.Name,
			Ruleset: g.Ruleset, RulesVersion: version, Sortie: sortieBuild(), Created: g.Created, Exported: s.now().UTC(),
			Status: g.Status, Result: g.Result, Round: g.Round, Rounds: []int{}, StateCommitment: g.commitment(a.State),
			Commitment: g.Commitment, Mails: len(a.Mails)}
		if over {
			a.Manifest.Seed = g.Seed
		}
		for _, r := range a.Rounds {
			a.Manifest.Rounds = append(a.Manifest.Rounds, r.Round)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Backup writes a consistent copy of the whole database to path while the service carries on (bbolt's
// online backup, through a temporary file renamed into place). The copy holds player secrets: keep it
// as private as the database.
func (s *Service) Backup(path string) error {
	return s.db.BackupTo(path)
}

// roundFile is the name of a round's file in the archive.
func roundFile(n int) string { return fmt.Sprintf("%s/%04d.json", dirRounds, n) }

// WriteDir writes the archive into dir, which must not exist or be empty: manifest.json, game.json,
// scenario.yaml, rounds/NNNN.json, state.json, mail.mbox, dice.log and SHA256SUMS over all of them.
func (a *Archive) WriteDir(dir string) error {
	files, err := a.files()
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty; export into a new folder", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// An archive holds every player's mail and the game's secrets once it is over: only its owner reads it.
	if err := os.MkdirAll(filepath.Join(dir, dirRounds), 0o700); err != nil {
		return err
	}
	for _, d := range []string{dir, filepath.Join(dir, dirRounds)} {
		if err := os.Chmod(d, 0o700); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var sums bytes.Buffer
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), files[name], 0o600); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, fileSums), sums.Bytes(), 0o600)
}

// files renders every file of the archive but SHA256SUMS, by slash-separated name.
func (a *Archive) files() (map[string][]byte, error) {
	files := map[string][]byte{}
	put := func(name string, v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files[name] = append(b, '\n')
		return nil
	}
	if err := put(fileManifest, a.Manifest); err != nil {
		return nil, err
	}
	if err := put(fileGame, a.Game); err != nil {
		return nil, err
	}
	if err := put(fileState, json.RawMessage(a.State)); err != nil {
		return nil, err
	}
	for _, r := range a.Rounds {
		if err := put(roundFile(r.Round), r); err != nil {
			return nil, err
		}
	}
	scenario := a.Scenario
	if scenario != "" && !strings.HasSuffix(scenario, "\n") {
		scenario += "\n"
	}
	files[fileScenario] = []byte(scenario)
	files[fileDice] = diceLog(a.Rounds)
	files[fileMbox] = mbox(a.Mails, a.FromName)
	return files, nil
}

// diceLog is dice.log: a comment saying what the columns are, then one roll per line, tab-separated:
// round, label, sides, value. A label with a tab, a line break, a backslash or a leading quote is written
// as a Go-quoted string.
func diceLog(rounds []ArchivedRound) []byte {
	var b bytes.Buffer
	b.WriteString("# Every die thrown in the game, in order: round, label, sides, value (tab-separated).\n")
	for _, r := range rounds {
		for _, d := range r.Dice {
			fmt.Fprintf(&b, "%d\t%s\t%d\t%d\n", r.Round, diceLabel(d.Label), d.Sides, d.Value)
		}
	}
	return b.Bytes()
}

func diceLabel(label string) string {
	if label == "" || strings.ContainsAny(label, "\t\r\n\\") || strings.HasPrefix(label, `"`) || !utf8.ValidString(label) {
		return strconv.Quote(label)
	}
	return label
}

// parseDiceLog reads dice.log back: the rolls by round, in order.
func parseDiceLog(data []byte) (map[int][]dice.Roll, error) {
	out := map[int][]dice.Roll{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want round, label, sides and value separated by tabs", i+1)
		}
		round, err1 := strconv.Atoi(f[0])
		sides, err2 := strconv.Atoi(f[2])
		value, err3 := strconv.Atoi(f[3])
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		label := f[1]
		if strings.HasPrefix(label, `"`) {
			if label, err1 = strconv.Unquote(label); err1 != nil {
				return nil, fmt.Errorf("line %d: label: %v", i+1, err1)
			}
		}
		out[round] = append(out[round], dice.Roll{Label: label, Sides: sides, Value: value})
	}
	return out, nil
}

// mbox writes mails as an mboxrd file (RFC 4155): each a From_ line, a complete RFC 5322 message with
// LF line ends and lines that start with ">*From " quoted with one more ">", and a blank line.
func mbox(mails []storage.Outgoing, fromName string) []byte {
	var b bytes.Buffer
	for _, m := range mails {
		date := m.SentAt
		if date.IsZero() {
			date = m.Created
		}
		sender := m.From
		if sender == "" || strings.ContainsAny(sender, " \t") {
			sender = "MAILER-DAEMON"
		}
		fmt.Fprintf(&b, "From %s %s\n", sender, date.UTC().Format("Mon Jan _2 15:04:05 2006"))
		for _, line := range strings.SplitAfter(message(m, fromName, date), "\n") {
			if line == "" {
				continue
			}
			if fromLine.MatchString(line) {
				b.WriteByte('>')
			}
			b.WriteString(line)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

var fromLine = regexp.MustCompile(`^>*From `)

// message renders one outgoing mail as the sender builds it (mailer/sender.go), with LF line ends and
// the body as 8-bit UTF-8. X-Sortie-Delivery says whether it was sent.
func message(m storage.Outgoing, fromName string, date time.Time) string {
	var b strings.Builder
	h := func(name, value string) { fmt.Fprintf(&b, "%s: %s\n", name, value) }
	h("Date", date.UTC().Format(time.RFC1123Z))
	h("From", addressHeader(fromName, m.From))
	h("To", addressHeader(m.ToName, m.To))
	if m.ReplyTo != "" {
		h("Reply-To", addressHeader("", m.ReplyTo))
	}
	h("Subject", encodeWord(m.Subject))
	h("Message-ID", "<"+strings.Trim(m.MessageID, "<>")+">")
	if irt := strings.Trim(m.InReplyTo, "<> "); irt != "" {
		h("In-Reply-To", "<"+irt+">")
		h("References", "<"+irt+">")
	}
	keys := make([]string, 0, len(m.Headers))
	for k := range m.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if validField(k) {
			h(k, encodeWord(m.Headers[k]))
		}
	}
	h("X-Sortie", "1")
	h("Auto-Submitted", "auto-generated")
	h("X-Auto-Response-Suppress", "OOF, AutoReply")
	h("X-Sortie-Delivery", string(m.Status))
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "8bit")
	b.WriteString("\n")
	body := strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\r", "\n")
	b.WriteString(body)
	if !strings.HasSuffix(body, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

func addressHeader(name, addr string) string {
	if a, err := mail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	return (&mail.Address{Name: oneLine(name), Address: oneLine(addr)}).String()
}

// encodeWord keeps a header value on one line and encodes it (RFC 2047) if it is not plain ASCII.
func encodeWord(s string) string { return mime.QEncoding.Encode("utf-8", oneLine(s)) }

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func validField(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 33 || c > 126 || c == ':' {
			return false
		}
	}
	return true
}

// readMbox splits an mboxrd file into its messages, undoing the >From quoting.
func readMbox(data []byte) ([][]byte, error) {
	var msgs [][]byte
	var cur *bytes.Buffer
	prevBlank := true
	flush := func() {
		if cur != nil {
			msgs = append(msgs, bytes.TrimSuffix(cur.Bytes(), []byte("\n")))
		}
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" {
			continue
		}
		if prevBlank && strings.HasPrefix(line, "From ") {
			flush()
			cur, prevBlank = new(bytes.Buffer), false
			continue
		}
		if cur == nil {
			return nil, errors.New("the file does not start with a From_ line")
		}
		if strings.HasPrefix(line, ">") && fromLine.MatchString(line) {
			line = line[1:]
		}
		cur.WriteString(line)
		prevBlank = line == "\n"
	}
	flush()
	return msgs, nil
}

// redactor withholds the players' and the moderator's secrets and the reply tokens from mail.
type redactor struct {
	tokens  *strings.Replacer
	secrets []*regexp.Regexp
}

func newRedactor(g *Game) *redactor {
	var pairs []string
	r := &redactor{}
	secrets := []string{g.ModSecret}
	for _, st := range g.Seats {
		if st.Token != "" {
			pairs = append(pairs, st.Token, "token-"+withheld)
		}
		secrets = append(secrets, st.Secret)
	}
	// Whatever word follows a SECRET keyword, known secret or not (a mistyped one is nearly right).
	r.secrets = append(r.secrets, regexp.MustCompile(`(\bSECRET:?[ \t]+)[\w-]+($|[^\w-])`))
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		// Every occurrence of a seat's secret as a word of its own, whatever its length and case: a
		// short secret may withhold an ordinary word too, which is the lesser harm.
		r.secrets = append(r.secrets, regexp.MustCompile(`(?i)(^|[^\w-])`+regexp.QuoteMeta(secret)+`($|[^\w-])`))
	}
	r.tokens = strings.NewReplacer(pairs...)
	return r
}

func (r *redactor) text(s string) string {
	s = r.tokens.Replace(s)
	for _, re := range r.secrets {
		// Twice: two occurrences separated by one character share it between their matches.
		for i := 0; i < 2; i++ {
			s = re.ReplaceAllString(s, "${1}secret-"+withheld+"${2}")
		}
	}
	return s
}

func (r *redactor) mail(m *storage.Outgoing) {
	m.Subject, m.Body, m.ReplyTo = r.text(m.Subject), r.text(m.Body), r.text(m.ReplyTo)
	if len(m.Headers) > 0 {
		h := make(map[string]string, len(m.Headers))
		for k, v := range m.Headers {
			h[k] = r.text(v)
		}
		m.Headers = h
	}
	m.LastError = r.text(m.LastError)
}

// redactScenario withholds the players' and the moderator's secrets in a scenario's service section, and
// with seed also a seed fixed there. The rest of the file stays as the moderator wrote it.
func redactScenario(text string, seed bool) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return "", err
	}
	var targets []*yaml.Node
	if len(doc.Content) == 1 {
		if svc := mapValue(doc.Content[0], "service"); svc != nil {
			if v := mapValue(svc, "seed"); v != nil && seed {
				targets = append(targets, v)
			}
			if v := mapValue(svc, "moderator_secret"); v != nil {
				targets = append(targets, v)
			}
			if players := mapValue(svc, "players"); players != nil && players.Kind == yaml.MappingNode {
				for i := 1; i < len(players.Content); i += 2 {
					if v := mapValue(players.Content[i], "secret"); v != nil {
						targets = append(targets, v)
					}
				}
			}
		}
	}
	if len(targets) == 0 {
		return text, nil
	}
	lines := strings.SplitAfter(text, "\n")
	// From the last target back, so earlier positions stay valid.
	sort.Slice(targets, func(i, j int) bool {
		if targets[i].Line != targets[j].Line {
			return targets[i].Line > targets[j].Line
		}
		return targets[i].Column > targets[j].Column
	})
	for _, t := range targets {
		if !replaceScalar(lines, t) {
			// Not a simple scalar where the parser says: write the whole document again.
			for _, t := range targets {
				t.Kind, t.Style, t.Tag, t.Value, t.Content = yaml.ScalarNode, 0, "!!str", withheld, nil
			}
			var b bytes.Buffer
			enc := yaml.NewEncoder(&b)
			enc.SetIndent(2)
			if err := enc.Encode(&doc); err != nil {
				return "", err
			}
			return b.String(), nil
		}
	}
	return strings.Join(lines, ""), nil
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// replaceScalar replaces a one-line scalar in place with "withheld", keeping its quotes.
func replaceScalar(lines []string, n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Line < 1 || n.Line > len(lines) || n.Column < 1 {
		return false
	}
	line := lines[n.Line-1]
	start := 0
	for col := 1; col < n.Column; col++ { // columns count characters
		if start >= len(line) {
			return false
		}
		_, size := utf8.DecodeRuneInString(line[start:])
		start += size
	}
	rest := line[start:]
	var end int
	switch n.Style {
	case 0:
		if !strings.HasPrefix(rest, n.Value) {
			return false
		}
		end = len(n.Value)
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		q := rest[:min(1, len(rest))]
		if q != `"` && q != `'` {
			return false
		}
		i := 1
		for ; i < len(rest); i++ {
			if q == `"` && rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == q[0] {
				if q == `'` && i+1 < len(rest) && rest[i+1] == '\'' {
					i++
					continue
				}
				break
			}
		}
		if i >= len(rest) {
			return false
		}
		end = i + 1
		lines[n.Line-1] = line[:start] + q + withheld + q + rest[end:]
		return true
	default:
		return false
	}
	lines[n.Line-1] = line[:start] + withheld + rest[end:]
	return true
}

// sortieBuild names the running build: module, version, VCS revision and Go version, as far as the
// binary records them.
func sortieBuild() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "sortie (no build information)"
	}
	parts := []string{bi.Main.Path, bi.Main.Version}
	if parts[0] == "" {
		parts[0] = "sortie"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision", "vcs.time", "vcs.modified":
			parts = append(parts, s.Key+"="+s.Value)
		}
	}
	parts = append(parts, bi.GoVersion)
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

var rulesVersions sync.Map // ruleset name -> string

// RulesVersion fingerprints the rules data a ruleset plays with, as "NAME@sha256:HEX": for afd, every
// shipped aircraft card as the engine uses it (derived from the data files) and every cell of the house
// tables, read through their lookups. It changes whenever a card or a table changes; the engine's code
// is named by the build recorded beside it in the manifest.
func RulesVersion(name string) (string, error) {
	if v, ok := rulesVersions.Load(name); ok {
		return v.(string), nil
	}
	rs, err := registry.Get(name)
	if err != nil {
		return "", err
	}
	v, err := rs.Version()
	if err != nil {
		return "", fmt.Errorf("rules version of %s: %w", name, err)
	}
	rulesVersions.Store(name, v)
	return v, nil
}

// VerifyReport is what Verify found, archive-wide and round by round.
type VerifyReport struct {
	Dir     string `json:"dir"`
	Game    string `json:"game"`
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	Status  string `json:"status"`
	// RulesVersion is the archive's; CurrentRules this build's.
	RulesVersion string `json:"rules_version"`
	CurrentRules string `json:"current_rules"`
	// Files is how many files SHA256SUMS lists and matched.
	Files int `json:"files"`
	// SeedRevealed says the manifest holds the seed; SeedVerified that it hashes to the commitment and
	// every round's dice were drawn from it again.
	SeedRevealed bool `json:"seed_revealed"`
	SeedVerified bool `json:"seed_verified"`
	// Commitments says what became of the state commitments the players were shown: "verified" (each
	// recomputed from the revealed seed), "not yet" (the seed is secret while the game runs) or
	// "failed".
	Commitments string         `json:"commitments"`
	Rounds      []RoundVerdict `json:"rounds"`
	// Problems are failures not tied to one round; Notes what a reader should know but is no failure.
	Problems []string `json:"problems"`
	Notes    []string `json:"notes"`
}

// RoundVerdict is one round's result. Dice says how the round was re-run: "seed" (drawn again from the
// revealed seed) or "recorded" (the archived values replayed; the seed is not yet known).
type RoundVerdict struct {
	Round    int      `json:"round"`
	Dice     string   `json:"dice"`
	Rolls    int      `json:"rolls"`
	Problems []string `json:"problems"`
}

// OK says the round re-ran byte for byte.
func (v RoundVerdict) OK() bool { return len(v.Problems) == 0 }

// OK says the whole archive verified.
func (r *VerifyReport) OK() bool {
	if len(r.Problems) > 0 {
		return false
	}
	for _, v := range r.Rounds {
		if !v.OK() {
			return false
		}
	}
	return true
}

// Failures lists every problem, round problems first prefixed with their round.
func (r *VerifyReport) Failures() []string {
	var out []string
	for _, v := range r.Rounds {
		for _, p := range v.Problems {
			out = append(out, fmt.Sprintf("round %d: %s", v.Round, p))
		}
	}
	return append(out, r.Problems...)
}

// WriteText prints the report for people: the archive, every round's verdict, the seed, notes.
func (r *VerifyReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "archive %s: game %s (%s), %s rules, %s\n", r.Dir, r.Game, r.Name, r.Ruleset, r.Status)
	if r.RulesVersion != "" {
		same := "the same as this sortie's"
		if r.RulesVersion != r.CurrentRules {
			same = "this sortie has " + r.CurrentRules
		}
		fmt.Fprintf(&b, "rules: %s (%s)\n", r.RulesVersion, same)
	}
	fmt.Fprintf(&b, "files: %d checked against %s\n", r.Files, fileSums)
	for _, v := range r.Rounds {
		how := "dice drawn again from the seed"
		if v.Dice == "recorded" {
			how = "recorded dice replayed"
		}
		if v.OK() {
			fmt.Fprintf(&b, "round %d: ok (%d dice, %s)\n", v.Round, v.Rolls, how)
			continue
		}
		fmt.Fprintf(&b, "round %d: FAILED (%s)\n", v.Round, how)
		for _, p := range v.Problems {
			fmt.Fprintf(&b, "  - %s\n", p)
		}
	}
	switch {
	case r.SeedVerified:
		b.WriteString("seed: revealed; it hashes to the published commitment and every die was drawn from it again\n")
	case r.SeedRevealed:
		b.WriteString("seed: revealed but NOT verified (see the problems)\n")
	default:
		b.WriteString("seed: not revealed yet (the game is not over): the dice were replayed as recorded, so their fairness is not verified\n")
	}
	switch r.Commitments {
	case "verified":
		b.WriteString("state commitments: every one the players were shown was recomputed from the seed and matches\n")
	case "not yet":
		b.WriteString("state commitments: cannot be checked yet: they are keyed by the seed, revealed when the game is over\n")
	default:
		b.WriteString("state commitments: NOT verified (see the problems)\n")
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "problem: %s\n", p)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if r.OK() {
		fmt.Fprintf(&b, "verified: all %d round(s) re-adjudicated byte for byte\n", len(r.Rounds))
	} else {
		fmt.Fprintf(&b, "NOT VERIFIED: %d problem(s)\n", len(r.Failures()))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// VerifyError is Verify's error when the archive does not verify; it lists every failure.
type VerifyError struct{ Report *VerifyReport }

func (e *VerifyError) Error() string {
	return "the archive does not verify:\n  " + strings.Join(e.Report.Failures(), "\n  ")
}

// Verify checks an archive folder: every file against SHA256SUMS, then every round re-adjudicated with
// this build's rules from its state before and its orders, with dice drawn again from the seed once it
// is revealed (and replayed from the record until then), comparing the events, the dice and the hash
// after byte for byte; the chain of hashes from round to round and to state.json; the seed against its
// commitment; dice.log against the rounds; and the published commitment and hashes in mail.mbox. It
// returns the report, and a *VerifyError listing every failure if there was any.
func Verify(dir string) (*VerifyReport, error) {
	r := &VerifyReport{Dir: dir}
	fail := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }
	note := func(format string, args ...any) { r.Notes = append(r.Notes, fmt.Sprintf(format, args...)) }
	done := func() (*VerifyReport, error) {
		if r.OK() {
			return r, nil
		}
		return r, &VerifyError{Report: r}
	}

	sums, err := os.ReadFile(filepath.Join(dir, fileSums))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, err := os.Stat(filepath.Join(dir, fileManifest)); err != nil {
				return nil, fmt.Errorf("%s is not a sortie archive (no %s)", dir, fileManifest)
			}
		}
		fail("%s: %v", fileSums, err)
	}
	listed := checkSums(dir, sums, r, fail, note)
	read := func(name string) ([]byte, error) {
		if listed != nil && !listed[name] {
			fail("%s is not listed in %s", name, fileSums)
		}
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	}

	mb, err := read(fileManifest)
	if err != nil {
		fail("%v", err)
		return done()
	}
	var m Manifest
	if err := json.Unmarshal(mb, &m); err != nil {
		fail("%s: %v", fileManifest, err)
		return done()
	}
	r.Game, r.Name, r.Ruleset, r.Status, r.RulesVersion = m.Game, m.Name, m.Ruleset, m.Status, m.RulesVersion
	if m.Format != ArchiveFormat {
		fail("%s: format %q is not %q", fileManifest, m.Format, ArchiveFormat)
		return done()
	}
	if m.FormatVersion != ArchiveFormatVersion {
		fail("%s: archive format version %d; this sortie reads version %d", fileManifest, m.FormatVersion, ArchiveFormatVersion)
		return done()
	}
	rs, err := registry.Get(m.Ruleset)
	if err != nil {
		fail("%s: %v", fileManifest, err)
		return done()
	}
	if r.CurrentRules, err = RulesVersion(m.Ruleset); err != nil {
		fail("%v", err)
		return done()
	}
	if r.RulesVersion != r.CurrentRules {
		note("the archive was played with rules %s, this sortie has %s: a round that fails may show a change of the rules rather than of the game", r.RulesVersion, r.CurrentRules)
	}

	var seed dice.Seed
	commitOK := false
	if m.Seed != "" {
		r.SeedRevealed = true
		if seed, err = dice.ParseSeed(m.Seed); err != nil {
			fail("seed: %v", err)
			r.SeedRevealed = false
		} else if c := seed.Commitment(); c != m.Commitment {
			fail("seed: its SHA-256 is %s, but the published commitment is %s", c, m.Commitment)
		} else {
			commitOK = true
		}
	} else if m.Status == StatusOver {
		fail("%s: the game is over but the seed is missing", fileManifest)
	}

	// The game record must agree with the manifest.
	var g Game
	if gb, err := read(fileGame); err != nil {
		fail("%v", err)
	} else if err := json.Unmarshal(gb, &g); err != nil {
		fail("%s: %v", fileGame, err)
	} else {
		if g.ID != m.Game || g.Ruleset != m.Ruleset || g.Commitment != m.Commitment {
			fail("%s does not match %s (game, ruleset or commitment)", fileGame, fileManifest)
		}
		if g.Seed != m.Seed {
			fail("%s and %s disagree about the seed", fileGame, fileManifest)
		}
	}

	// Every round.
	var rounds []ArchivedRound
	var uncommitted []int
	prevAfter := ""
	for i, n := range m.Rounds {
		v := RoundVerdict{Round: n, Dice: "recorded"}
		if r.SeedRevealed {
			v.Dice = "seed"
		}
		bad := func(format string, args ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, args...)) }
		var ar ArchivedRound
		if b, err := read(roundFile(n)); err != nil {
			bad("%v", err)
		} else if err := json.Unmarshal(b, &ar); err != nil {
			bad("%s: %v", roundFile(n), err)
		} else {
			if ar.Round != n {
				bad("%s holds round %d", roundFile(n), ar.Round)
			}
			if i > 0 && prevAfter != "" && ar.HashBefore != prevAfter {
				bad("hash before %s is not round %d's hash after %s", ar.HashBefore, m.Rounds[i-1], prevAfter)
			}
			v.Rolls = len(ar.Dice)
			after := verifyRound(rs, ar, seed, r.SeedRevealed, bad)
			switch {
			case !r.SeedRevealed:
			case ar.Commitment == "":
				uncommitted = append(uncommitted, n)
			case after != nil && StateCommitment(seed, after) != ar.Commitment:
				bad("the state after does not give the commitment the players were shown (%s)", ar.Commitment)
			}
			rounds = append(rounds, ar)
			prevAfter = ar.HashAfter
		}
		r.Rounds = append(r.Rounds, v)
	}

	// The current state ends the chain.
	if sb, err := read(fileState); err != nil {
		fail("%v", err)
	} else if st, err := rs.Load(sb); err != nil {
		fail("%s: %v", fileState, err)
	} else {
		h := st.Hash()
		if r.SeedRevealed && StateCommitment(seed, compactJSON(sb)) != m.StateCommitment {
			fail("%s does not give the state commitment %s of the manifest", fileState, m.StateCommitment)
		}
		if st.Round() != m.Round {
			fail("%s is at round %d, but the manifest says %d", fileState, st.Round(), m.Round)
		}
		if prevAfter != "" && h != prevAfter {
			fail("%s (hash %s) is not the state after round %d (%s)", fileState, h, m.Rounds[len(m.Rounds)-1], prevAfter)
		}
	}

	// dice.log must say what the rounds say.
	if db, err := read(fileDice); err != nil {
		fail("%v", err)
	} else if logged, err := parseDiceLog(db); err != nil {
		fail("%s: %v", fileDice, err)
	} else {
		seen := map[int]bool{}
		for _, ar := range rounds {
			seen[ar.Round] = true
			if d := diffDice(ar.Dice, logged[ar.Round], roundFile(ar.Round), fileDice); d != "" {
				roundProblem(r, ar.Round, fmt.Sprintf("%s differs from %s: %s", fileDice, roundFile(ar.Round), d))
			}
		}
		var extra []int
		for n := range logged {
			if !seen[n] {
				extra = append(extra, n)
			}
		}
		sort.Ints(extra)
		for _, n := range extra {
			fail("%s has dice for round %d, which the archive does not hold", fileDice, n)
		}
	}

	if len(uncommitted) > 0 {
		note("rounds %s record no state commitment (archived before commitments), so theirs were not checked", intsText(uncommitted))
	}
	verifyMail(read, &g, m, rounds, fail, note)
	verifyScenario(read, dir, rs, rounds, fail, note)
	r.SeedVerified = commitOK
	for _, v := range r.Rounds {
		r.SeedVerified = r.SeedVerified && v.OK()
	}
	switch {
	case !r.SeedRevealed:
		r.Commitments = "not yet"
	case r.OK():
		r.Commitments = "verified"
	default:
		r.Commitments = "failed"
	}
	return done()
}

// roundProblem adds a problem to a round's verdict.
func roundProblem(r *VerifyReport, round int, p string) {
	for i := range r.Rounds {
		if r.Rounds[i].Round == round {
			r.Rounds[i].Problems = append(r.Rounds[i].Problems, p)
			return
		}
	}
	r.Problems = append(r.Problems, fmt.Sprintf("round %d: %s", round, p))
}

// checkSums checks every file SHA256SUMS lists and returns the set of listed names (nil if the file
// could not be read). Files it does not list are named in a note and otherwise ignored.
func checkSums(dir string, sums []byte, r *VerifyReport, fail, note func(string, ...any)) map[string]bool {
	if sums == nil {
		return nil
	}
	listed := map[string]bool{}
	for i, line := range strings.Split(string(sums), "\n") {
		if line == "" {
			continue
		}
		want, name, ok := strings.Cut(line, " ")
		name = strings.TrimPrefix(name, " ")
		name = strings.TrimPrefix(name, "*")
		if !ok || len(want) != 64 || name == "" {
			fail("%s line %d: want \"HASH  FILE\"", fileSums, i+1)
			continue
		}
		if filepath.IsAbs(name) || strings.Contains("/"+name+"/", "/../") {
			fail("%s line %d: %q is outside the archive", fileSums, i+1, name)
			continue
		}
		listed[name] = true
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			fail("%s: %s is listed but cannot be read: %v", fileSums, name, err)
			continue
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, want) {
			fail("%s: %s has changed (SHA-256 %s, listed %s)", fileSums, name, got, want)
			continue
		}
		r.Files++
	}
	var extra []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if rel != fileSums && !listed[rel] {
			extra = append(extra, rel)
		}
		return nil
	})
	if len(extra) > 0 {
		note("not listed in %s and not part of the check: %s", fileSums, strings.Join(extra, ", "))
	}
	return listed
}

// verifyRound re-adjudicates one round and reports every part that differs. It returns the re-run's
// state after the round as saved bytes (nil if the re-run failed).
func verifyRound(rs ruleset.Ruleset, ar ArchivedRound, seed dice.Seed, seeded bool, bad func(string, ...any)) []byte {
	g, err := rs.Load(ar.StateBefore)
	if err != nil {
		bad("state before: %v", err)
		return nil
	}
	if h := g.Hash(); h != ar.HashBefore {
		bad("the state before hashes to %s, not to its hash before %s", h, ar.HashBefore)
	}
	if g.Round() != ar.Round {
		bad("the state before is at round %d", g.Round())
	}
	var src dice.Source
	var script *dice.Scripted
	if seeded {
		// As resolveRound draws them.
		src = roundDice(seed, ar.Round, ar.Epoch, ar.Keyed)
	} else {
		values := make([]int, len(ar.Dice))
		for i, d := range ar.Dice {
			values[i] = d.Value
		}
		script = dice.NewScripted(values...)
		src = script
	}
	next, log, err := g.Resolve(ar.Orders, src)
	if err != nil {
		bad("the re-run failed: %v", err)
		return nil
	}
	if log == nil {
		log = &ruleset.Log{}
	}
	if log.Round != ar.Round {
		bad("the re-run logged round %d", log.Round)
	}
	if d := diffBytes(compactJSON(ar.Events), compactJSON(log.Events)); d != "" {
		bad("events differ: %s", d)
	}
	if d := diffDice(ar.Dice, log.Dice, "archive", "re-run"); d != "" {
		bad("dice differ: %s", d)
	}
	if script != nil {
		if err := script.Err(); err != nil {
			bad("the recorded dice do not fit the re-run: %v", err)
		} else if n := script.Remaining(); n > 0 {
			bad("%d recorded dice were not thrown in the re-run", n)
		}
	}
	if strings.Join(log.Missed, ",") != strings.Join(ar.Missed, ",") {
		bad("missed orders differ: archive [%s], re-run [%s]", strings.Join(ar.Missed, " "), strings.Join(log.Missed, " "))
	}
	for _, p := range ar.Withdrawn {
		w, ok := next.(ruleset.Withdrawer)
		if !ok {
			bad("the archive withdraws %s after the round, but the ruleset cannot", p)
			break
		}
		if next, err = w.Withdraw(p); err != nil {
			bad("withdrawing %s: %v", p, err)
			return nil
		}
	}
	if h := next.Hash(); h != ar.HashAfter {
		bad("hash after differs: archive %s, re-run %s", ar.HashAfter, h)
	}
	after, err := next.Save()
	if err != nil {
		bad("saving the re-run's state: %v", err)
		return nil
	}
	return after
}

// intsText is numbers separated by commas.
func intsText(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// compactJSON is JSON without insignificant space (the form the ruleset writes); empty reads as null.
func compactJSON(b []byte) []byte {
	if len(bytes.TrimSpace(b)) == 0 {
		return []byte("null")
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}

// diffBytes says where two byte strings first differ, with a little context, or "" if they are equal.
func diffBytes(archive, rerun []byte) string {
	if bytes.Equal(archive, rerun) {
		return ""
	}
	i := 0
	for i < len(archive) && i < len(rerun) && archive[i] == rerun[i] {
		i++
	}
	snip := func(b []byte) string {
		from, to := max(0, i-24), min(len(b), i+24)
		s := strings.ToValidUTF8(string(b[from:to]), "?")
		if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == '`' }) {
			return strconv.Quote(s)
		}
		return "`" + s + "`"
	}
	return fmt.Sprintf("first difference at byte %d: archive %s, re-run %s (%d and %d bytes)", i, snip(archive), snip(rerun), len(archive), len(rerun))
}

// diffDice says where two dice logs first differ, or "". a and b name them.
func diffDice(x, y []dice.Roll, a, b string) string {
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return fmt.Sprintf("roll %d: %s %q, %s %q", i+1, a, x[i].String(), b, y[i].String())
		}
	}
	if len(x) != len(y) {
		return fmt.Sprintf("%d rolls in the %s, %d in the %s", len(x), a, len(y), b)
	}
	return ""
}

// verifyMail checks what the players were told: the first report carries the seed's commitment (a
// failure if not: that mail is the anchor of fair dice), and notes hashes and the seed that appear in
// no mail.
func verifyMail(read func(string) ([]byte, error), g *Game, m Manifest, rounds []ArchivedRound, fail, note func(string, ...any)) {
	data, err := read(fileMbox)
	if err != nil {
		fail("%v", err)
		return
	}
	raw, err := readMbox(data)
	if err != nil {
		fail("%s: %v", fileMbox, err)
		return
	}
	if len(raw) != m.Mails {
		fail("%s holds %d mails, the manifest says %d", fileMbox, len(raw), m.Mails)
	}
	type letter struct{ to, text string }
	var mails []letter
	var all strings.Builder
	for i, b := range raw {
		msg, err := mail.ReadMessage(bytes.NewReader(b))
		if err != nil {
			fail("%s: mail %d: %v", fileMbox, i+1, err)
			continue
		}
		body, _ := io.ReadAll(msg.Body)
		to := ""
		if a, err := mail.ParseAddress(msg.Header.Get("To")); err == nil {
			to = strings.ToLower(a.Address)
		}
		l := letter{to: to, text: string(body)}
		mails = append(mails, l)
		all.WriteString(l.text)
		all.WriteByte('\n')
	}
	if len(mails) == 0 {
		note("%s holds no mail, so the published commitment was not checked", fileMbox)
		return
	}
	// The first mail to a player is the first report: it must publish the commitment. A seat whose
	// own first mail lacks it (a player who joined later under a new address) is only noted.
	firstAny := true
	for i, l := range mails {
		for _, st := range g.Seats {
			if l.to != strings.ToLower(st.Email) {
				continue
			}
			if firstAny && !strings.Contains(l.text, m.Commitment) {
				fail("the first report (mail %d, to %s) does not publish the commitment %s", i+1, st.Player, m.Commitment)
			}
			firstAny = false
		}
	}
	for _, st := range g.Seats {
		first := -1
		for i, l := range mails {
			if l.to == strings.ToLower(st.Email) {
				first = i
				break
			}
		}
		switch {
		case first < 0:
			note("%s holds no mail to %s (%s)", fileMbox, st.Player, st.Email)
		case !strings.Contains(mails[first].text, m.Commitment):
			note("the first mail to %s (%s) does not show the commitment", st.Player, st.Email)
		}
	}
	text := all.String()
	var unpublished []string
	for i, ar := range rounds {
		if i == 0 && m.Seed != "" {
			if seed, err := dice.ParseSeed(m.Seed); err == nil && !strings.Contains(text, StateCommitment(seed, compactJSON(ar.StateBefore))) {
				unpublished = append(unpublished, fmt.Sprintf("the commitment to the state before round %d", ar.Round))
			}
		}
		if ar.Commitment != "" && !strings.Contains(text, ar.Commitment) {
			unpublished = append(unpublished, fmt.Sprintf("the commitment after round %d", ar.Round))
		}
	}
	if len(unpublished) > 0 {
		note("no mail in %s shows %s", fileMbox, strings.Join(unpublished, ", "))
	}
	if m.Seed != "" && !strings.Contains(text, m.Seed) {
		note("no mail in %s reveals the seed", fileMbox)
	}
}

// verifyScenario checks that the scenario gives the first round's starting state.
func verifyScenario(read func(string) ([]byte, error), dir string, rs ruleset.Ruleset, rounds []ArchivedRound, fail, note func(string, ...any)) {
	if len(rounds) == 0 {
		return
	}
	b, err := read(fileScenario)
	if err != nil {
		fail("%v", err)
		return
	}
	// The archive holds the scenario but not the files it included; their contents are in the state
	// (a tables file, say), so the starting position is checked when the scenario includes none.
	part, err := GamePart(b)
	if err != nil {
		fail("%s: %v", fileScenario, err)
		return
	}
	g, err := rs.NewGame(part, nil, filepath.Join(dir, fileScenario))
	if err != nil {
		note("%s could not be read again (%v), so round %d's starting position was not checked against it", fileScenario, firstLine(err.Error()), rounds[0].Round)
		return
	}
	if h := g.Hash(); h != rounds[0].HashBefore {
		fail("%s does not give round %d's starting state (hash %s, archive %s)", fileScenario, rounds[0].Round, h, rounds[0].HashBefore)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
