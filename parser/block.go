package parser

// This file reads the order block: the part of a player's mail that Sortie acts on. A mail holds
// greetings, a signature and perhaps a quoted report around it; the block starts at the first line whose
// first word is GAME and ends at END. It holds a header (game, turn guard, secret, player), commands, and
// one order line per aircraft. Every problem is reported at once, by line and column. The player's guide
// is docs/orders.md; its ```orderblock examples are checked by orders_doc_test.go.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits of a block. Beyond them the block is refused as a whole; nothing in a mail can make the parser
// work for long (every line is read once, and at most MaxBlockLines of them closely).
const (
	MaxBlockLines = 200 // lines from GAME to END, both included, blank ones too
	MaxBlockItems = 100 // order lines and command lines together
	MaxLineRunes  = 500 // characters in one line of the block
	MaxIDRunes    = 40  // characters in a game name, a secret or a player id
	MaxTurn       = 99999
)

// Diagnostic codes of the order block. Order lines also carry the codes of ParseOrderLine (order-line, the
// notation's codes, the fire codes).
const (
	CodeNoBlock       = "no-block"        // no GAME line in the mail (and no HELP line)
	CodeBlockHeader   = "block-header"    // a word in the header that is no header field; a second GAME line
	CodeGameID        = "game-id"         // GAME without a name, or a name that is not 1-40 letters, digits, - and _
	CodeTurnNumber    = "turn-number"     // TURN without a whole number from 1 to MaxTurn
	CodeSecretForm    = "secret-form"     // SECRET without a word of 1-40 letters, digits, - and _
	CodePlayerID      = "player-id"       // PLAYER without an id of 1-40 letters, digits, - and _
	CodeDuplicateFld  = "duplicate-field" // a header field given twice (an error when the values differ)
	CodeUnknownCmd    = "unknown-command" // a line that is no command, header field or order line
	CodeCommandArgs   = "command-args"    // a command with words after it that it does not take
	CodeTooManyLines  = "too-many-lines"  // more than MaxBlockLines lines
	CodeTooManyOrders = "too-many-orders" // more than MaxBlockItems orders and commands
	CodeLineTooLong   = "line-too-long"   // a line of more than MaxLineRunes characters

	// Warnings: the block was read, and the message says how.
	CodeDuplicateOrder = "duplicate-order"   // a second order for one callsign: the later line replaces the earlier
	CodeDuplicateCmd   = "duplicate-command" // the same command twice: once is enough
	CodeWaitReady      = "wait-ready"        // WAIT and READY in one block: the later one counts
	CodeCleared        = "cleared"           // CLEAR withdrew an order written above it in the same block
	CodeEmptyOrder     = "empty-order"       // "RED1:" with nothing after it (an unfilled template line)
	CodeEndLine        = "end-line"          // words after END, ignored
	CodeAfterBlock     = "after-block"       // an order-like line after a block ended by quoted text, not read
)

// blockCodes are the error codes that refuse the whole block: without a sound header Sortie cannot tell
// whose orders these are or for which turn, and a block over the limits is not read at all.
var blockCodes = map[string]bool{
	CodeNoBlock: true, CodeBlockHeader: true, CodeGameID: true, CodeTurnNumber: true, CodeSecretForm: true,
	CodePlayerID: true, CodeDuplicateFld: true, CodeTooManyLines: true, CodeTooManyOrders: true,
	CodeLineTooLong: true,
}

// LineDiagnostic is a Diagnostic positioned in a mail: Line is 1-based within the text given to
// ParseBlock (0 when it is about the whole mail), Col is 1-based in runes within that line.
type LineDiagnostic struct {
	Line int
	Diagnostic
}

// Error formats the diagnostic as "line 3, col 5: message (did you mean X?)".
func (d LineDiagnostic) Error() string {
	if d.Line <= 0 {
		return d.Diagnostic.Error()
	}
	s := d.Diagnostic.Error()
	if d.Col > 0 {
		return "line " + strconv.Itoa(d.Line) + ", " + s
	}
	return "line " + strconv.Itoa(d.Line) + ": " + s
}

// HasLineErrors reports whether any diagnostic is an error (warnings do not count).
func HasLineErrors(ds []LineDiagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// BlockRefused reports whether an error refuses the whole block: no block, a faulty header, a line too
// long, or a block over the limits. Otherwise each order and command line stands or falls alone: errors on
// an order line put it in Block.Refused, errors on a command line leave it out of Block.Commands.
func BlockRefused(ds []LineDiagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError && blockCodes[d.Code] {
			return true
		}
	}
	return false
}

// BlockOrder is one order line of a block.
type BlockOrder struct {
	Callsign string // upper case
	// Text is the order as written after the colon, for the game's ruleset to read in its own notation.
	// Equality compares it without the spaces around it.
	Text string
	Line int // 1-based line in the mail; not part of equality
	// Column is the rune column of Text's first rune in its line (1-based; not part of equality), so a
	// problem the ruleset finds at column c of Text is at column Column+c-1 of the line.
	Column int
}

// Notation is what a game's order notation tells the block parser about the lines it cannot place, so
// that its hints speak that game's language. With none, the hints are generic.
type Notation interface {
	// LooksLikeOrder reports whether text, a line or the part of one after a callsign, reads as an
	// order of the game (so a missing callsign or colon is the likely mistake).
	LooksLikeOrder(text string) bool
	// ExampleOrder is an order line to show in hints, e.g. "RED1: 2R 1 TR FIRE ANY".
	ExampleOrder() string
}

