package outmail

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	netmail "net/mail"
	"regexp"
	"slices"
	"strconv"
	"strings"

	mail "github.com/wneessen/go-mail"
)

// Render makes the bytes of m, with CRLF line ends (the last line too): what the sender sends, what the
// server receives and what the archive keeps.
// fromName is the display name in From when m has none of its own.
//
// The shape of the mail:
//   - no parts: one text/plain part (quoted-printable, UTF-8);
//   - attachments only: multipart/mixed { text/plain, the attachments };
//   - inline images: multipart/related { multipart/alternative { text/plain, text/html }, the images },
//     inside multipart/mixed when there are attachments too. The HTML is the text in <pre>, then each
//     image (<img src="cid:…">): a mail program that shows HTML shows the picture below the report,
//     one that does not (mutt) shows the text and lists the picture.
//
// Every mail is marked automatic (Auto-Submitted, X-Auto-Response-Suppress, X-Sortie) so that
// auto-responders, Sortie's own intake included, leave it alone.
func Render(m Mail, fromName string) ([]byte, error) {
	msg, levels, err := build(m, fromName)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := msg.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("outmail: render %s: %w", m.MessageID, err)
	}
	if !bytes.HasSuffix(buf.Bytes(), []byte("\r\n")) {
		// A text without a line end at its end: SMTP's DATA would add one, so the mail ends as it
		// arrives.
		buf.WriteString("\r\n")
	}
	return fixBoundaries(buf.Bytes(), m, levels)
}

// build makes the go-mail message of m, and says how many multiparts go-mail will write for it.
func build(m Mail, fromName string) (*mail.Msg, int, error) {
	from, to, err := check(m)
	if err != nil {
		return nil, 0, err
	}
	id := NormalizeID(m.MessageID)
	if m.FromName != "" {
		fromName = m.FromName
	}
	msg := mail.NewMsg(mail.WithNoDefaultUserAgent()) // UTF-8, quoted-printable
	msg.FromMailAddress(&netmail.Address{Name: OneLine(fromName), Address: from.Address})
	msg.ToMailAddress(&netmail.Address{Name: OneLine(m.ToName), Address: to.Address})
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return nil, 0, fmt.Errorf("%w: Reply-To %q: %v", ErrInvalid, m.ReplyTo, err)
		}
	}
	msg.Subject(OneLine(m.Subject))
	msg.SetMessageIDWithValue(id)
	msg.SetDateWithValue(m.Created.UTC())
	if irt := NormalizeID(m.InReplyTo); validID(irt) {
		msg.SetGenHeader(mail.HeaderInReplyTo, "<"+irt+">")
		msg.SetGenHeader(mail.HeaderReferences, "<"+irt+">")
	}
	keys := make([]string, 0, len(m.Headers))
	for k := range m.Headers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ignored := IgnoredHeaders(m)
	for _, k := range keys {
		if !slices.Contains(ignored, k) {
			msg.SetGenHeader(mail.Header(k), OneLine(m.Headers[k]))
		}
	}
	msg.SetGenHeader("X-Sortie", "1")
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	msg.SetGenHeader("X-Auto-Response-Suppress", "OOF, AutoReply")

	msg.SetBodyString(mail.TypeTextPlain, m.Body)
	levels := 0
	if hasInline(m) {
		html, err := HTML(m)
		if err != nil {
			return nil, 0, err
		}
		msg.AddAlternativeString(mail.TypeTextHTML, html)
		levels += 2 // related { alternative { … } … }
	}
	attached := false
	for i, p := range m.Parts {
		opts := []mail.FileOption{mail.WithFileContentType(mail.ContentType(strings.ToLower(p.ContentType)))}
		if p.Inline {
			opts = append(opts, mail.WithFileContentID("<"+contentID(m, i)+">"))
			err = msg.EmbedReader(p.Filename, bytes.NewReader(p.Data), opts...)
		} else {
			attached = true
			err = msg.AttachReader(p.Filename, bytes.NewReader(p.Data), opts...)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("outmail: part %d: %w", i+1, err)
		}
	}
	if attached {
		levels++ // mixed
	}
	return msg, levels, nil
}

