package realmail

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"sortie/mailer"
)

// recipeSection is the own-server recipe of docs/operations.md, up to the next section.
func recipeSection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "### Recipe: your own Dovecot and Postfix on one host")
	if i < 0 {
		t.Fatal("docs/operations.md has no own-server recipe")
	}
	doc = doc[i:]
	// The recipe runs to the next heading of its level or above (the sections after it, DKIM among
	// them, are not part of it).
	for _, next := range []string{"\n## ", "\n### "} {
		if j := strings.Index(doc[4:], next); j >= 0 {
			doc = doc[:4+j]
		}
	}
	return doc
}

// one returns the one fenced block with the info string in the recipe.
func one(t *testing.T, recipe, info string) string {
	t.Helper()
	blocks := fenced(recipe, info)
	if len(blocks) != 1 {
		t.Fatalf("the own-server recipe has %d %q blocks, want 1", len(blocks), info)
	}
	return blocks[0] + "\n"
}

// The recipe's configuration for Sortie, as far as the test reads it.
type recipeSortie struct {
	Address string `yaml:"address"`
	IMAP    struct {
		Addr     string `yaml:"addr"`
		TLS      string `yaml:"tls"`
		Username string `yaml:"username"`
	} `yaml:"imap"`
	SMTP struct {
		Host     string `yaml:"host"`
		Port     int    `yaml:"port"`
		TLS      string `yaml:"tls"`
		Username string `yaml:"username"`
	} `yaml:"smtp"`
}