// Command is one command line of a block, e.g. {RESEND [TURN 2] 7}. Name is upper case; Args are in the
// command's canonical form, so Name and Args joined by spaces is the canonical line.
type Command struct {
	Name string
	Args []string
	Line int // 1-based line in the mail; not part of equality
}

// String prints the command canonically: "RESEND TURN 2", "CLEAR RED1", "STATUS".
func (c Command) String() string {
	if len(c.Args) == 0 {
		return c.Name
	}
	return c.Name + " " + strings.Join(c.Args, " ")
}

// Block is what Sortie read from a mail.
type Block struct {
	Game     string // lower case; "" when missing or unreadable
	Turn     int    // the turn guard; 0 if not given
	Secret   string // as written; "" if not given
	Player   string // lower case; "" if not given
	Orders   []BlockOrder
	Commands []Command
	// Refused holds the order lines with errors, one per callsign (a later line replaces an earlier one
	// here too): that unit's order from this mail is refused.
	Refused  []BlockOrder
	Found    bool // a GAME line was found
	HelpOnly bool // no GAME line, but a line HELP: a request for the guide (Commands holds that HELP)
}

// Canonical prints the block the way Sortie echoes it: the header without the secret, the commands, the
// orders, END. Refused lines are not printed. A help-only block prints as HELP; no block prints as "".
func (b Block) Canonical() string { return b.canonical(false) }

// CanonicalWithSecret is Canonical with SECRET in the header. ParseBlock of it gives an Equal block.
// Never log or mail it to anyone but its owner.
func (b Block) CanonicalWithSecret() string { return b.canonical(true) }

func (b Block) canonical(secret bool) string {
	if !b.Found {
		if b.HelpOnly {
			return "HELP\n"
		}
		return ""
	}
	var s strings.Builder
	s.WriteString("GAME ")
	s.WriteString(b.Game)
	if b.Turn > 0 {
		s.WriteString(" TURN ")
		s.WriteString(strconv.Itoa(b.Turn))
	}
	if secret && b.Secret != "" {
		s.WriteString(" SECRET ")
		s.WriteString(b.Secret)
	}
	if b.Player != "" {
		s.WriteString(" PLAYER ")
		s.WriteString(b.Player)
	}
	s.WriteByte('\n')
	// Commands before orders: a CLEAR only ever withdraws what is written above it, and the orders left in
	// a block are those written after any CLEAR that concerns them.
	for _, c := range b.Commands {
		s.WriteString(c.String())
		s.WriteByte('\n')
	}
	for _, o := range b.Orders {
		s.WriteString(o.Callsign)
		s.WriteString(": ")
		s.WriteString(strings.TrimSpace(o.Text))
		s.WriteByte('\n')
	}
	s.WriteString("END\n")
	return s.String()
}

// Equal compares two blocks, ignoring line numbers, the spaces around order texts and the texts of
// refused lines (their callsigns count).
func (b Block) Equal(o Block) bool {
	if b.Game != o.Game || b.Turn != o.Turn || b.Secret != o.Secret || b.Player != o.Player ||
		b.Found != o.Found || b.HelpOnly != o.HelpOnly || len(b.Orders) != len(o.Orders) ||
		len(b.Commands) != len(o.Commands) || len(b.Refused) != len(o.Refused) {
		return false
	}
	for i, x := range b.Orders {
		if x.Callsign != o.Orders[i].Callsign || strings.TrimSpace(x.Text) != strings.TrimSpace(o.Orders[i].Text) {
			return false
		}
	}
	for i, x := range b.Refused {
		if x.Callsign != o.Refused[i].Callsign {
			return false
		}
	}
	for i, c := range b.Commands {
		if c.Name != o.Commands[i].Name || !slices.Equal(c.Args, o.Commands[i].Args) {
			return false
		}
	}
	return true
}

// commandSpec describes one command: its name, how it is written, and how its arguments are read. check
// gets the command word and the words after it and returns the arguments in canonical form.
type commandSpec struct {
	name  string
	usage string
	check func(cmd blockWord, args []blockWord) ([]string, []Diagnostic)
	// help says what a player's command does, for the guides (Commands); moderators' commands have none.
	// A second line starts with a line break and is indented to the guides' column (18).
	help string
}

// blockCommands are the commands of a block, in the order the guide and the messages list them. Moderator
// commands go here too; each needs a section in docs/orders.md (or the moderator's guide).
var blockCommands = []commandSpec{
	{"STATUS", "STATUS", noArgs, "what you have on file and who is still missing, with nothing changed"},
	{"RESEND", "RESEND [TURN n]", resendArgs, "your last report again (RESEND TURN n for an older one)"},
	{"HELP", "HELP", noArgs, "this list"},
	{"CLEAR", "CLEAR [callsign]", clearArgs, "withdraw your orders for this turn (CLEAR and a callsign for one unit)"},
	{"WAIT", "WAIT", noArgs, "hold the round for you until the deadline or READY"},
	{"READY", "READY", noArgs, "stop holding the round"},
	{"AWAY", "AWAY YYYY-MM-DD [player]", awayArgs, "you are away until that day (at most 90 days ahead): the turns do not wait for\n                  you and it does not count as missed turns; everyone is told"},
	{"BACK", "BACK [player]", playerArg, "you are back before that day"},
	// Moderator commands: accepted only in a block signed with the game's moderator secret from the
	// moderator's address (docs/operations.md).
	{"PAUSE", "PAUSE", noArgs, ""},
	{"RESUME", "RESUME", noArgs, ""},
	{"EXTEND", "EXTEND hours", extendArgs, ""},
	{"PROCESS", "PROCESS TURN n", turnArg, ""},
	{"ROLLBACK", "ROLLBACK TURN n", turnArg, ""},
	{"REPLACE", "REPLACE player address", replaceArgs, ""},
	{"RENEW", "RENEW player", renewArgs, ""},
	{"DIGEST", "DIGEST", noArgs, ""},
}

