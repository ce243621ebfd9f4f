package mailer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sortie/mailer/localmail"
)

// checkServers are in-process IMAP and SMTP servers with TLS from a throwaway CA; plus says whether
// mail to user+anything@ reaches user's inbox.
type checkServers struct {
	imap   *localmail.IMAPServer
	smtp   *localmail.SMTPServer
	caFile string
}

func startCheckServers(t *testing.T, plus bool) *checkServers {
	t.Helper()
	caPEM, serverTLS, err := localmail.GenerateCA()
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	im, err := localmail.StartIMAP(localmail.IMAPOptions{Users: map[string]string{"sortie@sortie.test": "imap-pw"}, TLSConfig: serverTLS, ImplicitTLS: true, RequireTLS: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { im.Close() })
	route := func(rcpt string) (string, bool) {
		rcpt = strings.ToLower(rcpt)
		if rcpt == "sortie@sortie.test" {
			return rcpt, true
		}
		if local, domain, _ := strings.Cut(rcpt, "@"); plus && strings.HasPrefix(local, "sortie+") && domain == "sortie.test" {
			return "sortie@sortie.test", true
		}
		return "", false
	}
	sm, err := localmail.StartSMTP(localmail.SMTPOptions{Username: "sortie@sortie.test", Password: "smtp-pw", TLSConfig: serverTLS, RequireTLS: true, OnMessage: im.DeliverTo(route)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sm.Close() })
	return &checkServers{imap: im, smtp: sm, caFile: caFile}
}

func (s *checkServers) options(t *testing.T) CheckOptions {
	host, port, err := splitHostPortDefault(s.smtp.Addr(), "")
	if err != nil {
		t.Fatal(err)
	}
	var p int
	for _, c := range port {
		p = p*10 + int(c-'0')
	}
	return CheckOptions{
		IMAP:    IntakeOptions{Addr: s.imap.TLSAddr(), TLS: TLSImplicit, CAFile: s.caFile, Username: "sortie@sortie.test", Password: "imap-pw"},
		SMTP:    SenderOptions{Host: host, Port: p, TLS: TLSStartTLS, CAFile: s.caFile, Username: "sortie@sortie.test", Password: "smtp-pw"},
		Address: "sortie@sortie.test",
		Wait:    5 * time.Second,
	}
}

func runCheck(t *testing.T, o CheckOptions) (bool, map[string]CheckStep, string) {
	t.Helper()
	steps := map[string]CheckStep{}
	var out strings.Builder
	ok := Check(context.Background(), o, func(s CheckStep) {
		steps[s.Name] = s
		out.WriteString(s.Status + " " + s.Name + ": " + s.Detail + " | " + s.Fix + "\n")
	})
	return ok, steps, out.String()
}

// TestCheckAGoodAccount: every step passes, the folders are made, and the probe is found and deleted.
func TestCheckAGoodAccount(t *testing.T) {
	s := startCheckServers(t, true)
	ok, steps, out := runCheck(t, s.options(t))
	if !ok {
		t.Fatalf("a good account must pass:\n%s", out)
	}
	for _, name := range []string{"imap connect", "imap tls", "imap login", "imap capabilities", "imap folders", "smtp connect", "smtp probe", "probe"} {
		if steps[name].Status != "ok" {
			t.Errorf("step %s: %+v", name, steps[name])
		}
	}
	for _, box := range []string{"Processed", "Rejected", "Sortie/Failed"} {
		if _, err := s.imap.List("sortie@sortie.test", box); err != nil {
			t.Errorf("folder %s was not made: %v", box, err)
		}
	}
	if msgs, _ := s.imap.List("sortie@sortie.test", "INBOX"); len(msgs) != 0 {
		t.Errorf("the probe must be deleted: %d left in the inbox", len(msgs))
	}
}

// TestCheckBrokenSettings: each broken setting fails its own step with advice naming the setting.
func TestCheckBrokenSettings(t *testing.T) {
	s := startCheckServers(t, true)
	cases := []struct {
		name   string
		change func(*CheckOptions)
		step   string
		fix    string
	}{
		{"wrong IMAP password", func(o *CheckOptions) { o.IMAP.Password = "nope" }, "imap login", "app password"},
		{"no CA file", func(o *CheckOptions) { o.IMAP.CAFile = "" }, "imap tls", "ca_file"},
		{"plain port with TLS", func(o *CheckOptions) { o.IMAP.Addr = s.imap.Addr() }, "imap tls", "starttls"},
		{"nothing listening", func(o *CheckOptions) { o.IMAP.Addr = "127.0.0.1:1" }, "imap connect", "nothing listens"},
		{"wrong SMTP password", func(o *CheckOptions) { o.SMTP.Password = "nope" }, "smtp connect", "refused the login"},
		{"SMTP with no CA file", func(o *CheckOptions) { o.SMTP.CAFile = "" }, "smtp connect", "ca_file"},
		{"SMTP port closed", func(o *CheckOptions) { o.SMTP.Port = 1 }, "smtp connect", "smtp.host and smtp.port"},
	}
	for _, c := range cases {
		o := s.options(t)
		c.change(&o)
		ok, steps, out := runCheck(t, o)
		if ok || steps[c.step].Status != "FAIL" || !strings.Contains(steps[c.step].Fix, c.fix) {
			t.Errorf("%s: want %s to fail with advice about %q:\n%s", c.name, c.step, c.fix, out)
		}
	}
}

// TestCheckWithoutPlusAddressing: a mail system that does not deliver sortie+probe@ to the inbox fails
// the probe step, and the advice names plus-addressing.
func TestCheckWithoutPlusAddressing(t *testing.T) {
	s := startCheckServers(t, false)
	o := s.options(t)
	o.Wait = 2 * time.Second
	ok, steps, out := runCheck(t, o)
	if ok || steps["probe"].Status != "FAIL" || !strings.Contains(steps["probe"].Fix, "recipient_delimiter") {
		t.Errorf("no plus-addressing must fail the probe:\n%s", out)
	}
	if steps["imap login"].Status != "ok" || steps["smtp probe"].Status != "ok" {
		t.Errorf("the other steps pass:\n%s", out)
	}
}

// TestCheckWithPlusAddressingOff: a mailbox without plus-addressing passes once the configuration says
// so: the probe goes to the bare address, and a warning says what players must do instead.
func TestCheckWithPlusAddressingOff(t *testing.T) {
	s := startCheckServers(t, false)
	o := s.options(t)
	o.Wait = 5 * time.Second
	o.NoPlusAddressing = true
	ok, steps, out := runCheck(t, o)
	if !ok || steps["probe"].Status != "ok" || steps["plus-addressing"].Status != "warn" || !strings.Contains(steps["plus-addressing"].Fix, "SECRET") {
		t.Errorf("plus-addressing off:\n%s", out)
	}
}
