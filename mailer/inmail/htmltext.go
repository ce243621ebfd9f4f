package inmail

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// HTMLToText converts an HTML mail body to the plain text a mail reader shows, for the order parser. The
// markup is read by golang.org/x/net/html's tokenizer (HTML5 tokenization: entities, comments, raw text
// elements, attributes quoted or not); this file decides what each element means for the text. It never
// fails, and its work is linear in the input.
//
//   - Block elements (p, div, li, tr, headings, …) start and end lines; <br> breaks a line. A <p> is a
//     paragraph (a blank line) except Outlook's <p class=MsoNormal>, which is one line.
//   - White space collapses as in a browser, except inside <pre>. Entities are decoded (all HTML5 named
//     entities, &#NNN; and &#xHH;); a no-break space becomes a plain space, but a paragraph holding only
//     &nbsp; still counts as a (blank) line.
//   - <head>, <script>, <style>, <title>, comments, doctypes and processing instructions are dropped. A
//     <title>, <textarea> or <template> that is never closed is ignored as a tag, so what follows it stays
//     text; an unclosed <script>, <style> or <xml> drops the rest of the input.
//   - <blockquote> content is prefixed with "> " per level, so StripQuoted removes it. So is everything in
//     Gmail's <div class="gmail_quote"> (and Yahoo's "yahoo_quoted"), and everything after Outlook's
//     <div id="divRplyFwdMsg"> or <div id="appendonsend">, which start the quoted original.
//
// Trailing white space is removed from each line, runs of blank lines become one, and the text ends with
// a newline unless it is empty.
func HTMLToText(src string) string {
	c := &htmlConv{atLineStart: true}
	c.out.Grow(len(src) / 4) // mail HTML is mostly markup
	c.feed(src)
	return c.finish()
}

const htmlMaxQuotePrefix = 10 // quote levels written as "> "; deeper nesting gets no longer prefix

type htmlConv struct {
	out strings.Builder

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
	msoP      bool // the open <p> is Outlook's single-line paragraph

	// An element whose content is not text (htmlHidden) is held: its tokens are kept raw until its end
	// tag, then dropped. If the input ends first, the held input is dropped (script, style, xml) or read
	// again with the element's tag ignored, and the element is marked in noCloser: no later one has an
	// end tag either, so each element name is held to the end at most once and the work stays linear.
	hold     string
	held     []byte
	noCloser map[string]bool
}

// htmlHidden reports whether the element's content is not text, and whether the tokenizer reads that
// content as raw text.
func htmlHidden(name string) (hidden, raw bool) {
	switch name {
	case "script", "style", "title", "textarea", "xmp", "noembed", "noframes", "iframe":
		return true, true
	case "template", "xml":
		return true, false
	}
	return false, false
}

// htmlDropUnclosed: hidden elements whose missing end tag hides the rest of the input.
var htmlDropUnclosed = map[string]bool{"script": true, "style": true, "xml": true}

// Elements that may stand in <head> without ending it.
var htmlHeadTags = map[string]bool{"meta": true, "link": true, "title": true, "style": true, "script": true,
	"base": true, "head": true, "html": true, "noscript": true, "xml": true}

// htmlBlock reports whether the element starts and ends a line (div, p, pre and blockquote have their
// own rules).
func htmlBlock(name string) bool {
	switch name {
	case "li", "ul", "ol", "dl", "dt", "dd", "table", "tr", "hr", "section", "article", "header", "footer",
		"address", "center", "form", "fieldset", "nav", "aside", "main", "figure", "figcaption", "caption",
		"tbody", "thead", "tfoot", "body", "html", "h1", "h2", "h3", "h4", "h5", "h6", "details", "summary",
		"legend":
		return true
	}
	return false
}

// Class names of containers that hold quoted mail.
var htmlQuoteClasses = map[string]bool{"gmail_quote": true, "gmail_quote_container": true,
	"x_gmail_quote": true, "yahoo_quoted": true, "x_yahoo_quoted": true, "protonmail_quote": true}

// IDs of Outlook's markers after which everything is the quoted original.
var htmlReplyMarkerIDs = map[string]bool{"divrplyfwdmsg": true, "x_divrplyfwdmsg": true, "appendonsend": true,
	"x_appendonsend": true, "mail-editor-reference-message-container": true}

