package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func dumpLine(ds []LineDiagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s@%d:%d %s\n", d.Code, d.Line, d.Col, d.Error())
	}
	return b.String()
}

func TestBlockLinesAndText(t *testing.T) {
	in := "Hello\r\n\r\nGAME chan-1\r\n  RED1: 2R 1 TR   \r\nSTATUS\r\nEND\r\n"
	b, _ := ParseBlock(in)
	if len(b.Orders) != 1 || b.Orders[0].Line != 4 || b.Orders[0].Text != " 2R 1 TR   " {
		t.Fatalf("orders %+v", b.Orders)
	}
	if len(b.Commands) != 1 || b.Commands[0].Line != 5 {
		t.Fatalf("commands %+v", b.Commands)
	}
	// The order text's column counts from the start of the line as written, so a ruleset's problem at
	// column c of the text is at Column+c-1 of the line.
	if c := b.Orders[0].Column; c != 8 {
		t.Fatalf("order text at col %d, want 8", c)
	}
}

func TestBlockCanonical(t *testing.T) {
	b, ds := ParseBlock("game CHAN-1 player Anna secret Lark-7 turn 3\nred2: 5 hold\nresend 2\nred1: 2r 1 tr\nclear red3\nend")
	if HasLineErrors(ds) {
		t.Fatal(dumpLine(ds))
	}
	// Order texts are printed as written, without the spaces around them: reading them is the game's business.
	want := "GAME chan-1 TURN 3 PLAYER anna\nRESEND TURN 2\nCLEAR RED3\nRED2: 5 hold\nRED1: 2r 1 tr\nEND\n"
	if got := b.Canonical(); got != want {
		t.Errorf("Canonical:\n%s\nwant\n%s", got, want)
	}
	want = strings.Replace(want, "TURN 3", "TURN 3 SECRET Lark-7", 1)
	if got := b.CanonicalWithSecret(); got != want {
		t.Errorf("CanonicalWithSecret:\n%s\nwant\n%s", got, want)
	}
	if (Block{}).Canonical() != "" {
		t.Error("no block must print as nothing")
	}
	if (Block{HelpOnly: true}).Canonical() != "HELP\n" {
		t.Error("a help request prints as HELP")
	}
}

func TestBlockEqual(t *testing.T) {
	a, _ := ParseBlock("GAME g\nRED1: 5\nSTATUS")
	b, _ := ParseBlock("\n\nGAME g\n\nSTATUS\n  red1:   5 \nEND")
	if !a.Equal(b) {
		t.Fatal("blocks that differ only in lines, case of callsigns and spaces must be equal")
	}
	for _, other := range []string{"GAME h\nRED1: 5\nSTATUS", "GAME g TURN 1\nRED1: 5\nSTATUS", "GAME g SECRET x\nRED1: 5\nSTATUS",
		"GAME g PLAYER p\nRED1: 5\nSTATUS", "GAME g\nRED1: 6\nSTATUS", "GAME g\nRED2: 5\nSTATUS", "GAME g\nRED1: 5\nWAIT",
		"GAME g\nRED1: 5\nSTATUS\nREADY", "GAME g\nRED1: 5\nSTATUS\nRED2: 1 TRTR", "GAME g\nRED1: 5 HOLD\nSTATUS"} {
		c, _ := ParseBlock(other)
		if a.Equal(c) {
			t.Errorf("%q must differ from %q", other, "GAME g\nRED1: 5\nSTATUS")
		}
	}
	r1, _ := ParseBlock("RESEND")
	if r1.Found || r1.HelpOnly {
		t.Fatal("RESEND alone is no block")
	}
}

// The secret is never repeated in a message, whatever is wrong with it.
func TestSecretNotEchoed(t *testing.T) {
	for _, in := range []string{"GAME g SECRET hunter2!", "GAME g SECRET hunter2 SECRET hunter3", "GAME g SECRET hunter2\nSECRET hunter3",
		"GAME g SECRET hunter2 SECRET hunter2"} {
		_, ds := ParseBlock(in)
		if len(ds) == 0 {
			t.Errorf("%q: no diagnostic", in)
		}
		for _, d := range ds {
			if strings.Contains(d.Error(), "hunter") {
				t.Errorf("%q: the message repeats the secret: %s", in, d.Error())
			}
		}
	}
}

func TestLineDiagnosticError(t *testing.T) {
	_, ds := ParseBlock("GAME chan-1\nSTAUTS")
	if got, want := ds[0].Error(), `line 2, col 1: "STAUTS" is not a command: the commands are STATUS, RESEND, HELP, CLEAR, WAIT, READY, AWAY and BACK (did you mean STATUS?)`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	_, ds = ParseBlock("nothing")
	if !strings.HasPrefix(ds[0].Error(), "no order block found") {
		t.Errorf("got %s", ds[0].Error())
	}
	d := LineDiagnostic{Line: 7, Diagnostic: Diagnostic{Message: "m", Severity: SeverityWarning}}
	if d.Error() != "line 7: warning: m" {
		t.Errorf("got %s", d.Error())
	}
}

