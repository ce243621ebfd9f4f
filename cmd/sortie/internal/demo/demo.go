// Package demo plays a whole game by mail on mail servers built into the binary: the real daemon reads an
// in-process inbox while two bot players, each flying its side with the ruleset's demo pilot, read their
// reports and mail their orders back. It is what `sortie demo` runs, and a test of the whole path.
package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	netmail "net/mail"
	"net/smtp"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-message"
	"github.com/rs/zerolog"

	"sortie/cmd/sortie/internal/daemon"
	"sortie/mailer/inmail"
	"sortie/mailer/localmail"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
)

// demoDomain and playersDomain are reserved for examples (RFC 2606): no mail leaves the process.
const (
	demoAddress   = "sortie@sortie.test"
	playersDomain = "players.test"
)

// Options configure a demo run.
type Options struct {
	Out      string
	Ruleset  string // a registered ruleset with bundled scenarios and a demo pilot
	Scenario string
	Timeout  time.Duration
	Progress io.Writer
	Log      zerolog.Logger
}

// Result is what a demo run did.
type Result struct {
	Out     string
	Mails   int
	Turns   int
	Result  string
	Players []string
}

// demoWorld is the in-process mail world: the servers, and a mailbox per player address.
type demoWorld struct {
	imap  *localmail.IMAPServer
	smtp  *localmail.SMTPServer
	out   string
	mu    sync.Mutex
	seq   int
	boxes map[string]chan []byte // player address → incoming mail
}

// deliver routes a message accepted by the SMTP server: mail to the service goes into its IMAP inbox,
// mail to a player into that player's mailbox; everything is also written to the output folder.
// demoRoundRE finds the round on an order block's GAME line.
var demoRoundRE = regexp.MustCompile(`\b(TURN|ROUND) (\d+)`)

func (w *demoWorld) deliver(from string, to []string, raw []byte) error {
	for _, rcpt := range to {
		rcpt = strings.ToLower(rcpt)
		if strings.HasPrefix(rcpt, "sortie@") || strings.HasPrefix(rcpt, "sortie+") {
			if err := w.imap.Deliver("sortie", raw); err != nil {
				return err
			}
			w.save("to-sortie", raw)
			continue
		}
		w.mu.Lock()
		box := w.boxes[rcpt]
		w.mu.Unlock()
		local, _, _ := strings.Cut(rcpt, "@")
		w.save(local, raw)
		if box != nil {
			box <- raw
		}
	}
	return nil
}

func (w *demoWorld) save(folder string, raw []byte) {
	w.mu.Lock()
	w.seq++
	n := w.seq
	w.mu.Unlock()
	dir := filepath.Join(w.out, folder)
	os.MkdirAll(dir, 0o755)
	subject := "mail"
	if m := regexp.MustCompile(`(?m)^Subject: (.*)$`).FindSubmatch(raw); m != nil {
		subject = strings.Trim(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(string(m[1]), "-"), "-")
		if len(subject) > 60 {
			subject = subject[:60]
		}
	}
	base := filepath.Join(dir, fmt.Sprintf("%04d-%s", n, subject))
	os.WriteFile(base+".eml", raw, 0o644)
	for i, pic := range pictures(raw) {
		name := base + ".png"
		if i > 0 {
			name = fmt.Sprintf("%s-%d.png", base, i+1)
		}
		os.WriteFile(name, pic, 0o644)
	}
}

// pictures are the PNG parts of a mail (a report's map), decoded, so a reader of the demo's folder sees
// each report's picture beside it without a mail program.
func pictures(raw []byte) [][]byte {
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil && e == nil {
		return nil
	}
	var out [][]byte
	e.Walk(func(_ []int, part *message.Entity, err error) error {
		if err != nil {
			return nil
		}
		if t, _, _ := part.Header.ContentType(); t == "image/png" {
			if b, err := io.ReadAll(io.LimitReader(part.Body, 8<<20)); err == nil && len(b) > 0 {
				out = append(out, b)
			}
		}
		return nil
	})
	return out
}

