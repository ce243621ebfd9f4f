package mailer

// SMTP sender: delivers the transactional outbox (invariant 2, docs/architecture.md) with go-mail over
// one authenticated connection, kept open between passes (with a NOOP now and then) for KeepOpen, so
// that a turn's reports do not wait for a new connection, STARTTLS and AUTH; a kept connection that has
// died is replaced at once.
//
// Exactly-once, and the window where it is only at-least-once. An item is marked sent right after
// the SMTP server accepted it (250 after DATA) and is never offered again after that, so a restart
// does not resend mail. Two windows remain in which the same message can go out twice, both with the
// same Message-ID, so a recipient's mail client or our own intake recognises the duplicate:
//   - the process dies (or MarkSent fails) between the server's 250 and MarkSent committing;
//   - the connection breaks after the server took the final "." of DATA but before its 250 reached
//     us: the server may have queued the message while we record a failure and try again later.
// Closing these would need a two-phase handshake SMTP does not have; both are narrow (one message
// per crash or broken connection).
//
// Every item the sender takes from Pending ends the pass either marked sent or marked failed (a
// connection that cannot be opened, or breaks, fails each remaining item of the batch with an error
// wrapping ErrSMTPUnavailable), except when the context is cancelled mid-pass or MarkSent fails.

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	mail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	"sortie/mailer/outmail"
)

// Defaults for SenderOptions.
const (
	DefaultSenderBatch   = 50
	DefaultSenderPoll    = 2 * time.Second
	DefaultSenderBackoff = time.Second
	DefaultSenderKeep    = 2 * time.Minute
	DefaultSenderFresh   = 5 * time.Second
	// senderKeepAlive is how often an idle kept connection is sent a NOOP: well inside servers' idle
	// timeouts (Postfix: 300 s; RFC 5321 asks for at least 5 minutes), and few enough not to count as a
	// client wasting the server's time (Postfix's smtpd_junk_command_limit is 100).
	senderKeepAlive   = 30 * time.Second
	maxSenderBackoff  = 5 * time.Minute
	senderDialTimeout = 30 * time.Second
	senderCmdTimeout  = 30 * time.Second
	// senderStopGrace is how long a stop waits for the server's answer to the message on the wire.
	senderStopGrace = 5 * time.Second
)

// ErrSMTPUnavailable wraps the error given to Outbox.MarkFailed when a message could not be sent
// because the SMTP server could not be reached or the connection broke (as opposed to the server
// refusing that one message). A store can use errors.Is to keep such failures out of a
// give-up-after-N-attempts count.
var ErrSMTPUnavailable = errors.New("mailer: SMTP server unavailable")

// SenderOptions configures a Sender. Host is required.
type SenderOptions struct {
	// Host and Port of the SMTP submission server. Port 0 means 465 for TLS "tls" and 587 otherwise.
	Host string
	Port int
	// TLS: "starttls" (mandatory STARTTLS), "tls" (implicit TLS) or "none". Empty means "tls" on port
	// 465 and "starttls" otherwise: never clear text unless asked for.
	TLS TLSMode
	// CAFile is a PEM bundle of CAs to verify the server with instead of the system roots.
	CAFile string
	// Username and Password for SMTP AUTH PLAIN; no AUTH when Username is empty. Over TLS "none",
	// go-mail only sends them to localhost.
	Username, Password string
	// FromName is the service's display name in From, e.g. "Sortie".
	FromName string
	// Batch is how many messages one connection sends at most; default 50.
	Batch int
	// Poll is how often Run looks at the outbox when nothing kicks it; default 2 s.
	Poll time.Duration
	// Backoff is the first delay after a failed connection; it doubles up to 5 min and starts over
	// after a pass without connection trouble. Default 1 s.
	Backoff time.Duration
	// KeepOpen is how long Run keeps the connection open after its last use, sending a NOOP every 30 s,
	// so the next mail goes out at once (Warm keeps it longer, or opens one ahead). Default 2 min; a
	// negative value closes it after every pass.
	KeepOpen time.Duration
	// FreshConn: a kept connection used this recently is taken without a NOOP first to ask whether it is
	// alive (if it died all the same, its first MAIL FROM fails and it is replaced then). Default 5 s; a
	// negative value always asks.
	FreshConn time.Duration
	// DKIM, if set, signs every mail as it is sent (dkim.go): the bytes on the wire are the rendered
	// mail with a DKIM-Signature field on top.
	DKIM *DKIM
	// OnAccepted, if set, is called as the server accepts each mail (before it is recorded), with its
	// outbox ID: for measurements.
	OnAccepted func(id string)
	// Logger for connection events and per-message outcomes (id, message_id, to); never bodies or
	// credentials. The zero value logs nothing.
	Logger zerolog.Logger
}

