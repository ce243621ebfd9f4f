package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"

	"sortie/cmd/sortie/internal/daemon"
)

const initHelp = `sortie init [--config FILE] [--force]: write the daemon's configuration, then check the mail account.

Asks a few questions on the terminal (press Enter to take the answer in brackets): where the mailbox is
(a hosted mailbox, or your own Dovecot and Postfix on this host: docs/operations.md, "Mail account"),
the service's address, the servers, and how Sortie gets the mail password (from an environment variable,
or from a file only the service's user may read). It writes a configuration with every setting
explained, runs sortie check on it, and says how to start the daemon. For scripts, give the answers as
flags; --mailbox makes it ask nothing:

  --config FILE          where to write (default sortie.yaml, or /etc/sortie/sortie.yaml as root where
                         the Debian package is installed); an existing file is left alone
  --force                replace an existing file
  --mailbox KIND         hosted or own-server
  --address ADDR         the service's address, which players write to, e.g. sortie@example.org
  --imap-host HOST       IMAP server (hosted: required; own-server: 127.0.0.1)
  --imap-port N          IMAP port (default 993: TLS; 143: STARTTLS)
  --smtp-host HOST       SMTP server (hosted: required; own-server: 127.0.0.1)
  --smtp-port N          SMTP submission port (default 587: STARTTLS; 465: TLS)
  --username NAME        login for IMAP and SMTP (default: the address)
  --password-env NAME    read the password from this environment variable, or
  --password-file FILE   from this file, which only its owner may read (chmod 600)
  --ca-file FILE         the CA that signed the servers' certificate, for a self-signed one
  --database PATH        the database file (default /var/lib/sortie/sortie.db)
  --no-check             write the file only; run sortie check --config FILE later
  --wait D               how long sortie check waits for its probe mail (default 60s)

Where the Debian package is installed (/etc/sortie and the sortie user exist), sudo sortie init writes
the configuration the systemd unit reads, /etc/sortie/sortie.yaml, readable by the service's user and
not by others; it suggests the password file /etc/sortie/mail-password, and when that file is not there
yet it asks for the password (not shown) and writes it, readable by the service's user only. Then:
sudo systemctl enable --now sortie.

Exit status: 0 written and checked, 1 the check failed (the file is written), 2 usage error.
`

// service is the layout of the Debian package's systemd unit (packaging/sortie.service): the folder it
// reads its configuration from (ConfigurationDirectory), the only folder it may write (StateDirectory),
// and the system user it runs as. sortie init run as root writes the configuration there, for that
// user; TestServiceUnitAgreesWithInit holds the unit and these paths together.
type service struct {
	ConfigDir string // /etc/sortie
	StateDir  string // /var/lib/sortie
	User      string // sortie
	uid, gid  int
}

// The packaged service's layout.
const (
	serviceConfigDir = "/etc/sortie"
	serviceStateDir  = "/var/lib/sortie"
	serviceUser      = "sortie"
)

func (s *service) config() string       { return filepath.Join(s.ConfigDir, "sortie.yaml") }
func (s *service) passwordFile() string { return filepath.Join(s.ConfigDir, "mail-password") }
func (s *service) envFile() string      { return filepath.Join(s.ConfigDir, "env") }
func (s *service) database() string     { return filepath.Join(s.StateDir, "sortie.db") }