// Run plays a bundled scenario by mail to the end.
func Run(o Options) (*Result, error) {
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "sortie-demo")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	w := &demoWorld{out: o.Out, boxes: map[string]chan []byte{}}
	if w.imap, err = localmail.StartIMAP(localmail.IMAPOptions{Users: map[string]string{"sortie": "demo-secret"}}); err != nil {
		return nil, err
	}
	defer w.imap.Close()
	if w.smtp, err = localmail.StartSMTP(localmail.SMTPOptions{Domain: "sortie.test", OnMessage: w.deliver}); err != nil {
		return nil, err
	}
	defer w.smtp.Close()

	var rs ruleset.Ruleset
	if o.Ruleset == "" {
		rs, err = registry.Default()
	} else {
		rs, err = registry.Get(o.Ruleset)
	}
	if err != nil {
		return nil, err
	}
	b, ok := rs.(ruleset.Bundled)
	pilot, ok2 := rs.(ruleset.DemoPilot)
	if !ok || !ok2 {
		return nil, fmt.Errorf("the %s ruleset has no bundled scenario and demo pilot", rs.Name())
	}
	scn, err := fs.ReadFile(b.Scenarios(), o.Scenario+".yaml")
	if err != nil {
		return nil, fmt.Errorf("no bundled %s scenario %q (%v)", rs.Name(), o.Scenario, err)
	}
	players := scenarioPlayers(scn)
	var svc strings.Builder
	svc.WriteString("\nservice:\n  moderator: moderator@" + playersDomain + "\n  players:\n")
	for _, p := range players {
		fmt.Fprintf(&svc, "    %s: {email: %s@%s}\n", p, p, playersDomain)
		w.boxes[p+"@"+playersDomain] = make(chan []byte, 256)
	}
	scn = append(scn, svc.String()...)

	host, port := SplitHostPort(w.smtp.Addr())
	cfg := &daemon.Config{Database: filepath.Join(tmp, "sortie.db"), Address: demoAddress, Name: "Sortie demo", ResolveDelay: "0s", LogLevel: "warn"}
	cfg.IMAP.Addr, cfg.IMAP.TLS, cfg.IMAP.Username, cfg.IMAP.Password, cfg.IMAP.Poll = w.imap.Addr(), "none", "sortie", "demo-secret", "2s"
	cfg.SMTP.Host, cfg.SMTP.Port, cfg.SMTP.TLS = host, port, "none"
	d, err := daemon.NewDaemon(cfg)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	d.Log = zerolog.Nop()
	d.Tick = 200 * time.Millisecond

	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()

	g, err := d.Svc.NewGame(scn, o.Scenario+".yaml", "demo")
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Progress, "Game %s (%s) started; players %s mail their orders to %s\n", g.ID, g.Name, strings.Join(players, " and "), demoAddress)

	res := &Result{Out: o.Out, Players: players}
	var wg sync.WaitGroup
	results := make(chan string, len(players))
	for _, p := range players {
		wg.Add(1)
		b := &bot{name: p, addr: p + "@" + playersDomain, smtpAddr: w.smtp.Addr(), inbox: w.boxes[p+"@"+playersDomain], progress: o.Progress,
			pilot: pilot, computer: func() map[string]string {
				orders, _ := d.Svc.PilotOrders(g.ID, p)
				return orders
			}}
		go func() {
			defer wg.Done()
			result, err := b.play(ctx)
			if err != nil {
				result = "error: " + err.Error()
			}
			results <- result
		}()
	}
	wg.Wait()
	close(results)
	for r := range results {
		if res.Result == "" || strings.HasPrefix(res.Result, "error") {
			res.Result = r
		}
	}
	// Let the last mails leave the outbox before stopping.
	for i := 0; i < 50; i++ {
		if st, err := d.DB.OutboxStats(); err == nil && st.Pending == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		return nil, err
	}
	res.Mails = len(w.smtp.Received())
	if st, err := d.Svc.Status(g.ID); err == nil {
		res.Turns = st.Archived
		if st.Result != "" {
			res.Result = "Result: " + st.Result
		}
	}
	if strings.HasPrefix(res.Result, "error") {
		return res, errors.New(res.Result)
	}
	return res, nil
}

