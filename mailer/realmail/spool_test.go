package realmail_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sortie/mailer"
	"sortie/storage"
)

// TestSpoolOnDovecot: a backlog of 20 mails in Dovecot goes through the database's spool: it leaves the
// INBOX with one MOVE once it has arrived, and the mails the handler rejects or fails are moved on from
// Processed to their folders by the UIDs Dovecot's COPYUID gave, so every mail ends where it would
// without a spool.
func TestSpoolOnDovecot(t *testing.T) {
	s := needServers(t)
	const user = "sortie@example.test"
	for n := 1; n <= 20; n++ {
		lmtpDeliver(t, s, user, []byte(fmt.Sprintf("From: alice@example.test\r\nTo: %s\r\nSubject: order %d\r\nMessage-ID: <o%d@example.test>\r\n\r\nGAME g TURN 1\r\n", user, n, n)))
	}
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	verdict := func(subject string) mailer.Disposition {
		switch subject {
		case "order 3", "order 17":
			return mailer.Rejected
		case "order 8":
			return mailer.Failed
		}
		return mailer.Processed
	}
	h := mailer.HandlerFunc(func(_ context.Context, m mailer.Message) mailer.Disposition {
		for _, line := range strings.Split(string(m.Raw), "\r\n") {
			if subject, ok := strings.CutPrefix(line, "Subject: "); ok {
				return verdict(subject)
			}
		}
		return mailer.Failed
	})
	in := mailer.NewIntake(mailer.IntakeOptions{Addr: s.IMAPSAddr, TLS: mailer.TLSImplicit, CAFile: s.CAFile, Username: user,
		Password: s.Password(user)}, db, h)
	if handled, err := in.PollOnce(context.Background()); err != nil || handled != 20 {
		t.Fatalf("handled %d: %v", handled, err)
	}
	held := 0
	if err := db.Spooled("INBOX", func(uint32, uint32, []byte) error { held++; return nil }); err != nil || held != 0 {
		t.Fatalf("the spool holds %d (%v)", held, err)
	}
	subjects := func(mailbox string) []string {
		msgs, err := s.Fetch(user, mailbox)
		if err != nil {
			t.Fatalf("%s: %v", mailbox, err)
		}
		var out []string
		for _, m := range msgs {
			for _, line := range strings.Split(string(m.Raw), "\r\n") {
				if subject, ok := strings.CutPrefix(line, "Subject: "); ok {
					out = append(out, subject)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	if got := subjects("INBOX"); len(got) != 0 {
		t.Errorf("INBOX holds %v", got)
	}
	if got := subjects("Rejected"); !slices.Equal(got, []string{"order 17", "order 3"}) {
		t.Errorf("Rejected holds %v", got)
	}
	if got := subjects("Sortie/Failed"); !slices.Equal(got, []string{"order 8"}) {
		t.Errorf("Sortie/Failed holds %v", got)
	}
	if got := subjects("Processed"); len(got) != 17 || slices.Contains(got, "order 3") || slices.Contains(got, "order 8") {
		t.Errorf("Processed holds %d: %v", len(got), got)
	}
}
