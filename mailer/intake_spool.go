package mailer

// The spool: a pass over a backlog holds each fetched message in the cursor store's spool as it arrives
// (a durable commit whenever the last one is done, the cursor with it), files the whole stream with one
// MOVE as soon as the server has sent it, and hands the messages to the handler while the server moves
// them. Without a spool each MOVE has to wait for the commit of the batch it files (invariant 1,
// docs/architecture.md): a message leaves the inbox only once something durable holds it.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/rs/zerolog"

	"sortie/mailer/inmail"
)

// Spool is what a CursorStore may offer besides: a durable place for messages fetched and not yet
// handled. When the cursor store has one and the server can MOVE and says where it moved to (UIDPLUS),
// the intake uses it for groups of at least IntakeOptions.SpoolMin messages.
type Spool interface {
	// SpoolMessages holds messages (raws[i] is the message uids[i]) of mailbox, and sets the mailbox's
	// cursor to (uidValidity, lastUID) unless lastUID is 0, in one transaction synced to disk.
	SpoolMessages(mailbox string, uidValidity uint32, uids []uint32, raws [][]byte, lastUID uint32) error
	// Spooled calls fn for each message held for mailbox, by UIDVALIDITY then UID.
	Spooled(mailbox string, fn func(uidValidity, uid uint32, raw []byte) error) error
	// Unspool lets go of handled messages.
	Unspool(mailbox string, uidValidity uint32, uids []uint32) error
}

// spoolFor is the cursor store's spool, if it has one and the connection can use it.
func (in *Intake) spoolFor(ic *intakeConn) Spool {
	sp, ok := in.cursor.(Spool)
	if !ok || !ic.move || !ic.uidplus {
		return nil
	}
	return sp
}

// spoolGroup fetches a group of messages (ascending UIDs) through the spool: while the stream arrives
// each message is held in the spool; once all of it is held the group is moved to Processed with one
// command, while the handler takes the messages in UID order, in batches of at most Batch. Then the
// handled messages leave the spool, and those the handler rejected or failed are moved on from Processed.
// stop is true when the pass must end here.
func (in *Intake) spoolGroup(ctx context.Context, ic *intakeConn, sp Spool, uv uint32, group []uidSize) (handled int, stop bool, err error) {
	uids := make([]imap.UID, len(group))
	sizes := make(map[imap.UID]int64, len(group))
	for k, m := range group {
		uids[k] = m.uid
		sizes[m.uid] = m.size
	}
	raw := make(chan fetched, len(group)) // never blocks
	st := in.startFetch(ic, uv, uids, func() {}, raw)
	spooled, serr := in.spoolStream(ic, sp, uv, uids, raw)
	if ferr := <-st.fetchErr; ferr != nil && serr == nil {
		// What arrived before the error is held: the next pass files and hands it over.
		go st.drain()
		return 0, true, ferr
	}
	if serr != nil {
		in.log.Error().Err(serr).Msg("could not hold the fetched messages in the spool; they stay in the inbox")
		st.drain()
		return 0, true, nil
	}
	if len(spooled) == 0 {
		st.drain()
		return 0, false, nil
	}

	// The stream has ended: the MOVE goes now, while the handler works.
	type moved struct {
		dest map[imap.UID]imap.UID
		err  error
	}
	moveDone := make(chan moved, 1)
	go func() {
		dest, err := in.moveOut(ic, spooled, in.log)
		moveDone <- moved{dest, err}
	}()

	got := make(map[imap.UID]fetched, len(spooled))
	disp := make(map[imap.UID]Disposition, len(spooled))
	var done []Message // handed over, in order
	arrivals := st.arrivals
	for next := 0; next < len(spooled) && !stop; {
		for arrivals != nil {
			if _, ok := got[spooled[next]]; ok {
				break
			}
			f, ok := <-arrivals
			if !ok {
				arrivals = nil
				break
			}
			got[f.uid] = f
		}
		if arrivals != nil && !takeReady(arrivals, func(f fetched) { got[f.uid] = f }) {
			arrivals = nil
		}
		var batch []Message
		for k := next; k < len(spooled) && len(batch) < in.opts.Batch; k++ {
			f, ok := got[spooled[k]]
			if !ok {
				break
			}
			delete(got, spooled[k])
			batch = append(batch, Message{Mailbox: in.opts.Mailbox, UIDValidity: uv, UID: uint32(f.uid), Raw: f.raw, Size: sizes[f.uid], Prepared: f.prepared})
		}
		if len(batch) == 0 {
			// Held in the spool but not among the arrivals: cannot happen, as the spool takes what the
			// stream reads; the spool hands it over on the next pass.
			in.log.Error().Uint32("uid", uint32(spooled[next])).Msg("a spooled message was not read; leaving it for the next pass")
			stop = true
			break
		}
		if cerr := ctx.Err(); cerr != nil {
			stop, err = true, cerr
			break
		}
		batchStart := time.Now()
		disps := in.handleAll(ctx, batch)
		in.log.Debug().Int("messages", len(batch)).Dur("took", time.Since(batchStart)).Msg("batch handled")
		n, retry := in.noteHandled(batch, disps, disp)
		done = append(done, batch[:n]...)
		next += n
		if retry || n < len(batch) {
			stop = true
		}
	}
	if arrivals != nil {
		for range arrivals {
		}
	}
	mr := <-moveDone
	if mr.err != nil {
		// The messages are still held: the next pass files them (those still in the inbox) and hands them
		// over again, and the handler takes each as the duplicate it is.
		return 0, true, mr.err
	}
	if err != nil {
		return 0, true, err
	}
	if err := in.release(ic, sp, uv, done, disp, mr.dest); err != nil {
		return len(done), true, err
	}
	return len(done), stop, nil
}

