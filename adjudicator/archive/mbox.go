package archive

// The archive's mail.mbox and dice.log: written by Export, read back by Verify.

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/mail"
	"regexp"
	"sort"
	"sortie/rules/dice"
	"sortie/storage"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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

// mbox writes mails as an mboxrd file (RFC 4155): each a From_ line, a complete RFC 5322 message with
// LF line ends and lines that start with ">*From " quoted with one more ">", and a blank line.
func mbox(mails []storage.Outgoing, fromName string) []byte {
	var b bytes.Buffer
	for _, m := range mails {
		date := m.SentAt
		if date.IsZero() {
			date = m.Created
		}
		sender := m.From
		if sender == "" || strings.ContainsAny(sender, " \t") {
			sender = "MAILER-DAEMON"
		}
		fmt.Fprintf(&b, "From %s %s\n", sender, date.UTC().Format("Mon Jan _2 15:04:05 2006"))
		for _, line := range strings.SplitAfter(message(m, fromName, date), "\n") {
			if line == "" {
				continue
			}
			if fromLine.MatchString(line) {
				b.WriteByte('>')
			}
			b.WriteString(line)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

var fromLine = regexp.MustCompile(`^>*From `)

// message renders one outgoing mail as the sender builds it (mailer/sender.go), with LF line ends and
// the body as 8-bit UTF-8. X-Sortie-Delivery says whether it was sent.
func message(m storage.Outgoing, fromName string, date time.Time) string {
	var b strings.Builder
	h := func(name, value string) { fmt.Fprintf(&b, "%s: %s\n", name, value) }
	h("Date", date.UTC().Format(time.RFC1123Z))
	h("From", addressHeader(fromName, m.From))
	h("To", addressHeader(m.ToName, m.To))
	if m.ReplyTo != "" {
		h("Reply-To", addressHeader("", m.ReplyTo))
	}
	h("Subject", encodeWord(m.Subject))
	h("Message-ID", "<"+strings.Trim(m.MessageID, "<>")+">")
	if irt := strings.Trim(m.InReplyTo, "<> "); irt != "" {
		h("In-Reply-To", "<"+irt+">")
		h("References", "<"+irt+">")
	}
	keys := make([]string, 0, len(m.Headers))
	for k := range m.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if validField(k) {
			h(k, encodeWord(m.Headers[k]))
		}
	}
	h("X-Sortie", "1")
	h("Auto-Submitted", "auto-generated")
	h("X-Auto-Response-Suppress", "OOF, AutoReply")
	h("X-Sortie-Delivery", string(m.Status))
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "8bit")
	b.WriteString("\n")
	body := strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\r", "\n")
	b.WriteString(body)
	if !strings.HasSuffix(body, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

func addressHeader(name, addr string) string {
	if a, err := mail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	return (&mail.Address{Name: oneLine(name), Address: oneLine(addr)}).String()
}

// encodeWord keeps a header value on one line and encodes it (RFC 2047) if it is not plain ASCII.
func encodeWord(s string) string { return mime.QEncoding.Encode("utf-8", oneLine(s)) }

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func validField(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 33 || c > 126 || c == ':' {
			return false
		}
	}
	return true
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
