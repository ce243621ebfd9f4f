package daemon

import (
	"os"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"sortie/mailer"
)

// TestEnvelopeKeepsTheWholeText: the order text stops at Outlook's "-----Original Message-----", and
// the envelope also carries the whole text, where the adjudicator looks for a block filled in below it.
func TestEnvelopeKeepsTheWholeText(t *testing.T) {
	raw, err := os.ReadFile("../../../../mailer/testdata/corpus/outlook-plain-original-message.eml")
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
