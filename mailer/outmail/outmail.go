// Package outmail is Sortie's outgoing mail: the one type every outgoing mail is (Mail, with its Parts),
// and the one place a mail becomes bytes (Render). The outbox stores a Mail, the sender sends what Render
// makes of it, and the archive's mailbox holds what Render makes of it, so an archived mail is the mail
// that was sent, byte for byte.
//
// Render is deterministic: the same Mail gives the same bytes, on any machine and with any version of
// go-mail that writes the same MIME. The Date is the mail's Created time, the Message-ID its own, no
// User-Agent names a library version, and the MIME boundaries, which go-mail draws at random for every
// multipart, are replaced by boundaries derived from the Message-ID.
//
// The package imports go-mail and the standard library only, so the outbox (storage), the sender (mailer)
// and the archive can all use it without importing each other.
package outmail

import (
	"errors"
	"fmt"
	netmail "net/mail"
	"net/textproto"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Mail is one outgoing mail: who it is from and for, its text, the parts it carries, and what makes it
// recognisable (its Message-ID, the mail it answers). The JSON names are the outbox's stored format.
type Mail struct {
	From string `json:"from"` // address only
	// FromName is the display name in From; empty, Render's fromName is used (mail queued before the name
	// was stored with it).
	FromName string `json:"from_name,omitempty"`
	To       string `json:"to"` // one address
	ToName   string `json:"to_name,omitempty"`
	ReplyTo  string `json:"reply_to,omitempty"`
	Subject  string `json:"subject"`
	// Body is the mail's text, UTF-8: the whole mail when it has no parts, and its text/plain part when it
	// has. When a part is inline, Render adds an HTML alternative made from this same text (HTML).
	Body  string `json:"body"`
	Parts []Part `json:"parts,omitempty"`
	// MessageID is required and stable (so a resend is recognisable), without angle brackets.
	MessageID string            `json:"message_id"`
	InReplyTo string            `json:"in_reply_to,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"` // extra headers, e.g. X-Sortie-Game
	// Created is when the mail was made, and the Date it carries.
	Created time.Time `json:"created,omitzero"`
}

// Part is a file a mail carries: an attachment, or with Inline an image shown in the mail where the mail
// program can (below the text, in the HTML alternative; as an attachment where it cannot).
type Part struct {
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"` // type/subtype, no parameters, e.g. image/png
	Inline      bool   `json:"inline,omitempty"`
	// ContentID names an inline part for the HTML that shows it, without angle brackets; empty, Render
	// derives one from the part's place and the Message-ID.
	ContentID string `json:"content_id,omitempty"`
	Data      []byte `json:"data,omitempty"`
}

// ErrInvalid is wrapped by every error Check reports.
var ErrInvalid = errors.New("outmail: invalid mail")

// ReservedHeaders are set by Render and cannot be set through Mail.Headers; Render leaves such an extra
// header out (IgnoredHeaders names them).
var ReservedHeaders = func() map[string]bool {
	m := map[string]bool{}
	for _, h := range []string{
		"From", "Sender", "To", "Cc", "Bcc", "Reply-To", "Subject", "Date", "Message-ID",
		"In-Reply-To", "References", "MIME-Version", "Content-Type", "Content-Transfer-Encoding",
		"Content-Disposition", "Content-ID", "Return-Path", "User-Agent", "X-Mailer",
		"X-Sortie", "Auto-Submitted", "X-Auto-Response-Suppress",
	} {
		m[textproto.CanonicalMIMEHeaderKey(h)] = true
	}
	return m
}()

// IgnoredHeaders names the extra headers of m that Render leaves out: reserved ones and names that are
// not RFC 5322 field names. Sorted.
func IgnoredHeaders(m Mail) []string {
	var out []string
	for k := range m.Headers {
		if !ValidHeaderName(k) || ReservedHeaders[textproto.CanonicalMIMEHeaderKey(k)] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// ValidHeaderName accepts RFC 5322 field names: printable ASCII without ':'.
func ValidHeaderName(k string) bool {
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

// OneLine keeps a header value on one line (no header injection): line breaks and the blanks around them
// become single spaces.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}

// NormalizeID is a Message-ID without blanks around it and without angle brackets.
func NormalizeID(id string) string { return strings.Trim(strings.TrimSpace(id), "<>") }

// validID accepts a Message-ID (or Content-ID) as NormalizeID gives it: not empty, no brackets, blanks
// or control characters.
func validID(id string) bool {
	return id != "" && !strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' || r == '<' || r == '>' || r == 0x7f })
}

var contentType = regexp.MustCompile(`^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$`)

// CheckParts reports what is wrong with a mail's parts: a part without a file name or data, a name or
// Content-ID that would break the headers, a content type that is not type/subtype, an inline part that
// is not an image, two parts with one Content-ID. The outbox refuses such a mail when it is queued.
func CheckParts(m Mail) error {
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("%w: part %d: %s", ErrInvalid, i+1, fmt.Sprintf(format, args...))
	}
	cids := map[string]bool{}
	for i, p := range m.Parts {
		if strings.TrimSpace(p.Filename) == "" {
			return bad(i, "no file name")
		}
		if strings.ContainsFunc(p.Filename, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return bad(i, "control character in the file name %q", p.Filename)
		}
		if !contentType.MatchString(strings.ToLower(p.ContentType)) {
			return bad(i, "content type %q is not type/subtype", p.ContentType)
		}
		if len(p.Data) == 0 {
			return bad(i, "no data")
		}
		if p.Inline && !strings.HasPrefix(strings.ToLower(p.ContentType), "image/") {
			return bad(i, "only an image can be inline, not %s", p.ContentType)
		}
		if p.ContentID != "" {
			if !p.Inline {
				return bad(i, "a Content-ID on an attachment")
			}
			if cid := NormalizeID(p.ContentID); !validID(cid) {
				return bad(i, "Content-ID %q", p.ContentID)
			}
		}
		if p.Inline {
			cid := contentID(m, i)
			if cids[cid] {
				return bad(i, "a second part with Content-ID %s", cid)
			}
			cids[cid] = true
		}
	}
	return nil
}

// Check reports what keeps Render from making m: no date, a bad Message-ID, a From, To or Reply-To that is
// not an address, or bad parts (CheckParts).
func Check(m Mail) error {
	_, _, err := check(m)
	return err
}

// check validates m and returns its envelope addresses.
func check(m Mail) (from, to *netmail.Address, err error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	if id := NormalizeID(m.MessageID); !validID(id) {
		return nil, nil, bad("Message-ID %q", m.MessageID)
	}
	if m.Created.IsZero() {
		return nil, nil, bad("no date (Created)")
	}
	if from, err = netmail.ParseAddress(m.From); err != nil {
		return nil, nil, bad("From address %q: %v", m.From, err)
	}
	if to, err = netmail.ParseAddress(m.To); err != nil {
		return nil, nil, bad("To address %q: %v", m.To, err)
	}
	if m.ReplyTo != "" {
		if _, err := netmail.ParseAddress(m.ReplyTo); err != nil {
			return nil, nil, bad("Reply-To address %q: %v", m.ReplyTo, err)
		}
	}
	return from, to, CheckParts(m)
}

// Envelope is the SMTP envelope of m: the bare addresses of From and To.
func Envelope(m Mail) (from, to string, err error) {
	f, t, err := check(m)
	if err != nil {
		return "", "", err
	}
	return f.Address, t.Address, nil
}

// contentID is the Content-ID of m's i-th part (an inline one): its own, or one made from its place and
// the Message-ID, so it is unique to the mail and the same every time.
func contentID(m Mail, i int) string {
	if cid := NormalizeID(m.Parts[i].ContentID); cid != "" {
		return cid
	}
	return fmt.Sprintf("part%d.%s", i+1, NormalizeID(m.MessageID))
}

// hasInline says whether any part of m is inline (and so m has an HTML alternative).
func hasInline(m Mail) bool {
	return slices.ContainsFunc(m.Parts, func(p Part) bool { return p.Inline })
}
