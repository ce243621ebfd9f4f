// Package mailer is everything in Sortie that speaks a mail protocol: IMAP intake (IDLE with a polling
// fallback, a UID cursor, fetch, move after commit) and delivering the outbox over SMTP. Reading a
// message (the text that holds a player's orders, whether it must not be answered) is package inmail's,
// and making one package outmail's.
//
// It knows nothing of games. The daemon wires it to the adjudicator through Handler (one message in,
// committed, then moved) and Outbox (committed mail out, marked sent).
package mailer

import (
	"context"
	"time"

	"sortie/mailer/outmail"
)

// Message is one raw message fetched from a mailbox, with where it came from.
type Message struct {
	Mailbox     string
	UIDValidity uint32
	UID         uint32
	// Raw is the message as the server sent it: the whole message, or only its header block (ending with
	// the empty line) when HeaderOnly is set.
	Raw []byte
	// Size is the whole message's size in bytes: the server's RFC822.SIZE where the intake listed it,
	// len(Raw) for a message handed over from the spool.
	Size int64
	// HeaderOnly: the message is larger than IntakeOptions.MaxSize, so Raw holds only its header block.
	// The handler can still read From, Subject and Message-ID from it, and should refuse the mail
	// politely and return Rejected. A handler that does not look finds no orders in an empty body and
	// rejects the mail, which is the safe failure. No header a sender writes can set it.
	HeaderOnly bool
	// Prepared is what the handler's Prepare made of the message, if the handler is a Preparer and the
	// intake called it; nil otherwise (the handler then does that work itself).
	Prepared any
}

// Disposition says what the intake does with a message after the handler returns.
type Disposition int

const (
	// Processed: the message's effect is committed; move it to the Processed folder (or flag it \Seen).
	Processed Disposition = iota
	// Rejected: committed as rejected (a refusal may be queued); move it to the Rejected folder.
	Rejected
	// Retry: nothing was committed (e.g. the database was unavailable); leave the message where it is
	// and try it again on a later pass. Only for a fault that may go away by itself (a full disk, a locked
	// database, a server outage): every mail behind it waits too.
	Retry
	// Failed: the message could not be handled for a reason that will not go away; what could be done
	// (an answer to the sender, a record of the reason) is committed. Move it to the Failed folder for the
	// moderator, and go on with the next message.
	Failed
)

// handled reports whether the intake is done with a message (moves it and goes on).
func (d Disposition) handled() bool { return d == Processed || d == Rejected || d == Failed }

func (d Disposition) String() string {
	switch d {
	case Processed:
		return "processed"
	case Rejected:
		return "rejected"
	case Failed:
		return "failed"
	}
	return "retry"
}

// Handler takes one message. It must commit everything the message causes before it returns Processed
// or Rejected (invariant 1, docs/architecture.md): the intake moves the message out of the inbox only afterwards.
// It must be idempotent: after a crash the same message may come again.
type Handler interface {
	Handle(ctx context.Context, m Message) Disposition
}

// BatchHandler is a Handler that can also take a batch of messages at once and commit them together,
// returning one disposition per message in order. The intake uses it for each fetched batch (a commit
// per batch instead of per message). The same rules hold: everything is committed before it returns,
// and a Retry leaves that message and every later one of the batch for the next pass.
type BatchHandler interface {
	Handler
	HandleBatch(ctx context.Context, ms []Message) []Disposition
}

// Preparer is a Handler that can do part of its work on a message as soon as it has arrived (parse it),
// before its turn comes: the intake calls Prepare on goroutines of its own (one fewer than the cores, at
// least one and at most four), so it runs while the handler is still busy with earlier messages, and
// hands the result to the handler in Message.Prepared. Prepare must only read the message: it commits
// nothing, it may run for a message that is then not handed over in this pass (a pass that stops at a
// Retry), and it must be safe to call from several goroutines at once and while Handle or HandleBatch
// runs. A panic in it is recovered and leaves Prepared nil.
type Preparer interface {
	Prepare(m Message) any
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, m Message) Disposition

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, m Message) Disposition { return f(ctx, m) }

// CursorStore keeps the intake's place in a mailbox: its UIDVALIDITY and the highest UID handled.
type CursorStore interface {
	LoadCursor(mailbox string) (uidValidity, lastUID uint32, err error)
	SaveCursor(mailbox string, uidValidity, lastUID uint32) error
}

// OutgoingMail is one committed message waiting to be sent: the mail as the outbox holds it, sent as
// outmail.Render makes it (the bytes the archive keeps too), under its outbox key.
type OutgoingMail struct {
	ID string // the outbox key; stable
	outmail.Mail
}

// Outbox is the transactional outbox as the sender sees it (invariant 2, docs/architecture.md).
type Outbox interface {
	// Pending returns up to limit messages due for sending at now, oldest first.
	Pending(now time.Time, limit int) ([]OutgoingMail, error)
	// MarkSent records that a message was accepted by the SMTP server: it is never sent again.
	MarkSent(id string, at time.Time) error
	// MarkFailed records a failed attempt; the store decides when to try again (backoff).
	MarkFailed(id string, err error, at time.Time) error
}

// BatchMarker is an Outbox that can record several sent mails in one commit. The sender then records
// accepted mails in the background while the next one is on the wire, instead of one commit each.
type BatchMarker interface {
	MarkSentMany(ids []string, at time.Time) error
}
