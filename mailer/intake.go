package mailer

// IMAP intake: one persistent connection, a UID cursor per mailbox, BODY.PEEK[] in batches, the
// Handler in UID order, then MOVE (or \Seen) only after the handler has committed (docs/architecture.md,
// invariant 1).
//
// Oversize mail. A message whose RFC822.SIZE exceeds IntakeOptions.MaxSize is not fetched whole:
// the handler gets a Message whose Raw holds only the message's header block (BODY.PEEK[HEADER],
// ending with the empty line), and IsOversize(m) / OversizeOf(m) report it while the handler runs.
// Message itself has no room for the flag, so the intake records it in a small package-level
// registry keyed by the address of the Raw buffer it allocated for that message; the entry exists
// only for the duration of the Handle call. Consequences, all deliberate:
//   - the answer is unforgeable (no header a sender could add turns it on) and exact even with several
//     intakes in one process (two accounts may well both have INBOX, UIDVALIDITY 1, UID 5);
//   - it works on the Message value the handler got and on copies of it (they share Raw), but not on
//     a copy of the bytes, and not after Handle has returned: ask inside Handle;
//   - a handler that never asks sees a message with headers and an empty body, finds no orders in
//     it and rejects it, which is the safe failure.
// The handler should answer such mail with a polite refusal and return Rejected (it can still read
// From, Subject and Message-ID from the headers).

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/rs/zerolog"
)

// Defaults for IntakeOptions.
const (
	DefaultIntakePoll        = 30 * time.Second
	DefaultIntakeIdleRefresh = 25 * time.Minute
	DefaultIntakeBatch       = 100
	DefaultIntakeMaxSize     = 10 << 20 // 10 MiB: orders are a few KiB; this leaves room for a photo of a map
	DefaultIntakeBackoff     = time.Second
	maxIntakeBackoff         = time.Minute

	// intakeFetchBudget bounds how many bytes of message bodies one UID FETCH brings in (a single
	// message up to MaxSize may exceed it on its own).
	intakeFetchBudget = 16 << 20
	intakeDialTimeout = 30 * time.Second
)

// IntakeOptions configures an Intake. Only Addr, Username and Password are required.
type IntakeOptions struct {
	// Addr is the IMAP server, "host:port". Without a port, 993 is used for TLS "tls" and 143
	// otherwise.
	Addr string
	// TLS: "tls" (implicit TLS), "starttls" or "none". Empty means "tls" when the port is 993 and
	// "starttls" otherwise: never clear text unless asked for.
	TLS TLSMode
	// CAFile is a PEM bundle of CAs to verify the server with instead of the system roots.
	CAFile string
	// Username and Password for IMAP LOGIN. They are never logged.
	Username, Password string
	// Mailbox to read; default "INBOX".
	Mailbox string
	// Processed and Rejected are the folders handled mail is moved to; defaults "Processed" and
	// "Rejected". Failed is where mail goes that could not be handled for a reason that will not go away
	// (see Failed); default "Sortie" and the server's hierarchy separator and "Failed", e.g.
	// "Sortie/Failed". They are created if missing. When the server lacks MOVE, handled mail is flagged
	// \Seen and left in Mailbox instead, and the cursor keeps it from being handed over again.
	Processed, Rejected, Failed string
	// Poll is how often the mailbox is searched when the server has no IDLE, and the safety-net
	// wake-up while idling; default 30 s.
	Poll time.Duration
	// IdleRefresh bounds how long one IDLE runs before it is stopped and restarted (servers drop
	// IDLE connections after 30 min); default 25 min. Each restart also searches the mailbox.
	IdleRefresh time.Duration
	// NoIdle polls even when the server offers IDLE (for servers whose IDLE is broken).
	NoIdle bool
	// Batch is how many UIDs one pass fetches at a time; default 100.
	Batch int
	// MaxSize in bytes: larger messages are handed over with their header only, see IsOversize.
	// 0 means DefaultIntakeMaxSize; a negative value means no limit.
	MaxSize int64
	// Backoff is the first delay before reconnecting after a connection error; it doubles up to one
	// minute, and starts again from Backoff once a connection has completed a pass. Default 1 s.
	Backoff time.Duration
	// Logger for connection events and per-message outcomes (fields mailbox, uidvalidity, uid);
	// never message contents or credentials. The zero value logs nothing.
	Logger zerolog.Logger
}

