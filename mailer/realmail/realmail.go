// Package realmail starts real mail servers for tests: Dovecot 2.3 (IMAP with STARTTLS, IMAPS, LMTP
// and the SASL service) and Postfix (an SMTP port like an MX, and a submission port that requires
// STARTTLS and AUTH), on loopback ports, with every configuration file, certificate, queue and
// mailbox in one folder the caller owns (usually t.TempDir()).
//
// Mail for the users' domains goes Postfix → LMTP → Dovecot, exactly as on a small production
// host, so a test can submit a message the way a mail program does (Servers.Submit) and read what
// arrived the way a mail program does (Servers.Fetch), and the code under test talks to the same
// servers with its own IMAP and SMTP clients.
//
// The servers come from Debian's packages (.ci/install-mailservers installs them) and must be
// started as root: Postfix and Dovecot start as root and drop privileges themselves. Available
// says whether this machine can run them.
//
// Nothing of the system's own mail setup is touched: Postfix runs with its own configuration
// directory (postfix -c), queue and data directories, Dovecot with its own dovecot.conf, base_dir
// and state_dir, so several instances (one per test package) run side by side. The daemons are
// stopped by PID (Servers.Stop). Instances left behind by a test binary that died are stopped by the
// next Start.
package realmail

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"sortie/mailer/localmail"
)

// programs are the paths of the programs a run needs.
type programs struct {
	dovecot, postfix string
	// helpers are programs the daemons spawn; checked so that a half-installed system is reported up
	// front.
	helpers []string
}

// debianPrograms are where the Debian packages put them.
func debianPrograms() programs {
	return programs{
		dovecot: "/usr/sbin/dovecot",
		postfix: "/usr/sbin/postfix",
		helpers: []string{
			"/usr/lib/dovecot/imap", "/usr/lib/dovecot/imap-login", "/usr/lib/dovecot/lmtp", "/usr/lib/dovecot/auth",
			"/usr/lib/postfix/sbin/master", "/usr/lib/postfix/sbin/smtpd", "/usr/lib/postfix/sbin/lmtp",
		},
	}
}

// Accounts the daemons drop privileges to. vmail owns the mailboxes (Dovecot refuses mail files owned
// by a uid below first_valid_uid, and system users are below it).
var (
	neededUsers  = []string{"vmail", "postfix", "dovecot", "dovenull"}
	neededGroups = []string{"postdrop"}
)

// listenIP is where the servers listen. Not 127.0.0.1: Dovecot counts a connection whose remote
// address equals its local address as secure, and then allows LOGIN in clear text even with
// ssl = required. A client connecting to 127.0.0.2 comes from 127.0.0.1 (Linux routes all of
// 127.0.0.0/8 to lo with source 127.0.0.1), so the rule applies: a client that forgets TLS fails
// here just as against a remote server.
const listenIP = "127.0.0.2"

// InstallHint says how to get what Available reports missing.
const InstallHint = "run sudo .ci/install-mailservers"

// Available reports whether Dovecot and Postfix are installed and can be started here: the
// programs, the accounts they run as, and root privileges. When not, reason says what is missing.
func Available() (ok bool, reason string) { return debianPrograms().available() }

func (p programs) available() (ok bool, reason string) {
	var missing []string
	for _, bin := range append([]string{p.dovecot, p.postfix}, p.helpers...) {
		if st, err := os.Stat(bin); err != nil || st.IsDir() {
			missing = append(missing, bin)
		}
	}
	if len(missing) > 0 {
		return false, fmt.Sprintf("Dovecot/Postfix not installed (missing %s); %s", strings.Join(missing, ", "), InstallHint)
	}
	for _, u := range neededUsers {
		if _, err := user.Lookup(u); err != nil {
			missing = append(missing, "user "+u)
		}
	}
	for _, g := range neededGroups {
		if _, err := user.LookupGroup(g); err != nil {
			missing = append(missing, "group "+g)
		}
	}
	if len(missing) > 0 {
		return false, fmt.Sprintf("Dovecot/Postfix installed but %s missing; %s", strings.Join(missing, ", "), InstallHint)
	}
	if os.Geteuid() != 0 {
		return false, "Dovecot/Postfix are installed, but starting them needs root (the tests run as uid " + strconv.Itoa(os.Geteuid()) + ")"
	}
	return true, ""
}

