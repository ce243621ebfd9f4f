// Package inmail is how Sortie reads incoming mail, the mirror of outmail: Parse turns one raw message
// into a Mail (who sent it, to whom, the threading headers, and the text that may hold orders, with
// quoted replies and the signature stripped by StripQuoted and HTML turned into text by HTMLToText), and
// Mail.ShouldIgnore says whether a message must never be answered. It does no I/O and knows nothing of
// games or of IMAP: the intake in package mailer fetches the bytes, and the daemon hands what Parse reads
// to the adjudicator.
package inmail

// This file turns one raw message into a Mail: the sender, the recipients, the threading headers and
// the text that may hold orders, whatever mail program wrote it. The top-level header is read leniently
// here (an mbox "From " line, broken lines, a missing blank line); the MIME tree is walked lazily with
// go-message's multipart reader and its transfer decoders, so only text parts are decoded and a huge or
// many-part message costs no more than its limits; every charset the go-message charset package knows is
// converted to UTF-8 and an unknown one read as windows-1252 with a warning. Nothing here fails on a bad
// body: only a message without a single header field is refused.

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	netmail "net/mail"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset" // also registers message.CharsetReader for every charset it knows
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding/charmap"
	textunicode "golang.org/x/text/encoding/unicode"
)

// Mail is a parsed message: who sent it, to whom, and the text that may hold orders.
type Mail struct {
	From       string   // sender address, lower case (the address only)
	FromName   string   // display name, decoded (may be non-ASCII)
	To         []string // every recipient address from To, Cc, Delivered-To, X-Original-To, lower case, deduplicated
	MessageID  string   // without <>; if the message has none: "sha256:" + hex SHA-256 of the raw bytes
	InReplyTo  string   // without <>
	References []string
	Subject    string // decoded
	Date       time.Time
	// Text is the best text part as UTF-8: text/plain preferred, else text/html converted to text. The
	// BOM is removed, CRLF and CR are LF, and format=flowed (RFC 3676, with DelSp) is unwrapped.
	Text      string
	FromHTML  bool     // Text was converted from HTML
	OrderText string   // Text without quoted replies and the signature (StripQuoted): what the order parser reads
	Size      int      // len(raw)
	Warnings  []string // what was read leniently, e.g. an unknown charset read as windows-1252

	hdr       textproto.Header // the top-level header, for ShouldIgnore
	mediaType string           // its media type as mediaType reads it, once read
}

// Limits on the work one message may cause.
const (
	maxParts       = 50               // MIME parts looked at; later parts are ignored
	maxDepth       = 10               // MIME nesting; deeper multiparts are ignored
	maxTextBytes   = 1 << 20          // Text is truncated beyond this
	maxPartBytes   = 4 << 20          // decoded bytes of one text part considered
	maxBase64Bytes = 2 * maxPartBytes // encoded bytes of one base64 text part read (more than maxPartBytes decode to)
	maxWarnings    = 20
	maxHeaderBytes = 1 << 20 // header fields beyond this are ignored
)

// Parse reads a raw RFC 5322 message. It fails only when raw has no header field at all; every
// other defect (bad charset, broken base64, malformed MIME, missing headers) is read as well as possible
// and noted in Warnings. It never panics.
func Parse(raw []byte) (m *Mail, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("inmail: unreadable message: %v", r)
		}
	}()
	return parse(raw)
}

var errNoHeader = errors.New("inmail: unreadable message: no header fields")

// parseState is the state of one Parse call.
type parseState struct {
	warnings []string
	parts    int
	partsCap bool
	depthCap bool
	// attachment is the first text/plain attachment, used when the message has no inline text at all.
	attachment *textAttachment
	addrParser *netmail.AddressParser // made when a header needs it
}

// textAttachment is a text/plain attachment read as it streamed past, with the warnings reading it gave
// (which count only if it is used).
type textAttachment struct {
	name, text string
	warnings   []string
}

func (p *parseState) warn(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	for _, o := range p.warnings {
		if o == w {
			return
		}
	}
	if len(p.warnings) < maxWarnings {
		p.warnings = append(p.warnings, w)
	}
}

