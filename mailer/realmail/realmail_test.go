package realmail

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
)

// need skips the test when the servers cannot run here, or fails it when SORTIE_REAL_MAIL=required
// (CI sets it after installing them).
func need(t *testing.T) {
	t.Helper()
	if ok, reason := Available(); !ok {
		if os.Getenv("SORTIE_REAL_MAIL") == "required" {
			t.Fatalf("SORTIE_REAL_MAIL=required, but %s", reason)
		}
		t.Skip(reason)
	}
}

func message(from, to, subject, id, body string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, to, subject, id, time.Now().Format(time.RFC1123Z), body))
}

// TestServers starts Dovecot and Postfix, sends through the submission port, reads over IMAPS, checks
// that clear text and strangers are refused, and that an instance whose test process died is stopped
// by the next Start.
func TestServers(t *testing.T) {
	need(t)
	t0 := time.Now()
	s, err := Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	t.Logf("started in %v: IMAP %s, IMAPS %s, submission %s, SMTP %s", time.Since(t0).Round(time.Millisecond), s.IMAPAddr, s.IMAPSAddr, s.SubmissionAddr, s.SMTPAddr)
	defer func() {
		if t.Failed() {
			t.Log(s.Logs())
		}
	}()
	if len(s.Users) != 3 || s.Password("alice@example.test") == "" {
		t.Fatalf("default users: %v", s.Users)
	}

	// Submission with STARTTLS and AUTH, delivered over LMTP; the +detail goes to the same INBOX.
	if err := s.Submit("alice@example.test", "alice@example.test", []string{"bob@example.test"},
		message("Alice <alice@example.test>", "bob@example.test", "hello Bob", "m1@example.test", "Ünïcödé body")); err != nil {
		t.Fatal(err)
	}
	if err := s.Submit("alice@example.test", "alice@example.test", []string{"bob+game-7@example.test"},
		message("alice@example.test", "bob+game-7@example.test", "token address", "m2@example.test", "second")); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.WaitFetch("bob@example.test", "INBOX", 10*time.Second, func(m []Message) bool { return len(m) == 2 })
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if !bytes.Contains(m.Raw, []byte("Received: from client.example.test")) || m.UID == 0 {
			t.Errorf("a message delivered through Postfix lacks its Received header or UID:\n%s", m.Raw)
		}
		for _, f := range m.Flags {
			if f == `\Seen` {
				t.Errorf("Fetch must not mark messages seen: %v", m.Flags)
			}
		}
	}
	// Postfix may deliver the two in either order: each is found by its Message-ID.
	byID := map[string][]byte{}
	for _, m := range msgs {
		for _, id := range []string{"m1@example.test", "m2@example.test"} {
			if bytes.Contains(m.Raw, []byte("Message-ID: <"+id+">")) {
				byID[id] = m.Raw
			}
		}
	}
	if !bytes.Contains(byID["m1@example.test"], []byte("Ünïcödé body")) || !bytes.Contains(byID["m2@example.test"], []byte("Delivered-To: bob+game-7@example.test")) {
		t.Errorf("delivered messages:\n%s\n%s", msgs[0].Raw, msgs[1].Raw)
	}
	if got, _ := s.Fetch("bob@example.test", "Processed"); len(got) != 0 {
		t.Errorf("a mailbox that does not exist holds %d messages", len(got))
	}

	// The plain SMTP port takes mail for local users without AUTH, and refuses unknown users and
	// other domains at RCPT time.
	if err := mxSend(s.SMTPAddr, "", "sortie@example.test", message("x@elsewhere.example", "sortie@example.test", "bounce", "b1@x", "returned")); err != nil {
		t.Errorf("MX port: %v", err)
	}
	for _, rcpt := range []string{"nobody@example.test", "someone@elsewhere.example"} {
		if err := mxSend(s.SMTPAddr, "x@elsewhere.example", rcpt, message("x@elsewhere.example", rcpt, "no", "n@x", "no")); err == nil || !strings.Contains(err.Error(), "55") {
			t.Errorf("RCPT %s must be refused: %v", rcpt, err)
		}
	}
	if _, err := s.WaitFetch("sortie@example.test", "INBOX", 10*time.Second, func(m []Message) bool { return len(m) == 1 }); err != nil {
		t.Error(err)
	}

	// Clear text is refused: no AUTH on submission before STARTTLS, no LOGIN on IMAP before STARTTLS.
	c, err := smtp.Dial(s.SubmissionAddr)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("AUTH"); ok {
		t.Error("the submission port offers AUTH before STARTTLS")
	}
	if err := c.Mail("alice@example.test"); err == nil {
		t.Error("the submission port takes mail without TLS")
	}
	c.Close()
	ic, err := imapclient.DialInsecure(s.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := ic.Login("alice@example.test", s.Password("alice@example.test")).Wait(); err == nil {
		t.Error("IMAP LOGIN in clear text was accepted (ssl = required)")
	}
	t.Logf("clear-text LOGIN refused in %v", time.Since(start).Round(time.Millisecond))
	ic.Close()
	// STARTTLS on the IMAP port, verifying the certificate for 127.0.0.1 against the CA.
	ic, err = imapclient.DialStartTLS(s.IMAPAddr, &imapclient.Options{TLSConfig: s.ClientTLS()})
	if err != nil {
		t.Fatal(err)
	}
	if err := ic.Login("bob@example.test", s.Password("bob@example.test")).Wait(); err != nil {
		t.Errorf("IMAP STARTTLS login: %v", err)
	}
	ic.Close()
	// A client without the CA does not trust the servers.
	if _, err := tls.Dial("tcp", s.IMAPSAddr, &tls.Config{ServerName: s.Host}); err == nil {
		t.Error("the servers' certificate verified without the test CA")
	}
	// The one failed login of the suite (Dovecot delays every failure by 2 s): a wrong password.
	err = (&Servers{Users: map[string]string{"alice@example.test": "wrong"}, SubmissionAddr: s.SubmissionAddr, Host: s.Host, CAPEM: s.CAPEM}).
		Submit("alice@example.test", "alice@example.test", []string{"bob@example.test"}, message("a@example.test", "b@example.test", "x", "x@x", "x"))
	if err == nil || !strings.Contains(err.Error(), "535") {
		t.Errorf("AUTH with a wrong password: %v", err)
	}

	// A test binary that died leaves its daemons running: the next Start stops them. Pretend this
	// instance's owner died (a process that has exited), then start another instance.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	reg, err := os.ReadFile(s.registry)
	if err != nil {
		t.Fatal(err)
	}
	fake := strings.Replace(string(reg), fmt.Sprintf("owner %d\n", os.Getpid()), fmt.Sprintf("owner %d\n", dead.Process.Pid), 1)
	if err := os.WriteFile(s.registry, []byte(fake), 0o644); err != nil {
		t.Fatal(err)
	}
	dovecotPID, postfixPID := s.dovecotPID, s.postfixPID
	t1 := time.Now()
	s2, err := Start(t.TempDir(), User{Address: "solo@other.test", Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("second start, reaping the orphaned instance: %v", time.Since(t1).Round(time.Millisecond))
	if alive(dovecotPID) || alive(postfixPID) {
		t.Errorf("the orphaned instance still runs: dovecot %v, postfix %v", alive(dovecotPID), alive(postfixPID))
	}
	for _, a := range []string{s.IMAPAddr, s.IMAPSAddr, s.SubmissionAddr, s.SMTPAddr, s.LMTPAddr} {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still answers after the reaping", a)
		}
	}
	if _, err := os.Stat(s.registry); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the orphan's registry entry is still there: %v", err)
	}
	if s2.Password("solo@other.test") != "pw" || len(s2.Domains) != 1 || s2.Domains[0] != "other.test" {
		t.Errorf("explicit users: %v %v", s2.Users, s2.Domains)
	}
	t2 := time.Now()
	pids := []int{s2.dovecotPID, s2.postfixPID} // both session leaders: their sessions are the daemons
	if err := s2.Stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("stopped in %v", time.Since(t2).Round(time.Millisecond))
	for _, pid := range pids {
		if left := sessionMembers(pid); alive(pid) || len(left) > 0 {
			t.Errorf("Stop left process %d or its children %v", pid, left)
		}
	}
	if err := s2.Stop(); err != nil {
		t.Errorf("a second Stop: %v", err)
	}
}

