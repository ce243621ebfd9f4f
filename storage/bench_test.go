package storage

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// benchMail is a receipt of realistic size (a ~600-byte JSON record once stored).
func benchMail(i int) OutMail {
	m := mail(fmt.Sprintf("bench-%d", i), "g1")
	m.Body = "Turn 3 orders received for Spitfire I (P/O Smith): 3L2 C1 S.\nYour secret is correct.\n"
	return m
}

func reportOps(b *testing.B, ops int) {
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "ops/s")
}

// BenchmarkEnqueue measures committed enqueues per second, one fsync per Update.
func BenchmarkEnqueue(b *testing.B) {
	for _, perTx := range []int{1, 100} {
		b.Run(fmt.Sprintf("per-update=%d", perTx), func(b *testing.B) {
			db := openTemp(b)
			n := 0
			for b.Loop() {
				if err := db.Update(func(tx *Tx) error {
					for range perTx {
						n++
						if _, err := tx.Enqueue(benchMail(n)); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			reportOps(b, n)
		})
	}
}

// BenchmarkRawBolt is the same work done with bbolt directly: one Put of a record of the same size under a
// sequence key, in the same number of transactions. The ratio to BenchmarkEnqueue is what the outbox's
// indexes, validation and JSON cost.
func BenchmarkRawBolt(b *testing.B) {
	rec := []byte(fmt.Sprintf("%0600d", 0))
	for _, perTx := range []int{1, 100} {
		b.Run(fmt.Sprintf("per-update=%d", perTx), func(b *testing.B) {
			bdb, err := bolt.Open(filepath.Join(b.TempDir(), "raw.db"), 0o600, &bolt.Options{Timeout: time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer bdb.Close()
			n := 0
			for b.Loop() {
				if err := bdb.Update(func(btx *bolt.Tx) error {
					bk, err := btx.CreateBucketIfNotExists([]byte("raw"))
					if err != nil {
						return err
					}
					bk.FillPercent = appendFillPercent
					for range perTx {
						n++
						seq, _ := bk.NextSequence()
						if err := bk.Put([]byte(SeqKey(seq)), rec); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			reportOps(b, n)
		})
	}
}

// BenchmarkSendCycle is the sender's loop: Pending(limit 50) then MarkSent for each, with a long history of
// sent mail behind the queue (which the pending index keeps out of the way).
func BenchmarkSendCycle(b *testing.B) {
	db := openTemp(b)
	const history = 20000
	for i := 0; i < history; i += 1000 {
		if err := db.Update(func(tx *Tx) error {
			for j := range 1000 {
				if _, err := tx.Enqueue(benchMail(i + j)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	now := time.Now()
	n := history
	sent := 0
	for b.Loop() {
		list, err := db.Pending(now, 50)
		if err != nil {
			b.Fatal(err)
		}
		if len(list) == 0 { // refill outside the measurement
			b.StopTimer()
			if err := db.Update(func(tx *Tx) error {
				for range 1000 {
					n++
					if _, err := tx.Enqueue(benchMail(n)); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			continue
		}
		for _, o := range list {
			if err := db.MarkSent(o.ID, now); err != nil {
				b.Fatal(err)
			}
			sent++
		}
	}
	reportOps(b, sent)
}
