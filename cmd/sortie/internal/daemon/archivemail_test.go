package daemon

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/mail"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/adjudicator/archive"
	"sortie/mailer"
	"sortie/mailer/localmail"
	"sortie/mailer/outmail"
	"sortie/rules/afd"
	"sortie/storage"
	"sortie/templates"
)

// splitMbox undoes mail.mbox: the mails between From_ lines, ">From" unquoted, each with its last line
// end (the blank line after it is the mbox's).
func splitMbox(t *testing.T, data []byte) [][]byte {
	t.Helper()
	var out [][]byte
	var cur *bytes.Buffer
	prevBlank := true
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" {
			continue
		}
		if prevBlank && strings.HasPrefix(line, "From ") {
			if cur != nil {
				out = append(out, bytes.TrimSuffix(cur.Bytes(), []byte("\n")))
			}
			cur, prevBlank = new(bytes.Buffer), false
			continue
		}
		if cur == nil {
			t.Fatal("mail.mbox does not start with a From_ line")
		}
		if strings.HasPrefix(strings.TrimLeft(line, ">"), "From ") && strings.HasPrefix(line, ">") {
			line = line[1:]
		}
		cur.WriteString(line)
		prevBlank = line == "\n"
	}
	if cur != nil {
		out = append(out, bytes.TrimSuffix(cur.Bytes(), []byte("\n")))
	}
	return out
}

