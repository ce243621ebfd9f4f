package mailer

// Check tries a mail account the way the daemon will use it (sortie check, docs/operations.md: Mail
// account): the IMAP server with the configured TLS and credentials, the folders Sortie files mail in,
// the SMTP submission server, and a probe sent to the service's own +probe address that must come back
// to the inbox, which is what every reply to a report relies on (they go to sortie+TOKEN@domain). Each
// step is reported as it ends, with what to fix when it fails.

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-msgauth/dkim"

	"sortie/mailer/outmail"
)

// CheckStep is one step of a check.
type CheckStep struct {
	Name string // e.g. "imap login"
	// Status is "ok", "warn" (works, with a caveat) or "FAIL".
	Status string
	Detail string // what was found
	Fix    string // what to change, when it failed or warns
}

// CheckOptions are what Check tries: the daemon's own IMAP and SMTP settings and the service's
// address.
type CheckOptions struct {
	IMAP    IntakeOptions
	SMTP    SenderOptions
	Address string
	// Wait is how long the probe may take to come back; default 60 s.
	Wait time.Duration
	// NoPlusAddressing: the configuration says the mailbox has no plus-addressing, so the probe goes to
	// the bare address.
	NoPlusAddressing bool
	// LookupTXT finds the TXT records of a DNS name, for the DKIM steps; nil is net.LookupTXT.
	LookupTXT func(name string) ([]string, error)
}

// ProbeHeader marks the probe mail, with a random token: Check finds it by this header, and the
// daemon ignores it (it also carries X-Sortie, Sortie's own-mail marker).
const ProbeHeader = "X-Sortie-Probe"

// Check runs every step it can and reports each through step; it returns whether all passed (warnings
// pass). A step that the failure of an earlier one makes pointless is not run.
func Check(ctx context.Context, opts CheckOptions, step func(CheckStep)) bool {
	ok := true
	report := func(s CheckStep) {
		if s.Status == "FAIL" {
			ok = false
		}
		step(s)
	}
	if opts.Wait <= 0 {
		opts.Wait = 60 * time.Second
	}
	if opts.SMTP.DKIM != nil {
		checkDKIM(opts, report)
	}
	in := NewIntake(opts.IMAP, nil, nil) // for its defaults (folders, mailbox)
	c, caps := checkIMAP(ctx, in.opts, report)
	if c != nil {
		defer c.Close()
	}
	local, domain, found := strings.Cut(opts.Address, "@")
	if !found || local == "" || domain == "" {
		report(CheckStep{Name: "address", Status: "FAIL", Detail: fmt.Sprintf("%q is not a mail address", opts.Address), Fix: "set address: to the service's address, e.g. sortie@example.org"})
		return false
	}
	probeTo := local + "+probe@" + domain
	if opts.NoPlusAddressing {
		probeTo = opts.Address
		report(CheckStep{Name: "plus-addressing", Status: "warn", Detail: "off in the configuration: mail goes out with the bare address as Reply-To",
			Fix: "players must put their SECRET on every GAME line; turn sub-addressing on and remove plus_addressing: false when you can"})
	}
	token := randomToken()
	if !checkSMTP(ctx, opts, probeTo, token, report) || c == nil {
		if c == nil {
			report(CheckStep{Name: "probe", Status: "FAIL", Detail: "not tried: the IMAP steps failed", Fix: "fix the IMAP settings first"})
		}
		return ok
	}
	checkProbe(ctx, c, caps, in.opts, probeTo, token, opts.Wait, report)
	return ok
}