func parse(raw []byte) (*Mail, error) {
	p := &parseState{}
	work := raw
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') >= 0 {
		work = bytes.ReplaceAll(raw, []byte("\r"), []byte("\n")) // classic Mac OS line ends
	}
	hb, body := splitHeaderBody(work)
	h, fields := p.readHeader(hb)
	if fields == 0 {
		return nil, errNoHeader
	}
	mh := mail.Header{Header: message.Header{Header: h}}
	m := &Mail{Size: len(raw), hdr: h}

	var addrBuf [4]mail.Address
	if froms := p.addresses(addrBuf[:0], h, "From"); len(froms) > 0 {
		m.From = froms[0].Address
		m.FromName = froms[0].Name
	} else if h.Get("From") != "" {
		p.warn("unreadable From header %q", clip(h.Get("From")))
	}
	var seen map[string]bool // made when the list is long; a short one is searched
	for _, k := range []string{"To", "Cc", "Delivered-To", "X-Original-To"} {
		for _, a := range p.addresses(addrBuf[:0], h, k) {
			if seen == nil && len(m.To) >= 16 {
				seen = make(map[string]bool, 2*len(m.To))
				for _, t := range m.To {
					seen[t] = true
				}
			}
			if seen != nil {
				if seen[a.Address] {
					continue
				}
				seen[a.Address] = true
			} else if slices.Contains(m.To, a.Address) {
				continue
			}
			m.To = append(m.To, a.Address)
		}
	}

	m.MessageID = messageID(mh)
	if m.MessageID == "" {
		sum := sha256.Sum256(raw)
		m.MessageID = "sha256:" + hex.EncodeToString(sum[:])
	}
	if ids := idList(mh, "In-Reply-To"); len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.References = idList(mh, "References")
	m.Subject = p.decodeWords(h.Get("Subject"))
	m.Date = p.date(mh)

	// The body.
	mt, params := mediaType(h, "text/plain")
	m.mediaType = mt
	text, isHTML, ok := p.bestOf(h, mt, params, newBytesReader(body), 0)
	if a := p.attachment; (!ok || strings.TrimSpace(text) == "") && a != nil && strings.TrimSpace(a.text) != "" {
		text, isHTML, ok = a.text, false, true
		for _, w := range a.warnings {
			p.warn("%s", w)
		}
		p.warn("no inline text: read the attached text file %q", clip(a.name))
	}
	if !ok {
		p.warn("no readable text part")
	}
	if len(text) > maxTextBytes {
		text = truncateUTF8(text, maxTextBytes)
		p.warn("text over 1 MiB truncated")
	}
	m.Text = text
	m.FromHTML = isHTML
	m.OrderText = StripQuoted(text)
	m.Warnings = p.warnings
	return m, nil
}

// ---- header ----

// splitHeaderBody cuts a message at the first empty line; its first line may be an mbox "From " line.
// Without an empty line, the header ends at the first line that is neither a header field nor its
// continuation.
func splitHeaderBody(raw []byte) (hdr, body []byte) {
	start := 0
	if bytes.HasPrefix(raw, []byte("From ")) {
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			start = i + 1
		} else {
			return nil, nil
		}
	}
	firstInvalid := -1
	for i := start; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\n')
		var line []byte
		next := len(raw)
		if j >= 0 {
			line = raw[i : i+j]
			next = i + j + 1
		} else {
			line = raw[i:]
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			return raw[start:i], raw[next:]
		}
		if firstInvalid < 0 && line[0] != ' ' && line[0] != '\t' && !isHeaderLine(line) {
			firstInvalid = i
		}
		i = next
	}
	if firstInvalid >= 0 {
		return raw[start:firstInvalid], raw[firstInvalid:]
	}
	return raw[start:], nil
}

// isHeaderLine reports whether line starts a header field: a name of printable ASCII, then a colon.
func isHeaderLine(line []byte) bool {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return false
	}
	key := bytes.TrimRight(line[:i], " \t")
	if len(key) == 0 {
		return false
	}
	for _, c := range key {
		if c < 33 || c > 126 {
			return false
		}
	}
	return true
}

// readFields are the header fields Sortie reads from a message's header (Parse and
// ShouldIgnore), with every field whose name starts with X-Sortie: readHeader keeps only these, so the
// many others a delivered mail carries (Received, DKIM-Signature, ARC-*, …) cost nothing. A field read
// anywhere in this file must be listed here (TestReadFieldsListed checks the names this file holds).
var readFields = []string{
	"From", "To", "Cc", "Delivered-To", "X-Original-To", "Message-Id", "In-Reply-To", "References", "Subject", "Date",
	"Content-Type", "Content-Transfer-Encoding", "Content-Disposition",
	"Return-Path", "Auto-Submitted", "X-Autoreply", "X-Autorespond", "X-Autogenerated", "Precedence",
	"List-Id", "List-Unsubscribe", "Mailing-List",
}

// readFieldSet holds readFields lower case.
var readFieldSet = func() map[string]bool {
	m := make(map[string]bool, len(readFields))
	for _, k := range readFields {
		m[strings.ToLower(k)] = true
	}
	return m
}()

// isReadField reports whether the field named key (ASCII, as isHeaderLine allows) is one
// readFields lists or starts with X-Sortie, in any case: the field go-message's Header would find
// under those names, as it compares names in canonical form.
func isReadField(key []byte) bool {
	var low [32]byte
	if len(key) > len(low) {
		return lowerHasPrefix(string(key), "x-sortie")
	}
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	k := low[:len(key)]
	return readFieldSet[string(k)] || bytes.HasPrefix(k, []byte("x-sortie"))
}

