package notation

import (
	"fmt"
	"strings"
	"testing"

	"sortie/parser"
)

// Shorthands for expected elements (columns are not part of Plot.Equal).
func st(n int) Element         { return Element{Kind: Straight, N: n} }
func turn(s Side) Element      { return Element{Kind: Turn, Side: s} }
func slip(s Side) Element      { return Element{Kind: Slip, Side: s} }
func skid(s Side) Element      { return Element{Kind: SkidTurn, Side: s} }
func halfRoll(s Side) Element  { return Element{Kind: HalfRoll, Side: s} }
func immelmann(s Side) Element { return Element{Kind: Immelmann, Side: s} }
func bankTo(b Bank) Element    { return Element{Kind: BankTo, Bank: b} }
func roll(s Side) Element      { return Element{Kind: Roll, Side: s} }

var halfLoop = Element{Kind: HalfLoop}

func els(e ...Element) []Element { return e }

// validTests are plots that parse without error. canonical is the printed form.
var validTests = []struct {
	in        string
	want      Plot
	canonical string
}{
	// The worked example of docs/rulings.md: plot notation.
	{"2R 1 TR STEEP P", Plot{Elements: els(st(2), turn(Right), st(1), turn(Right)), Steep: true, Power: 1},
		"2 TR 1 TR STEEP P"},
	// Every movement token.
	{"3", Plot{Elements: els(st(3))}, "3"},
	{"99", Plot{Elements: els(st(99))}, "99"},
	{"02", Plot{Elements: els(st(2))}, "2"},
	{"TR", Plot{Elements: els(turn(Right))}, "TR"},
	{"TL", Plot{Elements: els(turn(Left))}, "TL"},
	{"SR", Plot{Elements: els(slip(Right))}, "SR"},
	{"SL", Plot{Elements: els(slip(Left))}, "SL"},
	{"SRTL", Plot{Elements: els(skid(Right))}, "SRTL"},
	{"SLTR", Plot{Elements: els(skid(Left))}, "SLTR"},
	{"HR", Plot{Elements: els(halfRoll(Right))}, "HR"},
	{"HL", Plot{Elements: els(halfRoll(Left))}, "HL"},
	{"V", Plot{Elements: els(halfLoop)}, "V"},
	{"VRR", Plot{Elements: els(immelmann(Right))}, "VRR"},
	{"VLL", Plot{Elements: els(immelmann(Left))}, "VLL"},
	{"RB", Plot{Elements: els(bankTo(BankRB))}, "RB"},
	{"LB", Plot{Elements: els(bankTo(BankLB))}, "LB"},
	{"N", Plot{Elements: els(bankTo(BankN))}, "N"},
	{"I", Plot{Elements: els(bankTo(BankI))}, "I"},
	{"IR", Plot{Elements: els(bankTo(BankIR))}, "IR"},
	{"IL", Plot{Elements: els(bankTo(BankIL))}, "IL"},
	{"BR", Plot{Elements: els(roll(Right))}, "BR"},
	{"BL", Plot{Elements: els(roll(Left))}, "BL"},
	// Aliases.
	{"R", Plot{Elements: els(turn(Right))}, "TR"},
	{"L", Plot{Elements: els(turn(Left))}, "TL"},
	{"RR", Plot{Elements: els(halfRoll(Right))}, "HR"},
	{"RL", Plot{Elements: els(halfRoll(Left))}, "HL"},
	{"SC +10", Plot{Steep: true, Alt: 1000}, "STEEP +1000"},
	{"SD", Plot{Steep: true}, "STEEP"},
	{"SD -6", Plot{Steep: true, Alt: -600}, "STEEP -600"},
	{"VD", Plot{Vert: true}, "VERT"},
	// Flags and adjustments, anywhere on the line.
	{"STEEP 3", Plot{Elements: els(st(3)), Steep: true}, "3 STEEP"},
	{"1 VERT N 1", Plot{Elements: els(st(1), bankTo(BankN), st(1)), Vert: true}, "1 N 1 VERT"},
	{"VERT BOMB 2", Plot{Elements: els(st(2)), Vert: true, Bomb: true}, "2 VERT BOMB"},
	{"P", Plot{Power: 1}, "P"},
	{"PP", Plot{Power: 2}, "PP"},
	{"PPP", Plot{Power: 3}, "P3"},
	{"PPPP", Plot{Power: 4}, "P4"},
	{"P1", Plot{Power: 1}, "P"},
	{"P2", Plot{Power: 2}, "PP"},
	{"P9", Plot{Power: 9}, "P9"},
	{"K", Plot{Brake: 1}, "K"},
	{"KK", Plot{Brake: 2}, "KK"},
	{"KKK", Plot{Brake: 3}, "K3"},
	{"K3", Plot{Brake: 3}, "K3"},
	{"3 P2 K1", Plot{Elements: els(st(3)), Power: 2, Brake: 1}, "3 PP K"},
	{"+10", Plot{Alt: 1000}, "+1000"},
	{"-10", Plot{Alt: -1000}, "-1000"},
	{"+1", Plot{Alt: 100}, "+100"},
	{"+99", Plot{Alt: 9900}, "+9900"},
	{"+100", Plot{Alt: 100}, "+100"},
	{"-1500", Plot{Alt: -1500}, "-1500"},
	{"+1000FT", Plot{Alt: 1000}, "+1000"},
	{"+1000 FT", Plot{Alt: 1000}, "+1000"},
	{"-2000ft", Plot{Alt: -2000}, "-2000"},
	{"+99900", Plot{Alt: 99900}, "+99900"},
	{"+1,000", Plot{Alt: 1000}, "+1000"},
	{"-12,500", Plot{Alt: -12500}, "-12500"},
	{"+05", Plot{Alt: 500}, "+500"},
	{"4 \u221210", Plot{Elements: els(st(4)), Alt: -1000}, "4 -1000"},
	{"4 \u201310", Plot{Elements: els(st(4)), Alt: -1000}, "4 -1000"},
	{"4 \u201410", Plot{Elements: els(st(4)), Alt: -1000}, "4 -1000"},
	{"4 +0", Plot{Elements: els(st(4))}, "4"},
	{"4 -0", Plot{Elements: els(st(4))}, "4"},
	// Merging of straights.
	{"1 1", Plot{Elements: els(st(2))}, "2"},
	{"1,1,1", Plot{Elements: els(st(3))}, "3"},
	{"1 STEEP 1", Plot{Elements: els(st(2)), Steep: true}, "2 STEEP"},
	{"50 49", Plot{Elements: els(st(99))}, "99"},
	// Gluing at digit/letter boundaries and before a sign.
	{"2R", Plot{Elements: els(st(2), turn(Right))}, "2 TR"},
	{"1TR1TR", Plot{Elements: els(st(1), turn(Right), st(1), turn(Right))}, "1 TR 1 TR"},
	{"TR2", Plot{Elements: els(turn(Right), st(2))}, "TR 2"},
	{"TR+10", Plot{Elements: els(turn(Right)), Alt: 1000}, "TR +1000"},
	{"2-5", Plot{Elements: els(st(2)), Alt: -500}, "2 -500"},
	{"+10TR", Plot{Elements: els(turn(Right)), Alt: 1000}, "TR +1000"},
	{"2P", Plot{Elements: els(st(2)), Power: 1}, "2 P"},
	{"2P2", Plot{Elements: els(st(2)), Power: 2}, "2 PP"},
	{"P 2", Plot{Elements: els(st(2)), Power: 1}, "2 P"},
	{"1SRTL1SLTR", Plot{Elements: els(st(1), skid(Right), st(1), skid(Left))}, "1 SRTL 1 SLTR"},
	// Separators, case, quotes, a trailing full stop.
	{"  2\tTR,,1 ,TR  ", Plot{Elements: els(st(2), turn(Right), st(1), turn(Right))}, "2 TR 1 TR"},
	{"2\u00a0TR", Plot{Elements: els(st(2), turn(Right))}, "2 TR"},
	{"\ufeff2 TR", Plot{Elements: els(st(2), turn(Right))}, "2 TR"},
	{"2r 1 tr steep p", Plot{Elements: els(st(2), turn(Right), st(1), turn(Right)), Steep: true, Power: 1},
		"2 TR 1 TR STEEP P"},
	{"1l", Plot{Elements: els(st(1), turn(Left))}, "1 TL"},
	{"Vrr SlTr", Plot{Elements: els(immelmann(Right), skid(Left))}, "VRR SLTR"},
	{"\u201c2 TR\u201d", Plot{Elements: els(st(2), turn(Right))}, "2 TR"},
	{"'2 TR' \"1\" \u2018TL\u2019 \u00abP\u00bb", Plot{Elements: els(st(2), turn(Right), st(1), turn(Left)), Power: 1},
		"2 TR 1 TL P"},
	{"2 TR.", Plot{Elements: els(st(2), turn(Right))}, "2 TR"},
	// Longer plots.
	{"1 HR 1 SLTR RB 2 STEEP -30 K", Plot{Elements: els(st(1), halfRoll(Right), st(1), skid(Left),
		bankTo(BankRB), st(2)), Steep: true, Alt: -3000, Brake: 1}, "1 HR 1 SLTR RB 2 STEEP K -3000"},
	{"SC 1 V 1 +8 P3", Plot{Elements: els(st(1), halfLoop, st(1)), Steep: true, Alt: 800, Power: 3},
		"1 V 1 STEEP P3 +800"},
	{"VERT BOMB BL BL N 1", Plot{Elements: els(roll(Left), roll(Left), bankTo(BankN), st(1)), Vert: true,
		Bomb: true}, "BL BL N 1 VERT BOMB"},
	{"TR TR TR TR", Plot{Elements: els(turn(Right), turn(Right), turn(Right), turn(Right))}, "TR TR TR TR"},
	{"STEEP", Plot{Steep: true}, "STEEP"},
}

