package daemon

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rs/zerolog"
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

// TestDKIMConfig: dkim's three keys go together; the key file is read like a password file (its owner
// only, with the chmod that fixes it) and must hold a private key; the sender then signs with it.
// authserv_id reaches the intake's handler, and a name with blanks is refused.
func TestDKIMConfig(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps no owner-only mode bits")
	}
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(k)
	key := filepath.Join(t.TempDir(), "dkim.pem")
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(writeConfig(t, "authserv_id: mx.sortie.test\ndkim: {domain: sortie.test, selector: s1, key_file: "+key+"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := c.SenderOptions(zerolog.Nop()).DKIM; d == nil || d.Domain != "sortie.test" || d.Selector != "s1" {
		t.Errorf("the sender's key: %+v", d)
	}
	if c.AuthservID != "mx.sortie.test" {
		t.Errorf("authserv_id %q", c.AuthservID)
	}
	if c, err := LoadConfig(writeConfig(t, "")); err != nil || c.SenderOptions(zerolog.Nop()).DKIM != nil {
		t.Errorf("without dkim the mail goes unsigned: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "not-a-key.pem")
	os.WriteFile(bad, []byte("hello\n"), 0o600)
	for text, want := range map[string]string{
		"dkim: {domain: sortie.test, selector: s1}\n":                      "dkim: give domain, selector and key_file together",
		"dkim: {domain: sortie.test, selector: s1, key_file: " + bad + "}": "dkim: the key file holds no PEM block",
		"dkim: {domain: sortie, selector: s1, key_file: " + key + "}":      "is not a domain name",
		"authserv_id: mx.sortie.test (Postfix)\n":                          "authserv_id: the name your receiving server writes first",
	} {
		if _, err := LoadConfig(writeConfig(t, text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", text, err, want)
		}
	}
	if err := os.Chmod(key, 0o640); err != nil {
		t.Fatal(err)
	}
	_, err = LoadConfig(writeConfig(t, "dkim: {domain: sortie.test, selector: s1, key_file: "+key+"}\n"))
	if err == nil || !strings.Contains(err.Error(), "chmod 600 "+key) {
		t.Errorf("a key file others may read: %v", err)
	}
	if _, err := LoadConfigNoMail(writeConfig(t, "dkim: {domain: sortie.test, selector: s1, key_file: "+key+"}\n")); err != nil {
		t.Errorf("sortie game and the like never read the key: %v", err)
	}
}