// readHeader parses the message's header block, dropping lines that are not header fields (with a
// warning), and keeps the fields isReadField names; fields counts every field the block holds. Each
// kept field, with its continuation lines, is written out with CRLF line ends and handed to go-message's
// Header.AddRaw, last first: the header textproto.ReadHeader would read from those bytes (the same keys,
// values, raw bytes and order; its tests compare the two), without a copy of every line through a
// bufio.Reader.
func (p *parseState) readHeader(b []byte) (h textproto.Header, fields int) {
	if len(b) > maxHeaderBytes {
		b = b[:maxHeaderBytes]
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			b = b[:i+1]
		}
		p.warn("message header over 1 MiB truncated")
	}
	clean := make([]byte, 0, len(b)+len(b)/32+8)
	var startsBuf [32]int
	starts := startsBuf[:0] // where each kept field begins in clean
	dropped, keep := 0, false
	for len(b) > 0 {
		var line []byte
		if j := bytes.IndexByte(b, '\n'); j >= 0 {
			line, b = b[:j], b[j+1:]
		} else {
			line, b = b, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(line) == 0:
			continue
		case line[0] == ' ' || line[0] == '\t':
			if !keep {
				continue
			}
		case isHeaderLine(line):
			fields++
			keep = isReadField(bytes.TrimRight(line[:bytes.IndexByte(line, ':')], " \t"))
			if !keep {
				continue
			}
			starts = append(starts, len(clean))
		default:
			keep = false
			dropped++
			continue
		}
		clean = append(clean, line...)
		clean = append(clean, '\r', '\n')
	}
	if dropped > 0 {
		p.warn("%d malformed message header line(s) ignored", dropped)
	}
	// Every field starts with a key of printable ASCII and a colon (isHeaderLine), and no line is
	// longer than the block: textproto.ReadHeader would read these bytes without an error.
	end := len(clean)
	for i := len(starts) - 1; i >= 0; i-- {
		h.AddRaw(clean[starts[i]:end:end]) // AddRaw puts a field on top
		end = starts[i]
	}
	return h, fields
}

// headerUTF8 makes a raw header value valid UTF-8: 8-bit bytes that are not UTF-8 are read as windows-1252.
func headerUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return decodeMixedUTF8([]byte(s))
}

// decodeWords decodes RFC 2047 encoded words with any charset; an unknown one is read as windows-1252.
func (p *parseState) decodeWords(s string) string {
	s = headerUTF8(s)
	if !strings.Contains(s, "=?") {
		return s
	}
	out, err := p.wordDecoder().DecodeHeader(s)
	if err != nil {
		return s
	}
	return headerUTF8(out)
}

func (p *parseState) wordDecoder() *mime.WordDecoder {
	return &mime.WordDecoder{CharsetReader: func(cs string, input io.Reader) (io.Reader, error) {
		if r, err := charset.Reader(cs, input); err == nil && r != nil {
			return r, nil
		}
		p.warn("unknown charset %q in a header read as windows-1252", clip(cs))
		return charmap.Windows1252.NewDecoder().Reader(input), nil
	}}
}