func scenarioPlayers(scn []byte) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\{id: ([a-z0-9_-]+)`).FindAllSubmatch(scn, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// SplitHostPort splits "host:port" into the host and the port number.
func SplitHostPort(addr string) (string, int) {
	i := strings.LastIndexByte(addr, ':')
	p, _ := strconv.Atoi(addr[i+1:])
	return addr[:i], p
}

// bot is a demo player: it reads its reports and asks the ruleset's demo pilot (ruleset.DemoPilot) what
// to send back for the block each one carries, then gives each unit the ruleset's computer pilot's order
// where it has one (ruleset.Piloted: flown from the player's side's view only); when a receipt says its
// orders were refused it sends the report's ready-made block instead, and gives up if even that is
// refused.
type bot struct {
	name, addr, smtpAddr string
	inbox                chan []byte
	progress             io.Writer
	sent                 int
	pilot                ruleset.DemoPilot
	computer             func() map[string]string
}

func (b *bot) play(ctx context.Context) (string, error) {
	var readyBlock, lastSent string
	for {
		var raw []byte
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("%s: the game did not finish in time", b.name)
		case raw = <-b.inbox:
		}
		m, err := inmail.Parse(raw)
		if err != nil {
			return "", err
		}
		switch {
		case strings.Contains(m.Subject, "game over"):
			fmt.Fprintf(b.progress, "  %s: %s\n", b.name, m.Subject)
			return strings.TrimPrefix(m.Subject[strings.Index(m.Subject, "]")+1:], " "), nil
		case strings.Contains(m.Subject, "receipt"):
			if !strings.Contains(m.Text, "NOT STORED") || lastSent == "" {
				continue
			}
			if lastSent == readyBlock {
				// The ready-made block itself was refused: nothing else to send.
				var why []string
				for _, l := range strings.Split(m.Text, "\n") {
					if t := strings.TrimSpace(l); strings.HasPrefix(t, "ERROR") && len(why) < 3 {
						why = append(why, t)
					}
				}
				return "", fmt.Errorf("%s: the service refused the report's ready-made orders: %s", b.name, strings.Join(why, "; "))
			}
			// Fall back to the report's own orders for this turn.
			if err := b.send(m, raw, readyBlock); err != nil {
				return "", err
			}
			lastSent = readyBlock
		case strings.Contains(m.Subject, "welcome") || strings.Contains(m.Subject, "report"):
			block := ExtractBlock(m.Text)
			if block == "" {
				continue
			}
			orders := b.pilot.DemoOrders(m.Text, block)
			if orders != "" && b.computer != nil {
				orders = withOrders(orders, b.computer())
			}
			if orders == "" {
				continue // the pilot has nothing to say this turn (say, every unit flies a plotted course)
			}
			// The block's GAME line names the round as the game counts it (TURN n, or ROUND n).
			if turn := demoRoundRE.FindStringSubmatch(block); turn != nil {
				fmt.Fprintf(b.progress, "  %s reads %q and plots %s %s\n", b.name, m.Subject, strings.ToLower(turn[1]), turn[2])
			}
			readyBlock = block
			if err := b.send(m, raw, orders); err != nil {
				return "", err
			}
			lastSent = orders
		}
	}
}

// withOrders puts the given orders into a block's order lines, unit by unit.
func withOrders(block string, orders map[string]string) string {
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		if unit, _, ok := strings.Cut(l, ": "); ok {
			if o, ok := orders[unit]; ok && o != "" {
				lines[i] = unit + ": " + o
			}
		}
	}
	return strings.Join(lines, "\n")
}

// ExtractBlock is the order block of a mail's text, from its GAME line to its END line, or "".
func ExtractBlock(text string) string {
	i := strings.Index(text, "\nGAME ")
	if i < 0 {
		return ""
	}
	rest := text[i+1:]
	j := strings.Index(rest, "\nEND")
	if j < 0 {
		return ""
	}
	return rest[:j] + "\nEND\n"
}

// send mails a reply to m with the block, the way a mail program would: quoting the report below.
func (b *bot) send(m *inmail.Mail, raw []byte, block string) error {
	to := ReplyAddress(raw, demoAddress) // the report's Reply-To: it says who the player is, no secret needed
	b.sent++
	var msg bytes.Buffer
	fmt.Fprintf(&msg, "From: %s <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s-%d-%d@%s>\r\nIn-Reply-To: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n",
		strings.ToUpper(b.name[:1])+b.name[1:], b.addr, to, m.Subject, b.name, time.Now().UnixNano(), b.sent, playersDomain, m.MessageID, time.Now().Format(time.RFC1123Z))
	fmt.Fprintf(&msg, "Here are my orders.\r\n\r\n%s\r\nCheers,\r\n%s\r\n\r\nOn %s, Sortie <%s> wrote:\r\n", strings.ReplaceAll(block, "\n", "\r\n"), b.name, time.Now().Format("Mon, 2 Jan 2006"), demoAddress)
	for _, l := range strings.Split(m.Text, "\n") {
		fmt.Fprintf(&msg, "> %s\r\n", l)
	}
	return smtp.SendMail(b.smtpAddr, nil, b.addr, []string{to}, msg.Bytes())
}

// ReplyAddress is where a reply goes: the report's Reply-To when it has one (the player's token address).
func ReplyAddress(raw []byte, fallback string) string {
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return fallback
	}
	if list, err := msg.Header.AddressList("Reply-To"); err == nil && len(list) > 0 {
		return list[0].Address
	}
	return fallback
}
