package localmail

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sort"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/rs/zerolog"
)

// DefaultMailboxes are created for every user: the inbox and the two folders the intake moves
// handled mail to.
var DefaultMailboxes = []string{"INBOX", "Processed", "Rejected"}

// ErrClosed is returned by a server's methods after Close.
var ErrClosed = errors.New("localmail: server closed")

// IMAPOptions configures StartIMAP. The zero value is a plain-text server on a free loopback port
// with no users.
type IMAPOptions struct {
	// Addr is the address of the plain listener (which offers STARTTLS when TLSConfig is set).
	// Default "127.0.0.1:0": a free port, see IMAPServer.Addr.
	Addr string
	// Users maps user names to passwords. Each user gets DefaultMailboxes. More users can be added
	// later with AddUser.
	Users map[string]string
	// TLSConfig holds the server certificate (see GenerateCA). When set, the plain listener offers
	// STARTTLS.
	TLSConfig *tls.Config
	// ImplicitTLS adds a second listener that speaks TLS from the first byte (IMAPS, like port 993).
	// It needs TLSConfig.
	ImplicitTLS bool
	// TLSAddr is the implicit-TLS listener's address; default "127.0.0.1:0", see IMAPServer.TLSAddr.
	TLSAddr string
	// RequireTLS refuses LOGIN on a connection that is not protected by TLS (LOGINDISABLED until
	// STARTTLS). By default clear-text login is allowed, as Dovecot allows it on loopback.
	RequireTLS bool
	// IMAP4rev2 advertises IMAP4rev2 (which includes IDLE, MOVE, UIDPLUS, ESEARCH, ...), the way
	// go-imap's own examples configure the server. By default the server advertises IMAP4rev1 plus
	// IDLE, MOVE, UIDPLUS, ESEARCH and NAMESPACE, like Dovecot 2.3 does.
	IMAP4rev2 bool
	// NoMove leaves MOVE out of the capabilities, to exercise clients' fallback path. It cannot be
	// combined with IMAP4rev2, of which MOVE is a part.
	NoMove bool
	// NoUIDPlus leaves UIDPLUS out of the capabilities (the server then does not say where COPY and MOVE
	// put the messages). It cannot be combined with IMAP4rev2, of which UIDPLUS is a part.
	NoUIDPlus bool
	// Logger receives the server's per-connection error messages at debug level. The zero value
	// discards them.
	Logger zerolog.Logger
}

// IMAPServer is an in-memory IMAP server on loopback. Its mail survives Stop/Start (only the
// listeners go away), and is gone after Close. All methods are safe for concurrent use.
type IMAPServer struct {
	opts IMAPOptions
	caps imap.CapSet
	mem  *imapmemserver.Server

	mu      sync.Mutex
	users   map[string]*imapUser
	srv     *imapserver.Server // nil while stopped
	lns     []net.Listener     // the running server's listeners
	addr    string             // fixed by the first Start, reused by later ones
	tlsAddr string
	closed  bool

	// inspect serves in-process connections over net.Pipe for List/Messages, so that inspection
	// works while the public listeners are stopped and never needs TLS.
	inspect *imapserver.Server
	pipe    *pipeListener
}

type imapUser struct {
	user     *imapmemserver.User
	password string
}

// StoredMessage is one message as List returns it.
type StoredMessage struct {
	UID   uint32
	Flags []string
	Raw   []byte
}

// StartIMAP starts an IMAP server and returns once it accepts connections.
func StartIMAP(opts IMAPOptions) (*IMAPServer, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.ImplicitTLS {
		if opts.TLSConfig == nil {
			return nil, errors.New("localmail: IMAPOptions.ImplicitTLS needs a TLSConfig")
		}
		if opts.TLSAddr == "" {
			opts.TLSAddr = "127.0.0.1:0"
		}
	}
	if opts.RequireTLS && opts.TLSConfig == nil {
		return nil, errors.New("localmail: IMAPOptions.RequireTLS needs a TLSConfig")
	}
	if opts.IMAP4rev2 && opts.NoMove {
		return nil, errors.New("localmail: IMAPOptions.NoMove cannot be combined with IMAP4rev2")
	}
	if opts.IMAP4rev2 && opts.NoUIDPlus {
		return nil, errors.New("localmail: IMAPOptions.NoUIDPlus cannot be combined with IMAP4rev2")
	}

	caps := imap.CapSet{imap.CapIMAP4rev1: {}}
	if opts.IMAP4rev2 {
		caps[imap.CapIMAP4rev2] = struct{}{}
	} else {
		// IDLE is always advertised to IMAP4rev1 clients by imapserver.
		for _, c := range []imap.Cap{imap.CapNamespace, imap.CapUIDPlus, imap.CapESearch} {
			caps[c] = struct{}{}
		}
		if opts.NoUIDPlus {
			delete(caps, imap.CapUIDPlus)
		}
		if !opts.NoMove {
			caps[imap.CapMove] = struct{}{}
		}
	}

	s := &IMAPServer{
		opts:  opts,
		caps:  caps,
		mem:   imapmemserver.New(),
		users: make(map[string]*imapUser),
		pipe:  newPipeListener(),
	}
	for name, password := range opts.Users {
		if err := s.AddUser(name, password); err != nil {
			return nil, err
		}
	}
	s.inspect = imapserver.New(&imapserver.Options{
		NewSession:   s.newSession,
		Caps:         caps,
		Logger:       printfLogger{log: opts.Logger, server: "imap-inspect"},
		InsecureAuth: true,
	})
	serve(s.inspect, s.pipe)
	if err := s.Start(); err != nil {
		s.inspect.Close()
		s.pipe.Close()
		return nil, err
	}
	return s, nil
}

