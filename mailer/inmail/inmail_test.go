package inmail

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
)

// testOrderLine matches the lines of an order block (and anything that looks like one).
var testOrderLine = regexp.MustCompile(`^\s*(GAME\b.*|END|[A-Z]+[0-9]+:.*)$`)

func testOrderLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if testOrderLine.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

func testTurn2(secret string) []string {
	return []string{"GAME chan-1 TURN 2 SECRET " + secret, "RED1: 2R 1 TR FIRE ANY", "RED2: 5 HOLD", "END"}
}

type corpusCase struct {
	file     string
	from     string
	fromName string
	msgID    string   // "": the sha256 substitute is expected
	to       []string // nil: not checked
	subject  string   // "": not checked
	ignore   string   // "": must not be ignored; else a substring of the reason
	orders   []string // the exact order-like lines of OrderText; nil with ignore: not checked
	html     bool
	warn     string // "": no warnings; else a substring of one
	text     []string
	notOrder []string // must not appear in OrderText
}

var corpusCases = []corpusCase{
	{
		file: "thunderbird-flowed-bottom-reply.eml", from: "alice.hart@example.com", fromName: "Alice Hart",
		msgID:   "5b1c2e0a-8f3d-4c2b-9a51-2f6de0c1a7b3@example.com",
		to:      []string{"sortie@games.example.org"},
		subject: "Re: Sortie chan-1 turn 1 report",
		orders:  testTurn2("lark"),
		text: []string{
			"\nI am keeping RED2 level this turn because the 109 is above us and I would rather not trade altitude for a snap shot that probably misses anyway — RED1 goes for him instead.\n",
			"\nFrom here on I fly low.\n", // space-stuffing removed
		},
		notOrder: []string{"wrote:", "TURN 1", "lucky plot", "Alice Hart"},
	},
	{
		file: "applemail-alternative-related-qp.eml", from: "juergen.mueller@example.de", fromName: "Jürgen Müller",
		msgID:    "8E2F4A71-5C3B-4D9E-A1F0-2B3C4D5E6F70@example.de",
		orders:   testTurn2("falke"),
		text:     []string{"hier meine Befehle für Zug 2. RED2 bleibt auf Höhe, ich hoffe das passt so – der", "Grüße aus München"},
		notOrder: []string{"schrieb", "TURN 1", "<your plot>"},
	},
	{
		file: "gmail-alternative-topposted.eml", from: "priya.natarajan@gmail.com", fromName: "Priya Natarajan",
		msgID:    "CAJx9Lq8v3sF+W2mPz0r5Yd6a=bT7uN1kQe4XhG3cRj_oMi2VwA@mail.gmail.com",
		orders:   testTurn2("kestrel"),
		text:     []string{"> GAME chan-1 TURN 1 SECRET kestrel"},
		notOrder: []string{"wrote:", "Sortie Adjudicator", "TURN 1", "<your plot>"},
	},
	{
		file: "outlook-html-only-cp1252.eml", from: "tobrien@contoso-example.com", fromName: "Tom O’Brien",
		msgID:    "DB9PR05MB8452A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6@DB9PR05MB8452.eurprd05.prod.outlook.com",
		html:     true,
		orders:   testTurn2("osprey"),
		text:     []string{"Here are my plots – I’m going high this turn.\n\nGAME", "Sortie · game chan-1"},
		notOrder: []string{"From:", "Sent:", "TURN 1", "<your plot>", "font-family", "shapedefaults"},
	},
	{
		file: "outlook-plain-original-message.eml", from: "ruth.okafor@example.org", fromName: "Ruth Okafor",
		msgID:    "000001db2e41$5f3a9c20$1dafd460$@example.org",
		orders:   testTurn2("gannet"),
		notOrder: []string{"Original Message", "TURN 1", "<your plot>"},
	},
	{
		file: "outlook-web-alternative.eml", from: "sam.whitfield@outlook.example", fromName: "Sam Whitfield",
		msgID:    "AS8PR04MB7895A1B2C3D4E5F6A7B8C9D0@AS8PR04MB7895.eurprd04.prod.outlook.com",
		to:       []string{"sortie@games.example.org", "sam.whitfield@outlook.example"},
		orders:   testTurn2("heron"),
		notOrder: []string{"_____", "From:", "TURN 1", "<your plot>"},
	},
	{
		file: "webmail-html-only-base64.eml", from: "zoe.lefebure@webmail.example.fr", fromName: "Zoé Lefébure",
		msgID:   "1148271094.52311.1793733165002@webmail.example.fr",
		subject: "Re: Sortie chan-1 turn 1 report — ordres",
		html:    true,
		// &nbsp; + space: two spaces, kept byte for byte.
		orders:   []string{"GAME chan-1 TURN 2 SECRET mouette", "RED1:  2R 1 TR FIRE ANY", "RED2: 5 HOLD", "END"},
		text:     []string{"Voilà mes ordres — RED2 reste <en palier>.", "Merci & à bientôt,\nZoé\n"},
		notOrder: []string{"a écrit", "TURN 1", "<your plot>", "font-family"},
	},
	{
		file: "mutt-latin1-signature.eml", from: "pierre.lefevre@example.fr", fromName: "Pierre Lefèvre",
		msgID:    "aSdE3kVm0xQp7LzT@tour.example.fr",
		subject:  "ordres tour 2 - à vous",
		orders:   testTurn2("alouette"),
		text:     []string{"Voilà mes ordres pour le tour 2 :", "À bientôt,", "RED3: 1 TR (mon plot préféré)"},
		notOrder: []string{"RED3", "toujours"},
	},
	{
		file: "powershell-utf8-bom.eml", from: "kenji.w@example.jp", fromName: "Kenji Watanabe",
		msgID:   "TYAPR01MB5678.4F1E2D3C@example.jp",
		subject: "Sortie chan-1 ターン 2",
		orders:  testTurn2("tsubame"),
	},
	{
		file: "gmail-mixed-pdf-attachment.eml", from: "marta.kowalska@gmail.com", fromName: "Marta Kowalska",
		msgID:    "CAF7q2Nx0hU1yGk8=Lp4mWvR3c9s5eT6bJ7dA2zQ0fK8uV1iYw@mail.gmail.com",
		orders:   testTurn2("jaskolka"),
		notOrder: []string{"PDF", "JVBER"},
	},
	{
		file: "exchange-out-of-office.eml", from: "dana.kim@contoso-example.com", fromName: "Dana Kim",
		msgID:  "1b7d2e9c7a0f4f3e9c1a2b3c4d5e6f70@VI1PR08MB3247.eurprd08.prod.outlook.com",
		ignore: "Auto-Submitted",
	},
	{
		file: "vacation-subject-only.eml", from: "h.becker@example.net", fromName: "Hans Becker",
		msgID:  "20261104090241.7F3A2C0140@vacation.example.net",
		ignore: "out of office",
	},
	{
		file: "postfix-bounce-report.eml", from: "mailer-daemon@mx.games.example.org", fromName: "Mail Delivery System",
		msgID:  "20261104100000.4Xk9Tz3Q2Lz9sWr@mx.games.example.org",
		ignore: "bounce",
		orders: []string{}, // the undelivered report (with its order template) is not the text
	},
	{
		file: "mailman-digest.eml", from: "airwar-request@lists.example.org",
		msgID:  "mailman.5.1793793601.4417.airwar@lists.example.org",
		ignore: "list",
	},
	{
		file: "sortie-own-report-loop.eml", from: "sortie@games.example.org", fromName: "Sortie Adjudicator",
		msgID:  "report.chan-1.1.alice@games.example.org",
		to:     []string{"alice.hart@example.com", "sortie@games.example.org"},
		ignore: "own mail",
	},
	{
		file: "script-no-message-id.eml", from: "bob@example.net",
		orders: testTurn2("wren"),
	},
	{
		file: "broken-base64.eml", from: "lena.fischer@example.net", fromName: "Lena Fischer",
		msgID:  "broken-b64.20261103231000@phone.example.net",
		orders: testTurn2("plover"),
		warn:   "broken base64",
		text:   []string{"It keeps mangling the end of every message I send from"},
	},
	{
		file: "unknown-charset.eml", from: "oscar.lind@example.se", fromName: "Oscar Lind",
		msgID:  "unknown8bit.1@mailhost.example.se",
		orders: testTurn2("merlin"),
		warn:   `unknown charset "unknown-8bit" read as windows-1252`,
		text:   []string{"Here’s my plot – café break first."},
	},
	{
		file: "thunderbird-koi8r.eml", from: "d.sokolov@example.ru", fromName: "Дмитрий Соколов",
		msgID:    "6d2a1f0e-3b4c-4d5e-8f90-a1b2c3d4e5f6@example.ru",
		subject:  "Приказы, ход 2",
		orders:   testTurn2("sokol"),
		text:     []string{"Привет! Мои приказы на второй ход:"},
		notOrder: []string{"Дмитрий"},
	},
	{
		file: "becky-iso2022jp.eml", from: "kenji.w@example.jp", fromName: "渡辺 健二",
		msgID:   "20261104090000.A1B2C3@example.jp",
		subject: "第2ターンの命令",
		orders:  testTurn2("tsubame"),
		text:    []string{"今回の命令です。", "よろしく"},
	},
	{
		file: "mobile-shiftjis-base64.eml", from: "sato.k@docomo.example.ne.jp", fromName: "佐藤",
		msgID:   "0123456789abcdef.sato@docomo.example.ne.jp",
		subject: "命令",
		orders:  testTurn2("hibari"),
		text:    []string{"命令です\nGAME"},
	},
	{
		file: "windows-utf16-bom.eml", from: "grace.liu@example.com", fromName: "Grace Liu",
		msgID:  "utf16.bom.1@example.com",
		orders: testTurn2("swift"),
	},
	{
		file: "thunderbird-txt-attachment.eml", from: "ivo.novak@example.com", fromName: "Ivo Novak",
		msgID:  "a9f3c2d1-7e6b-4a5c-9d8e-0f1a2b3c4d5e@example.com",
		orders: testTurn2("stork"),
		warn:   `read the attached text file "orders.txt"`,
	},
}

