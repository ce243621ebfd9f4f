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
	s, err = New(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Render("error", map[string]any{"Subject": "x", "Problems": nil}); err == nil {
		t.Error("a template without a Subject line must be an error")
	}
}