func (s *IMAPServer) newSession(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
	return s.mem.NewSession(), nil, nil
}

// Addr is the plain (STARTTLS) listener's address, e.g. "127.0.0.1:40123". It stays the same
// across Stop and Start.
func (s *IMAPServer) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// TLSAddr is the implicit-TLS listener's address, or "" without IMAPOptions.ImplicitTLS.
func (s *IMAPServer) TLSAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tlsAddr
}

// AddUser adds a user with DefaultMailboxes. It fails if the user exists.
func (s *IMAPServer) AddUser(name, password string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if _, ok := s.users[name]; ok {
		return fmt.Errorf("localmail: user %q exists", name)
	}
	u := imapmemserver.NewUser(name, password)
	for _, mbox := range DefaultMailboxes {
		if err := u.Create(mbox, nil); err != nil {
			return fmt.Errorf("localmail: creating %s for %q: %w", mbox, name, err)
		}
	}
	s.mem.AddUser(u)
	s.users[name] = &imapUser{user: u, password: password}
	return nil
}

func (s *IMAPServer) user(name string) (*imapUser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	u, ok := s.users[name]
	if !ok {
		return nil, fmt.Errorf("localmail: no user %q", name)
	}
	return u, nil
}

// Start opens the listeners again after Stop, on the same addresses. It does nothing if the server
// is running.
func (s *IMAPServer) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if s.srv != nil {
		return nil
	}
	addr := s.addr
	if addr == "" {
		addr = s.opts.Addr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("localmail: IMAP listener: %w", err)
	}
	lns := []net.Listener{ln}
	if s.opts.ImplicitTLS {
		tlsAddr := s.tlsAddr
		if tlsAddr == "" {
			tlsAddr = s.opts.TLSAddr
		}
		tln, err := net.Listen("tcp", tlsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("localmail: IMAPS listener: %w", err)
		}
		s.tlsAddr = tln.Addr().String()
		lns = append(lns, tln)
	}
	s.addr = ln.Addr().String()

	srv := imapserver.New(&imapserver.Options{
		NewSession:   s.newSession,
		Caps:         s.caps,
		Logger:       printfLogger{log: s.opts.Logger, server: "imap"},
		TLSConfig:    s.opts.TLSConfig,
		InsecureAuth: !s.opts.RequireTLS,
	})
	serve(srv, ln)
	if len(lns) > 1 {
		serve(srv, tls.NewListener(lns[1], s.opts.TLSConfig))
	}
	s.srv, s.lns = srv, lns
	return nil
}

// Stop closes the listeners and drops every connected client, as a crashed or restarted server
// would. The mail stays; Start brings the listeners back on the same addresses.
func (s *IMAPServer) Stop() error {
	s.mu.Lock()
	srv, lns := s.srv, s.lns
	s.srv, s.lns = nil, nil
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	// Close the listeners ourselves too: a Serve goroutine that has not started yet would not be
	// closed by srv.Close and would keep the port.
	for _, ln := range lns {
		ln.Close()
	}
	srv.Close()
	return nil
}

// RestartListener is Stop followed by Start: every client is disconnected and can reconnect to
// the same address at once.
func (s *IMAPServer) RestartListener() error {
	if err := s.Stop(); err != nil {
		return err
	}
	return s.Start()
}

// Close stops the server for good and drops all mail.
func (s *IMAPServer) Close() error {
	err := s.Stop()
	s.mu.Lock()
	already := s.closed
	s.closed = true
	s.mu.Unlock()
	if !already {
		s.pipe.Close()
		s.inspect.Close()
	}
	return err
}

// Deliver puts raw into user's INBOX, as a mail delivery agent would. IDLE clients see EXISTS.
func (s *IMAPServer) Deliver(user string, raw []byte) error {
	_, err := s.Append(user, "INBOX", raw)
	return err
}