func readCorpusFile(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestCorpus(t *testing.T) {
	for _, c := range corpusCases {
		t.Run(strings.TrimSuffix(c.file, ".eml"), func(t *testing.T) {
			raw := readCorpusFile(t, c.file)
			m, err := Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			if m.From != c.from {
				t.Errorf("From = %q, want %q", m.From, c.from)
			}
			if m.FromName != c.fromName {
				t.Errorf("FromName = %q, want %q", m.FromName, c.fromName)
			}
			if c.msgID == "" {
				if !strings.HasPrefix(m.MessageID, "sha256:") || len(m.MessageID) != len("sha256:")+64 {
					t.Errorf("MessageID = %q, want the sha256 substitute", m.MessageID)
				}
			} else if m.MessageID != c.msgID {
				t.Errorf("MessageID = %q, want %q", m.MessageID, c.msgID)
			}
			if c.to != nil && !slices.Equal(m.To, c.to) {
				t.Errorf("To = %q, want %q", m.To, c.to)
			}
			if c.subject != "" && m.Subject != c.subject {
				t.Errorf("Subject = %q, want %q", m.Subject, c.subject)
			}
			if m.Date.IsZero() {
				t.Errorf("Date is zero")
			}
			if m.Size != len(raw) {
				t.Errorf("Size = %d, want %d", m.Size, len(raw))
			}
			ign, why := m.ShouldIgnore()
			switch {
			case c.ignore == "" && ign:
				t.Errorf("ShouldIgnore = true (%s), want false", why)
			case c.ignore != "" && (!ign || !strings.Contains(why, c.ignore)):
				t.Errorf("ShouldIgnore = %v %q, want true with %q", ign, why, c.ignore)
			}
			if c.orders != nil || c.ignore == "" {
				if got := testOrderLines(m.OrderText); !slices.Equal(got, c.orders) {
					t.Errorf("order lines of OrderText:\n got %q\nwant %q\nOrderText:\n%s", got, c.orders, m.OrderText)
				}
			}
			if m.FromHTML != c.html {
				t.Errorf("FromHTML = %v, want %v", m.FromHTML, c.html)
			}
			switch {
			case c.warn == "" && len(m.Warnings) > 0:
				t.Errorf("Warnings = %q, want none", m.Warnings)
			case c.warn != "" && !slices.ContainsFunc(m.Warnings, func(w string) bool { return strings.Contains(w, c.warn) }):
				t.Errorf("Warnings = %q, want one with %q", m.Warnings, c.warn)
			}
			for _, s := range c.text {
				if !strings.Contains(m.Text, s) {
					t.Errorf("Text lacks %q:\n%s", s, m.Text)
				}
			}
			for _, s := range c.notOrder {
				if strings.Contains(m.OrderText, s) {
					t.Errorf("OrderText holds %q:\n%s", s, m.OrderText)
				}
			}
			checkMail(t, m)
		})
	}
}

// checkMail holds for every parsed message.
func checkMail(t testing.TB, m *Mail) {
	t.Helper()
	if !utf8.ValidString(m.Text) || !utf8.ValidString(m.OrderText) {
		t.Errorf("Text or OrderText is not valid UTF-8")
	}
	if strings.Contains(m.Text, "\r") {
		t.Errorf("Text holds a CR")
	}
	if strings.HasPrefix(m.Text, "\uFEFF") {
		t.Errorf("Text starts with a BOM")
	}
	if len(m.Text) > maxTextBytes {
		t.Errorf("Text is %d bytes", len(m.Text))
	}
	if m.OrderText != StripQuoted(m.Text) {
		t.Errorf("OrderText is not StripQuoted(Text)")
	}
	if m.From != strings.ToLower(m.From) {
		t.Errorf("From %q is not lower case", m.From)
	}
	if m.MessageID == "" {
		t.Errorf("no MessageID")
	}
}

// Every corpus file is in the table and in the README.
func TestCorpusComplete(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("testdata", "corpus", "README.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if !slices.ContainsFunc(corpusCases, func(c corpusCase) bool { return c.file == name }) {
			t.Errorf("%s is not in corpusCases", name)
		}
		if !strings.Contains(string(readme), name) {
			t.Errorf("%s is not described in README.txt", name)
		}
	}
	if len(files) != len(corpusCases) {
		t.Errorf("%d files, %d cases", len(files), len(corpusCases))
	}
}