func TestSuggestKeyword(t *testing.T) {
	keys := []string{"END", "STATUS", "RESEND", "HELP", "CLEAR", "WAIT", "READY", "TURN", "SECRET", "PLAYER", "GAME"}
	for in, want := range map[string]string{
		"STAUTS": "STATUS", "RESNED": "RESEND", "HLEP": "HELP", "CLAER": "CLEAR", "WIAT": "WAIT", "REDAY": "READY",
		"EDN": "END", "TRUN": "TURN", "SECRT": "SECRET", "PALYER": "PLAYER", "GMAE": "GAME", "STATE": "STATUS",
		"HELLO": "", "RED1": "", "THANKS": "", "I": "", "REST": "", "OK": "", "CLEARED": "CLEAR",
	} {
		if got, _ := suggestKeyword(in, keys); got != want {
			t.Errorf("suggestKeyword(%q) = %q, want %q", in, got, want)
		}
	}
}

// Large or hostile mails are read in one pass: a long line, many lines, many blocks.
func TestBlockLargeInputs(t *testing.T) {
	huge := []string{
		strings.Repeat("x", 10<<20),
		"GAME " + strings.Repeat("x", 10<<20),
		strings.Repeat("\n", 1<<20) + "GAME g\nRED1: 5",
		"GAME g\n" + strings.Repeat("RED1: 5\n", 1<<18),
		"GAME g\n" + strings.Repeat("STATUS\n", 1<<18),
		"GAME g\n> q\n" + strings.Repeat("no order here\n", 1<<18),
		strings.Repeat("> GAME g\n", 1<<18),
		strings.Repeat("GAME g\n", 1<<18),
	}
	for _, in := range huge {
		b, ds := ParseBlock(in)
		if len(b.Orders)+len(b.Commands) > MaxBlockItems || len(ds) > 2*MaxBlockLines*10 {
			t.Errorf("%d orders, %d commands, %d diagnostics", len(b.Orders), len(b.Commands), len(ds))
		}
	}
}

func ExampleParseBlock() {
	mail := `Hi umpire, two plots and a question.

GAME chan-1 TURN 3 SECRET lark-7
RED1: 2R 1 TR FIRE ANY
RED2: 5 FIRE blue-1 MAX 4
STAUTS
END

Anna`
	b, ds := ParseBlock(mail)
	fmt.Print(b.Canonical())
	for _, d := range ds {
		fmt.Println(d)
	}
	// Output:
	// GAME chan-1 TURN 3
	// RED1: 2R 1 TR FIRE ANY
	// RED2: 5 FIRE blue-1 MAX 4
	// END
	// line 6, col 1: "STAUTS" is not a command: the commands are STATUS, RESEND, HELP, CLEAR, WAIT, READY, AWAY and BACK (did you mean STATUS?)
}

// The block keeps order lines as text for the game's ruleset: a line in any game's notation is no error
// here, while the header, commands and limits are read.
func TestParseBlockKeepsOrderText(t *testing.T) {
	b, ds := ParseBlock("GAME g1 TURN 2 SECRET x\nTIGER: 2 S M 2; 2 S M 2\nRED1: 1 TRTR 4\nSTAUTS\nEND")
	if len(b.Orders) != 2 || b.Orders[0].Callsign != "TIGER" || !strings.Contains(b.Orders[0].Text, "2 S M 2; 2 S M 2") || b.Turn != 2 {
		t.Fatalf("raw block: %+v", b)
	}
	codes := map[string]bool{}
	for _, d := range ds {
		codes[d.Code] = true
	}
	if codes["glued-letters"] || !codes[CodeUnknownCmd] {
		t.Errorf("raw mode reads commands but not plots: %v", ds)
	}
	if _, ds := ParseBlock("GAME g1\nTURN 1\nTURN 2\n1BAD: 5\nEND"); !BlockRefused(ds) {
		t.Errorf("header faults still refuse the block: %v", ds)
	}
}

// squadronNotation is a stand-in game notation for the hint tests: it names its own example order.
type squadronNotation struct{}

func (squadronNotation) LooksLikeOrder(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "2 S")
}
func (squadronNotation) ExampleOrder() string { return "TIGER: 2 S M 2" }

// TestPunctuationLineNamesTheGamesOrder: a line of only punctuation is answered with the game's own
// example order, never another game's notation.
func TestPunctuationLineNamesTheGamesOrder(t *testing.T) {
	_, ds := ParseBlockFor("GAME g1 TURN 1\n:,:\nEND", squadronNotation{})
	text := dumpLine(ds)
	if !strings.Contains(text, "TIGER: 2 S M 2") || strings.Contains(strings.ToLower(text), "plot") {
		t.Errorf("the hint must show the game's example order:\n%s", text)
	}
	_, ds = ParseBlock("GAME g1 TURN 1\n:,:\nEND")
	if text := dumpLine(ds); !strings.Contains(text, "CALLSIGN: order") {
		t.Errorf("without a notation the hint shows the generic shape:\n%s", text)
	}
}