// Intake reads a mailbox and hands each new message to a Handler. See Run and PollOnce.
type Intake struct {
	opts   IntakeOptions
	cursor CursorStore
	h      Handler
	log    zerolog.Logger
	busy   sync.Mutex // one connection at a time: Run and PollOnce exclude each other
	failed string     // the Failed folder's name once known (it may depend on the server's separator)
}

// errIntakeBusy is returned when Run or PollOnce is called while another is running.
var errIntakeBusy = errors.New("mailer: intake already running")

// NewIntake returns an intake that reads opts.Mailbox, keeps its place in cursor and hands messages
// to h. It does not connect; Run and PollOnce do.
func NewIntake(opts IntakeOptions, cursor CursorStore, h Handler) *Intake {
	if opts.Mailbox == "" {
		opts.Mailbox = "INBOX"
	}
	if opts.Processed == "" {
		opts.Processed = "Processed"
	}
	if opts.Rejected == "" {
		opts.Rejected = "Rejected"
	}
	if opts.Poll <= 0 {
		opts.Poll = DefaultIntakePoll
	}
	if opts.IdleRefresh <= 0 {
		opts.IdleRefresh = DefaultIntakeIdleRefresh
	}
	if opts.Batch <= 0 {
		opts.Batch = DefaultIntakeBatch
	}
	if opts.MaxSize == 0 {
		opts.MaxSize = DefaultIntakeMaxSize
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultIntakeBackoff
	}
	return &Intake{
		opts:   opts,
		cursor: cursor,
		h:      h,
		log:    opts.Logger.With().Str("mailbox", opts.Mailbox).Logger(),
	}
}

// Run keeps a connection to the server and hands over new mail as it arrives (IDLE when the server
// has it, polling otherwise, and a poll every IntakeOptions.Poll as a safety net) until ctx is done.
// Any connection error is logged and followed by a reconnect with exponential backoff; no message is
// skipped, because the cursor only moves past a message once it has been handled and moved. Run
// returns nil when ctx is cancelled.
func (in *Intake) Run(ctx context.Context) error {
	if !in.busy.TryLock() {
		return errIntakeBusy
	}
	defer in.busy.Unlock()

	delay := in.opts.Backoff
	for {
		healthy, err := in.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if healthy {
			delay = in.opts.Backoff
		}
		in.log.Warn().Err(err).Dur("retry_in", delay).Msg("imap connection lost; reconnecting")
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		delay = min(2*delay, max(maxIntakeBackoff, in.opts.Backoff))
	}
}

// PollOnce connects, hands over every message that is new since the cursor (stopping early at a
// Retry), logs out and returns how many messages were handled (Processed, Rejected or Failed, and moved).
// It is for tests and `sortie serve --once`.
func (in *Intake) PollOnce(ctx context.Context) (handled int, err error) {
	if !in.busy.TryLock() {
		return 0, errIntakeBusy
	}
	defer in.busy.Unlock()

	ic, err := in.connect(ctx)
	if err != nil {
		return 0, err
	}
	defer ic.close()
	handled, err = in.pass(ctx, ic)
	if err == nil {
		_ = ic.c.Logout().Wait()
	}
	return handled, err
}

// session runs one connection until it fails. healthy reports whether it completed a pass.
func (in *Intake) session(ctx context.Context) (healthy bool, err error) {
	ic, err := in.connect(ctx)
	if err != nil {
		return false, err
	}
	defer ic.close()
	in.log.Info().Uint32("uidvalidity", ic.uidValidity).Bool("idle", ic.idle).Bool("move", ic.move).
		Msg("imap connected")
	for {
		if _, err := in.pass(ctx, ic); err != nil {
			return healthy, err
		}
		healthy = true
		if err := in.wait(ctx, ic); err != nil {
			return healthy, err
		}
	}
}

// intakeConn is one logged-in connection with the mailbox selected.
type intakeConn struct {
	c           *imapclient.Client
	wake        chan struct{} // EXISTS seen; buffered, written without blocking
	stopCancel  func() bool   // detaches the ctx watcher that closes the connection
	idle, move  bool
	uidValidity uint32
}

func (ic *intakeConn) close() {
	ic.stopCancel()
	ic.c.Close()
}

var errIMAPClosed = errors.New("mailer: imap connection closed by the server")