func TestParseValid(t *testing.T) {
	for _, tt := range validTests {
		t.Run(tt.in, func(t *testing.T) {
			got, ds := ParsePlot(tt.in)
			if parser.HasErrors(ds) {
				t.Fatalf("ParsePlot(%q): unexpected errors %v", tt.in, ds)
			}
			if !got.Equal(tt.want) {
				t.Errorf("ParsePlot(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if s := got.String(); s != tt.canonical {
				t.Errorf("ParsePlot(%q).String() = %q, want %q", tt.in, s, tt.canonical)
			}
			if got.MPs() != tt.want.MPs() {
				t.Errorf("ParsePlot(%q).MPs() = %d, want %d", tt.in, got.MPs(), tt.want.MPs())
			}
		})
	}
}

func TestWorkedExample(t *testing.T) {
	p, ds := ParsePlot("2R 1 TR STEEP P")
	if parser.HasErrors(ds) {
		t.Fatal(ds)
	}
	if p.MPs() != 5 {
		t.Errorf("MPs = %d, want 5", p.MPs())
	}
	if got := p.String(); got != "2 TR 1 TR STEEP P" {
		t.Errorf("String = %q", got)
	}
	wantCols := []int{1, 2, 4, 6}
	for i, e := range p.Elements {
		if e.Col != wantCols[i] {
			t.Errorf("element %d (%s) col %d, want %d", i, e.Token(), e.Col, wantCols[i])
		}
	}
	if p.Elements[1].Alias != "R" || p.Elements[3].Alias != "" {
		t.Errorf("aliases %q %q, want \"R\" \"\"", p.Elements[1].Alias, p.Elements[3].Alias)
	}
	if p.Col("STEEP") != 9 || p.Col("P") != 15 || p.Col("VERT") != 0 {
		t.Errorf("flag cols %v", p.FlagCols)
	}
	if len(ds) != 1 || ds[0].Code != CodeAlias || ds[0].Col != 2 || ds[0].Suggestion != "TR" {
		t.Errorf("diagnostics %v, want one alias warning at col 2", ds)
	}
}

func TestFlagCols(t *testing.T) {
	p, ds := ParsePlot("BOMB 1 VD K2 P \u2212500FT 2")
	if parser.HasErrors(ds) {
		t.Fatal(ds)
	}
	want := map[string]int{"BOMB": 1, "VERT": 8, "K": 11, "P": 14, "ALT": 16}
	for k, v := range want {
		if p.Col(k) != v {
			t.Errorf("Col(%q) = %d, want %d (all: %v)", k, p.Col(k), v, p.FlagCols)
		}
	}
	if len(p.FlagCols) != len(want) {
		t.Errorf("FlagCols = %v, want %v", p.FlagCols, want)
	}
	// Merged straights keep the column of the first run; a smart character is one column.
	if len(p.Elements) != 1 || p.Elements[0].Col != 6 || p.Elements[0].N != 3 {
		t.Errorf("elements %+v", p.Elements)
	}
	p, _ = ParsePlot("\u201cTR\u201d 1")
	if p.Elements[0].Col != 2 || p.Elements[1].Col != 6 {
		t.Errorf("columns after smart quotes: %+v", p.Elements)
	}
}

func TestAliasRecorded(t *testing.T) {
	for in, alias := range map[string]string{"R": "R", "l": "l", "RR": "RR", "rl": "rl", "TR": "", "HL": ""} {
		p, _ := ParsePlot(in)
		if len(p.Elements) != 1 || p.Elements[0].Alias != alias {
			t.Errorf("ParsePlot(%q) elements %+v, want alias %q", in, p.Elements, alias)
		}
	}
}

// dw is an expected diagnostic: code, column, suggestion; warnings are marked with a "W:" code prefix.
type dw struct {
	code    string
	col     int
	suggest string
}

func (d dw) String() string { return fmt.Sprintf("%s@%d[%s]", d.code, d.col, d.suggest) }

func warn(code string) string { return "W:" + code }

// diagTests list every diagnostic a plot gets, in column order.
var diagTests = []struct {
	in   string
	want []dw
}{
	{"", []dw{{parser.CodeEmpty, 0, ""}}},
	{"   \t ", []dw{{parser.CodeEmpty, 0, ""}}},
	{strings.Repeat("1 ", 151), []dw{{parser.CodeTooLong, 0, ""}}},
	// Glued letters.
	{"1 TRTR", []dw{{CodeGluedLetters, 3, "TR TR"}}},
	{"TRR", []dw{{CodeGluedLetters, 1, "TR R"}}},
	{"TLL", []dw{{CodeGluedLetters, 1, "TL L"}}},
	{"SRTLTR", []dw{{CodeGluedLetters, 1, "SRTL TR"}}},
	{"STEEPP", []dw{{CodeGluedLetters, 1, "STEEP P"}}},
	{"2 TRSTEEP", []dw{{CodeGluedLetters, 3, "TR STEEP"}}},
	{"PK", []dw{{CodeGluedLetters, 1, "P K"}}},
	{"trtl", []dw{{CodeGluedLetters, 1, "TR TL"}}},
	// Aliases and case.
	{"2R", []dw{{warn(CodeAlias), 2, "TR"}}},
	{"L", []dw{{warn(CodeAlias), 1, "TL"}}},
	{"1 RR", []dw{{warn(CodeAlias), 3, "HR"}}},
	{"RL", []dw{{warn(CodeAlias), 1, "HL"}}},
	{"2 tr", []dw{{warn(parser.CodeLowercase), 3, "TR"}}},
	{"2 Tr steep", []dw{{warn(parser.CodeLowercase), 3, "TR"}}},
	{"1l", []dw{{warn(CodeAlias), 2, "TL"}, {warn(parser.CodeLowercase), 2, "L"}}},
	// Skid turns, Immelmanns, banks.
	{"SRTR", []dw{{CodeSkidDirection, 1, "SRTL"}}},
	{"1 sltl", []dw{{CodeSkidDirection, 3, "SLTR"}}},
	{"VR", []dw{{CodeImmelmannForm, 1, "VRR"}}},
	{"VL", []dw{{CodeImmelmannForm, 1, "VLL"}}},
	{"2 VRL", []dw{{CodeImmelmannForm, 3, "VRR"}}},
	{"VLR", []dw{{CodeImmelmannForm, 1, "VLL"}}},
	{"1 B", []dw{{CodeBankWhichWay, 3, ""}}},
	// Tokens split or left incomplete.
	{"1 S R", []dw{{CodeSplitToken, 3, "SR"}}},
	{"S L 1", []dw{{CodeSplitToken, 1, "SL"}}},
	{"T R", []dw{{CodeSplitToken, 1, "TR"}}},
	{"1T L", []dw{{CodeSplitToken, 2, "TL"}}},
	{"h r", []dw{{CodeSplitToken, 1, "HR"}}},
	{"T", []dw{{CodeIncompleteToken, 1, ""}}},
	{"2 H 1", []dw{{CodeIncompleteToken, 3, ""}}},
	{"S", []dw{{CodeIncompleteToken, 1, ""}}},
	// Unknown words.
	{"2 XYZ", []dw{{parser.CodeUnknownToken, 3, ""}}},
	{"STEP", []dw{{parser.CodeUnknownToken, 1, "STEEP"}}},
	{"2 VRET", []dw{{parser.CodeUnknownToken, 3, "VERT"}}},
	{"BOMBS", []dw{{parser.CodeUnknownToken, 1, "BOMB"}}},
	{"VERTICAL", []dw{{parser.CodeUnknownToken, 1, "VERT"}}},
	{"SLRT", []dw{{parser.CodeUnknownToken, 1, "SLTR"}}},
	{"TX", []dw{{parser.CodeUnknownToken, 1, ""}}},
	{"X", []dw{{parser.CodeUnknownToken, 1, ""}}},
	{"FIRE ANY", []dw{{CodeFireOrder, 1, ""}}},
	{"2 TR hold", []dw{{CodeFireOrder, 6, ""}}},
	{"ST\u00c9EP", []dw{{parser.CodeNonASCII, 1, "STEEP"}}},
	{"\uff34\uff32", []dw{{parser.CodeNonASCII, 1, "TR"}}},
	{"2 \u0422R", []dw{{parser.CodeNonASCII, 3, ""}}},
	// Numbers.
	{"1O", []dw{{CodeLetterO, 1, "10"}}},
	{"O2", []dw{{CodeLetterO, 1, "2"}}},
	{"TR 1o TR", []dw{{CodeLetterO, 4, "10"}}},
	{"OO", []dw{{parser.CodeUnknownToken, 1, ""}}},
	{"+1O", []dw{{CodeLetterO, 1, "+10"}}},
	{"P1O", []dw{{CodeLetterO, 1, "P10"}}},
	{"0", []dw{{CodeZeroHexes, 1, ""}}},
	{"TR 00", []dw{{CodeZeroHexes, 4, ""}}},
	{"100", []dw{{CodeTooManyHexes, 1, ""}}},
	{"2 99999999999999999999999", []dw{{CodeTooManyHexes, 3, ""}}},
	{"60 40", []dw{{CodeTooManyHexes, 1, ""}}},
	// Characters.
	{"2;TR", []dw{{parser.CodePunctuation, 2, ""}}},
	{"1: TR", []dw{{parser.CodePunctuation, 2, ""}}},
	{"TR/TL", []dw{{parser.CodePunctuation, 3, ""}}},
	{"TR!", []dw{{parser.CodePunctuation, 3, ""}}},
	{"TR?", []dw{{parser.CodePunctuation, 3, ""}}},
	{"(STEEP)", []dw{{parser.CodePunctuation, 1, ""}, {parser.CodePunctuation, 7, ""}}},
	{"2 TR. 1", []dw{{parser.CodePunctuation, 5, ""}}},
	{"2 TR..", []dw{{parser.CodePunctuation, 5, ""}}},
	{"2 TR.", []dw{{warn(parser.CodeTrailingDot), 5, ""}}},
	{"\u201c2 TR.\u201d", []dw{{warn(parser.CodeQuotes), 1, ""}, {warn(parser.CodeTrailingDot), 6, ""}}},
	{".", []dw{{parser.CodeEmpty, 0, ""}, {warn(parser.CodeTrailingDot), 1, ""}}},
	{"\u201c2 TR\u201d", []dw{{warn(parser.CodeQuotes), 1, ""}}},
	{"2 \"TR\" 'TL'", []dw{{warn(parser.CodeQuotes), 3, ""}}},
	{"\u00ab2\u00bb", []dw{{warn(parser.CodeQuotes), 1, ""}}},
	{"2 \U0001F600 TR", []dw{{parser.CodeBadChar, 3, ""}}},
	{"2\x00TR", []dw{{parser.CodeBadChar, 2, ""}}},
	{"2 \xff\xfe", []dw{{parser.CodeBadChar, 3, ""}}},
	{"\x1b[1R", []dw{{parser.CodeBadChar, 1, ""}, {parser.CodePunctuation, 2, ""}, {warn(CodeAlias), 4, "TR"}}},
	{"\u0663", []dw{{parser.CodeBadChar, 1, ""}}},
	// Power and brake.
	{"P0", []dw{{CodePowerRange, 1, ""}}},
	{"2 P10", []dw{{CodePowerRange, 3, ""}}},
	{"PPPPPPPPPP", []dw{{CodePowerRange, 1, ""}}},
	{"K0", []dw{{CodeBrakeRange, 1, ""}}},
	{"PP2", []dw{{CodeFactorForm, 1, "PP 2"}}},
	{"KK3", []dw{{CodeFactorForm, 1, "KK 3"}}},
	{"P P", []dw{{parser.CodeDuplicate, 3, "PP"}}},
	{"K 1 K2", []dw{{parser.CodeDuplicate, 5, "K3"}}},
	// Altitude.
	{"+150", []dw{{CodeAltMultiple, 1, "+100 or +200"}}},
	{"2 -1250", []dw{{CodeAltMultiple, 3, "-1200 or -1300"}}},
	{"+10FT", []dw{{CodeAltMultiple, 1, "+1000"}}},
	{"+1,050", []dw{{CodeAltMultiple, 1, "+1000 or +1100"}}},
	{"+100000", []dw{{CodeAltRange, 1, ""}}},
	{"+99999999999999999999", []dw{{CodeAltRange, 1, ""}}},
	{"2 +0", []dw{{warn(CodeAltZero), 3, ""}}},
	{"+0", []dw{{parser.CodeEmpty, 0, ""}, {warn(CodeAltZero), 1, ""}}},
	{"2 \u221210", []dw{{warn(CodeDash), 3, "-10"}}},
	{"2 \u201315", []dw{{warn(CodeDash), 3, "-15"}}},
	{"2 \u20145FT", []dw{{warn(CodeDash), 3, "-5FT"}, {CodeAltMultiple, 3, "-500"}}},
	{"+ 10", []dw{{CodeSignSpace, 1, "+10"}}},
	{"2 - 5", []dw{{CodeSignSpace, 3, "-5"}}},
	{"2 \u2013 1 TR", []dw{{CodeSignSpace, 3, "-1"}}},
	{"+1.000", []dw{{parser.CodePunctuation, 1, "+1000"}}},
	{"2 +", []dw{{CodeLoneSign, 3, ""}}},
	{"- TR", []dw{{CodeLoneSign, 1, ""}}},
	{"+-5", []dw{{CodeLoneSign, 1, ""}}},
	{"1000FT", []dw{{CodeMissingSign, 1, ""}}},
	{"2 10 ft", []dw{{CodeMissingSign, 3, ""}}},
	{"TR FT", []dw{{CodeStrayFT, 4, ""}}},
	{"2 FT", []dw{{CodeMissingSign, 1, ""}}},
	{"2 -2000ft", nil}, // "ft" draws no lower-case warning
	{"2 +10 FT", []dw{{CodeAltMultiple, 3, "+1000"}}},
	// Flags given twice or clashing.
	{"STEEP 2 STEEP", []dw{{parser.CodeDuplicate, 9, ""}}},
	{"STEEP SD", []dw{{parser.CodeDuplicate, 7, ""}}},
	{"VERT VD", []dw{{parser.CodeDuplicate, 6, ""}}},
	{"BOMB 1 BOMB", []dw{{parser.CodeDuplicate, 8, ""}}},
	{"+10 2 -5", []dw{{parser.CodeDuplicate, 7, ""}}},
	{"STEEP 2 VERT", []dw{{CodeSteepAndVert, 9, ""}}},
	{"VD SD", []dw{{CodeSteepAndVert, 4, ""}}},
	{"SC 3", []dw{{CodeSCNeedsClimb, 1, ""}}},
	{"SC 3 +0", []dw{{CodeSCNeedsClimb, 1, ""}, {warn(CodeAltZero), 6, ""}}},
	{"SC 3 -5", []dw{{CodeSCNeedsClimb, 1, "SD"}}},
	{"SD 3 +5", []dw{{CodeSDClimb, 1, "SC"}}},
	// Several faults in one line, all reported.
	{"1 TRTR ; S R +150 XYZ", []dw{{CodeGluedLetters, 3, "TR TR"}, {parser.CodePunctuation, 8, ""},
		{CodeSplitToken, 10, "SR"}, {CodeAltMultiple, 14, "+100 or +200"}, {parser.CodeUnknownToken, 19, ""}}},
}

func TestDiagnostics(t *testing.T) {
	for _, tt := range diagTests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			_, ds := ParsePlot(tt.in)
			var got []dw
			for _, d := range ds {
				code := d.Code
				if d.Severity == parser.SeverityWarning {
					code = warn(code)
				}
				got = append(got, dw{code, d.Col, d.Suggestion})
				if d.Message == "" {
					t.Errorf("%s has no message", d.Code)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("ParsePlot(%q) diagnostics\n got %v\nwant %v\n%s", tt.in, got, tt.want, dump(ds))
			}
			wantErr := false
			for _, w := range tt.want {
				wantErr = wantErr || !strings.HasPrefix(w.code, "W:")
			}
			if parser.HasErrors(ds) != wantErr {
				t.Errorf("HasErrors = %v, want %v", parser.HasErrors(ds), wantErr)
			}
		})
	}
}