func messageID(h mail.Header) string {
	v := strings.TrimSpace(headerUTF8(h.Get("Message-Id")))
	if v == "" {
		return ""
	}
	if id, err := h.MessageID(); err == nil && id != "" {
		return id
	}
	if ids := looseIDs(v); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

func idList(h mail.Header, key string) []string {
	v := headerUTF8(h.Get(key))
	if strings.TrimSpace(v) == "" {
		return nil
	}
	if ids, err := h.MsgIDList(key); err == nil && len(ids) > 0 {
		return ids
	}
	return looseIDs(v)
}

// looseIDs finds <...> items; without any, the whitespace-separated words.
func looseIDs(v string) []string {
	var out []string
	rest := v
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '>')
		if j < 0 {
			break
		}
		if id := strings.TrimSpace(rest[i+1 : i+j]); id != "" {
			out = append(out, id)
		}
		rest = rest[i+j+1:]
	}
	if len(out) == 0 {
		for _, f := range strings.Fields(v) {
			if f = strings.Trim(f, "<>,;"); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

var dateLayouts = []string{
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04 -0700",
	"2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 06 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05",
	"Mon Jan 2 15:04:05 2006",
	"Mon Jan 2 15:04:05 -0700 2006",
	time.RFC3339,
	"2006-01-02 15:04:05 -0700",
}

func (p *parseState) date(h mail.Header) time.Time {
	v := strings.TrimSpace(headerUTF8(h.Get("Date")))
	if v == "" {
		return time.Time{}
	}
	// The form nearly every mail program writes, first: net/mail tries many layouts, and each miss costs.
	if t, err := time.Parse("Mon, 2 Jan 2006 15:04:05 -0700", v); err == nil {
		return t
	}
	if t, err := h.Date(); err == nil {
		return t
	}
	s := v
	if i := strings.IndexByte(s, '('); i > 0 {
		s = strings.TrimSpace(s[:i])
	}
	s = strings.Join(strings.Fields(s), " ")
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	p.warn("unreadable Date header %q", clip(v))
	return time.Time{}
}

// ---- body ----

// mediaType returns the lower-case media type and its parameters; broken parameters are read leniently.
func mediaType(h textproto.Header, def string) (string, map[string]string) {
	v := headerUTF8(h.Get("Content-Type"))
	if strings.TrimSpace(v) == "" {
		return def, map[string]string{}
	}
	mt, params, err := mime.ParseMediaType(v)
	if err != nil || params == nil {
		params = looseParams(v)
		if mt == "" {
			mt = strings.ToLower(strings.TrimSpace(strings.SplitN(v, ";", 2)[0]))
		}
	}
	if !strings.Contains(mt, "/") {
		mt = def
	}
	return mt, params
}

// looseParams reads ; key=value parameters the way most mail programs do when mime.ParseMediaType gives up.
func looseParams(v string) map[string]string {
	params := map[string]string{}
	pieces := strings.Split(v, ";")
	for _, piece := range pieces[1:] {
		k, val, ok := strings.Cut(piece, "=")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		k = strings.TrimSuffix(k, "*")
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '"' {
			if j := strings.IndexByte(val[1:], '"'); j >= 0 {
				val = val[1 : j+1]
			} else {
				val = val[1:]
			}
		}
		if _, dup := params[k]; k != "" && !dup {
			params[k] = val
		}
	}
	return params
}

func partFilename(h textproto.Header) string {
	if _, p, err := mime.ParseMediaType(h.Get("Content-Disposition")); err == nil && p["filename"] != "" {
		return p["filename"]
	}
	_, p := mediaType(h, "text/plain")
	return p["name"]
}

// isAttachment: Content-Disposition attachment, or (without a disposition) a Content-Type name.
func isAttachment(h textproto.Header, params map[string]string) bool {
	d := strings.ToLower(strings.TrimSpace(h.Get("Content-Disposition")))
	if d != "" {
		return strings.HasPrefix(d, "attachment")
	}
	return params["name"] != ""
}

// best finds the text of an entity: for multipart/alternative the plain alternative (else the HTML one),
// for every other multipart the first child with text, for a leaf its own text if it is inline text.
// body is read lazily: a multipart is walked part by part with go-message's multipart reader, and only
// the text parts are decoded.
func (p *parseState) best(h textproto.Header, body io.Reader, depth int, def string) (text string, isHTML, ok bool) {
	mt, params := mediaType(h, def)
	return p.bestOf(h, mt, params, body, depth)
}

// bestOf is best for an entity whose media type is read.
func (p *parseState) bestOf(h textproto.Header, mt string, params map[string]string, body io.Reader, depth int) (text string, isHTML, ok bool) {
	switch {
	case strings.HasPrefix(mt, "multipart/"):
		if depth >= maxDepth {
			if !p.depthCap {
				p.depthCap = true
				p.warn("MIME nesting deeper than %d ignored", maxDepth)
			}
			return "", false, false
		}
		boundary := params["boundary"]
		if boundary == "" {
			p.warn("%s without a boundary ignored", mt)
			return "", false, false
		}
		return p.multipart(mt, boundary, body, depth)
	case mt == "text/plain" || mt == "text/html":
		if isAttachment(h, params) {
			if mt == "text/plain" && p.attachment == nil {
				// Read now, as it streams past: it is the text if the message turns out to have no other.
				sub := &parseState{}
				t, _, _ := sub.leafText(params, h, body, mt)
				p.attachment = &textAttachment{name: partFilename(h), text: t, warnings: sub.warnings}
			}
			return "", false, false
		}
		return p.leafText(params, h, body, mt)
	}
	return "", false, false
}

// multipart walks the parts of a multipart body. The first child with non-blank text wins (in an
// alternative, the first plain one); a blank text part is used only when nothing better follows. The
// preamble and epilogue are skipped; a body that ends before its closing delimiter ends its last part.
// Limits: maxParts parts in the whole message, maxDepth levels of nesting.
func (p *parseState) multipart(mt, boundary string, body io.Reader, depth int) (string, bool, bool) {
	childDef := "text/plain"
	if mt == "multipart/digest" {
		childDef = "message/rfc822"
	}
	type found struct {
		text   string
		isHTML bool
	}
	var html, blank *found
	mr := textproto.NewMultipartReader(body, boundary)
	cut := false // the last part ran to the end of the input
	for n := 0; ; n++ {
		part, err := mr.NextPart()
		if err != nil {
			switch {
			case err == io.EOF || cut:
			case n == 0:
				p.warn("%s: no part could be read (%s)", mt, errText(err))
			default:
				p.warn("%s: part %d and those after it could not be read (%s)", mt, n+1, errText(err))
			}
			break
		}
		if p.parts >= maxParts {
			if !p.partsCap {
				p.partsCap = true
				p.warn("MIME parts beyond %d ignored", maxParts)
			}
			break
		}
		p.parts++
		pb := &partBody{r: part}
		t, h, ok := p.best(part.Header, pb, depth+1, childDef)
		switch {
		case !ok:
		case strings.TrimSpace(t) == "":
			if blank == nil {
				blank = &found{t, h}
			}
		case mt != "multipart/alternative" || !h:
			return t, h, true
		case html == nil:
			html = &found{t, h}
		}
		_, _ = io.Copy(io.Discard, pb) // what the child left unread, through pb to see where it ends
		cut = pb.cut
	}
	if html != nil {
		return html.text, html.isHTML, true
	}
	if blank != nil {
		return blank.text, blank.isHTML, true
	}
	return "", false, false
}

// partBody is a part's body from go-message's multipart reader. The end of the input before the
// part's delimiter (a message cut short, or without its closing delimiter) is the end of the part, as
// mail programs read it, and is noted in cut.
type partBody struct {
	r   io.Reader
	cut bool
}

func (b *partBody) Read(buf []byte) (int, error) {
	n, err := b.r.Read(buf)
	if err == io.ErrUnexpectedEOF {
		b.cut, err = true, io.EOF
	}
	return n, err
}

// leafText decodes one text/plain or text/html part to clean UTF-8 text.
func (p *parseState) leafText(params map[string]string, h textproto.Header, body io.Reader, mt string) (string, bool, bool) {
	data := p.decodeBody(h, body)
	cs := strings.ToLower(strings.Trim(strings.TrimSpace(params["charset"]), `"'`))
	isHTML := mt == "text/html"
	if isHTML && cs == "" {
		cs = sniffHTMLCharset(data)
	}
	if isHTML {
		return HTMLToText(p.toUTF8(data, cs)), true, true
	}
	flowed, delsp := strings.EqualFold(params["format"], "flowed"), strings.EqualFold(params["delsp"], "yes")
	if b, ok := plainUTF8(data, cs); ok {
		// Straight from the bytes to the text, in one copy.
		if flowed {
			return decodeFlowed(b, delsp), false, true
		}
		return lineEndsToLF(b), false, true
	}
	s := normalizeNewlines(p.toUTF8(data, cs))
	if flowed {
		s = decodeFlowed(s, delsp)
	}
	return s, false, true
}

// plainUTF8 is the text nearly every mail holds, valid UTF-8 in a UTF-8 or ASCII charset (or none),
// without the BOMs toUTF8 and normalizeNewlines remove: lineEndsToLF(b) is then
// normalizeNewlines(p.toUTF8(text, cs)), without its copies and with no warning. For other text ok
// is false, and the general path reads it. TestPlainUTF8 and FuzzFlowedAndNewlinesAsBefore hold the two
// to the same text.
func plainUTF8(text []byte, cs string) (b []byte, ok bool) {
	const bom = "\uFEFF"
	b = text
	switch {
	case bytes.HasPrefix(b, []byte(bom)):
		b, cs = b[len(bom):], "utf-8"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}), bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return nil, false
	}
	switch cs {
	case "", "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968":
	default:
		return nil, false
	}
	if !utf8.Valid(b) {
		return nil, false
	}
	b = bytes.TrimPrefix(b, []byte(bom)) // cleanUTF8's
	b = bytes.TrimPrefix(b, []byte(bom)) // normalizeNewlines'
	return b, true
}