// ModeratorCommands are the commands only a game's moderator may give.
var ModeratorCommands = []string{"PAUSE", "RESUME", "EXTEND", "PROCESS", "ROLLBACK", "REPLACE", "RENEW", "DIGEST"}

func awayArgs(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	const usage = "write AWAY and the last day you are away, e.g. AWAY 2026-12-24"
	if len(args) == 0 || len(args) > 2 {
		return nil, []Diagnostic{argError(cmd.col, "%s", usage)}
	}
	if _, err := time.Parse("2006-01-02", args[0].text); err != nil {
		return nil, []Diagnostic{argError(args[0].col, "%q is not a date: %s", args[0].text, usage)}
	}
	out := []string{args[0].text}
	if len(args) == 2 {
		if !isIDWord(args[1].text) {
			return nil, []Diagnostic{argError(args[1].col, "%q is not a player id", args[1].text)}
		}
		out = append(out, strings.ToLower(args[1].text))
	}
	return out, nil
}

func playerArg(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	switch {
	case len(args) == 0:
		return nil, nil
	case len(args) > 1 || !isIDWord(args[0].text):
		return nil, []Diagnostic{argError(args[0].col, "%s takes at most a player id", strings.ToUpper(cmd.text))}
	}
	return []string{strings.ToLower(args[0].text)}, nil
}

func extendArgs(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	if len(args) != 1 {
		return nil, []Diagnostic{argError(cmd.col, "write EXTEND and the hours to add to the deadline, e.g. EXTEND 24")}
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.ToLower(args[0].text), "h"))
	if err != nil || n < 1 || n > 720 {
		return nil, []Diagnostic{argError(args[0].col, "%q: EXTEND takes whole hours from 1 to 720", args[0].text)}
	}
	return []string{strconv.Itoa(n)}, nil
}

func turnArg(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	up := strings.ToUpper(cmd.text)
	usage := fmt.Sprintf("write %s TURN n, naming the turn the game is on, so an old mail cannot do it twice", up)
	if len(args) > 0 && strings.EqualFold(args[0].text, "TURN") {
		args = args[1:]
	}
	if len(args) != 1 {
		return nil, []Diagnostic{argError(cmd.col, "%s", usage)}
	}
	n, ok := parseTurn(args[0].text)
	if !ok {
		return nil, []Diagnostic{argError(args[0].col, "%q is not a turn number: %s", args[0].text, usage)}
	}
	return []string{strconv.Itoa(n)}, nil
}

func replaceArgs(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	if len(args) != 2 || !isIDWord(args[0].text) || !strings.Contains(args[1].text, "@") {
		return nil, []Diagnostic{argError(cmd.col, "write REPLACE, the player id and the new player's mail address, e.g. REPLACE bob carol@example.org")}
	}
	return []string{strings.ToLower(args[0].text), strings.ToLower(args[1].text)}, nil
}

func renewArgs(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	if len(args) != 1 || !isIDWord(args[0].text) {
		return nil, []Diagnostic{argError(cmd.col, "write RENEW and the player id, e.g. RENEW bob: the player gets a new secret, reply address and web link")}
	}
	return []string{strings.ToLower(args[0].text)}, nil
}

// headerFields are the words that may follow GAME <name>, or start a line of their own.
var headerFields = []string{"TURN", "SECRET", "PLAYER"}

// blockKeywords are the words a block's lines start with: END, the commands, the header fields and GAME,
// in the order suggestions list them.
var blockKeywords = func() []string {
	ks := []string{"END"}
	for _, c := range blockCommands {
		ks = append(ks, c.name)
	}
	return append(append(ks, headerFields...), "GAME")
}()

// keyword is the block keyword that w reads as, in upper case, or "" when w is none: the keyword equal
// to strings.ToUpper(w), found without upper-casing an ASCII word.
func keyword(w string) string {
	ascii := IsASCII(w)
	if !ascii {
		w = strings.ToUpper(w) // "ſtatus" reads as STATUS, as it always has
	}
	for _, k := range blockKeywords {
		if len(w) != len(k) || w[0]|0x20 != k[0]|0x20 { // keywords start with a letter: a cheap first look
			continue
		}
		if w == k || ascii && strings.EqualFold(w, k) {
			return k
		}
	}
	if strings.EqualFold(w, RoundWord) {
		return "TURN"
	}
	return ""
}

// RoundWord may stand for TURN on a block's header: a game whose rounds are not turns numbers its
// rounds with it ("GAME imp1 ROUND 4"), and it is the same field as TURN.
const RoundWord = "ROUND"

func lookupCommand(up string) *commandSpec {
	for i := range blockCommands {
		if blockCommands[i].name == up {
			return &blockCommands[i]
		}
	}
	return nil
}

