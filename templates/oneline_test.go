package templates

import (
	"strings"
	"testing"
	"unicode"
)

// oneLineByFields is how OneLine was written before the one-pass version: split at separators, join
// with spaces.
func oneLineByFields(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029'
	}), " ")
}

func TestOneLineMatchesFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a ", "a\tb", "a\r\n\r\nb", "Evil\nBcc: x\u2028y\x1b[0m", "\xff\xfe a \xc3", "\u00a0x\u0085y\u3000", "ab  cd\n"} {
		if got, want := OneLine(s), oneLineByFields(s); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzOneLine(f *testing.F) {
	f.Add("Evil\nBcc: x\u2028y\x1b[0m \xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := OneLine(s), oneLineByFields(s); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", s, got, want)
		}
	})
}