// textLike is what the line readers below take: a string, or bytes read without a copy.
type textLike interface{ ~string | ~[]byte }

func indexByte[T textLike](s T, c byte) int {
	switch v := any(s).(type) {
	case string:
		return strings.IndexByte(v, c)
	case []byte:
		return bytes.IndexByte(v, c)
	}
	panic("unreachable")
}

func writeText[T textLike](out *strings.Builder, s T) {
	switch v := any(s).(type) {
	case string:
		out.WriteString(v)
	case []byte:
		out.Write(v)
	}
}

// nextLine cuts the first line off s. A line ends at LF, CRLF or a lone CR; more is false for the
// last line.
func nextLine[T textLike](s T) (line, rest T, more bool) {
	lf := indexByte(s, '\n')
	end := lf
	if lf < 0 {
		end = len(s)
	}
	if cr := indexByte(s[:end], '\r'); cr >= 0 {
		if cr+1 == lf {
			return s[:cr], s[lf+1:], true
		}
		return s[:cr], s[cr+1:], true
	}
	if lf < 0 {
		return s, s[len(s):], false
	}
	return s[:lf], s[lf+1:], true
}

// lineEndsToLF is s with CRLF and a lone CR made LF.
func lineEndsToLF[T textLike](s T) string {
	var out strings.Builder
	if indexByte(s, '\r') < 0 {
		if str, ok := any(s).(string); ok {
			return str
		}
		out.Grow(len(s))
		writeText(&out, s)
		return out.String()
	}
	out.Grow(len(s))
	for rest := s; ; {
		l, r, more := nextLine(rest)
		writeText(&out, l)
		if !more {
			break
		}
		out.WriteByte('\n')
		rest = r
	}
	return out.String()
}

