package adjudicator

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"sortie/storage"
)

// BenchmarkSubmitBatch: batches of order mails (the text the mailer hands over) through SubmitBatch, one
// transaction a batch, per mail: identify, check the orders through the ruleset, store them, render and
// queue the receipt. Raw, in the same run: one transaction writing a 2 KiB record per mail into the same
// kind of file, the least a batch's commit costs.
//
//	go test ./adjudicator -run '^$' -bench SubmitBatch -benchtime 20x
func BenchmarkSubmitBatch(b *testing.B) {
	const n = 250
	f := newFixtureWith(b, 24*time.Hour, "")
	f.s.cfg.MaxMailsPerHour = 1 << 30
	plots := []string{"RED1: 6 FIRE KURT\nRED2: 1 TL 4", "RED1: 3 TR 2 FIRE KURT\nRED2: 2 TL 3 HOLD"}
	record := bytes.Repeat([]byte{'x'}, 2<<10)
	var tSubmit, tRaw time.Duration
	iter := 0
	for b.Loop() {
		b.StopTimer()
		iter++
		envs := make([]Envelope, n)
		for i := range envs {
			text := fmt.Sprintf("Hello,\n\nGAME g1 TURN 1 SECRET lark-swift-0001\n%s\nEND\n\nAlice\n", plots[i%len(plots)])
			envs[i] = Envelope{From: "alice@players.test", To: []string{"sortie@sortie.test"}, MessageID: fmt.Sprintf("o%d.%d@players.test", iter, i),
				Text: text, Size: len(text), ReceivedAt: f.now}
		}
		b.StartTimer()
		t0 := time.Now()
		out, err := f.s.SubmitBatch(envs)
		tSubmit += time.Since(t0)
		b.StopTimer()
		if err != nil || len(out) != n {
			b.Fatalf("%d outcomes: %v", len(out), err)
		}
		for i, o := range out {
			if o != Accepted {
				b.Fatalf("mail %d: %s", i, o)
			}
		}
		t0 = time.Now()
		err = f.db.Update(func(tx *storage.Tx) error {
			for i := range n {
				if err := tx.Put([]string{"rawbench"}, fmt.Sprintf("%d.%06d", iter, i), record); err != nil {
					return err
				}
			}
			return nil
		})
		tRaw += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	total := float64(n * iter)
	b.ReportMetric(float64(tSubmit.Nanoseconds())/1e3/total, "us/mail")
	b.ReportMetric(float64(tRaw.Nanoseconds())/1e3/total, "raw-commit-us/mail")
}
