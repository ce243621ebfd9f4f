package mailer

import (
	"html"
	"strings"
)

// HTMLToText converts an HTML mail body to the plain text a mail reader shows, for the order parser. It is
// a small tolerant scanner, not a full HTML parser: it never fails, and its work is linear in the input.
//
//   - Block elements (p, div, li, tr, headings, …) start and end lines; <br> breaks a line. A <p> is a
//     paragraph (a blank line) except Outlook's <p class=MsoNormal>, which is one line.
//   - White space collapses as in a browser, except inside <pre>. Entities are decoded (all HTML5 named
//     entities, &#NNN; and &#xHH;); a no-break space becomes a plain space, but a paragraph holding only
//     &nbsp; still counts as a (blank) line.
//   - <head>, <script>, <style>, <title>, comments and processing instructions are dropped.
//   - <blockquote> content is prefixed with "> " per level, so StripQuoted removes it. So is everything in
//     Gmail's <div class="gmail_quote"> (and Yahoo's "yahoo_quoted"), and everything after Outlook's
//     <div id="divRplyFwdMsg"> or <div id="appendonsend">, which start the quoted original.
//
// Trailing white space is removed from each line, runs of blank lines become one, and the text ends with
// a newline unless it is empty.
func HTMLToText(src string) string {
	c := &htmlConv{src: src, low: htmlASCIILower(src), atLineStart: true, noCloser: map[string]bool{}}
	c.run()
	return c.finish()
}

const htmlMaxQuotePrefix = 10 // quote levels written as "> "; deeper nesting gets no longer prefix

type htmlConv struct {
	src, low string
	out      strings.Builder

	atLineStart bool // nothing written on the current line yet
	hasContent  bool // any text written at all
	nl          int  // line ends written since the last text
	want        int  // line ends wanted before the next text (block boundaries)
	space       bool // a collapsed white space is pending

	pre       int  // <pre> depth
	bq        int  // <blockquote> depth
	divDepth  int  // open <div>s
	gq        int  // the div depth at which a quote container (gmail_quote) opened; 0: none
	quoteRest bool // an Outlook reply marker was seen: all that follows is quoted
	inHead    bool
	msoP      bool            // the open <p> is Outlook's single-line paragraph
	unclosed  [256]bool       // no closing quote character of this kind is left in the input
	attrs     htmlAttrNames   // of the tag being read
	noCloser  map[string]bool // raw-text elements with no end tag left in the input
}

type htmlAttrNames struct{ class, id string }

func htmlASCIILower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func htmlIsLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func (c *htmlConv) quoteLevel() int {
	q := c.bq
	if c.quoteRest || c.gq > 0 {
		q++
	}
	return min(q, htmlMaxQuotePrefix)
}

func (c *htmlConv) newline() {
	if c.atLineStart && c.hasContent {
		if q := c.quoteLevel(); q > 0 {
			c.out.WriteString(strings.TrimSpace(strings.Repeat("> ", q)))
		}
	}
	c.out.WriteByte('\n')
	c.nl++
	c.atLineStart = true
	c.space = false
}

// content writes text that holds no line break.
func (c *htmlConv) content(s string) {
	if s == "" {
		return
	}
	if c.hasContent {
		for c.nl < c.want {
			c.newline()
		}
	}
	c.want = 0
	if c.atLineStart {
		if q := c.quoteLevel(); q > 0 {
			c.out.WriteString(strings.Repeat("> ", q))
		}
		c.atLineStart = false
	} else if c.space {
		c.out.WriteByte(' ')
	}
	c.space = false
	c.out.WriteString(s)
	c.hasContent = true
	c.nl = 0
}

// block asks for n line ends before the next text (1: a new line, 2: a blank line between).
func (c *htmlConv) block(n int) {
	if c.want < n {
		c.want = n
	}
	c.space = false
}

func (c *htmlConv) lineBreak() {
	if c.hasContent {
		for c.nl < c.want {
			c.newline()
		}
	}
	c.want = 0
	c.newline()
}

