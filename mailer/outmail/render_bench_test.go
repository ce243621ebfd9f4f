package outmail

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"
	"time"
)

// BenchmarkRender: a report of realistic size (4 KB of text), plain and with a 100 KB picture inline,
// made into bytes by Render, beside the raw cost measured in the same run: the same go-mail message
// built and written by go-mail alone (random boundaries, no check for a forged one).
func BenchmarkRender(b *testing.B) {
	picture := make([]byte, 100<<10)
	if _, err := rand.Read(picture); err != nil { // incompressible, like a PNG
		b.Fatal(err)
	}
	report := Mail{From: "sortie@sortie.test", FromName: "Sortie", To: "alice@players.test", ToName: "Alice",
		ReplyTo: "sortie+0123456789abcdef@sortie.test", Subject: "[g1] turn 3 report for Alice",
		Body:      strings.Repeat("RED1 at 0412 facing 3, altitude 12000 ft, speed 24: fires at KURT, hit (d6=5).\n", 50),
		MessageID: "report.g1.3.alice@sortie.test", Headers: map[string]string{"X-Sortie-Game": "g1"}, Created: time.Now()}
	withPicture := report
	withPicture.Parts = []Part{{Filename: "map.png", ContentType: "image/png", Inline: true, Data: picture}}
	for _, c := range []struct {
		name string
		m    Mail
	}{{"plain", report}, {"picture", withPicture}} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				raw, err := Render(c.m, "")
				if err != nil {
					b.Fatal(err)
				}
				n = len(raw)
			}
			b.ReportMetric(float64(n), "B/mail")
		})
		b.Run("raw-"+c.name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				msg, _, err := build(c.m, "")
				if err != nil {
					b.Fatal(err)
				}
				buf.Reset()
				if _, err := msg.WriteTo(&buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "B/mail")
		})
	}
}
