package localmail

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func testMessage(n int) []byte {
	return []byte(fmt.Sprintf("From: p%d@example.test\r\nTo: gm@example.test\r\nSubject: orders %d\r\nMessage-ID: <m%d@example.test>\r\n\r\nbody %d\r\n", n, n, n, n))
}

func startIMAP(t *testing.T, opts IMAPOptions) *IMAPServer {
	t.Helper()
	if opts.Users == nil {
		opts.Users = map[string]string{"gm": "gmpass"}
	}
	s, err := StartIMAP(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestLocalIMAPDeliverListRestart(t *testing.T) {
	s := startIMAP(t, IMAPOptions{})
	for i := 1; i <= 2; i++ {
		if err := s.Deliver("gm", testMessage(i)); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := s.Messages("gm", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || !bytes.Equal(msgs[0], testMessage(1)) || !bytes.Equal(msgs[1], testMessage(2)) {
		t.Fatalf("Messages = %q", msgs)
	}
	for _, mbox := range DefaultMailboxes {
		if _, err := s.Messages("gm", mbox); err != nil {
			t.Errorf("mailbox %s: %v", mbox, err)
		}
	}
	if err := s.Deliver("nobody", testMessage(3)); err == nil {
		t.Error("Deliver to an unknown user succeeded")
	}

	// A real client sees the mail; the inspection did not set \Seen.
	c, err := imapclient.DialInsecure(s.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login("gm", "wrong").Wait(); err == nil {
		t.Error("login with a wrong password succeeded")
	}
	if err := c.Login("gm", "gmpass").Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.NumMessages != 2 {
		t.Fatalf("select: %v, %+v", err, sel)
	}
	caps := c.Caps()
	for _, want := range []imap.Cap{imap.CapIdle, imap.CapMove, imap.CapUIDPlus} {
		if !caps.Has(want) {
			t.Errorf("capability %s missing", want)
		}
	}
	if caps.Has(imap.CapIMAP4rev2) {
		t.Error("IMAP4rev2 advertised by default")
	}

	// Stop drops the client and refuses new ones; Start brings the same address back.
	addr := s.Addr()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	<-c.Closed()
	if _, err := imapclient.DialInsecure(addr, nil); err == nil {
		t.Fatal("dial succeeded while stopped")
	}
	if err := s.Deliver("gm", testMessage(3)); err != nil { // mail still arrives while stopped
		t.Fatal(err)
	}
	if list, err := s.List("gm", "INBOX"); err != nil || len(list) != 3 || list[2].UID != 3 {
		t.Fatalf("List while stopped: %v, %+v", err, list)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if s.Addr() != addr {
		t.Fatalf("address changed: %s -> %s", addr, s.Addr())
	}
	if err := s.RestartListener(); err != nil {
		t.Fatal(err)
	}
	c2, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Login("gm", "gmpass").Wait(); err != nil {
		t.Fatal(err)
	}

	// ResetMailbox gives a new, empty mailbox with a new UIDVALIDITY.
	before, _ := s.UIDValidity("gm", "INBOX")
	if err := s.ResetMailbox("gm", "INBOX"); err != nil {
		t.Fatal(err)
	}
	after, _ := s.UIDValidity("gm", "INBOX")
	if before == after || after == 0 {
		t.Fatalf("UIDVALIDITY %d -> %d", before, after)
	}
	if msgs, _ := s.Messages("gm", "INBOX"); len(msgs) != 0 {
		t.Fatalf("reset mailbox holds %d messages", len(msgs))
	}
}

func TestLocalIMAPOptions(t *testing.T) {
	s := startIMAP(t, IMAPOptions{NoMove: true})
	c, err := imapclient.DialInsecure(s.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("gm", "gmpass").Wait(); err != nil {
		t.Fatal(err)
	}
	if c.Caps().Has(imap.CapMove) {
		t.Error("MOVE advertised with NoMove")
	}

	s2 := startIMAP(t, IMAPOptions{IMAP4rev2: true})
	c2, err := imapclient.DialInsecure(s2.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Login("gm", "gmpass").Wait(); err != nil {
		t.Fatal(err)
	}
	if !c2.Caps().Has(imap.CapIMAP4rev2) {
		t.Error("IMAP4rev2 not advertised")
	}
	if _, err := StartIMAP(IMAPOptions{IMAP4rev2: true, NoMove: true}); err == nil {
		t.Error("IMAP4rev2 with NoMove accepted")
	}
	if err := s2.AddUser("gm", "x"); err == nil {
		t.Error("AddUser of an existing user succeeded")
	}
}

func TestLocalIMAPTLS(t *testing.T) {
	caPEM, serverTLS, err := GenerateCA()
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	s := startIMAP(t, IMAPOptions{TLSConfig: serverTLS, ImplicitTLS: true, RequireTLS: true})

	// Clear text: LOGIN refused.
	c, err := imapclient.DialInsecure(s.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login("gm", "gmpass").Wait(); err == nil {
		t.Error("clear-text login accepted with RequireTLS")
	}
	c.Close()

	// STARTTLS with our CA, then implicit TLS.
	c, err = imapclient.DialStartTLS(s.Addr(), &imapclient.Options{TLSConfig: &tls.Config{RootCAs: pool}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login("gm", "gmpass").Wait(); err != nil {
		t.Fatalf("login after STARTTLS: %v", err)
	}
	c.Close()
	c, err = imapclient.DialTLS(s.TLSAddr(), &imapclient.Options{TLSConfig: &tls.Config{RootCAs: pool, ServerName: "localhost"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login("gm", "gmpass").Wait(); err != nil {
		t.Fatalf("login over implicit TLS: %v", err)
	}
	c.Close()

	// Without our CA the certificate does not verify.
	if c, err := imapclient.DialStartTLS(s.Addr(), nil); err == nil {
		c.Close()
		t.Error("STARTTLS verified a certificate from the throwaway CA against the system roots")
	}
}

func TestLocalSMTP(t *testing.T) {
	var delivered []string
	fail := false
	s, err := StartSMTP(SMTPOptions{
		Username: "sortie", Password: "pw",
		OnMessage: func(from string, to []string, raw []byte) error {
			if fail {
				return errors.New("disk full")
			}
			delivered = append(delivered, from+">"+strings.Join(to, ","))
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	msg := "Subject: hi\r\n\r\nhello\r\n"

	// No AUTH: MAIL refused.
	if err := sendMail(s.Addr(), nil, "a@example.test", []string{"b@example.test"}, strings.NewReader(msg)); err == nil {
		t.Error("unauthenticated mail accepted")
	}
	// Wrong password.
	if err := sendMail(s.Addr(), sasl.NewPlainClient("", "sortie", "nope"), "a@example.test", []string{"b@example.test"}, strings.NewReader(msg)); err == nil {
		t.Error("wrong password accepted")
	}
	// Right password.
	if err := sendMail(s.Addr(), sasl.NewPlainClient("", "sortie", "pw"), "a@example.test", []string{"b@example.test", "c@example.test"}, strings.NewReader(msg)); err != nil {
		t.Fatal(err)
	}
	// The callback refuses: temporary failure, not recorded.
	fail = true
	err = sendMail(s.Addr(), sasl.NewPlainClient("", "sortie", "pw"), "a@example.test", []string{"b@example.test"}, strings.NewReader(msg))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 451 {
		t.Errorf("refused by callback: %v", err)
	}
	fail = false
	// Down: 421 at the greeting.
	s.SetDown(true)
	err = sendMail(s.Addr(), sasl.NewPlainClient("", "sortie", "pw"), "a@example.test", []string{"b@example.test"}, strings.NewReader(msg))
	if !errors.As(err, &se) || se.Code != 421 {
		t.Errorf("down: %v", err)
	}
	s.SetDown(false)

	got := s.Received()
	if len(got) != 1 || got[0].From != "a@example.test" || len(got[0].To) != 2 || string(got[0].Raw) != msg {
		t.Fatalf("Received = %+v", got)
	}
	if len(delivered) != 1 || delivered[0] != "a@example.test>b@example.test,c@example.test" {
		t.Fatalf("callback saw %q", delivered)
	}
}

func TestLocalSMTPTLS(t *testing.T) {
	caPEM, serverTLS, err := GenerateCA("mail.example.test")
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	for _, implicit := range []bool{false, true} {
		s, err := StartSMTP(SMTPOptions{TLSConfig: serverTLS, ImplicitTLS: implicit, RequireTLS: true, Username: "u", Password: "p"})
		if err != nil {
			t.Fatal(err)
		}
		cfg := &tls.Config{RootCAs: pool, ServerName: "mail.example.test"}
		var c *smtp.Client
		if implicit {
			c, err = smtp.DialTLS(s.Addr(), cfg)
		} else {
			c, err = smtp.DialStartTLS(s.Addr(), cfg)
		}
		if err != nil {
			t.Fatalf("implicit=%v: %v", implicit, err)
		}
		if err := c.Auth(sasl.NewPlainClient("", "u", "p")); err != nil {
			t.Fatal(err)
		}
		if err := c.SendMail("a@example.test", []string{"b@example.test"}, strings.NewReader("Subject: x\r\n\r\ny\r\n")); err != nil {
			t.Fatal(err)
		}
		c.Quit()
		if n := len(s.Received()); n != 1 {
			t.Fatalf("implicit=%v: received %d", implicit, n)
		}
		s.Close()
	}
}

// sendMail is smtp.SendMail without its mandatory STARTTLS.
func sendMail(addr string, a sasl.Client, from string, to []string, r *strings.Reader) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if a != nil {
		if err := c.Auth(a); err != nil {
			return err
		}
	}
	if err := c.SendMail(from, to, r); err != nil {
		return err
	}
	return c.Quit()
}

func TestLocalSMTPDeliversIntoIMAP(t *testing.T) {
	imapSrv := startIMAP(t, IMAPOptions{Users: map[string]string{"gm": "gmpass", "alice": "apass"}})
	users := map[string]string{"gm@sortie.test": "gm", "alice@example.test": "alice"}
	smtpSrv, err := StartSMTP(SMTPOptions{OnMessage: imapSrv.DeliverTo(func(rcpt string) (string, bool) {
		u, ok := users[strings.ToLower(rcpt)]
		return u, ok
	})})
	if err != nil {
		t.Fatal(err)
	}
	defer smtpSrv.Close()
	msg := "From: alice@example.test\r\nSubject: orders\r\n\r\nGAME g1\r\n"
	if err := sendMail(smtpSrv.Addr(), nil, "alice@example.test", []string{"GM@sortie.test", "nobody@example.test"}, strings.NewReader(msg)); err != nil {
		t.Fatal(err)
	}
	got, err := imapSrv.Messages("gm", "INBOX")
	if err != nil || len(got) != 1 || string(got[0]) != msg {
		t.Fatalf("gm's INBOX: %q, %v", got, err)
	}
	if got, _ := imapSrv.Messages("alice", "INBOX"); len(got) != 0 {
		t.Fatalf("alice got %d", len(got))
	}
}
