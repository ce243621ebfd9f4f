package adjudicator

// Outcome is what became of a mail: what Submit and SubmitBatch return for it, what is recorded with the
// place it was fetched from (storage.SeenRecord.Outcome), and what decides where the intake files it
// (the daemon: Refused to Rejected, Failed to Failed, anything else to Processed).
type Outcome string

// The outcomes of a mail.
const (
	// Accepted: the mail was used: orders stored, commands carried out, or a HELP or RESEND answered.
	Accepted Outcome = "accepted"
	// Refused: the mail was answered with why nothing in it was used (no block, not identified, a block
	// refused as a whole, too large, a game that has ended).
	Refused Outcome = "refused"
	// Ignored: the mail was not answered: a bounce or auto-reply, no sender, or a sender over the flood
	// limit (guard.go).
	Ignored Outcome = "ignored"
	// Failed: handling the mail failed for a reason that will not go away (a bug, a header the database
	// cannot take, a mail that cannot be answered as built): nothing of it was used, the sender got a
	// short answer if one could be sent, the reason is logged and recorded, and the intake files the mail
	// in the Failed folder for the moderator instead of trying it again (guard.go, failMail).
	Failed Outcome = "failed"
	// Duplicate: the mail was handled before and was used then; it does nothing again. A repeat of a mail
	// that was refused or failed is DuplicateOf(Refused) or DuplicateOf(Failed).
	Duplicate Outcome = "duplicate"
)

// next is no outcome: a step of a mail's path (submission.handle) that leaves the mail to the steps
// after it. Submit never returns it without an error.
const next Outcome = ""

// DuplicateOf is the outcome of a mail handled before whose first handling had the outcome first: it
// does nothing again, and is filed where the first handling filed it (a refused mail fetched again after
// a crash between the commit and the filing is still refused, a failed one still failed). A repeat of a
// mail that was used is plain Duplicate.
func DuplicateOf(first Outcome) Outcome {
	switch first {
	case Refused, Failed:
		return Duplicate + "-" + first
	}
	return Duplicate
}

// Duplicated says whether o is the outcome of a mail handled before (DuplicateOf), and if so what its
// first handling's outcome was, as far as its filing goes (Accepted stands for any mail that was used).
func (o Outcome) Duplicated() (first Outcome, ok bool) {
	switch o {
	case Duplicate:
		return Accepted, true
	case DuplicateOf(Refused):
		return Refused, true
	case DuplicateOf(Failed):
		return Failed, true
	}
	return "", false
}