func dump(ds []parser.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  [%s] %s\n", d.Code, d.Error())
	}
	return b.String()
}

// The messages name the text they are about and say what was expected.
func TestMessages(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"1 TRTR", []string{`"TRTR"`}},
		{"TRR", []string{`"TRR"`, "TR R", "VRR", "Immelmann"}},
		{"2 XYZ", []string{`unknown token "XYZ"`, "TR TL", "STEEP"}},
		{"TX", []string{"perhaps TR or TL"}},
		{"2;TR", []string{"semicolon", `";"`}},
		{"TR(", []string{"bracket", `"("`}},
		{"2 \U0001F600", []string{"U+1F600"}},
		{"2 \x07", []string{"U+0007"}},
		{"\xff", []string{"invalid byte 0xFF"}},
		{"STEEP 2 STEEP", []string{"column 1", "column 9"}},
		{"STEEP 2 VD", []string{"column 1", "column 9", `"VD"`}},
		{"+10 +20", []string{`"+10" at column 1`, `"+20" at column 5`}},
		{"B", []string{"BR or BL", "RB"}},
		{"FIRE ANY", []string{"fire order", "after"}},
		{"1l", []string{"letter L"}},
		{"2 TR.", []string{"full stop"}},
		{"\u201c2\u201d", []string{"quotation marks ignored"}},
		{strings.Repeat("1 ", 200), []string{"plot too long"}},
		{"", []string{"empty plot"}},
		{"+150", []string{`"+150"`, "multiple of 100"}},
		{"+ 10", []string{`"+ 10"`}},
		{"1O", []string{`"1O"`, "letter O"}},
	}
	for _, tt := range tests {
		_, ds := ParsePlot(tt.in)
		all := dump(ds)
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("ParsePlot(%q): messages lack %q:\n%s", tt.in, w, all)
			}
		}
	}
}

