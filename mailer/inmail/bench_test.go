package inmail

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	netmail "net/mail"
	"strings"
	"testing"

	"github.com/emersion/go-message/textproto"
)

// benchOrderReply is a player's order mail as a mail program writes it: a reply to the last report, the
// block on top, the report quoted below, format=flowed (the shape BenchmarkIntake delivers).
func benchOrderReply() []byte {
	var q strings.Builder
	for i := range 14 {
		fmt.Fprintf(&q, "> RED%d  Spitfire I   hex %d,%d  facing %d  12,000 ft  speed 6.0  bank N  damage none\n", i%2+1, i, 4-i, i%6)
	}
	body := "Hello,\n\nGAME bench TURN 1 SECRET lark-swift-0001\nRED1: 6 FIRE KURT\nRED2: 1 TL 4\nEND\n\nAlice\n\nOn Mon, 23 Nov 2026 at 09:00, Sortie wrote:\n> [bench] turn 1 report\n>\n" + q.String()
	return []byte("From: Alice <alice@players.test>\r\nTo: Sortie <sortie@sortie.test>\r\nSubject: Re: [bench] turn 1 report\r\n" +
		"Message-ID: <o1.1@players.test>\r\nIn-Reply-To: <report.bench.0.x@sortie.test>\r\nDate: Wed, 25 Nov 2026 13:40:00 +0000\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n" +
		"User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
}

// BenchmarkParseMessage: the MIME side of reading one order mail (go test ./mailer/inmail -bench Parse).
func BenchmarkParseMessage(b *testing.B) {
	raw := benchOrderReply()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := Parse(raw)
		if err != nil || m.From != "alice@players.test" || !strings.Contains(m.OrderText, "RED2: 1 TL 4") {
			b.Fatalf("%v %+v", err, m)
		}
	}
}

// BenchmarkParseMessageShapes: Parse over the corpus shapes players' mail programs write most
// (plain flowed, Gmail's alternative, Outlook's and a webmail's HTML only, a mixed mail with a PDF), and
// beside them the raw cost of the same bytes: net/mail reading the header and copying the body out
// (raw), and go-message's header reader doing the same (floor), the least any reader of the message does.
func BenchmarkParseMessageShapes(b *testing.B) {
	for _, file := range []string{
		"thunderbird-flowed-bottom-reply.eml",
		"gmail-alternative-topposted.eml",
		"gmail-mixed-pdf-attachment.eml",
		"outlook-html-only-cp1252.eml",
		"webmail-html-only-base64.eml",
	} {
		raw := readCorpusFile(b, file)
		name := strings.TrimSuffix(file, ".eml")
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				m, err := Parse(raw)
				if err != nil || !strings.Contains(m.OrderText, "RED2: 5 HOLD") {
					b.Fatalf("%v %+v", err, m)
				}
			}
		})
		b.Run(name+"/raw", func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				m, err := netmail.ReadMessage(bytes.NewReader(raw))
				if err != nil {
					b.Fatal(err)
				}
				body, err := io.ReadAll(m.Body)
				if err != nil || len(body) == 0 || m.Header.Get("From") == "" {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/floor", func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				benchFloor(b, raw)
			}
		})
	}
}

// BenchmarkParseMessageFloor: the least any reader of the order mail of BenchmarkParseMessage does, in
// the same run: go-message's own header reader over the header, the body copied out.
func BenchmarkParseMessageFloor(b *testing.B) {
	raw := benchOrderReply()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		benchFloor(b, raw)
	}
}

// benchFloor reads raw the way the plainest reader would: textproto.ReadHeader, then io.ReadAll of the rest.
func benchFloor(b *testing.B, raw []byte) {
	r := bufio.NewReader(bytes.NewReader(raw))
	h, err := textproto.ReadHeader(r)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(r)
	if err != nil || len(body) == 0 || h.Get("From") == "" {
		b.Fatal(err)
	}
}

// BenchmarkReadOrderMail: what the daemon's intake does with each mail it reads before the order block:
// Parse and ShouldIgnore, beside the floor of BenchmarkParseMessageFloor.
func BenchmarkReadOrderMail(b *testing.B) {
	raw := benchOrderReply()
	b.Run("read", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			m, err := Parse(raw)
			if err != nil || m.From != "alice@players.test" || !strings.Contains(m.OrderText, "RED2: 1 TL 4") {
				b.Fatalf("%v %+v", err, m)
			}
			if ign, why := m.ShouldIgnore(); ign {
				b.Fatal(why)
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			benchFloor(b, raw)
		}
	})
}

// BenchmarkShouldIgnore: the loop and bounce filter over the order mail, parsed once.
func BenchmarkShouldIgnore(b *testing.B) {
	m, err := Parse(benchOrderReply())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if ign, why := m.ShouldIgnore(); ign {
			b.Fatal(why)
		}
	}
}

// BenchmarkStripQuoted: the quote stripping of the order mail's text.
func BenchmarkStripQuoted(b *testing.B) {
	m, err := Parse(benchOrderReply())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(m.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if s := StripQuoted(m.Text); s != m.OrderText {
			b.Fatal(s)
		}
	}
}
