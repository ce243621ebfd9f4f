package inmail

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	netmail "net/mail"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emersion/go-message/textproto"
)

// The one-pass decodeFlowed and normalizeNewlines give what the first, plainer versions (kept
// here) gave, for any text: decodeFlowed reads CRLF and a lone CR as line ends, as the first
// normalizeNewlines made them before the first decodeFlowed read the text.

func refDecodeFlowed(s string, delsp bool) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	var cur strings.Builder
	curDepth, open := 0, false
	emit := func() {
		prefix := ""
		if curDepth > 0 {
			prefix = strings.Repeat(">", curDepth) + " "
		}
		out = append(out, prefix+cur.String())
		cur.Reset()
		open = false
	}
	for _, l := range lines {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		content := strings.TrimPrefix(l[depth:], " ")
		if open && depth != curDepth {
			emit()
		}
		flowed := content != "-- " && strings.HasSuffix(content, " ")
		if flowed && delsp {
			content = content[:len(content)-1]
		}
		cur.WriteString(content)
		curDepth = depth
		open = true
		if !flowed {
			emit()
		}
	}
	if open {
		emit()
	}
	return strings.Join(out, "\n")
}

func refNormalizeNewlines(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func FuzzFlowedAndNewlinesAsBefore(f *testing.F) {
	for _, s := range []string{"", "\n", "one \ntwo \nthree\nfour\n", ">> quoted \n>> more\n> other\nmine\n", "> ends flowed \nnot quoted",
		" >not a quote\n From me\n", "text\n-- \nsig \nline\n", "a \n\n b \n>\n> \n>> x ", "\uFEFFa\r\nb\rc\r\r\nd\n\r", "\r", "x\r",
		"\uFEFF\uFEFF\uFEFF\uFEFFx\r", "\xFE\xFFa\x00", "\xFF\xFE\r\x00", "caf\xe9\r\n", "\uFEFF\xFE\xFF"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, delsp bool) {
		if got, want := normalizeNewlines(s), refNormalizeNewlines(s); got != want {
			t.Errorf("normalizeNewlines(%q) = %q, want %q", s, got, want)
		}
		// Line ends read as normalizeNewlines reads them, from a string or from bytes.
		lf := strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
		want := refDecodeFlowed(lf, delsp)
		if got := decodeFlowed(s, delsp); got != want {
			t.Errorf("decodeFlowed(%q, %v) = %q, want %q", s, delsp, got, want)
		}
		if got := decodeFlowed([]byte(s), delsp); got != want {
			t.Errorf("decodeFlowed([]byte(%q), %v) = %q, want %q", s, delsp, got, want)
		}
		if got := lineEndsToLF([]byte(s)); got != lf {
			t.Errorf("lineEndsToLF([]byte(%q)) = %q, want %q", s, got, lf)
		}
		for _, cs := range []string{"", "utf-8", "us-ascii", "windows-1252", "UTF-8"} {
			checkPlainUTF8(t, []byte(s), cs)
		}
	})
}

// TestDateFastPath: the common Date form read directly gives what net/mail gives.
func TestDateFastPath(t *testing.T) {
	for _, d := range []string{"Wed, 25 Nov 2026 13:40:00 +0000", "Mon, 2 Jan 2006 15:04:05 -0700", "Tue, 1 Dec 2026 23:59:59 +1345"} {
		m, err := Parse([]byte("From: a@example.org\r\nDate: " + d + "\r\n\r\nhi\r\n"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := netmail.ParseDate(d)
		if err != nil || !m.Date.Equal(want) || m.Date.String() != want.String() {
			t.Errorf("%s: %v, net/mail reads %v (%v)", d, m.Date, want, err)
		}
	}
}

// refReadHeader is the first readHeader: the kept lines copied into a buffer and read back by
// textproto.ReadHeader.
func refReadHeader(p *parseState, b []byte) textproto.Header {
	if len(b) > maxHeaderBytes {
		b = b[:maxHeaderBytes]
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			b = b[:i+1]
		}
		p.warn("message header over 1 MiB truncated")
	}
	var clean bytes.Buffer
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
			keep = true
		default:
			keep = false
			dropped++
			continue
		}
		clean.Write(line)
		clean.WriteString("\r\n")
	}
	clean.WriteString("\r\n")
	if dropped > 0 {
		p.warn("%d malformed message header line(s) ignored", dropped)
	}
	h, err := textproto.ReadHeader(bufio.NewReaderSize(&clean, max(clean.Len(), 16)))
	if err != nil {
		p.warn("message header: %v", err)
	}
	return h
}

