package daemon

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPasswordFile: imap.password_file and smtp.password_file give the mail password from a file only its
// owner may read (one trailing newline dropped); a file others may read is refused with the chmod that
// fixes it, as is a password given two ways; commands that never touch the mail do not read it.
func TestPasswordFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps no owner-only mode bits")
	}
	pw := filepath.Join(t.TempDir(), "mail-password")
	if err := os.WriteFile(pw, []byte("app-pass\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(writeConfig(t, "imap: {password_file: "+pw+"}\nsmtp: {password_file: "+pw+"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Password != "app-pass" || c.SMTP.Password != "app-pass" {
		t.Errorf("passwords read %q %q", c.IMAP.Password, c.SMTP.Password)
	}
	if err := os.Chmod(pw, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadConfig(writeConfig(t, "imap: {password_file: "+pw+"}\n"))
	if err == nil || !strings.Contains(err.Error(), "imap.password_file") || !strings.Contains(err.Error(), "chmod 600 "+pw) {
		t.Errorf("a password file anyone may read: %v", err)
	}
	if _, err := LoadConfigNoMail(writeConfig(t, "imap: {password_file: "+pw+"}\n")); err != nil {
		t.Errorf("sortie game and the like never read the mail password: %v", err)
	}
	os.Chmod(pw, 0o600)
	t.Setenv("SORTIE_TEST_PW", "x")
	_, err = LoadConfig(writeConfig(t, "smtp: {password_file: "+pw+", password_env: SORTIE_TEST_PW}\n"))
	if err == nil || !strings.Contains(err.Error(), "smtp.password_file: give the password one way only") {
		t.Errorf("a password given two ways: %v", err)
	}
	if err := os.WriteFile(pw, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSecretFile(pw); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty password file: %v", err)
	}
	if _, err := ReadSecretFile(pw + "-missing"); err == nil || !strings.Contains(err.Error(), "there is no file") {
		t.Errorf("a missing password file: %v", err)
	}
}