// findService returns the layout at dir and state for user when sortie init runs as root and the folder
// and the user exist (the Debian package made them), else nil.
func findService(dir, state, userName string) *service {
	if os.Geteuid() != 0 {
		return nil
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	u, err := user.Lookup(userName)
	if err != nil {
		return nil
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil
	}
	return &service{ConfigDir: dir, StateDir: state, User: userName, uid: uid, gid: gid}
}

// within reports whether path lies inside dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// initAnswers are what sortie init needs to write a configuration.
type initAnswers struct {
	Mailbox      string // hosted or own-server
	Address      string
	IMAPHost     string
	IMAPPort     int
	IMAPTLS      string
	SMTPHost     string
	SMTPPort     int
	SMTPTLS      string
	Username     string
	PasswordEnv  string
	PasswordFile string
	CAFile       string
	Database     string
	// NewPassword is the password typed for a password file sortie init writes (the service's, not
	// there yet).
	NewPassword string
	// BackupDir is the backup folder the configuration suggests: one the service may write to.
	BackupDir string
}

// defaultPasswordEnv is the variable sortie init suggests for the app password (one for IMAP and SMTP).
const defaultPasswordEnv = "SORTIE_MAIL_PASSWORD"

// tlsForPort is the TLS a standard port speaks: TLS from the first byte on 993 and 465, STARTTLS on the
// others (143, 587, 25).
func tlsForPort(port int) string {
	if port == 993 || port == 465 {
		return "tls"
	}
	return "starttls"
}

// problems lists what is missing or wrong in the answers; for the service (svc not nil), also what it
// could not read or write.
func (a *initAnswers) problems(svc *service) []string {
	var out []string
	switch a.Mailbox {
	case "hosted", "own-server":
	default:
		out = append(out, fmt.Sprintf("--mailbox: hosted or own-server, not %q", a.Mailbox))
	}
	if local, domain, ok := strings.Cut(a.Address, "@"); !ok || local == "" || !strings.Contains(domain, ".") || strings.ContainsAny(a.Address, " \t<>\"") {
		out = append(out, fmt.Sprintf("--address: the service's mail address, such as sortie@example.org, not %q", a.Address))
	}
	for _, h := range []struct{ flag, v string }{{"--imap-host", a.IMAPHost}, {"--smtp-host", a.SMTPHost}} {
		if h.v == "" || strings.ContainsAny(h.v, " \t:/") {
			out = append(out, fmt.Sprintf("%s: a server's name, such as imap.example.org, not %q", h.flag, h.v))
		}
	}
	for _, p := range []struct {
		flag string
		v    int
	}{{"--imap-port", a.IMAPPort}, {"--smtp-port", a.SMTPPort}} {
		if p.v <= 0 || p.v > 65535 {
			out = append(out, fmt.Sprintf("%s: a port number, not %d", p.flag, p.v))
		}
	}
	switch {
	case a.PasswordEnv == "" && a.PasswordFile == "":
		out = append(out, "--password-env NAME or --password-file FILE: how Sortie gets the mail password")
	case a.PasswordEnv != "" && a.PasswordFile != "":
		out = append(out, "--password-env and --password-file: one or the other")
	case a.PasswordEnv != "" && !envName(a.PasswordEnv):
		out = append(out, fmt.Sprintf("--password-env: a variable name such as %s, not %q", defaultPasswordEnv, a.PasswordEnv))
	case a.PasswordFile != "" && a.NewPassword == "":
		if err := checkPasswordFile(a.PasswordFile, svc); err != nil {
			out = append(out, "--password-file: "+err.Error())
		}
	}
	if a.Database == "" {
		out = append(out, "--database: the database file's path")
	} else if svc != nil && !within(a.Database, svc.StateDir) {
		out = append(out, fmt.Sprintf("--database: the service may write only in %s, not %s", svc.StateDir, a.Database))
	}
	if a.CAFile != "" {
		if _, err := os.Stat(a.CAFile); err != nil {
			out = append(out, "--ca-file: "+err.Error())
		}
	}
	return out
}

// checkPasswordFile is what the daemon checks of a password file (its owner alone may read it) and, for
// the service, that its owner is the service's user, who must read it.
func checkPasswordFile(path string, svc *service) error {
	if _, err := daemon.ReadSecretFile(path); err != nil {
		return err
	}
	if svc == nil {
		return nil
	}
	if !within(path, svc.ConfigDir) {
		return fmt.Errorf("the service keeps its files in %s (home folders are hidden from it): put the password in %s", svc.ConfigDir, svc.passwordFile())
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if uid, ok := fileOwner(fi); ok && uid != svc.uid {
		return fmt.Errorf("%s belongs to another user, and the service runs as %s: run chown %s: %s", path, svc.User, svc.User, path)
	}
	return nil
}

func envName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// fill gives the answers left empty their defaults: the recipe's servers, the standard ports' TLS, the
// address as login, the database where the service keeps it (svc, when not nil, is the service's
// layout) and a backup folder the daemon may write.
func (a *initAnswers) fill(svc *service) {
	if a.Mailbox == "own-server" {
		a.IMAPHost, a.SMTPHost = orDefault(a.IMAPHost, "127.0.0.1"), orDefault(a.SMTPHost, "127.0.0.1")
	}
	if a.IMAPPort == 0 {
		a.IMAPPort = 993
	}
	if a.SMTPPort == 0 {
		a.SMTPPort = 587
	}
	a.IMAPTLS, a.SMTPTLS = tlsForPort(a.IMAPPort), tlsForPort(a.SMTPPort)
	a.Username = orDefault(a.Username, a.Address)
	database, backups := serviceStateDir+"/sortie.db", "/var/backups/sortie"
	if svc != nil {
		database, backups = svc.database(), filepath.Join(svc.StateDir, "backups") // the service may write nowhere else
	}
	a.Database, a.BackupDir = orDefault(a.Database, database), backups
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func cmdInit(args []string, stdin io.Reader, stdout io.Writer) error {
	return initCommand(args, stdin, stdout, findService(serviceConfigDir, serviceStateDir, serviceUser))
}

// initCommand is sortie init; svc, when not nil, is the installed service's layout, which a
// configuration written in its folder is for.
func initCommand(args []string, stdin io.Reader, stdout io.Writer, svc *service) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var a initAnswers
	defaultConfig := "sortie.yaml"
	if svc != nil {
		defaultConfig = svc.config()
	}
	configPath := fs.String("config", defaultConfig, "")
	force := fs.Bool("force", false, "")
	noCheck := fs.Bool("no-check", false, "")
	wait := fs.String("wait", "60s", "")
	help := fs.Bool("help", false, "")
	fs.StringVar(&a.Mailbox, "mailbox", "", "")
	fs.StringVar(&a.Address, "address", "", "")
	fs.StringVar(&a.IMAPHost, "imap-host", "", "")
	fs.IntVar(&a.IMAPPort, "imap-port", 0, "")
	fs.StringVar(&a.SMTPHost, "smtp-host", "", "")
	fs.IntVar(&a.SMTPPort, "smtp-port", 0, "")
	fs.StringVar(&a.Username, "username", "", "")
	fs.StringVar(&a.PasswordEnv, "password-env", "", "")
	fs.StringVar(&a.PasswordFile, "password-file", "", "")
	fs.StringVar(&a.CAFile, "ca-file", "", "")
	fs.StringVar(&a.Database, "database", "", "")
	if err := fs.Parse(args); err != nil {
		return usagef("init: %v\n\n%s", err, initHelp)
	}
	switch {
	case *help:
		fmt.Fprint(stdout, initHelp)
		return nil
	case fs.NArg() > 0:
		return usagef("init: unexpected %s\n\n%s", strings.Join(fs.Args(), " "), initHelp)
	case *configPath == "":
		return usagef("init: --config names the file to write")
	}
	if _, err := os.Lstat(*configPath); err == nil && !*force {
		return usagef("init: %s already exists; sortie init leaves it alone (--force replaces it, or choose another --config)", *configPath)
	}
	abs, err := filepath.Abs(*configPath)
	if err != nil {
		abs = *configPath
	}
	if svc != nil && abs != svc.config() {
		svc = nil // a configuration elsewhere is not the service's
	}
	if a.Mailbox == "" {
		var tty *os.File // the answers' terminal, if they come from one
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				tty = f
			}
		}
		if err := ask(&a, bufio.NewReader(stdin), tty, stdout, svc); err != nil {
			return err
		}
	}
	a.fill(svc)
	if p := a.problems(svc); len(p) > 0 {
		return usagef("init: %s\n\n%s", strings.Join(p, "\n  "), "sortie init --help lists the flags")
	}
	text, err := a.config()
	if err != nil {
		return err
	}
	if a.NewPassword != "" {
		if err := writePassword(a.PasswordFile, a.NewPassword, svc); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (only %s may read it)\n", a.PasswordFile, svc.User)
	}
	if err := writeNew(*configPath, text, *force, svc); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", abs)
	next := func() {
		if svc != nil {
			fmt.Fprintf(stdout, "\nNext: sudo systemctl enable --now sortie (it runs sortie serve --config %s as %s); journalctl -u sortie shows its log\n", abs, svc.User)
			return
		}
		fmt.Fprintf(stdout, "\nNext: sortie serve --config %s\n", abs)
		fmt.Fprintln(stdout, "As a service under systemd: ExecStart=sortie serve --config "+abs+" in a unit (docs/operations.md, \"Running it as a service\"), then systemctl enable --now sortie")
	}
	if *noCheck {
		fmt.Fprintf(stdout, "Before the first start, try the mail account: sortie check --config %s\n", abs)
		next()
		return nil
	}
	if a.PasswordEnv != "" {
		if _, ok := os.LookupEnv(a.PasswordEnv); !ok {
			fmt.Fprintf(stdout, "The mail account is not checked yet: %s is not set here. Set it to the mail password and run\n  sortie check --config %s\n", a.PasswordEnv, abs)
			if svc != nil {
				fmt.Fprintf(stdout, "The service reads it from %s: a line %s=... in that file, chmod 600.\n", svc.envFile(), a.PasswordEnv)
			} else {
				fmt.Fprintf(stdout, "The daemon needs it set too (systemd: Environment=%s=... or EnvironmentFile=).\n", a.PasswordEnv)
			}
			return errIllegal
		}
	}
	fmt.Fprintf(stdout, "\nsortie check --config %s\n", abs)
	if err := cmdCheck([]string{"--config", abs, "--wait", *wait}, stdout); err != nil {
		return err
	}
	next()
	return nil
}

