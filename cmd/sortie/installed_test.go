package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"sortie/mailer/realmail"
)

// TestInstalledPackage tries the Debian package installed on this machine (.ci/debian-package installs
// it and sets SORTIE_INSTALLED to its binary; without it the test is skipped): the moderator's sudo
// sortie init, given the answers as flags and a password file in the service's folder, writes the
// configuration the unit reads and checks the mail account on real Dovecot and Postfix; the service's
// user can read what it needs and run sortie check with it; others cannot read the configuration.
func TestInstalledPackage(t *testing.T) {
	bin := os.Getenv("SORTIE_INSTALLED")
	if bin == "" {
		t.Skip("SORTIE_INSTALLED names the installed package's binary (.ci/debian-package sets it)")
	}
	needRealMail(t)
	if _, err := os.Stat(serviceConfigDir); err != nil {
		t.Fatalf("the package made no %s: %v", serviceConfigDir, err)
	}
	cfg := filepath.Join(serviceConfigDir, "sortie.yaml")
	pw := filepath.Join(serviceConfigDir, "mail-password")
	for _, f := range []string{cfg, pw} {
		if _, err := os.Lstat(f); err == nil {
			t.Fatalf("%s is there already: this test writes it, on a machine with the package freshly installed", f)
		}
	}
	t.Cleanup(func() { os.Remove(cfg); os.Remove(pw) })
	srv, err := realmail.Start(t.TempDir(), realmail.User{Address: recipeService}, realmail.User{Address: "carol@players.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(srv.Logs())
		}
		srv.Stop()
	})
	// The moderator writes the password file as the guide says: the service's user's, for it alone.
	if err := os.WriteFile(pw, []byte(srv.Password(recipeService)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chown", serviceUser+":", pw).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	imapHost, imapPort := splitPort(t, srv.IMAPAddr) // STARTTLS, as sortie init reads a port other than 993
	smtpHost, smtpPort := splitPort(t, srv.SubmissionAddr)
	cmd := exec.Command(bin, "init", "--mailbox", "own-server", "--address", recipeService,
		"--imap-host", imapHost, "--imap-port", imapPort, "--smtp-host", smtpHost, "--smtp-port", smtpPort,
		"--ca-file", srv.CAFile, "--password-file", pw, "--wait", "30s")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sudo sortie init: %v\n%s", err, out)
	}
	for _, want := range []string{"wrote " + cfg, "ok   probe", "the mail account is ready", "Next: sudo systemctl enable --now sortie"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("sudo sortie init does not say %q:\n%s", want, out)
		}
	}
	fi, err := os.Stat(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); fi.Mode().Perm() != 0o640 || st.Uid != 0 || strconv.Itoa(int(st.Gid)) != groupID(t, serviceUser) {
		t.Errorf("%s: mode %04o, owner %d:%d; want 0640, root, group %s", cfg, fi.Mode().Perm(), st.Uid, st.Gid, serviceUser)
	}
	// What the unit runs, as the user it runs as: the configuration and the password are readable.
	check := exec.Command("runuser", "-u", serviceUser, "--", bin, "check", "--config", cfg, "--wait", "30s")
	if out, err := check.CombinedOutput(); err != nil || !strings.Contains(string(out), "the mail account is ready") {
		t.Errorf("sortie check as %s: %v\n%s", serviceUser, err, out)
	}
	// Another user may not read the configuration.
	other := exec.Command("runuser", "-u", "nobody", "--", "cat", cfg)
	if out, err := other.CombinedOutput(); err == nil {
		t.Errorf("nobody can read %s:\n%s", cfg, out)
	}
}

func splitPort(t *testing.T, addr string) (string, string) {
	t.Helper()
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		t.Fatalf("no port in %s", addr)
	}
	return addr[:i], addr[i+1:]
}

func groupID(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("id", "-g", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
