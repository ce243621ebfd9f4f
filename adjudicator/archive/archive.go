package archive

// Package archive writes a game out of the database into a folder that anyone can check with
// `sortie verify` (docs/archives.md), and checks such a folder.
//
// An archive holds every resolved round as the service kept it (the state before, the orders, the
// events, the dice, the hashes), the current state, every mail of the game as an mbox, the dice log,
// the rules version and a manifest, with SHA256SUMS over all of it. Verify re-adjudicates every round
// with this build's rules and compares the result byte for byte; once the game is over the manifest
// holds the seed, and the dice are drawn from it again instead of being replayed as recorded.
//
// The package reads the database only through adjudicator.Service.Record, and withholds what a
// published archive must not show (player secrets, reply tokens, the seed while the game runs).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sortie/adjudicator"
	"sortie/rules/dice"
	"sortie/rules/ruleset"
	"sortie/storage"
	"strings"
	"time"
)

// Format names the layout WriteDir writes and Verify reads; FormatVersion is its version.
// A change that an older Verify could misread gets a new version.
//
// Version 2: mail.mbox holds each mail as it was sent (MIME, quoted-printable text, parts), and
// mail.json says where each mail stands. Version 3: the rounds a rollback discarded stay, as closed
// timelines (timelines/NNNN/NNNN.json, listed in the manifest), and each round records the commitment
// to its state before. Verify reads versions 1 to 3.
const (
	Format        = "sortie-archive"
	FormatVersion = 3
)

// The files of an archive folder.
const (
	fileManifest = "manifest.json"
	fileGame     = "game.json"
	fileScenario = "scenario.yaml"
	fileState    = "state.json"
	fileMbox     = "mail.mbox"
	fileMails    = "mail.json"
	fileDice     = "dice.log"
	fileSums     = "SHA256SUMS"
	dirRounds    = "rounds"
	dirTimelines = "timelines"
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
	// Mails is how many mails the game queued: the entries of mail.json, and of mail.mbox but for any
	// that could not be made into a mail (mail.json says which).
	Mails int `json:"mails"`
	// Timelines are the moderator's rollbacks, oldest first, each with the rounds it discarded
	// (timelines/NNNN/NNNN.json): what the players were shown before the game was rolled back.
	Timelines []Timeline `json:"timelines,omitempty"`
}

// Timeline is one rollback and the rounds it discarded: the game was on round From and went back to the
// start of round To at RolledBack; Rounds are the rounds To..From-1 as they were played.
type Timeline struct {
	Timeline   int       `json:"timeline"`
	From       int       `json:"from"`
	To         int       `json:"to"`
	RolledBack time.Time `json:"rolled_back"`
	Rounds     []int     `json:"rounds"`
	// Text says it in a sentence: "turns 3 to 4 were played, then rolled back by the moderator on …".
	Text string `json:"text"`
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
	Keyed bool `json:"keyed,omitempty"`
	// Stream names the round's dice stream when the ruleset chose one; empty, the round's own.
	Stream     string    `json:"stream,omitempty"`
	Resolved   time.Time `json:"resolved"`
	HashBefore string    `json:"hash_before"`
	HashAfter  string    `json:"hash_after"`
	// Commitment is the commitment to the state after the round that the players were shown;
	// CommitBefore the one to the state before, which a position mail after a rollback shows (rounds
	// archived before format 3 have none).
	Commitment   string `json:"commitment,omitempty"`
	CommitBefore string `json:"commit_before,omitempty"`
	// Timeline is, for a round a rollback discarded, the number of the timeline it belongs to
	// (timelines/NNNN/); 0 for a round of the game as it stands.
	Timeline int               `json:"timeline,omitempty"`
	Orders   map[string]string `json:"orders"`
	Missed   []string          `json:"missed,omitempty"`
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
	Manifest Manifest         `json:"manifest"`
	Game     adjudicator.Game `json:"game"`     // secrets and reply tokens blanked; the seed only when over
	Scenario string           `json:"scenario"` // as loaded, with secrets (and a fixed seed) withheld
	Rounds   []ArchivedRound  `json:"rounds"`
	// Discarded are the rounds of the closed timelines (ArchivedRound.Timeline), by timeline then round.
	Discarded []ArchivedRound `json:"discarded,omitempty"`
	State     json.RawMessage `json:"state"`
	// Mails are every mail the game queued, in outbox order, with secrets and reply tokens withheld.
	Mails    []storage.Outgoing `json:"mails"`
	FromName string             `json:"from_name"` // the display name on the service's mail
}

