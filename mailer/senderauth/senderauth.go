// Package senderauth reads what the moderator's own receiving mail server found out about a mail's
// sender: the Authentication-Results header field (RFC 8601) it adds, with its DMARC, DKIM and SPF
// results. Sortie checks no signature itself; it takes the word of one server, the one named by the
// configuration's authserv_id, and of no other (docs/operations.md, "Sender authentication").
//
// Which field counts. A server adds its field on top of the header as the mail arrives, so the fields
// above the topmost one it added were added after it by something later on the mail's way (another
// server the mail was forwarded to), and the fields below it were in the mail before: anyone can write
// those, the server's own authserv-id included. Hence the topmost field carrying the configured
// authserv-id is the server's verdict, and every other field is ignored: those of other servers
// wherever they stand, and those with our id below it, which may be forged. If the server added none
// (a mail it did not check), a forged field with our id may be the topmost; that is why a verdict can
// only take trust away (Fail), never give any: a forged "pass" reads as no field at all.
//
// The reader takes hostile input: it never panics, reads at most maxHeaderBytes of header and
// maxFieldBytes of one field, and keeps at most maxResults results of a field.
package senderauth

import (
	"bytes"
	"strings"
)

// Limits on the work one mail may cause.
const (
	maxHeaderBytes = 1 << 20 // the header beyond this is not read
	maxFieldBytes  = 16 << 10
	maxResults     = 64
)

// Outcome is what the server's field says of the mail's From address.
type Outcome int

const (
	// None: no field of the configured server, or one without a DMARC, DKIM or SPF result: the server
	// said nothing about the sender, and Sortie reads the mail as it would without sender authentication.
	None Outcome = iota
	// Pass: the server confirmed that the From address's domain sent the mail.
	Pass
	// Fail: the server found that the From address's domain did not send it, or could not confirm that
	// it did: the address is not taken as the sender's.
	Fail
)

func (o Outcome) String() string {
	switch o {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	}
	return "none"
}

// Verdict is what the configured server's field says of a mail's From address.
type Verdict struct {
	Outcome Outcome
	// Why says, for Fail, what could not be confirmed, in words for the sender: it completes "the mail
	// server could not confirm that this mail came from that address: …".
	Why string
}

// Why texts of a failed verdict.
const (
	WhyDMARC   = "the check its domain asks receiving servers to make (DMARC) failed"
	WhyNoProof = "neither a signature of its domain (DKIM) nor the list of servers its domain sends from (SPF) vouched for it"
)

// Result is one result of an Authentication-Results field: "dkim=pass header.d=example.org" is method
// "dkim", result "pass" and the property "header.d" = "example.org". Method, result and property
// names are lower case.
type Result struct {
	Method string
	Result string
	Props  map[string]string
}

// Check reads the header of raw (a whole message, or its header alone) and returns the verdict of
// the topmost Authentication-Results field whose authserv-id is authservID on the From address from.
// An empty authservID (sender authentication not configured) gives None.
func Check(raw []byte, authservID, from string) Verdict {
	if authservID == "" {
		return Verdict{}
	}
	id, results, found := Topmost(raw, authservID)
	if !found || id == "" {
		return Verdict{}
	}
	return Judge(results, from)
}

// Topmost finds the topmost Authentication-Results field of raw's header whose authserv-id equals
// authservID (in any case) and returns its results; found is false when there is none.
func Topmost(raw []byte, authservID string) (id string, results []Result, found bool) {
	for v := range fields(raw, "authentication-results") {
		id, results := Parse(v)
		if id != "" && strings.EqualFold(id, authservID) {
			return id, results, true
		}
	}
	return "", nil, false
}

// Judge turns the results of one field into a verdict on the From address from:
//   - a DMARC result about from's domain decides: pass is Pass, fail is Fail;
//   - without one (no DMARC result, or none, temperror, permerror: the domain publishes no policy, or
//     it could not be read), a DKIM pass for from's domain or an SPF pass for an envelope sender of
//     from's domain is Pass; DKIM and SPF results of which neither passes so is Fail;
//   - a field with no DMARC, DKIM or SPF result says nothing: None.
//
// "For from's domain": the same domain, or one a subdomain of the other (DMARC's relaxed alignment
// without the public suffix list; a signing domain must have a dot, so no top-level domain vouches
// for its subdomains).
func Judge(results []Result, from string) Verdict {
	_, domain, _ := strings.Cut(from, "@")
	domain = normDomain(domain)
	sawDKIMOrSPF := false
	for _, r := range results {
		if r.Method != "dmarc" {
			continue
		}
		if hf := normDomain(afterAt(r.Props["header.from"])); hf != "" && hf != domain {
			continue // about another From than the one Sortie read
		}
		switch r.Result {
		case "pass":
			return Verdict{Outcome: Pass}
		case "fail":
			return Verdict{Outcome: Fail, Why: WhyDMARC}
		}
	}
	if domain == "" {
		return Verdict{}
	}
	for _, r := range results {
		var d string
		switch r.Method {
		case "dkim":
			d = r.Props["header.d"]
			if d == "" {
				d = afterAt(r.Props["header.i"])
			}
		case "spf":
			d = afterAt(r.Props["smtp.mailfrom"])
		default:
			continue
		}
		sawDKIMOrSPF = true
		if r.Result == "pass" && aligned(normDomain(d), domain) {
			return Verdict{Outcome: Pass}
		}
	}
	if sawDKIMOrSPF {
		return Verdict{Outcome: Fail, Why: WhyNoProof}
	}
	return Verdict{}
}

