package notation

import (
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/ruleset/rulesettest"
)

func TestParseCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"2 tl 6 hl / 7":                       "2 TL 6 HL / 7 FIRE ANY",
		"DIVE 8/9 FIRE 2":                     "DIVE 8 / 9 FIRE 2",
		"climb 3 / 3 hold":                    "CLIMB 3 / 3 HOLD",
		"5 / 2 TR 3 TORPEDO kaga fire zeke 2": "5 / 2 TR 3 TORPEDO KAGA FIRE ZEKE 2",
		"7 / 7 FIRE ANY; blue3 2 SL 3 / 6":    "7 / 7 FIRE ANY; BLUE3 2 SL 3 / 6 FIRE ANY",
		"2 RR 2 INV / 2 SR 1 FIRE HEINKELS":   "2 RR 2 INV / 2 SR 1 FIRE HEINKELS",
	} {
		o, ds := Parse(in)
		if parser.HasErrors(ds) || o.String() != want {
			t.Errorf("%q: %q %v, want %q", in, o.String(), ds, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]struct {
		code string
		col  int
	}{
		"2 TL 6":              {CodeNoSlash, 6},
		"2 TX / 1":            {CodeUnknownWord, 3},
		"2 VR / 1":            {CodeAirForceWord, 3},
		"2 / 3 / 4":           {CodeSlashTwice, 7},
		"2 DIVE / 3":          {CodeAltPlace, 3},
		"BOMB X 2 / 3":        {CodeAttackPlace, 1},
		"2 / 3 TORPEDO":       {CodeAttackTarget, 7},
		"2 / 3 FIRE":          {CodeFireTarget, 7},
		"2 / 3 HOLD 4":        {CodeFirePlace, 12},
		"0 / 3":               {CodeRunRange, 1},
		"2 / 3; 4 / 4":        {CodeSegment, 8},
		"2 / 3; A 1/1; A 1/1": {CodeSameAircraft, 15},
		"2 / 3 #":             {CodeBadChar, 7},
	} {
		_, ds := Parse(in)
		found := false
		for _, d := range ds {
			found = found || d.Code == want.code && d.Col == want.col && d.Severity == parser.SeverityError
		}
		if !found {
			t.Errorf("%q: want %s at column %d, got %v", in, want.code, want.col, ds)
		}
	}
	if _, ds := Parse("2 TK / 1"); ds[0].Suggestion != "TL" && ds[0].Suggestion != "TR" {
		t.Errorf("a near word is suggested: %v", ds)
	}
}

// FuzzParse: any text gives a result or positioned diagnostics, never a panic; a text that parses
// reads back to the same canonical text, and every column is inside the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"2 TL 6 HL / 7", "DIVE 8 / 9 FIRE 2", "7 / 7; B 1 / 1 HOLD", "5 / 3 TORPEDO K", "", ";;;", "/ / /", "FIRE FIRE", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, ds := Parse(s)
		rulesettest.Diagnosed(t, s, ds)
		if parser.HasErrors(ds) {
			return
		}
		c := o.String()
		o2, ds2 := Parse(c)
		if parser.HasErrors(ds2) || o2.String() != c {
			t.Fatalf("%q reads as %q, which reads as %q %v", s, c, o2.String(), ds2)
		}
		if strings.Count(c, "/") != len(o.Segments) {
			t.Fatalf("%q: each plot has its one /: %q", s, c)
		}
	})
}
