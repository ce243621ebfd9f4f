package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"

	"go.yaml.in/yaml/v3"

	"sortie/cmd/sortie/internal/daemon"
	"sortie/cmd/sortie/internal/demo"
	"sortie/mailer/localmail"
	"sortie/rules/ruleset"
)

const sandboxHelp = `sortie sandbox: try Sortie with your own mail program, on mail servers built into the binary.

It starts an IMAP and an SMTP server on this machine only (loopback), with a mail account for each
player of a bundled scenario and one for its moderator, starts the daemon on them with a new game
waiting for orders, serves the web archive, and prints how to point any mail program at them. Read the
welcome mail as a player, reply with your orders, and the game goes on as it would on a real mailbox.
Everything lives in memory: Ctrl-C stops it, and the game and its mail are gone.

  --imap ADDR      the IMAP server's address (default 127.0.0.1:1143)
  --smtp ADDR      the SMTP server's address (default 127.0.0.1:2525)
  --web ADDR       the web archive's address (default 127.0.0.1:8080; off for none)
  --ruleset NAME   which ruleset's bundled scenario to play (sortie --help lists them; default: the first)
  --scenario NAME  one of that ruleset's bundled scenarios (default: the one it names)

The servers speak no TLS and listen on loopback only: an address on another interface is refused. To
play from another machine, forward the ports over SSH (ssh -L 1143:127.0.0.1:1143 ... HOST).
`

// sandboxDomain is reserved for examples (RFC 2606): no mail leaves the process.
const sandboxDomain = "sortie.test"

// sandboxAccount is one mail account of the sandbox.
type sandboxAccount struct {
	Address, Password, Role string
}

func cmdSandbox(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	imapAddr := fl.String("imap", "127.0.0.1:1143", "")
	smtpAddr := fl.String("smtp", "127.0.0.1:2525", "")
	webAddr := fl.String("web", daemon.DefaultWebListen, "")
	rules := fl.String("ruleset", "", "")
	scenario := fl.String("scenario", "", "")
	help := fl.Bool("help", false, "")
	if err := fl.Parse(args); err != nil {
		return usagef("sandbox: %v\n\n%s", err, sandboxHelp)
	}
	if *help {
		fmt.Fprint(stdout, sandboxHelp)
		return nil
	}
	if fl.NArg() > 0 {
		return usagef("sandbox: unexpected %q\n\n%s", fl.Arg(0), sandboxHelp)
	}
	for _, a := range []struct{ flag, v string }{{"--imap", *imapAddr}, {"--smtp", *smtpAddr}, {"--web", *webAddr}} {
		if a.flag == "--web" && a.v == "off" {
			continue
		}
		if err := loopbackAddr(a.v); err != nil {
			return usagef("sandbox: %s: %v", a.flag, err)
		}
	}
	rs, err := rulesetNamed(*rules)
	if err != nil {
		return err
	}
	b, ok := rs.(ruleset.Bundled)
	if !ok {
		return usagef("sandbox: the %s ruleset has no bundled scenario", rs.Name())
	}
	if *scenario == "" {
		*scenario = b.DefaultScenario()
	}
	scn, err := fs.ReadFile(b.Scenarios(), *scenario+".yaml")
	if err != nil {
		return usagef("sandbox: no bundled %s scenario %q", rs.Name(), *scenario)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runSandbox(ctx, sandboxOptions{IMAP: *imapAddr, SMTP: *smtpAddr, Web: *webAddr, Scenario: scn, ScenarioName: *scenario}, stdout)
}

// loopbackAddr accepts host:port on a loopback address only: the sandbox's accounts have printed
// passwords and its servers no TLS.
func loopbackAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("a host and port such as 127.0.0.1:1143, not %q", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address: the sandbox listens on this machine only (127.0.0.1 or ::1)", host)
	}
	return nil
}

type sandboxOptions struct {
	IMAP, SMTP, Web string
	Scenario        []byte
	ScenarioName    string
}

// sandboxPassword is a new random password: eight letters and digits, easy to type into a mail program.
func sandboxPassword() string {
	const chars = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 8)
	rand.Read(b)
	for i := range b {
		b[i] = chars[int(b[i])%len(chars)]
	}
	return string(b)
}

// sandboxPlayers are a scenario's players as its file lists them.
func sandboxPlayers(scn []byte) ([]struct{ ID, Name, Side string }, error) {
	var s struct {
		Players []struct{ ID, Name, Side string } `yaml:"players"`
	}
	if err := yaml.Unmarshal(scn, &s); err != nil {
		return nil, err
	}
	if len(s.Players) == 0 {
		return nil, errors.New("the scenario names no players")
	}
	return s.Players, nil
}