// corpusHTMLSource returns the first text/html leaf of raw, found and decoded (transfer encoding and
// charset) by go-message's own walk, not Parse's.
func corpusHTMLSource(t testing.TB, raw []byte) string {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var src string
	found := errors.New("found")
	err = e.Walk(func(_ []int, part *message.Entity, err error) error {
		if err != nil {
			return err
		}
		if mt, _, _ := part.Header.ContentType(); mt != "text/html" {
			return nil
		}
		b, err := io.ReadAll(part.Body)
		if err != nil {
			return err
		}
		src = string(b)
		return found
	})
	if err != found {
		t.Fatalf("no text/html part (%v)", err)
	}
	return src
}

// corpusHTML returns the converted text of the first text/html leaf of raw.
func corpusHTML(t *testing.T, raw []byte) string {
	t.Helper()
	return HTMLToText(corpusHTMLSource(t, raw))
}

// The HTML alternative of the multipart/alternative corpus messages yields the same orders as the
// plain one: the HTML converter and quote stripper handle Gmail, Apple Mail and Outlook quoting too.
func TestCorpusHTMLAlternatives(t *testing.T) {
	for _, c := range []struct {
		file   string
		orders []string
	}{
		{"gmail-alternative-topposted.eml", testTurn2("kestrel")},
		{"applemail-alternative-related-qp.eml", testTurn2("falke")},
		{"outlook-web-alternative.eml", testTurn2("heron")},
		{"gmail-mixed-pdf-attachment.eml", testTurn2("jaskolka")},
	} {
		t.Run(strings.TrimSuffix(c.file, ".eml"), func(t *testing.T) {
			text := corpusHTML(t, readCorpusFile(t, c.file))
			order := StripQuoted(text)
			if got := testOrderLines(order); !slices.Equal(got, c.orders) {
				t.Errorf("order lines:\n got %q\nwant %q\ntext:\n%s\norder text:\n%s", got, c.orders, text, order)
			}
			for _, s := range []string{"wrote", "schrieb", "From:", "TURN 1"} {
				if strings.Contains(order, s) {
					t.Errorf("order text holds %q:\n%s", s, order)
				}
			}
		})
	}
}

func TestParseUnreadable(t *testing.T) {
	for _, raw := range []string{"", "\r\n", "\r\n\r\nGAME x", "just some text\nwithout any header\n", " \tfolded: nothing\n"} {
		if m, err := Parse([]byte(raw)); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", raw, m)
		}
	}
	// A header without a body is readable.
	m, err := Parse([]byte("From: a@example.org\r\nSubject: hi\r\n"))
	if err != nil || m.From != "a@example.org" || m.Text != "" {
		t.Errorf("headers only: %+v, %v", m, err)
	}
}

func mustParse(t *testing.T, raw string) *Mail {
	t.Helper()
	m, err := Parse([]byte(raw))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, raw)
	}
	checkMail(t, m)
	return m
}

func hasWarning(m *Mail, s string) bool {
	return slices.ContainsFunc(m.Warnings, func(w string) bool { return strings.Contains(w, s) })
}

