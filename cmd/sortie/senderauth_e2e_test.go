package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"sortie/mailer"
)

// dkimWorld is a mail world whose daemon signs its mail (dkim) and believes the Authentication-Results
// fields of mx.sortie.test (authserv_id); dns is where a receiver finds the public key.
func dkimWorld(t *testing.T) (w *world, dns map[string]string) {
	t.Helper()
	return addDKIM(newWorld(t))
}

// addDKIM gives w's configuration a fresh signing key for sortie.test (selector s2026) and
// authserv_id mx.sortie.test, and returns the DNS that publishes the key.
func addDKIM(w *world) (*world, map[string]string) {
	t := w.t
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	keyFile := filepath.Join(w.dir, "dkim.pem")
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := mailer.NewDKIM("sortie.test", "s2026", keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(w.cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "authserv_id: mx.sortie.test\ndkim: {domain: sortie.test, selector: s2026, key_file: %s}\n", keyFile)
	f.Close()
	return w, map[string]string{d.RecordName(): d.Record()}
}

// deliverAs puts a mail in the service's inbox as the moderator's receiving server would: with its
// Authentication-Results field (ar, "" for none) on top of what the sender wrote.
func (w *world) deliverAs(ar, from, to, messageID, body string) {
	w.t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nMessage-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, to, messageID, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	if ar != "" {
		raw = ar + "\r\n" + raw
	}
	if err := w.imap.Deliver("sortie", []byte(raw)); err != nil {
		w.t.Fatal(err)
	}
}

// TestEndToEndSenderAuthentication: the daemon reads the verdict of the configured receiving server
// (docs/operations.md, "Sender authentication"; RFC 8601) on mails as that server delivers them. A pass
// changes nothing; a DMARC fail does not keep out a mail that carries the seat's secret or goes to its
// reply address, but its receipt tells the player that her address could not be confirmed; a mail that
// fails and carries neither is refused with the reason and the ways in, and the refusal names nothing of
// the game. A fail from another server, or no field at all, reads as before.
func TestEndToEndSenderAuthentication(t *testing.T) {
	w, dns := dkimWorld(t)
	if out := w.run("game", "new", "--config", w.cfg, "--id", "e2e", w.scenario); !strings.Contains(out, "game e2e started") {
		t.Fatalf("game new: %s", out)
	}
	w.start("")
	aliceWelcome := w.waitMails("alice@players.test", "welcome", 1)[0]
	bobWelcome := w.waitMails("bob@players.test", "welcome", 1)[0]
	aSecret, bSecret := secretOf(t, aliceWelcome), secretOf(t, bobWelcome)
	const (
		pass    = "Authentication-Results: mx.sortie.test;\r\n\tdkim=pass header.d=players.test;\r\n\tspf=pass (sender is allowed) smtp.mailfrom=alice@players.test;\r\n\tdmarc=pass (p=reject) header.from=players.test"
		fail    = "Authentication-Results: mx.sortie.test;\r\n\tdkim=none (no signature);\r\n\tspf=pass smtp.mailfrom=x@evil.test;\r\n\tdmarc=fail (p=none; dis=none) header.from=players.test"
		foreign = "Authentication-Results: mx.elsewhere.test; dmarc=fail header.from=players.test"
	)
	confirmNote := "could not confirm that this mail came from"

	// Pass: a receipt as always, with no note.
	w.deliverAs(pass, "Alice <alice@players.test>", "sortie@sortie.test", "a1@players.test",
		fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nRED1: 6 FIRE KURT\nRED2: 1 TL 4\nEND\n", aSecret))
	if r := w.waitMails("alice@players.test", "receipt", 1)[0]; !strings.Contains(r.Text, "STORED") || strings.Contains(r.Text, confirmNote) {
		t.Errorf("a mail that passed:\n%s", r.Text)
	}

	// Fail, with the secret: the secret still gets Bob in, and his receipt says what the server found.
	w.deliverAs(fail, "bob@players.test", "sortie@sortie.test", "b1@players.test",
		fmt.Sprintf("GAME e2e TURN 1 SECRET %s\nKURT: 5 HOLD\nEND\n", bSecret))
	r := w.waitMails("bob@players.test", "receipt", 1)[0]
	if !strings.Contains(r.Text, "KURT: 5 HOLD") || !strings.Contains(r.Text, confirmNote) || !strings.Contains(r.Text, "(DMARC) failed") ||
		!strings.Contains(r.Text, "because it carried your secret") {
		t.Errorf("a failing mail with the secret:\n%s", r.Text)
	}

	// Fail, to the reply address: the token still gets him in, with the same note.
	w.deliverAs(fail, "bob@players.test", bobWelcome.ReplyTo, "b2@players.test", "GAME e2e TURN 1\nKURT: 4 HOLD\nEND\n")
	r = w.waitMails("bob@players.test", "receipt", 2)[1]
	if !strings.Contains(r.Text, "KURT: 4 HOLD") || !strings.Contains(r.Text, "because it was sent to your reply address") {
		t.Errorf("a failing mail to the reply address:\n%s", r.Text)
	}

	// Fail, neither secret nor token: refused, saying why and how to get in, and nothing of the game.
	w.deliverAs(fail, "bob@players.test", "sortie@sortie.test", "b3@players.test", "GAME e2e TURN 1\nKURT: 3 HOLD\nEND\n")
	ref := w.waitMails("bob@players.test", "could not be matched", 1)[0]
	for _, want := range []string{confirmNote + "\nbob@players.test: the check its domain asks receiving servers to make (DMARC) failed", "reply address", "secret"} {
		if !strings.Contains(ref.Text, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, ref.Text)
		}
	}
	for _, secret := range []string{"Luftwaffe", "RAF", "HANS", "KURT", "alice", "Channel"} {
		if strings.Contains(ref.Text, secret) {
			t.Errorf("the refusal tells %q:\n%s", secret, ref.Text)
		}
	}

	// Another server's fail, and no field at all: the plain refusal of a block without a secret.
	w.deliverAs(foreign, "alice@players.test", "sortie@sortie.test", "a2@players.test", "GAME e2e TURN 1\nRED1: 6\nEND\n")
	w.deliverAs("", "alice@players.test", "sortie@sortie.test", "a3@players.test", "GAME e2e TURN 1\nRED1: 6\nEND\n")
	for _, m := range w.waitMails("alice@players.test", "could not be matched", 2) {
		if strings.Contains(m.Text, confirmNote) || !strings.Contains(m.Text, "Your block has no SECRET") {
			t.Errorf("a refusal without our server's verdict:\n%s", m.Text)
		}
	}

	// RESEND sends a kept report again: signed as it leaves, like every mail.
	before := len(w.mailsTo("alice@players.test", ""))
	w.deliverAs(pass, "alice@players.test", aliceWelcome.ReplyTo, "a4@players.test", "GAME e2e TURN 1\nRESEND\nEND\n")
	w.waitFor("the resent report and its receipt", func() bool { return len(w.mailsTo("alice@players.test", "")) >= before+2 })

	// Every mail the daemon sent verifies against the published key (RFC 6376).
	lookup := func(name string) ([]string, error) {
		if rec, ok := dns[name]; ok {
			return []string{rec}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	got := w.smtp.Received()
	if len(got) < 10 {
		t.Fatalf("only %d mails were sent", len(got))
	}
	for _, e := range got {
		vs, err := dkim.VerifyWithOptions(bytes.NewReader(e.Raw), &dkim.VerifyOptions{LookupTXT: lookup})
		if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "sortie.test" {
			t.Errorf("a mail to %v does not verify: %v %+v", e.To, err, vs)
		}
	}
}
