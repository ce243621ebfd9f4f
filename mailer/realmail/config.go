package realmail

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Dovecot 2.3 configuration (Debian bookworm; 2.4 needs a different syntax). Self-contained: no
// include of /etc/dovecot. ssl = required refuses LOGIN before STARTTLS (on listenIP, see there), so
// a client that forgets TLS is caught.
const dovecotConf = `# Written by sortie/mailer/realmail for one test run.
instance_name = {{instance}}
protocols = imap lmtp
listen = {{ip}}
base_dir = {{dir}}/run
state_dir = {{dir}}/state
log_path = {{dir}}/dovecot.log
hostname = mailtest.test
postmaster_address = postmaster@{{domain}}
ssl = required
ssl_cert = <{{certs}}/server.pem
ssl_key = <{{certs}}/server.key
disable_plaintext_auth = yes
auth_mechanisms = plain login
auth_verbose = yes
first_valid_uid = {{vmail_uid}}
recipient_delimiter = +
mail_location = maildir:{{dir}}/mail/%u/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {{dir}}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u {{dir}}/users
  default_fields = uid=vmail gid=vmail home={{dir}}/mail/%u
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = {{ip}}
    port = {{imap_port}}
  }
  inet_listener imaps {
    address = {{ip}}
    port = {{imaps_port}}
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = {{ip}}
    port = {{lmtp_port}}
  }
}
# SASL for Postfix's submission port.
service auth {
  inet_listener auth {
    address = {{ip}}
    port = {{auth_port}}
  }
}
protocol imap {
  mail_max_userip_connections = 50
}
`