func TestParseHeaders(t *testing.T) {
	raw := "From mbox-line@example.org Tue Nov  3 10:00:00 2026\n" +
		"Received: from x\n" +
		"this line is broken\n" +
		"From: \"Müller, Jürgen\" <J.Mueller@Example.DE>\n" +
		"To: a@example.org, \"B\" <B@Example.org>\n" +
		"Cc: =?utf-8?q?C=C3=A9line?= <c@example.org>, a@example.org\n" +
		"Delivered-To: sortie@games.example.org\n" +
		"Delivered-To: SORTIE@games.example.org\n" +
		"X-Original-To: orders@games.example.org\n" +
		"Message-ID: no-brackets@example.org\n" +
		"In-Reply-To: <r1@games.example.org> (Sortie's message of Tue, 3 Nov 2026)\n" +
		"References: <r0@games.example.org>\n <r1@games.example.org>\n" +
		"Subject: =?windows-1252?Q?=93Re:=94_turn_2?= =?x-unknown?Q?_caf=E9?=\n" +
		"Date: Tue, 3 Nov 2026 10:00:00 +0100 (CET)\n" +
		"\n" +
		"GAME\n"
	m := mustParse(t, raw)
	if m.From != "j.mueller@example.de" || m.FromName != "Müller, Jürgen" {
		t.Errorf("From %q name %q", m.From, m.FromName)
	}
	wantTo := []string{"a@example.org", "b@example.org", "c@example.org", "sortie@games.example.org", "orders@games.example.org"}
	if !slices.Equal(m.To, wantTo) {
		t.Errorf("To = %q, want %q", m.To, wantTo)
	}
	if m.MessageID != "no-brackets@example.org" {
		t.Errorf("MessageID = %q", m.MessageID)
	}
	if m.InReplyTo != "r1@games.example.org" {
		t.Errorf("InReplyTo = %q", m.InReplyTo)
	}
	if !slices.Equal(m.References, []string{"r0@games.example.org", "r1@games.example.org"}) {
		t.Errorf("References = %q", m.References)
	}
	if m.Subject != "“Re:” turn 2 café" {
		t.Errorf("Subject = %q", m.Subject)
	}
	if want := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC); !m.Date.Equal(want) {
		t.Errorf("Date = %v", m.Date)
	}
	if !hasWarning(m, "malformed message header") || !hasWarning(m, `unknown charset "x-unknown" in a header`) {
		t.Errorf("Warnings = %q", m.Warnings)
	}
	if m.Text != "GAME\n" {
		t.Errorf("Text = %q", m.Text)
	}
}

func TestParseLenientAddresses(t *testing.T) {
	for _, c := range []struct{ from, addr, name string }{
		{"Pierre Lef\xe8vre <pierre@example.fr>", "pierre@example.fr", "Pierre Lefèvre"}, // raw 8-bit Latin-1
		{"\"Broken <x@example.org", "", ""},
		{"Joe Bloggs <JOE@example.org", "joe@example.org", ""},
		{"<joe@example.org>;", "joe@example.org", ""},
		{"joe@example.org (Joe)", "joe@example.org", "Joe"},
		{"MAILER-DAEMON (Mail Delivery System)", "mailer-daemon", ""},
		{"=?utf-8?B?SsO8cmdlbg==?= <j@example.de>", "j@example.de", "Jürgen"},
		{"\"Sortie \\\"the\\\" Adjudicator\" <s@example.org>", "s@example.org", `Sortie "the" Adjudicator`},
	} {
		m := mustParse(t, "From: "+c.from+"\r\nSubject: x\r\n\r\nbody\r\n")
		if c.addr == "" {
			if m.From != "" && !strings.Contains(m.From, "@") {
				t.Errorf("From %q: got %q", c.from, m.From)
			}
			continue
		}
		if m.From != c.addr || (c.name != "" && m.FromName != c.name) {
			t.Errorf("From %q: got %q / %q, want %q / %q", c.from, m.From, m.FromName, c.addr, c.name)
		}
	}
}

func TestParseCROnly(t *testing.T) {
	m := mustParse(t, "From: a@example.org\rSubject: x\r\rGAME\rEND\r")
	if m.From != "a@example.org" || m.Subject != "x" || m.Text != "GAME\nEND\n" {
		t.Errorf("CR only: %q %q %q", m.From, m.Subject, m.Text)
	}
}

func TestParseNoMessageID(t *testing.T) {
	a := mustParse(t, "From: a@example.org\r\n\r\nGAME 1\r\n")
	b := mustParse(t, "From: a@example.org\r\n\r\nGAME 2\r\n")
	c := mustParse(t, "From: a@example.org\r\n\r\nGAME 1\r\n")
	if a.MessageID == b.MessageID || a.MessageID != c.MessageID || !strings.HasPrefix(a.MessageID, "sha256:") {
		t.Errorf("ids %q %q %q", a.MessageID, b.MessageID, c.MessageID)
	}
	if m := mustParse(t, "From: a@example.org\r\nMessage-ID: <>\r\n\r\nx\r\n"); !strings.HasPrefix(m.MessageID, "sha256:") {
		t.Errorf("empty <>: %q", m.MessageID)
	}
}