// noteHandled records the dispositions of a handed-over batch in disp and logs them, up to the first
// Retry. It returns how many messages are handled, and whether the handler asked to retry.
func (in *Intake) noteHandled(batch []Message, disps []Disposition, disp map[imap.UID]Disposition) (n int, retry bool) {
	for k, d := range disps {
		m := batch[k]
		if !d.handled() {
			in.log.Info().Uint32("uidvalidity", m.UIDValidity).Uint32("uid", m.UID).Stringer("disposition", d).
				Msg("handler asked to retry; the spool keeps it and what follows for the next pass")
			return k, true
		}
		disp[imap.UID(m.UID)] = d
		in.log.Info().Uint32("uidvalidity", m.UIDValidity).Uint32("uid", m.UID).Stringer("disposition", d).
			Int("size", len(m.Raw)).Bool("spooled", true).Msg("message handled")
	}
	return len(disps), false
}

// spoolStream holds the messages of a stream in the spool as they arrive, in the group's UID order:
// whenever the last commit is done, the messages read since that continue the held run go in one more,
// with the cursor at the last of them. A message that comes before one missing from the stream waits
// for it; when the stream has ended, a missing message that is gone from the mailbox is passed over,
// and one that is still there (the server did not send it) ends the run, so that nothing is handed over
// before a message with a lower UID. It returns the UIDs it holds, ascending.
func (in *Intake) spoolStream(ic *intakeConn, sp Spool, uv uint32, uids []imap.UID, raw <-chan fetched) ([]imap.UID, error) {
	pos := make(map[imap.UID]int, len(uids))
	for k, uid := range uids {
		pos[uid] = k
	}
	early := make(map[int][]byte) // arrived, waiting for a message before them
	held := 0                     // uids[:held] are held (or gone)
	saved := 0                    // the cursor is past uids[:saved]
	var spooled []imap.UID
	var ids []uint32
	var raws [][]byte
	take := func() { // moves the run that continues the held ones into the next commit
		for held < len(uids) {
			data, ok := early[held]
			if !ok {
				return
			}
			delete(early, held)
			ids = append(ids, uint32(uids[held]))
			raws = append(raws, data)
			held++
		}
	}
	add := func(f fetched) {
		if k, ok := pos[f.uid]; ok && k >= held {
			if _, dup := early[k]; !dup {
				early[k] = f.raw
			}
		}
	}
	commit := func() error {
		if len(ids) == 0 {
			return nil
		}
		if err := sp.SpoolMessages(in.opts.Mailbox, uv, ids, raws, uint32(uids[held-1])); err != nil {
			return fmt.Errorf("mailer: spooling: %w", err)
		}
		for _, id := range ids {
			spooled = append(spooled, imap.UID(id))
		}
		ids, raws = nil, nil // the spool may keep what it was given until its commit
		saved = held
		return nil
	}
	start := time.Now()
	commits := 0
	for open := true; open; {
		f, ok := <-raw
		if !ok {
			break
		}
		add(f)
		open = takeReady(raw, add)
		take()
		if len(ids) == 0 {
			continue
		}
		if err := commit(); err != nil {
			for range raw { // the reader never blocks on it, but it is read to its end all the same
			}
			return nil, err
		}
		commits++
	}
	// The stream has ended (the FETCH is over: the connection is free). What it did not bring is either
	// gone (expunged meanwhile) or was not sent: the run goes on past the first, and stops at the second.
	for held < len(uids) {
		uid := uids[held]
		log := in.log.With().Uint32("uidvalidity", uv).Uint32("uid", uint32(uid)).Logger()
		stop, err := in.missing(ic, uid, log)
		if err != nil {
			log.Error().Err(err).Msg("cannot tell whether a message the server did not send is still there; stopping before it")
			stop = true
		}
		if stop {
			break
		}
		held++
		take()
	}
	switch {
	case len(ids) > 0:
		if err := commit(); err != nil {
			return nil, err
		}
		commits++
	case held > saved: // only gone messages since the last commit: the cursor still goes past them
		if err := in.cursor.SaveCursor(in.opts.Mailbox, uv, uint32(uids[held-1])); err != nil {
			return nil, fmt.Errorf("mailer: saving cursor: %w", err)
		}
	}
	in.log.Debug().Int("messages", len(spooled)).Int("commits", commits).Dur("took", time.Since(start)).Msg("spooled")
	return spooled, nil
}

