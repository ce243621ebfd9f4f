package localmail

import (
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/rs/zerolog"
)

// SMTPOptions configures StartSMTP. The zero value is a plain-text server on a free loopback port
// that accepts any mail without authentication.
type SMTPOptions struct {
	// Addr to listen on; default "127.0.0.1:0" (a free port, see SMTPServer.Addr).
	Addr string
	// Domain is the name in the greeting and the EHLO answer; default "localhost".
	Domain string
	// Username and Password, when Username is set, make AUTH PLAIN mandatory: MAIL FROM before a
	// successful AUTH is refused with 530.
	Username, Password string
	// TLSConfig holds the server certificate (see GenerateCA). When set, STARTTLS is offered.
	TLSConfig *tls.Config
	// ImplicitTLS makes the listener speak TLS from the first byte (SMTPS, like port 465) instead of
	// offering STARTTLS. It needs TLSConfig.
	ImplicitTLS bool
	// RequireTLS refuses AUTH on a connection that is not protected by TLS. By default AUTH is
	// allowed in clear text, which only makes sense on loopback.
	RequireTLS bool
	// MaxMessageBytes limits a message's size; default 25 MiB.
	MaxMessageBytes int64
	// OnMessage, when set, is called for every message before it is accepted, with the envelope
	// sender, the envelope recipients and the message as received. An error refuses the message with
	// a temporary failure (451), so the client keeps it and tries again; it is then not recorded in
	// Received. The demo uses it to deliver into the IMAP server or write .eml files. It may be
	// called from several connections at once.
	OnMessage func(from string, to []string, raw []byte) error
	// Logger receives per-connection error messages at debug level; the zero value discards them.
	Logger zerolog.Logger
}

// Envelope is one accepted message.
type Envelope struct {
	From     string
	To       []string
	Raw      []byte
	Received time.Time
}

// SMTPServer is an in-process SMTP server on loopback. All methods are safe for concurrent use.
type SMTPServer struct {
	opts SMTPOptions
	srv  *smtp.Server
	ln   net.Listener
	down atomic.Bool

	mu       sync.Mutex
	received []Envelope
	conns    []*smtp.Conn // every connection accepted, for Sessions and DropConnections
	quits    int          // sessions the client ended (QUIT), for Quits
}

// StartSMTP starts an SMTP server and returns once it accepts connections.
func StartSMTP(opts SMTPOptions) (*SMTPServer, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Domain == "" {
		opts.Domain = "localhost"
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = 25 << 20
	}
	if (opts.ImplicitTLS || opts.RequireTLS) && opts.TLSConfig == nil {
		return nil, errors.New("localmail: SMTPOptions.ImplicitTLS and RequireTLS need a TLSConfig")
	}

	s := &SMTPServer{opts: opts}
	srv := smtp.NewServer(smtp.BackendFunc(s.newSession))
	srv.Domain = opts.Domain
	srv.MaxMessageBytes = opts.MaxMessageBytes
	srv.MaxRecipients = 100
	srv.AllowInsecureAuth = !opts.RequireTLS
	srv.EnableSMTPUTF8 = true
	srv.ReadTimeout = time.Minute
	srv.WriteTimeout = time.Minute
	srv.ErrorLog = printfLogger{log: opts.Logger, server: "smtp"}
	if !opts.ImplicitTLS {
		srv.TLSConfig = opts.TLSConfig // offers STARTTLS when set
	}

	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("localmail: SMTP listener: %w", err)
	}
	s.ln = ln
	var served net.Listener = ln
	if opts.ImplicitTLS {
		served = tls.NewListener(ln, opts.TLSConfig)
	}
	s.srv = srv
	go srv.Serve(&downListener{Listener: served, down: &s.down}) //nolint:errcheck // returns nil after Close
	return s, nil
}

// Addr is the listener's address, e.g. "127.0.0.1:40125".
func (s *SMTPServer) Addr() string { return s.ln.Addr().String() }

