package mailer

// The streaming FETCH: one UID FETCH BODY.PEEK[] of a group of messages, read on a goroutine as the
// server sends it, each message prepared on goroutines of its own (Preparer) before the handler's turn.

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
)

// fetchStream is one UID FETCH of message bodies, read as it arrives.
type fetchStream struct {
	// arrivals has each message once read (and prepared, when the handler has a Prepare); it is closed
	// when the stream has ended and every message is prepared.
	arrivals chan fetched
	// fetchErr has the FETCH's error, if any, and is closed once the stream has ended.
	fetchErr chan error
}

// drain reads the stream to its end (the FETCH must end before another command is sent) and returns
// its error.
func (st *fetchStream) drain() error {
	for range st.arrivals {
	}
	return <-st.fetchErr
}

// takeReady calls fn with every value ch has ready, without waiting, and reports whether ch is still
// open.
func takeReady[T any](ch <-chan T, fn func(T)) bool {
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				return false
			}
			fn(v)
		default:
			return true
		}
	}
}

// startFetch sends one UID FETCH BODY.PEEK[] of uids and reads it on a goroutine, as fast as the server
// sends; others run the handler's Prepare on each message (when it has one), so neither the stream nor
// the handler waits for it. ended is called once the server has sent everything. raw, when not nil,
// also gets each message as it is read (before it is prepared), and is closed when the stream has ended.
func (in *Intake) startFetch(ic *intakeConn, uv uint32, uids []imap.UID, ended func(), raw chan<- fetched) *fetchStream {
	section := &imap.FetchItemBodySection{Peek: true}
	fetchStart := time.Now()
	cmd := ic.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}})
	st := &fetchStream{arrivals: make(chan fetched, len(uids)), fetchErr: make(chan error, 1)} // never blocks
	arrivals := st.arrivals
	read := arrivals
	if _, ok := in.h.(Preparer); ok {
		// The handler takes the messages by UID, so the order they are prepared in does not matter.
		read = make(chan fetched, len(uids))
		var preparing sync.WaitGroup
		for range preparers(runtime.GOMAXPROCS(0), len(uids)) {
			preparing.Go(func() {
				for f := range read {
					f.prepared = in.prepare(Message{Mailbox: in.opts.Mailbox, UIDValidity: uv, UID: uint32(f.uid), Raw: f.raw, Size: int64(len(f.raw))})
					arrivals <- f
				}
			})
		}
		go func() {
			preparing.Wait()
			close(arrivals)
		}()
	}
	go func() {
		defer close(read)
		for {
			msg := cmd.Next()
			if msg == nil {
				break
			}
			buf, err := msg.Collect()
			if err != nil {
				break // Close below returns the error
			}
			if buf.UID == 0 || len(buf.BodySection) == 0 {
				continue
			}
			data := buf.FindBodySection(section)
			if data == nil {
				data = []byte{}
			}
			if raw != nil {
				raw <- fetched{uid: buf.UID, raw: data}
			}
			read <- fetched{uid: buf.UID, raw: data}
		}
		if err := cmd.Close(); err != nil {
			st.fetchErr <- fmt.Errorf("mailer: imap fetch: %w", err)
		}
		in.log.Debug().Int("messages", len(uids)).Dur("took", time.Since(fetchStart)).Msg("imap fetch streamed")
		if raw != nil {
			close(raw)
		}
		ended()
		close(st.fetchErr)
	}()
	return st
}

// preparers is how many goroutines prepare the n messages of a stream on procs cores: one fewer than the
// cores, at least one and at most four, and never more than the messages. While a stream arrives, the
// goroutine reading it and the server sending it need a core between them, and the handler takes a
// backlog only once the spool holds all of it, so one preparer on two cores keeps ahead of it (on two
// cores it did better than two in 11 of 16 alternated rounds: docs/performance.md, "One preparer on two
// cores").
func preparers(procs, n int) int {
	return min(max(procs-1, 1), 4, n)
}
