package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"sortie/cmd/sortie/internal/daemon"
	"sortie/mailer/localmail"
)

// initServers are in-process IMAP and SMTP servers as a mail host has them: STARTTLS with a certificate
// from a throwaway CA (in caFile), logins required, and sortie+anything@ delivered to sortie@'s inbox.
type initServers struct {
	imap             *localmail.IMAPServer
	smtp             *localmail.SMTPServer
	caFile           string
	imapPort, smtpPt int
}

const initAddress, initPassword = "sortie@sortie.test", "app-password"

func startInitServers(t *testing.T) *initServers {
	t.Helper()
	caPEM, serverTLS, err := localmail.GenerateCA()
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := localmail.StartIMAP(localmail.IMAPOptions{Users: map[string]string{initAddress: initPassword}, TLSConfig: serverTLS, RequireTLS: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { im.Close() })
	route := func(rcpt string) (string, bool) {
		local, domain, _ := strings.Cut(strings.ToLower(rcpt), "@")
		if domain == "sortie.test" && (local == "sortie" || strings.HasPrefix(local, "sortie+")) {
			return initAddress, true
		}
		return "", false
	}
	sm, err := localmail.StartSMTP(localmail.SMTPOptions{Username: initAddress, Password: initPassword, TLSConfig: serverTLS, RequireTLS: true, OnMessage: im.DeliverTo(route)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sm.Close() })
	port := func(addr string) int {
		p, err := strconv.Atoi(addr[strings.LastIndexByte(addr, ':')+1:])
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return &initServers{imap: im, smtp: sm, caFile: caFile, imapPort: port(im.Addr()), smtpPt: port(sm.Addr())}
}

// runInit runs the real binary's sortie init with the answers on its standard input and the given
// environment added.
func runInit(t *testing.T, stdin string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"init"}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func passwordFile(t *testing.T, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "mail-password")
	if err := os.WriteFile(p, []byte(initPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// configKeys are the keys a configuration file shows, a commented "# key: value" line counted as shown
// (as TestExampleShowsEveryKey reads docs/sortie.example.yaml).
func configKeys(t *testing.T, text string) map[string]bool {
	t.Helper()
	commented := regexp.MustCompile(`^(\s*)# ?([a-z_]+: \S+)(\s+#.*)?$`)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if m := commented.FindStringSubmatch(l); m != nil {
			l = m[1] + m[2]
		}
		lines = append(lines, l)
	}
	var shown map[string]any
	if err := yaml.Unmarshal([]byte(strings.Join(lines, "\n")), &shown); err != nil {
		t.Fatalf("the configuration with its commented keys is not YAML: %v\n%s", err, text)
	}
	have := map[string]bool{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			have[prefix+k] = true
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
			}
		}
	}
	walk("", shown)
	return have
}

// TestInitFromFlags: with --mailbox, sortie init asks nothing; the file it writes is one the daemon's
// loader accepts, with the answers in it, and shows every setting the example configuration shows.
func TestInitFromFlags(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "sortie.yaml")
	db := filepath.Join(dir, "data", "sortie.db")
	out, code := runInit(t, "", nil, "--config", cfgPath, "--mailbox", "hosted", "--address", "sortie@example.org",
		"--imap-host", "imap.example.org", "--smtp-host", "smtp.example.org", "--smtp-port", "465",
		"--password-env", "SORTIE_TEST_MAIL_PW", "--database", db, "--no-check")
	if code != 0 {
		t.Fatalf("sortie init exited %d:\n%s", code, out)
	}
	for _, want := range []string{"wrote " + cfgPath, "sortie check --config " + cfgPath, "Next: sortie serve --config " + cfgPath, "systemctl enable --now sortie"} {
		if !strings.Contains(out, want) {
			t.Errorf("sortie init does not say %q:\n%s", want, out)
		}
	}
	t.Setenv("SORTIE_TEST_MAIL_PW", "pw")
	c, err := daemon.LoadConfig(cfgPath)
	if err != nil {
		t.Fatalf("the loader refuses what sortie init wrote: %v", err)
	}
	if c.Database != db || c.Address != "sortie@example.org" || c.IMAP.Addr != "imap.example.org:993" || c.IMAP.TLS != "tls" ||
		c.SMTP.Host != "smtp.example.org" || c.SMTP.Port != 465 || c.SMTP.TLS != "tls" || c.IMAP.Username != "sortie@example.org" ||
		c.IMAP.Password != "pw" || c.SMTP.Password != "pw" || c.IMAP.Processed != "Processed" {
		t.Errorf("the configuration read back: %+v", c)
	}
	text, _ := os.ReadFile(cfgPath)
	example, err := os.ReadFile("../../docs/sortie.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	have, want := configKeys(t, string(text)), configKeys(t, string(example))
	for k := range want {
		if !have[k] {
			t.Errorf("sortie init's configuration does not show %s", k)
		}
	}
	for k := range have {
		if !want[k] {
			t.Errorf("sortie init's configuration shows %s, which the example does not", k)
		}
	}
	if fi, err := os.Stat(cfgPath); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the configuration holds no password and is readable by the service: %v %v", fi.Mode(), err)
	}

	// Missing answers are all named at once, and nothing is written.
	out, code = runInit(t, "", nil, "--config", filepath.Join(dir, "other.yaml"), "--mailbox", "hosted", "--address", "sortie")
	if code != 2 || !strings.Contains(out, "--address") || !strings.Contains(out, "--imap-host") || !strings.Contains(out, "--password-env NAME or --password-file FILE") {
		t.Errorf("missing answers: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "other.yaml")); err == nil {
		t.Error("a configuration was written from incomplete answers")
	}
}

// TestInitInteractiveChecksTheAccount answers sortie init's questions on its standard input, the way a
// person at a terminal would, for the own-server recipe with a password file (a wrong answer and a
// password file others may read are each refused and asked again); sortie init writes the file, runs
// sortie check against the in-process mail servers, which passes, and names the next command.
func TestInitInteractiveChecksTheAccount(t *testing.T) {
	s := startInitServers(t)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "sortie.yaml")
	open, private := passwordFile(t, 0o644), passwordFile(t, 0o600)
	answers := strings.Join([]string{
		"3",                        // neither 1 nor 2: asked again
		"2",                        // own Dovecot and Postfix
		initAddress,                // the address
		strconv.Itoa(s.imapPort),   // IMAP port (the host is the recipe's 127.0.0.1)
		strconv.Itoa(s.smtpPt),     // SMTP port
		"",                         // login: the address
		"2",                        // password from a file
		open,                       // others may read it: refused
		private,                    // owner only
		s.caFile,                   // the servers' CA
		filepath.Join(dir, "s.db"), // database
	}, "\n") + "\n"
	out, code := runInit(t, answers, nil, "--config", cfgPath, "--wait", "20s")
	if code != 0 {
		t.Fatalf("sortie init exited %d:\n%s", code, out)
	}
	for _, want := range []string{"answer 1 or 2", "chmod 600 " + open, "ok   imap login", "ok   probe", "the mail account is ready", "Next: sortie serve --config " + cfgPath} {
		if !strings.Contains(out, want) {
			t.Errorf("sortie init does not say %q:\n%s", want, out)
		}
	}
	c, err := daemon.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Addr != "127.0.0.1:"+strconv.Itoa(s.imapPort) || c.IMAP.TLS != "starttls" || c.IMAP.PasswordFile != private || c.SMTP.PasswordFile != private ||
		c.IMAP.CAFile != s.caFile || c.SMTP.Port != s.smtpPt || c.IMAP.Username != initAddress || c.IMAP.Password != initPassword {
		t.Errorf("the configuration read back: %+v", c)
	}

	// Answers that end early say so, and write nothing.
	out, code = runInit(t, "1\n", nil, "--config", filepath.Join(dir, "early.yaml"))
	if code != 2 || !strings.Contains(out, "the answers ended before") {
		t.Errorf("answers ending early: exit %d:\n%s", code, out)
	}
}

