package inmail

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestHTMLToText(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"text only", "GAME x", "GAME x\n"},
		{"br", "GAME x<br>RED1: 5<BR/>END<br />", "GAME x\nRED1: 5\nEND\n"},
		{"double br is a blank line", "a<br><br>b", "a\n\nb\n"},
		{"divs, Gmail style", "<div dir=\"ltr\"><div>GAME x</div><div>RED1: 5</div><div><br></div><div>END</div></div>", "GAME x\nRED1: 5\n\nEND\n"},
		{"trailing br in a div", "<div>a<br></div><div>b</div>", "a\nb\n"},
		{"paragraphs", "<p>one</p><p>two<br>three</p>", "one\n\ntwo\nthree\n"},
		{"Outlook MsoNormal paragraphs", "<p class=MsoNormal>GAME x<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>END<o:p></o:p></p>",
			"GAME x\n\nEND\n"},
		{"list items", "<ul><li>RED1: 5</li><li>RED2: 4</li></ul>", "RED1: 5\nRED2: 4\n"},
		{"white space collapses", "  RED1:\n   2R\t\t1  TR  \n", "RED1: 2R 1 TR\n"},
		{"nbsp keeps spaces", "RED1:&nbsp;&nbsp;2R&nbsp; 1", "RED1:  2R  1\n"},
		{"entities", "&lt;b&gt; &amp; &quot;q&quot; &#39;s&#39; &#233;&#xE9;&#XE9; &eacute; &hellip; &euro; &mdash; &copy; &unknown; & x",
			"<b> & \"q\" 's' ééé é … € — © &unknown; & x\n"},
		{"entities without semicolon", "&amp &lt3 caf&eacute", "& <3 café\n"},
		{"literal less-than", "a < b <3 <=5 x", "a < b <3 <=5 x\n"},
		// HTML5 reads "</" before a non-letter as a bogus comment up to the next '>': a browser shows
		// nothing of it, nor does HTMLToText (the scanner before x/net/html kept it as text).
		{"end-tag opener before a non-letter", "a </ x", "a\n"},
		{"head, style, script, title dropped", "<html><head><title>T</title><style>p{color:red}</style><meta charset=utf-8></head><body><script>alert('<p>x</p>')</script>GAME</body></html>",
			"GAME\n"},
		{"unclosed head ends at body content", "<head><style>x</style><div>GAME</div>", "GAME\n"},
		{"comments and conditionals", "a<!-- <p>hidden</p> -->b<!--[if mso]>hidden<![endif]--><!--[if !mso]><!-->shown<!--<![endif]-->", "abshown\n"},
		{"doctype and cdata", "<!DOCTYPE html><?xml version=\"1.0\"?><![CDATA[x]]>GAME", "GAME\n"},
		{"unclosed comment", "GAME<!-- to the end", "GAME\n"},
		{"unclosed script", "GAME<script>var a = '</p>'", "GAME\n"},
		{"unclosed title is ignored", "<title>GAME", "GAME\n"},
		{"pre keeps white space", "<pre>RED1:  2R\n  1 TR\n</pre>after", "RED1:  2R\n  1 TR\nafter\n"},
		{"blockquote", "answer<blockquote>q1<br>q2<blockquote>qq</blockquote>q3</blockquote>after",
			"answer\n> q1\n> q2\n> > qq\n> q3\nafter\n"},
		{"blank lines inside a quote", "<blockquote><p>a</p><p>b</p></blockquote>", "> a\n>\n> b\n"},
		{"Gmail quote container", "<div>GAME</div><div class=\"gmail_quote\"><div class=\"gmail_attr\">On Tue, X wrote:<br></div><blockquote class=\"gmail_quote\">RED1: 3</blockquote></div><div>after</div>",
			"GAME\n> On Tue, X wrote:\n> > RED1: 3\nafter\n"},
		{"Gmail quote container with other classes", "<div class=\"gmail_quote gmail_quote_container\"><div>q</div></div>x", "> q\nx\n"},
		{"gmail_signature is not a quote", "<div class=\"gmail_signature\">sig</div>", "sig\n"},
		{"Outlook appendonsend", "<div>GAME</div><div id=\"appendonsend\"></div><hr><div id=\"divRplyFwdMsg\"><b>From:</b> S<br><b>Sent:</b> T</div><div>RED1: 3</div>",
			"GAME\n> From: S\n> Sent: T\n> RED1: 3\n"},
		{"Outlook divRplyFwdMsg", "GAME<div id=divRplyFwdMsg>From: S</div>RED1: 3", "GAME\n> From: S\n> RED1: 3\n"},
		{"table cells", "<table><tr><td>RED1:</td><td>5</td></tr><tr><td>RED2:</td><td>4</td></tr></table>", "RED1: 5\nRED2: 4\n"},
		{"inline tags do not break", "RED<b>1</b>: <span style=\"x\">2R</span> <i>1</i>", "RED1: 2R 1\n"},
		{"upper case", "<DIV>GAME</DIV><P>END</P>", "GAME\n\nEND\n"},
		{"attributes with > inside quotes", "<a title=\"a>b\" href='x>y'>link</a>", "link\n"},
		// An attribute quote never closed swallows the rest of the input into the tag, which never ends:
		// a browser shows nothing after it, and neither does HTMLToText (the scanner before x/net/html ended
		// the value at the next '>'; no mail program writes this).
		{"unmatched attribute quote", "GAME<div class=\"x>RED1: 5</div>END", "GAME\n"},
		{"tag at end of input", "GAME<div", "GAME\n"},
		{"blank lines merge", "a<br><br><br><br>b<p></p><p></p>c", "a\n\nb\n\nc\n"},
		{"headings", "<h1>Title</h1>body", "Title\nbody\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := HTMLToText(c.in); got != c.want {
				t.Errorf("HTMLToText(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

// HTML quoting is removed by StripQuoted.
func TestHTMLToTextStripQuoted(t *testing.T) {
	for name, in := range map[string]string{
		"Thunderbird": `<p>GAME chan-1 TURN 2<br>RED1: 5<br>END</p><div class="moz-cite-prefix">On 03/11/2026 10:00, Sortie wrote:<br></div><blockquote type="cite" cite="mid:r@example.org">GAME chan-1 TURN 1<br>RED1: 3<br>END</blockquote><br><div class="moz-signature">-- <br>Alice</div>`,
		"Apple":       `<div>GAME chan-1 TURN 2</div><div>RED1: 5</div><div>END</div><div><br><blockquote type="cite"><div>Am 03.11.2026 um 10:00 schrieb Sortie:</div><br class="Apple-interchange-newline"><div>GAME chan-1 TURN 1<br>RED1: 3<br>END</div></blockquote></div>`,
		"Yahoo":       `<div>GAME chan-1 TURN 2</div><div>RED1: 5</div><div>END</div><div id="yahoo_quoted_123" class="yahoo_quoted"><div>On Tuesday, Sortie wrote:</div><div>GAME chan-1 TURN 1<br>RED1: 3<br>END</div></div>`,
		"Outlook":     `<p class=MsoNormal>GAME chan-1 TURN 2<o:p></o:p></p><p class=MsoNormal>RED1: 5<o:p></o:p></p><p class=MsoNormal>END<o:p></o:p></p><div style='border:none;border-top:solid #E1E1E1 1.0pt'><p class=MsoNormal><b>From:</b> Sortie &lt;s@example.org&gt;<br><b>Sent:</b> Tuesday<br><b>To:</b> me<br><b>Subject:</b> report</p></div><p class=MsoNormal>GAME chan-1 TURN 1</p><p class=MsoNormal>RED1: 3</p><p class=MsoNormal>END</p>`,
	} {
		want := "GAME chan-1 TURN 2\nRED1: 5\nEND\n"
		text := HTMLToText(in)
		if got := StripQuoted(text); got != want {
			t.Errorf("%s:\ntext:\n%s\n got %q\nwant %q", name, text, got, want)
		}
	}
}

// Hostile HTML is read in linear time, shown by counting work at n and 4n (linearWork), never by the
// clock; BenchmarkHTMLToText measures the speed.
func TestHTMLToTextLinear(t *testing.T) {
	for name, shape := range map[string]func(n int) string{
		"unclosed quotes":    func(n int) string { return strings.Repeat(`<a b="`, n<<2) },
		"alternating quotes": func(n int) string { return strings.Repeat(`<a b='x" c="y'>`, n<<1) },
		"deep blockquotes":   func(n int) string { return strings.Repeat("<blockquote>x<br>", n) },
		"less-than signs":    func(n int) string { return strings.Repeat("<", n<<4) },
		"unclosed comments":  func(n int) string { return strings.Repeat("<!--", n<<2) },
		"unclosed raw text":  func(n int) string { return strings.Repeat("<title>", n<<1) },
		"entities":           func(n int) string { return strings.Repeat("&amp;&#x41;&bogus", n) },
		"many divs": func(n int) string {
			return strings.Repeat(`<div class="gmail_quote">`, n) + strings.Repeat("</div>", n)
		},
		"unterminated tags":   func(n int) string { return strings.Repeat("<div class=x ", n<<1) },
		"long attribute name": func(n int) string { return "<div " + strings.Repeat("a", n<<4) },
	} {
		linearWork(t, name, 1<<14, func(n int) func() {
			in := shape(n)
			return func() { HTMLToText(in) }
		})
	}
}

func FuzzHTMLToText(f *testing.F) {
	f.Add(`<div class="gmail_quote"><blockquote>q</blockquote></div><p class=MsoNormal>a&nbsp;b</p><pre> x </pre>`)
	f.Add(`<!--x--><script>y</script><a href='z'>&amp;&#x41;</a><div id=appendonsend></div>`)
	f.Add("<title>x<head><style>")
	f.Add("<title>a<textarea>b</title><template>c<xml>d</template>e<noscript>f<plaintext>g</ x<div class=\"q")
	f.Fuzz(func(t *testing.T, in string) {
		out := HTMLToText(in)
		if strings.Contains(out, "\r") {
			t.Fatalf("HTMLToText(%q) = %q holds a CR", in, out)
		}
		if out != "" && !strings.HasSuffix(out, "\n") {
			t.Fatalf("HTMLToText(%q) = %q: no final newline", in, out)
		}
		if strings.Contains(out, "\n\n\n") {
			t.Fatalf("HTMLToText(%q) = %q: more than one blank line", in, out)
		}
	})
}

// BenchmarkHTMLToText: the HTML parts of the corpus's HTML mails, and beside each the raw cost of the same
// bytes: x/net/html's tokenizer reading every token and doing nothing with it.
func BenchmarkHTMLToText(b *testing.B) {
	for _, file := range []string{"outlook-html-only-cp1252.eml", "webmail-html-only-base64.eml", "gmail-alternative-topposted.eml"} {
		src := corpusHTMLSource(b, readCorpusFile(b, file))
		name := strings.TrimSuffix(file, ".eml")
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if !strings.Contains(HTMLToText(src), "RED2: 5 HOLD") {
					b.Fatal("no orders")
				}
			}
		})
		b.Run(name+"/raw", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				z := html.NewTokenizer(strings.NewReader(src))
				n := 0
				for z.Next() != html.ErrorToken {
					n++
				}
				if n == 0 {
					b.Fatal("no tokens")
				}
			}
		})
	}
}
