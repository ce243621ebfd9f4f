package parser

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseBlock checks, for any mail text: no panic; the limits hold; every diagnostic has a code and a
// message and sits on a line of the text (or line 0) inside that line's columns; and when there is no
// error, the canonical form with the secret parses back, without any diagnostic, to an equal block that
// prints the same (a fixed point), and Canonical does not show the secret.
func FuzzParseBlock(f *testing.F) {
	for _, s := range blockSeeds {
		f.Add(s)
	}
	for _, s := range []string{
		"GAME g\nRED1: 5 FIRE red-2 GUNS nose,tail MAX 3\nCLEAR RED1\nRED1: 1 TR\nREADY\nWAIT\nRESEND 3\nEND",
		"GAME g TURN 1 SECRET s PLAYER p\nred1: SC 1 V 2 +8 HOLD\nred2: 1 SRTL 2 P2\nHELP.",
		"x\n> GAME g\nGAME:g,TURN:2\nSECRET:s\nSTATUS:\n",
		"GAME g\n> q\nRED1: 5\n",
		"GAME g\nRED1 5\nTRUN 3\n2 TR\nEND x",
		"GAME turn\nGAME g\n",
		"\xff\nGAME \xfe\n",
		"GAME g\n\u00a0RED1:\u00a05\u3000\n",
		"help!",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		b, ds := ParseBlock(in)
		lines := strings.Split(in, "\n")
		if len(b.Orders)+len(b.Commands) > MaxBlockItems || len(b.Refused) > MaxBlockItems {
			t.Fatalf("%d orders, %d commands, %d refused: over the limit", len(b.Orders), len(b.Commands), len(b.Refused))
		}
		for _, d := range ds {
			if d.Code == "" || d.Message == "" {
				t.Errorf("diagnostic without code or message: %+v", d)
			}
			if d.Severity != SeverityError && d.Severity != SeverityWarning {
				t.Errorf("diagnostic %q has severity %d", d.Code, d.Severity)
			}
			if d.Line < 0 || d.Line > len(lines) {
				t.Fatalf("diagnostic %q on line %d, outside 0..%d", d.Code, d.Line, len(lines))
			}
			if d.Line == 0 {
				if d.Col != 0 {
					t.Errorf("diagnostic %q about the whole mail at col %d", d.Code, d.Col)
				}
				continue
			}
			n := utf8.RuneCountInString(strings.TrimSuffix(lines[d.Line-1], "\r"))
			if d.Col < 0 || d.Col > n+1 {
				t.Errorf("diagnostic %q at %d:%d, outside 0..%d", d.Code, d.Line, d.Col, n+1)
			}
		}
		for _, o := range slices.Concat(b.Orders, b.Refused) {
			if o.Line < 1 || o.Line > len(lines) || o.Column < 1 || fromColumn(strings.TrimSuffix(lines[o.Line-1], "\r"), o.Column) != o.Text {
				t.Errorf("order %s on line %d with text %q", o.Callsign, o.Line, o.Text)
			}
		}
		if HasLineErrors(ds) {
			return
		}
		if !b.Found && !b.HelpOnly {
			t.Fatalf("%q: neither a block nor a help request, and no error", in)
		}
		s := b.CanonicalWithSecret()
		back, ds2 := ParseBlock(s)
		if len(ds2) > 0 {
			t.Fatalf("%q: canonical form %q draws\n%s", in, s, dumpLine(ds2))
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
	})
}

// FuzzParseBlockOrders checks the service's reading of a mail: no panic, the limits hold, every diagnostic
// sits on a line of the text, and each kept order line is a line of the text with a valid callsign.
func FuzzParseBlockOrders(f *testing.F) {
	for _, s := range blockSeeds {
		f.Add(s)
	}
	f.Add("GAME g TURN 2 SECRET s\nTIGER: 2 S M 2; 2 S M 2\nRED1: 1 TRTR\nAWAY 2026-12-24\nEND")
	f.Fuzz(func(t *testing.T, in string) {
		b, ds := ParseBlock(in)
		if len(b.Orders)+len(b.Commands) > MaxBlockItems {
			t.Fatalf("%d orders and %d commands: over the limit", len(b.Orders), len(b.Commands))
		}
		nlines := strings.Count(in, "\n") + 1
		for _, d := range ds {
			if d.Line < 0 || d.Line > nlines {
				t.Errorf("diagnostic on line %d of %d: %+v", d.Line, nlines, d)
			}
		}
		for _, o := range b.Orders {
			if !IsCallsign(o.Callsign) || !strings.Contains(in, strings.TrimSpace(o.Text)) {
				t.Errorf("kept order %+v is not a line of the text", o)
			}
		}
	})
}

// blockSeeds are mails of every shape the block reader knows: headers in any order and case, commands,
// quotes, signatures, prose around the block, broken lines.
var blockSeeds = []string{
	"GAME chan-1 TURN 3 SECRET lark-swift-0001\nRED1: 2R 1 TR FIRE ANY\nRED2: 5 HOLD\nEND",
	"Hello,\n\nGAME chan-1\nred1: 2 tr 1 tr\nEND\n\nCheers,\nAnna",
	"GAME chan-1\nTURN 2\nSECRET s\nPLAYER anna\nSTATUS\nRESEND TURN 1\nEND",
	"game: chan-1, turn: 2\nCLEAR RED1\nWAIT\nREADY\nAWAY 2026-12-24\nBACK\nEND",
	"> GAME chan-1\n> RED1: 5\nGAME chan-1\nRED1 5\nSTAUTS\n-- \nsig",
	"GAME chan-1\nRED1:\nRED1: 4\nRED1: 5\nEND x\nRED2: 6",
	"GAME\nGAME x TURN 0\nTURN 99999999999\n",
	"HELP",
}

// fromColumn is line from rune column col on (1-based), counting runes as the parser does: a byte of
// broken UTF-8 is one column.
func fromColumn(line string, col int) string {
	n := 1
	for i := range line {
		if n == col {
			return line[i:]
		}
		n++
	}
	if n == col {
		return ""
	}
	return "\x00column out of the line"
}