func (c *htmlConv) text(raw string) {
	if c.inHead || raw == "" {
		return
	}
	s := raw
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	if c.pre > 0 {
		for len(s) > 0 {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				c.content(htmlNBSPToSpace(strings.ReplaceAll(s, "\r", "")))
				return
			}
			c.content(htmlNBSPToSpace(strings.ReplaceAll(s[:i], "\r", "")))
			c.lineBreak()
			s = s[i+1:]
		}
		return
	}
	for len(s) > 0 {
		if isHTMLSpace(s[0]) {
			if !c.atLineStart {
				c.space = true
			}
			s = s[1:]
			continue
		}
		i := 0
		for i < len(s) && !isHTMLSpace(s[i]) {
			i++
		}
		c.content(htmlNBSPToSpace(s[:i]))
		s = s[i:]
	}
}

func htmlNBSPToSpace(s string) string {
	if strings.Contains(s, "\u00a0") {
		return strings.ReplaceAll(s, "\u00a0", " ")
	}
	return s
}

func (c *htmlConv) run() {
	s := c.src
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			c.text(s[i:])
			return
		}
		if j > 0 {
			c.text(s[i : i+j])
		}
		i = c.markup(i + j)
	}
}

// markup reads the markup at s[i] == '<' and returns where the text goes on.
func (c *htmlConv) markup(i int) int {
	s, low := c.src, c.low
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, "<!--"):
		k := strings.Index(s[i+4:], "-->")
		if k < 0 {
			return len(s)
		}
		return i + 4 + k + 3
	case strings.HasPrefix(rest, "<![CDATA["):
		k := strings.Index(s[i+9:], "]]>")
		if k < 0 {
			return len(s)
		}
		return i + 9 + k + 3
	case len(rest) >= 2 && (rest[1] == '!' || rest[1] == '?'):
		k := strings.IndexByte(rest, '>')
		if k < 0 {
			return len(s)
		}
		return i + k + 1
	}
	p := i + 1
	end := p < len(s) && s[p] == '/'
	if end {
		p++
	}
	if p >= len(s) || !htmlIsLetter(s[p]) {
		c.text("<")
		return i + 1
	}
	q := p
	for q < len(s) && !isHTMLSpace(s[q]) && s[q] != '>' && s[q] != '/' {
		q++
	}
	name := low[p:q]
	next := c.readAttrs(q)
	if end {
		c.endTag(name)
		return next
	}
	return c.startTag(name, next)
}

// readAttrs reads attributes from s[q] to the closing '>' and returns the position after it; it keeps
// class and id (lower case) in c.attrs.
func (c *htmlConv) readAttrs(q int) int {
	s, low := c.src, c.low
	c.attrs = htmlAttrNames{}
	for q < len(s) {
		ch := s[q]
		if ch == '>' {
			return q + 1
		}
		if ch == '/' || isHTMLSpace(ch) || ch == '=' {
			q++
			continue
		}
		st := q
		for q < len(s) && !isHTMLSpace(s[q]) && s[q] != '=' && s[q] != '>' && s[q] != '/' {
			q++
		}
		if q == st { // a stray quote or similar: step over it
			q++
			continue
		}
		name := low[st:q]
		for q < len(s) && isHTMLSpace(s[q]) {
			q++
		}
		if q >= len(s) || s[q] != '=' {
			continue
		}
		q++
		for q < len(s) && isHTMLSpace(s[q]) {
			q++
		}
		var val string
		if q < len(s) && (s[q] == '"' || s[q] == '\'') {
			quote := s[q]
			k := -1
			if !c.unclosed[quote] {
				k = strings.IndexByte(s[q+1:], quote)
				if k < 0 {
					c.unclosed[quote] = true
				}
			}
			if k >= 0 {
				val = low[q+1 : q+1+k]
				q += k + 2
			} else { // unmatched quote: the value ends at the tag's end
				q++
				st := q
				for q < len(s) && s[q] != '>' {
					q++
				}
				val = low[st:q]
			}
		} else {
			st := q
			for q < len(s) && !isHTMLSpace(s[q]) && s[q] != '>' {
				q++
			}
			val = low[st:q]
		}
		switch name {
		case "class":
			c.attrs.class = val
		case "id":
			c.attrs.id = val
		}
	}
	return len(s)
}