func mapPicture(t *testing.T) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 64, 48), []color.Color{color.White, color.Black, color.RGBA{200, 30, 30, 255}})
	for i := range 48 {
		img.SetColorIndex(i, i, 1)
		img.SetColorIndex(63-i, i, 2)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The archive's mbox holds the very bytes the SMTP server received: a turn's mail (welcome, receipts,
// reports) and a mail with an inline map picture and an attachment go from the outbox through this
// package's adapter and the sender to an in-process SMTP server, and the game's archive holds each
// byte for byte (but for the mbox's own LF line ends and >From quoting, which the test undoes), except
// where the archive withholds a secret.
func TestArchiveHoldsTheMailAsSent(t *testing.T) {
	const service, alice, bob = "sortie@sortie.test", "alice@players.test", "bob@players.test"
	srv, err := localmail.StartSMTP(localmail.SMTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	db, err := storage.Open(filepath.Join(t.TempDir(), "sortie.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	// Replies identify the seat by its secret, so a report carries no reply token: only the welcome
	// holds a secret the archive withholds.
	svc := adjudicator.New(db, tmpl, adjudicator.Config{Address: service, Name: "Sortie Ü", NoPlusAddressing: true}, zerolog.Nop())
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	scn = append(scn, fmt.Appendf(nil, "\nservice:\n  players:\n    alice: {email: %s, secret: lark-swift-0001}\n    bob: {email: %s, secret: kite-heron-0002}\n", alice, bob)...)
	if _, err := svc.NewGame(scn, "channel.yaml", "g1"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct{ from, text string }{
		{alice, "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND"},
		{bob, "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND"},
	} {
		if o, err := svc.Submit(adjudicator.Envelope{From: p.from, To: []string{service}, MessageID: "m." + p.from, Text: p.text, Size: len(p.text)}); err != nil || o != adjudicator.Accepted {
			t.Fatalf("%s: %s %v", p.from, o, err)
		}
	}
	if err := db.Update(func(tx *storage.Tx) error {
		_, err := tx.Enqueue(storage.OutMail{Mail: outmail.Mail{From: service, FromName: "Sortie Ü", To: alice, ToName: "Zoë Ärmel",
			Subject: "[g1] the map after turn 1", Body: "What your pilots see.\nFrom here on, the map.\n", MessageID: "map.1.g1@sortie.test",
			Headers: map[string]string{"X-Sortie-Game": "g1"}, Created: time.Now(),
			Parts: []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: mapPicture(t)},
				{Filename: "turn-1.txt", ContentType: "text/plain", Data: []byte("RED1: 6\nRED2: 6\n")}}}, Game: "g1", Kind: "report"})
		return err
	}); err != nil {
		t.Fatal(err)
	}

	host, port, _ := strings.Cut(srv.Addr(), ":")
	p, _ := strconv.Atoi(port)
	opts := mailer.SenderOptions{Host: host, Port: p, TLS: mailer.TLSNone, FromName: "not the mail's name", KeepOpen: -1}
	// The archive read before the reports' pictures are drawn shows the pictures they go with.
	before, err := svc.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	sent, err := mailer.NewSender(opts, Outbox{DB: db, Svc: svc}).SendOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	received := map[string][]byte{}
	for _, e := range srv.Received() {
		m, err := mail.ReadMessage(bytes.NewReader(e.Raw))
		if err != nil {
			t.Fatal(err)
		}
		received[strings.Trim(m.Header.Get("Message-ID"), "<>")] = e.Raw
	}
	if len(received) != sent || sent < 7 {
		t.Fatalf("%d mails sent, %d received", sent, len(received))
	}

	ar, err := archive.Export(svc, "g1")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "archive")
	if err := ar.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "mail.mbox"))
	if err != nil {
		t.Fatal(err)
	}
	boxed := splitMbox(t, data)
	rec, err := svc.Record("g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(boxed) != len(rec.Mails) || len(ar.Mails) != len(rec.Mails) || len(rec.Mails) != sent {
		t.Fatalf("%d mails in the mbox, %d in the record, %d sent", len(boxed), len(rec.Mails), sent)
	}
	if len(before.Mails) != len(rec.Mails) {
		t.Fatalf("%d mails in the record before sending, %d after", len(before.Mails), len(rec.Mails))
	}
	pictures := 0
	for i, m := range before.Mails {
		if !reflect.DeepEqual(m.Parts, rec.Mails[i].Parts) {
			t.Errorf("mail %d (%s): its parts in the archive before its picture was drawn are not those it was sent with", i+1, m.Kind)
		}
		if len(m.PartBlobs) > 0 {
			pictures++
		}
	}
	if pictures < 4 {
		t.Errorf("%d mails carry a picture drawn after the commit, want the welcomes and reports", pictures)
	}
	same := map[string]int{}
	for i, m := range rec.Mails {
		raw, ok := received[m.MessageID]
		if !ok {
			t.Fatalf("mail %d (%s) was not received", i+1, m.Kind)
		}
		if want, err := outmail.Render(m.Mail, opts.FromName); err != nil || !bytes.Equal(raw, want) {
			t.Errorf("mail %d (%s): the server did not receive what Render makes of the stored mail (%v)", i+1, m.Kind, err)
		}
		lf := bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
		if reflect.DeepEqual(ar.Mails[i].Mail, m.Mail) {
			if !bytes.Equal(boxed[i], lf) {
				t.Errorf("mail %d (%s): the archive's copy differs from the mail received:\n%s\n--- received:\n%s", i+1, m.Kind, boxed[i], lf)
			}
			same[m.Kind]++
			continue
		}
		// The archive withheld a secret: the copy is the mail with it withheld, and nothing else.
		if bytes.Equal(boxed[i], lf) || !bytes.Contains(raw, []byte("lark-swift-0001")) && !bytes.Contains(raw, []byte("kite-heron-0002")) {
			t.Errorf("mail %d (%s) was changed in the archive, but it holds no secret", i+1, m.Kind)
		}
		if want, _ := outmail.Render(ar.Mails[i].Mail, opts.FromName); !bytes.Equal(boxed[i], bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))) {
			t.Errorf("mail %d (%s): the archive's copy is not the mail with its secret withheld", i+1, m.Kind)
		}
	}
	t.Logf("byte-identical: %v of %d", same, sent)
	if same["receipt"] < 2 || same["report"] < 3 {
		t.Errorf("byte-identical in the archive: %v; want both receipts, both turn reports and the map", same)
	}
	if !bytes.Contains(received["map.1.g1@sortie.test"], []byte("Content-Type: multipart/mixed")) {
		t.Error("the map mail did not go out with its parts")
	}
}
