package mailer_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"sortie/mailer"
	"sortie/mailer/localmail"
	"sortie/mailer/outmail"
)

// dkimKeyPEM makes a private key as openssl writes it: PKCS #8, or PKCS #1 for RSA with pkcs1.
func dkimKeyPEM(t testing.TB, alg string, pkcs1 bool) []byte {
	t.Helper()
	var key any
	switch alg {
	case "rsa":
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		if pkcs1 {
			return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
		}
		key = k
	case "ed25519":
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
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

func newDKIM(t testing.TB, domain, selector, alg string) *mailer.DKIM {
	t.Helper()
	d, err := mailer.NewDKIM(domain, selector, dkimKeyPEM(t, alg, false))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// testDNS is a DNS of TXT records for the verifier: name → the record's text.
type testDNS map[string]string

func (dns testDNS) LookupTXT(name string) ([]string, error) {
	if rec, ok := dns[name]; ok {
		return []string{rec}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// publish puts d's record where a receiver looks for it.
func (dns testDNS) publish(d *mailer.DKIM) testDNS {
	dns[d.RecordName()] = d.Record()
	return dns
}

// verifyDKIM checks raw as a receiver would and returns the domains whose signatures verify.
func verifyDKIM(t *testing.T, raw []byte, dns testDNS) []string {
	t.Helper()
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: dns.LookupTXT})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	var ok []string
	for _, v := range vs {
		if v.Err == nil {
			ok = append(ok, v.Domain)
		} else {
			t.Logf("signature of %s: %v", v.Domain, v.Err)
		}
	}
	return ok
}

// TestSenderSignsEveryMail: with a key configured, every mail the sender hands the SMTP server carries
// a DKIM signature of the service's domain that verifies against the published key (RFC 6376), for
// plain mails and for one with an inline picture, an attachment, non-ASCII text and a long subject;
// and what the server received is the rendered mail (the bytes the archive keeps) with the signature
// field on top, nothing else changed.
func TestSenderSignsEveryMail(t *testing.T) {
	for _, alg := range []string{"rsa", "ed25519"} {
		t.Run(alg, func(t *testing.T) {
			d := newDKIM(t, "sortie.test", "s2026", alg)
			dns := testDNS{}.publish(d)
			srv := startSenderSMTP(t, localmail.SMTPOptions{})
			rich := mailer.OutgoingMail{ID: "out-rich", Mail: outmail.Mail{
				From: "gm@sortie.test", FromName: "Sortie – Kanalkampf", To: "juergen@example.test", ToName: "Jürgen",
				ReplyTo: "gm+abc123@sortie.test",
				Subject: "[g1] Turn 3 report for Jürgen: " + strings.Repeat("a long subject that folds ", 5),
				Body:    "Grüße!\n.\n.a line starting with a dot\nFrom the GM\n" + strings.Repeat("x", 200) + "\ntrailing blanks   \n",
				Parts: []outmail.Part{
					{Filename: "map.png", ContentType: "image/png", Inline: true, Data: []byte("\x89PNG\r\n\x1a\nnot really a picture")},
					{Filename: "orders.txt", ContentType: "text/plain", Data: []byte("GAME g1 TURN 3\n")},
				},
				MessageID: "report-g1-3-juergen@sortie.test", InReplyTo: "orders-42@example.test",
				Headers: map[string]string{"X-Sortie-Game": "g1"},
				Created: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
			}}
			box := newSenderOutbox(rich, senderItem(2), senderItem(3))
			opts := senderOptions(t, srv)
			opts.DKIM = d
			if sent, err := mailer.NewSender(opts, box).SendOnce(context.Background()); err != nil || sent != 3 {
				t.Fatalf("SendOnce = %d, %v", sent, err)
			}
			got := srv.Received()
			if len(got) != 3 {
				t.Fatalf("received %d mails", len(got))
			}
			for i, env := range got {
				if doms := verifyDKIM(t, env.Raw, dns); len(doms) != 1 || doms[0] != "sortie.test" {
					t.Errorf("mail %d: verified signatures %v, want one of sortie.test", i, doms)
				}
				item := []mailer.OutgoingMail{rich, senderItem(2), senderItem(3)}[i]
				want, err := outmail.Render(item.Mail, "Sortie")
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(env.Raw, []byte("DKIM-Signature: ")) || !bytes.HasSuffix(env.Raw, want) {
					t.Errorf("mail %d is not the rendered mail under a DKIM-Signature field:\n%s", i, env.Raw)
				}
				sig := env.Raw[:len(env.Raw)-len(want)]
				if bytes.Count(sig, []byte("\r\n")) != bytes.Count(sig, []byte("\n")) {
					t.Errorf("mail %d: the signature field has bare LF line ends:\n%q", i, sig)
				}
			}
		})
	}
}

// TestDKIMSignatureCatchesChanges: the test's verifier is no rubber stamp: a mail signed with another
// key than the published one fails, and so does a signed mail whose From, Subject or body was changed
// on the way, or which gained a second From (the oversigned fields).
func TestDKIMSignatureCatchesChanges(t *testing.T) {
	d := newDKIM(t, "sortie.test", "s1", "rsa")
	other := newDKIM(t, "sortie.test", "s1", "rsa")
	m := senderItem(1).Mail
	raw, err := outmail.Render(m, "Sortie")
	if err != nil {
		t.Fatal(err)
	}
	signed, err := d.Sign(raw)
	if err != nil {
		t.Fatal(err)
	}
	if doms := verifyDKIM(t, signed, testDNS{}.publish(d)); len(doms) != 1 {
		t.Fatalf("the untouched mail does not verify")
	}
	if doms := verifyDKIM(t, signed, testDNS{}.publish(other)); len(doms) != 0 {
		t.Errorf("verified against another key")
	}
	for name, change := range map[string]func([]byte) []byte{
		"from": func(b []byte) []byte {
			return bytes.Replace(b, []byte("From: \"Sortie\" <gm@sortie.test>"), []byte("From: \"Sortie\" <gm@evil.test>"), 1)
		},
		"second from": func(b []byte) []byte { return append([]byte("From: gm@evil.test\r\n"), b...) },
		"subject": func(b []byte) []byte {
			return bytes.Replace(b, []byte("Subject: Report 1"), []byte("Subject: Report 2"), 1)
		},
		"body": func(b []byte) []byte {
			return bytes.Replace(b, []byte("Turn 1 resolved."), []byte("Turn 9 resolved."), 1)
		},
	} {
		changed := change(bytes.Clone(signed))
		if bytes.Equal(changed, signed) {
			t.Fatalf("%s: the change did not apply to\n%s", name, signed)
		}
		if doms := verifyDKIM(t, changed, testDNS{}.publish(d)); len(doms) != 0 {
			t.Errorf("%s changed on the way: the signature still verifies", name)
		}
	}
}

// TestDKIMKeysAndRecords: the key files openssl makes are read (PKCS #8 RSA and Ed25519, PKCS #1 RSA),
// anything else is refused with what to do; the record to publish holds the public key (RFC 6376
// section 3.6.1, RFC 8463 for Ed25519) and is recognised when DNS gives it back cut into strings.
func TestDKIMKeysAndRecords(t *testing.T) {
	for _, c := range []struct {
		alg   string
		pkcs1 bool
	}{{"rsa", false}, {"rsa", true}, {"ed25519", false}} {
		d, err := mailer.NewDKIM("Sortie.Test.", "s1", dkimKeyPEM(t, c.alg, c.pkcs1))
		if err != nil {
			t.Fatalf("%s pkcs1=%v: %v", c.alg, c.pkcs1, err)
		}
		if d.Domain != "sortie.test" || d.RecordName() != "s1._domainkey.sortie.test" {
			t.Errorf("domain %q, record name %q", d.Domain, d.RecordName())
		}
		rec := d.Record()
		if !strings.HasPrefix(rec, "v=DKIM1; k="+c.alg+"; p=") {
			t.Errorf("record %q", rec)
		}
		// DNS hands a long record back as it was published, in strings of up to 255 characters; the
		// resolver joins them.
		zone := d.ZoneRecord()
		if !strings.HasPrefix(zone, "s1._domainkey.sortie.test. IN TXT ( \"v=DKIM1; ") {
			t.Errorf("zone line %q", zone)
		}
		for _, s := range strings.Split(zone, `"`) {
			if len(s) > 255 {
				t.Errorf("a string of %d characters in %q", len(s), zone)
			}
		}
		if !d.PublishedKey([]string{strings.ReplaceAll(rec, "; ", ";")}) || !d.PublishedKey([]string{"v=spf1 -all", rec}) {
			t.Errorf("its own record is not recognised")
		}
		if other := newDKIM(t, "sortie.test", "s1", c.alg); d.PublishedKey([]string{other.Record()}) {
			t.Errorf("another key's record is taken for its own")
		}
	}
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	good := dkimKeyPEM(t, "rsa", false)
	for name, c := range map[string]struct {
		domain, selector string
		key              []byte
		want             string
	}{
		"no PEM":     {"sortie.test", "s1", []byte("hello"), "no PEM block"},
		"public key": {"sortie.test", "s1", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), "not a private key"},
		"damaged":    {"sortie.test", "s1", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pub}), "cannot be read"},
		"domain":     {"localhost", "s1", good, "not a domain name"},
		"selector":   {"sortie.test", "s 1", good, "not one word"},
	} {
		if _, err := mailer.NewDKIM(c.domain, c.selector, c.key); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}
