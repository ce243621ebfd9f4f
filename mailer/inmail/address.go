package inmail

// Reading the addresses of a message's From, To and Cc: by net/mail, and what net/mail refuses leniently.

import (
	netmail "net/mail"
	"strings"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// addresses appends to dst every address in every field named key: read by net/mail, and whatever
// net/mail cannot parse by a lenient fallback: <addr> or the first token with an @, and the text before
// it as the name.
func (p *parseState) addresses(dst []mail.Address, h textproto.Header, key string) []mail.Address {
	for _, v := range h.Values(key) {
		v = headerUTF8(v)
		if strings.TrimSpace(v) == "" {
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
