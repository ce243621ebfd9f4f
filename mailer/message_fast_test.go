package mailer

import (
	netmail "net/mail"
	"strings"
	"testing"
)

// The one-pass msgDecodeFlowed and msgNormalizeNewlines give what the first, plainer versions (kept
// here) gave, for any text.

func refDecodeFlowed(s string, delsp bool) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	var cur strings.Builder
	curDepth, open := 0, false
	emit := func() {
		prefix := ""
		if curDepth > 0 {
			prefix = strings.Repeat(">", curDepth) + " "
		}
		out = append(out, prefix+cur.String())
		cur.Reset()
		open = false
	}
	for _, l := range lines {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		content := strings.TrimPrefix(l[depth:], " ")
		if open && depth != curDepth {
			emit()
		}
		flowed := content != "-- " && strings.HasSuffix(content, " ")
		if flowed && delsp {
			content = content[:len(content)-1]
		}
		cur.WriteString(content)
		curDepth = depth
		open = true
		if !flowed {
			emit()
		}
	}
	if open {
		emit()
	}
	return strings.Join(out, "\n")
}

func refNormalizeNewlines(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func FuzzFlowedAndNewlinesAsBefore(f *testing.F) {
	for _, s := range []string{"", "\n", "one \ntwo \nthree\nfour\n", ">> quoted \n>> more\n> other\nmine\n", "> ends flowed \nnot quoted",
		" >not a quote\n From me\n", "text\n-- \nsig \nline\n", "a \n\n b \n>\n> \n>> x ", "\uFEFFa\r\nb\rc\r\r\nd\n\r", "\r", "x\r"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, delsp bool) {
		if got, want := msgDecodeFlowed(s, delsp), refDecodeFlowed(s, delsp); got != want {
			t.Errorf("msgDecodeFlowed(%q, %v) = %q, want %q", s, delsp, got, want)
		}
		if got, want := msgNormalizeNewlines(s), refNormalizeNewlines(s); got != want {
			t.Errorf("msgNormalizeNewlines(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestDateFastPath: the common Date form read directly gives what net/mail gives.
func TestDateFastPath(t *testing.T) {
	for _, d := range []string{"Wed, 25 Nov 2026 13:40:00 +0000", "Mon, 2 Jan 2006 15:04:05 -0700", "Tue, 1 Dec 2026 23:59:59 +1345"} {
		m, err := ParseMessage([]byte("From: a@example.org\r\nDate: " + d + "\r\n\r\nhi\r\n"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := netmail.ParseDate(d)
		if err != nil || !m.Date.Equal(want) || m.Date.String() != want.String() {
			t.Errorf("%s: %v, net/mail reads %v (%v)", d, m.Date, want, err)
		}
	}
}