// moveOut moves uids from the inbox to Processed with one command, as dispose does, and returns where
// each went (the server's COPYUID), as far as the server said.
func (in *Intake) moveOut(ic *intakeConn, uids []imap.UID, log zerolog.Logger) (map[imap.UID]imap.UID, error) {
	data, err := in.disposeMove(ic, uids, Processed, log)
	if err != nil || data == nil {
		return nil, err
	}
	src, ok1 := data.SourceUIDs.(imap.UIDSet)
	dst, ok2 := data.DestUIDs.(imap.UIDSet)
	if !ok1 || !ok2 {
		return nil, nil
	}
	from, ok1 := src.Nums()
	to, ok2 := dst.Nums()
	if !ok1 || !ok2 || len(from) != len(to) {
		return nil, nil
	}
	dest := make(map[imap.UID]imap.UID, len(from))
	for k := range from {
		dest[from[k]] = to[k]
	}
	return dest, nil
}

// release moves the handled messages (done, with their dispositions) that the handler rejected or failed
// from Processed on to their folder, where it knows their UID in Processed (dest), then lets go of them
// all in the spool. In that order, a stop between the commit and the filing leaves them in the spool:
// handed over again, they are duplicates the handler files where their first handling said, and are moved
// on then (docs/operations.md, Security).
func (in *Intake) release(ic *intakeConn, sp Spool, uv uint32, done []Message, disp map[imap.UID]Disposition, dest map[imap.UID]imap.UID) error {
	if len(done) == 0 {
		return nil
	}
	if err := in.moveOn(ic, done, disp, dest); err != nil {
		return err
	}
	ids := make([]uint32, len(done))
	for k, m := range done {
		ids[k] = m.UID
	}
	if err := sp.Unspool(in.opts.Mailbox, uv, ids); err != nil {
		// They are handled: handed over again, the handler takes them as duplicates.
		in.log.Error().Err(err).Msg("could not let go of handled messages in the spool; the next pass hands them over again")
	}
	return nil
}

// moveOn moves the rejected and failed messages of done from Processed on to their folder.
func (in *Intake) moveOn(ic *intakeConn, done []Message, disp map[imap.UID]Disposition, dest map[imap.UID]imap.UID) error {
	var onward groupResult
	var lookup []Message // moved on, but not by this pass's MOVE: found in Processed by Message-ID
	for _, m := range done {
		uid := imap.UID(m.UID)
		d := disp[uid]
		if d == Processed {
			continue
		}
		if to, ok := dest[uid]; ok {
			onward.add(to, d)
		} else {
			lookup = append(lookup, m)
		}
	}
	return in.refile(ic, &onward, lookup, disp)
}

