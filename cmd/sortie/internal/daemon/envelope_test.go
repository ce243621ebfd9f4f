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