// Export reads one game from the service, in one read transaction, into an archive: the game record
// without player secrets and reply tokens, every archived round in order, the current state, every
// mail of the game and a manifest. The seed is included only when the game is over.
func Export(s *adjudicator.Service, gameID string) (*Archive, error) {
	rec, err := s.Record(gameID)
	if err != nil {
		return nil, err
	}
	return New(rec, WithRulesets(s.Rulesets()))
}

// New makes an archive of a game record, withholding the secrets, the reply tokens and, while the game
// runs, the seed.
func New(rec *adjudicator.GameRecord, opts ...Option) (*Archive, error) {
	g := &rec.Game
	over := g.Status == adjudicator.StatusOver
	a := &Archive{FromName: rec.FromName, State: rec.State, Rounds: make([]ArchivedRound, 0, len(rec.Rounds))}
	for _, r := range rec.Rounds {
		a.Rounds = append(a.Rounds, ArchivedRound(r)) // the same fields; the JSON names are the archive's
	}
	for _, r := range rec.Discarded {
		a.Discarded = append(a.Discarded, ArchivedRound(r))
	}
	red := newRedactor(g)
	a.Mails = make([]storage.Outgoing, len(rec.Mails))
	copy(a.Mails, rec.Mails)
	for i := range a.Mails {
		red.mail(&a.Mails[i])
	}
	scenario, err := redactScenario(rec.Scenario, !over)
	if err != nil {
		return nil, fmt.Errorf("game %s: scenario: %w", g.ID, err)
	}
	a.Scenario = red.text(scenario) // a secret also written in a comment, say
	a.Game = *g
	a.Game.Scenario, a.Game.ModSecret = "", ""
	a.Game.Seats = append([]adjudicator.Seat(nil), g.Seats...)
	for i := range a.Game.Seats {
		a.Game.Seats[i].Secret, a.Game.Seats[i].Token, a.Game.Seats[i].LinkNonce = "", "", ""
	}
	if !over {
		a.Game.Seed = ""
	}
	version, err := RulesVersion(g.Ruleset, opts...)
	if err != nil {
		return nil, err
	}
	a.Manifest = Manifest{Format: Format, FormatVersion: FormatVersion, Game: g.ID, Name: g.Name,
		Ruleset: g.Ruleset, RulesVersion: version, Sortie: sortieBuild(), Created: g.Created, Exported: rec.Read,
		Status: g.Status, Result: g.Result, Round: g.Round, Rounds: []int{}, StateCommitment: rec.StateCommitment,
		Commitment: g.Commitment, Mails: len(a.Mails)}
	if over {
		a.Manifest.Seed = g.Seed
	}
	for _, r := range a.Rounds {
		a.Manifest.Rounds = append(a.Manifest.Rounds, r.Round)
	}
	noun := "turn"
	if rs, err := rulesetsOf(opts).Get(g.Ruleset); err == nil {
		if rg, err := rs.Load(rec.State); err == nil {
			noun = ruleset.RoundNoun(rg)
		}
	}
	for _, rb := range g.Rollbacks {
		t := Timeline{Timeline: rb.Epoch, From: rb.From, To: rb.To, RolledBack: rb.At, Rounds: []int{}, Text: adjudicator.RollbackText(rb, noun)}
		for _, r := range a.Discarded {
			if r.Timeline == rb.Epoch {
				t.Rounds = append(t.Rounds, r.Round)
			}
		}
		a.Manifest.Timelines = append(a.Manifest.Timelines, t)
	}
	return a, nil
}

// timelineFile is the name of a discarded round's file in the archive.
func timelineFile(timeline, n int) string {
	return fmt.Sprintf("%s/%04d/%04d.json", dirTimelines, timeline, n)
}

// roundFile is the name of a round's file in the archive.
func roundFile(n int) string { return fmt.Sprintf("%s/%04d.json", dirRounds, n) }

// WriteDir writes the archive into dir, which must not exist or be empty: manifest.json, game.json,
// scenario.yaml, rounds/NNNN.json, state.json, mail.mbox, mail.json, dice.log and SHA256SUMS over all of
// them.
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
	for _, t := range a.Manifest.Timelines {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, filepath.FromSlash(timelineFile(t.Timeline, 0)))), 0o700); err != nil {
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
	for _, r := range a.Discarded {
		if err := put(timelineFile(r.Timeline, r.Round), r); err != nil {
			return nil, err
		}
	}
	scenario := a.Scenario
	if scenario != "" && !strings.HasSuffix(scenario, "\n") {
		scenario += "\n"
	}
	files[fileScenario] = []byte(scenario)
	files[fileDice] = diceLog(a.Rounds)
	var entries []MailEntry
	files[fileMbox], entries = mbox(a.Mails, a.FromName)
	if err := put(fileMails, entries); err != nil {
		return nil, err
	}
	return files, nil
}