// writeNew writes text to path with mode 0644 (it says where the password is, and holds none), or for
// the service 0640 in the service user's group, so that the daemon may read it and other users may not:
// only if no file is there, unless force, and then through a new file renamed over the old one.
func writeNew(path, text string, force bool, svc *service) error {
	if svc != nil {
		return writeFor(path, text, force, 0o640, -1, svc.gid)
	}
	if !force {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			return usagef("init: %s already exists; sortie init leaves it alone (--force replaces it)", path)
		}
		if err != nil {
			return err
		}
		if _, err := f.WriteString(text); err != nil {
			f.Close()
			os.Remove(path)
			return err
		}
		return f.Close()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sortie-init-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writePassword writes the service's password file: readable by the service's user only (mode 0600,
// its owner), as the daemon requires (daemon.ReadSecretFile).
func writePassword(path, password string, svc *service) error {
	return writeFor(path, password+"\n", false, 0o600, svc.uid, svc.gid)
}

// writeFor writes text to path with mode and owner (uid, gid; -1 keeps the writer's) set before the
// text goes in, through a new file renamed into place: never over an existing file unless force.
func writeFor(path, text string, force bool, mode os.FileMode, uid, gid int) error {
	if _, err := os.Lstat(path); err == nil && !force {
		return usagef("init: %s already exists; sortie init leaves it alone (--force replaces it)", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sortie-init-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(mode)
	if err == nil {
		err = tmp.Chown(uid, gid)
	}
	if err == nil {
		_, err = tmp.WriteString(text)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if force {
		return os.Rename(tmp.Name(), path)
	}
	// A link fails where a file appeared meanwhile; rename would replace it.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return usagef("init: %s already exists; sortie init leaves it alone (--force replaces it)", path)
		}
		return err
	}
	return nil
}

// ask fills the answers from questions on the terminal, one line each; an empty line takes the default
// in brackets. A wrong answer is explained and asked again. For the service (svc not nil) the password
// file is the default, and a password file not there yet in the service's folder is written from a
// password typed here.
func ask(a *initAnswers, in *bufio.Reader, tty *os.File, out io.Writer, svc *service) error {
	q := func(prompt, def string, check func(string) error) (string, error) {
		for {
			if def != "" {
				fmt.Fprintf(out, "%s [%s]: ", prompt, def)
			} else {
				fmt.Fprintf(out, "%s: ", prompt)
			}
			line, err := in.ReadString('\n')
			if err != nil && (err != io.EOF || line == "") {
				fmt.Fprintln(out)
				return "", usagef("init: the answers ended before %q (for scripts, give them as flags: sortie init --help)", prompt)
			}
			v := strings.TrimSpace(line)
			if v == "" {
				v = def
			}
			if check != nil {
				if err := check(v); err != nil {
					fmt.Fprintf(out, "  %v\n", err)
					continue
				}
			}
			return v, nil
		}
	}
	fmt.Fprintln(out, "Sortie's configuration: a few questions (Enter takes the answer in brackets).")
	choice := func(vs ...string) func(string) error {
		return func(v string) error {
			for _, c := range vs {
				if v == c {
					return nil
				}
			}
			return fmt.Errorf("answer %s", strings.Join(vs, " or "))
		}
	}
	fmt.Fprintln(out, "Where is the mailbox Sortie plays from?\n  1. a hosted mailbox, at a mail provider\n  2. my own Dovecot and Postfix on this host (docs/operations.md)")
	kind, err := q("1 or 2", "1", choice("1", "2"))
	if err != nil {
		return err
	}
	a.Mailbox = map[string]string{"1": "hosted", "2": "own-server"}[kind]
	if a.Address, err = q("The service's mail address, which players write to (e.g. sortie@example.org)", "", func(v string) error {
		if local, domain, ok := strings.Cut(v, "@"); !ok || local == "" || !strings.Contains(domain, ".") || strings.ContainsAny(v, " <>\"") {
			return errors.New("a mail address such as sortie@example.org")
		}
		return nil
	}); err != nil {
		return err
	}
	_, domain, _ := strings.Cut(a.Address, "@")
	host := func(v string) error {
		if v == "" || strings.ContainsAny(v, " :/") {
			return errors.New("a server's name, such as imap." + domain)
		}
		return nil
	}
	port := func(v string) error {
		if n, err := strconv.Atoi(v); err != nil || n <= 0 || n > 65535 {
			return errors.New("a port number")
		}
		return nil
	}
	ports := func(h, hostDef, p, portDef string) (string, int, error) {
		hv := hostDef
		if a.Mailbox == "hosted" {
			if hv, err = q(h, hostDef, host); err != nil {
				return "", 0, err
			}
		}
		pv, err := q(p, portDef, port)
		if err != nil {
			return "", 0, err
		}
		n, _ := strconv.Atoi(pv)
		return hv, n, nil
	}
	imapHost, smtpHost := "imap."+domain, "smtp."+domain
	if a.Mailbox == "own-server" {
		imapHost, smtpHost = "127.0.0.1", "127.0.0.1"
	}
	if a.IMAPHost, a.IMAPPort, err = ports("IMAP server", imapHost, "IMAP port (993: TLS, 143: STARTTLS)", "993"); err != nil {
		return err
	}
	if a.SMTPHost, a.SMTPPort, err = ports("SMTP server", smtpHost, "SMTP port (587: STARTTLS, 465: TLS)", "587"); err != nil {
		return err
	}
	if a.Username, err = q("Login for IMAP and SMTP", a.Address, nil); err != nil {
		return err
	}
	fmt.Fprintln(out, "How does Sortie get the mail password (an app password, for most providers)?\n  1. from an environment variable\n  2. from a file only the service's user may read")
	howDefault, fileDefault := "1", "/etc/sortie/mail-password"
	if svc != nil {
		howDefault, fileDefault = "2", svc.passwordFile()
	}
	how, err := q("1 or 2", howDefault, choice("1", "2"))
	if err != nil {
		return err
	}
	if how == "1" {
		if a.PasswordEnv, err = q("Variable name", defaultPasswordEnv, func(v string) error {
			if !envName(v) {
				return errors.New("letters, digits and _, such as " + defaultPasswordEnv)
			}
			return nil
		}); err != nil {
			return err
		}
	} else {
		if a.PasswordFile, err = q("Password file", fileDefault, func(v string) error {
			if _, err := os.Lstat(v); errors.Is(err, os.ErrNotExist) && svc != nil && within(v, svc.ConfigDir) {
				return nil // written below
			}
			return checkPasswordFile(v, svc)
		}); err != nil {
			return err
		}
		if _, err := os.Lstat(a.PasswordFile); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(out, "%s is not there yet: sortie init writes it, readable by %s only.\n", a.PasswordFile, svc.User)
			for a.NewPassword == "" {
				if a.NewPassword, err = askSecret(in, tty, out, "The mail password (not shown)"); err != nil {
					return err
				}
			}
		}
	}
	if a.Mailbox == "own-server" {
		if a.CAFile, err = q("The CA file of the servers' certificate (Enter: a CA this machine trusts)", "", func(v string) error {
			if v == "" {
				return nil
			}
			_, err := os.Stat(v)
			return err
		}); err != nil {
			return err
		}
	}
	dbDefault := serviceStateDir + "/sortie.db"
	if svc != nil {
		dbDefault = svc.database()
	}
	if a.Database, err = q("Database file", dbDefault, func(v string) error {
		if svc != nil && !within(v, svc.StateDir) {
			return fmt.Errorf("the service may write only in %s", svc.StateDir)
		}
		return nil
	}); err != nil {
		return err
	}
	return nil
}

// askSecret asks for a line without showing it when the answers come from a terminal, tty (stty -echo
// while it is typed).
func askSecret(in *bufio.Reader, tty *os.File, out io.Writer, prompt string) (string, error) {
	fmt.Fprintf(out, "%s: ", prompt)
	if tty != nil {
		stty := func(arg string) {
			cmd := exec.Command("stty", arg)
			cmd.Stdin = tty
			cmd.Run()
		}
		stty("-echo")
		defer stty("echo")
	}
	line, err := in.ReadString('\n')
	fmt.Fprintln(out)
	if err != nil && (err != io.EOF || line == "") {
		return "", usagef("init: the answers ended before %q (for scripts, write the password file first and give --password-file)", prompt)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// config is the configuration file for the answers: the example configuration's settings
// (docs/sortie.example.yaml), each explained, with the answers filled in.
func (a *initAnswers) config() (string, error) {
	var b strings.Builder
	data := struct {
		*initAnswers
		IMAPAddr, Password, Kind string
	}{initAnswers: a, IMAPAddr: net.JoinHostPort(a.IMAPHost, strconv.Itoa(a.IMAPPort))}
	if a.PasswordEnv != "" {
		data.Password = "password_env: " + yamlString(a.PasswordEnv) + "    # the password is read from this environment variable\n" +
			"  # password_file: /etc/sortie/mail-password  # or from a file only sortie's user may read (chmod 600)"
	} else {
		data.Password = "password_file: " + yamlString(a.PasswordFile) + "    # the password is read from this file (chmod 600)\n" +
			"  # password_env: " + defaultPasswordEnv + "      # or from an environment variable"
	}
	data.Kind = map[string]string{"hosted": "a hosted mailbox", "own-server": "Dovecot and Postfix on this host"}[a.Mailbox]
	err := configTemplate.Execute(&b, data)
	return b.String(), err
}

// yamlString quotes a value for YAML when it needs it.
func yamlString(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@._-/+", r))
	}) < 0 {
		return s
	}
	return strconv.Quote(s)
}

var configTemplate = template.Must(template.New("config").Funcs(template.FuncMap{"q": yamlString}).Parse(`# Sortie daemon configuration, written by sortie init for {{.Kind}} (docs/operations.md).
# Try the mail account:  sortie check --config THIS-FILE
# Run the daemon:        sortie serve --config THIS-FILE
# Every setting is explained in docs/sortie.example.yaml; the commented ones show their defaults.
database: {{q .Database}}        # one bbolt file; back it up (it holds every game and secret)
address: {{q .Address}}          # the inbox players write to; reply tokens are sortie+TOKEN@ that domain
name: Sortie                             # display name on outgoing mail
turn_hours: 48                           # default time for a turn (a scenario may set its own)
resolve_delay: 10m                       # after the last order arrives, wait this long before resolving
max_mail_kib: 256                        # larger order mails get a polite refusal
max_mails_per_hour: 60                   # per player, and apart per unidentified address
max_stranger_replies_per_hour: 100       # answers to senders Sortie cannot identify, all together
# templates: /etc/sortie/templates       # optional folder of NAME.tmpl files overriding the built-in mails
log_level: info                          # debug, info, warn, error
log_format: json                         # json, or console for people
plus_addressing: true                    # false if the mailbox cannot deliver sortie+anything@: players then write SECRET
digest_hour: 6                           # the moderators' daily digest, hour in UTC; -1: none
reminders: [24h, 2h]                     # before each deadline, to players still missing orders; [] for none

control:
  group: ""                              # this group may also use the control socket (sortie game ...)

backup:
  # dir: {{.BackupDir}}             # a consistent copy of the database, taken while it runs
  every: 24h
  keep: 7                                # the newest copies kept

imap:
  addr: {{q .IMAPAddr}}
  tls: {{.IMAPTLS}}                      # tls (implicit, port 993), starttls, or none (loopback only)
{{- if .CAFile}}
  ca_file: {{q .CAFile}}                 # the CA that signed the server's certificate
{{- else}}
  # ca_file: /etc/sortie/ca.pem          # for a server with a self-signed certificate
{{- end}}
  username: {{q .Username}}
  {{.Password}}
  mailbox: INBOX
  processed: Processed                   # handled mail is moved here (created if missing)
  rejected: Rejected                     # refused mail is moved here
  # failed: Sortie/Failed                # mail that could not be handled
  poll: 30s                              # safety-net poll; IDLE wakes the daemon at once
  hot_for: 10m                           # once a round waits for one player, poll instead of IDLE this long
  hot_poll: 10ms                         # how often to poll then
  # password: "app-password-here"        # (not used: the password is given above)

smtp:
  host: {{q .SMTPHost}}
  port: {{.SMTPPort}}
  tls: {{.SMTPTLS}}                      # starttls, tls (port 465) or none
{{- if .CAFile}}
  ca_file: {{q .CAFile}}
{{- else}}
  # ca_file: /etc/sortie/ca.pem          # for a server with a self-signed certificate
{{- end}}
  username: {{q .Username}}
  {{.Password}}
  keep_open: 2m                          # keep the connection open after the last mail (0: close after every batch)
  # password: "app-password-here"        # (not used: the password is given above)

dkim:                                    # sign every mail, for a mail server of your own (docs/operations.md, "DKIM, SPF and DMARC")
  # domain: example.org                  # the From address's domain; unset, mail goes out unsigned (a hosted mailbox signs it)
  # selector: sortie2026                 # the key is published at sortie2026._domainkey.example.org; sortie check prints the record
  # key_file: /etc/sortie/dkim.pem       # PEM private key (RSA 2048), readable by sortie's user only (chmod 600)

# authserv_id: mail.example.org          # believe this receiving server's Authentication-Results (docs/operations.md, "Sender authentication")

web:                                     # the read-only web archive (docs/web.md)
  # listen: 127.0.0.1:8080               # the daemon serves it here; unset, it serves none
  # base_url: https://games.example.org/sortie/   # where players reach it: their links start with it
  # public: [kent-1]                     # running games shown in full to everyone
`))