// aligned says whether a domain that passed a check vouches for the From domain from.
func aligned(d, from string) bool {
	if d == "" || from == "" || !strings.Contains(d, ".") {
		return false
	}
	return d == from || strings.HasSuffix(from, "."+d) || strings.HasSuffix(d, "."+from)
}

func afterAt(s string) string {
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func normDomain(d string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
}

// fields yields, top to bottom, the unfolded values of the header fields of raw named name (lower
// case): the header ends at the first empty line, a leading mbox "From " line is skipped, and lines
// that are neither fields nor continuations end the field before them.
func fields(raw []byte, name string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		if len(raw) > maxHeaderBytes {
			raw = raw[:maxHeaderBytes]
		}
		if bytes.HasPrefix(raw, []byte("From ")) {
			if i := bytes.IndexByte(raw, '\n'); i >= 0 {
				raw = raw[i+1:]
			} else {
				return
			}
		}
		var cur []byte // the value of the field being read, if it is one of name
		reading := false
		flush := func() bool {
			if !reading {
				return true
			}
			reading = false
			return yield(string(cur))
		}
		for len(raw) > 0 {
			line := raw
			if i := bytes.IndexByte(raw, '\n'); i >= 0 {
				line, raw = raw[:i], raw[i+1:]
			} else {
				raw = nil
			}
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(line) == 0 {
				break // the end of the header
			}
			if line[0] == ' ' || line[0] == '\t' {
				if reading && len(cur)+len(line) <= maxFieldBytes {
					cur = append(cur, line...)
				}
				continue
			}
			if !flush() {
				return
			}
			key, value, ok := bytes.Cut(line, []byte(":"))
			if !ok || !bytes.EqualFold(bytes.TrimRight(key, " \t"), []byte(name)) {
				continue
			}
			reading = true
			cur = append(cur[:0], value[:min(len(value), maxFieldBytes)]...)
		}
		flush()
	}
}

// Parse reads the value of one Authentication-Results field (unfolded): its authserv-id and its
// results. Comments are dropped and quoted strings read as their content; a result it cannot read is
// skipped, not the field. An empty id means the field has none it can read.
func Parse(v string) (id string, results []Result) {
	segments := split(stripComments(v))
	if len(segments) == 0 {
		return "", nil
	}
	head := tokens(segments[0])
	if len(head) == 0 || head[0].kind != word {
		return "", nil
	}
	id = head[0].text
	for _, seg := range segments[1:] {
		if len(results) == maxResults {
			break
		}
		if r, ok := parseResult(tokens(seg)); ok {
			results = append(results, r)
		}
	}
	return id, results
}

// parseResult reads one resinfo: method[/version]=result, then reason= and ptype.property=value
// properties.
func parseResult(ts []token) (Result, bool) {
	if len(ts) < 3 || ts[0].kind != word || ts[0].quoted {
		return Result{}, false
	}
	r := Result{Method: strings.ToLower(ts[0].text)}
	i := 1
	if ts[i].kind == slash { // a method version
		i += 2
	}
	if i+1 >= len(ts) || ts[i].kind != equals || ts[i+1].kind != word {
		return Result{}, false
	}
	r.Result = strings.ToLower(ts[i+1].text)
	i += 2
	for i < len(ts) {
		if ts[i].kind != word || ts[i].quoted {
			i++
			continue
		}
		key := ts[i].text
		i++
		// "header . d" with blanks around the dot (RFC 8601 allows CFWS there).
		for i < len(ts) && ts[i].kind == word && !ts[i].quoted && (strings.HasSuffix(key, ".") || strings.HasPrefix(ts[i].text, ".")) {
			key += ts[i].text
			i++
		}
		if i+1 < len(ts) && ts[i].kind == equals && ts[i+1].kind == word {
			if r.Props == nil {
				r.Props = map[string]string{}
			}
			k := strings.ToLower(key)
			if _, dup := r.Props[k]; !dup {
				r.Props[k] = ts[i+1].text
			}
			i += 2
		}
	}
	return r, true
}

// stripComments replaces every comment (parenthesised, nested, with quoted-pairs) by a blank, leaving
// quoted strings as they are.
func stripComments(v string) string {
	var b strings.Builder
	b.Grow(len(v))
	depth, quoted := 0, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case depth > 0:
			switch c {
			case '\\':
				i++
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					b.WriteByte(' ')
				}
			}
		case quoted:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(v) {
				i++
				b.WriteByte(v[i])
			} else if c == '"' {
				quoted = false
			}
		case c == '(':
			depth = 1
		default:
			if c == '"' {
				quoted = true
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// split cuts a comment-free value at the semicolons outside quoted strings.
func split(v string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == ';':
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

type tokenKind int

const (
	word tokenKind = iota
	equals
	slash
)

type token struct {
	kind   tokenKind
	text   string
	quoted bool // a quoted string, text its content
}

// tokens cuts one comment-free segment into words, quoted strings, "=" and "/".
func tokens(seg string) []token {
	var ts []token
	for i := 0; i < len(seg); {
		c := seg[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '=':
			ts = append(ts, token{kind: equals})
			i++
		case c == '/':
			ts = append(ts, token{kind: slash})
			i++
		case c == '"':
			var b strings.Builder
			i++
			for i < len(seg) && seg[i] != '"' {
				if seg[i] == '\\' && i+1 < len(seg) {
					i++
				}
				b.WriteByte(seg[i])
				i++
			}
			i++ // the closing quote
			ts = append(ts, token{kind: word, text: b.String(), quoted: true})
		default:
			j := i
			for j < len(seg) && !strings.ContainsRune(" \t\r\n=/\"", rune(seg[j])) {
				j++
			}
			ts = append(ts, token{kind: word, text: seg[i:j]})
			i = j
		}
	}
	return ts
}