// Elements whose content is not text.
var htmlRawText = map[string]bool{"script": true, "style": true, "title": true, "textarea": true, "xmp": true,
	"noembed": true, "noframes": true, "iframe": true, "template": true, "xml": true}

// Elements that may stand in <head> without ending it.
var htmlHeadTags = map[string]bool{"meta": true, "link": true, "title": true, "style": true, "script": true,
	"base": true, "head": true, "html": true, "noscript": true, "xml": true}

// Block elements that start and end a line.
var htmlBlocks = map[string]bool{"div": true, "li": true, "ul": true, "ol": true, "dl": true, "dt": true,
	"dd": true, "table": true, "tr": true, "hr": true, "section": true, "article": true, "header": true,
	"footer": true, "address": true, "center": true, "form": true, "fieldset": true, "nav": true,
	"aside": true, "main": true, "figure": true, "figcaption": true, "caption": true, "tbody": true,
	"thead": true, "tfoot": true, "body": true, "html": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "details": true, "summary": true, "legend": true}

// Class names of containers that hold quoted mail.
var htmlQuoteClasses = map[string]bool{"gmail_quote": true, "gmail_quote_container": true,
	"x_gmail_quote": true, "yahoo_quoted": true, "x_yahoo_quoted": true, "protonmail_quote": true}

// IDs of Outlook's markers after which everything is the quoted original.
var htmlReplyMarkerIDs = map[string]bool{"divrplyfwdmsg": true, "x_divrplyfwdmsg": true, "appendonsend": true,
	"x_appendonsend": true, "mail-editor-reference-message-container": true}

func (c *htmlConv) startTag(name string, next int) int {
	if c.inHead && !htmlHeadTags[name] {
		c.inHead = false
	}
	if htmlReplyMarkerIDs[c.attrs.id] {
		c.quoteRest = true
	}
	if htmlRawText[name] {
		k := -1
		if !c.noCloser[name] {
			if k = strings.Index(c.low[next:], "</"+name); k < 0 {
				c.noCloser[name] = true // nor after any later start tag: keeps this linear
			}
		}
		if k < 0 {
			if name == "script" || name == "style" || name == "xml" {
				return len(c.src)
			}
			return next
		}
		e := strings.IndexByte(c.src[next+k:], '>')
		if e < 0 {
			return len(c.src)
		}
		return next + k + e + 1
	}
	switch name {
	case "head":
		c.inHead = true
	case "br":
		c.lineBreak()
	case "p":
		c.msoP = strings.Contains(c.attrs.class, "mso")
		c.block(c.paragraphGap())
	case "blockquote":
		c.block(1)
		c.bq++
	case "pre":
		c.block(1)
		c.pre++
	case "td", "th":
		if !c.atLineStart {
			c.space = true
		}
	case "div":
		c.divDepth++
		if c.gq == 0 {
			for _, cl := range strings.Fields(c.attrs.class) {
				if htmlQuoteClasses[cl] {
					c.gq = c.divDepth
					break
				}
			}
		}
		c.block(1)
	default:
		if htmlBlocks[name] {
			c.block(1)
		}
	}
	return next
}

func (c *htmlConv) paragraphGap() int {
	if c.msoP {
		return 1
	}
	return 2
}

func (c *htmlConv) endTag(name string) {
	switch name {
	case "head":
		c.inHead = false
	case "br":
		c.lineBreak()
	case "p":
		c.block(c.paragraphGap())
		c.msoP = false
	case "blockquote":
		c.block(1)
		if c.bq > 0 {
			c.bq--
		}
	case "pre":
		c.block(1)
		if c.pre > 0 {
			c.pre--
		}
	case "td", "th":
		c.space = true
	case "div":
		c.block(1)
		if c.gq > 0 && c.divDepth <= c.gq {
			c.gq = 0
		}
		if c.divDepth > 0 {
			c.divDepth--
		}
	default:
		if htmlBlocks[name] {
			c.block(1)
		}
	}
}

func (c *htmlConv) finish() string {
	lines := strings.Split(c.out.String(), "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
