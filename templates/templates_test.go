package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbeddedTemplatesParse(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Names {
		if s.Source(n) != "embedded" {
			t.Errorf("%s: source %q", n, s.Source(n))
		}
	}
	subject, body, err := s.Render("announce", map[string]any{"Game": "g1", "GameName": "Test", "Text": "hello  "})
	if err != nil || subject != "[g1] Test: notice" || body != "hello\n" {
		t.Errorf("render: %q %q %v", subject, body, err)
	}
	if _, _, err := s.Render("announce", map[string]any{"Game": "g1"}); err == nil {
		t.Error("a missing field must be an error, not an empty string")
	}
}

func TestOverridesFromAFolder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte("Subject: our help\nAsk the moderator, {{.Name}}.\n"), 0o644)
	s, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	subject, body, err := s.Render("help", map[string]any{"Name": "Sortie", "Address": "x"})
	if err != nil || subject != "our help" || !strings.Contains(body, "Ask the moderator") {
		t.Errorf("override: %q %q %v", subject, body, err)
	}
	if s.Source("report") != "embedded" {
		t.Error("templates not overridden stay embedded")
	}
	os.WriteFile(filepath.Join(dir, "repot.tmpl"), []byte("Subject: x\n"), 0o644)
	if _, err := New(dir); err == nil || !strings.Contains(err.Error(), "repot.tmpl") {
		t.Errorf("a misspelt override must be refused: %v", err)
	}
	os.Remove(filepath.Join(dir, "repot.tmpl"))
	os.WriteFile(filepath.Join(dir, "error.tmpl"), []byte("no subject line {{.Subject}}\n"), 0o644)
	if _, err = New(dir); err == nil || !strings.Contains(err.Error(), "Subject: line") {
		t.Errorf("a template without a Subject line must be refused when it is read: %v", err)
	}
}

// A value with a line break put into the subject (a game's name, say) stays in the subject: it must
// not end the Subject line and push the rest into the body.
func TestSubjectStaysOneLine(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	name := "Evil\nBcc: victim@example.org\r\n\r\nInjected\u2028line\x1b[0m"
	subject, body, err := s.Render("announce", map[string]any{"Game": "g1", "GameName": name, "Text": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsFunc(subject, func(r rune) bool { return r < 32 || r == 127 || r == '\u2028' }) {
		t.Errorf("the subject holds a control character: %q", subject)
	}
	if !strings.Contains(subject, "Evil Bcc: victim@example.org Injected line") {
		t.Errorf("subject %q", subject)
	}
	if strings.Contains(body, "Injected") || strings.Contains(body, "victim") || !strings.HasPrefix(body, "hello") {
		t.Errorf("the name spilt into the body:\n%s", body)
	}
}

// trimBodyByLines is how Render trimmed a body before trimBody: split, trim each line, join.
func trimBodyByLines(s string) string {
	lines := strings.Split(strings.TrimLeft(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// TestTrimBodyMatchesLineByLine: the one-pass trim gives what trimming line by line gives.
func TestTrimBodyMatchesLineByLine(t *testing.T) {
	for _, s := range []string{"", "\n", "\n\n\n", " ", "a", "a\n", "a  \n", "\n\na \t\n b\t\n\n", "x\r\n y \r\n", "a\n\n\nb  ", "\t\n  \n"} {
		if got, want := trimBody([]byte(s)), trimBodyByLines(s); got != want {
			t.Errorf("trimBody(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzTrimBody(f *testing.F) {
	f.Add("\n\na \t\n b\t\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := trimBody([]byte(s)), trimBodyByLines(s); got != want {
			t.Errorf("trimBody(%q) = %q, want %q", s, got, want)
		}
	})
}