// refile moves messages from Processed to their folder (Rejected, Failed): it selects Processed, finds
// those of lookup (handed over from the spool after an earlier pass moved them) by their Message-ID,
// moves them all, and selects the inbox again.
func (in *Intake) refile(ic *intakeConn, res *groupResult, lookup []Message, disp map[imap.UID]Disposition) error {
	if res.count() == 0 && len(lookup) == 0 {
		return nil
	}
	if !ic.move {
		in.log.Warn().Int("messages", res.count()+len(lookup)).Msg("the server cannot MOVE: rejected and failed mail stays flagged in the inbox")
		return nil
	}
	var imapErr *imap.Error
	if _, err := ic.c.Select(in.opts.Processed, nil).Wait(); err != nil {
		if !errors.As(err, &imapErr) {
			return fmt.Errorf("mailer: imap select %s: %w", in.opts.Processed, err)
		}
		in.log.Error().Err(err).Msg("cannot open the Processed folder; rejected and failed mail stays there")
	} else {
		for _, m := range lookup {
			d := disp[imap.UID(m.UID)]
			log := in.log.With().Uint32("uidvalidity", m.UIDValidity).Uint32("uid", m.UID).Stringer("disposition", d).Logger()
			inc, err := inmail.Parse(m.Raw)
			if err != nil || inc.MessageID == "" || strings.HasPrefix(inc.MessageID, "sha256:") {
				log.Warn().Msg("a message without a Message-ID cannot be found in the Processed folder; it stays where it is")
				continue
			}
			found, err := ic.c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: inc.MessageID}}}, nil).Wait()
			if err != nil {
				if !errors.As(err, &imapErr) {
					return fmt.Errorf("mailer: imap search: %w", err)
				}
				log.Error().Err(err).Msg("cannot search the Processed folder; the message stays where it is")
				continue
			}
			uids := found.AllUIDs()
			if len(uids) == 0 {
				log.Warn().Msg("the message is not in the Processed folder; it stays where it is")
				continue
			}
			res.add(slices.Max(uids), d) // the newest, if the same mail came twice
		}
		for _, j := range res.byFolder() {
			if _, err := in.disposeMove(ic, j.uids, j.disp, in.log); err != nil {
				return err
			}
		}
	}
	sel, err := ic.c.Select(in.opts.Mailbox, nil).Wait()
	if err != nil {
		return fmt.Errorf("mailer: imap select %s: %w", in.opts.Mailbox, err)
	}
	if sel.UIDValidity != ic.uidValidity {
		return fmt.Errorf("mailer: %s: UIDVALIDITY changed from %d to %d", in.opts.Mailbox, ic.uidValidity, sel.UIDValidity)
	}
	// Mail that came while Processed was selected was told in this SELECT's answer, not as news: look
	// again before waiting, or it would wait for the next poll.
	select {
	case ic.wake <- struct{}{}:
	default:
	}
	return nil
}

// handleSpooled hands over what the spool holds from an earlier pass, before anything new: a pass that
// ended after its spool commit (the server closed the connection, the handler asked to retry, the daemon
// stopped). Those still in the inbox are moved to Processed first.
func (in *Intake) handleSpooled(ctx context.Context, ic *intakeConn, sp Spool) (handled int, stop bool, err error) {
	mbox := in.opts.Mailbox
	var held []Message
	if err := sp.Spooled(mbox, func(uv, uid uint32, raw []byte) error {
		held = append(held, Message{Mailbox: mbox, UIDValidity: uv, UID: uid, Raw: raw, Size: int64(len(raw))})
		return nil
	}); err != nil {
		return 0, true, fmt.Errorf("mailer: reading the spool: %w", err)
	}
	if len(held) == 0 {
		return 0, false, nil
	}
	in.log.Info().Int("messages", len(held)).Msg("handing over the mail the spool holds from an earlier pass")
	var here []imap.UID
	for _, m := range held {
		if m.UIDValidity == ic.uidValidity {
			here = append(here, imap.UID(m.UID))
		}
	}
	var dest map[imap.UID]imap.UID
	if len(here) > 0 {
		// Only those the inbox still has: the others were moved before the pass ended.
		found, err := ic.c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{imap.UIDSetNum(here...)}}, nil).Wait()
		if err != nil {
			return 0, true, fmt.Errorf("mailer: imap search: %w", err)
		}
		if left := found.AllUIDs(); len(left) > 0 {
			if dest, err = in.moveOut(ic, left, in.log); err != nil {
				return 0, true, err
			}
		}
	}
	// By UIDVALIDITY, then UID (the spool's order), in batches that do not mix UIDVALIDITYs.
	for start := 0; start < len(held) && !stop; {
		end := start + 1
		for end < len(held) && end-start < in.opts.Batch && held[end].UIDValidity == held[start].UIDValidity {
			end++
		}
		batch := held[start:end]
		uv := batch[0].UIDValidity
		if err := ctx.Err(); err != nil {
			return handled, true, err
		}
		disps := in.handleAll(ctx, batch)
		disp := make(map[imap.UID]Disposition, len(disps))
		n, retry := in.noteHandled(batch, disps, disp)
		done := batch[:n]
		moved := dest
		if uv != ic.uidValidity {
			moved = nil // UIDs of an earlier UIDVALIDITY: nothing to move on
		}
		if err := in.release(ic, sp, uv, done, disp, moved); err != nil {
			return handled + len(done), true, err
		}
		handled += n
		start += n
		if retry || n < len(batch) {
			stop = true
		}
	}
	return handled, stop, nil
}