func isHeaderField(up string) bool { return slices.Contains(headerFields, up) }

// CommandHelp is one command as the guides list it: how it is written, and what it does.
type CommandHelp struct {
	Name, Word, Help string
}

// Commands are the players' commands, in the order the guides list them: the one list every guide
// (the HELP mail, a receipt's HELP) is made from. Word is the command as a player writes it alone
// ("AWAY YYYY-MM-DD" for AWAY).
func Commands() []CommandHelp {
	var out []CommandHelp
	for _, c := range blockCommands {
		if slices.Contains(ModeratorCommands, c.name) {
			continue
		}
		word := c.name
		if c.name == "AWAY" {
			word = "AWAY YYYY-MM-DD"
		}
		out = append(out, CommandHelp{Name: c.name, Word: word, Help: c.help})
	}
	return out
}

// ModeratorUsage is every command a moderator may give, as written ("PAUSE", "EXTEND hours", …, and
// STATUS, AWAY and BACK, which the moderator gives for any player), in the guides' order.
func ModeratorUsage() []string {
	out := []string{}
	for _, c := range blockCommands {
		if slices.Contains(ModeratorCommands, c.name) {
			out = append(out, c.usage)
		}
	}
	return append(out, "AWAY YYYY-MM-DD player", "BACK player", "STATUS")
}

