package archive

// The archive's mail.mbox, mail.json and dice.log: written by Export, read back by Verify.

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"sortie/mailer/outmail"
	"sortie/rules/dice"
	"sortie/storage"
)

// diceLog is dice.log: a comment saying what the columns are, then one roll per line, tab-separated:
// round, label, sides, value. A label with a tab, a line break, a backslash or a leading quote is written
// as a Go-quoted string.
func diceLog(rounds []ArchivedRound) []byte {
	var b bytes.Buffer
	b.WriteString("# Every die thrown in the game, in order: round, label, sides, value (tab-separated).\n")
	for _, r := range rounds {
		for _, d := range r.Dice {
			fmt.Fprintf(&b, "%d\t%s\t%d\t%d\n", r.Round, diceLabel(d.Label), d.Sides, d.Value)
		}
	}
	return b.Bytes()
}

func diceLabel(label string) string {
	if label == "" || strings.ContainsAny(label, "\t\r\n\\") || strings.HasPrefix(label, `"`) || !utf8.ValidString(label) {
		return strconv.Quote(label)
	}
	return label
}

// parseDiceLog reads dice.log back: the rolls by round, in order.
func parseDiceLog(data []byte) (map[int][]dice.Roll, error) {
	out := map[int][]dice.Roll{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want round, label, sides and value separated by tabs", i+1)
		}
		round, err1 := strconv.Atoi(f[0])
		sides, err2 := strconv.Atoi(f[2])
		value, err3 := strconv.Atoi(f[3])
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		label := f[1]
		if strings.HasPrefix(label, `"`) {
			if label, err1 = strconv.Unquote(label); err1 != nil {
				return nil, fmt.Errorf("line %d: label: %v", i+1, err1)
			}
		}
		out[round] = append(out[round], dice.Roll{Label: label, Sides: sides, Value: value})
	}
	return out, nil
}

// mbox writes mails as an mboxrd file (RFC 4155): each a From_ line, the mail as outmail.Render makes
// it — the bytes the sender sent, or would send — with LF line ends and lines that start with ">*From "
// quoted with one more ">", and a blank line. It returns mail.json's entries beside it: where each mail
// stands, and its place in the mbox. A mail Render refuses (an address that is no address: the sender
// could not send it either) has no place in the mbox, and its entry says why.
func mbox(mails []storage.Outgoing, fromName string) ([]byte, []MailEntry) {
	var b bytes.Buffer
	entries := make([]MailEntry, 0, len(mails))
	n := 0
	for _, m := range mails {
		e := MailEntry{MessageID: m.MessageID, Kind: m.Kind, To: m.To, Created: m.Created, Status: m.Status, SentAt: m.SentAt,
			Attempts: m.Attempts, LastError: m.LastError}
		raw, err := outmail.Render(m.Mail, fromName)
		if err != nil {
			e.Problem = err.Error()
			entries = append(entries, e)
			continue
		}
		n++
		e.Mbox = n
		entries = append(entries, e)
		date := m.SentAt
		if date.IsZero() {
			date = m.Created
		}
		sender := m.From
		if sender == "" || strings.ContainsAny(sender, " \t") {
			sender = "MAILER-DAEMON"
		}
		fmt.Fprintf(&b, "From %s %s\n", sender, date.UTC().Format("Mon Jan _2 15:04:05 2006"))
		for _, line := range strings.SplitAfter(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n") {
			if line == "" {
				continue
			}
			if fromLine.MatchString(line) {
				b.WriteByte('>')
			}
			b.WriteString(line)
		}
		if !bytes.HasSuffix(raw, []byte("\n")) {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), entries
}

var fromLine = regexp.MustCompile(`^>*From `)

// MailEntry is one mail of the game in mail.json, in outbox order: what it is, where it stands, and its
// place in mail.mbox (1 for the first; 0 when it is not there, Problem says why).
type MailEntry struct {
	MessageID string            `json:"message_id"`
	Kind      string            `json:"kind,omitempty"`
	To        string            `json:"to"`
	Created   time.Time         `json:"created"`          // the mail's Date
	Status    storage.OutStatus `json:"status"`           // sent, pending or failed-permanently
	SentAt    time.Time         `json:"sent_at,omitzero"` // when the server accepted it
	Attempts  int               `json:"attempts,omitempty"`
	LastError string            `json:"last_error,omitempty"`
	Mbox      int               `json:"mbox"`
	Problem   string            `json:"problem,omitempty"`
}

// readMbox splits an mboxrd file into its messages, undoing the >From quoting.
func readMbox(data []byte) ([][]byte, error) {
	var msgs [][]byte
	var cur *bytes.Buffer
	prevBlank := true
	flush := func() {
		if cur != nil {
			msgs = append(msgs, bytes.TrimSuffix(cur.Bytes(), []byte("\n")))
		}
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" {
			continue
		}
		if prevBlank && strings.HasPrefix(line, "From ") {
			flush()
			cur, prevBlank = new(bytes.Buffer), false
			continue
		}
		if cur == nil {
			return nil, errors.New("the file does not start with a From_ line")
		}
		if strings.HasPrefix(line, ">") && fromLine.MatchString(line) {
			line = line[1:]
		}
		cur.WriteString(line)
		prevBlank = line == "\n"
	}
	flush()
	return msgs, nil
}
