package mailer

// Filing handled messages: after the handler has committed a batch, its messages are moved to their
// folder (Processed, Rejected, Failed), or flagged \Seen where the server cannot MOVE, by a mover
// goroutine while the handler works on the next batch (docs/architecture.md, invariant 1).

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/rs/zerolog"
)

// groupResult is what a batch's handling did: the UIDs to move, by disposition.
type groupResult struct {
	processed, rejected, failed []imap.UID
}

func (r *groupResult) add(uid imap.UID, d Disposition) {
	switch d {
	case Processed:
		r.processed = append(r.processed, uid)
	case Rejected:
		r.rejected = append(r.rejected, uid)
	default:
		r.failed = append(r.failed, uid)
	}
}

func (r *groupResult) count() int { return len(r.processed) + len(r.rejected) + len(r.failed) }

func (r *groupResult) addAll(j moveJob) {
	for _, uid := range j.uids {
		r.add(uid, j.disp)
	}
}

// byFolder is one job for each folder that has messages.
func (r *groupResult) byFolder() []moveJob {
	var out []moveJob
	for _, j := range []moveJob{{r.processed, Processed}, {r.rejected, Rejected}, {r.failed, Failed}} {
		if len(j.uids) > 0 {
			out = append(out, j)
		}
	}
	return out
}

// dispose moves handled messages to their folder with one command, or flags them \Seen when the
// server cannot MOVE. A folder the server says is missing (TRYCREATE) is made and the MOVE tried once
// more. A refusal by the server (NO/BAD) is logged and tolerated: the cursor already keeps the messages
// from being handed over again. Other errors mean the connection is in trouble and are returned.
func (in *Intake) dispose(ic *intakeConn, uids []imap.UID, disp Disposition, log zerolog.Logger) error {
	_, err := in.disposeMove(ic, uids, disp, log)
	return err
}

// disposeMove is dispose, returning what the server said of the MOVE (where it put the messages, with
// UIDPLUS); nil when nothing was moved.
func (in *Intake) disposeMove(ic *intakeConn, uids []imap.UID, disp Disposition, log zerolog.Logger) (*imapclient.MoveData, error) {
	if len(uids) == 0 {
		return nil, nil
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
		start := time.Now()
		data, err := ic.c.Move(imap.UIDSetNum(uids...), dest).Wait()
		log.Debug().Int("messages", len(uids)).Str("folder", dest).Dur("took", time.Since(start)).Msg("imap move")
		if errors.As(err, &imapErr) && imapErr.Code == imap.ResponseCodeTryCreate {
			if cerr := ensureMailbox(ic.c, dest); cerr != nil {
				log.Error().Err(cerr).Str("folder", dest).Msg("cannot make the folder")
			} else {
				data, err = ic.c.Move(imap.UIDSetNum(uids...), dest).Wait()
			}
		}
		if err == nil {
			return data, nil
		}
		if !errors.As(err, &imapErr) {
			return nil, fmt.Errorf("mailer: imap move: %w", err)
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
			return nil, fmt.Errorf("mailer: imap store: %w", err)
		}
		log.Error().Err(err).Msg("server refused to flag the messages \\Seen; they stay in the mailbox")
	}
	return nil, nil
}

// mover files handled messages in the background, one command at a time in the order given, while the
// handler works on the next batch, from the end of the group's FETCH on.
type mover struct {
	in   *Intake
	ic   *intakeConn
	jobs chan moveJob
	done chan struct{}
	err  error // the first connection error; later jobs are dropped
	// handled counts the messages handed over (by the group's goroutine, not the mover's).
	handled int
	// streamed is closed once the group's FETCH has ended (streamEnded): no MOVE is sent before.
	streamed     chan struct{}
	streamedOnce sync.Once
}

// streamEnded tells the mover that the server has sent the group's messages.
func (mv *mover) streamEnded() { mv.streamedOnce.Do(func() { close(mv.streamed) }) }

type moveJob struct {
	uids []imap.UID
	disp Disposition
}

func (in *Intake) newMover(ic *intakeConn) *mover {
	mv := &mover{in: in, ic: ic, jobs: make(chan moveJob, 64), done: make(chan struct{}), streamed: make(chan struct{})}
	go func() {
		defer close(mv.done)
		// While the group's FETCH streams, a MOVE would wait behind it (Dovecot: measured) and split the
		// moves into more commands, each with a fixed cost of a few milliseconds: what is filed is kept.
		// Once the stream has ended, each MOVE goes as soon as the one before has finished, with everything
		// filed meanwhile, so the server moves the first batches while the handler works on the last, and
		// the MOVE after the last commit is small.
		var res groupResult
		flush := func() {
			for _, d := range res.byFolder() {
				if mv.err == nil {
					mv.err = in.dispose(ic, d.uids, d.disp, in.log)
				}
			}
			res = groupResult{}
		}
		streamed := mv.streamed
		for {
			select {
			case j, ok := <-mv.jobs:
				if !ok {
					flush() // the group is done (wait closed the jobs)
					return
				}
				res.addAll(j)
			more:
				for {
					select {
					case j, ok := <-mv.jobs:
						if !ok {
							flush()
							return
						}
						res.addAll(j)
					default:
						break more
					}
				}
			case <-streamed:
				streamed = nil
			}
			if streamed == nil {
				flush()
			}
		}
	}()
	return mv
}

// file hands over a batch's handled messages: one job per folder.
func (mv *mover) file(res *groupResult) {
	for _, j := range res.byFolder() {
		mv.jobs <- j
	}
}

// wait waits until everything handed over is filed and returns the first error.
func (mv *mover) wait() error {
	mv.streamEnded()
	close(mv.jobs)
	<-mv.done
	return mv.err
}