// DeliverTo returns a function for SMTPOptions.OnMessage that delivers every accepted message into
// the INBOX of the user route maps each envelope recipient to, the way a local delivery agent would.
// Recipients route does not know are skipped. If a delivery fails, the error makes the SMTP server
// answer 451 and the sender retries the whole message, so recipients delivered before the failure
// get it twice (with the same Message-ID).
func (s *IMAPServer) DeliverTo(route func(rcpt string) (user string, ok bool)) func(from string, to []string, raw []byte) error {
	return func(_ string, to []string, raw []byte) error {
		for _, rcpt := range to {
			if user, ok := route(rcpt); ok {
				if err := s.Deliver(user, raw); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// Append adds raw to one of user's mailboxes and returns its UID.
func (s *IMAPServer) Append(user, mailbox string, raw []byte) (uid uint32, err error) {
	u, err := s.user(user)
	if err != nil {
		return 0, err
	}
	data, err := u.user.Append(mailbox, bytes.NewReader(raw), &imap.AppendOptions{})
	if err != nil {
		return 0, fmt.Errorf("localmail: append to %s of %q: %w", mailbox, user, err)
	}
	return uint32(data.UID), nil
}

// ResetMailbox deletes a mailbox of user and creates it again, empty and with a new UIDVALIDITY, as
// happens when a server's index is rebuilt. Clients that have it selected keep their old view until
// they select it again.
func (s *IMAPServer) ResetMailbox(user, mailbox string) error {
	u, err := s.user(user)
	if err != nil {
		return err
	}
	_ = u.user.Delete(mailbox) // a missing mailbox is fine
	if err := u.user.Create(mailbox, nil); err != nil {
		return fmt.Errorf("localmail: re-creating %s of %q: %w", mailbox, user, err)
	}
	return nil
}

// DeleteMailbox removes one of user's mailboxes with everything in it, as another mail program might.
func (s *IMAPServer) DeleteMailbox(user, mailbox string) error {
	u, err := s.user(user)
	if err != nil {
		return err
	}
	if err := u.user.Delete(mailbox); err != nil {
		return fmt.Errorf("localmail: deleting %s of %q: %w", mailbox, user, err)
	}
	return nil
}

// UIDValidity returns the UIDVALIDITY of one of user's mailboxes.
func (s *IMAPServer) UIDValidity(user, mailbox string) (uint32, error) {
	u, err := s.user(user)
	if err != nil {
		return 0, err
	}
	st, err := u.user.Status(mailbox, &imap.StatusOptions{UIDValidity: true})
	if err != nil {
		return 0, fmt.Errorf("localmail: status of %s of %q: %w", mailbox, user, err)
	}
	return st.UIDValidity, nil
}

// Messages returns the raw messages in one of user's mailboxes, in UID order.
func (s *IMAPServer) Messages(user, mailbox string) ([][]byte, error) {
	msgs, err := s.List(user, mailbox)
	if err != nil {
		return nil, err
	}
	raws := make([][]byte, len(msgs))
	for i, m := range msgs {
		raws[i] = m.Raw
	}
	return raws, nil
}

// List returns the messages in one of user's mailboxes with their UIDs and flags, in UID order.
// It reads through an in-process IMAP connection (EXAMINE, BODY.PEEK[]), so it changes no flag and
// works while the listeners are stopped.
func (s *IMAPServer) List(user, mailbox string) ([]StoredMessage, error) {
	u, err := s.user(user)
	if err != nil {
		return nil, err
	}
	conn, err := s.pipe.dial()
	if err != nil {
		return nil, err
	}
	c := imapclient.New(conn, nil)
	defer c.Close()
	if err := c.Login(user, u.password).Wait(); err != nil {
		return nil, fmt.Errorf("localmail: inspect login: %w", err)
	}
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("localmail: examine %s of %q: %w", mailbox, user, err)
	}
	out := []StoredMessage{}
	if sel.NumMessages > 0 {
		section := &imap.FetchItemBodySection{Peek: true}
		bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
			UID:         true,
			Flags:       true,
			BodySection: []*imap.FetchItemBodySection{section},
		}).Collect()
		if err != nil {
			return nil, fmt.Errorf("localmail: fetch %s of %q: %w", mailbox, user, err)
		}
		for _, b := range bufs {
			m := StoredMessage{UID: uint32(b.UID), Raw: b.FindBodySection(section)}
			for _, f := range b.Flags {
				m.Flags = append(m.Flags, string(f))
			}
			out = append(out, m)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].UID < out[j].UID })
	}
	_ = c.Logout().Wait()
	return out, nil
}

// serve runs srv.Serve(ln) in a goroutine and returns once it is accepting. imapserver (beta.8)
// calls listenerWaitGroup.Add inside Serve, so a Close racing with a Serve that has not got that far
// is a WaitGroup misuse (the race detector reports it); waiting for the first Accept orders them.
func serve(srv *imapserver.Server, ln net.Listener) {
	sl := &startedListener{Listener: ln, started: make(chan struct{})}
	go srv.Serve(sl) //nolint:errcheck // returns nil once the listener is closed
	<-sl.started
}

// startedListener closes started when Accept is first called.
type startedListener struct {
	net.Listener
	once    sync.Once
	started chan struct{}
}

func (l *startedListener) Accept() (net.Conn, error) {
	l.once.Do(func() { close(l.started) })
	return l.Listener.Accept()
}

// pipeListener is a net.Listener whose connections are in-process net.Pipe pairs.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial() (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		server.Close()
		client.Close()
		return nil, ErrClosed
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "in-process" }