// checkIMAP connects, logs in, looks at the capabilities and makes the folders. It returns the client
// (nil if it could not log in) for the probe.
func checkIMAP(ctx context.Context, o IntakeOptions, report func(CheckStep)) (*imapclient.Client, imap.CapSet) {
	host, port, err := splitHostPortDefault(o.Addr, "")
	if err != nil {
		report(CheckStep{Name: "imap address", Status: "FAIL", Detail: err.Error(), Fix: "write imap.addr as host:port, e.g. imap.example.org:993"})
		return nil, nil
	}
	mode, err := resolveTLSMode(o.TLS, port)
	if err != nil {
		report(CheckStep{Name: "imap tls", Status: "FAIL", Detail: err.Error(), Fix: "imap.tls is tls, starttls or none"})
		return nil, nil
	}
	if port == "" {
		port = "143"
		if mode == TLSImplicit {
			port = "993"
		}
	}
	addr := net.JoinHostPort(host, port)
	var tlsCfg *tls.Config
	if mode != TLSNone {
		if tlsCfg, err = clientTLSConfig(host, o.CAFile); err != nil {
			report(CheckStep{Name: "imap tls", Status: "FAIL", Detail: err.Error(), Fix: "imap.ca_file must be a PEM file of the CA that signed the server's certificate"})
			return nil, nil
		}
	}
	d := net.Dialer{Timeout: 15 * time.Second}
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		report(CheckStep{Name: "imap connect", Status: "FAIL", Detail: fmt.Sprintf("%s: %v", addr, err), Fix: netFix(err, "imap.addr")})
		return nil, nil
	}
	report(CheckStep{Name: "imap connect", Status: "ok", Detail: addr})
	var c *imapclient.Client
	switch mode {
	case TLSImplicit:
		tc := tls.Client(raw, tlsCfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			raw.Close()
			report(CheckStep{Name: "imap tls", Status: "FAIL", Detail: err.Error(), Fix: tlsFix(err, "imap", "993")})
			return nil, nil
		}
		c = imapclient.New(tc, nil)
		report(CheckStep{Name: "imap tls", Status: "ok", Detail: "TLS from the first byte, certificate verified for " + host})
	case TLSStartTLS:
		sc, err := imapclient.NewStartTLS(raw, &imapclient.Options{TLSConfig: tlsCfg})
		if err != nil {
			raw.Close()
			report(CheckStep{Name: "imap tls", Status: "FAIL", Detail: err.Error(), Fix: tlsFix(err, "imap", "993")})
			return nil, nil
		}
		c = sc
		report(CheckStep{Name: "imap tls", Status: "ok", Detail: "STARTTLS, certificate verified for " + host})
	default:
		c = imapclient.New(raw, nil)
		report(CheckStep{Name: "imap tls", Status: "warn", Detail: "none: the password travels in clear text",
			Fix: "use tls: tls (port 993) or starttls unless the server is on this machine"})
	}
	if err := c.Login(o.Username, o.Password).Wait(); err != nil {
		c.Close()
		report(CheckStep{Name: "imap login", Status: "FAIL", Detail: fmt.Sprintf("as %q: %v", o.Username, err),
			Fix: "check imap.username and the password (password_env names its variable); many hosted mailboxes need an app password, not the account's own"})
		return nil, nil
	}
	report(CheckStep{Name: "imap login", Status: "ok", Detail: "as " + o.Username})
	caps := c.Caps()
	var have []string
	for _, cp := range []imap.Cap{imap.CapMove, imap.CapUIDPlus, imap.CapIdle} {
		if caps.Has(cp) {
			have = append(have, string(cp))
		}
	}
	switch {
	case caps.Has(imap.CapMove):
		report(CheckStep{Name: "imap capabilities", Status: "ok", Detail: strings.Join(have, " ")})
	case caps.Has(imap.CapUIDPlus):
		report(CheckStep{Name: "imap capabilities", Status: "warn", Detail: strings.Join(have, " ") + " (no MOVE)",
			Fix: "without MOVE, handled mail stays in the inbox marked as read instead of going to the folders"})
	default:
		report(CheckStep{Name: "imap capabilities", Status: "FAIL", Detail: "neither MOVE nor UIDPLUS: " + strings.Join(have, " "),
			Fix: "Sortie needs an IMAP server with MOVE (RFC 6851) or UIDPLUS (RFC 4315); most current servers have both"})
	}
	failed := o.Failed
	if failed == "" {
		failed = "Sortie" + hierarchyDelim(c) + "Failed"
	}
	var made []string
	for _, name := range []string{o.Processed, o.Rejected, failed} {
		if err := ensureMailbox(c, name); err != nil {
			report(CheckStep{Name: "imap folders", Status: "FAIL", Detail: err.Error(), Fix: "the account must be allowed to create folders, or create " + name + " yourself"})
			return c, caps
		}
		made = append(made, name)
	}
	report(CheckStep{Name: "imap folders", Status: "ok", Detail: strings.Join(made, ", ") + " exist"})
	if _, err := c.Select(o.Mailbox, nil).Wait(); err != nil {
		report(CheckStep{Name: "imap inbox", Status: "FAIL", Detail: fmt.Sprintf("%s: %v", o.Mailbox, err), Fix: "imap.mailbox names the folder players write to, usually INBOX"})
		c.Close()
		return nil, nil
	}
	return c, caps
}