func normalizeNewlines(s string) string {
	return lineEndsToLF(strings.TrimPrefix(s, "\uFEFF"))
}

// decodeBody undoes a part's Content-Transfer-Encoding with go-message's decoders (mime/quotedprintable,
// encoding/base64) and reads at most maxPartBytes of the result. An unknown encoding is read as 8bit.
// Damage stops quoted-printable there: what came before it is kept. Damaged base64 is salvaged.
func (p *parseState) decodeBody(h textproto.Header, body io.Reader) []byte {
	enc := strings.ToLower(strings.Trim(strings.TrimSpace(h.Get("Content-Transfer-Encoding")), `"'`))
	var raw []byte
	if enc == "base64" {
		// The encoded text is kept for salvageBase64: a text part is small, and read whole either way.
		raw, _ = readAtMost(body, maxBase64Bytes)
		body = bytes.NewReader(raw)
	}
	switch enc {
	case "", "7bit", "8bit", "binary": // nothing to undo (go-message would hand back body itself)
		if br, ok := body.(*bytesReader); ok && br.Len() == len(br.b) {
			// What readAtMost would copy out, in place: the bytes are only read.
			data := br.b[:min(len(br.b), maxPartBytes+1)]
			if len(data) > maxPartBytes {
				data = data[:maxPartBytes]
				p.warn("text part over %d MiB truncated", maxPartBytes>>20)
			}
			return data
		}
	default:
		var eh message.Header
		eh.Set("Content-Transfer-Encoding", enc) // the encoding alone: the charset is toUTF8's to read
		e, err := message.New(eh, body)
		if message.IsUnknownEncoding(err) {
			p.warn("unknown Content-Transfer-Encoding %q read as 8bit", clip(enc))
		}
		body = e.Body
	}
	data, err := readAtMost(body, maxPartBytes+1)
	switch {
	case err == nil:
	case enc == "base64" && len(raw) == maxBase64Bytes: // cut here, far beyond maxPartBytes
	case enc == "base64":
		// encoding/base64 stops at the first damaged quantum, and refuses unpadded and concatenated
		// encodings; salvageBase64 decodes what can be decoded around the damage.
		var broken bool
		if data, broken = salvageBase64(raw); broken {
			p.warn("broken base64 body: damaged data skipped")
		}
	default:
		p.warn("broken %s body: read up to the damage (%s)", enc, errText(err))
	}
	if len(data) > maxPartBytes {
		data = data[:maxPartBytes]
		p.warn("text part over %d MiB truncated", maxPartBytes>>20)
	}
	return data
}

// bytesReader is a body held whole in memory, the message's own: decodeBody takes a body with
// nothing to decode from it without a copy. What decodeBody returns is only ever read.
type bytesReader struct {
	bytes.Reader
	b []byte
}

func newBytesReader(b []byte) *bytesReader {
	r := &bytesReader{b: b}
	r.Reset(b)
	return r
}

