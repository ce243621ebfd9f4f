package mailer

// DKIM signing of outgoing mail (docs/operations.md, "DKIM, SPF and DMARC"): when the configuration
// names a domain, a selector and a private key, the sender signs every mail's bytes as it sends them,
// so that receivers such as Gmail and Outlook can tell the mail really comes from the service's domain.
// Signing happens at send time, never in the outbox or the archive (docs/architecture.md, "One mail
// model"): the signature belongs to the key published when the mail leaves.

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// DKIM is a signing key for one domain and selector. The zero value is not usable; see NewDKIM.
type DKIM struct {
	Domain   string
	Selector string
	key      crypto.Signer
}

// dkimSignedFields are the header fields a signature covers: every field outmail.Render writes that a
// reader sees or a program acts on. From, Subject, To, Reply-To and Date are named twice, so a field of
// that name added on the way breaks the signature instead of standing beside the signed one (RFC 6376
// section 8.15, "oversigning").
var dkimSignedFields = []string{
	"From", "From", "To", "To", "Subject", "Subject", "Reply-To", "Reply-To", "Date", "Date",
	"Message-ID", "In-Reply-To", "References", "MIME-Version", "Content-Type", "Content-Transfer-Encoding",
	"Auto-Submitted", "X-Sortie",
}

// NewDKIM reads a PEM private key (PKCS #8 "PRIVATE KEY" holding RSA or Ed25519, or PKCS #1 "RSA PRIVATE
// KEY", as openssl writes them) for signing mail of domain with selector.
func NewDKIM(domain, selector string, pemKey []byte) (*DKIM, error) {
	domain = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	if domain == "" || !strings.Contains(domain, ".") {
		return nil, fmt.Errorf("dkim domain %q is not a domain name", domain)
	}
	if selector == "" || strings.ContainsAny(selector, " \t;=") {
		return nil, fmt.Errorf("dkim selector %q is not one word", selector)
	}
	block, _ := pem.Decode(pemKey)
	if block == nil {
		return nil, errors.New("the key file holds no PEM block: make one with openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out FILE")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("the key file holds a %q, not a private key", block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("the key file's private key cannot be read: %v", err)
	}
	switch k := key.(type) {
	case *rsa.PrivateKey, ed25519.PrivateKey: // Go refuses to read RSA keys under 1024 bits
		return &DKIM{Domain: domain, Selector: selector, key: k.(crypto.Signer)}, nil
	}
	return nil, fmt.Errorf("a %T cannot sign DKIM: use an RSA (2048 bits) or Ed25519 key", key)
}

// Algorithm is the key's kind as DKIM names it ("rsa" or "ed25519") and, for RSA, its size in bits.
func (d *DKIM) Algorithm() (name string, bits int) {
	if k, ok := d.key.(*rsa.PrivateKey); ok {
		return "rsa", k.N.BitLen()
	}
	return "ed25519", 256
}

// RecordName is the DNS name the public key is published under: selector._domainkey.domain.
func (d *DKIM) RecordName() string { return d.Selector + "._domainkey." + d.Domain }

// Record is the TXT record to publish at RecordName: "v=DKIM1; k=rsa; p=<public key>".
func (d *DKIM) Record() string {
	alg, _ := d.Algorithm()
	return "v=DKIM1; k=" + alg + "; p=" + d.publicKey()
}

// publicKey is the base64 of the public key as a DKIM record holds it (RFC 6376 section 3.6.1; RFC
// 8463 for Ed25519: the 32 bytes of the key itself).
func (d *DKIM) publicKey() string {
	switch k := d.key.Public().(type) {
	case *rsa.PublicKey:
		der, err := x509.MarshalPKIXPublicKey(k)
		if err != nil {
			return ""
		}
		return base64.StdEncoding.EncodeToString(der)
	case ed25519.PublicKey:
		return base64.StdEncoding.EncodeToString(k)
	}
	return ""
}

// ZoneRecord is Record as a line of a DNS zone file, cut into strings of at most 255 characters as a
// TXT record must be.
func (d *DKIM) ZoneRecord() string {
	rec := d.Record()
	var parts []string
	for len(rec) > 0 {
		n := min(len(rec), 250)
		parts = append(parts, `"`+rec[:n]+`"`)
		rec = rec[n:]
	}
	return d.RecordName() + ". IN TXT ( " + strings.Join(parts, " ") + " )"
}

// PublishedKey says whether TXT strings found at RecordName (joined as DNS gives them) hold this
// key's public key.
func (d *DKIM) PublishedKey(txt []string) bool {
	want := d.publicKey()
	for _, rec := range txt {
		for _, tag := range strings.Split(rec, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(tag), "=")
			if ok && strings.TrimSpace(k) == "p" && stripBlanks(v) == want {
				return true
			}
		}
	}
	return false
}

func stripBlanks(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}

// Sign returns data with a DKIM-Signature field on top, signed with relaxed canonicalization of header
// and body (so a server that rewraps header fields or trims trailing blanks does not break it).
func (d *DKIM) Sign(data []byte) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(data) + 1024)
	err := dkim.Sign(&out, bytes.NewReader(data), &dkim.SignOptions{
		Domain:                 d.Domain,
		Selector:               d.Selector,
		Signer:                 d.key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization:   dkim.CanonicalizationRelaxed,
		HeaderKeys:             dkimSignedFields,
	})
	if err != nil {
		return nil, fmt.Errorf("dkim: %w", err)
	}
	return out.Bytes(), nil
}