// mxSend speaks SMTP without TLS or AUTH, as another mail server would.
func mxSend(addr, from, rcpt string, raw []byte) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Mail(from); err != nil {
		return err
	}
	if err := c.Rcpt(rcpt); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	w.Write(raw)
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

func TestAvailableSaysWhy(t *testing.T) {
	ok, reason := Available()
	if ok != (reason == "") {
		t.Errorf("Available() = %v, %q", ok, reason)
	}
	p := debianPrograms()
	p.dovecot = "/nonexistent/dovecot"
	ok, reason = p.available()
	if ok || !strings.Contains(reason, "/nonexistent/dovecot") || !strings.Contains(reason, InstallHint) {
		t.Errorf("without dovecot: %v, %q", ok, reason)
	}
	if _, err := StartWith(t.TempDir(), Options{programs: p}); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("Start without dovecot: %v", err)
	}
}

// TestInstallLeavesTheHostsMailSettings: installing the test servers answers Postfix's questions with
// "No configuration" and never sets a mail name, so a host's /etc/mailname and /etc/postfix/main.cf
// stay as they were; the test instances keep their state in their own folders (postfix -c DIR).
func TestInstallLeavesTheHostsMailSettings(t *testing.T) {
	b, err := os.ReadFile("../../.ci/install-mailservers")
	if err != nil {
		t.Fatal(err)
	}
	script := string(b)
	for _, line := range strings.Split(script, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if strings.Contains(line, "mailname") || strings.Contains(line, "/etc/postfix") {
			t.Errorf("the install script touches the host's mail settings: %s", line)
		}
	}
	if !strings.Contains(script, "main_mailer_type select No configuration") {
		t.Error(`Postfix must be installed with "No configuration"`)
	}
	for _, tmpl := range []string{postfixMainCf, dovecotConf} {
		if strings.Contains(strings.ReplaceAll(tmpl, "{{dir}}/etc/", ""), "/etc/") {
			t.Errorf("a test server's configuration refers to the host's /etc:\n%s", tmpl)
		}
	}
}