// checkSMTP connects to the submission server as the sender does and sends the probe.
func checkSMTP(ctx context.Context, opts CheckOptions, probeTo, token string, report func(CheckStep)) bool {
	s := NewSender(opts.SMTP, nil)
	conn, err := s.dial(ctx)
	if err != nil {
		report(CheckStep{Name: "smtp connect", Status: "FAIL", Detail: fmt.Sprintf("%s port %d: %v", opts.SMTP.Host, s.port(), err), Fix: smtpFix(err)})
		return false
	}
	defer conn.close()
	how := "STARTTLS"
	switch TLSMode(opts.SMTP.TLS) {
	case TLSImplicit:
		how = "TLS"
	case TLSNone:
		how = "no TLS"
	}
	auth := "no AUTH"
	if opts.SMTP.Username != "" {
		auth = "AUTH as " + opts.SMTP.Username
	}
	report(CheckStep{Name: "smtp connect", Status: "ok", Detail: fmt.Sprintf("%s port %d, %s, %s", opts.SMTP.Host, s.port(), how, auth)})
	_, domain, _ := strings.Cut(opts.Address, "@")
	probe := outmail.Mail{From: opts.Address, To: probeTo, Subject: "Sortie mail check " + token,
		Body:      "This mail was sent by sortie check to see that replies to the service's +addresses reach its inbox. It is deleted when found.\n",
		MessageID: "probe." + token + "@" + domain, Headers: map[string]string{ProbeHeader: token}, Created: time.Now()}
	from, to, err := outmail.Envelope(probe)
	var data []byte
	if err == nil {
		data, err = outmail.Render(probe, "")
	}
	if err == nil && opts.SMTP.DKIM != nil {
		data, err = opts.SMTP.DKIM.Sign(data) // signed as the sender signs every mail
	}
	if err != nil {
		report(CheckStep{Name: "smtp probe", Status: "FAIL", Detail: err.Error(), Fix: "address: must be a plain mail address"})
		return false
	}
	if err := conn.send(from, to, data); err != nil {
		fix := smtpFix(err)
		if strings.Contains(err.Error(), "RCPT") || strings.Contains(err.Error(), "550") || strings.Contains(err.Error(), "553") {
			fix = fmt.Sprintf("the server refuses %s: Sortie needs plus-addressing (mail to %s+anything@%s delivered to %s's inbox); on Postfix set recipient_delimiter = + (and the same in Dovecot), on a hosted mailbox turn on sub-addressing (or, if it has none, set plus_addressing: false and players write their SECRET)",
				probeTo, strings.Split(opts.Address, "@")[0], strings.Split(opts.Address, "@")[1], opts.Address)
		}
		report(CheckStep{Name: "smtp probe", Status: "FAIL", Detail: fmt.Sprintf("to %s: %v", probeTo, err), Fix: fix})
		return false
	}
	report(CheckStep{Name: "smtp probe", Status: "ok", Detail: "sent to " + probeTo})
	return true
}