// Sender delivers the outbox over SMTP. See Run, Kick, Warm and SendOnce.
type Sender struct {
	opts SenderOptions
	box  Outbox
	log  zerolog.Logger
	kick chan struct{}
	warm chan time.Duration
	busy sync.Mutex // Run and SendOnce exclude each other

	// Run's kept connection (only Run's goroutine touches these).
	conn      *smtpConn
	keepUntil time.Time
}

var errSenderBusy = errors.New("mailer: sender already running")

// NewSender returns a sender for box. It does not connect; Run and SendOnce do.
func NewSender(opts SenderOptions, box Outbox) *Sender {
	if opts.Batch <= 0 {
		opts.Batch = DefaultSenderBatch
	}
	if opts.Poll <= 0 {
		opts.Poll = DefaultSenderPoll
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultSenderBackoff
	}
	if opts.KeepOpen == 0 {
		opts.KeepOpen = DefaultSenderKeep
	}
	if opts.FreshConn == 0 {
		opts.FreshConn = DefaultSenderFresh
	}
	return &Sender{
		opts: opts,
		box:  box,
		log:  opts.Logger.With().Str("smtp_host", opts.Host).Logger(),
		kick: make(chan struct{}, 1),
		warm: make(chan time.Duration, 1),
	}
}

// Warm asks Run to have a connection open within moments and to keep it for at least d, for when mail
// is expected soon (a round one order from complete): the next pass then spends nothing on connecting,
// STARTTLS and AUTH. It never blocks; with KeepOpen negative it does nothing.
func (s *Sender) Warm(d time.Duration) {
	if s.opts.KeepOpen < 0 || d <= 0 {
		return
	}
	select {
	case s.warm <- d:
	default:
		// One is pending; a longer one replaces it.
		select {
		case old := <-s.warm:
			d = max(d, old)
		default:
		}
		select {
		case s.warm <- d:
		default:
		}
	}
}

// Kick wakes Run now instead of at the next poll, e.g. right after a commit queued mail. It never
// blocks. A kick does not cut short the backoff after a failed connection.
func (s *Sender) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Run delivers pending mail until ctx is done: MarkSent right after each accepted message, MarkFailed
// for each message that failed; after a connection failure it backs off. Between passes it keeps the
// connection open for KeepOpen (or as long as Warm asked), with a NOOP every 30 s. It returns nil when ctx
// is cancelled.
func (s *Sender) Run(ctx context.Context) error {
	if !s.busy.TryLock() {
		return errSenderBusy
	}
	defer s.busy.Unlock()
	defer s.hangUp()

	delay := s.opts.Backoff
	for {
		sent, err := s.pass(ctx, true)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			s.log.Warn().Err(err).Dur("retry_in", delay).Msg("smtp pass failed; backing off")
			s.hangUp()
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
			}
			delay = min(2*delay, max(maxSenderBackoff, s.opts.Backoff))
			continue
		}
		delay = s.opts.Backoff
		if sent == s.opts.Batch {
			continue // a full batch went out: there may be more
		}
		if !s.idle(ctx) {
			return nil
		}
	}
}

