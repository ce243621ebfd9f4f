package mailer

// IMAP intake: one persistent connection, a UID cursor per mailbox, one UID FETCH of the new messages'
// sizes and one streamed UID FETCH BODY.PEEK[] of them, the Handler in UID order on batches that follow
// what has arrived, then MOVE (or \Seen) only after the handler has committed, or, for a backlog, once
// the mail is held in the cursor store's spool (intake_spool.go; docs/architecture.md, invariant 1).
// The connection and the waiting between passes are in intake_conn.go, the streamed FETCH in
// intake_fetch.go, the filing in intake_file.go.
//
// Oversize mail. A message whose RFC822.SIZE exceeds IntakeOptions.MaxSize is not fetched whole:
// the handler gets a Message whose Raw holds only the message's header block (BODY.PEEK[HEADER],
// ending with the empty line), with HeaderOnly set and Size the whole message's size.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/rs/zerolog"
)

// Defaults for IntakeOptions.
const (
	DefaultIntakePoll        = 30 * time.Second
	DefaultIntakeIdleRefresh = 25 * time.Minute
	DefaultIntakeBatch       = 250
	DefaultIntakeMaxSize     = 10 << 20 // 10 MiB: orders are a few KiB; this leaves room for a photo of a map
	DefaultIntakeBackoff     = time.Second
	DefaultIntakeHotPoll     = 10 * time.Millisecond
	DefaultIntakeLinger      = 2 * time.Millisecond
	DefaultIntakeSpoolMin    = 16
	maxIntakeBackoff         = time.Minute

	// intakeFetchBudget bounds how many bytes of message bodies one UID FETCH brings in (a single
	// message up to MaxSize may exceed it on its own).
	intakeFetchBudget = 16 << 20
	// intakeFirstBatch: the first batch of a streamed group waits for this many messages (or all the group
	// has, or Batch, if fewer), but no longer than IntakeOptions.Linger, before the handler starts.
	intakeFirstBatch  = 32
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
	// HotPoll is how often the mailbox is checked with a NOOP while the intake is hot (see Intake.Hot):
	// when a mail is expected soon, polling sees it within HotPoll of its delivery, where IDLE may wait
	// for the server (Dovecot tells an IDLE client of new mail half a second after it arrived). Default
	// 10 ms; a negative value never polls hot (IDLE, or Poll, always).
	HotPoll time.Duration
	// Batch is the most messages handed to the handler at once (one commit for a BatchHandler); default
	// 250. The batches follow the mailbox: whenever the handler is free it gets every message that has
	// arrived (at most Batch) while the rest still streams in, so one message when mail trickles in and
	// larger batches as a backlog streams. Handled messages are moved while the handler works on the
	// next ones, once the server has sent the fetched group.
	Batch int
	// MaxSize in bytes: larger messages are handed over with their header only (Message.HeaderOnly).
	// 0 means DefaultIntakeMaxSize; a negative value means no limit.
	MaxSize int64
	// Linger is how long the first batch of a long streamed group may wait, from its first message, for
	// more to arrive before the handler starts on it; default 2 ms. The stream brings a message every few
	// tens of microseconds while a commit costs about a millisecond, so a first batch of one or two
	// messages would cost more than the wait.
	Linger time.Duration
	// SpoolMin is the smallest group of new messages that goes through the spool (when the cursor store
	// is a Spool and the server has MOVE and UIDPLUS); default 16. A message or two arriving alone gain
	// nothing from it, and would pay one more commit before their answer. A negative value never spools.
	SpoolMin int
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
	// foldersReady: a connection has found or made the folders; later ones do not ask again (a folder
	// deleted since is made again when a MOVE to it says TRYCREATE).
	foldersReady bool
	// hotUntil is the end of the hot window (unix nanoseconds; 0: cold), heat wakes a waiting Run when
	// Hot moved it.
	hotUntil atomic.Int64
	heat     chan struct{}
}

// Hot makes the intake check the mailbox every HotPoll for the next d, instead of waiting on IDLE, for
// when a mail is expected soon: the last order of a round, say. It never shortens a window already set,
// never blocks, and is safe to call from any goroutine (e.g. a commit hook).
func (in *Intake) Hot(d time.Duration) {
	if in.opts.HotPoll < 0 || d <= 0 {
		return
	}
	until := time.Now().Add(d).UnixNano()
	for {
		cur := in.hotUntil.Load()
		if cur >= until {
			return
		}
		if in.hotUntil.CompareAndSwap(cur, until) {
			break
		}
	}
	select {
	case in.heat <- struct{}{}:
	default:
	}
}

// hot reports whether the intake is in a hot window.
func (in *Intake) hot() bool { return time.Now().UnixNano() < in.hotUntil.Load() }