func TestDiagnosticError(t *testing.T) {
	d := parser.Diagnostic{Code: CodeGluedLetters, Message: "x", Col: 5, Suggestion: "TR TR"}
	if got := d.Error(); got != "col 5: x (did you mean TR TR?)" {
		t.Errorf("Error() = %q", got)
	}
	d = parser.Diagnostic{Code: CodeAlias, Message: "y", Col: 2, Severity: parser.SeverityWarning}
	if got := d.Error(); got != "col 2: warning: y" {
		t.Errorf("Error() = %q", got)
	}
	d = parser.Diagnostic{Code: parser.CodeEmpty, Message: "empty plot"}
	if got := d.Error(); got != "empty plot" {
		t.Errorf("Error() = %q", got)
	}
	var err error = d // Diagnostic is an error value
	_ = err
	if parser.SeverityError.String() != "error" || parser.SeverityWarning.String() != "warning" {
		t.Error("Severity.String")
	}
	if parser.HasErrors(nil) || parser.HasErrors([]parser.Diagnostic{{Severity: parser.SeverityWarning}}) ||
		!parser.HasErrors([]parser.Diagnostic{{Severity: parser.SeverityWarning}, {Severity: parser.SeverityError}}) {
		t.Error("HasErrors")
	}
}

func TestLengthLimit(t *testing.T) {
	ok := strings.Repeat("1 TR ", 59) + "1 TR1" // 300 runes
	if _, ds := ParsePlot(ok); parser.HasErrors(ds) {
		t.Errorf("300 runes rejected: %v", ds)
	}
	if n := len([]rune(ok)); n != 300 {
		t.Fatalf("test plot has %d runes", n)
	}
	long := ok + "1"
	if _, ds := ParsePlot(long); len(ds) != 1 || ds[0].Code != parser.CodeTooLong {
		t.Errorf("301+ runes: %v", ds)
	}
	// Surrounding spaces do not count; runes, not bytes, do.
	if _, ds := ParsePlot("   " + ok + "\n\n"); parser.HasErrors(ds) {
		t.Errorf("padded 300 runes rejected: %v", ds)
	}
	smart := strings.Repeat("\u201c", 299) + "1"
	if _, ds := ParsePlot(smart); parser.HasErrors(ds) {
		t.Errorf("300 runes of smart quotes rejected: %v", ds)
	}
	// Huge input: one diagnostic, quickly.
	if _, ds := ParsePlot(strings.Repeat("TRTR", 1<<18)); len(ds) != 1 || ds[0].Code != parser.CodeTooLong {
		t.Errorf("huge input: %d diagnostics", len(ds))
	}
}

