package outmail_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"

	"sortie/mailer/outmail"
)

var created = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

func report() outmail.Mail {
	return outmail.Mail{
		From:      "sortie@sortie.test",
		To:        "juergen@example.test",
		ToName:    "Jürgen Müller",
		ReplyTo:   "sortie+tok123@sortie.test",
		Subject:   "[g1] Runde 3 – Bf 109 über Calais ✈",
		Body:      "Turn 3 of g1.\r\nFrom the GM: your Bf 109 climbs — 2L1 ✓ <b>&amp;</b>\n.\n" + strings.Repeat("x", 120) + "\n",
		MessageID: "<report.g1.3@sortie.test>",
		InReplyTo: "orders-42@example.test",
		Headers:   map[string]string{"X-Sortie-Game": "g1"},
		Created:   created,
	}
}

// picture is a real PNG, big enough that its base64 runs over many lines.
func picture(t testing.TB) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 120, 90))
	for x := range 120 {
		for y := range 90 {
			img.Set(x, y, color.NRGBA{uint8(x * 2), uint8(y * 3), uint8(x ^ y), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func render(t testing.TB, m outmail.Mail) []byte {
	t.Helper()
	raw, err := outmail.Render(m, "Sortie Ü")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func parse(t testing.TB, raw []byte) *message.Entity {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("go-message cannot read the mail: %v\n%s", err, raw)
	}
	return e
}

func mediaType(t testing.TB, e *message.Entity) (string, map[string]string) {
	t.Helper()
	mt, params, err := e.Header.ContentType()
	if err != nil {
		t.Fatal(err)
	}
	return mt, params
}

func children(t testing.TB, e *message.Entity) []*message.Entity {
	t.Helper()
	mr := e.MultipartReader()
	if mr == nil {
		mt, _ := mediaType(t, e)
		t.Fatalf("%s is not a multipart", mt)
	}
	var out []*message.Entity
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		// Read the body now: the next NextPart skips what is left of it.
		body, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(p.Header.Get("Content-Type"), "multipart/") {
			p, err = message.New(p.Header, bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
		} else {
			p.Body = bytes.NewReader(body)
		}
		out = append(out, p)
	}
}

func text(t testing.TB, e *message.Entity) string {
	t.Helper()
	b, err := io.ReadAll(e.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lf is text with every line end a LF: what a mail's text part decodes to, compared with what was queued.
func lf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func TestRenderPlainText(t *testing.T) {
	m := report()
	raw := render(t, m)
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
		t.Error("a line ends without CR")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := msg.Header
	dec := new(mime.WordDecoder)
	from, _ := mail.ParseAddress(h.Get("From"))
	to, _ := mail.ParseAddress(h.Get("To"))
	subject, _ := dec.DecodeHeader(h.Get("Subject"))
	date, _ := h.Date()
	for _, c := range []struct{ what, got, want string }{
		{"From", from.String(), (&mail.Address{Name: "Sortie Ü", Address: "sortie@sortie.test"}).String()},
		{"To", to.String(), (&mail.Address{Name: "Jürgen Müller", Address: "juergen@example.test"}).String()},
		{"Reply-To", h.Get("Reply-To"), "<sortie+tok123@sortie.test>"},
		{"Subject", subject, m.Subject},
		{"Message-ID", h.Get("Message-ID"), "<report.g1.3@sortie.test>"},
		{"In-Reply-To", h.Get("In-Reply-To"), "<orders-42@example.test>"},
		{"References", h.Get("References"), "<orders-42@example.test>"},
		{"Date", date.UTC().Format(time.RFC3339), created.Format(time.RFC3339)},
		{"X-Sortie-Game", h.Get("X-Sortie-Game"), "g1"},
		{"X-Sortie", h.Get("X-Sortie"), "1"},
		{"Auto-Submitted", h.Get("Auto-Submitted"), "auto-generated"},
		{"X-Auto-Response-Suppress", h.Get("X-Auto-Response-Suppress"), "OOF, AutoReply"},
		{"MIME-Version", h.Get("MIME-Version"), "1.0"},
		{"User-Agent", h.Get("User-Agent") + h.Get("X-Mailer"), ""},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
		}
	}
	e := parse(t, raw)
	if mt, params := mediaType(t, e); mt != "text/plain" || !strings.EqualFold(params["charset"], "utf-8") {
		t.Errorf("Content-Type %s %v", mt, params)
	}
	if got := text(t, e); lf(got) != lf(m.Body) {
		t.Errorf("the text comes back as\n%q\nnot\n%q", got, m.Body)
	}

	// A text without a line end at its end gets one: SMTP adds it on the way, and the bytes sent are
	// the bytes that arrive.
	m.Body = "no line end"
	if raw := render(t, m); !bytes.HasSuffix(raw, []byte("\r\n\r\nno line end\r\n")) {
		t.Errorf("the mail ends %q", raw[max(0, len(raw)-40):])
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	pic := picture(t)
	shapes := map[string]func(*outmail.Mail){
		"plain": func(*outmail.Mail) {},
		"inline": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: pic}}
		},
		"attachment": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "orders.txt", ContentType: "text/plain", Data: []byte("RED1: 2L1\n")}}
		},
		"both": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: pic},
				{Filename: "orders.txt", ContentType: "text/plain", Data: []byte("RED1: 2L1\n")}}
		},
	}
	for name, shape := range shapes {
		t.Run(name, func(t *testing.T) {
			m := report()
			shape(&m)
			first := render(t, m)
			for range 5 {
				if again := render(t, m); !bytes.Equal(first, again) {
					t.Fatalf("two renderings differ:\n%s\n---\n%s", first, again)
				}
			}
			// Another Message-ID, other boundaries: they come from the Message-ID, not from a constant.
			other := m
			other.MessageID = "other@sortie.test"
			b1, b2 := boundaries(first), boundaries(render(t, other))
			if len(m.Parts) > 0 && (len(b1) == 0 || strings.Join(b1, " ") == strings.Join(b2, " ")) {
				t.Errorf("boundaries %v and %v", b1, b2)
			}
		})
	}
}