// User is a mail account: an address with a mailbox in Dovecot, and the password for IMAP and for
// SMTP AUTH on the submission port (the login is the whole address).
type User struct {
	Address  string
	Password string // empty: one is generated
}

// DefaultUsers are the accounts Start creates when it is given none.
var DefaultUsers = []User{{Address: "sortie@example.test"}, {Address: "alice@example.test"}, {Address: "bob@example.test"}}

// Servers is a running Dovecot and Postfix pair.
type Servers struct {
	// Dir holds everything: certs/, dovecot/ (config, logs, mailboxes), postfix/ (config, queue, log).
	Dir string
	// IMAPAddr is IMAP on a plain port: STARTTLS is required before LOGIN (ssl = required).
	IMAPAddr string
	// IMAPSAddr is IMAP over implicit TLS.
	IMAPSAddr string
	// SubmissionAddr is SMTP submission: STARTTLS and then AUTH (PLAIN or LOGIN, checked by Dovecot)
	// are required; an authenticated client may send to any local address.
	SubmissionAddr string
	// SMTPAddr is SMTP as an MX sees it: no AUTH, STARTTLS offered, mail accepted only for the
	// users' addresses.
	SMTPAddr string
	// LMTPAddr is Dovecot's LMTP service, through which Postfix delivers.
	LMTPAddr string
	// Host is the address every port listens on and the name clients should verify the
	// certificate for: 127.0.0.2 (see listenIP).
	Host string
	// CAFile is the PEM file of the throwaway CA that signed the servers' certificate: give it to a
	// client as its CA file. CAPEM is its content.
	CAFile string
	CAPEM  []byte
	// Users maps each address (lower case) to its password. Every user has a mailbox; mail to
	// user+anything@domain goes to user@domain.
	Users map[string]string
	// Domains are the users' domains; Postfix accepts mail for them and refuses other recipients.
	Domains []string

	dovecotConf, postfixConf string
	dovecotPIDFile           string
	postfixPIDFile           string
	dovecotPID, postfixPID   int
	registry                 string
	stopOnce                 sync.Once
	stopErr                  error
	opts                     Options
}

// Start writes the configurations into dir (which must exist; a fresh t.TempDir() is right), starts
// Dovecot and Postfix as daemons with their standard streams in log files, and returns once every
// port answers. users become the mail accounts (DefaultUsers when none are given). Call Stop when
// done; it is safe to call more than once.
func Start(dir string, users ...User) (*Servers, error) { return StartWith(dir, Options{}, users...) }

// Options change how the servers are set up, to try Sortie against a mail system set up wrongly.
type Options struct {
	// NoPlusAddressing leaves out recipient_delimiter = + from both servers: mail to user+tag@ is
	// refused as an unknown user, as on a mail system set up without plus-addressing.
	NoPlusAddressing bool
	// programs to run instead of the Debian packages' (for tests); zero: debianPrograms.
	programs programs
}

// StartWith is Start with options.
func StartWith(dir string, o Options, users ...User) (*Servers, error) {
	if o.programs.dovecot == "" {
		o.programs = debianPrograms()
	}
	if ok, reason := o.programs.available(); !ok {
		return nil, errors.New("realmail: " + reason)
	}
	reapOrphans()
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := makeTraversable(dir); err != nil {
		return nil, err
	}
	if len(users) == 0 {
		users = DefaultUsers
	}
	s := &Servers{Dir: dir, Host: listenIP, Users: map[string]string{}, opts: o}
	seenDomain := map[string]bool{}
	for _, u := range users {
		addr := strings.ToLower(strings.TrimSpace(u.Address))
		local, domain, ok := strings.Cut(addr, "@")
		if !ok || local == "" || domain == "" || strings.ContainsAny(addr, ": \t\r\n<>\"") || strings.Contains(local, "+") {
			return nil, fmt.Errorf("realmail: bad user address %q", u.Address)
		}
		pw := u.Password
		if pw == "" {
			pw = randomHex(8)
		}
		if strings.ContainsAny(pw, ":\r\n") {
			return nil, fmt.Errorf("realmail: the password of %s may not hold ':' or a line break", addr)
		}
		s.Users[addr] = pw
		if !seenDomain[domain] {
			seenDomain[domain] = true
			s.Domains = append(s.Domains, domain)
		}
	}
	if err := s.writeCerts(); err != nil {
		return nil, err
	}
	// Free ports are picked by binding port 0 and closing; another process may grab one in between,
	// so a start that fails on a taken port is retried with new ports.
	for attempt := 1; ; attempt++ {
		err = s.startOnce()
		if err == nil {
			return s, nil
		}
		s.Stop()
		if attempt == 3 || !strings.Contains(err.Error(), "in use") {
			return nil, err
		}
		s.stopOnce = sync.Once{}
	}
}

