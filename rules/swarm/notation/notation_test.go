package notation

import (
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset/rulesettest"
)

type swarmCase struct {
	in        string
	canonical string   // "" when the order has errors
	codes     []string // the error codes, in column order (nil: none)
	warnings  []string // warning codes that must be present
	suggest   string   // the suggestion of the first error, or of the first warning when there is no error
	col       int      // the column of the first error (0: not checked)
}

var swarmCases = []swarmCase{
	// The seed's example move and the grammar's forms.
	{in: "3 R M 1 R 2", canonical: "3 R M 1 R 2 FIRE ANY"},
	{in: "3RM 1R2", canonical: "3 R M 1 R 2 FIRE ANY"},
	{in: "3RM1R2", canonical: "3 R M 1 R 2 FIRE ANY"},
	{in: "2 S L", canonical: "2 S L 2 FIRE ANY"},
	{in: "2 S M 1 1", canonical: "2 S M 2 FIRE ANY"},
	{in: "3 R M", canonical: "3 R M 3 R FIRE ANY", warnings: []string{CodeDefaultPath}, suggest: "3 R M 3 R"},
	{in: "1 L H", canonical: "1 L H 1 L FIRE ANY", warnings: []string{CodeDefaultPath}},
	{in: "2 R M 2 R R HOLD", canonical: "2 R M 2 R R HOLD"},
	{in: "2 s l", canonical: "2 S L 2 FIRE ANY", warnings: []string{parser.CodeLowercase}},
	{in: "2 S L 2 BOMB FIRE ANY", canonical: "2 S L 2 BOMB FIRE ANY"},
	{in: "2 S L 2 HOLD BOMB", canonical: "2 S L 2 BOMB HOLD"},
	{in: "2SLBOMB", canonical: "2 S L 2 BOMB FIRE ANY"},
	{in: "2 S M 2 FIRE adler-2", canonical: "2 S M 2 FIRE ADLER-2"},
	{in: "2 S M 2; 2 S M 2; 3 R M 1 R 2 HOLD", canonical: "2 S M 2 FIRE ANY; 2 S M 2 FIRE ANY; 3 R M 1 R 2 HOLD"},
	{in: "2 S M;", canonical: "2 S M 2 FIRE ANY", warnings: []string{CodeTrailingSemi}},
	{in: "“2 S M 2”.", canonical: "2 S M 2 FIRE ANY", warnings: []string{parser.CodeQuotes, parser.CodeTrailingDot}},
	{in: "2\u00a0S,M 2", canonical: "2 S M 2 FIRE ANY"},

	// The tack.
	{in: "4 S M", codes: []string{CodeTackSpeed}, suggest: "3", col: 1},
	{in: "0 S M", codes: []string{CodeTackSpeed}, suggest: "1", col: 1},
	{in: "S 2 M", codes: []string{CodeTackOrder}, suggest: "2 S M", col: 1},
	{in: "2 M S", codes: []string{CodeTackManoeuvre}, suggest: "2 S M", col: 3},
	{in: "2 1", codes: []string{CodeTackManoeuvre}, col: 3},
	{in: "2 S 1", codes: []string{CodeTackBand}, col: 5},
	{in: "2 S", codes: []string{CodeTackBand}, col: 4},
	{in: "2 S R", codes: []string{CodeTackBand}, col: 5},
	{in: "BOMB", codes: []string{CodeTackSpeed}, col: 1},
	{in: "FIRE ANY", codes: []string{CodeTackSpeed}, col: 1},

	// The path.
	{in: "2 S M 2 S", codes: []string{CodePathToken}, col: 9},
	{in: "2 S M 1 H 1", codes: []string{CodePathToken}, col: 9},
	{in: "2 S L 4", codes: []string{CodeRunRange}, col: 7},
	{in: "2 S L 2 2", codes: []string{CodeRunRange}, col: 9},
	{in: "2 S L 0 2", codes: []string{CodeRunRange}, col: 7},
	{in: "2 S M 1 TR 1", codes: []string{CodeAirForceToken}, suggest: "R", col: 9},
	{in: "2 S M 2 LEFT", codes: []string{parser.CodeUnknownToken}, suggest: "L", col: 9},
	{in: "2 S M 2 BOMP", codes: []string{parser.CodeUnknownToken}, suggest: "BOMB", col: 9},
	{in: "2 S M 2 BOMB BOMB", codes: []string{parser.CodeDuplicate}, col: 14},
	{in: "+1 2 S M", codes: []string{CodeAltFigure}, col: 1},
	{in: "2 S M 2 / 1", codes: []string{parser.CodePunctuation}, col: 9},
	{in: "2 S M 2 😀", codes: []string{parser.CodeBadChar}, col: 9},
	{in: "2 S M 2 É", codes: []string{parser.CodeNonASCII}, col: 9},

	// Turns.
	{in: "2 S M;;2 S M", codes: []string{CodeEmptyTurn}, col: 7},
	{in: "; 2 S M", codes: []string{CodeEmptyTurn}, col: 1},
	{in: "1SM;1SM;1SM;1SM;1SM;1SM;1SM", codes: []string{CodeTooManyTurns}, col: 25},
	{in: "", codes: []string{parser.CodeEmpty}},
	{in: "   ", codes: []string{parser.CodeEmpty}},
	{in: strings.Repeat("2 S M 2 ", 61), codes: []string{parser.CodeTooLong}},

	// The fire order.
	{in: "2 S M 2 FIRE", codes: []string{parser.CodeFireTarget}, suggest: "FIRE ANY", col: 9},
	{in: "2 S M 2 FIRE BOMB", codes: []string{parser.CodeFireTarget}, suggest: "FIRE ANY", col: 14},
	{in: "2 S M 2 FIRE ANY MAX 3", codes: []string{parser.CodeFireSyntax}, col: 18},
	{in: "2 S M 2 HOLD FIRE ANY", codes: []string{parser.CodeFireTwice}, col: 14},
	{in: "2 S M 2 HOLD NOW", codes: []string{parser.CodeFireAfterEnd}, col: 14},
	{in: "2 S M 2 FIRE ANY NOW", codes: []string{parser.CodeFireSyntax}, col: 18},
	{in: "2 S M 2 FIRE ABCDEFGHIJKLMNOPQRSTUVWXYZ", codes: []string{parser.CodeFireTarget}, col: 14},

	// Several faults at once, each with its column.
	{in: "2 S M 2 S; 4 S M; 2 S M 1 TR 1", codes: []string{CodePathToken, CodeTackSpeed, CodeAirForceToken}, col: 9},
}