// checkReadHeader fails when readHeader reads the header block b otherwise than refReadHeader with the
// fields isReadField does not name (by their canonical key) taken out: the fields in order with their
// keys, values and raw bytes, every key's values, the number of fields and the warnings.
func checkReadHeader(t testing.TB, b []byte) {
	p, ref := &parseState{}, &parseState{}
	got, fields := p.readHeader(b)
	want := refReadHeader(ref, b)
	if fields != want.Len() {
		t.Fatalf("header %q: %d fields counted, ReadHeader reads %d", b, fields, want.Len())
	}
	for f := want.Fields(); f.Next(); {
		if !isReadField([]byte(f.Key())) {
			f.Del()
		}
	}
	if !slices.Equal(p.warnings, ref.warnings) {
		t.Fatalf("header %q: warnings %q, ReadHeader's %q", b, p.warnings, ref.warnings)
	}
	if got.Len() != want.Len() {
		t.Fatalf("header %q: %d fields, ReadHeader reads %d", b, got.Len(), want.Len())
	}
	gf, wf := got.Fields(), want.Fields()
	for gf.Next() && wf.Next() {
		graw, gerr := gf.Raw()
		wraw, werr := wf.Raw()
		if gf.Key() != wf.Key() || gf.Value() != wf.Value() || !bytes.Equal(graw, wraw) || (gerr == nil) != (werr == nil) {
			t.Fatalf("header %q: field %q: %q (raw %q), ReadHeader reads %q: %q (raw %q)", b, gf.Key(), gf.Value(), graw, wf.Key(), wf.Value(), wraw)
		}
		if g, w := got.Values(wf.Key()), want.Values(wf.Key()); !slices.Equal(g, w) {
			t.Fatalf("header %q: %s values %q, ReadHeader's %q", b, wf.Key(), g, w)
		}
	}
}

func TestReadHeaderAsReadHeader(t *testing.T) {
	for _, b := range []string{
		"", "From: a\r\nTo: b\r\n", "From: a\nTo: b\n c\n\td\nX: 1\nx: 2\nX: 3\n", " lead\r\nFrom: a\r\n",
		"From a@b Mon\r\nbroken\r\nKey : v \r\n  \r\nK:\r\r\n", "A: 1\r\nb: 2\r\nA: 3\r\nB: 4\r\n", "k\x80: v\r\nk: \x80\r\n",
		"Subject: =?utf-8?q?x?=\r\n\tmore\r\n more\r\n", "Received: a\r\n b\r\nfrom: x\r\nX-SORTIE-game: 1\r\nMIME-Version: 1.0\r\n\tx\r\n",
		"x-sortie" + strings.Repeat("-long", 10) + ": 1\r\nCONTENT-TYPE: text/plain\r\nContent-Type2: x\r\n",
	} {
		checkReadHeader(t, []byte(b))
	}
	for _, c := range corpusCases {
		hb, _ := splitHeaderBody(readCorpusFile(t, c.file))
		checkReadHeader(t, hb)
	}
}

// ShouldIgnore's byte-wise tests give what the strings package gives.
func checkIgnoreHelpers(t testing.TB, s string) {
	for _, prefix := range append([]string{"x-sortie", "", strings.ToLower(s)}, ignoreSubjectPrefixes...) {
		if got, want := lowerHasPrefix(s, prefix), strings.HasPrefix(strings.ToLower(s), prefix); got != want {
			t.Fatalf("lowerHasPrefix(%q, %q) = %v, strings.ToLower says %v", s, prefix, got, want)
		}
	}
	if got, want := isNullPath(s), strings.Join(strings.Fields(s), "") == "<>"; got != want {
		t.Fatalf("isNullPath(%q) = %v, want %v", s, got, want)
	}
}