// connect dials, logs in, creates the folders if needed and selects the mailbox. Cancelling ctx
// closes the connection, which makes any command in flight fail at once.
func (in *Intake) connect(ctx context.Context) (*intakeConn, error) {
	host, port, err := splitHostPortDefault(in.opts.Addr, "")
	if err != nil {
		return nil, err
	}
	mode, err := resolveTLSMode(in.opts.TLS, port)
	if err != nil {
		return nil, err
	}
	if port == "" {
		port = "143"
		if mode == TLSImplicit {
			port = "993"
		}
	}
	var tlsCfg *tls.Config
	if mode != TLSNone {
		if tlsCfg, err = clientTLSConfig(host, in.opts.CAFile); err != nil {
			return nil, err
		}
	}

	ic := &intakeConn{wake: make(chan struct{}, 1)}
	opts := &imapclient.Options{
		TLSConfig: tlsCfg,
		// Runs on the client's reader goroutine: it must neither block nor send commands.
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case ic.wake <- struct{}{}:
					default:
					}
				}
			},
		},
	}

	dialer := net.Dialer{Timeout: intakeDialTimeout}
	raw, err := dialer.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("mailer: imap dial: %w", err)
	}
	ic.stopCancel = context.AfterFunc(ctx, func() { raw.Close() })
	fail := func(err error) (*intakeConn, error) {
		ic.stopCancel()
		if ic.c != nil {
			ic.c.Close()
		}
		raw.Close()
		return nil, err
	}
	switch mode {
	case TLSImplicit:
		cfg := tlsCfg.Clone()
		cfg.NextProtos = []string{"imap"}
		tc := tls.Client(raw, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return fail(fmt.Errorf("mailer: imap tls: %w", err))
		}
		ic.c = imapclient.New(tc, opts)
	case TLSStartTLS:
		c, err := imapclient.NewStartTLS(raw, opts)
		if err != nil {
			return fail(fmt.Errorf("mailer: imap starttls: %w", err))
		}
		ic.c = c
	default:
		ic.c = imapclient.New(raw, opts)
	}

	if err := ic.c.Login(in.opts.Username, in.opts.Password).Wait(); err != nil {
		return fail(fmt.Errorf("mailer: imap login as %q: %w", in.opts.Username, err))
	}
	caps := ic.c.Caps() // refreshed after LOGIN
	ic.idle = !in.opts.NoIdle && caps.Has(imap.CapIdle)
	ic.move = caps.Has(imap.CapMove)
	if ic.move {
		if in.failed == "" {
			in.failed = in.opts.Failed
			if in.failed == "" {
				in.failed = "Sortie" + hierarchyDelim(ic.c) + "Failed"
			}
		}
		for _, name := range []string{in.opts.Processed, in.opts.Rejected, in.failed} {
			if err := ensureMailbox(ic.c, name); err != nil {
				return fail(err)
			}
		}
	}
	sel, err := ic.c.Select(in.opts.Mailbox, nil).Wait()
	if err != nil {
		return fail(fmt.Errorf("mailer: imap select %s: %w", in.opts.Mailbox, err))
	}
	ic.uidValidity = sel.UIDValidity
	return ic, nil
}

// hierarchyDelim is the server's hierarchy separator ("/" when it says none).
func hierarchyDelim(c *imapclient.Client) string {
	list, err := c.List("", "", nil).Collect()
	if err == nil && len(list) > 0 && list[0].Delim != 0 {
		return string(list[0].Delim)
	}
	return "/"
}

// FailedFolder is the folder failed mail is moved to, once the intake has connected (it may depend on
// the server's hierarchy separator).
func (in *Intake) FailedFolder() string {
	if in.failed != "" {
		return in.failed
	}
	return in.opts.Failed
}

// ensureMailbox creates name unless it exists.
func ensureMailbox(c *imapclient.Client, name string) error {
	if _, err := c.Status(name, &imap.StatusOptions{UIDValidity: true}).Wait(); err == nil {
		return nil
	}
	if err := c.Create(name, nil).Wait(); err != nil {
		// Maybe another client created it meanwhile.
		if _, err2 := c.Status(name, &imap.StatusOptions{UIDValidity: true}).Wait(); err2 == nil {
			return nil
		}
		return fmt.Errorf("mailer: imap create %s: %w", name, err)
	}
	return nil
}