// commandList is "STATUS, RESEND, HELP, CLEAR, WAIT and READY".
func commandList() string {
	var names []string
	for _, c := range blockCommands {
		if !slices.Contains(ModeratorCommands, c.name) {
			names = append(names, c.name)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func argError(col int, format string, args ...any) Diagnostic {
	return Diagnostic{Code: CodeCommandArgs, Col: col, Severity: SeverityError, Message: fmt.Sprintf(format, args...)}
}

func noArgs(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	if len(args) > 0 {
		up := strings.ToUpper(cmd.text)
		return nil, []Diagnostic{argError(args[0].col, "%s takes nothing after it: write %s alone on its line", up, up)}
	}
	return nil, nil
}

func resendArgs(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	const usage = "write RESEND for your last report, or RESEND TURN n for turn n's (RESEND ROUND n in a game whose GAME line says ROUND)"
	if len(args) == 0 {
		return nil, nil
	}
	num := args[0]
	rest := args[1:]
	// ROUND is TURN's word in a game whose rounds are not turns, as on the GAME line.
	if word := strings.ToUpper(num.text); word == "TURN" || word == "ROUND" {
		if len(args) < 2 {
			return nil, []Diagnostic{argError(num.col, "%s needs the number: %s", word, usage)}
		}
		num, rest = args[1], args[2:]
	}
	n, ok := parseTurn(num.text)
	if !ok {
		return nil, []Diagnostic{argError(num.col, "%q is not a turn number (a whole number from 1): %s", num.text, usage)}
	}
	if len(rest) > 0 {
		return nil, []Diagnostic{argError(rest[0].col, "%q after the turn number: %s", rest[0].text, usage)}
	}
	return []string{"TURN", strconv.Itoa(n)}, nil
}

func clearArgs(cmd blockWord, args []blockWord) ([]string, []Diagnostic) {
	switch {
	case len(args) == 0:
		return nil, nil
	case len(args) > 1:
		return nil, []Diagnostic{argError(args[1].col, "CLEAR takes one callsign: write one CLEAR line per aircraft, or CLEAR alone for all of them")}
	}
	cs := strings.ToUpper(args[0].text)
	if !IsCallsign(cs) {
		return nil, []Diagnostic{argError(args[0].col, "%q is not a callsign: callsigns are letters, digits, - and _, at most %d", args[0].text, MaxCallsign)}
	}
	return []string{cs}, nil
}

// parseTurn reads a turn number: digits (a leading # is allowed, "TURN #3"), 1 to MaxTurn.
func parseTurn(s string) (int, bool) {
	s = strings.TrimPrefix(s, "#")
	if s == "" || len(s) > 9 || strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxTurn {
		return 0, false
	}
	return n, true
}

// isIDWord reports whether s is a game name, secret or player id: 1-40 ASCII letters, digits, - and _, and
// not a header keyword (so that "GAME TURN 3" is a missing name, not a game called "turn").
func isIDWord(s string) bool {
	if s == "" || len(s) > MaxIDRunes || strings.IndexFunc(s, func(r rune) bool { return !IsWordRune(r) }) >= 0 {
		return false
	}
	// s is ASCII here, so comparing it without case is comparing it upper-cased.
	isWord := func(k string) bool { return strings.EqualFold(s, k) }
	return !isWord("GAME") && !isWord(RoundWord) && !slices.ContainsFunc(headerFields, isWord)
}

// blockWord is one word of a header or command line, with its rune column and byte offset in the line.
type blockWord struct {
	text string
	col  int
	at   int
}

func isBlockSep(r rune) bool {
	if r < utf8.RuneSelf { // unicode.IsSpace's ASCII spaces, without the call
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r', ',', ':':
			return true
		}
		return false
	}
	return unicode.IsSpace(r)
}

// blockWords splits a header or command line at spaces, commas and colons ("TURN: 3" is "TURN 3"),
// appending the words to ws (a buffer reused from line to line). One full stop at the end of the line
// is dropped ("END.").
func blockWords(line string, ws []blockWord) []blockWord {
	col, start, startCol := 0, -1, 0
	for i, r := range line {
		col++
		if isBlockSep(r) {
			if start >= 0 {
				ws = append(ws, blockWord{line[start:i], startCol, start})
				start = -1
			}
			continue
		}
		if start < 0 {
			start, startCol = i, col
		}
	}
	if start >= 0 {
		ws = append(ws, blockWord{line[start:], startCol, start})
	}
	if n := len(ws); n > 0 && strings.HasSuffix(ws[n-1].text, ".") {
		ws[n-1].text = strings.TrimSuffix(ws[n-1].text, ".")
		if ws[n-1].text == "" {
			ws = ws[:n-1]
		}
	}
	return ws
}

// leadWord is the first word of a line as blockWords reads it ("" when it reads none): the word that
// says what the line is, found without splitting the rest.
func leadWord(line string) string {
	notSep := func(r rune) bool { return !isBlockSep(r) }
	start := strings.IndexFunc(line, notSep)
	if start < 0 {
		return ""
	}
	w, rest := line[start:], ""
	if end := strings.IndexFunc(w, isBlockSep); end >= 0 {
		w, rest = w[:end], w[end:]
	}
	if strings.HasSuffix(w, ".") && strings.IndexFunc(rest, notSep) < 0 {
		w = w[:len(w)-1] // the line's last word loses its full stop, as blockWords has it
	}
	return w
}

// firstWord is the first word of a line, as blockWords splits it, without looking at the rest.
func firstWord(line string) string {
	start := -1
	for i, r := range line {
		sep := isBlockSep(r)
		if start < 0 {
			if !sep {
				start = i
			}
			continue
		}
		if sep {
			return line[start:i]
		}
	}
	if start < 0 {
		return ""
	}
	return line[start:]
}

// isHelpLine reports whether a trimmed line is the word HELP alone ("help", "Help?", "HELP!" too).
func isHelpLine(t string) bool {
	return len(t) <= 8 && strings.EqualFold(strings.TrimRight(t, ".?!"), "HELP")
}

// lineReader hands out the lines of a text one at a time, without copying it, numbering them from 1.
type lineReader struct {
	rest string
	n    int
	done bool
}

func (r *lineReader) next() (string, bool) {
	if r.done {
		return "", false
	}
	line, rest, found := strings.Cut(r.rest, "\n")
	r.rest, r.n, r.done = rest, r.n+1, !found
	return strings.TrimSuffix(line, "\r"), true
}

// ParseBlock finds and reads the order block of a mail's text. The block starts at the first line whose
// first word is GAME (any case; quoted lines starting with '>' are skipped) and ends at a line END, at a
// quoted line, at a signature line "--", or at the end of the text; the text around it is ignored.
//
// Without a GAME line, a line holding only HELP makes a help request (HelpOnly); otherwise the result is
// an empty Block and one no-block error. Every problem is reported, each with its line and column; see
// BlockRefused for which errors refuse the whole block, and Block.Refused for refused order lines.
//
// Each order line is kept as its callsign and its text (BlockOrder), for the game's ruleset to read in its
// own notation. ParseBlock gives generic hints for lines it cannot place; ParseBlockFor asks the game's
// notation whether such a line reads as an order, so a missing callsign or colon is named.
func ParseBlock(text string) (Block, []LineDiagnostic) { return parseBlock(text, nil) }

// ParseBlockFor is ParseBlock with a game's notation for its hints.
func ParseBlockFor(text string, n Notation) (Block, []LineDiagnostic) { return parseBlock(text, n) }

func parseBlock(text string, n Notation) (Block, []LineDiagnostic) {
	r := &lineReader{rest: text}
	helpLine, quotedGame := 0, false
	for {
		line, ok := r.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, ">") {
			quotedGame = quotedGame || strings.EqualFold(firstWord(strings.TrimLeft(t, "> \t")), "GAME")
			continue
		}
		if strings.EqualFold(firstWord(t), "GAME") {
			p := &blockParser{notation: n, words: make([]blockWord, 0, 8)}
			p.b.Found = true
			p.run(r, line)
			return p.b, p.ds
		}
		if helpLine == 0 && isHelpLine(t) {
			helpLine = r.n
		}
	}
	if helpLine > 0 {
		return Block{HelpOnly: true, Commands: []Command{{Name: "HELP", Line: helpLine}}}, nil
	}
	msg := "no order block found: the orders go in a block that starts with a line GAME <game> " +
		"(e.g. GAME chan-1 TURN 3) and ends with a line END; send HELP for the guide"
	if quotedGame {
		msg = "no order block found: the only GAME line is quoted (it starts with >); copy the block out of " +
			"the quoted report, fill it in and send it without the > marks"
	}
	return Block{}, []LineDiagnostic{{Line: 0, Diagnostic: Diagnostic{Code: CodeNoBlock, Severity: SeverityError, Message: msg}}}
}

type fieldSeen struct {
	line  int
	value string
}

type blockParser struct {
	b        Block
	ds       []LineDiagnostic
	fields   [3]fieldSeen // by headerFields' order; line 0 when not given
	items    int
	notation Notation    // the game's, for hints; nil for generic ones
	words    []blockWord // the words of the line being read (blockWords' buffer)
}

func (p *blockParser) add(line int, d Diagnostic) {
	p.ds = append(p.ds, LineDiagnostic{Line: line, Diagnostic: d})
}

func (p *blockParser) errorf(line, col int, code, suggest, format string, args ...any) {
	p.add(line, Errorf(col, code, suggest, format, args...))
}

func (p *blockParser) warnf(line, col int, code, suggest, format string, args ...any) {
	p.add(line, Warnf(col, code, suggest, format, args...))
}

// How a block ended.
const (
	endText = iota
	endLine
	endQuote
	endSignature
)

// run reads the block from its GAME line (first, the reader's current line) to its end.
func (p *blockParser) run(r *lineReader, first string) {
	gameLine := r.n
	line, n, how := first, r.n, endText
	for {
		if n-gameLine >= MaxBlockLines {
			p.errorf(n, 0, CodeTooManyLines, "", "the block has more than %d lines: Sortie read none of it; "+
				"end it with a line END, and send at most %d lines", MaxBlockLines, MaxBlockLines)
			return
		}
		if how = p.line(n, line, n == gameLine); how != endText {
			break
		}
		var ok bool
		if line, ok = r.next(); !ok {
			return
		}
		n = r.n
	}
	if how == endQuote || how == endSignature {
		p.scanAfter(r, n, how)
	}
}

// line reads one line of the block and says whether it ends the block.
func (p *blockParser) line(n int, line string, first bool) int {
	t := strings.TrimSpace(line)
	switch {
	case t == "":
		return endText
	case t[0] == '>':
		return endQuote
	case t == "--":
		return endSignature
	}
	if len(line) > MaxLineRunes { // a line of no more bytes than that has no more runes either
		if k := utf8.RuneCountInString(line); k > MaxLineRunes {
			p.errorf(n, MaxLineRunes+1, CodeLineTooLong, "", "this line has %d characters, more than the %d a line "+
				"of the block may have: Sortie did not read it", k, MaxLineRunes)
			return endText
		}
	}
	lead := leadWord(line)
	if lead == "" { // only commas and colons
		p.errorf(n, 1, CodeUnknownCmd, "", "a line of only punctuation: a line of the block is a header field, a command (%s) "+
			"or an order line such as %s", commandList(), p.exampleOrder())
		return endText
	}
	key := keyword(lead)
	if key == "" && !first && strings.IndexByte(line, ':') >= 0 {
		p.orderLine(n, line) // its words are the game's to read
		return endText
	}
	ws := blockWords(line, p.words[:0])
	p.words = ws
	switch {
	case first:
		p.header(n, ws)
	case key == "END":
		if len(ws) > 1 {
			p.warnf(n, ws[1].col, CodeEndLine, "", "the rest of the END line is not read: END ends the block")
		}
		return endLine
	case key == "GAME":
		p.errorf(n, ws[0].col, CodeBlockHeader, "", "a second GAME line: a mail carries one block, ended by END; "+
			"send one mail per game")
	case isHeaderField(key):
		p.headerFields(n, ws)
	case lookupCommand(key) != nil:
		p.command(n, lookupCommand(key), ws)
	default:
		p.unknownLine(n, line, ws)
	}
	return endText
}

// header reads the GAME line: GAME <name>, then header fields.
func (p *blockParser) header(n int, ws []blockWord) {
	if len(ws) < 2 || strings.EqualFold(ws[1].text, "GAME") || isHeaderField(keyword(ws[1].text)) {
		p.errorf(n, ws[0].col, CodeGameID, "", "GAME needs the name of the game right after it, e.g. GAME chan-1 TURN 3")
		p.headerFields(n, ws[1:])
		return
	}
	if id := ws[1]; isIDWord(id.text) {
		p.b.Game = strings.ToLower(id.text)
	} else {
		p.errorf(n, id.col, CodeGameID, "", "%q is not a game name: a game name is 1 to %d letters, digits, - and _, "+
			"as in your welcome mail", id.text, MaxIDRunes)
	}
	p.headerFields(n, ws[2:])
}

var fieldValue = map[string]string{
	"TURN":   "the turn number, e.g. TURN 3",
	"SECRET": "your secret word, e.g. SECRET lark-7",
	"PLAYER": "your player id, e.g. PLAYER anna",
}

var fieldCode = map[string]string{"TURN": CodeTurnNumber, "SECRET": CodeSecretForm, "PLAYER": CodePlayerID}

// headerFields reads TURN <n>, SECRET <word> and PLAYER <id>, in any order.
func (p *blockParser) headerFields(n int, ws []blockWord) {
	for i := 0; i < len(ws); {
		w := ws[i]
		key := keyword(w.text)
		if !isHeaderField(key) {
			switch {
			case key == "GAME":
				p.errorf(n, w.col, CodeDuplicateFld, "", "GAME is given twice: a block is for one game")
			default:
				suggest := ""
				if _, ok := parseTurn(w.text); ok {
					suggest = "TURN " + w.text
				} else if s, _ := suggestKeyword(strings.ToUpper(w.text), headerFields); s != "" {
					suggest = s
				}
				p.errorf(n, w.col, CodeBlockHeader, suggest, "%q: after GAME <name> the header holds only TURN <n> (or ROUND <n>), "+
					"SECRET <word> and PLAYER <id>", w.text)
			}
			// Skip what follows up to the next field: it belongs to the word just refused.
			for i++; i < len(ws) && !isHeaderField(keyword(ws[i].text)); i++ {
			}
			continue
		}
		if i+1 >= len(ws) || isHeaderField(keyword(ws[i+1].text)) || strings.EqualFold(ws[i+1].text, "GAME") {
			p.errorf(n, w.col, fieldCode[key], "", "%s needs %s", key, fieldValue[key])
			i++
			continue
		}
		v := ws[i+1]
		i += 2
		var value string
		switch key {
		case "TURN":
			t, ok := parseTurn(v.text)
			if !ok {
				p.errorf(n, v.col, CodeTurnNumber, "", "%q is not a turn number: TURN takes a whole number from 1 to %d, "+
					"the turn these orders are for", v.text, MaxTurn)
				continue
			}
			value = strconv.Itoa(t)
		case "SECRET":
			// The message never repeats the secret.
			if !isIDWord(v.text) {
				p.errorf(n, v.col, CodeSecretForm, "", "that is not a secret: a secret is one word of 1 to %d letters, "+
					"digits, - and _; copy it from your welcome mail", MaxIDRunes)
				continue
			}
			value = v.text
		case "PLAYER":
			if !isIDWord(v.text) {
				p.errorf(n, v.col, CodePlayerID, "", "%q is not a player id: a player id is 1 to %d letters, digits, - and _",
					v.text, MaxIDRunes)
				continue
			}
			value = strings.ToLower(v.text)
		}
		seen := &p.fields[slices.Index(headerFields, key)]
		if prev := *seen; prev.line > 0 {
			if prev.value == value {
				p.warnf(n, w.col, CodeDuplicateFld, "", "%s is given twice, the same both times (line %d too): once is enough",
					key, prev.line)
			} else {
				p.errorf(n, w.col, CodeDuplicateFld, "", "%s is given twice, differently (line %d too): give it once",
					key, prev.line)
			}
			continue
		}
		*seen = fieldSeen{n, value}
		switch key {
		case "TURN":
			p.b.Turn, _ = strconv.Atoi(value)
		case "SECRET":
			p.b.Secret = value
		case "PLAYER":
			p.b.Player = value
		}
	}
}

// countItem counts an order or command line and reports whether it is within the limit.
func (p *blockParser) countItem(n int) bool {
	p.items++
	if p.items == MaxBlockItems+1 {
		p.errorf(n, 0, CodeTooManyOrders, "", "more than %d orders and commands in one block: Sortie read none of them",
			MaxBlockItems)
	}
	return p.items <= MaxBlockItems
}

func (p *blockParser) command(n int, spec *commandSpec, ws []blockWord) {
	if !p.countItem(n) {
		return
	}
	args, ds := spec.check(ws[0], ws[1:])
	for _, d := range ds {
		p.add(n, d)
	}
	if HasErrors(ds) {
		return
	}
	c := Command{Name: spec.name, Args: args, Line: n}
	switch c.Name {
	case "CLEAR":
		// The block reads top to bottom: CLEAR also withdraws orders written above it.
		var lines []int
		drop := func(o BlockOrder) bool {
			if len(args) == 0 || o.Callsign == args[0] {
				lines = append(lines, o.Line)
				return true
			}
			return false
		}
		p.b.Orders = slices.DeleteFunc(p.b.Orders, drop)
		p.b.Refused = slices.DeleteFunc(p.b.Refused, drop)
		if len(lines) > 0 {
			slices.Sort(lines)
			list := make([]string, len(lines))
			for i, l := range lines {
				list[i] = strconv.Itoa(l)
			}
			where := "the order written above it on line "
			if len(list) > 1 {
				where = "the orders written above it on lines "
			}
			p.warnf(n, ws[0].col, CodeCleared, "", "%s also withdraws %s%s", c.String(), where, strings.Join(list, ", "))
		}
	case "WAIT", "READY":
		other := "READY"
		if c.Name == "READY" {
			other = "WAIT"
		}
		if k := slices.IndexFunc(p.b.Commands, func(x Command) bool { return x.Name == other }); k >= 0 {
			p.warnf(n, ws[0].col, CodeWaitReady, "", "%s on line %d and %s here: the later one counts, %s",
				other, p.b.Commands[k].Line, c.Name, c.Name)
			p.b.Commands = slices.Delete(p.b.Commands, k, k+1)
		}
	}
	for _, x := range p.b.Commands {
		if x.Name == c.Name && slices.Equal(x.Args, c.Args) {
			p.warnf(n, ws[0].col, CodeDuplicateCmd, "", "%s is on line %d already: once is enough", c.String(), x.Line)
			return
		}
	}
	p.b.Commands = append(p.b.Commands, c)
}

// putOrder records an order line; a later line for the same callsign replaces an earlier one.
func (p *blockParser) putOrder(o BlockOrder, bad bool) {
	prev := 0
	same := func(x BlockOrder) bool {
		if x.Callsign == o.Callsign {
			prev = x.Line
			return true
		}
		return false
	}
	p.b.Orders = slices.DeleteFunc(p.b.Orders, same)
	p.b.Refused = slices.DeleteFunc(p.b.Refused, same)
	if prev > 0 {
		p.warnf(o.Line, 1, CodeDuplicateOrder, "", "%s already has an order on line %d: this later line replaces it",
			o.Callsign, prev)
	}
	if bad {
		p.b.Refused = append(p.b.Refused, o)
		return
	}
	if p.b.Orders == nil {
		p.b.Orders = make([]BlockOrder, 0, 4) // room for a mail's usual few orders in one allocation
	}
	p.b.Orders = append(p.b.Orders, o)
}

func (p *blockParser) orderLine(n int, line string) {
	i := strings.IndexByte(line, ':')
	cs := strings.ToUpper(strings.TrimSpace(line[:i]))
	if IsCallsign(cs) && strings.TrimSpace(line[i+1:]) == "" {
		p.warnf(n, 1, CodeEmptyOrder, "", "%s: has no order after it, so this line changes nothing for %s", cs, cs)
		return
	}
	if !p.countItem(n) {
		return
	}
	if !IsCallsign(cs) {
		p.errorf(n, 1, CodeOrderLine, "", "%q is not a callsign: callsigns are letters, digits, - and _", strings.TrimSpace(line[:i]))
		return
	}
	p.putOrder(BlockOrder{Callsign: cs, Text: line[i+1:], Line: n, Column: utf8.RuneCountInString(line[:i+1]) + 1}, false)
}

// looksLikeOrder asks the game's notation whether text reads as an order; without one, nothing does.
func (p *blockParser) looksLikeOrder(text string) bool {
	return p.notation != nil && strings.TrimSpace(text) != "" && p.notation.LooksLikeOrder(text)
}

// exampleOrder is an order line for hints: the game's, or a generic shape.
func (p *blockParser) exampleOrder() string {
	if p.notation != nil {
		if e := p.notation.ExampleOrder(); e != "" {
			return e
		}
	}
	return "CALLSIGN: order"
}

// unknownLine explains a line that is no header field, command or order line: a misspelt keyword, an order
// without its callsign or without its colon, or something else.
func (p *blockParser) unknownLine(n int, line string, ws []blockWord) {
	first := ws[0]
	up := strings.ToUpper(first.text)
	if s, field := suggestKeyword(up, blockKeywords); s != "" {
		if field {
			// A misspelt TURN or SECRET must not let the block through without its turn guard or secret.
			p.errorf(n, first.col, CodeBlockHeader, s, "%q is no header field or command", first.text)
		} else {
			p.errorf(n, first.col, CodeUnknownCmd, s, "%q is not a command: the commands are %s", first.text, commandList())
		}
		return
	}
	if p.looksLikeOrder(line) {
		p.countItem(n)
		p.errorf(n, first.col, CodeOrderLine, "", "this looks like an order without its unit: an order line starts "+
			"with the callsign and a colon, e.g. %s", p.exampleOrder())
		return
	}
	if cs := up; len(ws) > 1 && IsCallsign(cs) {
		cut := first.at + len(first.text)
		rest := line[cut:]
		if p.looksLikeOrder(rest) {
			if !p.countItem(n) {
				return
			}
			col := first.col + utf8.RuneCountInString(first.text)
			p.errorf(n, col, CodeOrderLine, cs+": "+strings.TrimSpace(rest), "a colon belongs after the callsign %s: "+
				"an order line is CALLSIGN: order", cs)
			p.putOrder(BlockOrder{Callsign: cs, Text: rest, Line: n, Column: utf8.RuneCountInString(line[:cut]) + 1}, true)
			return
		}
	}
	p.errorf(n, first.col, CodeUnknownCmd, "", "%q is neither a command nor an order line: the commands are %s, and an "+
		"order line is the callsign, a colon and the order, e.g. %s", first.text, commandList(), p.exampleOrder())
}

// suggestKeyword returns the keywords nearest to an upper-case word ("STATUS" for "STAUTS"), joined by
// " or ", and whether one of them is a header field. Like the notations' suggestions it allows one edit, or two
// when both words have five letters or more ("HELLO" is not HELP); a transposition counts as one edit.
func suggestKeyword(up string, keywords []string) (string, bool) {
	a := ASCIIApprox(up)
	if len(a) < 2 || len(a) > 16 {
		return "", false
	}
	limit := 2
	var best []string
	for _, k := range keywords {
		d := EditDistance(a, k)
		if d == 2 && (len(a) < 5 || len(k) < 5) {
			continue
		}
		switch {
		case d > limit:
		case d < limit:
			limit, best = d, append(best[:0], k)
		default:
			best = append(best, k)
		}
	}
	field := false
	for _, b := range best {
		field = field || b == "GAME" || isHeaderField(b)
	}
	return strings.Join(best, " or "), field
}

// scanAfter looks, after a block ended by a quoted line or a signature, for a line that reads as an order or
// a command: the player probably wrote it below a quote and believes it was read. It warns once.
func (p *blockParser) scanAfter(r *lineReader, endedAt, how int) {
	what := "a quoted line, starting with >, ends it"
	if how == endSignature {
		what = "a signature line -- ends it"
	}
	for k := 0; k < MaxBlockLines; k++ {
		line, ok := r.next()
		if !ok {
			return
		}
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '>' || utf8.RuneCountInString(t) > MaxLineRunes {
			continue
		}
		looks := false
		if ws := blockWords(t, p.words[:0]); len(ws) == 1 && lookupCommand(keyword(ws[0].text)) != nil {
			looks = true
		} else if strings.IndexByte(t, ':') >= 0 {
			i := strings.IndexByte(t, ':')
			rest := t[i+1:]
			looks = IsCallsign(strings.ToUpper(strings.TrimSpace(t[:i]))) && strings.TrimSpace(rest) != "" &&
				(p.notation == nil || p.notation.LooksLikeOrder(rest))
		}
		if looks {
			p.warnf(r.n, 1, CodeAfterBlock, "", "this line was not read: the block ended at line %d (%s); write the whole "+
				"block above any quoted text, and end it with END", endedAt, what)
			return
		}
	}
}