// feed converts src, continuing the text written so far.
func (c *htmlConv) feed(src string) {
	z := html.NewTokenizer(strings.NewReader(src))
	for {
		tt := z.Next()
		if c.hold != "" {
			if tt == html.ErrorToken {
				name, held := c.hold, c.held
				c.hold, c.held = "", nil
				if htmlDropUnclosed[name] {
					return
				}
				if c.noCloser == nil {
					c.noCloser = map[string]bool{}
				}
				c.noCloser[name] = true
				c.feed(string(held))
				return
			}
			c.held = append(c.held, z.Raw()...)
			if tt == html.EndTagToken {
				var buf [htmlMaxName]byte
				if string(htmlTagName(&buf, z.Raw()[2:])) == c.hold {
					c.hold, c.held = "", c.held[:0]
				}
			}
			continue
		}
		switch tt {
		case html.ErrorToken: // io.EOF: the tokenizer reads from memory and has no buffer limit
			return
		case html.TextToken:
			c.text(z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			var buf [htmlMaxName]byte
			raw := z.Raw()
			name := htmlTagName(&buf, raw[1:])
			var class, id []byte
			if htmlMayHaveClassOrID(raw) {
				for more := true; more; { // TagAttr, not TagName, says whether there are more: TagName copies
					var k, v []byte
					k, v, more = z.TagAttr()
					switch string(k) {
					case "class":
						class = htmlLowerInPlace(v)
					case "id":
						id = htmlLowerInPlace(v)
					}
				}
			}
			c.startTag(z, name, class, id)
		case html.EndTagToken:
			var buf [htmlMaxName]byte
			c.endTag(htmlTagName(&buf, z.Raw()[2:]))
		}
	}
}

// htmlMaxName is longer than the name of any element HTMLToText acts on; longer names are cut to it.
const htmlMaxName = 16

// htmlTagName is the lower-case name of the tag token whose raw text, after "<" or "</", is raw: the
// tokenizer ends a tag name at white space, '/' or '>'. It is read here into buf rather than through
// Tokenizer.TagName, which allocates a copy for every tag.
func htmlTagName(buf *[htmlMaxName]byte, raw []byte) []byte {
	n := 0
	for _, ch := range raw {
		if isHTMLSpace(ch) || ch == '/' || ch == '>' || n == len(buf) {
			break
		}
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		buf[n] = ch
		n++
	}
	return buf[:n]
}

// htmlMayHaveClassOrID reports whether a start tag's raw text holds "class" or "id" in any case: only
// then are its attributes read (Tokenizer.TagAttr allocates copies of every key and value).
func htmlMayHaveClassOrID(raw []byte) bool {
	for i := 0; i+1 < len(raw); i++ {
		switch raw[i] | 0x20 {
		case 'i':
			if raw[i+1]|0x20 == 'd' {
				return true
			}
		case 'c':
			if i+4 < len(raw) && raw[i+1]|0x20 == 'l' && raw[i+2]|0x20 == 'a' && raw[i+3]|0x20 == 's' && raw[i+4]|0x20 == 's' {
				return true
			}
		}
	}
	return false
}

// htmlLowerInPlace lower-cases ASCII letters in b (a slice of the tokenizer's buffer, valid until its next token).
func htmlLowerInPlace(b []byte) []byte {
	for i, ch := range b {
		if 'A' <= ch && ch <= 'Z' {
			b[i] = ch + 'a' - 'A'
		}
	}
	return b
}

func htmlHasQuoteClass(class []byte) bool {
	for len(class) > 0 {
		i := bytes.IndexAny(class, " \t\n\f\r")
		if i < 0 {
			return htmlQuoteClasses[string(class)]
		}
		if htmlQuoteClasses[string(class[:i])] {
			return true
		}
		class = class[i+1:]
	}
	return false
}

func (c *htmlConv) startTag(z *html.Tokenizer, nameb, class, id []byte) {
	if c.inHead && !htmlHeadTags[string(nameb)] {
		c.inHead = false
	}
	if id != nil && htmlReplyMarkerIDs[string(id)] {
		c.quoteRest = true
	}
	if hidden, raw := htmlHidden(string(nameb)); hidden {
		if c.noCloser[string(nameb)] {
			if raw {
				z.NextIsNotRawText() // no end tag follows: the content is markup and text
			}
			return
		}
		c.hold = string(nameb)
		c.held = c.held[:0]
		return
	}
	switch name := string(nameb); name {
	case "noscript", "plaintext":
		z.NextIsNotRawText() // a mail reader runs no scripts, and plaintext is long obsolete: read on as HTML
	case "head":
		c.inHead = true
	case "br":
		c.lineBreak()
	case "p":
		c.msoP = bytes.Contains(class, []byte("mso"))
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
		if c.gq == 0 && htmlHasQuoteClass(class) {
			c.gq = c.divDepth
		}
		c.block(1)
	default:
		if htmlBlock(name) {
			c.block(1)
		}
	}
}

func (c *htmlConv) paragraphGap() int {
	if c.msoP {
		return 1
	}
	return 2
}

func (c *htmlConv) endTag(nameb []byte) {
	switch name := string(nameb); name {
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
		if htmlBlock(name) {
			c.block(1)
		}
	}
}

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

var htmlNBSP = []byte("\u00a0")

func htmlNBSPToSpace(b []byte) []byte {
	if bytes.Contains(b, htmlNBSP) {
		return bytes.ReplaceAll(b, htmlNBSP, []byte(" "))
	}
	return b
}

// text writes a text token's decoded text (entities already replaced, line ends LF). A no-break space
// becomes a plain space but is not collapsed with the white space around it.
func (c *htmlConv) text(s []byte) {
	if c.inHead || len(s) == 0 {
		return
	}
	nbsp := bytes.Contains(s, htmlNBSP)
	if c.pre > 0 {
		for len(s) > 0 {
			i := bytes.IndexByte(s, '\n')
			if i < 0 {
				c.content(htmlNBSPToSpace(s))
				return
			}
			c.content(htmlNBSPToSpace(s[:i]))
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
		if nbsp {
			c.content(htmlNBSPToSpace(s[:i]))
		} else {
			c.content(s[:i])
		}
		s = s[i:]
	}
}

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
func (c *htmlConv) content(s []byte) {
	if len(s) == 0 {
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
	c.out.Write(s)
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
