package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
)

// readBlock reads a mail as the service does in an Air Force game: the order block with this notation's
// hints, then each order line's text in the plot notation, its problems placed in the line; an order with
// an error is refused. Orders keep their canonical text, so Canonical prints canonical plots.
func readBlock(text string) (parser.Block, []parser.LineDiagnostic) {
	b, ds := parser.ParseBlockFor(text, BlockHints{})
	blockRefused := b.Refused
	var kept []parser.BlockOrder
	for _, o := range b.Orders {
		ord, ods := ParseOrder(o.Text)
		for _, d := range ods {
			if d.Col > 0 {
				d.Col += o.Column - 1
			}
			ds = append(ds, parser.LineDiagnostic{Line: o.Line, Diagnostic: d})
		}
		if parser.HasErrors(ods) {
			b.Refused = append(b.Refused, o)
			continue
		}
		o.Text = ord.String()
		kept = append(kept, o)
	}
	b.Orders = kept
	// Lines the block refused (a missing colon) are still read, so the player learns every mistake.
	for _, o := range blockRefused {
		_, ods := ParseOrder(o.Text)
		for _, d := range ods {
			if d.Col > 0 {
				d.Col += o.Column - 1
			}
			ds = append(ds, parser.LineDiagnostic{Line: o.Line, Diagnostic: d})
		}
	}
	slices.SortStableFunc(b.Refused, func(x, y parser.BlockOrder) int { return x.Line - y.Line })
	return b, ds
}

// blockCase is one mail and what Sortie reads from it in an Air Force game: the order block, each order
// line read in the plot notation (readBlock). Diagnostics are written "code@line" or
// "code@line:col". errs must be exactly the errors produced; warns must be among the warnings (others are
// allowed: the plot parser warns about lower case and aliases). The fields game … refused are compared
// only when the case has no errors or sets check.
type blockCase struct {
	name     string
	in       string
	game     string
	turn     int
	secret   string
	player   string
	orders   []string // "RED1: 2 TR 1 TR FIRE ANY", in order
	commands []string // "RESEND TURN 2", in order
	refused  []string // callsigns
	helpOnly bool
	errs     []string
	warns    []string
	check    bool
	refuse   bool // BlockRefused must say so (only looked at when errs is not empty)
}

