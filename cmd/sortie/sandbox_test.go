package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/smtp"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"sortie/cmd/sortie/internal/demo"
	"sortie/mailer/inmail"
)

// sandboxMailbox is a player's mail program: an IMAP client logged in to the sandbox, and SMTP.
type sandboxMailbox struct {
	t         *testing.T
	c         *imapclient.Client
	address   string
	smtpAddr  string
	seen      map[imap.UID]bool
	lastRaw   []byte
	lastParse *inmail.Mail
}

func loginSandbox(t *testing.T, imapAddr, smtpAddr, address, password string) *sandboxMailbox {
	t.Helper()
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatalf("IMAP connection to the sandbox: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(address, password).Wait(); err != nil {
		t.Fatalf("%s logs in to the sandbox's IMAP server: %v", address, err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	return &sandboxMailbox{t: t, c: c, address: address, smtpAddr: smtpAddr, seen: map[imap.UID]bool{}}
}

// next waits for the next new mail in the inbox whose subject has the word, as a mail program shows new
// mail, and returns its text. The wait is a hang guard: the sandbox answers in well under a second.
func (m *sandboxMailbox) next(word string) *inmail.Mail {
	m.t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if err := m.c.Noop().Wait(); err != nil {
			m.t.Fatal(err)
		}
		found, err := m.c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
		if err != nil {
			m.t.Fatal(err)
		}
		for _, uid := range found.AllUIDs() {
			if m.seen[uid] {
				continue
			}
			section := &imap.FetchItemBodySection{}
			msgs, err := m.c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
			if err != nil || len(msgs) != 1 {
				m.t.Fatalf("fetching mail %d: %v", uid, err)
			}
			m.seen[uid] = true
			raw := msgs[0].FindBodySection(section)
			in, err := inmail.Parse(raw)
			if err != nil {
				m.t.Fatal(err)
			}
			if strings.Contains(in.Subject, word) {
				m.lastRaw, m.lastParse = raw, in
				return in
			}
		}
	}
	m.t.Fatalf("%s: no mail with %q in its subject came", m.address, word)
	return nil
}

// reply sends text as a reply to the last mail read, to its Reply-To, the way a mail program replies.
func (m *sandboxMailbox) reply(text string) {
	m.t.Helper()
	to := demo.ReplyAddress(m.lastRaw, "sortie@"+sandboxDomain)
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%d.%s>\r\nIn-Reply-To: <%s>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		m.address, to, m.lastParse.Subject, time.Now().UnixNano(), m.address, m.lastParse.MessageID, strings.ReplaceAll(text, "\n", "\r\n"))
	if err := smtp.SendMail(m.smtpAddr, nil, m.address, []string{to}, []byte(msg)); err != nil {
		m.t.Fatalf("%s sends by SMTP: %v", m.address, err)
	}
}

// TestSandboxWithAMailProgram runs sortie sandbox, reads what it prints as a person setting up a mail
// program would (servers, ports, accounts, the web archive), and plays the first turn with a real IMAP
// client and SMTP: each player logs in, reads the welcome, replies with the orders it offers, gets the
// receipt, and then the turn's report. Ctrl-C stops it cleanly.
func TestSandboxWithAMailProgram(t *testing.T) {
	cmd := exec.Command(binary, "sandbox", "--imap", "127.0.0.1:0", "--smtp", "127.0.0.1:0", "--web", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var printed strings.Builder
	guard := time.After(2 * time.Minute) // a hang guard: the sandbox starts in well under a second
read:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("sortie sandbox ended:\n%s\n%s", printed.String(), stderr.String())
			}
			printed.WriteString(l + "\n")
			if strings.HasPrefix(l, "Stop it with Ctrl-C") {
				break read
			}
		case <-guard:
			t.Fatalf("sortie sandbox printed no instructions:\n%s\n%s", printed.String(), stderr.String())
		}
	}
	out := printed.String()
	find := func(re string) []string {
		m := regexp.MustCompile(re).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("sortie sandbox does not say %s:\n%s", re, out)
		}
		return m
	}
	imapM := find(`incoming mail, IMAP: server (127\.0\.0\.1), port (\d+)`)
	smtpM := find(`outgoing mail, SMTP: server (127\.0\.0\.1), port (\d+), no authentication`)
	imapAddr, smtpAddr := imapM[1]+":"+imapM[2], smtpM[1]+":"+smtpM[2]
	alice := find(`(alice@sortie\.test) +password (\S+) +player Alice`)
	bob := find(`(bob@sortie\.test) +password (\S+) +player Bob`)
	find(`moderator@sortie\.test +password \S+ +the game's moderator`)
	find(`without TLS \(connection security: none\)`)
	webURL := find(`Web archive: (http://127\.0\.0\.1:\d+/)`)[1]

	// Alice's mail program: the welcome, her orders, the receipt.
	a := loginSandbox(t, imapAddr, smtpAddr, alice[1], alice[2])
	welcome := a.next("welcome")
	if !strings.Contains(welcome.Text, "you are Alice") || !strings.Contains(welcome.Text, webURL) {
		t.Errorf("Alice's welcome names her and her link on the sandbox's web archive (%s):\n%s", webURL, welcome.Text)
	}
	block := demo.ExtractBlock(welcome.Text)
	if block == "" {
		t.Fatalf("the welcome has no order block:\n%s", welcome.Text)
	}
	a.reply("My orders.\n\n" + block)
	receipt := a.next("receipt")
	if strings.Contains(receipt.Text, "NOT STORED") || !strings.Contains(strings.ToLower(receipt.Text), "stored") {
		t.Fatalf("Alice's orders were not stored:\n%s", receipt.Text)
	}

	// A wrong password is refused.
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(alice[1], "not-"+alice[2]).Wait(); err == nil {
		t.Error("the sandbox's IMAP server took a wrong password")
	}
	c.Close()

	// Bob's orders complete the turn; both get the turn's report.
	b := loginSandbox(t, imapAddr, smtpAddr, bob[1], bob[2])
	b.next("welcome")
	b.reply(demo.ExtractBlock(b.lastParse.Text))
	b.next("receipt")
	report := a.next("report")
	if !strings.Contains(report.Text, "GAME ") || strings.Contains(report.Text, "you are Bob") {
		t.Errorf("Alice's report:\n%s", report.Text)
	}
	b.next("report")

	// The web archive answers at the address printed.
	resp, err := http.Get(webURL)
	if err != nil {
		t.Fatalf("the web archive at %s: %v", webURL, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "sandbox") {
		t.Errorf("the web archive at %s: %d\n%s", webURL, resp.StatusCode, body)
	}

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var rest strings.Builder
	for l := range lines {
		rest.WriteString(l + "\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("sortie sandbox after Ctrl-C: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(rest.String(), "Sortie sandbox stopped.") {
		t.Errorf("after Ctrl-C: %q", rest.String())
	}
}

// TestSandboxListensOnLoopbackOnly: its accounts' passwords are printed and its servers speak no TLS, so
// an address on another interface is refused before anything listens.
func TestSandboxListensOnLoopbackOnly(t *testing.T) {
	for _, args := range [][]string{{"--imap", "0.0.0.0:1143"}, {"--smtp", "192.0.2.1:2525"}, {"--web", ":8080"}} {
		out, errOut, code := sortie(t, append([]string{"sandbox"}, args...)...)
		if code != 2 || !strings.Contains(errOut, args[0]) || !strings.Contains(errOut, "loopback") {
			t.Errorf("sortie sandbox %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
}