// idle waits for a kick or the poll, tending the kept connection meanwhile: a NOOP every
// senderKeepAlive, closed once its time is up, opened when Warm asks. It returns false when ctx is done.
func (s *Sender) idle(ctx context.Context) bool {
	poll := time.NewTimer(s.opts.Poll)
	defer poll.Stop()
	keepAlive := time.NewTimer(time.Hour)
	defer keepAlive.Stop()
	for {
		keepAlive.Stop()
		var tend <-chan time.Time
		if s.conn != nil {
			next := min(time.Until(s.conn.lastUsed.Add(senderKeepAlive)), time.Until(s.keepUntil))
			keepAlive.Reset(max(next, 0))
			tend = keepAlive.C
		}
		select {
		case <-ctx.Done():
			return false
		case <-s.kick:
			return true
		case <-poll.C:
			return true
		case d := <-s.warm:
			if until := time.Now().Add(d); until.After(s.keepUntil) {
				s.keepUntil = until
			}
			if s.conn == nil {
				conn, err := s.dial(ctx)
				if err != nil {
					s.log.Debug().Err(err).Msg("smtp: could not open a connection ahead; the next pass tries again")
					continue
				}
				s.conn = conn
			}
		case <-tend:
			if time.Now().After(s.keepUntil) {
				s.hangUp()
				continue
			}
			if err := s.conn.noop(); err != nil {
				s.log.Debug().Err(err).Msg("smtp: the kept connection is gone")
				s.hangUp()
			}
		}
	}
}

// hangUp closes the kept connection, if any.
func (s *Sender) hangUp() {
	if s.conn != nil {
		s.conn.close()
		s.conn = nil
	}
}

// SendOnce sends what is pending now and returns how many messages the server accepted. It keeps
// taking batches while each one went out completely and was full; it stops at the first failure and
// returns the connection (or outbox) error, if any. For tests and the demo.
func (s *Sender) SendOnce(ctx context.Context) (sent int, err error) {
	if !s.busy.TryLock() {
		return 0, errSenderBusy
	}
	defer s.busy.Unlock()
	for {
		n, err := s.pass(ctx, false)
		sent += n
		if err != nil || n < s.opts.Batch {
			return sent, err
		}
	}
}