func TestParseCharsets(t *testing.T) {
	for _, c := range []struct {
		name, ct, cte, body, want, warn string
	}{
		{"windows-1252", "text/plain; charset=windows-1252", "8bit", "\x93caf\xe9\x94 \x80", "“café” €", ""},
		{"iso-8859-15", "text/plain; charset=ISO-8859-15", "8bit", "\xa4 \xbd", "€ œ", ""},
		{"iso-8859-2", "text/plain; charset=\"iso-8859-2\"", "quoted-printable", "Pozdrawiam, =A3ukasz", "Pozdrawiam, Łukasz", ""},
		{"koi8-r", "text/plain; charset=koi8-r", "8bit", "\xf0\xd2\xc9\xd7\xc5\xd4", "Привет", ""},
		{"shift_jis", "text/plain; charset=shift_jis", "8bit", "\x96\xbd\x97\xdf", "命令", ""},
		{"gb2312", "text/plain; charset=gb2312", "8bit", "\xc4\xe3\xba\xc3", "你好", ""},
		{"utf-8 bom", "text/plain; charset=utf-8", "8bit", "\xef\xbb\xbfGAME", "GAME", ""},
		{"bom beats declaration", "text/plain; charset=iso-8859-1", "8bit", "\xef\xbb\xbfcaf\xc3\xa9", "café", ""},
		{"utf-16le bom", "text/plain; charset=utf-16", "8bit", "\xff\xfeG\x00A\x00\r\x00\n\x00", "GA\n", ""},
		{"utf-16be bom, undeclared", "text/plain", "8bit", "\xfe\xff\x00G\x00A", "GA", ""},
		{"utf-16le no bom", "text/plain; charset=utf-16le", "8bit", "G\x00A\x00", "GA", ""},
		{"no charset, utf-8", "text/plain", "8bit", "caf\xc3\xa9", "café", ""},
		{"no charset, latin-1", "text/plain", "8bit", "caf\xe9", "café", "not valid UTF-8"},
		{"utf-8 with stray latin-1", "text/plain; charset=utf-8", "8bit", "caf\xe9 \xc3\xbcber", "café über", "not valid UTF-8"},
		{"us-ascii with 8-bit", "text/plain; charset=us-ascii", "8bit", "caf\xe9", "café", "not valid UTF-8"},
		{"unknown charset", "text/plain; charset=x-klingon", "8bit", "caf\xe9", "café", `unknown charset "x-klingon" read as windows-1252`},
		{"unknown charset, utf-8 bytes", "text/plain; charset=x-klingon", "8bit", "caf\xc3\xa9", "café", `read as UTF-8`},
		{"html meta charset", "text/html", "8bit", "<html><head><meta charset=\"windows-1252\"></head><body>caf\xe9</body></html>", "café\n", ""},
		{"html http-equiv charset", "text/html", "8bit", "<meta http-equiv=Content-Type content='text/html; charset=koi8-r'><p>\xf0\xd2\xc9\xd7\xc5\xd4", "Привет\n", ""},
		{"mime beats meta", "text/html; charset=utf-8", "8bit", "<meta charset=windows-1252>caf\xc3\xa9", "café\n", ""},
		{"quoted-printable lenient", "text/plain; charset=utf-8", "quoted-printable", "a=3Db =ZZ c=\r\nd=c3=a9 =\r\n", "a=b =ZZ cdé ", ""},
		// mime/quotedprintable (go-message's decoder) refuses a raw control character and stops there: the
		// text before it is kept, with a warning (the decoder before go-message copied the byte through).
		{"quoted-printable with a raw control character", "text/plain; charset=utf-8", "quoted-printable", "GAME=3D1\r\nRED1: 5\x01 END\r\n", "GAME=1\nRED1: 5", "broken quoted-printable body"},
		{"unknown encoding", "text/plain", "x-uuencode", "GAME", "GAME", "unknown Content-Transfer-Encoding"},
		{"encoding in quotes", "text/plain", "\"Base64\"", "R0FNRQ==", "GAME", ""},
		{"broken content-type", "text/plain; charset=\"utf-8; format=flowed", "8bit", "caf\xc3\xa9", "café", ""},
		{"duplicate params", "text/plain; charset=koi8-r; charset=utf-8", "8bit", "\xf0\xd2\xc9\xd7\xc5\xd4", "Привет", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := "From: a@example.org\r\nMIME-Version: 1.0\r\nContent-Type: " + c.ct +
				"\r\nContent-Transfer-Encoding: " + c.cte + "\r\n\r\n" + c.body
			m := mustParse(t, raw)
			if m.Text != c.want {
				t.Errorf("Text = %q, want %q", m.Text, c.want)
			}
			switch {
			case c.warn == "" && len(m.Warnings) > 0:
				t.Errorf("Warnings = %q", m.Warnings)
			case c.warn != "" && !hasWarning(m, c.warn):
				t.Errorf("Warnings = %q, want %q", m.Warnings, c.warn)
			}
		})
	}
}

func TestParseFlowed(t *testing.T) {
	for _, c := range []struct{ ct, body, want string }{
		{"format=flowed", "one \r\ntwo \r\nthree\r\nfour\r\n", "one two three\nfour\n"},
		{"format=flowed; delsp=yes", "Zusammen\r\ngeschrie \r\nben\r\n", "Zusammen\ngeschrieben\n"},
		{"format=\"Flowed\"; DelSp=\"Yes\"", "a \r\nb\r\n", "ab\n"},
		{"format=flowed", ">> quoted \r\n>> more\r\n> other\r\nmine\r\n", ">> quoted more\n> other\nmine\n"},
		{"format=flowed", "> ends flowed \r\nnot quoted\r\n", "> ends flowed \nnot quoted\n"},
		{"format=flowed", " >not a quote\r\n From me\r\n", ">not a quote\nFrom me\n"},
		{"format=flowed", "text\r\n-- \r\nsig \r\nline\r\n", "text\n-- \nsig line\n"},
		{"format=fixed", "one \r\ntwo\r\n", "one \ntwo\n"},
	} {
		m := mustParse(t, "From: a@example.org\r\nContent-Type: text/plain; charset=utf-8; "+c.ct+"\r\n\r\n"+c.body)
		if m.Text != c.want {
			t.Errorf("%s %q: Text = %q, want %q", c.ct, c.body, m.Text, c.want)
		}
	}
}

func TestParseBase64(t *testing.T) {
	for _, c := range []struct {
		body, want string
		broken     bool
	}{
		{"R0FNRSBjaGFu\r\nLTE=\r\n", "GAME chan-1", false},
		{"R0FNRSBjaGFuLTE", "GAME chan-1", false},      // no padding
		{"R0FN RSBj\taGFu LTE=", "GAME chan-1", false}, // white space inside
		{"R0FNRQ==R0FNRQ==", "GAMEGAME", false},        // two encodings run together
		{"R0FN*RSBj!aGFuLTE=", "GAME chan-1", true},    // junk characters
		{"R0FNRSBjaGFuLTE=X", "GAME chan-1", true},     // a dangling character
		{"", "", false},    // empty
		{"!!!!", "", true}, // nothing usable
		{"R0FNRSBj\r\naGF\r\nLTEgb2s=\r\n", "GAME c-1 ok", true}, // a short line in the middle of a regular stream
	} {
		m := mustParse(t, "From: a@example.org\r\nContent-Transfer-Encoding: base64\r\n\r\n"+c.body)
		if m.Text != c.want || hasWarning(m, "broken base64") != c.broken {
			t.Errorf("%q: Text %q (want %q), warnings %q", c.body, m.Text, c.want, m.Warnings)
		}
	}
}