// A game whose rounds are not turns names them ROUND on its GAME line: ROUND n is the header's round
// number, the same field as TURN n (given both, it is given twice).
func TestParseBlockRoundIsTheRoundNumber(t *testing.T) {
	b, ds := ParseBlock("GAME imp1 ROUND 4\nBLUE1: 1\nEND\n")
	if HasLineErrors(ds) || b.Turn != 4 || b.Game != "imp1" {
		t.Fatalf("GAME imp1 ROUND 4: turn %d, game %q, %v", b.Turn, b.Game, ds)
	}
	b, ds = ParseBlock("GAME imp1\nround: 5\nEND\n")
	if HasLineErrors(ds) || b.Turn != 5 {
		t.Errorf("a ROUND line of its own: turn %d, %v", b.Turn, ds)
	}
	if _, ds = ParseBlock("GAME imp1 ROUND 4 TURN 5\nEND\n"); !HasLineErrors(ds) {
		t.Error("ROUND and TURN differently is the round number given twice")
	}
}

// RENEW names one player: read in any case, printed canonically, and anything else is a positioned
// error that says how to write it. It is a moderator's command, so the players' list of commands does
// not name it.
func TestRenewCommand(t *testing.T) {
	b, ds := ParseBlock("GAME g1 SECRET mod-secret-0009\nrenew Bob\nEND")
	if HasLineErrors(ds) {
		t.Fatal(dumpLine(ds))
	}
	if len(b.Commands) != 1 || b.Commands[0].Name != "RENEW" || len(b.Commands[0].Args) != 1 || b.Commands[0].Args[0] != "bob" {
		t.Fatalf("commands %+v", b.Commands)
	}
	if got, want := b.Canonical(), "GAME g1\nRENEW bob\nEND\n"; got != want {
		t.Errorf("Canonical:\n%s\nwant\n%s", got, want)
	}
	if !slices.Contains(ModeratorCommands, "RENEW") || strings.Contains(commandList(), "RENEW") {
		t.Errorf("RENEW must be the moderator's only: %v; the players' commands are %s", ModeratorCommands, commandList())
	}
	for _, line := range []string{"RENEW", "RENEW bob carol", "RENEW bob@example.org", "RENEW TURN", "RENEW b!b"} {
		b, ds := ParseBlock("GAME g1\n" + line + "\nEND")
		if len(b.Commands) != 0 || len(ds) != 1 || ds[0].Code != CodeCommandArgs || ds[0].Line != 2 || ds[0].Col != 1 ||
			!strings.Contains(ds[0].Message, "write RENEW and the player id, e.g. RENEW bob") {
			t.Errorf("%q: commands %+v, diagnostics\n%s", line, b.Commands, dumpLine(ds))
		}
	}
}

// RESEND ROUND n is RESEND TURN n in a game whose GAME line says ROUND (its player's own round count).
func TestResendRound(t *testing.T) {
	b, ds := ParseBlock("GAME imp1\nRESEND ROUND 3\nresend round 2\nEND")
	if HasLineErrors(ds) || len(b.Commands) != 2 {
		t.Fatalf("%+v\n%s", b.Commands, dumpLine(ds))
	}
	for i, want := range []string{"3", "2"} {
		if c := b.Commands[i]; c.Name != "RESEND" || len(c.Args) != 2 || c.Args[0] != "TURN" || c.Args[1] != want {
			t.Errorf("command %d: %+v", i, c)
		}
	}
	if _, ds := ParseBlock("GAME imp1\nRESEND ROUND\nEND"); len(ds) != 1 || !strings.Contains(ds[0].Message, "ROUND needs the number") {
		t.Errorf("RESEND ROUND without a number:\n%s", dumpLine(ds))
	}
}

// Errorf and Warnf make a diagnostic whole: code, column, severity, suggestion and the formatted message.
func TestErrorfAndWarnf(t *testing.T) {
	if d := Errorf(4, "turn", "TR", "no %s turn at speed %d", "TX", 3); d != (Diagnostic{Code: "turn", Col: 4, Severity: SeverityError, Suggestion: "TR", Message: "no TX turn at speed 3"}) {
		t.Errorf("Errorf: %+v", d)
	}
	if d := Warnf(0, "quote", "", "quotation marks read as spaces"); d != (Diagnostic{Code: "quote", Severity: SeverityWarning, Message: "quotation marks read as spaces"}) {
		t.Errorf("Warnf: %+v", d)
	}
}
