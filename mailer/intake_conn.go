package mailer

// The intake's IMAP session: connecting (TLS, login, the folders, SELECT) and waiting between passes
// (IDLE, the Poll, and a NOOP every HotPoll while the intake is hot).

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// intakeConn is one logged-in connection with the mailbox selected.
type intakeConn struct {
	c           *imapclient.Client
	wake        chan struct{} // EXISTS seen; buffered, written without blocking
	stopCancel  func() bool   // detaches the ctx watcher that closes the connection
	idle, move  bool
	uidplus     bool // the server says where a MOVE put each message (COPYUID)
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
	ic.uidplus = caps.Has(imap.CapUIDPlus)
	if ic.move {
		if in.failed == "" {
			in.failed = in.opts.Failed
			if in.failed == "" {
				in.failed = "Sortie" + hierarchyDelim(ic.c) + "Failed"
			}
		}
		if !in.foldersReady {
			for _, name := range []string{in.opts.Processed, in.opts.Rejected, in.failed} {
				if err := ensureMailbox(ic.c, name); err != nil {
					return fail(err)
				}
			}
			in.foldersReady = true
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

// wait blocks until there may be new mail: an EXISTS (during IDLE, after a NOOP, or seen during the last
// pass), the Poll timer, or the IdleRefresh timer. While the intake is hot it sends a NOOP every HotPoll
// instead of idling. It returns an error if the connection is gone.
func (in *Intake) wait(ctx context.Context, ic *intakeConn) error {
	select {
	case <-ic.wake: // arrived during the pass
		return nil
	default:
	}
	select {
	case <-in.heat: // the window is read below
	default:
	}
	if in.hot() {
		if news, err := in.pollHot(ctx, ic); news || err != nil {
			return err
		}
		// The window ended without news: wait as an intake that was never hot does.
	}
	poll := time.NewTimer(in.opts.Poll)
	defer poll.Stop()
	if !ic.idle {
		select {
		case <-poll.C:
			return nil
		case <-in.heat:
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
	case <-in.heat: // stop idling: the next wait polls
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

// pollHot sends a NOOP every HotPoll (the server answers it with EXISTS for new mail) until there is new
// mail or the hot window ends. news says a pass is due: new mail, or a Poll's time without news, so the
// safety-net pass still runs. When the window ends without news it is false, and no pass runs for it.
func (in *Intake) pollHot(ctx context.Context, ic *intakeConn) (news bool, err error) {
	tick := time.NewTicker(in.opts.HotPoll)
	defer tick.Stop()
	safety := time.Now().Add(in.opts.Poll)
	for in.hot() {
		if !time.Now().Before(safety) {
			return true, nil
		}
		select {
		case <-ic.wake:
			return true, nil
		case <-tick.C:
		case <-in.heat:
		case <-ic.c.Closed():
			return false, errIMAPClosed
		case <-ctx.Done():
			return false, ctx.Err()
		}
		if err := ic.c.Noop().Wait(); err != nil {
			return false, fmt.Errorf("mailer: imap noop: %w", err)
		}
		select {
		case <-ic.wake: // the NOOP's EXISTS
			return true, nil
		default:
		}
	}
	in.log.Debug().Msg("imap hot window over")
	return false, nil
}