// checkProbe waits for the probe in the inbox (or, if a running daemon filed it already, in the
// processed folder) and deletes it.
func checkProbe(ctx context.Context, c *imapclient.Client, caps imap.CapSet, o IntakeOptions, probeTo, token string, wait time.Duration, report func(CheckStep)) {
	deadline := time.Now().Add(wait)
	crit := &imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: ProbeHeader, Value: token}}}
	for {
		for _, box := range []string{o.Mailbox, o.Processed, o.Rejected} {
			if _, err := c.Select(box, nil).Wait(); err != nil {
				continue
			}
			data, err := c.UIDSearch(crit, nil).Wait()
			if err != nil {
				report(CheckStep{Name: "probe", Status: "FAIL", Detail: "searching " + box + ": " + err.Error(), Fix: "the IMAP server must support SEARCH HEADER"})
				return
			}
			if uids := data.AllUIDs(); len(uids) > 0 {
				set := imap.UIDSetNum(uids...)
				err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
				if err == nil {
					if caps.Has(imap.CapUIDPlus) {
						err = c.UIDExpunge(set).Close()
					} else {
						err = c.Expunge().Close()
					}
				}
				detail := fmt.Sprintf("mail to %s reached %s", probeTo, box)
				if err != nil {
					detail += " (it could not be deleted: " + err.Error() + ")"
				}
				report(CheckStep{Name: "probe", Status: "ok", Detail: detail})
				return
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			report(CheckStep{Name: "probe", Status: "FAIL", Detail: fmt.Sprintf("mail to %s did not reach %s within %v", probeTo, o.Mailbox, wait),
				Fix: "replies to reports go to the service's +addresses: the mail server must deliver them to this inbox (Postfix and Dovecot: recipient_delimiter = +; a hosted mailbox: sub-addressing or plus-addressing on). Look for the probe in other folders or in the server's log"})
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// checkDKIM looks at the signing key: its kind and size, whether its domain is the address's (DMARC
// asks for that), whether DNS publishes its public key at selector._domainkey.domain, and whether a
// mail signed with it verifies against what DNS publishes. It prints the record to publish.
func checkDKIM(opts CheckOptions, report func(CheckStep)) {
	d := opts.SMTP.DKIM
	lookup := opts.LookupTXT
	if lookup == nil {
		lookup = net.LookupTXT
	}
	alg, bits := d.Algorithm()
	key := CheckStep{Name: "dkim key", Status: "ok", Detail: fmt.Sprintf("%s %d-bit key for %s, selector %s; its DNS record:\n     %s", alg, bits, d.Domain, d.Selector, d.ZoneRecord())}
	switch {
	case alg == "rsa" && bits < 2048:
		key.Status, key.Fix = "warn", "an RSA key under 2048 bits is weak, and some receivers distrust it: make one of 2048 bits (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048)"
	case alg == "ed25519":
		key.Status, key.Fix = "warn", "many receivers, Gmail among them, do not check Ed25519 signatures yet: a mail signed with this key alone counts as unsigned there; use an RSA key of 2048 bits"
	}
	report(key)
	_, domain, _ := strings.Cut(strings.ToLower(opts.Address), "@")
	if domain != d.Domain && !strings.HasSuffix(domain, "."+d.Domain) && !strings.HasSuffix(d.Domain, "."+domain) {
		report(CheckStep{Name: "dkim domain", Status: "warn", Detail: fmt.Sprintf("mail comes from %s but is signed for %s", domain, d.Domain),
			Fix: "receivers that check DMARC count a signature only for the From address's own domain: set dkim.domain to " + domain})
	}
	name := d.RecordName()
	txt, err := lookup(name)
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound || err == nil && len(txt) == 0:
		report(CheckStep{Name: "dkim record", Status: "FAIL", Detail: "no TXT record at " + name,
			Fix: "publish the record above in your domain's DNS (many DNS hosts want the name " + d.Selector + "._domainkey and the text between the quotes, joined); until then receivers cannot check the signatures"})
		return
	case err != nil:
		report(CheckStep{Name: "dkim record", Status: "FAIL", Detail: fmt.Sprintf("looking up %s: %v", name, err), Fix: "check this machine's DNS resolver, then run sortie check again"})
		return
	case !d.PublishedKey(txt):
		report(CheckStep{Name: "dkim record", Status: "FAIL", Detail: "the key published at " + name + " is not the key in dkim.key_file",
			Fix: "either dkim.key_file is the wrong file or the DNS record is out of date: publish the record above, or point key_file at the key it was made from"})
		return
	}
	probe := outmail.Mail{From: opts.Address, To: opts.Address, Subject: "Sortie DKIM check", Body: "A mail signed by sortie check and verified, never sent.\n",
		MessageID: "dkim-check." + randomToken() + "@" + domain, Created: time.Now()}
	data, err := outmail.Render(probe, "")
	if err == nil {
		data, err = d.Sign(data)
	}
	if err == nil {
		err = verifyDKIM(data, d.Domain, lookup)
	}
	if err != nil {
		report(CheckStep{Name: "dkim record", Status: "FAIL", Detail: "a mail signed with the key does not verify against " + name + ": " + err.Error(),
			Fix: "publish the record above exactly as printed"})
		return
	}
	report(CheckStep{Name: "dkim record", Status: "ok", Detail: "published at " + name + "; a mail signed with the key verifies against it"})
}

// verifyDKIM checks that data carries a signature of domain that verifies with the keys lookup finds.
func verifyDKIM(data []byte, domain string, lookup func(string) ([]string, error)) error {
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(data), &dkim.VerifyOptions{LookupTXT: lookup, MaxVerifications: 4})
	if err != nil {
		return err
	}
	for _, v := range vs {
		if v.Err == nil && strings.EqualFold(v.Domain, domain) {
			return nil
		}
		if v.Err != nil {
			err = v.Err
		}
	}
	if err == nil {
		err = errors.New("no signature of " + domain)
	}
	return err
}

// port is the SMTP port the sender will use.
func (s *Sender) port() int {
	if s.opts.Port != 0 {
		return s.opts.Port
	}
	if s.opts.TLS == TLSImplicit {
		return 465
	}
	return 587
}

func randomToken() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// netFix says what to do about a connection that could not be made.
func netFix(err error, key string) string {
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return "the host name does not resolve: check " + key
	case strings.Contains(err.Error(), "refused"):
		return "nothing listens there: check the port in " + key + " and that the server runs"
	case strings.Contains(err.Error(), "timeout") || strings.Contains(err.Error(), "i/o timeout"):
		return "no answer: a firewall may block the port, or " + key + " is wrong"
	}
	return "check " + key + " and that the server is reachable from this machine"
}

