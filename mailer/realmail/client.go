package realmail

import (
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Submit sends raw as a mail program does: to the submission port, STARTTLS (verifying the
// certificate against the CA), AUTH PLAIN as login (a user's address), MAIL FROM from (empty for
// the null sender <> of bounces and auto-replies), RCPT TO each of to, DATA raw. Postfix queues the
// message and delivers it to Dovecot over LMTP; the error is the first refusal (e.g. a RCPT for an
// unknown user: 550).
func (s *Servers) Submit(login, from string, to []string, raw []byte) error {
	pw, ok := s.Users[strings.ToLower(login)]
	if !ok {
		return fmt.Errorf("realmail: no user %s", login)
	}
	conn, err := net.DialTimeout("tcp", s.SubmissionAddr, 10*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	c, err := smtp.NewClient(conn, s.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.example.test"); err != nil {
		return err
	}
	if err := c.StartTLS(s.ClientTLS()); err != nil {
		return fmt.Errorf("realmail: STARTTLS: %w", err)
	}
	if err := c.Auth(smtp.PlainAuth("", strings.ToLower(login), pw, s.Host)); err != nil {
		return fmt.Errorf("realmail: AUTH as %s: %w", login, err)
	}
	if err := c.Mail(from); err != nil {
		return fmt.Errorf("realmail: MAIL FROM:<%s>: %w", from, err)
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return fmt.Errorf("realmail: RCPT TO:<%s>: %w", rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("realmail: DATA: %w", err)
	}
	return c.Quit()
}

// Message is one message in a mailbox, as IMAP returns it.
type Message struct {
	UID   uint32
	Flags []string
	Raw   []byte // the whole message, BODY.PEEK[] (Postfix has added its Received header)
}

// Login opens an IMAPS connection as user. The caller closes it (Logout, Close).
func (s *Servers) Login(user string) (*imapclient.Client, error) {
	pw, ok := s.Users[strings.ToLower(user)]
	if !ok {
		return nil, fmt.Errorf("realmail: no user %s", user)
	}
	c, err := imapclient.DialTLS(s.IMAPSAddr, &imapclient.Options{TLSConfig: s.ClientTLS()})
	if err != nil {
		return nil, err
	}
	if err := c.Login(strings.ToLower(user), pw).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("realmail: IMAP login as %s: %w", user, err)
	}
	return c, nil
}

// Fetch returns every message in user's mailbox (read-only: flags are not changed). A mailbox that
// does not exist yet holds nothing.
func (s *Servers) Fetch(user, mailbox string) ([]Message, error) {
	c, err := s.Login(user)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Code == imap.ResponseCodeNonExistent {
			return nil, nil
		}
		return nil, fmt.Errorf("realmail: select %s of %s: %w", mailbox, user, err)
	}
	var out []Message
	if sel.NumMessages > 0 {
		var all imap.SeqSet
		all.AddRange(1, 0) // 1:*
		section := &imap.FetchItemBodySection{Peek: true}
		bufs, err := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return nil, fmt.Errorf("realmail: fetch %s of %s: %w", mailbox, user, err)
		}
		for _, b := range bufs {
			m := Message{UID: uint32(b.UID), Raw: b.FindBodySection(section)}
			for _, f := range b.Flags {
				m.Flags = append(m.Flags, string(f))
			}
			out = append(out, m)
		}
	}
	c.Logout().Wait()
	return out, nil
}

// WaitFetch fetches user's mailbox until done says the messages are what the caller waits for, and
// returns them; after timeout it returns the last messages with an error.
func (s *Servers) WaitFetch(user, mailbox string, timeout time.Duration, done func([]Message) bool) ([]Message, error) {
	deadline := time.Now().Add(timeout)
	for {
		msgs, err := s.Fetch(user, mailbox)
		if err == nil && done(msgs) {
			return msgs, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("realmail: %s/%s: still not there after %v (%d messages)", user, mailbox, timeout, len(msgs))
			}
			return msgs, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