// pass sends one batch and returns how many were accepted. The error is non-nil for trouble with the
// connection or the outbox, not for a message the server refused. With keep, it uses Run's kept
// connection (opening one if there is none) and leaves it open; without, it opens its own and closes it.
func (s *Sender) pass(ctx context.Context, keep bool) (sent int, err error) {
	items, err := s.box.Pending(time.Now(), s.opts.Batch)
	if err != nil {
		return 0, fmt.Errorf("mailer: outbox: %w", err)
	}
	if len(items) == 0 {
		return 0, nil
	}
	conn, reused := s.conn, s.conn != nil
	if keep && reused && time.Since(conn.lastUsed) > s.opts.FreshConn {
		// A kept connection may have died while it waited (the server's idle timeout, a restart): ask
		// it once, and open a new one if it does not answer. (One used moments ago is taken as it is; if
		// it died all the same, its first MAIL FROM fails and it is replaced then.)
		if err := conn.noop(); err != nil {
			s.log.Debug().Err(err).Msg("smtp: the kept connection is gone; reconnecting")
			s.hangUp()
			conn, reused = nil, false
		}
	}
	if !keep || conn == nil {
		reused = false
		if conn, err = s.dial(ctx); err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			err = fmt.Errorf("%w: %w", ErrSMTPUnavailable, err)
			s.failAll(items, err)
			return 0, err
		}
	}
	if keep {
		s.conn = conn
		if until := time.Now().Add(s.opts.KeepOpen); until.After(s.keepUntil) {
			s.keepUntil = until
		}
		if s.opts.KeepOpen < 0 {
			defer s.hangUp()
		}
	} else {
		defer conn.close()
	}

	// Accepted mails are recorded by a committer goroutine, several to a commit when the server is
	// faster than the disk, while the next message is sent. The window in which a mail is accepted but
	// not yet recorded stays about one message long; a resend after a crash in it carries the same
	// Message-ID.
	marks := newMarker(s.box, s.log)
	defer func() {
		if merr := marks.close(); merr != nil && err == nil {
			err = merr
		}
	}()

	for i := 0; i < len(items); i++ {
		item := items[i]
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		log := s.log.With().Str("id", item.ID).Str("message_id", item.MessageID).Str("to", item.To).Logger()
		from, to, data, err := s.build(item, log)
		if err != nil {
			log.Error().Err(err).Msg("cannot build message")
			s.markFailed(item, err)
			continue
		}
		if err := conn.send(from, to, data); err != nil {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			if connectionLost(err) {
				if reused && notAttempted(err) {
					// The kept connection died between the check and the message (MAIL FROM found it
					// closed): the message was not attempted. Open a new one and send it again.
					log.Debug().Err(err).Msg("smtp: the kept connection is gone; reconnecting")
					s.hangUp()
					reused = false
					if conn, err = s.dial(ctx); err == nil {
						s.conn = conn
						i--
						continue
					}
				}
				err = fmt.Errorf("%w: %w", ErrSMTPUnavailable, err)
				s.failAll(items[i:], err)
				return sent, err
			}
			log.Warn().Err(err).Msg("message refused")
			s.markFailed(item, err)
			continue
		}
		reused = false // this connection works: a later failure on it is an outage
		if s.opts.OnAccepted != nil {
			s.opts.OnAccepted(item.ID)
		}
		if err := marks.add(item.ID); err != nil {
			// Accepted by the server but not recorded: it will go out again (same Message-ID).
			log.Error().Err(err).Msg("message sent but MarkSent failed; it may be sent twice")
			return sent, fmt.Errorf("mailer: outbox mark sent: %w", err)
		}
		sent++
		log.Info().Msg("message sent")
	}
	return sent, nil
}

func (s *Sender) markFailed(item OutgoingMail, err error) {
	if merr := s.box.MarkFailed(item.ID, err, time.Now()); merr != nil {
		s.log.Error().Err(merr).Str("id", item.ID).Msg("outbox mark failed")
	}
}

func (s *Sender) failAll(items []OutgoingMail, err error) {
	for _, item := range items {
		s.markFailed(item, err)
	}
}

// The stages of one mail's SMTP transaction, as a sendError names them.
const (
	stageConn      = "connection"
	stageMailFrom  = "MAIL FROM"
	stageRcptTo    = "RCPT TO"
	stageData      = "DATA"
	stageWrite     = "message"
	stageDataClose = "end of DATA"
)

// sendError is a failed SMTP transaction: the stage it failed at, and what the server (or the
// connection) said.
type sendError struct {
	stage string
	err   error
}