func runSandbox(ctx context.Context, o sandboxOptions, stdout io.Writer) error {
	players, err := sandboxPlayers(o.Scenario)
	if err != nil {
		return err
	}
	service := "sortie@" + sandboxDomain
	accounts := []sandboxAccount{}
	users := map[string]string{service: sandboxPassword()}
	var svc strings.Builder
	svc.WriteString("\nservice:\n  moderator: moderator@" + sandboxDomain + "\n  players:\n")
	for _, p := range players {
		addr := p.ID + "@" + sandboxDomain
		a := sandboxAccount{Address: addr, Password: sandboxPassword(), Role: "player " + p.Name + ", playing " + p.Side}
		accounts = append(accounts, a)
		users[addr] = a.Password
		fmt.Fprintf(&svc, "    %s: {email: %s}\n", p.ID, addr)
	}
	mod := sandboxAccount{Address: "moderator@" + sandboxDomain, Password: sandboxPassword(), Role: "the game's moderator"}
	accounts = append(accounts, mod)
	users[mod.Address] = mod.Password
	scn := append(append([]byte(nil), o.Scenario...), svc.String()...)

	im, err := localmail.StartIMAP(localmail.IMAPOptions{Addr: o.IMAP, Users: users})
	if err != nil {
		return fmt.Errorf("%w (another program may use that port: choose another with --imap)", err)
	}
	defer im.Close()
	// Mail to the service or to its plus-addresses goes to its inbox, mail to an account to that
	// account's inbox; mail to any other address is accepted and dropped, as nobody could read it.
	route := func(rcpt string) (string, bool) {
		local, domain, _ := strings.Cut(strings.ToLower(rcpt), "@")
		if domain != sandboxDomain {
			return "", false
		}
		if local == "sortie" || strings.HasPrefix(local, "sortie+") {
			return service, true
		}
		_, ok := users[local+"@"+domain]
		return local + "@" + domain, ok
	}
	sm, err := localmail.StartSMTP(localmail.SMTPOptions{Addr: o.SMTP, Domain: sandboxDomain, OnMessage: im.DeliverTo(route)})
	if err != nil {
		return fmt.Errorf("%w (another program may use that port: choose another with --smtp)", err)
	}
	defer sm.Close()

	tmp, err := os.MkdirTemp("", "sortie-sandbox")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cfg := &daemon.Config{Database: filepath.Join(tmp, "sortie.db"), Address: service, Name: "Sortie sandbox", ResolveDelay: "0s", LogLevel: "warn", LogFormat: "console"}
	cfg.IMAP.Addr, cfg.IMAP.TLS, cfg.IMAP.Username, cfg.IMAP.Password, cfg.IMAP.Poll = im.Addr(), "none", service, users[service], "5s"
	host, port := demo.SplitHostPort(sm.Addr())
	cfg.SMTP.Host, cfg.SMTP.Port, cfg.SMTP.TLS = host, port, "none"
	if o.Web != "off" {
		// The players' links need the port before the daemon listens: a free one is found first for :0.
		web := o.Web
		if strings.HasSuffix(web, ":0") {
			ln, err := net.Listen("tcp", web)
			if err != nil {
				return fmt.Errorf("web archive: %w", err)
			}
			web = ln.Addr().String()
			ln.Close()
		}
		cfg.Web.Listen, cfg.Web.BaseURL = web, "http://"+web+"/"
	}
	d, err := daemon.NewDaemon(cfg)
	if err != nil {
		if o.Web != "off" && strings.Contains(err.Error(), "web archive") {
			err = fmt.Errorf("%w (choose another address with --web, or --web off)", err)
		}
		return err
	}
	defer d.Close()
	d.Log = cfg.LoggerTo(os.Stderr)

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	g, err := d.Svc.NewGame(scn, o.ScenarioName+".yaml", "sandbox")
	if err != nil {
		cancel()
		<-done
		return err
	}
	imapHost, imapPort := demo.SplitHostPort(im.Addr())
	webForward := ""
	if cfg.Web.Listen != "" {
		h, p := demo.SplitHostPort(cfg.Web.Listen)
		webForward = fmt.Sprintf(" -L %d:%s:%d", p, h, p)
	}
	fmt.Fprintf(stdout, "Sortie sandbox: game %s (%s) is waiting for orders.\n\n", g.ID, g.Name)
	fmt.Fprintf(stdout, "Mail servers, on this machine only, without TLS (connection security: none):\n")
	fmt.Fprintf(stdout, "  incoming mail, IMAP: server %s, port %d, user name and password below\n", imapHost, imapPort)
	fmt.Fprintf(stdout, "  outgoing mail, SMTP: server %s, port %d, no authentication\n\n", host, port)
	fmt.Fprintln(stdout, "Accounts (the user name is the mail address):")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, a := range accounts {
		fmt.Fprintf(tw, "  %s\tpassword %s\t%s\n", a.Address, a.Password, a.Role)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nThe game's address is %s; reply to its mails and your reply finds its way.\n", service)
	if cfg.Web.BaseURL != "" {
		fmt.Fprintf(stdout, "Web archive: %s (each player's welcome mail has their own link)\n", cfg.Web.BaseURL)
	}
	fmt.Fprintf(stdout, `
Thunderbird: add a mail account with a player's address and password, choose to configure it manually:
  incoming IMAP, server %[1]s, port %[2]d, connection security None, authentication Normal password;
  outgoing SMTP, server %[3]s, port %[4]d, connection security None, authentication No authentication.
mutt:  mutt -e 'set from=%[5]s smtp_url=smtp://%[3]s:%[4]d/ folder=imap://%[6]s@%[1]s:%[2]d/' -f =INBOX
Another machine (a phone, say): forward the ports first, ssh -L %[2]d:%[1]s:%[2]d -L %[4]d:%[3]s:%[4]d%[7]s THIS-HOST,
  and set it up as for Thunderbird with server 127.0.0.1 on that machine.

Stop it with Ctrl-C: the game and its mail live in memory only and are gone then.
`, imapHost, imapPort, host, port, accounts[0].Address, strings.ReplaceAll(accounts[0].Address, "@", "%40"), webForward)

	select {
	case <-ctx.Done():
	case err := <-done:
		return err
	}
	cancel()
	err = <-done
	fmt.Fprintln(stdout, "Sortie sandbox stopped.")
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