// roundTripInputs are the valid inputs plus more, for the round trip and the fuzz seed corpus.
func roundTripInputs() []string {
	var in []string
	for _, tt := range validTests {
		in = append(in, tt.in)
	}
	in = append(in,
		"1 1 1 1 1 1 1 1 1 1", "3 TR 2 TL 1 SR 1", "HL 1 HL 1", "RR RL", "VRR VLL V", "SC +5 V 2",
		"SD -4 V 2 P", "1 RB 1 LB 1 N 1 I 1 IR 1 IL", "BR BR BL BL", "VERT BL N BOMB", "STEEP K2 -6",
		"P3 +3", "PP +2 2 TR 2", "K +1500", "-9900", "+99", "1SLTR2SRTL3", "2R 1 TR STEEP P.",
		"r l rr rl", "steep vert", "2 TR +10FT", "+1,500 1", "\u201c1\u201d \u2212 5", "1 \u22125",
	)
	return in
}

// worstCases are 300-rune lines built to stress each part of the parser.
func worstCases() []string {
	return []string{
		strings.Repeat("TR", 150),     // one long word to segment
		strings.Repeat("Q", 300),      // one long unknown word
		strings.Repeat("1O", 150),     // one long chain of digits and letter O
		strings.Repeat("+-", 150),     // signs with no figures
		strings.Repeat("+1", 150),     // altitude figures given again and again
		strings.Repeat("1 ", 150),     // straight runs merging past 99
		strings.Repeat("P", 300),      // a power run far too long
		strings.Repeat(";", 300),      // punctuation
		strings.Repeat("\u00e9", 300), // a long word of non-ASCII letters
		strings.Repeat("\x01", 300),   // control characters
		strings.Repeat("\u201c", 300), // quotation marks only
		strings.Repeat("S R ", 75),    // split tokens
		strings.Repeat("SC ", 100),    // a flag given again and again
	}
}

