package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/mail"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/emersion/go-message"

	"sortie/adjudicator"
	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

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
	Commitments string `json:"commitments"`
	// Mailed is how many different state commitments the archive's mails showed the players; each must
	// be one the archive gives (and, once the seed is revealed, recomputed from its state).
	Mailed int            `json:"mailed_commitments"`
	Rounds []RoundVerdict `json:"rounds"`
	// Timelines are the closed timelines of rollbacks, a sentence each.
	Timelines []string `json:"timelines,omitempty"`
	// Problems are failures not tied to one round; Notes what a reader should know but is no failure.
	Problems []string `json:"problems"`
	Notes    []string `json:"notes"`
}

// RoundVerdict is one round's result. Dice says how the round was re-run: "seed" (drawn again from the
// revealed seed) or "recorded" (the archived values replayed; the seed is not yet known).
type RoundVerdict struct {
	Round int `json:"round"`
	// Timeline is, for a round a rollback discarded, its closed timeline's number; 0 for a round of the
	// game as it stands.
	Timeline int      `json:"timeline,omitempty"`
	Dice     string   `json:"dice"`
	Rolls    int      `json:"rolls"`
	Problems []string `json:"problems"`
}

// name is how the report names the round: "round 3", or "timeline 1, round 3".
func (v RoundVerdict) name() string {
	if v.Timeline > 0 {
		return fmt.Sprintf("timeline %d, round %d", v.Timeline, v.Round)
	}
	return fmt.Sprintf("round %d", v.Round)
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
			out = append(out, fmt.Sprintf("%s: %s", v.name(), p))
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
			fmt.Fprintf(&b, "%s: ok (%d dice, %s)\n", v.name(), v.Rolls, how)
			continue
		}
		fmt.Fprintf(&b, "%s: FAILED (%s)\n", v.name(), how)
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
	for _, t := range r.Timelines {
		fmt.Fprintf(&b, "rolled back: %s\n", t)
	}
	switch r.Commitments {
	case "verified":
		fmt.Fprintf(&b, "state commitments: every one the players were shown (%d in the mails) was recomputed from the seed and matches\n", r.Mailed)
	case "not yet":
		fmt.Fprintf(&b, "state commitments: %d in the mails, each one the archive gives; they cannot be recomputed yet: they are keyed by the seed, revealed when the game is over\n", r.Mailed)
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
		if len(r.Timelines) > 0 {
			b.WriteString("(counting the rounds of the rolled-back timelines)\n")
		}
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
func Verify(dir string, opts ...Option) (*VerifyReport, error) {
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
	if m.Format != Format {
		fail("%s: format %q is not %q", fileManifest, m.Format, Format)
		return done()
	}
	if m.FormatVersion < 1 || m.FormatVersion > FormatVersion {
		fail("%s: archive format version %d; this sortie reads versions 1 to %d", fileManifest, m.FormatVersion, FormatVersion)
		return done()
	}
	rs, err := rulesetsOf(opts).Get(m.Ruleset)
	if err != nil {
		fail("%s: %v", fileManifest, err)
		return done()
	}
	if r.CurrentRules, err = RulesVersion(m.Ruleset, opts...); err != nil {
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
	} else if m.Status == adjudicator.StatusOver {
		fail("%s: the game is over but the seed is missing", fileManifest)
	}

	// The game record must agree with the manifest.
	var g adjudicator.Game
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
			case after != nil && adjudicator.StateCommitment(seed, after) != ar.Commitment:
				bad("the state after does not give the commitment the players were shown (%s)", ar.Commitment)
			}
			rounds = append(rounds, ar)
			prevAfter = ar.HashAfter
		}
		r.Rounds = append(r.Rounds, v)
	}

	// The current state ends the chain.
	stateHash := ""
	if sb, err := read(fileState); err != nil {
		fail("%v", err)
	} else if st, err := rs.Load(sb); err != nil {
		fail("%s: %v", fileState, err)
	} else {
		h := st.Hash()
		stateHash = h
		if r.SeedRevealed && adjudicator.StateCommitment(seed, compactJSON(sb)) != m.StateCommitment {
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

	// The closed timelines: every round a rollback discarded, re-run like the others.
	discarded := verifyTimelines(r, read, rs, m, rounds, stateHash, seed)

	if len(uncommitted) > 0 {
		note("rounds %s record no state commitment (archived before commitments), so theirs were not checked", intsText(uncommitted))
	}
	r.Mailed = verifyMail(read, &g, m, rounds, discarded, seed, r.SeedRevealed, fail, note)
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
		src = adjudicator.RoundDice(seed, ar.Round, ar.Epoch, ar.Keyed)
		if ar.Stream != "" {
			src = adjudicator.StreamDice(seed, ar.Stream, ar.Keyed)
		}
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
// It also accounts for every state commitment a mail showed: each must be one the archive gives (the
// commitment to a state before or after a round of any timeline, or to the current state), and once the
// seed is revealed each of those is recomputed from its state. It returns how many different state
// commitments the mails showed.
func verifyMail(read func(string) ([]byte, error), g *adjudicator.Game, m Manifest, rounds, discarded []ArchivedRound, seed dice.Seed, revealed bool, fail, note func(string, ...any)) int {
	data, err := read(fileMbox)
	if err != nil {
		fail("%v", err)
		return 0
	}
	raw, err := readMbox(data)
	if err != nil {
		fail("%s: %v", fileMbox, err)
		return 0
	}
	inMbox := m.Mails
	if m.FormatVersion >= 2 {
		inMbox = verifyMailIndex(read, m, raw, fail)
	}
	if len(raw) != inMbox {
		fail("%s holds %d mails, the manifest says %d", fileMbox, len(raw), inMbox)
	}
	type letter struct{ to, text string }
	var mails []letter
	var all strings.Builder
	for i, b := range raw {
		to, text, err := mailText(b)
		if err != nil {
			fail("%s: mail %d: %v", fileMbox, i+1, err)
			continue
		}
		l := letter{to: strings.ToLower(to), text: text}
		mails = append(mails, l)
		all.WriteString(l.text)
		all.WriteByte('\n')
	}
	if len(mails) == 0 {
		note("%s holds no mail, so the published commitment was not checked", fileMbox)
		return 0
	}
	mailed := mailedCommitments(mails, func(l letter) string { return l.text })
	known := knownCommitments(m, append(append([]ArchivedRound(nil), rounds...), discarded...), seed, revealed, fail)
	for _, c := range mailed {
		if known[c.commitment] {
			continue
		}
		if revealed || m.FormatVersion >= 3 {
			fail("mail %d of %s shows the state commitment %s, which no state in the archive gives", c.mail, fileMbox, c.commitment)
		} else {
			note("mail %d of %s shows the state commitment %s, which this archive (format %d) cannot account for before the seed is revealed", c.mail, fileMbox, c.commitment, m.FormatVersion)
		}
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
			if seed, err := dice.ParseSeed(m.Seed); err == nil && !strings.Contains(text, adjudicator.StateCommitment(seed, compactJSON(ar.StateBefore))) {
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
	return len(mailed)
}

// verifyMailIndex checks mail.json against the manifest and the mbox: one entry per mail of the game,
// and the mails it places in the mbox there in order, under their Message-IDs. It returns how many mails
// the mbox should hold.
func verifyMailIndex(read func(string) ([]byte, error), m Manifest, raw [][]byte, fail func(string, ...any)) int {
	data, err := read(fileMails)
	if err != nil {
		fail("%v", err)
		return m.Mails
	}
	var entries []MailEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		fail("%s: %v", fileMails, err)
		return m.Mails
	}
	if len(entries) != m.Mails {
		fail("%s lists %d mails, the manifest says %d", fileMails, len(entries), m.Mails)
	}
	n := 0
	for i, e := range entries {
		if e.Mbox == 0 {
			continue
		}
		n++
		if e.Mbox != n {
			fail("%s: mail %d is number %d in %s, want %d", fileMails, i+1, e.Mbox, fileMbox, n)
			continue
		}
		if n <= len(raw) {
			if msg, err := mail.ReadMessage(bytes.NewReader(raw[n-1])); err == nil && strings.Trim(msg.Header.Get("Message-ID"), "<>") != e.MessageID {
				fail("%s: mail %d is %s, but mail %d of %s is %s", fileMails, i+1, e.MessageID, n, fileMbox, msg.Header.Get("Message-ID"))
			}
		}
	}
	return n
}

// mailText is the recipient of a mail of the mbox and its text: every text/plain part that is not an
// attachment, decoded, one after the other. An HTML alternative and pictures add nothing: the HTML is
// made from the same text.
func mailText(raw []byte) (to, text string, err error) {
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
		return "", "", err
	}
	if a, err := mail.ParseAddress(e.Header.Get("To")); err == nil {
		to = a.Address
	}
	var b strings.Builder
	err = e.Walk(func(_ []int, part *message.Entity, err error) error {
		if err != nil {
			return err
		}
		mt, _, _ := part.Header.ContentType()
		disp, _, _ := part.Header.ContentDisposition()
		if mt != "text/plain" && mt != "" || disp == "attachment" {
			return nil
		}
		body, err := io.ReadAll(part.Body)
		if err != nil {
			return err
		}
		b.Write(body)
		return nil
	})
	return to, strings.ReplaceAll(b.String(), "\r\n", "\n"), err
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
	part, err := adjudicator.GamePart(b)
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
