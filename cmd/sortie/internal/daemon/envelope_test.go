package daemon

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/mailer"
)

// TestEnvelopeKeepsTheWholeText: the order text stops at Outlook's "-----Original Message-----", and
// the envelope also carries the whole text, where the adjudicator looks for a block filled in below it.
func TestEnvelopeKeepsTheWholeText(t *testing.T) {
	raw, err := os.ReadFile("../../../../mailer/inmail/testdata/corpus/outlook-plain-original-message.eml")
	if err != nil {
		t.Fatal(err)
	}
	env, ok := mailHandler{log: zerolog.Nop()}.envelope(mailer.Message{Raw: raw})
	if !ok {
		t.Fatal("the mail was not read")
	}
	if strings.Contains(env.Text, "Original Message") || !strings.Contains(env.Text, "GAME chan-1 TURN 2") {
		t.Errorf("order text:\n%s", env.Text)
	}
	if !strings.Contains(env.Full, "-----Original Message-----") || !strings.Contains(env.Full, "To plot turn 2, reply to this mail with:") {
		t.Errorf("whole text:\n%s", env.Full)
	}
}

// TestEnvelopeOfHeaderOnlyMail: a message the intake handed over with its header only, because it is
// over the size limit, reaches the adjudicator as oversize with the whole message's size (which its
// refusal quotes), prepared ahead or not; a message of the same bytes handed over whole does not.
func TestEnvelopeOfHeaderOnlyMail(t *testing.T) {
	raw := []byte("From: Alice <alice@players.test>\r\nTo: sortie@sortie.test\r\nSubject: Re: turn 2\r\nMessage-ID: <big@players.test>\r\n\r\n")
	h := mailHandler{log: zerolog.Nop()}
	big := mailer.Message{Raw: raw, Size: 12 << 20, HeaderOnly: true}
	prepared := big
	prepared.Prepared = h.Prepare(big)
	for _, m := range []mailer.Message{big, prepared} {
		env, ok := h.envelope(m)
		if !ok || !env.Oversize || env.Size != 12<<20 || env.From != "alice@players.test" || env.MessageID != "big@players.test" {
			t.Errorf("prepared %v: ok %v, oversize %v, size %d, from %q, id %q", m.Prepared != nil, ok, env.Oversize, env.Size, env.From, env.MessageID)
		}
	}
	env, _ := h.envelope(mailer.Message{Raw: raw, Size: int64(len(raw))})
	if env.Oversize || env.Size != len(raw) {
		t.Errorf("whole: oversize %v, size %d", env.Oversize, env.Size)
	}
}

// TestPrepareOnManyGoroutines: the intake prepares messages on several goroutines at once; every mail of
// the corpus, prepared on eight at a time (run with -race), reads as it does alone.
func TestPrepareOnManyGoroutines(t *testing.T) {
	files, err := filepath.Glob("../../../../mailer/inmail/testdata/corpus/*.eml")
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	h := mailHandler{log: zerolog.Nop()}
	var msgs []mailer.Message
	var alone []prepared
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := mailer.Message{Raw: raw}
		msgs = append(msgs, m)
		p := h.Prepare(m).(prepared)
		p.env.ReceivedAt = time.Time{}
		alone = append(alone, p)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range msgs {
				k := (i + w*len(msgs)/8) % len(msgs)
				got := h.Prepare(msgs[k]).(prepared)
				got.env.ReceivedAt = time.Time{}
				if !reflect.DeepEqual(got, alone[k]) {
					t.Errorf("%s prepared on goroutine %d differs from alone", files[k], w)
				}
			}
		})
	}
	wg.Wait()
}
