package mailer

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
)

// TLSMode says how a mail connection (IMAP intake or SMTP sender) is protected.
type TLSMode string

const (
	// TLSNone speaks the protocol in clear text. Only for loopback test servers: credentials travel
	// unencrypted (go-mail refuses AUTH PLAIN over it unless the host is localhost/127.0.0.1/::1).
	TLSNone TLSMode = "none"
	// TLSStartTLS connects in clear text and upgrades with STARTTLS before logging in; the upgrade is
	// mandatory (a server that does not offer it is an error, never a silent downgrade).
	TLSStartTLS TLSMode = "starttls"
	// TLSImplicit speaks TLS from the first byte (IMAPS port 993, SMTPS port 465).
	TLSImplicit TLSMode = "tls"
)

// resolveTLSMode validates m and fills in the default for an empty mode: implicit TLS on the
// well-known implicit ports (993, 465), STARTTLS everywhere else. The default is never clear text.
func resolveTLSMode(m TLSMode, port string) (TLSMode, error) {
	switch m {
	case TLSNone, TLSStartTLS, TLSImplicit:
		return m, nil
	case "":
		if port == "993" || port == "465" {
			return TLSImplicit, nil
		}
		return TLSStartTLS, nil
	}
	return "", fmt.Errorf("mailer: unknown TLS mode %q (want %q, %q or %q)", m, TLSNone, TLSStartTLS, TLSImplicit)
}

// clientTLSConfig builds the client side TLS configuration for host: certificates are always
// verified (never InsecureSkipVerify), against the PEM bundle in caFile when it is given and the
// system roots otherwise.
func clientTLSConfig(host, caFile string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if caFile == "" {
		return cfg, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("mailer: reading CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("mailer: CA file %s holds no PEM certificate", caFile)
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// splitHostPortDefault splits addr into host and port, using defPort when addr has no port.
func splitHostPortDefault(addr, defPort string) (host, port string, err error) {
	host, port, err = net.SplitHostPort(addr)
	if err != nil {
		// No port: accept a bare host name or IP (IPv6 literals may come bracketed).
		if addrErr, ok := err.(*net.AddrError); ok && addrErr.Err == "missing port in address" {
			h := addr
			if len(h) > 1 && h[0] == '[' && h[len(h)-1] == ']' {
				h = h[1 : len(h)-1]
			}
			return h, defPort, nil
		}
		return "", "", fmt.Errorf("mailer: bad address %q: %w", addr, err)
	}
	return host, port, nil
}