var blockCases = []blockCase{
	{
		name: "the guide's example",
		in:   "GAME chan-1 TURN 3 SECRET lark-7\nRED1: 2R 1 TR FIRE ANY\nRED2: 5 HOLD\nWAIT\nEND\n",
		game: "chan-1", turn: 3, secret: "lark-7",
		orders:   []string{"RED1: 2 TR 1 TR FIRE ANY", "RED2: 5 HOLD"},
		commands: []string{"WAIT"},
		warns:    []string{"alias@2:8"},
	},
	{
		name: "embedded in prose",
		in: "Hi Umpire,\n\nhere are my orders for tonight; the game is going well.\n\n" +
			"  GAME chan-1 TURN 3 SECRET lark-7  \n   RED1: 2 TR 1 TR\n\n  RED2: 5 FIRE blue-1 GUNS nose,tail MAX 4\nEND\n\n" +
			"Cheers,\nAnna\n-- \nAnna Smith, Leeds\n",
		game: "chan-1", turn: 3, secret: "lark-7",
		orders: []string{"RED1: 2 TR 1 TR FIRE ANY", "RED2: 5 FIRE BLUE-1 GUNS nose,tail MAX 4"},
	},
	{
		name: "a reply where the old report follows END",
		in: "GAME chan-1 TURN 4\nRED1: 3 TL 1\nEND\n\nOn Tue, Sortie wrote:\nTurn 3 report for chan-1\n" +
			"RED1 is at (3,-4) facing 2\nGAME chan-1 TURN 4\nRED1:\nEND\n",
		game: "chan-1", turn: 4,
		orders: []string{"RED1: 3 TL 1 FIRE ANY"},
	},
	{
		name: "quoted report above, no END",
		in:   "> GAME chan-1 TURN 4\n> RED1:\n> END\n\ngame chan-1 turn 4\nred1: 4 hold\n",
		game: "chan-1", turn: 4,
		orders: []string{"RED1: 4 HOLD"},
	},
	{
		name: "lower-case keywords",
		in:   "game Chan-1 turn 3 secret Lark-7 player Anna\nred1: 2 tr 1 tr fire red-2\nstatus\nresend turn 2\nclear red2\nready\nend",
		game: "chan-1", turn: 3, secret: "Lark-7", player: "anna",
		orders:   []string{"RED1: 2 TR 1 TR FIRE RED-2"},
		commands: []string{"STATUS", "RESEND TURN 2", "CLEAR RED2", "READY"},
		warns:    []string{"lowercase@2:9"},
	},
	{
		name: "header fields on lines of their own",
		in:   "GAME chan-1\nTURN 3\nSECRET lark-7\n\nRED1: 5\nEND",
		game: "chan-1", turn: 3, secret: "lark-7",
		orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name: "header fields in any order, with colons and commas, and late",
		in:   "Game: chan-1, Player: anna\nSECRET: lark-7\nRED1: 5\nTURN: #3.\nEND.",
		game: "chan-1", turn: 3, secret: "lark-7", player: "anna",
		orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name: "CRLF line ends and tabs",
		in:   "GAME\tchan-1\tTURN 3\r\nRED1:\t5 HOLD\r\nEND\r\n",
		game: "chan-1", turn: 3,
		orders: []string{"RED1: 5 HOLD"},
	},
	{
		name:     "a block with commands only",
		in:       "GAME chan-1\nSTATUS\nRESEND\nHELP\n",
		game:     "chan-1",
		commands: []string{"STATUS", "RESEND", "HELP"},
	},
	{
		name: "block ends at the end of the text",
		in:   "GAME chan-1 TURN 3\nRED1: 5",
		game: "chan-1", turn: 3, orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name: "unknown command with a suggestion",
		in:   "GAME chan-1 TURN 3\nSTAUTS\nRED1: 5\nEND",
		errs: []string{"unknown-command@2:1"},
		game: "chan-1", turn: 3, orders: []string{"RED1: 5 FIRE ANY"}, check: true,
	},
	{
		name: "unknown line without a suggestion",
		in:   "GAME chan-1\nThanks for running this\nEND",
		errs: []string{"unknown-command@2:1"},
	},
	{
		name:   "misspelt TURN on its own line refuses the block",
		in:     "GAME chan-1\nTRUN 3\nRED1: 5\nEND",
		errs:   []string{"block-header@2:1"},
		refuse: true,
	},
	{
		name:   "unknown word in the header",
		in:     "GAME chan-1 TRUN 3 SECRET lark-7",
		errs:   []string{"block-header@1:13"},
		refuse: true, check: true, game: "chan-1", secret: "lark-7",
	},
	{
		name:   "a bare number in the header",
		in:     "GAME chan-1 3",
		errs:   []string{"block-header@1:13"},
		refuse: true,
	},
	{name: "turn zero", in: "GAME chan-1 TURN 0\nRED1: 5", errs: []string{"turn-number@1:18"}, refuse: true},
	{name: "turn in words", in: "GAME chan-1 TURN three\nRED1: 5", errs: []string{"turn-number@1:18"}, refuse: true},
	{name: "negative turn", in: "GAME chan-1 TURN -2", errs: []string{"turn-number@1:18"}, refuse: true},
	{name: "turn too large", in: "GAME chan-1 TURN 100000", errs: []string{"turn-number@1:18"}, refuse: true},
	{name: "turn 99999", in: "GAME chan-1 TURN 099999", game: "chan-1", turn: 99999},
	{name: "turn without number", in: "GAME chan-1 TURN", errs: []string{"turn-number@1:13"}, refuse: true},
	{name: "turn followed by a field", in: "GAME chan-1 TURN SECRET x", errs: []string{"turn-number@1:13"}, refuse: true},
	{name: "game without name", in: "GAME\nRED1: 5", errs: []string{"game-id@1:1"}, refuse: true},
	{name: "game named like a field", in: "GAME TURN 3", errs: []string{"game-id@1:1"}, refuse: true},
	{name: "game name with a bad character", in: "GAME chan/1", errs: []string{"game-id@1:6"}, refuse: true},
	{name: "game name too long", in: "GAME " + strings.Repeat("a", 41), errs: []string{"game-id@1:6"}, refuse: true},
	{name: "game name of 40", in: "GAME " + strings.Repeat("A", 40), game: strings.Repeat("a", 40)},
	{name: "bad secret", in: "GAME chan-1 SECRET lark!7", errs: []string{"secret-form@1:20"}, refuse: true},
	{name: "bad player", in: "GAME chan-1 PLAYER an.na", errs: []string{"player-id@1:20"}, refuse: true},
	{
		name:   "a field given twice, differently",
		in:     "GAME chan-1 TURN 3\nTURN 4\nRED1: 5",
		errs:   []string{"duplicate-field@2:1"},
		refuse: true,
	},
	{
		name:  "a field given twice, the same",
		in:    "GAME chan-1 TURN 3 SECRET s\nTURN 3\nSECRET s\nRED1: 5",
		warns: []string{"duplicate-field@2:1", "duplicate-field@3:1"},
		game:  "chan-1", turn: 3, secret: "s", orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name:   "a second GAME line",
		in:     "GAME chan-1\nRED1: 5\nGAME chan-2\nRED1: 4\nEND",
		errs:   []string{"block-header@3:1"},
		refuse: true,
	},
	{
		name:    "missing colon on an order line",
		in:      "GAME chan-1\nRED1 2R 1 TR\nEND",
		errs:    []string{"order-line@2:5"},
		refused: []string{"RED1"}, game: "chan-1", check: true,
	},
	{
		name: "missing colon and a plot error: both reported",
		in:   "GAME chan-1\nRED1 1 TRTR\nEND",
		errs: []string{"order-line@2:5", "glued-letters@2:8"},
	},
	{
		name: "missing callsign",
		in:   "GAME chan-1\n2R 1 TR FIRE ANY\nEND",
		errs: []string{"order-line@2:1"},
	},
	{
		name: "plot error positioned in its line",
		in:   "GAME chan-1\nRED1: 5\n  RED2: 1 TRTR\nEND",
		errs: []string{"glued-letters@3:11"},
		game: "chan-1", orders: []string{"RED1: 5 FIRE ANY"}, refused: []string{"RED2"}, check: true,
	},
	{
		name: "bad callsign",
		in:   "GAME chan-1\nred one: 5\nEND",
		errs: []string{"order-line@2:1"},
		game: "chan-1", check: true,
	},
	{
		name: "fire clause error",
		in:   "GAME chan-1\nRED1: 5 FIRE ANY MAX 9\nEND",
		errs: []string{"fire-range@2:22"},
	},
	{
		name:   "the last order for a callsign wins",
		in:     "GAME chan-1\nRED1: 2 TR 1 TR\nRED2: 4\nRED1: 1 TL 2 TL\nEND",
		warns:  []string{"duplicate-order@4:1"},
		game:   "chan-1",
		orders: []string{"RED2: 4 FIRE ANY", "RED1: 1 TL 2 TL FIRE ANY"},
	},
	{
		name:    "the last order wins even when it is refused",
		in:      "GAME chan-1\nRED1: 2 TR 1 TR\nRED1: 2 TRTR\nEND",
		errs:    []string{"glued-letters@3:9"},
		warns:   []string{"duplicate-order@3:1"},
		game:    "chan-1",
		refused: []string{"RED1"}, check: true,
	},
	{
		name: "a later good line replaces a refused one",
		in:   "GAME chan-1\nRED1: 2 TRTR\nred1: 2 TR TR\nEND",
		// The replaced line is not read at all: only the later one counts.
		warns:  []string{"duplicate-order@3:1"},
		game:   "chan-1",
		orders: []string{"RED1: 2 TR TR FIRE ANY"}, check: true,
	},
	{
		name:  "an unfilled template line",
		in:    "GAME chan-1 TURN 4\nRED1: 5\nRED2:\nEND",
		warns: []string{"empty-order@3:1"},
		game:  "chan-1", turn: 4, orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name:     "RESEND forms",
		in:       "GAME chan-1\nRESEND\nRESEND TURN 2\nresend 3\nRESEND TURN #4\nEND",
		game:     "chan-1",
		commands: []string{"RESEND", "RESEND TURN 2", "RESEND TURN 3", "RESEND TURN 4"},
	},
	{
		name: "command argument errors",
		in:   "GAME chan-1\nSTATUS please\nRESEND TURN\nRESEND TURN x\nRESEND 2 now\nRESEND last\nCLEAR RED1 RED2\nCLEAR red/1\nWAIT 2 days\nHELP me\nREADY now\nEND",
		errs: []string{"command-args@2:8", "command-args@3:8", "command-args@4:13", "command-args@5:10", "command-args@6:8",
			"command-args@7:12", "command-args@8:7", "command-args@9:6", "command-args@10:6", "command-args@11:7"},
		game: "chan-1", check: true,
	},
	{
		name:     "CLEAR withdraws what is written above it",
		in:       "GAME chan-1\nRED1: 4\nRED2: 4\nRED3: 4\nCLEAR RED1\nRED1: 5\nCLEAR\nRED2: 6\nEND",
		warns:    []string{"cleared@5:1", "cleared@7:1"},
		game:     "chan-1",
		commands: []string{"CLEAR RED1", "CLEAR"},
		orders:   []string{"RED2: 6 FIRE ANY"},
	},
	{
		name:     "WAIT then READY: the later counts",
		in:       "GAME chan-1\nWAIT\nSTATUS\nREADY\nEND",
		warns:    []string{"wait-ready@4:1"},
		game:     "chan-1",
		commands: []string{"STATUS", "READY"},
	},
	{
		name:     "a command twice",
		in:       "GAME chan-1\nSTATUS\nstatus\nEND",
		warns:    []string{"duplicate-command@3:1"},
		game:     "chan-1",
		commands: []string{"STATUS"},
	},
	{
		name:   "words after END",
		in:     "GAME chan-1\nRED1: 5\nEND of my orders\nRED2: 3",
		warns:  []string{"end-line@3:5"},
		game:   "chan-1",
		orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name:   "a quoted line ends the block; an order below it draws a warning",
		in:     "GAME chan-1\nRED1: 5\n> RED1 is at (0,0)\nRED2: 4\n",
		warns:  []string{"after-block@4:1"},
		game:   "chan-1",
		orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name:   "a signature ends the block",
		in:     "GAME chan-1\nRED1: 5\n-- \nAnna: the one who flies RED\n",
		game:   "chan-1",
		orders: []string{"RED1: 5 FIRE ANY"},
	},
	{name: "HELP alone", in: "help\n", helpOnly: true, commands: []string{"HELP"}},
	{name: "HELP among prose", in: "Hello,\nI am new here.\n  Help?\nThanks", helpOnly: true, commands: []string{"HELP"}},
	{name: "quoted HELP is no request", in: "> HELP\n", errs: []string{"no-block@0"}, refuse: true},
	{name: "help in a sentence is no request", in: "please help me", errs: []string{"no-block@0"}, refuse: true},
	{name: "no block", in: "Dear umpire, I shall be away this week.\n", errs: []string{"no-block@0"}, refuse: true},
	{name: "empty mail", in: "", errs: []string{"no-block@0"}, refuse: true},
	{name: "only a quoted block", in: "> GAME chan-1 TURN 3\n> RED1:\n", errs: []string{"no-block@0"}, refuse: true},
	{name: "a word that merely starts with GAME", in: "GAMES tonight?\n", errs: []string{"no-block@0"}, refuse: true},
	{
		name:   "line too long",
		in:     "GAME chan-1\nRED1: 5 " + strings.Repeat("1 ", 300) + "\nRED2: 4",
		errs:   []string{"line-too-long@2:501"},
		refuse: true,
	},
	{
		name:   "too many lines",
		in:     "GAME chan-1\n" + strings.Repeat("\n", 198) + "RED1: 5\nRED2: 5\nEND",
		errs:   []string{"too-many-lines@201"},
		refuse: true,
	},
	{
		name:   "200 lines are fine, GAME and END included",
		in:     "GAME chan-1\n" + strings.Repeat("\n", 197) + "RED1: 5\nEND",
		game:   "chan-1",
		orders: []string{"RED1: 5 FIRE ANY"},
	},
	{
		name:   "too many orders",
		in:     "GAME chan-1\n" + manyOrders(101) + "END",
		errs:   []string{"too-many-orders@102"},
		refuse: true,
	},
}

