package mailer

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net"
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

// checkDKIMKey makes a signing key for sortie.test, selector s1.
func checkDKIMKey(t *testing.T, alg string) *DKIM {
	t.Helper()
	var key any
	if alg == "rsa" {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		key = k
	} else {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		key = k
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDKIM("sortie.test", "s1", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCheckDKIM: sortie check prints the record to publish, and fails while DNS has no record or
// holds another key than the key file's (a wrong key is caught before any mail goes out); with the
// right record it passes, and the probe it sends is signed and verifies.
func TestCheckDKIM(t *testing.T) {
	s := startCheckServers(t, true)
	d := checkDKIMKey(t, "rsa")
	other := checkDKIMKey(t, "rsa")
	lookup := func(recs map[string]string) func(string) ([]string, error) {
		return func(name string) ([]string, error) {
			if r, ok := recs[name]; ok {
				return []string{r}, nil
			}
			return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
		}
	}
	cases := []struct {
		name    string
		dns     map[string]string
		address string
		ok      bool
		step    string // the DKIM step's status
		detail  string
	}{
		{"published", map[string]string{"s1._domainkey.sortie.test": d.Record()}, "", true, "ok", "verifies"},
		{"not published", nil, "", false, "FAIL", "no TXT record at s1._domainkey.sortie.test"},
		{"another key", map[string]string{"s1._domainkey.sortie.test": other.Record()}, "", false, "FAIL", "not the key in dkim.key_file"},
		{"another domain", map[string]string{"s1._domainkey.sortie.test": d.Record()}, "sortie@games.example", true, "ok", "verifies"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := s.options(t)
			o.SMTP.DKIM = d
			o.LookupTXT = lookup(c.dns)
			if c.address != "" {
				o.Address = c.address
			}
			ok, steps, out := runCheck(t, o)
			if c.address == "" && ok != c.ok {
				t.Errorf("check passed = %v, want %v:\n%s", ok, c.ok, out)
			}
			if !strings.Contains(steps["dkim key"].Detail, d.ZoneRecord()) {
				t.Errorf("the record to publish is not printed:\n%s", out)
			}
			if st := steps["dkim record"]; st.Status != c.step || !strings.Contains(st.Detail, c.detail) {
				t.Errorf("dkim record step %+v, want %s saying %q", st, c.step, c.detail)
			}
			if c.address != "" && steps["dkim domain"].Status != "warn" {
				t.Errorf("a From domain the key does not sign for must warn:\n%s", out)
			}
			if c.address == "" && steps["dkim domain"].Status != "" {
				t.Errorf("a key for the address's own domain needs no warning:\n%s", out)
			}
		})
	}
	// The probe sortie check sent went out signed, as every mail of the sender does.
	var probes int
	for _, env := range s.smtp.Received() {
		if err := verifyDKIM(env.Raw, "sortie.test", lookup(map[string]string{"s1._domainkey.sortie.test": d.Record()})); err != nil {
			t.Errorf("a probe does not verify: %v", err)
		}
		probes++
	}
	if probes == 0 {
		t.Errorf("no probe was sent")
	}

	o := s.options(t)
	o.SMTP.DKIM = checkDKIMKey(t, "ed25519")
	o.LookupTXT = lookup(map[string]string{"s1._domainkey.sortie.test": o.SMTP.DKIM.Record()})
	if ok, steps, out := runCheck(t, o); !ok || steps["dkim key"].Status != "warn" || steps["dkim record"].Status != "ok" {
		t.Errorf("an Ed25519 key works, with a warning that many receivers do not check it:\n%s", out)
	}
}