func (s *Servers) startOnce() error {
	ports, err := freePorts(6)
	if err != nil {
		return err
	}
	addr := func(p int) string { return net.JoinHostPort(listenIP, strconv.Itoa(p)) }
	s.IMAPAddr, s.IMAPSAddr, s.LMTPAddr = addr(ports[0]), addr(ports[1]), addr(ports[2])
	authAddr := addr(ports[3])
	s.SMTPAddr, s.SubmissionAddr = addr(ports[4]), addr(ports[5])

	if err := s.writeDovecot(ports[0], ports[1], ports[2], ports[3]); err != nil {
		return err
	}
	if err := s.writePostfix(ports[4], ports[5], authAddr); err != nil {
		return err
	}
	if err := s.register(); err != nil {
		return err
	}

	if err := runLogged(filepath.Join(s.Dir, "dovecot", "startup.log"), s.opts.programs.dovecot, "-c", s.dovecotConf); err != nil {
		return fmt.Errorf("realmail: starting dovecot: %w\n%s", err, s.Logs())
	}
	if s.dovecotPID, err = waitPIDFile(s.dovecotPIDFile, 5*time.Second); err != nil {
		return fmt.Errorf("realmail: dovecot: %w\n%s", err, s.Logs())
	}
	s.register()
	for _, a := range []string{s.IMAPAddr, s.IMAPSAddr, s.LMTPAddr, authAddr} {
		if err := waitPort(a, 10*time.Second); err != nil {
			return fmt.Errorf("realmail: dovecot: %w\n%s", err, s.Logs())
		}
	}

	if err := runLogged(filepath.Join(s.Dir, "postfix", "startup.log"), s.opts.programs.postfix, "-c", s.postfixConf, "start"); err != nil {
		// Errors found before Postfix's own log service runs (a bad main.cf, say) go to syslog only;
		// "postfix -c DIR check" as root repeats the checks.
		return fmt.Errorf("realmail: starting postfix (postfix -c %s start): %w\n%s", s.postfixConf, err, s.Logs())
	}
	if s.postfixPID, err = waitPIDFile(s.postfixPIDFile, 5*time.Second); err != nil {
		return fmt.Errorf("realmail: postfix: %w\n%s", err, s.Logs())
	}
	s.register()
	for _, a := range []string{s.SMTPAddr, s.SubmissionAddr} {
		if err := waitPort(a, 10*time.Second); err != nil {
			return fmt.Errorf("realmail: postfix: %w\n%s", err, s.Logs())
		}
	}
	return nil
}

// Stop stops Postfix and Dovecot (SIGTERM to each master process, by PID), waits until they and
// every process they started are gone (SIGKILL after 10 s), and forgets the instance. It takes
// about 1.2 s.
func (s *Servers) Stop() error {
	s.stopOnce.Do(func() {
		s.stopErr = stopDaemons(10*time.Second, s.postfixPID, s.dovecotPID)
		if s.stopErr == nil && s.registry != "" {
			os.Remove(s.registry)
		}
		s.postfixPID, s.dovecotPID = 0, 0
	})
	return s.stopErr
}

// ClientTLS returns a client TLS configuration that trusts only the servers' CA, for Host.
func (s *Servers) ClientTLS() *tls.Config {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CAPEM)
	return &tls.Config{RootCAs: pool, ServerName: s.Host, MinVersion: tls.VersionTLS12}
}

// Password returns the password of the user addr.
func (s *Servers) Password(addr string) string { return s.Users[strings.ToLower(addr)] }