// IsHot reports whether the intake is in a hot window now: it checks the mailbox every HotPoll rather
// than waiting on IDLE or Poll. Safe from any goroutine.
func (in *Intake) IsHot() bool { return in.hot() }

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
	if opts.HotPoll == 0 {
		opts.HotPoll = DefaultIntakeHotPoll
	}
	if opts.Linger <= 0 {
		opts.Linger = DefaultIntakeLinger
	}
	if opts.SpoolMin == 0 {
		opts.SpoolMin = DefaultIntakeSpoolMin
	}
	return &Intake{
		heat:   make(chan struct{}, 1),
		opts:   opts,
		cursor: cursor,
		h:      h,
		log:    opts.Logger.With().Str("mailbox", opts.Mailbox).Logger(),
	}
}

// Run keeps a connection to the server and hands over new mail as it arrives (IDLE when the server
// has it, polling otherwise, and a poll every IntakeOptions.Poll as a safety net) until ctx is done.
// Any connection error is logged and followed by a reconnect with exponential backoff; no message is
// skipped, because the cursor only moves past a message once it has been handled and moved, or held in
// the spool, from which it is handed over until it is handled. Run
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

// pass hands every message newer than the cursor to the handler, in UID order. It stops early, with
// a nil error, when the handler asks to retry.
//
// The shape of a pass is the least the work needs: one UID FETCH of the new messages' UIDs and sizes, one
// UID FETCH BODY.PEEK[] of all of them (in groups of at most intakeFetchBudget bytes), streamed, so the
// handler works on the messages already read while the rest are still arriving; each time it is free it
// takes everything that has arrived (at most Batch) as one batch, one commit. Once a group is handled, one
// UID MOVE per destination folder and one cursor save.
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

	start := time.Now()
	list, err := newMessages(ic.c, last)
	if err != nil {
		return 0, err
	}
	// The pass's timeline at debug level (listing, the stream, each batch, each MOVE, the whole pass): what
	// to read first when the intake is slower than the server.
	if len(list) > 0 {
		in.log.Debug().Int("messages", len(list)).Dur("took", time.Since(start)).Msg("imap listed new messages")
		defer func() {
			in.log.Debug().Int("handled", handled).Dur("took", time.Since(start)).Msg("imap pass done")
		}()
	}
	// What a spool holds is handed over first, whatever the connection can do now.
	if held, ok := in.cursor.(Spool); ok {
		n, stop, err := in.handleSpooled(ctx, ic, held)
		handled += n
		if err != nil || stop {
			return handled, err
		}
	}
	sp := in.spoolFor(ic)
	for i := 0; i < len(list); {
		// A group: one oversize message alone, or consecutive messages whose bodies fit the fetch budget
		// (at least one).
		j := i + 1
		if !in.oversize(list[i].size) {
			sum := list[i].size
			for ; j < len(list) && !in.oversize(list[j].size) && sum+list[j].size <= intakeFetchBudget; j++ {
				sum += list[j].size
			}
		}
		var n int
		var stop bool
		if group := list[i:j]; sp != nil && in.opts.SpoolMin > 0 && len(group) >= in.opts.SpoolMin {
			n, stop, err = in.spoolGroup(ctx, ic, sp, uv, group)
		} else {
			n, stop, err = in.handleGroup(ctx, ic, uv, group)
		}
		handled += n
		if err != nil || stop {
			return handled, err
		}
		i = j
	}
	return handled, nil
}

// uidSize is a message in the mailbox: its UID and RFC822.SIZE.
type uidSize struct {
	uid  imap.UID
	size int64
}

// newMessages returns the UIDs greater than last with their sizes, ascending: one UID FETCH last+1:*
// (UID RFC822.SIZE), which does what a UID SEARCH and a FETCH of the sizes would in one round trip.
func newMessages(c *imapclient.Client, last uint32) ([]uidSize, error) {
	if last == math.MaxUint32 {
		return nil, nil
	}
	bufs, err := c.Fetch(imap.UIDSet{{Start: imap.UID(last + 1), Stop: 0}}, &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailer: imap fetch of new messages: %w", err)
	}
	var out []uidSize
	for _, b := range bufs {
		// "n:*" always matches the highest UID, even when it is below n.
		if uint32(b.UID) > last {
			out = append(out, uidSize{b.UID, b.RFC822Size})
		}
	}
	slices.SortFunc(out, func(a, b uidSize) int { return cmp.Compare(a.uid, b.uid) })
	return slices.CompactFunc(out, func(a, b uidSize) bool { return a.uid == b.uid }), nil
}

func (in *Intake) oversize(size int64) bool {
	return in.opts.MaxSize > 0 && size > in.opts.MaxSize
}