func (e *sendError) Error() string { return "smtp " + e.stage + ": " + e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

// code is the server's reply code, 0 when there was no reply (the connection broke).
func (e *sendError) code() int {
	var te *textproto.Error
	if errors.As(e.err, &te) {
		return te.Code
	}
	return 0
}

// connectionLost reports whether a send error means the connection is unusable: the connection check
// failed (the message was not attempted), the server said 421 (closing the channel), or a command of the
// transaction got no answer at all (a broken connection, not a refusal).
func connectionLost(err error) bool {
	var se *sendError
	if !errors.As(err, &se) {
		return true
	}
	return se.stage == stageConn || se.code() == 421 || se.code() == 0
}

// notAttempted reports whether a send error came before the message was offered: the connection check
// failed, or MAIL FROM got no answer or a 421 (the server closing an idle connection).
func notAttempted(err error) bool {
	var se *sendError
	if !errors.As(err, &se) {
		return false
	}
	return se.stage == stageConn || se.stage == stageMailFrom && (se.code() == 0 || se.code() == 421)
}

// smtpConn is one authenticated connection.
type smtpConn struct {
	c        *mail.Client
	sc       *smtp.Client
	hangUp   func()
	lastUsed time.Time
}

var errNoConnection = errors.New("no connection")

// send sends one rendered message: MAIL, RCPT, DATA, and nothing else (no NOOP before, no RSET after,
// as go-mail's WithoutNoop and WithoutRset). After a refused MAIL or RCPT it resets the transaction.
func (c *smtpConn) send(from, to string, data []byte) error {
	c.lastUsed = time.Now()
	if !c.sc.HasConnection() {
		return &sendError{stageConn, errNoConnection}
	}
	if err := c.sc.UpdateDeadline(senderCmdTimeout); err != nil {
		return &sendError{stageConn, err}
	}
	if err := c.sc.Mail("<" + from + ">"); err != nil {
		_ = c.sc.Reset()
		return &sendError{stageMailFrom, err}
	}
	if err := c.sc.Rcpt("<" + to + ">"); err != nil {
		_ = c.sc.Reset()
		return &sendError{stageRcptTo, err}
	}
	w, err := c.sc.Data()
	if err != nil {
		return &sendError{stageData, err}
	}
	if _, err := w.Write(data); err != nil {
		return &sendError{stageWrite, err}
	}
	if err := w.Close(); err != nil {
		return &sendError{stageDataClose, err}
	}
	return nil
}

// noop keeps an idle connection alive, and tells whether it still is.
func (c *smtpConn) noop() error {
	c.lastUsed = time.Now()
	if err := c.sc.UpdateDeadline(senderCmdTimeout); err != nil {
		return err
	}
	return c.sc.Noop()
}

// close sends QUIT and closes the connection.
func (c *smtpConn) close() { c.hangUp() }

// dial opens one connection, with STARTTLS or implicit TLS and AUTH as configured.
func (s *Sender) dial(ctx context.Context) (*smtpConn, error) {
	port := s.opts.Port
	mode, err := resolveTLSMode(s.opts.TLS, strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	if port == 0 {
		port = 587
		if mode == TLSImplicit {
			port = 465
		}
	}
	var tlsCfg *tls.Config
	if mode != TLSNone {
		if tlsCfg, err = clientTLSConfig(s.opts.Host, s.opts.CAFile); err != nil {
			return nil, err
		}
	}

	// Our own dial function, so that a connection that fails after the greeting (EHLO, STARTTLS,
	// AUTH) is closed (go-mail leaves it open), and for implicit TLS with our tls.Config.
	var mu sync.Mutex
	var conn net.Conn
	dialFn := func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: senderDialTimeout}
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if mode == TLSImplicit {
			tc := tls.Client(c, tlsCfg)
			if err := tc.HandshakeContext(ctx); err != nil {
				c.Close()
				return nil, err
			}
			c = tc
		}
		mu.Lock()
		conn = c
		mu.Unlock()
		return c, nil
	}
	closeConn := func() {
		mu.Lock()
		defer mu.Unlock()
		if conn != nil {
			conn.Close()
		}
	}

	opts := []mail.Option{
		mail.WithPort(port),
		mail.WithDialContextFunc(dialFn),
		mail.WithTimeout(senderCmdTimeout),
		// No NOOP before and no RSET after every message: a mail is MAIL, RCPT, DATA and nothing else. The
		// connection is checked when a pass takes it up again (smtpConn.noop).
		mail.WithoutNoop(),
		mail.WithoutRset(),
	}
	switch mode {
	case TLSNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	case TLSStartTLS:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory), mail.WithTLSConfig(tlsCfg))
	case TLSImplicit:
		// The TLS handshake happens in dialFn; WithSSL tells go-mail not to try STARTTLS on top.
		opts = append(opts, mail.WithSSL(), mail.WithTLSConfig(tlsCfg))
	}
	if s.opts.Username != "" {
		opts = append(opts,
			mail.WithSMTPAuth(mail.SMTPAuthPlain),
			mail.WithUsername(s.opts.Username),
			mail.WithPassword(s.opts.Password))
	}
	client, err := mail.NewClient(s.opts.Host, opts...)
	if err != nil {
		return nil, err
	}
	sc, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		closeConn()
		return nil, err
	}
	// A stop lets the message on the wire finish (the loop sends no other after it), so a mail the server
	// takes is also recorded; only a server that does not answer within the grace is cut off.
	var grace atomic.Pointer[time.Timer]
	stop := context.AfterFunc(ctx, func() { grace.Store(time.AfterFunc(senderStopGrace, closeConn)) })
	return &smtpConn{c: client, sc: sc, lastUsed: time.Now(), hangUp: func() {
		stop()
		if t := grace.Load(); t != nil {
			t.Stop()
		}
		if err := client.CloseWithSMTPClient(sc); err != nil {
			s.log.Debug().Err(err).Msg("smtp quit")
		}
		closeConn()
	}}, nil
}