func TestSwarmParse(t *testing.T) {
	for _, c := range swarmCases {
		o, ds := ParseSwarmOrder(c.in)
		var errs, warns []parser.Diagnostic
		for _, d := range ds {
			if d.Severity == parser.SeverityError {
				errs = append(errs, d)
			} else {
				warns = append(warns, d)
			}
		}
		var codes []string
		for _, d := range errs {
			codes = append(codes, d.Code)
		}
		if strings.Join(codes, " ") != strings.Join(c.codes, " ") {
			t.Errorf("%q: errors %v, want %v (%v)", c.in, codes, c.codes, ds)
			continue
		}
		for _, w := range c.warnings {
			found := false
			for _, d := range warns {
				found = found || d.Code == w
			}
			if !found {
				t.Errorf("%q: no %s warning in %v", c.in, w, ds)
			}
		}
		if c.canonical != "" && o.String() != c.canonical {
			t.Errorf("%q: canonical %q, want %q", c.in, o.String(), c.canonical)
		}
		first := warns
		if len(errs) > 0 {
			first = errs
		}
		if c.suggest != "" && (len(first) == 0 || first[0].Suggestion != c.suggest) {
			t.Errorf("%q: suggestion %v, want %q", c.in, first, c.suggest)
		}
		if c.col != 0 && errs[0].Col != c.col {
			t.Errorf("%q: first error at column %d, want %d (%v)", c.in, errs[0].Col, c.col, errs[0])
		}
		for _, d := range ds {
			if d.Message == "" || d.Code == "" {
				t.Errorf("%q: diagnostic without code or message: %+v", c.in, d)
			}
		}
	}
}

// TestSwarmStructure checks what the parser yields for the seed's example, beyond its canonical form.
func TestSwarmStructure(t *testing.T) {
	o, ds := ParseSwarmOrder(" 3RM 1R2 BOMB FIRE zero-1; 2 l h")
	if parser.HasErrors(ds) || len(o.Turns) != 2 {
		t.Fatalf("%v %v", o, ds)
	}
	a, b := o.Turns[0], o.Turns[1]
	if a.Tack != (SwarmTack{3, SwarmRight, SwarmMedium}) || a.Segments() != 3 || a.Changes() != 1 || !a.Bomb ||
		a.Fire.Mode != parser.FireTarget || a.Fire.Target != "ZERO-1" || a.DefaultPath || a.Col != 2 || a.Path[1].Col != 7 || a.BombCol != 10 {
		t.Errorf("first turn: %+v", a)
	}
	if b.Tack != (SwarmTack{2, SwarmLeft, SwarmHigh}) || !b.DefaultPath || b.Segments() != 2 || b.Changes() != 1 || !b.Fire.Default || b.Col != 28 {
		t.Errorf("second turn: %+v", b)
	}
	tk, ds := ParseSwarmTack("2SL")
	if parser.HasErrors(ds) || tk.String() != "2 S L" {
		t.Errorf("ParseSwarmTack: %v %v", tk, ds)
	}
	for _, bad := range []string{"2 S L 2", "2 S L HOLD", "2 S L; 2 S L", "2 S", "x"} {
		if _, ds := ParseSwarmTack(bad); !parser.HasErrors(ds) {
			t.Errorf("ParseSwarmTack(%q) is no tack alone, but drew no error", bad)
		}
	}
}