// TestRecipeAsWritten follows docs/operations.md's own-server recipe as written, on a temporary folder
// that stands for the host's /: its commands (the `sh recipe` blocks: the vmail user and its folder,
// the certificate, the users and mailbox files) run with sh, its Dovecot file is included whole by a
// dovecot.conf as Debian's includes conf.d, its main.cf lines end a main.cf and its submission service
// a master.cf, and Dovecot and Postfix start on them (postfix -c). The only changes are those the recipe
// names: paths under /etc and /var move into the folder, 127.0.0.1 becomes 127.0.0.2 and the ports
// become free ones. Then Sortie's account check runs with the recipe's configuration and the password
// of its users file, and every step must pass: the login the configuration names, the folders, TLS
// and AUTH on submission, and the probe to sortie+probe@ delivered through LMTP to the inbox.
// The example configuration logs in the same way. (docs/operations.md, "Recipe: your own Dovecot and
// Postfix on one host".)
func TestRecipeAsWritten(t *testing.T) {
	if ok, reason := Available(); !ok {
		if os.Getenv("SORTIE_REAL_MAIL") == "required" {
			t.Fatalf("SORTIE_REAL_MAIL=required, but %s", reason)
		}
		t.Skip(reason)
	}
	recipe := recipeSection(t)
	for _, say := range []string{"paths under /etc and /var", "127.0.0.1 becomes 127.0.0.2", "free ones"} {
		if !strings.Contains(strings.Join(strings.Fields(recipe), " "), say) {
			t.Fatalf("the recipe no longer says which changes its test makes (%q)", say)
		}
	}
	reapOrphans()
	root, err := filepath.Abs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := makeTraversable(root); err != nil {
		t.Fatal(err)
	}
	ports, err := freePorts(4)
	if err != nil {
		t.Fatal(err)
	}
	imaps, lmtp, auth, submission := ports[0], ports[1], ports[2], ports[3]
	subst := strings.NewReplacer(
		"/etc/", root+"/etc/", "/var/", root+"/var/",
		"127.0.0.1:24", fmt.Sprintf("%s:%d", listenIP, lmtp), "127.0.0.1:12345", fmt.Sprintf("%s:%d", listenIP, auth),
		"127.0.0.1:993", fmt.Sprintf("%s:%d", listenIP, imaps), "127.0.0.1", listenIP,
		"port = 24\n", fmt.Sprintf("port = %d\n", lmtp), "port = 12345\n", fmt.Sprintf("port = %d\n", auth),
		"port: 587", fmt.Sprintf("port: %d", submission), "submission inet", fmt.Sprintf("%s:%d inet", listenIP, submission),
	)

	// What the Debian packages and the host bring: their folders, and a certificate in the folder the
	// commands run in.
	for _, d := range []string{"etc/dovecot/conf.d", "etc/postfix", "etc/ssl", "var/lib/dovecot", "var/spool/postfix", "var/lib/postfix", "var/log", "run/dovecot"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := chownTo(filepath.Join(root, "var/lib/postfix"), "postfix", ""); err != nil {
		t.Fatal(err)
	}
	s := &Servers{Dir: filepath.Join(root, "host")}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.writeCerts(); err != nil {
		t.Fatal(err)
	}
	certs := filepath.Join(s.Dir, "certs")

	for i, block := range fenced(recipe, "sh recipe") {
		cmd := exec.Command("sh", "-e", "-x", "-c", subst.Replace(block))
		cmd.Dir = certs
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the recipe's commands (block %d): %v\n%s", i+1, err, out)
		}
	}
	if len(fenced(recipe, "sh recipe")) == 0 {
		t.Fatal("the recipe has no commands (```sh recipe blocks)")
	}

	dovecot := fmt.Sprintf(`# The host's dovecot.conf, as Debian's: its own paths, then the conf.d files.
instance_name = sortie-recipe-%s
listen = %s
base_dir = %s/run/dovecot
state_dir = %s/var/lib/dovecot
log_path = %s/var/log/dovecot.log
namespace inbox {
  inbox = yes
}
service imap-login {
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    port = %d
    ssl = yes
  }
}
!include conf.d/*.conf
`, randomHex(4), listenIP, root, root, root, imaps)
	main := fmt.Sprintf(`# The host's main.cf: its own paths and name, local mail only.
compatibility_level = 3.6
queue_directory = %s/var/spool/postfix
data_directory = %s/var/lib/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.example.org
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
inet_interfaces = loopback-only
inet_protocols = ipv4
default_transport = error:this test host sends nothing out
maillog_file = %s/var/log/postfix.log
maillog_file_prefixes = %s/var/log
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
`, root, root, root, root)
	_, services, _ := strings.Cut(postfixMasterCf, "\n  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject\n")
	for _, f := range []struct{ path, text string }{
		{"etc/dovecot/dovecot.conf", dovecot},
		{"etc/dovecot/conf.d/99-sortie.conf", subst.Replace(one(t, recipe, "dovecot"))},
		{"etc/postfix/main.cf", main + subst.Replace(one(t, recipe, "postfix"))},
		{"etc/postfix/master.cf", subst.Replace(one(t, recipe, "postfix-master")) + services},
	} {
		if err := os.WriteFile(filepath.Join(root, f.path), []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Postfix waits for a file changed within the last second (it may be half written): date them back.
	old := time.Now().Add(-time.Minute)
	entries, _ := os.ReadDir(filepath.Join(root, "etc/postfix"))
	for _, e := range entries {
		os.Chtimes(filepath.Join(root, "etc/postfix", e.Name()), old, old)
	}

	s.dovecotConf = filepath.Join(root, "etc/dovecot/dovecot.conf")
	s.dovecotPIDFile = filepath.Join(root, "run/dovecot/master.pid")
	s.postfixConf = filepath.Join(root, "etc/postfix")
	s.postfixPIDFile = filepath.Join(root, "var/spool/postfix/pid/master.pid")
	logs := func() string {
		var b strings.Builder
		for _, f := range []string{"host/dovecot.out", "var/log/dovecot.log", "host/postfix.out", "var/log/postfix.log"} {
			data, _ := os.ReadFile(filepath.Join(root, f))
			fmt.Fprintf(&b, "--- %s\n%s\n", f, data)
		}
		return b.String()
	}
	if err := s.register(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	if err := runLogged(filepath.Join(s.Dir, "dovecot.out"), debianPrograms().dovecot, "-c", s.dovecotConf); err != nil {
		t.Fatalf("dovecot: %v\n%s", err, logs())
	}
	if s.dovecotPID, err = waitPIDFile(s.dovecotPIDFile, 10*time.Second); err != nil {
		t.Fatalf("dovecot: %v\n%s", err, logs())
	}
	s.register()
	if err := runLogged(filepath.Join(s.Dir, "postfix.out"), debianPrograms().postfix, "-c", s.postfixConf, "start"); err != nil {
		t.Fatalf("postfix -c %s start: %v\n%s", s.postfixConf, err, logs())
	}
	if s.postfixPID, err = waitPIDFile(s.postfixPIDFile, 10*time.Second); err != nil {
		t.Fatalf("postfix: %v\n%s", err, logs())
	}
	s.register()
	for _, p := range []int{imaps, lmtp, auth, submission} {
		if err := waitPort(net.JoinHostPort(listenIP, strconv.Itoa(p)), 10*time.Second); err != nil {
			t.Fatalf("%v\n%s", err, logs())
		}
	}

	var cfg recipeSortie
	if err := yaml.Unmarshal([]byte(subst.Replace(one(t, recipe, "yaml"))), &cfg); err != nil {
		t.Fatal(err)
	}
	// The example configuration (the Debian package's conffile) logs in as the recipe does: with the
	// whole address of its users file, not the bare name.
	var example recipeSortie
	if b, err := os.ReadFile("../../docs/sortie.example.yaml"); err != nil {
		t.Fatal(err)
	} else if err := yaml.Unmarshal(b, &example); err != nil {
		t.Fatal(err)
	}
	if example.IMAP.Username != cfg.IMAP.Username || example.SMTP.Username != cfg.SMTP.Username || example.Address != cfg.Address {
		t.Errorf("docs/sortie.example.yaml logs in as %q (IMAP) and %q (SMTP) for %s; the recipe as %q and %q for %s",
			example.IMAP.Username, example.SMTP.Username, example.Address, cfg.IMAP.Username, cfg.SMTP.Username, cfg.Address)
	}
	users, err := os.ReadFile(filepath.Join(root, "etc/dovecot/users"))
	if err != nil {
		t.Fatal(err)
	}
	_, password, _ := strings.Cut(strings.SplitN(string(users), "\n", 2)[0], ":{PLAIN}")
	password, _, _ = strings.Cut(password, ":")
	caFile := filepath.Join(certs, "ca.pem")
	opts := mailer.CheckOptions{
		IMAP:    mailer.IntakeOptions{Addr: cfg.IMAP.Addr, TLS: mailer.TLSMode(cfg.IMAP.TLS), CAFile: caFile, Username: cfg.IMAP.Username, Password: password},
		SMTP:    mailer.SenderOptions{Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, TLS: mailer.TLSMode(cfg.SMTP.TLS), CAFile: caFile, Username: cfg.SMTP.Username, Password: password},
		Address: cfg.Address, Wait: 30 * time.Second,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var steps []string
	if !mailer.Check(ctx, opts, func(st mailer.CheckStep) {
		steps = append(steps, fmt.Sprintf("%s %s: %s %s", st.Status, st.Name, st.Detail, st.Fix))
	}) {
		t.Errorf("sortie check on the recipe's host fails:\n%s\n%s", strings.Join(steps, "\n"), logs())
		return
	}
	t.Logf("sortie check on the recipe's host:\n%s", strings.Join(steps, "\n"))
}