func TestParseStructure(t *testing.T) {
	// The line break before a delimiter belongs to the delimiter: the plain text is "PLAIN".
	const plain = "Content-Type: text/plain; charset=utf-8\r\n\r\nPLAIN\r\n"
	const html = "Content-Type: text/html; charset=utf-8\r\n\r\n<p>HTML</p>\r\n"
	for _, c := range []struct {
		name, ct, body, want string
		isHTML               bool
		warn                 string
	}{
		{"alternative prefers plain", "multipart/alternative; boundary=b",
			"--b\r\n" + html + "--b\r\n" + plain + "--b--\r\n", "PLAIN", false, ""},
		{"html only alternative", "multipart/alternative; boundary=b",
			"--b\r\n" + html + "--b--\r\n", "HTML\n", true, ""},
		{"blank plain, real html", "multipart/alternative; boundary=b",
			"--b\r\nContent-Type: text/plain\r\n\r\n \r\n--b\r\n" + html + "--b--\r\n", "HTML\n", true, ""},
		{"mixed: first inline text", "multipart/mixed; boundary=b",
			"preamble\r\n--b\r\nContent-Type: image/png\r\n\r\nxx\r\n--b\r\n" + plain + "--b\r\nContent-Type: text/plain\r\n\r\nSECOND\r\n--b--\r\nepilogue\r\n", "PLAIN", false, ""},
		{"mixed: attachment skipped", "multipart/mixed; boundary=b",
			"--b\r\nContent-Type: text/plain; name=a.txt\r\n\r\nATTACHED\r\n--b\r\n" + plain + "--b--\r\n", "PLAIN", false, ""},
		{"nested mixed > alternative > related", "multipart/mixed; boundary=b1",
			"--b1\r\nContent-Type: multipart/alternative; boundary=b2\r\n\r\n--b2\r\nContent-Type: multipart/related; boundary=b3\r\n\r\n--b3\r\n" + html + "--b3--\r\n--b2--\r\n--b1--\r\n", "HTML\n", true, ""},
		{"missing close delimiter", "multipart/mixed; boundary=b",
			"--b\r\n" + plain + "more", "PLAIN\r\nmore", false, ""},
		{"part without headers", "multipart/mixed; boundary=b",
			"--b\r\n\r\nbare text\r\n--b--", "bare text", false, ""},
		{"boundary with transport padding", "multipart/mixed; boundary=\"=_x y\"",
			"--=_x y  \r\n" + plain + "--=_x y-- \r\n", "PLAIN", false, ""},
		{"boundary prefix of another", "multipart/mixed; boundary=b",
			"--b\r\nContent-Type: multipart/alternative; boundary=b2\r\n\r\n--b2\r\n" + plain + "--b2--\r\n--b--\r\n", "PLAIN", false, ""},
		{"no boundary", "multipart/mixed", "--b\r\n" + plain, "", false, "without a boundary"},
		// go-message's multipart reader stops at a part header line that is not a header field, and the
		// rest of that multipart is not read (the splitter before go-message dropped the line and read on).
		// No mail program writes such a header.
		{"malformed first part header", "multipart/mixed; boundary=b",
			"--b\r\nContent-Type: text/plain\r\nnot a header line\r\n\r\nX\r\n--b\r\n" + plain + "--b--\r\n", "", false, "no part could be read"},
		{"malformed later part header", "multipart/mixed; boundary=b",
			"--b\r\nContent-Type: image/png\r\n\r\nxx\r\n--b\r\nnot a header line\r\n\r\nX\r\n--b\r\n" + plain + "--b--\r\n", "", false, "part 2 and those after it"},
		{"no delimiter at all", "multipart/mixed; boundary=b", "just text\r\n", "", false, "no part could be read"},
		{"encrypted", "multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=b",
			"--b\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n--b\r\nContent-Type: application/octet-stream\r\n\r\n-----BEGIN PGP MESSAGE-----\r\n--b--\r\n", "", false, "no readable text"},
		{"digest parts are messages", "multipart/digest; boundary=b",
			"--b\r\n\r\nFrom: x@example.org\r\n\r\nGAME\r\n--b--\r\n", "", false, "no readable text"},
		{"top-level pdf", "application/pdf", "JVBERi0=", "", false, "no readable text"},
		{"text/plain attachment as last resort", "multipart/mixed; boundary=b",
			"--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=o.txt\r\n\r\nGAME\r\n--b--\r\n", "GAME", false, "o.txt"},
		{"inline with filename is inline", "multipart/mixed; boundary=b",
			"--b\r\nContent-Type: text/plain\r\nContent-Disposition: inline; filename=o.txt\r\n\r\nGAME\r\n--b--\r\n", "GAME", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := mustParse(t, "From: a@example.org\r\nMIME-Version: 1.0\r\nContent-Type: "+c.ct+"\r\n\r\n"+c.body)
			want := strings.ReplaceAll(c.want, "\r\n", "\n")
			if m.Text != want || m.FromHTML != c.isHTML {
				t.Errorf("Text = %q (html %v), want %q (html %v)", m.Text, m.FromHTML, want, c.isHTML)
			}
			switch {
			case c.warn == "" && len(m.Warnings) > 0:
				t.Errorf("Warnings = %q", m.Warnings)
			case c.warn != "" && !hasWarning(m, c.warn):
				t.Errorf("Warnings = %q, want %q", m.Warnings, c.warn)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	nested := func(depth int) string {
		var b strings.Builder
		b.WriteString("From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n")
		for i := 0; i < depth; i++ {
			fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", i, i+1)
		}
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\nDEEP\r\n", depth)
		return b.String()
	}
	// No closing delimiters: each part ends with the input. go-message's multipart reader holds back a
	// line break at the very end (it could begin a delimiter), so the text has no final newline.
	if m := mustParse(t, nested(9)); m.Text != "DEEP" || len(m.Warnings) > 0 {
		t.Errorf("depth 10: Text = %q, warnings %q", m.Text, m.Warnings)
	}
	if m := mustParse(t, nested(10)); m.Text != "" || !hasWarning(m, "nesting deeper than 10") {
		t.Errorf("depth 11: Text = %q, warnings %q", m.Text, m.Warnings)
	}

	parts := func(n int) string {
		var b strings.Builder
		b.WriteString("From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n")
		for i := 1; i < n; i++ {
			b.WriteString("--b\r\nContent-Type: image/png\r\n\r\nxx\r\n")
		}
		b.WriteString("--b\r\nContent-Type: text/plain\r\n\r\nLAST\r\n--b--\r\n")
		return b.String()
	}
	if m := mustParse(t, parts(50)); m.Text != "LAST" {
		t.Errorf("50 parts: Text = %q, warnings %q", m.Text, m.Warnings)
	}
	if m := mustParse(t, parts(51)); m.Text != "" || !hasWarning(m, "parts beyond 50") {
		t.Errorf("51 parts: Text = %q, warnings %q", m.Text, m.Warnings)
	}

	big := "From: a@example.org\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + strings.Repeat("GAME é\r\n", 300000)
	m := mustParse(t, big)
	if len(m.Text) > maxTextBytes || len(m.Text) < maxTextBytes-8 || !hasWarning(m, "truncated") {
		t.Errorf("big: %d bytes, warnings %q", len(m.Text), m.Warnings)
	}
}

// bytesAllocated is what f allocates on the heap, in bytes.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// testBase64Lines is data in base64, in lines of 76 characters.
func testBase64Lines(data []byte) string {
	enc := base64.StdEncoding.EncodeToString(data)
	var b strings.Builder
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
	return b.String()
}

// The MIME tree is read lazily: parts that are not text are skipped without being decoded or kept, the
// parts beyond the limit are never read, and a text part is read only up to its limit, so the memory a
// message costs does not grow with its attachments or with the size of a huge text part.
func TestParseLazyLimits(t *testing.T) {
	head := "From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
	pdf := func(n int) []byte {
		return []byte(head + "--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
			testBase64Lines(bytes.Repeat([]byte("%PDF-1.4 \x00\x01\x02"), n/12)) +
			"--b\r\nContent-Type: text/plain\r\n\r\nGAME\r\n--b--\r\n")
	}
	for _, size := range []int{6 << 20, 12 << 20} {
		raw := pdf(size)
		var m *Mail
		n := bytesAllocated(func() { m, _ = Parse(raw) })
		if m == nil || m.Text != "GAME" || len(m.Warnings) > 0 {
			t.Fatalf("attachment first: %+v", m)
		}
		if n > 256<<10 {
			t.Errorf("a %d MiB attachment before the text: %d bytes allocated", size>>20, n)
		}
	}

	parts := []byte(head + strings.Repeat("--b\r\nContent-Type: image/png\r\n\r\nxx\r\n", 10000) + "--b\r\nContent-Type: text/plain\r\n\r\nGAME\r\n--b--\r\n")
	var m *Mail
	if n := bytesAllocated(func() { m, _ = Parse(parts) }); n > 1<<20 || !hasWarning(m, "parts beyond 50") || m.Text != "" {
		t.Errorf("10,000 parts: %d bytes allocated, Text %q, warnings %q", n, m.Text, m.Warnings)
	}

	var costs []uint64
	for _, size := range []int{6 << 20, 12 << 20} {
		raw := []byte("From: a@example.org\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
			testBase64Lines(bytes.Repeat([]byte("GAME x\r\n"), size/8)))
		n := bytesAllocated(func() { m, _ = Parse(raw) })
		if len(m.Text) != maxTextBytes || !hasWarning(m, "text part over 4 MiB truncated") || hasWarning(m, "broken") {
			t.Errorf("%d MiB base64 text: %d bytes of text, warnings %q", size>>20, len(m.Text), m.Warnings)
		}
		costs = append(costs, n)
	}
	if costs[1] > costs[0]+costs[0]/10 {
		t.Errorf("base64 text of 6 MiB cost %d bytes, of 12 MiB %d: the part is read beyond its limit", costs[0], costs[1])
	}
}

// Hostile shapes are read in linear time. Linearity is shown by counting work, never by the clock (a loaded
// machine is slow, not wrong): each shape is read at n and at 4n repetitions in one run, and the bytes and
// the number of allocations it costs may grow about fourfold (linear), far from the sixteenfold of a
// quadratic reading. BenchmarkParseMessageShapes measures the speed.
func TestParseLinear(t *testing.T) {
	for name, shape := range map[string]func(n int) string{
		"boundary lines": func(n int) string {
			return "From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" + strings.Repeat("--b\r\n", n<<3)
		},
		"header lines": func(n int) string { return strings.Repeat("X-A: b\r\n", n<<2) + "From: a@example.org\r\n\r\nx" },
		"html tags": func(n int) string {
			return "From: a@example.org\r\nContent-Type: text/html\r\n\r\n" + strings.Repeat("<a '><b \"><blockquote>", n)
		},
		"base64 junk": func(n int) string {
			return "From: a@example.org\r\nContent-Transfer-Encoding: base64\r\n\r\n" + strings.Repeat("ab!\r\n", n<<2)
		},
		"quoted lines": func(n int) string { return "From: a@example.org\r\n\r\n" + strings.Repeat("On Mon x wrote:\r\n", n) },
		"nested multipart": func(n int) string {
			return "From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" + strings.Repeat("--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n", n>>2)
		},
		"part header lines": func(n int) string {
			return "From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n" + strings.Repeat("X-A: b\r\n", n<<2) + "\r\nx\r\n--b--\r\n"
		},
	} {
		linearWork(t, name, 1<<13, func(n int) func() {
			raw := []byte(shape(n))
			return func() {
				m, err := Parse(raw)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				m.ShouldIgnore()
			}
		})
	}
}

// linearWork checks that the work of read (made for a size n) grows linearly: read at n and at 4n, it
// may cost at most 8 times the bytes and the allocations (linear work costs 4 times, quadratic 16), with
// a little room for the fixed cost of a small input.
func linearWork(t *testing.T, name string, n int, read func(n int) func()) {
	t.Helper()
	small, large := read(n), read(4*n)
	small() // warm up what is made once
	bs, as := workOf(small)
	bl, al := workOf(large)
	t.Logf("%s: %d bytes in %d allocations at n, %d in %d at 4n", name, bs, as, bl, al)
	if bl > 8*bs+64<<10 || al > 8*as+256 {
		t.Errorf("%s: %d bytes in %d allocations at n, %d in %d at 4n: the reading is no longer linear in the input", name, bs, as, bl, al)
	}
}

// workOf is what f allocates: bytes and allocations.
func workOf(f func()) (bytes, allocs uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

func TestMessageShouldIgnore(t *testing.T) {
	for _, c := range []struct {
		headers string
		reason  string // "": not ignored
	}{
		{"From: a@example.org\r\nSubject: turn 2", ""},
		{"From: a@example.org\r\nAuto-Submitted: no", ""},
		{"From: a@example.org\r\nAuto-Submitted: auto-replied", "Auto-Submitted: auto-replied"},
		{"From: a@example.org\r\nAuto-Submitted: Auto-Generated; owner-email=x@y", "auto-generated"},
		{"From: a@example.org\r\nX-Autoreply: yes", "X-Autoreply"},
		{"From: a@example.org\r\nX-Autorespond: Out of office", "X-Autorespond"},
		{"From: a@example.org\r\nX-Auto-Response-Suppress: All", ""}, // only asks others not to auto-reply
		{"From: a@example.org\r\nPrecedence: bulk", "bulk"},
		{"From: a@example.org\r\nPrecedence: junk", "junk"},
		{"From: a@example.org\r\nPrecedence: list", "list"},
		{"From: a@example.org\r\nPrecedence: auto_reply", "auto_reply"},
		{"From: a@example.org\r\nPrecedence: first-class", ""},
		{"From: a@example.org\r\nList-Id: <games.lists.example.org>", "List-Id"},
		{"From: a@example.org\r\nList-Unsubscribe: <mailto:u@example.org>", "List-Unsubscribe"},
		{"From: a@example.org\r\nMailing-List: contact x@example.org", "Mailing-List"},
		{"From: MAILER-DAEMON@mx.example.org", "bounce"},
		{"From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>", "bounce"},
		{"From: postmaster@example.org", "bounce"},
		{"From: a@example.org\r\nReturn-Path: <>", "empty Return-Path"},
		{"From: a@example.org\r\nReturn-Path: < >", "empty Return-Path"},
		{"From: a@example.org\r\nReturn-Path: <a@example.org>", ""},
		{"From: a@example.org\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary=x", "multipart/report"},
		{"From: a@example.org\r\nX-Sortie-Game: chan-1", "own mail"},
		{"From: a@example.org\r\nX-SORTIE: 1", "own mail"},
		{"From: a@example.org\r\nSubject: Auto: turn 2 report", "subject"},
		{"From: a@example.org\r\nSubject: Automatic reply: Sortie", "subject"},
		{"From: a@example.org\r\nSubject: OUT OF OFFICE until Monday", "subject"},
		{"From: a@example.org\r\nSubject: =?utf-8?Q?Automatische_Antwort:_Sortie?=", "subject"},
		{"From: a@example.org\r\nSubject: Re: Auto: pilot", ""},
		{"Subject: no sender", "no sender"},
	} {
		m := mustParse(t, c.headers+"\r\n\r\nbody\r\n")
		ign, why := m.ShouldIgnore()
		if c.reason == "" {
			if ign {
				t.Errorf("%q: ignored (%s)", c.headers, why)
			}
			continue
		}
		if !ign || !strings.Contains(why, c.reason) {
			t.Errorf("%q: ShouldIgnore = %v %q, want %q", c.headers, ign, why, c.reason)
		}
	}
	var nilMsg *Mail
	if ign, _ := nilMsg.ShouldIgnore(); !ign {
		t.Error("nil message not ignored")
	}
	if ign, why := (&Mail{From: "a@example.org"}).ShouldIgnore(); ign {
		t.Errorf("bare Mail ignored: %s", why)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err == nil {
			f.Add(raw)
		}
	}
	f.Add([]byte("From: a@example.org\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<blockquote>x</blockquote>\r\n--b--\r\n"))
	f.Add([]byte("From: a@example.org\r\nContent-Type: text/plain; format=flowed; delsp=yes\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n> a =\r\nb=3D \r\n"))
	f.Add([]byte("From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: multipart/alternative; boundary=c\r\n\r\n--c\r\nContent-Transfer-Encoding: base64\r\n\r\nR0FN!RQ\r\n--c\r\nbroken header\r\n"))
	f.Add([]byte("From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain; name=a.txt\nContent-Transfer-Encoding: quoted-printable\n\nGAME=\x01\n--b\nContent-Type: text/html\n\n<title>x<p>RED1: 5"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		hb, _ := splitHeaderBody(raw)
		checkReadHeader(t, hb) // the header as textproto.ReadHeader reads it
		m, err := parse(raw)   // without Parse's recover, so a panic fails
		if err != nil {
			return
		}
		checkMail(t, m)
		ign, why := m.ShouldIgnore()
		fresh := *m
		fresh.mediaType = "" // read again from the header
		if ign2, why2 := fresh.ShouldIgnore(); ign2 != ign || why2 != why {
			t.Fatalf("ShouldIgnore: %v %q, with the media type read again %v %q", ign, why, ign2, why2)
		}
	})
}