// fetched is one message as the streaming fetch read it, with what the handler's Prepare made of it.
type fetched struct {
	uid      imap.UID
	raw      []byte
	prepared any
}

// prepare runs the handler's Prepare on a message that has just arrived, if the handler has one.
func (in *Intake) prepare(m Message) (out any) {
	p, ok := in.h.(Preparer)
	if !ok {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			in.log.Error().Uint32("uid", m.UID).Interface("panic", r).Msg("the handler's Prepare failed; the handler reads the message itself")
			out = nil
		}
	}()
	return p.Prepare(m)
}

// handleGroup fetches a group of messages (ascending UIDs) and hands them to the handler in UID order,
// moving each batch as soon as it is committed, then saves the cursor once. stop is true when the pass
// must end here: the handler asked to retry, or a message could not be read.
func (in *Intake) handleGroup(ctx context.Context, ic *intakeConn, uv uint32, group []uidSize) (handled int, stop bool, err error) {
	mv := in.newMover(ic)
	var last uint32
	if len(group) == 1 && in.oversize(group[0].size) {
		stop, err = in.handleOversize(ctx, ic, uv, group[0], mv, &last)
	} else {
		stop, err = in.streamGroup(ctx, ic, uv, group, mv, &last)
	}
	merr := mv.wait()
	if err == nil {
		err = merr
	}
	if err != nil {
		// The effects of what was handled are committed, but some messages may still be in the mailbox:
		// they will be handed over again after the reconnect, and the handler deduplicates them.
		return 0, true, err
	}
	if last != 0 {
		if err := in.cursor.SaveCursor(in.opts.Mailbox, uv, last); err != nil {
			return 0, true, fmt.Errorf("mailer: saving cursor: %w", err)
		}
	}
	return mv.handled, stop, nil
}

// handleOversize hands over one message larger than MaxSize with its header block only.
func (in *Intake) handleOversize(ctx context.Context, ic *intakeConn, uv uint32, m uidSize, mv *mover, last *uint32) (stop bool, err error) {
	log := in.log.With().Uint32("uidvalidity", uv).Uint32("uid", uint32(m.uid)).Logger()
	hdr, err := fetchSection(ic.c, []imap.UID{m.uid}, &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true})
	if err != nil {
		return true, err
	}
	raw, ok := hdr[m.uid]
	if !ok {
		return in.missing(ic, m.uid, log)
	}
	if len(raw) == 0 {
		raw = []byte("\r\n")
	}
	if err := ctx.Err(); err != nil {
		return true, err
	}
	msg := Message{Mailbox: in.opts.Mailbox, UIDValidity: uv, UID: uint32(m.uid), Raw: raw, Size: m.size, HeaderOnly: true}
	d := in.h.Handle(ctx, msg)
	if !d.handled() {
		log.Info().Stringer("disposition", d).Msg("handler asked to retry; leaving it and what follows for the next pass")
		return true, nil
	}
	var res groupResult
	res.add(m.uid, d)
	mv.file(&res)
	mv.handled++
	*last = uint32(m.uid)
	log.Info().Stringer("disposition", d).Int64("size", m.size).Bool("oversize", true).Msg("message handled")
	return false, nil
}

// missing decides about a message the server did not return: skipped if it is really gone (expunged by
// someone else since the list was made), else the pass stops (stop true) and tries again next time.
func (in *Intake) missing(ic *intakeConn, uid imap.UID, log zerolog.Logger) (stop bool, err error) {
	gone, err := uidGone(ic.c, uid)
	if err != nil {
		return true, err
	}
	if gone {
		log.Info().Msg("message vanished before it could be fetched")
		return false, nil
	}
	log.Error().Msg("server did not return the message; will try again on the next pass")
	return true, nil
}