func TestSwarmRoundTrip(t *testing.T) {
	for _, c := range swarmCases {
		o, ds := ParseSwarmOrder(c.in)
		if parser.HasErrors(ds) {
			continue
		}
		s := o.String()
		back, ds2 := ParseSwarmOrder(s)
		if len(ds2) > 0 || !back.Equal(o) || back.String() != s {
			t.Errorf("%q: canonical %q reads back as %q with %v", c.in, s, back.String(), ds2)
		}
	}
}

// swarmDocBlock is one ```swarm block of docs/notation.md: input (required), canonical, turns, segments,
// error/warning codes, suggest and col after an error or warning line.
type swarmDocBlock struct {
	line  int
	keys  map[string]string
	diags []rulesettest.DocDiag
}

func TestSwarmNotationDoc(t *testing.T) {
	var blocks []swarmDocBlock
	for _, db := range rulesettest.DocBlocks(t, "../../../docs/notation.md", "swarm") {
		b := swarmDocBlock{line: db.Line, keys: map[string]string{}}
		for j, line := range db.Lines {
			at := "notation.md:" + strconv.Itoa(db.Line+1+j)
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("%s: want key: value, got %q", at, line)
			}
			v = strings.TrimPrefix(v, " ")
			if rulesettest.ReadDocDiag(t, at, &b.diags, k, v) {
				continue
			}
			switch k {
			case "input", "canonical", "turns", "segments":
				b.keys[k] = v
			default:
				t.Fatalf("%s: unknown key %q", at, k)
			}
		}
		blocks = append(blocks, b)
	}
	if len(blocks) < 12 {
		t.Fatalf("the Swarm section has %d examples; the guide promises more", len(blocks))
	}
	for _, b := range blocks {
		in, ok := b.keys["input"]
		if !ok {
			t.Fatalf("notation.md:%d: no input", b.line)
		}
		o, ds := ParseSwarmOrder(in)
		rulesettest.CheckDocDiags(t, "notation.md:"+strconv.Itoa(b.line)+": "+strconv.Quote(in), b.diags, ds)
		if c, ok := b.keys["canonical"]; ok && o.String() != c {
			t.Errorf("notation.md:%d: %q reads as %q, the guide says %q", b.line, in, o.String(), c)
		}
		if n, ok := b.keys["turns"]; ok && strconv.Itoa(len(o.Turns)) != n {
			t.Errorf("notation.md:%d: %q has %d turns, the guide says %s", b.line, in, len(o.Turns), n)
		}
		if n, ok := b.keys["segments"]; ok {
			got := 0
			for _, tn := range o.Turns {
				got += tn.Segments()
			}
			if strconv.Itoa(got) != n {
				t.Errorf("notation.md:%d: %q flies %d segments, the guide says %s", b.line, in, got, n)
			}
		}
	}
}

// FuzzParseSwarmOrder checks, for any text: no panic; every diagnostic has a code and a message and sits
// inside the text (or at column 0); every path token and turn is positioned inside the text; and when
// there is no error, the canonical form parses back, without any diagnostic, to an equal order that
// prints the same (a fixed point).
func FuzzParseSwarmOrder(f *testing.F) {
	for _, c := range swarmCases {
		f.Add(c.in)
	}
	for _, s := range []string{"3RM1R2;2SL", "2 S M 2 FIRE ANY BOMB;1SH", ";;;", "1\u2013 S", "l l l", "9999999999999999 S M", "2 S M 2 FIRE \"x\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		o, ds := ParseSwarmOrder(in)
		n := rulesettest.Diagnosed(t, in, ds)
		if parser.HasErrors(ds) {
			return
		}
		if len(o.Turns) == 0 || len(o.Turns) > MaxSwarmTurns {
			t.Fatalf("%q: no error, but %d turns", in, len(o.Turns))
		}
		for _, tn := range o.Turns {
			if tn.Col < 1 || tn.Col > n {
				t.Errorf("turn at col %d, outside 1..%d", tn.Col, n)
			}
			for _, s := range tn.Path {
				if s.Col < 1 || s.Col > n || (s.N == 0) == (s.Turn == 0) || s.N > MaxSwarmRun {
					t.Errorf("%q: path step %+v", in, s)
				}
			}
			if tn.Tack.Speed < 1 || tn.Tack.Speed > MaxSwarmSpeed || !strings.ContainsRune("LSR", rune(tn.Tack.Man)) || !strings.ContainsRune("HML", rune(tn.Tack.Band)) {
				t.Errorf("%q: tack %+v", in, tn.Tack)
			}
		}
		rulesettest.ReadsBack(t, in, o, ParseSwarmOrder)
	})
}
