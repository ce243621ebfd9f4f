package inmail

// Reading the addresses of a message's From, To and Cc: the plain shapes nearly every mail program
// writes by hand, the others by net/mail, and what net/mail refuses leniently.

import (
	netmail "net/mail"
	"strings"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// addresses appends to dst every address in every field named key. The plain shapes nearly every mail
// program writes are read by fastAddressList; the others by net/mail, and whatever net/mail cannot
// parse by a lenient fallback: <addr> or the first token with an @, and the text before it as the name.
func (p *parseState) addresses(dst []mail.Address, h textproto.Header, key string) []mail.Address {
	for _, v := range h.Values(key) {
		v = headerUTF8(v)
		if strings.TrimSpace(v) == "" {
			continue
		}
		if out, ok := fastAddressList(dst, v); ok {
			dst = out
			continue
		}
		list, err := p.addressParser().ParseList(v)
		if err != nil {
			list = nil
			for _, piece := range splitAddressList(v) {
				if a := p.looseAddress(piece); a != nil {
					list = append(list, a)
				}
			}
		}
		for _, a := range list {
			dst = appendAddress(dst, a.Name, a.Address)
		}
	}
	return dst
}

// appendAddress appends an address as Mail keeps it: the address lower case, both trimmed, none
// without an address.
func appendAddress(dst []mail.Address, name, addr string) []mail.Address {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if addr == "" {
		return dst
	}
	return append(dst, mail.Address{Name: strings.TrimSpace(name), Address: addr})
}

func (p *parseState) addressParser() *netmail.AddressParser {
	if p.addrParser == nil {
		p.addrParser = &netmail.AddressParser{WordDecoder: p.wordDecoder()}
	}
	return p.addrParser
}

// fastAddressList reads the address lists nearly every mail program writes, in plain ASCII: items
// `local@domain` or `Display Name <local@domain>` (words of atext separated by single spaces, none an
// encoded word; dot-atoms on both sides of the @), separated by commas, with spaces or tabs around
// them. For such a list it appends what net/mail's ParseList gives, through appendAddress; for
// anything else (quotes, comments, encoded words, groups, empty items, other bytes) ok is false and
// dst is returned as it was. FuzzAddressFastPath holds it to net/mail.
func fastAddressList(dst []mail.Address, v string) (_ []mail.Address, ok bool) {
	n := len(dst)
	for item := range strings.SplitSeq(v, ",") {
		item = trimWSP(item)
		if item == "" {
			return dst[:n], false
		}
		if item[len(item)-1] != '>' {
			if !isAddrSpec(item) {
				return dst[:n], false
			}
			dst = appendAddress(dst, "", item)
			continue
		}
		lt := strings.LastIndexByte(item, '<')
		if lt < 0 || !isAddrSpec(item[lt+1:len(item)-1]) {
			return dst[:n], false
		}
		name := trimWSP(item[:lt])
		if name != "" && !isPlainPhrase(name) {
			return dst[:n], false
		}
		dst = appendAddress(dst, name, item[lt+1:len(item)-1])
	}
	return dst, true
}

func trimWSP(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// isAtext reports whether c is an ASCII atext character of RFC 5322 (the dot is not).
func isAtext(c byte) bool {
	if c <= ' ' || c > '~' {
		return false
	}
	switch c {
	case '(', ')', '<', '>', '[', ']', ':', ';', '@', '\\', ',', '"', '.':
		return false
	}
	return true
}

// isDotAtom: one or more runs of ASCII atext joined by single dots.
func isDotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '.' {
			if s[i-1] == '.' {
				return false
			}
		} else if !isAtext(c) {
			return false
		}
	}
	return true
}

// isAddrSpec: dot-atom "@" dot-atom, in ASCII.
func isAddrSpec(s string) bool {
	at := strings.IndexByte(s, '@')
	return at > 0 && isDotAtom(s[:at]) && isDotAtom(s[at+1:])
}

// isPlainPhrase: words of ASCII atext and dots separated by single spaces, none holding "=?" (which
// net/mail would try to decode as an encoded word).
func isPlainPhrase(s string) bool {
	if strings.Contains(s, "=?") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if i == 0 || s[i-1] == ' ' || i == len(s)-1 {
				return false
			}
		case c != '.' && !isAtext(c):
			return false
		}
	}
	return s != ""
}

// splitAddressList splits at commas outside quotes, angle brackets and comments.
func splitAddressList(v string) []string {
	var out []string
	quote, angle, paren := false, false, 0
	start := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && quote:
			i++
		case c == '"':
			quote = !quote
		case quote:
		case c == '<':
			angle = true
		case c == '>':
			angle = false
		case c == '(':
			paren++
		case c == ')' && paren > 0:
			paren--
		case c == ',' && !angle && paren == 0:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

func (p *parseState) looseAddress(s string) *mail.Address {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if i := strings.LastIndexByte(s, '<'); i >= 0 {
		if j := strings.IndexByte(s[i:], '>'); j > 0 {
			addr := strings.TrimSpace(s[i+1 : i+j])
			if addr == "" || strings.ContainsAny(addr, " \t") {
				return nil
			}
			name := strings.TrimSpace(s[:i])
			if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
				name = strings.ReplaceAll(name[1:len(name)-1], `\"`, `"`)
			}
			return &mail.Address{Name: p.decodeWords(name), Address: addr}
		}
	}
	// Comments are display names here: "MAILER-DAEMON (Mail Delivery System)".
	var bare, comment strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth > 0:
			comment.WriteRune(r)
		default:
			bare.WriteRune(r)
		}
	}
	name := p.decodeWords(strings.TrimSpace(comment.String()))
	fields := strings.Fields(bare.String())
	for _, f := range fields {
		f = strings.Trim(f, "<>\"',;")
		if strings.Contains(f, "@") {
			return &mail.Address{Name: name, Address: f}
		}
	}
	if len(fields) == 1 {
		if f := strings.Trim(fields[0], "<>\"',;"); f != "" {
			return &mail.Address{Name: name, Address: f}
		}
	}
	return nil
}