func TestWorstCases(t *testing.T) {
	for _, in := range worstCases() {
		n := len([]rune(in))
		_, ds := ParsePlot(in)
		if len(ds) > 2*n+5 {
			t.Errorf("%.20q...: %d diagnostics", in, len(ds))
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, in := range roundTripInputs() {
		p, ds := ParsePlot(in)
		if parser.HasErrors(ds) {
			continue
		}
		s := p.String()
		q, ds2 := ParsePlot(s)
		if parser.HasErrors(ds2) {
			t.Errorf("%q printed as %q, which does not parse: %v", in, s, ds2)
			continue
		}
		if !q.Equal(p) {
			t.Errorf("%q: parse(print) = %+v, want %+v", in, q, p)
		}
		if s2 := q.String(); s2 != s {
			t.Errorf("%q: print not idempotent: %q then %q", in, s, s2)
		}
		for _, d := range ds2 {
			t.Errorf("%q: canonical form %q draws %v", in, s, d)
		}
	}
}

// benchPlots are realistic plots: the worked example, a busy turn, a climb with power, a dive-bombing
// run, and a lower-case one.
var benchPlots = []string{
	"2R 1 TR STEEP P",
	"1 HR 1 SLTR RB 2 STEEP -30 K",
	"3 TL 2 TL 1 SR 1 P2 +10",
	"VERT BOMB BL BL N 1",
	"2 tr 1 tr steep p",
}

func BenchmarkParsePlot(b *testing.B) {
	plots := benchPlots
	b.ReportAllocs()
	runes := 0
	for _, p := range plots {
		runes += len([]rune(p))
	}
	for b.Loop() {
		for _, p := range plots {
			ParsePlot(p)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(plots)), "ns/plot")
	b.ReportMetric(float64(runes*b.N)/b.Elapsed().Seconds()/1e6, "Mrunes/s")
}

// BenchmarkFieldsBaseline is the raw cost of the least work on the same text — splitting it into fields
// and upper-casing each — to put BenchmarkParsePlot's figure in proportion.
func BenchmarkFieldsBaseline(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, p := range benchPlots {
			for _, f := range strings.Fields(p) {
				n += len(strings.ToUpper(f))
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(benchPlots)), "ns/plot")
	_ = n
}