// wait blocks until there may be new mail: an EXISTS (during IDLE, or seen during the last pass),
// the Poll timer, or the IdleRefresh timer. It returns an error if the connection is gone.
func (in *Intake) wait(ctx context.Context, ic *intakeConn) error {
	select {
	case <-ic.wake: // arrived during the pass
		return nil
	default:
	}
	poll := time.NewTimer(in.opts.Poll)
	defer poll.Stop()
	if !ic.idle {
		select {
		case <-poll.C:
			return nil
		case <-ic.c.Closed():
			return errIMAPClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}

	refresh := time.NewTimer(in.opts.IdleRefresh)
	defer refresh.Stop()
	idle, err := ic.c.Idle()
	if err != nil {
		return fmt.Errorf("mailer: imap idle: %w", err)
	}
	select {
	case <-ic.wake:
	case <-poll.C:
	case <-refresh.C:
	case <-ic.c.Closed():
		return errIMAPClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// No command can be sent while IDLE runs: send DONE, then wait for the server's OK.
	if err := idle.Close(); err != nil {
		return fmt.Errorf("mailer: imap stopping idle: %w", err)
	}
	if err := idle.Wait(); err != nil {
		return fmt.Errorf("mailer: imap idle: %w", err)
	}
	return nil
}

// pass hands every message newer than the cursor to the handler, in UID order. It stops early, with
// a nil error, when the handler asks to retry.
func (in *Intake) pass(ctx context.Context, ic *intakeConn) (handled int, err error) {
	mbox := in.opts.Mailbox
	uv, last, err := in.cursor.LoadCursor(mbox)
	if err != nil {
		return 0, fmt.Errorf("mailer: loading cursor: %w", err)
	}
	if uv != ic.uidValidity {
		if uv != 0 {
			in.log.Warn().Uint32("uidvalidity", ic.uidValidity).Uint32("old_uidvalidity", uv).
				Msg("UIDVALIDITY changed; reading the mailbox again from UID 1")
		}
		uv, last = ic.uidValidity, 0
		if err := in.cursor.SaveCursor(mbox, uv, last); err != nil {
			return 0, fmt.Errorf("mailer: saving cursor: %w", err)
		}
	}

	uids, err := searchAfter(ic.c, last)
	if err != nil {
		return 0, err
	}
	for start := 0; start < len(uids); start += in.opts.Batch {
		batch := uids[start:min(start+in.opts.Batch, len(uids))]
		n, stop, err := in.handleBatch(ctx, ic, uv, batch)
		handled += n
		if err != nil || stop {
			return handled, err
		}
	}
	return handled, nil
}

// searchAfter returns the UIDs greater than last, ascending.
func searchAfter(c *imapclient.Client, last uint32) ([]imap.UID, error) {
	if last == math.MaxUint32 {
		return nil, nil
	}
	crit := &imap.SearchCriteria{UID: []imap.UIDSet{{{Start: imap.UID(last + 1), Stop: 0}}}}
	data, err := c.UIDSearch(crit, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("mailer: imap uid search: %w", err)
	}
	var uids []imap.UID
	for _, uid := range data.AllUIDs() {
		// "n:*" always matches the highest UID, even when it is below n.
		if uint32(uid) > last {
			uids = append(uids, uid)
		}
	}
	slices.Sort(uids)
	return slices.Compact(uids), nil
}

func (in *Intake) oversize(size int64) bool {
	return in.opts.MaxSize > 0 && size > in.opts.MaxSize
}

// handleBatch fetches and handles one batch of UIDs (ascending). stop is true when the pass must end
// here: the handler asked to retry, or a message could not be read.
func (in *Intake) handleBatch(ctx context.Context, ic *intakeConn, uv uint32, uids []imap.UID) (handled int, stop bool, err error) {
	sizes, err := fetchSizes(ic.c, uids)
	if err != nil {
		return 0, true, err
	}
	for i := 0; i < len(uids); {
		// A chunk: consecutive UIDs whose whole bodies fit the fetch budget (at least one).
		j := i
		var sum int64
		var whole []imap.UID
		for ; j < len(uids); j++ {
			size, ok := sizes[uids[j]]
			if !ok || in.oversize(size) {
				continue
			}
			if len(whole) > 0 && sum+size > intakeFetchBudget {
				break
			}
			sum += size
			whole = append(whole, uids[j])
		}
		bodies, err := fetchSection(ic.c, whole, &imap.FetchItemBodySection{Peek: true})
		if err != nil {
			return handled, true, err
		}

		// Read the chunk's messages, then hand them over (together when the handler can take a
		// batch), then move every handled one with one MOVE per folder and save the cursor once.
		var msgs []Message
		var overs []bool
		var msgSizes []int64
		stopAfter := false
		for _, uid := range uids[i:j] {
			if err := ctx.Err(); err != nil {
				return handled, true, err
			}
			log := in.log.With().Uint32("uidvalidity", uv).Uint32("uid", uint32(uid)).Logger()
			size, ok := sizes[uid]
			over := ok && in.oversize(size)
			var raw []byte
			if ok && over {
				hdr, err := fetchSection(ic.c, []imap.UID{uid},
					&imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true})
				if err != nil {
					return handled, true, err
				}
				raw, ok = hdr[uid]
				if ok && len(raw) == 0 {
					raw = []byte("\r\n")
				}
			} else if ok {
				raw, ok = bodies[uid]
			}
			if !ok {
				// Not returned by FETCH: expunged by someone else since the search, or a server
				// fault. Skip it only if it is really gone.
				gone, err := uidGone(ic.c, uid)
				if err != nil {
					return handled, true, err
				}
				if gone {
					log.Info().Msg("message vanished before it could be fetched")
					continue
				}
				log.Error().Msg("server did not return the message; will try again on the next pass")
				stopAfter = true
				break
			}
			msgs = append(msgs, Message{Mailbox: in.opts.Mailbox, UIDValidity: uv, UID: uint32(uid), Raw: raw})
			overs = append(overs, over)
			msgSizes = append(msgSizes, size)
		}
		disps := in.handleAll(ctx, msgs, overs, msgSizes)
		var processed, rejected, failed []imap.UID
		var last uint32
		for k, d := range disps {
			m := msgs[k]
			log := in.log.With().Uint32("uidvalidity", uv).Uint32("uid", m.UID).Logger()
			if !d.handled() {
				log.Info().Stringer("disposition", d).
					Msg("handler asked to retry; leaving it and what follows for the next pass")
				stopAfter = true
				break
			}
			switch d {
			case Processed:
				processed = append(processed, imap.UID(m.UID))
			case Rejected:
				rejected = append(rejected, imap.UID(m.UID))
			default:
				failed = append(failed, imap.UID(m.UID))
			}
			last = m.UID
			ev := log.Info().Stringer("disposition", d).Int64("size", msgSizes[k])
			if overs[k] {
				ev = ev.Bool("oversize", true)
			}
			ev.Msg("message handled")
		}
		if err := in.dispose(ic, processed, Processed, in.log); err != nil {
			// The effects are committed but the messages are still in the mailbox: they will be
			// handed over again after the reconnect, and the handler deduplicates them.
			return handled, true, err
		}
		if err := in.dispose(ic, rejected, Rejected, in.log); err != nil {
			return handled, true, err
		}
		if err := in.dispose(ic, failed, Failed, in.log); err != nil {
			return handled, true, err
		}
		if last != 0 {
			if err := in.cursor.SaveCursor(in.opts.Mailbox, uv, last); err != nil {
				return handled, true, fmt.Errorf("mailer: saving cursor: %w", err)
			}
		}
		handled += len(processed) + len(rejected) + len(failed)
		if stopAfter {
			return handled, true, nil
		}
		i = j
	}
	return handled, false, nil
}

// handleAll hands a chunk of messages to the handler: as one batch when it is a BatchHandler and no
// message is oversize (the oversize mark lives only during its own call), else one by one, stopping at
// the first Retry. It returns the dispositions of the messages it handed over, in order.
func (in *Intake) handleAll(ctx context.Context, msgs []Message, overs []bool, sizes []int64) []Disposition {
	if bh, ok := in.h.(BatchHandler); ok && len(msgs) > 1 && !slices.Contains(overs, true) {
		return bh.HandleBatch(ctx, msgs)
	}
	var out []Disposition
	for k, m := range msgs {
		d := in.handle(ctx, m, overs[k], sizes[k])
		out = append(out, d)
		if !d.handled() {
			break
		}
	}
	return out
}

// handle calls the handler, with the oversize registry entry in place for oversize messages.
func (in *Intake) handle(ctx context.Context, m Message, over bool, size int64) Disposition {
	if over {
		defer registerOversize(m.Raw, size)()
	}
	return in.h.Handle(ctx, m)
}

// dispose moves handled messages to their folder with one command, or flags them \Seen when the
// server cannot MOVE. A refusal by the server (NO/BAD) is logged and tolerated: the cursor already keeps
// the messages from being handed over again. Other errors mean the connection is in trouble and are
// returned.
func (in *Intake) dispose(ic *intakeConn, uids []imap.UID, disp Disposition, log zerolog.Logger) error {
	if len(uids) == 0 {
		return nil
	}
	var imapErr *imap.Error
	if ic.move {
		dest := in.opts.Processed
		switch disp {
		case Rejected:
			dest = in.opts.Rejected
		case Failed:
			dest = in.failed
		}
		_, err := ic.c.Move(imap.UIDSetNum(uids...), dest).Wait()
		if err == nil {
			return nil
		}
		if !errors.As(err, &imapErr) {
			return fmt.Errorf("mailer: imap move: %w", err)
		}
		log.Error().Err(err).Str("folder", dest).Msg("server refused MOVE; flagging the messages \\Seen instead")
	}
	err := ic.c.Store(imap.UIDSetNum(uids...), &imap.StoreFlags{
		Op:     imap.StoreFlagsAdd,
		Silent: true,
		Flags:  []imap.Flag{imap.FlagSeen},
	}, nil).Close()
	if err != nil {
		if !errors.As(err, &imapErr) {
			return fmt.Errorf("mailer: imap store: %w", err)
		}
		log.Error().Err(err).Msg("server refused to flag the messages \\Seen; they stay in the mailbox")
	}
	return nil
}

// fetchSizes returns RFC822.SIZE by UID for the messages that still exist.
func fetchSizes(c *imapclient.Client, uids []imap.UID) (map[imap.UID]int64, error) {
	bufs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailer: imap fetch sizes: %w", err)
	}
	sizes := make(map[imap.UID]int64, len(bufs))
	for _, b := range bufs {
		if b.UID != 0 {
			sizes[b.UID] = b.RFC822Size
		}
	}
	return sizes, nil
}