// build renders an outbox item (outmail.Render: the bytes the archive keeps too) and its envelope, and
// signs it when DKIM is configured: at send time, so the signature is always made with the key
// published now, also for a mail that waited in the outbox (docs/architecture.md, "One mail model").
func (s *Sender) build(item OutgoingMail, log zerolog.Logger) (from, to string, data []byte, err error) {
	for _, k := range outmail.IgnoredHeaders(item.Mail) {
		log.Warn().Str("header", k).Msg("extra header ignored")
	}
	if from, to, err = outmail.Envelope(item.Mail); err != nil {
		return "", "", nil, fmt.Errorf("mailer: outgoing mail %s: %w", item.ID, err)
	}
	if data, err = outmail.Render(item.Mail, s.opts.FromName); err != nil {
		return "", "", nil, fmt.Errorf("mailer: outgoing mail %s: %w", item.ID, err)
	}
	if s.opts.DKIM != nil {
		if data, err = s.opts.DKIM.Sign(data); err != nil {
			return "", "", nil, fmt.Errorf("mailer: outgoing mail %s: %w", item.ID, err)
		}
	}
	return from, to, data, nil
}

// marker records sent mails: through a background goroutine with group commits when the outbox is a
// BatchMarker, else one MarkSent at a time in the caller.
type marker struct {
	box  Outbox
	bm   BatchMarker
	log  zerolog.Logger
	ch   chan string
	done chan struct{}
	mu   sync.Mutex
	err  error
}

func newMarker(box Outbox, log zerolog.Logger) *marker {
	m := &marker{box: box, log: log}
	bm, ok := box.(BatchMarker)
	if !ok {
		return m
	}
	m.bm = bm
	m.ch = make(chan string, 256)
	m.done = make(chan struct{})
	go m.run()
	return m
}

func (m *marker) run() {
	defer close(m.done)
	for id := range m.ch {
		ids := []string{id}
	drain:
		for {
			select {
			case more, ok := <-m.ch:
				if !ok {
					break drain
				}
				ids = append(ids, more)
			default:
				break drain
			}
		}
		if err := m.bm.MarkSentMany(ids, time.Now()); err != nil {
			m.log.Error().Err(err).Strs("ids", ids).Msg("messages sent but not recorded; they may be sent twice")
			m.mu.Lock()
			if m.err == nil {
				m.err = fmt.Errorf("mailer: outbox mark sent: %w", err)
			}
			m.mu.Unlock()
		}
	}
}

// add records one accepted mail; it reports an earlier background failure, which stops the pass.
func (m *marker) add(id string) error {
	if m.bm == nil {
		return m.box.MarkSent(id, time.Now())
	}
	m.mu.Lock()
	err := m.err
	m.mu.Unlock()
	if err != nil {
		return err
	}
	m.ch <- id
	return nil
}

// close waits until every accepted mail is recorded.
func (m *marker) close() error {
	if m.bm == nil {
		return nil
	}
	close(m.ch)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}