// Logs returns the end of Dovecot's and Postfix's logs, for a failing test to show.
func (s *Servers) Logs() string {
	var b strings.Builder
	for _, f := range []string{"dovecot/startup.log", "dovecot/dovecot.log", "postfix/startup.log", "postfix/maillog"} {
		data, err := os.ReadFile(filepath.Join(s.Dir, f))
		if err != nil || len(data) == 0 {
			continue
		}
		if len(data) > 8000 {
			data = data[len(data)-8000:]
		}
		fmt.Fprintf(&b, "--- %s\n%s", f, data)
		if data[len(data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// writeCerts makes a throwaway CA and a server certificate for 127.0.0.2, 127.0.0.1, ::1 and
// localhost.
func (s *Servers) writeCerts() error {
	caPEM, serverTLS, err := localmail.GenerateCA(listenIP)
	if err != nil {
		return err
	}
	certs := filepath.Join(s.Dir, "certs")
	if err := os.MkdirAll(certs, 0o755); err != nil {
		return err
	}
	var chain []byte
	for _, der := range serverTLS.Certificates[0].Certificate {
		chain = append(chain, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})...)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(serverTLS.Certificates[0].PrivateKey)
	if err != nil {
		return fmt.Errorf("realmail: server key: %w", err)
	}
	s.CAPEM = caPEM
	s.CAFile = filepath.Join(certs, "ca.pem")
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{"ca.pem", caPEM, 0o644},
		{"server.pem", chain, 0o644},
		// Read by Dovecot's master and Postfix's smtpd while they are still root.
		{"server.key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600},
	} {
		if err := os.WriteFile(filepath.Join(certs, f.name), f.data, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// runLogged runs a command that starts a daemon, with stdin from /dev/null and stdout and stderr
// appended to logPath: a daemon that inherited a pipe would keep it open for its whole life.
func runLogged(logPath string, name string, args ...string) error {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer devnull.Close()
	cmd := exec.Command(name, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, logf, logf
	cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // not in the test's process group or terminal
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return fmt.Errorf("%s did not return within 30 s", name)
	}
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", net.JoinHostPort(listenIP, "0"))
		if err != nil {
			return nil, fmt.Errorf("realmail: finding a free port: %w", err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func waitPort(addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nothing answers on %s after %v: %w", addr, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitPIDFile reads a daemon's PID file (Postfix pads it with spaces) once the process it names runs.
func waitPIDFile(path string, timeout time.Duration) (int, error) {
	deadline := time.Now().Add(timeout)
	for {
		data, err := os.ReadFile(path)
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 && alive(pid) {
				return pid, nil
			}
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("no running process in %s after %v", path, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// makeTraversable lets the daemons' unprivileged users (postfix, vmail, dovenull) reach dir: it and
// every parent must be searchable by others. Test folders from t.TempDir() are mode 0700, so the
// missing x bits are added to dir and to its parents inside the temporary directory; a parent
// elsewhere that lacks them is an error.
func makeTraversable(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("realmail: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("realmail: %s is not a folder", dir)
	}
	tmp, _ := filepath.Abs(os.TempDir())
	for p := dir; ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("realmail: %w", err)
		}
		if st.Mode().Perm()&0o011 != 0o011 {
			if p != dir && !strings.HasPrefix(p, tmp+string(filepath.Separator)) {
				return fmt.Errorf("realmail: %s is not searchable by other users, so the mail daemons cannot reach %s", p, dir)
			}
			if err := os.Chmod(p, st.Mode().Perm()|0o011); err != nil {
				return fmt.Errorf("realmail: %w", err)
			}
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// chownTo changes path's owner to the named user and group ("" keeps it).
func chownTo(path, userName, groupName string) error {
	uid, gid := -1, -1
	if userName != "" {
		u, err := user.Lookup(userName)
		if err != nil {
			return err
		}
		uid, _ = strconv.Atoi(u.Uid)
	}
	if groupName != "" {
		g, err := user.LookupGroup(groupName)
		if err != nil {
			return err
		}
		gid, _ = strconv.Atoi(g.Gid)
	}
	return os.Chown(path, uid, gid)
}