func manyOrders(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "R%d: %d\n", i, 1+i%9)
	}
	return b.String()
}

// parseWant reads "code@line" or "code@line:col".
func parseWant(t *testing.T, s string) (code string, line, col int) {
	t.Helper()
	code, pos, ok := strings.Cut(s, "@")
	if !ok {
		t.Fatalf("bad expectation %q", s)
	}
	l, c, hasCol := strings.Cut(pos, ":")
	line, err := strconv.Atoi(l)
	if err != nil {
		t.Fatalf("bad expectation %q", s)
	}
	col = -1
	if hasCol {
		if col, err = strconv.Atoi(c); err != nil {
			t.Fatalf("bad expectation %q", s)
		}
	}
	return code, line, col
}

func dumpLine(ds []parser.LineDiagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s@%d:%d %s\n", d.Code, d.Line, d.Col, d.Error())
	}
	return b.String()
}

func orderStrings(os []parser.BlockOrder) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.Callsign+": "+strings.TrimSpace(o.Text))
	}
	return out
}

func commandStrings(cs []parser.Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func TestParseBlock(t *testing.T) {
	for _, c := range blockCases {
		t.Run(c.name, func(t *testing.T) {
			b, ds := readBlock(c.in)
			// Errors: exactly the listed ones.
			used := make([]bool, len(ds))
			for _, sev := range []parser.Severity{parser.SeverityError, parser.SeverityWarning} {
				want := c.errs
				if sev == parser.SeverityWarning {
					want = c.warns
				}
				for _, w := range want {
					code, line, col := parseWant(t, w)
					found := false
					for k, d := range ds {
						if !used[k] && d.Severity == sev && d.Code == code && d.Line == line && (col < 0 || d.Col == col) {
							used[k], found = true, true
							break
						}
					}
					if !found {
						t.Errorf("no %s %s among\n%s", sev, w, dumpLine(ds))
					}
				}
			}
			for k, d := range ds {
				if !used[k] && d.Severity == parser.SeverityError {
					t.Errorf("unexpected error %s@%d:%d: %s", d.Code, d.Line, d.Col, d.Error())
				}
				if d.Code == "" || d.Message == "" {
					t.Errorf("diagnostic without code or message: %+v", d)
				}
			}
			if len(c.errs) > 0 && parser.BlockRefused(ds) != c.refuse {
				t.Errorf("BlockRefused = %v, want %v:\n%s", !c.refuse, c.refuse, dumpLine(ds))
			}
			if len(c.errs) > 0 && !c.check {
				return
			}
			if b.Game != c.game || b.Turn != c.turn || b.Secret != c.secret || b.Player != c.player {
				t.Errorf("header %q %d %q %q, want %q %d %q %q", b.Game, b.Turn, b.Secret, b.Player,
					c.game, c.turn, c.secret, c.player)
			}
			if got := orderStrings(b.Orders); !slices.Equal(got, c.orders) {
				t.Errorf("orders %q, want %q", got, c.orders)
			}
			if got := commandStrings(b.Commands); !slices.Equal(got, c.commands) {
				t.Errorf("commands %q, want %q", got, c.commands)
			}
			var refused []string
			for _, o := range b.Refused {
				refused = append(refused, o.Callsign)
			}
			if !slices.Equal(refused, c.refused) {
				t.Errorf("refused %q, want %q", refused, c.refused)
			}
			if b.HelpOnly != c.helpOnly || b.Found != !c.helpOnly {
				t.Errorf("HelpOnly %v Found %v", b.HelpOnly, b.Found)
			}
			if !parser.HasLineErrors(ds) {
				checkRoundTrip(t, c.in, b)
			}
		})
	}
}

// checkRoundTrip: the canonical form with the secret parses, without any diagnostic, to an equal block
// that prints the same; the canonical form without it does not show the secret.
func checkRoundTrip(t *testing.T, in string, b parser.Block) {
	t.Helper()
	s := b.CanonicalWithSecret()
	back, ds := readBlock(s)
	if len(ds) > 0 {
		t.Fatalf("%q: canonical form %q draws\n%s", in, s, dumpLine(ds))
	}
	if !back.Equal(b) {
		t.Fatalf("%q: canonical form %q reads as\n%+v\nwant\n%+v", in, s, back, b)
	}
	if s2 := back.CanonicalWithSecret(); s2 != s {
		t.Fatalf("%q: canonical form is no fixed point: %q then %q", in, s, s2)
	}
	if strings.Contains(b.Canonical(), "SECRET") {
		t.Fatalf("%q: Canonical shows the secret: %q", in, b.Canonical())
	}
}