func FuzzIgnoreHelpers(f *testing.F) {
	for _, s := range []string{"X-Sortie-Game", "x-sortiE", "X-SORT\u0130E", "Automatic Reply: x", "R\u00c9PONSE AUTOMATIQUE", "<>", " < \u00a0> ", "<<>", "<>>", "\x80<>", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkIgnoreHelpers(t, s) })
}

// checkPlainUTF8 fails when the fast path of leafText (plainUTF8, then lineEndsToLF or
// decodeFlowed of the bytes) reads b otherwise than the general path (toUTF8, normalizeNewlines,
// decodeFlowed of the string), or takes text the general path would warn about; it reports whether
// the fast path took b.
func checkPlainUTF8(t testing.TB, b []byte, cs string) bool {
	body, ok := plainUTF8(b, cs)
	p := &parseState{}
	general := normalizeNewlines(p.toUTF8(b, cs))
	if !ok {
		return false
	}
	if len(p.warnings) > 0 {
		t.Fatalf("plainUTF8(%q, %q) takes text the general path warns about: %q", b, cs, p.warnings)
	}
	if got := lineEndsToLF(body); got != general {
		t.Fatalf("lineEndsToLF(plainUTF8(%q, %q)) = %q, the general path gives %q", b, cs, got, general)
	}
	for _, delsp := range []bool{false, true} {
		if got, want := decodeFlowed(body, delsp), decodeFlowed(general, delsp); got != want {
			t.Fatalf("decodeFlowed(plainUTF8(%q, %q), %v) = %q, the general path gives %q", b, cs, delsp, got, want)
		}
	}
	return true
}

func TestPlainUTF8(t *testing.T) {
	for _, c := range []struct {
		in, cs string
		fast   bool
	}{
		{"GAME\r\nRED1: 5\r\n", "utf-8", true}, {"> a \r\n> b\r\rc \r\n-- \r\nd", "", true}, {"\uFEFF\uFEFFa\rb", "", true}, {"\uFEFFcaf\u00e9\r\n", "iso-8859-1", true},
		{"plain", "us-ascii", true}, {"caf\xe9", "utf-8", false}, {"caf\xe9", "windows-1252", false}, {"\xFE\xFF\x00a", "utf-8", false},
		{"ok", "UTF-8", false}, // toUTF8 takes the charset lower case
	} {
		if ok := checkPlainUTF8(t, []byte(c.in), c.cs); ok != c.fast {
			t.Errorf("plainUTF8(%q, %q): fast path %v, want %v", c.in, c.cs, ok, c.fast)
		}
	}
}

// Every header name this package's inmail.go holds as a string (each a field it reads, through
// go-message's Header or mail.Header) is one readHeader keeps; and no other file reads Mail's header.
func TestReadFieldsListed(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "inmail.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`^[A-Z][A-Za-z0-9]*(-[A-Za-z0-9]+)*$`)
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && name.MatchString(s) {
				names = append(names, s)
				if !isReadField([]byte(s)) {
					t.Errorf("inmail.go names the header field %q, which readHeader does not keep (readFields)", s)
				}
			}
		}
		return true
	})
	if len(names) < len(readFields) {
		t.Errorf("inmail.go names %d header fields %q; readFields lists %d", len(names), names, len(readFields))
	}
	for _, k := range []string{"x-sortie", "X-Sortie-Game", "FROM", "content-TYPE"} {
		if !isReadField([]byte(k)) {
			t.Errorf("%s not kept", k)
		}
	}
	for _, k := range []string{"Received", "X-Sorti", "Fromm", "DKIM-Signature", "MIME-Version"} {
		if isReadField([]byte(k)) {
			t.Errorf("%s kept", k)
		}
	}
	files, _ := filepath.Glob("*.go")
	for _, file := range files {
		if file == "inmail.go" || strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if regexp.MustCompile(`\.hdr\b`).Match(src) {
			t.Errorf("%s reads a Mail's header: its fields must be read in inmail.go, or listed in readFields", file)
		}
	}
}