var htmlPage = template.Must(template.New("mail").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{{.Subject}}</title>
</head>
<body>
<pre>{{.Text}}</pre>
{{range .Images}}<p><img src="{{.Src}}" alt="{{.Alt}}"></p>
{{end}}</body>
</html>
`))

// HTML is the HTML alternative of a mail with inline parts, made from its text: the text, escaped, in
// <pre>, then each inline image by its Content-ID.
func HTML(m Mail) (string, error) {
	type image struct {
		Src template.URL
		Alt string
	}
	data := struct {
		Subject, Text string
		Images        []image
	}{Subject: OneLine(m.Subject), Text: strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\r", "\n")}
	for i, p := range m.Parts {
		if p.Inline {
			// The Content-ID is checked (no blanks, brackets or control characters) and percent-escaped
			// where a URL needs it (RFC 2392), so it is a safe cid: URL.
			data.Images = append(data.Images, image{Src: template.URL("cid:" + cidURL(contentID(m, i))), Alt: p.Filename})
		}
	}
	var b strings.Builder
	if err := htmlPage.Execute(&b, data); err != nil {
		return "", fmt.Errorf("outmail: HTML of %s: %w", m.MessageID, err)
	}
	return b.String(), nil
}

// cidURL escapes a Content-ID for a cid: URL (RFC 2392: the addr-spec, %-escaped where a URL must be).
func cidURL(cid string) string {
	var b strings.Builder
	for i := 0; i < len(cid); i++ {
		c := cid[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// goMailBoundary is a boundary go-mail (mime/multipart) draws: 30 random bytes in hex, after "boundary="
// in a multipart's Content-Type.
var goMailBoundary = regexp.MustCompile(`boundary=([0-9a-f]{60})\r\n`)

// fixBoundaries replaces the random boundaries go-mail drew for the multiparts of raw (levels of them)
// by boundaries derived from the Message-ID, in place. A derived boundary is "sortie" and 54 hex digits
// (as long as go-mail's, so nothing moves); one that occurs anywhere in the mail (a text that quotes it)
// is passed over for the next, so none can be forged from inside a part. go-mail offers one fixed
// boundary for all multiparts only (Msg.SetBoundary), which nested multiparts cannot share.
func fixBoundaries(raw []byte, m Mail, levels int) ([]byte, error) {
	if levels == 0 {
		return raw, nil
	}
	// go-mail writes every multipart's header before the first part's content, so the search ends
	// there. A string that only looks like a boundary (a subject folded after "…;") is in the mail's
	// input; go-mail's are random and in none.
	var random []string
	for off := 0; len(random) < levels; {
		loc := goMailBoundary.FindSubmatchIndex(raw[off:])
		if loc == nil {
			break
		}
		b := string(raw[off+loc[2] : off+loc[3]])
		off += loc[1]
		if !slices.Contains(random, b) && !inInput(m, b) {
			random = append(random, b)
		}
	}
	if len(random) != levels {
		return nil, fmt.Errorf("outmail: render %s: found %d multipart boundaries, want %d", m.MessageID, len(random), levels)
	}
	id := NormalizeID(m.MessageID)
	derived := make([][]byte, 0, levels)
	for i := range random {
		for n := 0; ; n++ {
			sum := sha256.Sum256([]byte("sortie boundary\x00" + id + "\x00" + strconv.Itoa(i) + "\x00" + strconv.Itoa(n)))
			b := []byte("sortie" + hex.EncodeToString(sum[:27]))
			if !bytes.Contains(raw, b) && !slices.ContainsFunc(derived, func(d []byte) bool { return bytes.Equal(d, b) }) {
				derived = append(derived, b)
				break
			}
		}
	}
	for i, old := range random {
		for at := 0; ; {
			j := bytes.Index(raw[at:], []byte(old))
			if j < 0 {
				break
			}
			at += j + copy(raw[at+j:], derived[i])
		}
	}
	return raw, nil
}

// inInput says whether s occurs in anything of m that Render writes.
func inInput(m Mail, s string) bool {
	for _, v := range []string{m.From, m.FromName, m.To, m.ToName, m.ReplyTo, m.Subject, m.Body, m.MessageID, m.InReplyTo} {
		if strings.Contains(v, s) {
			return true
		}
	}
	for k, v := range m.Headers {
		if strings.Contains(k, s) || strings.Contains(v, s) {
			return true
		}
	}
	for _, p := range m.Parts {
		if strings.Contains(p.Filename, s) || strings.Contains(p.ContentID, s) || bytes.Contains(p.Data, []byte(s)) {
			return true
		}
	}
	return false
}