// readAtMost reads r to its end, or n bytes of it. A reader that knows how much is left (bytes.Reader)
// is read into one buffer of that size.
func readAtMost(r io.Reader, n int) ([]byte, error) {
	size := 512
	if l, ok := r.(interface{ Len() int }); ok {
		size = min(l.Len(), n) + 1 // +1: room to see the end without growing
	}
	buf := make([]byte, 0, size)
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

func isBase64Char(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// salvageBase64 decodes base64 that encoding/base64 refused, and reports whether anything was
// damaged: characters outside the alphabet are skipped, '=' ends a group (so concatenated encodings
// work, and a missing padding is no damage), a dangling character is dropped, and when every line so far
// was a whole number of quads, a shorter line in the middle is taken as damaged and decoded on its own,
// so the lines after it stay aligned.
func salvageBase64(b []byte) ([]byte, bool) {
	out := make([]byte, 0, len(b)*3/4+3)
	acc := make([]byte, 0, 128)
	broken := false
	flush := func(dropPartial bool) {
		rem := len(acc) % 4
		if rem == 1 || (dropPartial && rem != 0) {
			acc = acc[:len(acc)-rem]
			broken = true
		}
		if len(acc) > 0 {
			dst := make([]byte, base64.RawStdEncoding.DecodedLen(len(acc)))
			n, err := base64.RawStdEncoding.Decode(dst, acc)
			if err != nil {
				broken = true
			}
			out = append(out, dst[:n]...)
		}
		acc = acc[:0]
	}
	// The last line with data: a short last line is normal.
	last := -1
	for i := len(b) - 1; i >= 0; i-- {
		if isBase64Char(b[i]) {
			last = i
			break
		}
	}
	regular := true
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\n')
		end := len(b)
		if j >= 0 {
			end = i + j
		}
		line := b[i:end]
		n, padded := 0, false
		for _, c := range line {
			switch {
			case isBase64Char(c):
				acc = append(acc, c)
				n++
			case c == '=':
				padded = true
				flush(false)
			case c == ' ' || c == '\t' || c == '\r':
			default:
				broken = true
			}
		}
		if n%4 != 0 && !padded {
			if regular && end < last {
				flush(true) // a damaged line in a regular stream
			} else {
				regular = false
			}
		}
		i = end + 1
	}
	flush(false)
	return out, broken
}

// sniffHTMLCharset returns the charset a <meta charset=...> or <meta http-equiv=Content-Type
// content="...; charset=..."> element declares in the first 4 KiB of an HTML document, or "".
func sniffHTMLCharset(b []byte) string {
	if len(b) > 4096 {
		b = b[:4096]
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			if string(name) != "meta" {
				continue
			}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				cs := ""
				switch string(k) {
				case "charset":
					cs = string(v)
				case "content":
					cs = looseParams(string(v))["charset"]
				}
				if cs = strings.ToLower(strings.Trim(strings.TrimSpace(cs), `"'`)); cs != "" {
					return cs
				}
			}
		}
	}
}

// toUTF8 decodes b in the declared charset. A BOM wins over the declaration. Declared UTF-8 (or none)
// that is not valid UTF-8 keeps its valid sequences and reads the other bytes as windows-1252; an
// unknown charset is read as windows-1252 (or as UTF-8 if the bytes are valid UTF-8), with a warning.
func (p *parseState) toUTF8(b []byte, cs string) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		b, cs = b[3:], "utf-8"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}), bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		out, err := textunicode.UTF16(textunicode.BigEndian, textunicode.ExpectBOM).NewDecoder().Bytes(b)
		if err != nil {
			p.warn("broken UTF-16 text")
		}
		return cleanUTF8(string(out))
	}
	switch cs {
	case "", "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968":
		if utf8.Valid(b) {
			return cleanUTF8(string(b))
		}
		if cs == "" {
			cs = "none"
		}
		p.warn("text is not valid UTF-8 (charset %s): other bytes read as windows-1252", cs)
		return cleanUTF8(decodeMixedUTF8(b))
	}
	r, err := charset.Reader(cs, bytes.NewReader(b))
	if err != nil || r == nil {
		if utf8.Valid(b) {
			p.warn("unknown charset %q read as UTF-8", clip(cs))
			return cleanUTF8(string(b))
		}
		p.warn("unknown charset %q read as windows-1252", clip(cs))
		out, _ := charmap.Windows1252.NewDecoder().Bytes(b)
		return cleanUTF8(string(out))
	}
	out, err := io.ReadAll(io.LimitReader(r, 4*maxPartBytes))
	if err != nil {
		p.warn("charset %q: %v", clip(cs), err)
	}
	return cleanUTF8(string(out))
}

func cleanUTF8(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// decodeMixedUTF8 keeps valid UTF-8 sequences and reads every other byte as windows-1252.
func decodeMixedUTF8(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/4)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			sb.WriteRune(charmap.Windows1252.DecodeByte(b[0]))
			b = b[1:]
			continue
		}
		sb.Write(b[:n])
		b = b[n:]
	}
	return sb.String()
}