// Close stops the server and drops every connection.
func (s *SMTPServer) Close() error {
	err := s.srv.Close()
	s.ln.Close() // in case Serve had not registered it yet
	if errors.Is(err, smtp.ErrServerClosed) || errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// SetDown simulates an outage while down is true: new connections are greeted with
// "421 4.3.2 Service not available" and closed, and sessions already open get 421 to MAIL, RCPT and
// DATA. Nothing is accepted until SetDown(false).
func (s *SMTPServer) SetDown(down bool) { s.down.Store(down) }

// Received returns a copy of the list of accepted messages, oldest first.
func (s *SMTPServer) Received() []Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Envelope, len(s.received))
	for i, e := range s.received {
		e.To = append([]string(nil), e.To...)
		e.Raw = append([]byte(nil), e.Raw...)
		out[i] = e
	}
	return out
}

var errServiceDown = &smtp.SMTPError{
	Code:         421,
	EnhancedCode: smtp.EnhancedCode{4, 3, 2},
	Message:      "Service not available, closing transmission channel",
}

// errAuthRequired is RFC 4954's answer to MAIL before AUTH (go-smtp's ErrAuthRequired is a 502).
var errAuthRequired = &smtp.SMTPError{
	Code:         530,
	EnhancedCode: smtp.EnhancedCode{5, 7, 0},
	Message:      "Authentication required",
}

// Sessions is how many connections the server has accepted so far.
func (s *SMTPServer) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Quits is how many sessions their client has ended so far (QUIT, or a connection closed after its
// session began), so a test can wait for a client to let go of its connection instead of sleeping.
func (s *SMTPServer) Quits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.quits
}

// DropConnections closes every open connection without a word, as a server does when it restarts or
// times out an idle client; the listener goes on accepting new ones.
func (s *SMTPServer) DropConnections() {
	s.mu.Lock()
	conns := append([]*smtp.Conn(nil), s.conns...)
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

func (s *SMTPServer) newSession(c *smtp.Conn) (smtp.Session, error) {
	if s.down.Load() {
		return nil, errServiceDown
	}
	s.mu.Lock()
	s.conns = append(s.conns, c)
	s.mu.Unlock()
	sess := &smtpSession{server: s}
	if s.opts.Username != "" {
		return &smtpAuthSession{smtpSession: sess}, nil
	}
	return sess, nil
}

// smtpSession is one SMTP connection's state.
type smtpSession struct {
	server *SMTPServer
	authed bool
	from   string
	to     []string
}

func (ss *smtpSession) Reset() {
	ss.from = ""
	ss.to = nil
}

func (ss *smtpSession) Logout() error {
	ss.server.mu.Lock()
	ss.server.quits++
	ss.server.mu.Unlock()
	return nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if ss.server.down.Load() {
		return errServiceDown
	}
	if ss.server.opts.Username != "" && !ss.authed {
		return errAuthRequired
	}
	ss.from = from
	ss.to = nil
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if ss.server.down.Load() {
		return errServiceDown
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if ss.server.down.Load() {
		return errServiceDown
	}
	s := ss.server
	to := append([]string(nil), ss.to...)
	if s.opts.OnMessage != nil {
		if err := s.opts.OnMessage(ss.from, to, raw); err != nil {
			return &smtp.SMTPError{
				Code:         451,
				EnhancedCode: smtp.EnhancedCode{4, 3, 0},
				Message:      "Delivery failed, try again later: " + err.Error(),
			}
		}
	}
	s.mu.Lock()
	s.received = append(s.received, Envelope{From: ss.from, To: to, Raw: raw, Received: time.Now()})
	s.mu.Unlock()
	return nil
}

// smtpAuthSession adds AUTH PLAIN to a session when the server has credentials.
type smtpAuthSession struct {
	*smtpSession
}

func (as *smtpAuthSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (as *smtpAuthSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	opts := as.server.opts
	return sasl.NewPlainServer(func(identity, username, password string) error {
		userOK := subtle.ConstantTimeCompare([]byte(username), []byte(opts.Username)) == 1
		passOK := subtle.ConstantTimeCompare([]byte(password), []byte(opts.Password)) == 1
		if !userOK || !passOK || (identity != "" && identity != username) {
			return smtp.ErrAuthFailed
		}
		as.authed = true
		return nil
	}), nil
}

// downListener greets connections with 421 and closes them while the server is down.
type downListener struct {
	net.Listener
	down *atomic.Bool
}

func (l *downListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil || !l.down.Load() {
			return c, err
		}
		go func() {
			_ = c.SetDeadline(time.Now().Add(5 * time.Second))
			_, _ = io.WriteString(c, "421 4.3.2 Service not available, closing transmission channel\r\n")
			c.Close()
		}()
	}
}