// streamGroup fetches the group's bodies with one UID FETCH, read by a goroutine as they arrive, and hands
// them to the handler in UID order: each time the handler is free, everything that has arrived in order
// (at most Batch) goes as one batch. So the handler works while the server sends, and the batches follow
// the mailbox: one message when mail trickles in, hundreds when a backlog streams in.
func (in *Intake) streamGroup(ctx context.Context, ic *intakeConn, uv uint32, group []uidSize, mv *mover, last *uint32) (stop bool, err error) {
	uids := make([]imap.UID, len(group))
	sizes := make(map[imap.UID]int64, len(group))
	for k, m := range group {
		uids[k] = m.uid
		sizes[m.uid] = m.size
	}
	st := in.startFetch(ic, uv, uids, mv.streamEnded, nil)
	arrivals, fetchErr := st.arrivals, st.fetchErr
	// However the group ends, the FETCH is read to its end before another command is sent.
	defer func() {
		if ferr := st.drain(); ferr != nil && err == nil {
			err = ferr
		}
	}()

	got := make(map[imap.UID]fetched, len(group))
	streamDone := false
	receive := func(f fetched, ok bool) {
		if !ok {
			streamDone = true
			return
		}
		got[f.uid] = f
	}
	var linger *time.Timer // running while the handler waits for a first batch to fill
	defer func() {
		if linger != nil {
			linger.Stop()
		}
	}()
	lingered := false
	for next := 0; next < len(group); {
		// Whenever the handler is free it takes everything that has arrived in order, at most Batch, so its
		// work overlaps the stream and the batches grow to what arrives while one is handled and committed.
		// Only the first batch of a long group waits, and briefly: the stream brings a message every few
		// tens of microseconds, while each commit costs its disk syncs (about a millisecond), so a first
		// batch of the first one or two arrivals would spend more on its commit than it saves.
		if !lingered && !streamDone {
			want := min(intakeFirstBatch, in.opts.Batch, len(group)-next)
			if ready := readyRun(got, uids[next:], want); ready < want {
				var expired <-chan time.Time // the wait starts with the first message, not with the command
				if ready > 0 {
					if linger == nil {
						linger = time.NewTimer(in.opts.Linger)
					}
					expired = linger.C
				}
				select {
				case f, ok := <-arrivals:
					receive(f, ok)
					continue
				case <-expired:
				case <-ctx.Done():
					return true, ctx.Err()
				}
			}
			lingered = true
		}
		var batch []Message
		for next < len(group) && len(batch) < in.opts.Batch {
			f, ok := got[uids[next]]
			if !ok {
				break
			}
			delete(got, uids[next])
			batch = append(batch, Message{Mailbox: in.opts.Mailbox, UIDValidity: uv, UID: uint32(uids[next]), Raw: f.raw, Size: sizes[uids[next]], Prepared: f.prepared})
			next++
		}
		if len(batch) > 0 {
			if err := ctx.Err(); err != nil {
				return true, err
			}
			select {
			case <-ic.c.Closed():
				return true, errIMAPClosed // nothing of this batch could be moved: leave it for the reconnect
			default:
			}
			batchStart := time.Now()
			disps := in.handleAll(ctx, batch)
			in.log.Debug().Int("messages", len(batch)).Dur("took", time.Since(batchStart)).Msg("batch handled")
			var res groupResult
			retry := false
			for k, d := range disps {
				m := batch[k]
				if !d.handled() {
					in.log.Info().Uint32("uidvalidity", uv).Uint32("uid", m.UID).Stringer("disposition", d).
						Msg("handler asked to retry; leaving it and what follows for the next pass")
					retry = true
					break
				}
				res.add(imap.UID(m.UID), d)
				*last = m.UID
				in.log.Info().Uint32("uidvalidity", uv).Uint32("uid", m.UID).Stringer("disposition", d).
					Int64("size", sizes[imap.UID(m.UID)]).Msg("message handled")
			}
			mv.file(&res)
			mv.handled += res.count()
			if retry {
				return true, nil
			}
			continue
		}
		if streamDone {
			// The server has sent all it will and uids[next] was not among it.
			select {
			case ferr := <-fetchErr:
				if ferr != nil {
					return true, ferr
				}
			default:
			}
			log := in.log.With().Uint32("uidvalidity", uv).Uint32("uid", uint32(uids[next])).Logger()
			if stop, err := in.missing(ic, uids[next], log); stop || err != nil {
				return true, err
			}
			next++
			continue
		}
		// Wait for the next message, then take whatever else has arrived.
		select {
		case f, ok := <-arrivals:
			receive(f, ok)
		case <-ctx.Done():
			return true, ctx.Err()
		}
		if !streamDone && !takeReady(arrivals, func(f fetched) { got[f.uid] = f }) {
			streamDone = true
		}
	}
	return false, nil
}

// readyRun counts how many of uids, from the first and in order, have arrived, up to limit.
func readyRun(got map[imap.UID]fetched, uids []imap.UID, limit int) int {
	n := 0
	for n < limit && n < len(uids) {
		if _, ok := got[uids[n]]; !ok {
			break
		}
		n++
	}
	return n
}

// handleAll hands a batch of messages to the handler: at once when it is a BatchHandler, else one by one,
// stopping at the first Retry. It returns the dispositions of the messages it handed over, in order.
func (in *Intake) handleAll(ctx context.Context, msgs []Message) []Disposition {
	if bh, ok := in.h.(BatchHandler); ok && len(msgs) > 1 {
		return bh.HandleBatch(ctx, msgs)
	}
	var out []Disposition
	for _, m := range msgs {
		d := in.h.Handle(ctx, m)
		out = append(out, d)
		if !d.handled() {
			break
		}
	}
	return out
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