// decodeFlowed undoes format=flowed (RFC 3676): a line ending in a space continues on the next line of
// the same quote depth; space-stuffing is removed; with delsp the trailing space itself is deleted. The
// signature separator "-- " is never flowed. Quoted lines come out as ">"*depth + " " + text.
func decodeFlowed[T textLike](s T, delsp bool) string {
	// One pass into one builder: each logical line is its quote prefix and the contents of the physical
	// lines it was flowed from. A line ends at LF, CRLF or a lone CR, as normalizeNewlines reads them.
	var out strings.Builder
	out.Grow(len(s))
	first, open := true, false
	curDepth := 0
	for rest := s; ; {
		l, r, more := nextLine(rest)
		rest = r
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		content := l[depth:]
		if len(content) > 0 && content[0] == ' ' {
			content = content[1:] // space-stuffing
		}
		if open && depth != curDepth {
			open = false // a change of quote depth ends the flowed line
		}
		sigSep := len(content) == 3 && content[0] == '-' && content[1] == '-' && content[2] == ' '
		flowed := !sigSep && len(content) > 0 && content[len(content)-1] == ' '
		if flowed && delsp {
			content = content[:len(content)-1]
		}
		if !open {
			if !first {
				out.WriteByte('\n')
			}
			first = false
			if depth > 0 {
				for range depth {
					out.WriteByte('>')
				}
				out.WriteByte(' ')
			}
		}
		writeText(&out, content)
		curDepth = depth
		open = flowed
		if !more {
			break
		}
	}
	return out.String()
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// clip shortens a value quoted in a warning.
func clip(s string) string {
	s = headerUTF8(s)
	if len(s) > 60 {
		return truncateUTF8(s, 60) + "…"
	}
	return s
}

// errText is a library's error for a warning: on one line, clipped.
func errText(err error) string {
	return clip(strings.Join(strings.Fields(err.Error()), " "))
}

// ---- ignoring ----

// ShouldIgnore reports whether the message must never be answered (an auto-reply, a bounce, mailing-list
// traffic, Sortie's own mail come back, or mail without a sender) and a short reason.
func (m *Mail) ShouldIgnore() (bool, string) {
	if m == nil {
		return true, "no message"
	}
	h := &m.hdr
	for f := h.Fields(); f.Next(); {
		if lowerHasPrefix(f.Key(), "x-sortie") {
			return true, "own mail (" + f.Key() + " header)"
		}
	}
	// Bounces and reports.
	if local, _, _ := strings.Cut(m.From, "@"); local == "mailer-daemon" || local == "postmaster" {
		return true, "bounce (from " + local + ")"
	}
	for f := h.FieldsByKey("Return-Path"); f.Next(); {
		if isNullPath(f.Value()) {
			return true, "bounce (empty Return-Path)"
		}
	}
	mt := m.mediaType
	if mt == "" {
		mt, _ = mediaType(*h, "text/plain")
	}
	if mt == "multipart/report" || mt == "message/delivery-status" || mt == "message/disposition-notification" {
		return true, "delivery report (" + mt + ")"
	}
	// Auto-replies.
	if v := headerToken(h.Get("Auto-Submitted")); v != "" && v != "no" {
		return true, "auto-reply (Auto-Submitted: " + v + ")"
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond", "X-Autogenerated"} {
		if h.Has(k) {
			if v := headerToken(h.Get(k)); v != "no" && v != "false" && v != "0" {
				return true, "auto-reply (" + k + " header)"
			}
		}
	}
	switch v := headerToken(h.Get("Precedence")); v {
	case "bulk", "junk", "list", "auto_reply", "auto-reply":
		return true, "precedence " + v
	}
	// Mailing lists.
	for _, k := range []string{"List-Id", "List-Unsubscribe", "Mailing-List"} {
		if h.Has(k) {
			return true, "mailing list (" + k + " header)"
		}
	}
	// Subjects, as a fallback for auto-responders that set no header.
	subj := strings.TrimSpace(m.Subject)
	for _, prefix := range ignoreSubjectPrefixes {
		if lowerHasPrefix(subj, prefix) {
			return true, "auto-reply (subject " + strings.TrimSpace(prefix) + ")"
		}
	}
	if m.From == "" {
		return true, "no sender address"
	}
	return false, ""
}

var ignoreSubjectPrefixes = []string{
	"auto:", "automatic reply:", "out of office", "out of the office", "autoreply:", "auto-reply:",
	"auto reply:", "automatische antwort:", "abwesenheitsnotiz", "réponse automatique", "risposta automatica:",
	"respuesta automática:", "undeliverable:", "undelivered mail returned to sender",
	"delivery status notification (failure)", "mail delivery failed", "returned mail:",
}

// lowerHasPrefix reports whether strings.ToLower(s) starts with prefix, which is lower case: byte by
// byte while s is ASCII, through strings.ToLower from its first other byte on.
func lowerHasPrefix(s, prefix string) bool {
	for i := 0; i < len(prefix); i++ {
		if i >= len(s) {
			return false
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.HasPrefix(strings.ToLower(s), prefix)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// isNullPath reports whether v is "<>" once all its white space is removed.
func isNullPath(v string) bool {
	want := "<>"
	for _, r := range v {
		switch {
		case unicode.IsSpace(r):
		case want != "" && r == rune(want[0]):
			want = want[1:]
		default:
			return false
		}
	}
	return want == ""
}

// headerToken is the first word of a header value, lower case, without parameters or comments.
func headerToken(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.IndexAny(v, "; \t("); i >= 0 {
		v = v[:i]
	}
	return v
}
