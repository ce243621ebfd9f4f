package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"sortie/mailer/realmail"
	"sortie/rules/afd"
)

// The accounts of the DKIM run of TestRealMail.
const dkimService, dkimAlice, dkimBob = "signed@sortie.test", "dkim-alice@players.test", "dkim-bob@players.test"

// realDKIM: a daemon with a signing key sends its mail through Postfix's submission port; every mail
// Dovecot delivers to the players carries a signature of sortie.test that verifies against the
// published key (RFC 6376), after Postfix added its own Received field and queue handling.
func realDKIM(t *testing.T, srv *realmail.Servers, dir string) {
	d := newRealDaemon(t, srv, dir, dkimService, dkimService, "tls")
	_, dns := addDKIM(&world{t: t, dir: dir, cfg: d.cfg})
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, fmt.Appendf(nil, "\nservice:\n  seed: %s\n  players:\n    alice: {email: %s}\n    bob: {email: %s}\n", realSeed, dkimAlice, dkimBob)...)
	scenario := filepath.Join(dir, "channel.yaml")
	if err := os.WriteFile(scenario, scn, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := d.run("game", "new", "--id", "signed", scenario); !strings.Contains(out, "game signed started") {
		t.Fatalf("game new: %s", out)
	}
	d.start()
	defer d.stop()
	aWelcome := waitRealMails(t, srv, dkimAlice, "welcome", 1)[0]
	// A reply to the report: the receipt goes out signed too.
	block := realOrderBlock(aWelcome.Text)
	if block == "" {
		t.Fatalf("no block in the welcome mail:\n%s", aWelcome.Text)
	}
	if err := srv.Submit(dkimAlice, dkimAlice, []string{aWelcome.ReplyTo}, realMessage(dkimAlice, aWelcome.ReplyTo, "dkim-a1@players.test", "Re: welcome", "text/plain; charset=utf-8", strings.Replace(block, "END", "RED1: 6\nEND", 1))); err != nil {
		t.Fatal(err)
	}
	waitRealMails(t, srv, dkimAlice, "receipt", 1)
	waitRealMails(t, srv, dkimBob, "welcome", 1)
	lookup := func(name string) ([]string, error) {
		if rec, ok := dns[name]; ok {
			return []string{rec}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	n := 0
	for _, user := range []string{dkimAlice, dkimBob} {
		for _, m := range realMails(t, srv, user, "INBOX") {
			n++
			vs, err := dkim.VerifyWithOptions(bytes.NewReader(m.Raw), &dkim.VerifyOptions{LookupTXT: lookup})
			if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "sortie.test" {
				t.Errorf("%s's mail %q does not verify after Postfix: %v %+v", user, m.Subject, err, vs)
			}
			if !bytes.Contains(m.Raw, []byte("Received: ")) {
				t.Errorf("%s's mail did not pass through Postfix:\n%s", user, m.Raw)
			}
		}
	}
	if n < 3 {
		t.Errorf("only %d mails arrived", n)
	}
}