// TestInitChecksFromFlags: in flags mode too sortie init runs sortie check, with the password from the
// variable it names: a wrong password fails the check (exit 1) with its advice, the file stays written;
// an unset variable is said plainly.
func TestInitChecksFromFlags(t *testing.T) {
	s := startInitServers(t)
	dir := t.TempDir()
	args := func(name string) []string {
		return []string{"--config", filepath.Join(dir, name), "--mailbox", "hosted", "--address", initAddress, "--imap-host", "127.0.0.1",
			"--imap-port", strconv.Itoa(s.imapPort), "--smtp-host", "127.0.0.1", "--smtp-port", strconv.Itoa(s.smtpPt),
			"--ca-file", s.caFile, "--password-env", "SORTIE_TEST_MAIL_PW", "--database", filepath.Join(dir, "s.db"), "--wait", "20s"}
	}
	out, code := runInit(t, "", []string{"SORTIE_TEST_MAIL_PW=" + initPassword}, args("good.yaml")...)
	if code != 0 || !strings.Contains(out, "the mail account is ready for sortie serve") || !strings.Contains(out, "Next: sortie serve") {
		t.Fatalf("a good account: exit %d:\n%s", code, out)
	}
	out, code = runInit(t, "", []string{"SORTIE_TEST_MAIL_PW=wrong"}, args("bad.yaml")...)
	if code != 1 || !strings.Contains(out, "FAIL imap login") || !strings.Contains(out, "app password") || strings.Contains(out, "Next:") {
		t.Errorf("a wrong password: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.yaml")); err != nil {
		t.Errorf("the file is kept when the check fails, to fix and check again: %v", err)
	}
	cmd := exec.Command(binary, append([]string{"init"}, args("unset.yaml")...)...)
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SORTIE_TEST_MAIL_PW=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	b, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(b), "SORTIE_TEST_MAIL_PW is not set here") {
		t.Errorf("an unset variable: exit %d:\n%s", cmd.ProcessState.ExitCode(), b)
	}
}