// tlsFix says what to do about a failed TLS handshake.
func tlsFix(err error, proto, implicitPort string) string {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var rec tls.RecordHeaderError
	switch {
	case errors.As(err, &unknown) || strings.Contains(err.Error(), "unknown authority"):
		return "the server's certificate is not signed by a CA this machine trusts: set " + proto + ".ca_file to the PEM file of the CA that signed it, or give the server a certificate from a public CA"
	case errors.As(err, &host) || strings.Contains(err.Error(), "certificate is valid for"):
		return "the certificate is for another name: write the host name it names in " + proto + "'s address"
	case errors.As(err, &rec) || strings.Contains(err.Error(), "first record does not look like a TLS handshake"):
		return "this port does not start with TLS: use tls: starttls, or the implicit-TLS port (" + implicitPort + ")"
	case strings.Contains(err.Error(), "STARTTLS"):
		return "the server offers no STARTTLS on this port: use tls: tls on its TLS port (" + implicitPort + ")"
	}
	return "check " + proto + ".tls and " + proto + ".ca_file"
}

// smtpFix says what to do about a failed SMTP connection, TLS or AUTH.
func smtpFix(err error) string {
	msg := err.Error()
	lower := strings.ToLower(msg)
	switch {
	case strings.Contains(msg, "x509") || strings.Contains(lower, "tls"):
		return tlsFix(err, "smtp", "465")
	case strings.Contains(msg, "535") || strings.Contains(lower, "authentication") || strings.Contains(lower, "smtp auth"):
		return "the server refused the login: check smtp.username and the password; many hosted mailboxes need an app password"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) || strings.Contains(msg, "refused") || strings.Contains(msg, "dial") {
		return netFix(err, "smtp.host and smtp.port")
	}
	return "check the smtp settings"
}