// fetchSection fetches one body section (always a PEEK) of each UID. A message the server does not
// return is missing from the map; a returned section is never nil.
func fetchSection(c *imapclient.Client, uids []imap.UID, section *imap.FetchItemBodySection) (map[imap.UID][]byte, error) {
	out := make(map[imap.UID][]byte, len(uids))
	if len(uids) == 0 {
		return out, nil
	}
	bufs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID:         true,
		BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailer: imap fetch: %w", err)
	}
	for _, b := range bufs {
		if b.UID == 0 || len(b.BodySection) == 0 {
			continue
		}
		data := b.FindBodySection(section)
		if data == nil {
			data = []byte{}
		}
		out[b.UID] = data
	}
	return out, nil
}

// uidGone reports whether uid no longer exists in the selected mailbox.
func uidGone(c *imapclient.Client, uid imap.UID) (bool, error) {
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{imap.UIDSetNum(uid)}}, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("mailer: imap uid search: %w", err)
	}
	return !slices.Contains(data.AllUIDs(), uid), nil
}

// oversizeRegistry maps the first byte of the Raw buffer of an oversize message to its size while
// the handler runs. See the comment at the top of this file.
var oversizeRegistry = struct {
	sync.Mutex
	m map[*byte]int64
}{m: make(map[*byte]int64)}

func registerOversize(raw []byte, size int64) (unregister func()) {
	key := &raw[0]
	oversizeRegistry.Lock()
	oversizeRegistry.m[key] = size
	oversizeRegistry.Unlock()
	return func() {
		oversizeRegistry.Lock()
		delete(oversizeRegistry.m, key)
		oversizeRegistry.Unlock()
	}
}

// IsOversize reports whether the intake handed m over with only its header block in Raw because
// the message is larger than IntakeOptions.MaxSize. Call it from within Handler.Handle, on the
// Message received (or a copy of it); afterwards it reports false. The handler should refuse such
// mail politely and return Rejected.
func IsOversize(m Message) bool {
	_, ok := OversizeOf(m)
	return ok
}

// OversizeOf is IsOversize that also returns the message's full size in bytes (RFC822.SIZE), for
// the refusal text.
func OversizeOf(m Message) (size int64, ok bool) {
	if len(m.Raw) == 0 {
		return 0, false
	}
	oversizeRegistry.Lock()
	defer oversizeRegistry.Unlock()
	size, ok = oversizeRegistry.m[&m.Raw[0]]
	return size, ok
}
