// Package localmail runs small in-process mail servers on loopback: an IMAP server (go-imap's
// imapserver over its in-memory backend, imapmemserver) and an SMTP server (go-smtp) that hands every
// accepted message to a callback.
//
// They exist for two users: the mailer tests, which need real protocol servers without mocks, and
// `sortie demo`, which plays a whole game on one machine without any outside mail account. Nothing is
// persisted; everything lives until Close.
//
// The servers speak the real protocols, so a client that works against them has exercised the same
// code paths it uses against Dovecot or Postfix, with two known differences worth remembering: the
// in-memory IMAP server pushes EXISTS to an IDLE client at once (Dovecot waits about 0.5 s), and its
// UIDVALIDITY values are small counters (1, 2, 3, ...), not timestamps.
package localmail

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// GenerateCA creates a throwaway certificate authority and a server certificate it signed, for TLS
// tests and the demo. The server certificate is valid for 127.0.0.1, ::1 and localhost plus any
// extra hosts given (IP literals or DNS names), for 30 days.
//
// caPEM is the CA certificate in PEM form: write it to a file and give that file to a client as its
// CAFile (or put it in a tls.Config's RootCAs). serverTLS carries the server certificate and its
// chain, ready for IMAPOptions.TLSConfig or SMTPOptions.TLSConfig. Clients are expected to verify the
// certificate; nothing here needs InsecureSkipVerify.
func GenerateCA(hosts ...string) (caPEM []byte, serverTLS *tls.Config, err error) {
	now := time.Now()

	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("localmail: CA key: %w", err)
	}
	caSerial, err := randomSerial()
	if err != nil {
		return nil, nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          caSerial,
		Subject:               pkix.Name{CommonName: "Sortie localmail throwaway CA", Organization: []string{"Sortie"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(30 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("localmail: CA certificate: %w", err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, fmt.Errorf("localmail: CA certificate: %w", err)
	}

	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("localmail: server key: %w", err)
	}
	leafSerial, err := randomSerial()
	if err != nil {
		return nil, nil, err
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: leafSerial,
		Subject:      pkix.Name{CommonName: "localhost", Organization: []string{"Sortie"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(30 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	seen := map[string]bool{}
	for _, h := range append([]string{"127.0.0.1", "::1", "localhost"}, hosts...) {
		if h == "" || seen[h] {
			continue
		}
		seen[h] = true
		if ip := net.ParseIP(h); ip != nil {
			leafTmpl.IPAddresses = append(leafTmpl.IPAddresses, ip)
		} else {
			leafTmpl.DNSNames = append(leafTmpl.DNSNames, h)
		}
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, caCert, &leafKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("localmail: server certificate: %w", err)
	}

	caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	serverTLS = &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER, caDER}, PrivateKey: leafKey}},
		MinVersion:   tls.VersionTLS12,
	}
	return caPEM, serverTLS, nil
}

func randomSerial() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
	if err != nil {
		return nil, fmt.Errorf("localmail: serial number: %w", err)
	}
	return n.Add(n, big.NewInt(1)), nil
}

// printfLogger adapts zerolog to the Printf/Println loggers of imapserver and go-smtp. Their messages
// are about single connections (a client hung up, a command failed to parse) and go to debug level.
type printfLogger struct {
	log    zerolog.Logger
	server string
}

func (p printfLogger) Printf(format string, args ...any) {
	p.log.Debug().Str("server", p.server).Msgf(format, args...)
}

func (p printfLogger) Println(args ...any) {
	p.log.Debug().Str("server", p.server).Msg(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
}