// TestInitRefusesToOverwrite: an existing file is left as it was unless --force, which replaces it.
func TestInitRefusesToOverwrite(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "sortie.yaml")
	if err := os.WriteFile(cfgPath, []byte("# the operator's own\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--config", cfgPath, "--mailbox", "own-server", "--address", "sortie@example.org", "--password-env", "X", "--no-check"}
	out, code := runInit(t, "", nil, args...)
	if code != 2 || !strings.Contains(out, "already exists") || !strings.Contains(out, "--force") {
		t.Errorf("an existing file: exit %d:\n%s", code, out)
	}
	if b, _ := os.ReadFile(cfgPath); string(b) != "# the operator's own\n" {
		t.Errorf("the existing file was changed:\n%s", b)
	}
	out, code = runInit(t, "", nil, append(args, "--force")...)
	if code != 0 {
		t.Fatalf("--force: exit %d:\n%s", code, out)
	}
	if b, _ := os.ReadFile(cfgPath); !strings.Contains(string(b), "addr: \"127.0.0.1:993\"") {
		t.Errorf("--force did not replace the file with the own-server recipe's:\n%s", b)
	}
}

// TestInitRefusesAPasswordFileOthersMayRead: a password file with group or other bits is refused before
// anything is written, with the chmod that fixes it.
func TestInitRefusesAPasswordFileOthersMayRead(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "sortie.yaml")
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604} {
		pw := passwordFile(t, mode)
		out, code := runInit(t, "", nil, "--config", cfgPath, "--mailbox", "own-server", "--address", "sortie@example.org", "--password-file", pw, "--no-check")
		if code != 2 || !strings.Contains(out, "--password-file") || !strings.Contains(out, "chmod 600 "+pw) {
			t.Errorf("mode %04o: exit %d:\n%s", mode, code, out)
		}
		if _, err := os.Stat(cfgPath); err == nil {
			t.Fatalf("mode %04o: a configuration was written", mode)
		}
	}
	pw := passwordFile(t, 0o400)
	if out, code := runInit(t, "", nil, "--config", cfgPath, "--mailbox", "own-server", "--address", "sortie@example.org", "--password-file", pw, "--no-check"); code != 0 {
		t.Errorf("a file only its owner may read: exit %d:\n%s", code, out)
	}
}