func (s *Servers) writeDovecot(imapPort, imapsPort, lmtpPort, authPort int) error {
	dir := filepath.Join(s.Dir, "dovecot")
	for _, d := range []string{"run", "state", "mail"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := chownTo(filepath.Join(dir, "mail"), "vmail", "vmail"); err != nil {
		return fmt.Errorf("realmail: %w", err)
	}
	vmail, err := lookupUID("vmail")
	if err != nil {
		return err
	}
	// passwd-file: user:{PLAIN}password:uid:gid:gecos:home:shell:extra (uid, gid and home come from
	// the userdb's default_fields).
	var users strings.Builder
	for _, addr := range sortedKeys(s.Users) {
		fmt.Fprintf(&users, "%s:{PLAIN}%s::::::\n", addr, s.Users[addr])
	}
	usersFile := filepath.Join(dir, "users")
	if err := os.WriteFile(usersFile, []byte(users.String()), 0o640); err != nil {
		return err
	}
	if err := chownTo(usersFile, "", "dovecot"); err != nil {
		return fmt.Errorf("realmail: %w", err)
	}
	conf := s.withOptions(expand(dovecotConf, map[string]string{
		"ip":         listenIP,
		"instance":   "sortie-realmail-" + randomHex(4),
		"dir":        dir,
		"certs":      filepath.Join(s.Dir, "certs"),
		"domain":     s.Domains[0],
		"vmail_uid":  fmt.Sprint(vmail),
		"imap_port":  fmt.Sprint(imapPort),
		"imaps_port": fmt.Sprint(imapsPort),
		"lmtp_port":  fmt.Sprint(lmtpPort),
		"auth_port":  fmt.Sprint(authPort),
	}))
	s.dovecotConf = filepath.Join(dir, "dovecot.conf")
	s.dovecotPIDFile = filepath.Join(dir, "run", "master.pid")
	return os.WriteFile(s.dovecotConf, []byte(conf), 0o644)
}

// Postfix main.cf for an instance of its own (postfix -c DIR): own queue and data directories, no
// chroot (Debian's init script would have to prepare it), a log file instead of syslog, only loopback
// (inet_interfaces must name an interface's address, and 127.0.0.2 is routed to lo, not assigned to
// it, so it says loopback-only while master.cf binds its two ports to listenIP explicitly),
// mail for the users' domains delivered to Dovecot over LMTP, everything else refused. Short retry
// times, so a delivery that failed for a moment is retried within seconds.
const postfixMainCf = `# Written by sortie/mailer/realmail for one test run.
compatibility_level = 3.6
queue_directory = {{dir}}/spool
data_directory = {{dir}}/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mailtest.test
mydomain = mailtest.test
myorigin = $myhostname
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relayhost =
relay_domains =
default_transport = error:outside the test domains
relay_transport = error:outside the test domains
recipient_delimiter = +
virtual_mailbox_domains = {{domains}}
virtual_mailbox_maps = texthash:{{dir}}/etc/vmailbox
virtual_transport = lmtp:inet:{{lmtp}}
smtpd_banner = $myhostname ESMTP (sortie realmail test instance)
smtpd_tls_cert_file = {{certs}}/server.pem
smtpd_tls_key_file = {{certs}}/server.key
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:{{auth}}
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination
smtputf8_enable = yes
biff = no
in_flow_delay = 0s
smtpd_error_sleep_time = 0s
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
maximal_queue_lifetime = 1h
bounce_queue_lifetime = 1h
maillog_file = {{dir}}/maillog
maillog_file_prefixes = {{dir}}
`

// master.cf: the stock Debian services without chroot, port 25 replaced by two loopback ports.
const postfixMasterCf = `# Written by sortie/mailer/realmail for one test run.
{{smtp}} inet n - n - - smtpd
{{submission}} inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
`

func (s *Servers) writePostfix(smtpPort, submissionPort int, authAddr string) error {
	dir := filepath.Join(s.Dir, "postfix")
	for _, d := range []string{"etc", "spool", "data"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	// The master takes a lock in data_directory as the postfix user (postfix-script fixes the queue's
	// subdirectories itself).
	if err := chownTo(filepath.Join(dir, "data"), "postfix", ""); err != nil {
		return fmt.Errorf("realmail: %w", err)
	}
	var box strings.Builder
	for _, addr := range sortedKeys(s.Users) {
		fmt.Fprintf(&box, "%s OK\n", addr)
	}
	vars := map[string]string{
		"ip":         listenIP,
		"dir":        dir,
		"certs":      filepath.Join(s.Dir, "certs"),
		"domains":    strings.Join(s.Domains, ", "),
		"lmtp":       s.LMTPAddr,
		"auth":       authAddr,
		"smtp":       fmt.Sprintf("%s:%d", listenIP, smtpPort),
		"submission": fmt.Sprintf("%s:%d", listenIP, submissionPort),
	}
	s.postfixConf = filepath.Join(dir, "etc")
	s.postfixPIDFile = filepath.Join(dir, "spool", "pid", "master.pid")
	for _, f := range []struct{ name, text string }{
		{"main.cf", s.withOptions(expand(postfixMainCf, vars))},
		{"master.cf", expand(postfixMasterCf, vars)},
		{"vmailbox", box.String()},
	} {
		path := filepath.Join(dir, "etc", f.name)
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			return err
		}
		// Postfix will not read a file changed within the last second (it may be half written) and
		// sleeps until it is older: date the files back.
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(path, old, old); err != nil {
			return err
		}
	}
	return nil
}

func expand(tmpl string, vars map[string]string) string {
	for k, v := range vars {
		tmpl = strings.ReplaceAll(tmpl, "{{"+k+"}}", v)
	}
	if i := strings.Index(tmpl, "{{"); i >= 0 {
		panic("realmail: unexpanded template variable near " + tmpl[i:min(len(tmpl), i+30)])
	}
	return tmpl
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func lookupUID(name string) (int, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return 0, fmt.Errorf("realmail: user %s: %w", name, err)
	}
	return strconv.Atoi(u.Uid)
}

// withOptions applies the start options to a configuration file's text.
func (s *Servers) withOptions(conf string) string {
	if s.opts.NoPlusAddressing {
		conf = strings.Replace(conf, "recipient_delimiter = +\n", "", 1)
	}
	return conf
}