var boundaryParam = regexp.MustCompile(`boundary="?([^"\r\n;]+)`)

func boundaries(raw []byte) []string {
	var out []string
	for _, m := range boundaryParam.FindAllSubmatch(raw, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

func TestRenderInlinePicture(t *testing.T) {
	pic := picture(t)
	m := report()
	m.Parts = []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: pic}}
	raw := render(t, m)
	root := parse(t, raw)
	if mt, _ := mediaType(t, root); mt != "multipart/related" {
		t.Fatalf("root is %s", mt)
	}
	parts := children(t, root)
	if len(parts) != 2 {
		t.Fatalf("related holds %d parts", len(parts))
	}
	if mt, _ := mediaType(t, parts[0]); mt != "multipart/alternative" {
		t.Fatalf("the first part of related is %s", mt)
	}
	alt := children(t, parts[0])
	if len(alt) != 2 {
		t.Fatalf("alternative holds %d parts", len(alt))
	}
	if mt, _ := mediaType(t, alt[0]); mt != "text/plain" {
		t.Errorf("the first alternative is %s", mt)
	}
	if got := text(t, alt[0]); lf(got) != lf(m.Body) {
		t.Errorf("the text part changed:\n%q", got)
	}
	if mt, _ := mediaType(t, alt[1]); mt != "text/html" {
		t.Errorf("the second alternative is %s", mt)
	}
	html := lf(text(t, alt[1]))
	cid := "part1.report.g1.3@sortie.test"
	for _, want := range []string{
		"<pre>Turn 3 of g1.\nFrom the GM: your Bf 109 climbs — 2L1 ✓ &lt;b&gt;&amp;amp;&lt;/b&gt;\n.\n",
		`<img src="cid:` + cid + `" alt="map.png">`,
		`<meta charset="utf-8">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML lacks %q:\n%s", want, html)
		}
	}
	if strings.Index(html, "<pre>") > strings.Index(html, "<img") {
		t.Error("the picture comes before the text")
	}
	img := parts[1]
	if mt, params := mediaType(t, img); mt != "image/png" || params["name"] != "map.png" {
		t.Errorf("picture: %s %v", mt, params)
	}
	if got := img.Header.Get("Content-Id"); got != "<"+cid+">" {
		t.Errorf("Content-ID %q", got)
	}
	if disp, params, _ := img.Header.ContentDisposition(); disp != "inline" || params["filename"] != "map.png" {
		t.Errorf("Content-Disposition %s %v", disp, params)
	}
	if enc := img.Header.Get("Content-Transfer-Encoding"); enc != "base64" {
		t.Errorf("Content-Transfer-Encoding %q", enc)
	}
	if got := text(t, img); got != string(pic) {
		t.Errorf("the picture comes back as %d bytes, not the %d sent", len(got), len(pic))
	}
	// The base64 itself, as lines of at most 76 characters.
	b64 := base64.StdEncoding.EncodeToString(pic)
	var lines []string
	for len(b64) > 76 {
		lines, b64 = append(lines, b64[:76]), b64[76:]
	}
	lines = append(lines, b64)
	if !bytes.Contains(raw, []byte(strings.Join(lines, "\r\n"))) {
		t.Error("the picture is not in the mail as base64 lines of 76 characters")
	}
}

func TestRenderAttachments(t *testing.T) {
	pic := picture(t)
	t.Run("attachment only", func(t *testing.T) {
		m := report()
		m.Parts = []outmail.Part{{Filename: "Orders für g1.txt", ContentType: "text/plain", Data: []byte("RED1: 2L1\n")}}
		root := parse(t, render(t, m))
		if mt, _ := mediaType(t, root); mt != "multipart/mixed" {
			t.Fatalf("root is %s", mt)
		}
		parts := children(t, root)
		if len(parts) != 2 {
			t.Fatalf("%d parts", len(parts))
		}
		if mt, _ := mediaType(t, parts[0]); mt != "text/plain" || lf(text(t, parts[0])) != lf(m.Body) {
			t.Errorf("first part %s", mt)
		}
		disp, params, _ := parts[1].Header.ContentDisposition()
		if disp != "attachment" || params["filename"] != "Orders für g1.txt" || text(t, parts[1]) != "RED1: 2L1\n" {
			t.Errorf("attachment: %s %v", disp, params)
		}
		if parts[1].Header.Get("Content-Id") != "" {
			t.Error("an attachment has a Content-ID")
		}
	})
	t.Run("picture and attachment", func(t *testing.T) {
		m := report()
		m.Parts = []outmail.Part{{Filename: "log.txt", ContentType: "text/plain", Data: []byte("log\n")},
			{Filename: "map.png", ContentType: "image/png", Inline: true, ContentID: "<map@sortie.test>", Data: pic}}
		root := parse(t, render(t, m))
		if mt, _ := mediaType(t, root); mt != "multipart/mixed" {
			t.Fatalf("root is %s", mt)
		}
		parts := children(t, root)
		if len(parts) != 2 {
			t.Fatalf("%d parts", len(parts))
		}
		if mt, _ := mediaType(t, parts[0]); mt != "multipart/related" {
			t.Fatalf("first part %s", mt)
		}
		related := children(t, parts[0])
		if len(related) != 2 || related[1].Header.Get("Content-Id") != "<map@sortie.test>" {
			t.Fatalf("related: %d parts", len(related))
		}
		alt := children(t, related[0])
		if html := text(t, alt[1]); !strings.Contains(html, `src="cid:map@sortie.test"`) {
			t.Errorf("the HTML does not show the picture by its own Content-ID:\n%s", html)
		}
		if disp, _, _ := parts[1].Header.ContentDisposition(); disp != "attachment" || text(t, parts[1]) != "log\n" {
			t.Errorf("attachment %s", disp)
		}
	})
}

// A text cannot end a part early or add one: a line that quotes the boundary the mail would have had
// makes Render take another.
func TestRenderBoundaryCannotBeForged(t *testing.T) {
	m := report()
	m.Parts = []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: picture(t)}}
	before := boundaries(render(t, m))
	if len(before) != 2 {
		t.Fatalf("boundaries %v", before)
	}
	m.Body += "--" + before[1] + "\r\nContent-Type: text/html\r\n\r\n<h1>forged</h1>\r\n--" + before[1] + "--\r\n"
	raw := render(t, m)
	after := boundaries(raw)
	if len(after) != 2 || after[1] == before[1] {
		t.Fatalf("boundaries %v after %v", after, before)
	}
	alt := children(t, children(t, parse(t, raw))[0])
	if len(alt) != 2 || lf(text(t, alt[0])) != lf(m.Body) {
		t.Errorf("the text that quotes a boundary changed the mail: %d alternatives", len(alt))
	}
}

func TestRenderHeaderInjection(t *testing.T) {
	m := report()
	m.Subject = "turn 3\r\nBcc: evil@example.test"
	m.ToName = "Eve\nBcc: evil@example.test"
	m.Headers = map[string]string{
		"X-Sortie-Game": "g1\r\nBcc: evil@example.test",
		"Subject":       "overridden?",
		"Message-Id":    "<evil@example.test>",
		"X-Bad\nName":   "v",
		"X-Sortie":      "0",
	}
	if got := outmail.IgnoredHeaders(m); strings.Join(got, ",") != "Message-Id,Subject,X-Bad\nName,X-Sortie" {
		t.Errorf("IgnoredHeaders = %q", got)
	}
	raw := render(t, m)
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := msg.Header
	if len(h["Bcc"]) > 0 || bytes.Contains(raw, []byte("\r\nBcc:")) || bytes.Contains(raw, []byte("Name:")) {
		t.Errorf("a header was injected:\n%s", raw)
	}
	if h.Get("Subject") != "turn 3 Bcc: evil@example.test" || h.Get("X-Sortie-Game") != "g1 Bcc: evil@example.test" {
		t.Errorf("Subject %q, X-Sortie-Game %q", h.Get("Subject"), h.Get("X-Sortie-Game"))
	}
	if len(h["Subject"]) != 1 || h.Get("Message-Id") != "<report.g1.3@sortie.test>" || h.Get("X-Sortie") != "1" {
		t.Errorf("a reserved header was overridden: %v", h)
	}
}

func TestRenderFromName(t *testing.T) {
	m := report()
	m.FromName = "Sortie at Biggin Hill"
	msg, _ := mail.ReadMessage(bytes.NewReader(render(t, m)))
	if from, _ := mail.ParseAddress(msg.Header.Get("From")); from == nil || from.Name != "Sortie at Biggin Hill" {
		t.Errorf("From %q: the mail's own name goes before the sender's", msg.Header.Get("From"))
	}
}

func TestCheck(t *testing.T) {
	pic := []byte("\x89PNG")
	for name, c := range map[string]func(*outmail.Mail){
		"no date":          func(m *outmail.Mail) { m.Created = time.Time{} },
		"no Message-ID":    func(m *outmail.Mail) { m.MessageID = "<>" },
		"Message-ID blank": func(m *outmail.Mail) { m.MessageID = "a b@x" },
		"bad To":           func(m *outmail.Mail) { m.To = "not an address" },
		"bad From":         func(m *outmail.Mail) { m.From = "" },
		"bad Reply-To":     func(m *outmail.Mail) { m.ReplyTo = "x@" },
		"no file name":     func(m *outmail.Mail) { m.Parts = []outmail.Part{{ContentType: "image/png", Data: pic}} },
		"line break in name": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "a\r\nb", ContentType: "image/png", Data: pic}}
		},
		"content type params": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "a", ContentType: "text/plain; x=1", Data: pic}}
		},
		"no data": func(m *outmail.Mail) { m.Parts = []outmail.Part{{Filename: "a", ContentType: "image/png"}} },
		"inline text": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "a", ContentType: "text/plain", Inline: true, Data: pic}}
		},
		"attachment with cid": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "a", ContentType: "image/png", ContentID: "x@y", Data: pic}}
		},
		"bad cid": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "a", ContentType: "image/png", Inline: true, ContentID: "x y", Data: pic}}
		},
		"one cid twice": func(m *outmail.Mail) {
			m.Parts = []outmail.Part{{Filename: "a", ContentType: "image/png", Inline: true, ContentID: "x@y", Data: pic},
				{Filename: "b", ContentType: "image/png", Inline: true, ContentID: "<x@y>", Data: pic}}
		},
	} {
		m := report()
		c(&m)
		if err := outmail.Check(m); !errors.Is(err, outmail.ErrInvalid) {
			t.Errorf("%s: Check = %v", name, err)
		}
		if _, err := outmail.Render(m, "Sortie"); !errors.Is(err, outmail.ErrInvalid) {
			t.Errorf("%s: Render = %v", name, err)
		}
	}
	if err := outmail.Check(report()); err != nil {
		t.Errorf("a good mail: %v", err)
	}
	if from, to, err := outmail.Envelope(report()); from != "sortie@sortie.test" || to != "juergen@example.test" || err != nil {
		t.Errorf("Envelope = %s, %s, %v", from, to, err)
	}
}

// FuzzRender: whatever a subject, a name, a header or a text holds (a player's words are echoed in
// receipts), Render gives the same bytes twice, a mail go-message reads with exactly the headers Render
// sets (one Subject, no header of the text's own), and the text back unchanged.
func FuzzRender(f *testing.F) {
	f.Add("turn 3", "Eve", "g1", "RED1: 2L1\nEND\n", false)
	f.Add("Runde 3 – über ✈", "Jürgen\r\nBcc: x@y", "g1\nX: y", "From me\r\n.\r\n--sortie\r\n", true)
	f.Add(strings.Repeat("word ", 40), "", "", strings.Repeat("=", 200)+"\n \t\n", true)
	pic := picture(f)
	f.Fuzz(func(t *testing.T, subject, name, header, body string, inline bool) {
		m := report()
		m.Subject, m.ToName, m.Body = subject, name, body
		m.Headers = map[string]string{"X-Sortie-Game": header}
		if inline {
			m.Parts = []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: pic}}
		}
		raw, err := outmail.Render(m, "Sortie")
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := outmail.Render(m, "Sortie"); !bytes.Equal(raw, again) {
			t.Fatal("two renderings differ")
		}
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%v\n%s", err, raw)
		}
		for k, v := range msg.Header {
			if !strings.HasPrefix(k, "X-") && !knownHeader[k] || len(v) != 1 {
				t.Fatalf("header %s: %q", k, v)
			}
		}
		e := parse(t, raw)
		if inline {
			e = children(t, children(t, e)[0])[0]
		}
		want := lf(body)
		if !inline && want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n" // the mail ends with a line end, as SMTP would make it
		}
		if got := text(t, e); lf(got) != want {
			t.Fatalf("the text comes back as %q, not %q", got, body)
		}
		if !bytes.HasSuffix(raw, []byte("\r\n")) {
			t.Fatal("the mail does not end with a line end")
		}
	})
}

var knownHeader = map[string]bool{"Auto-Submitted": true, "Date": true, "In-Reply-To": true, "Mime-Version": true,
	"Message-Id": true, "References": true, "Subject": true, "From": true, "To": true, "Reply-To": true,
	"Content-Type": true, "Content-Transfer-Encoding": true}
