package storage

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sortie/mailer/outmail"
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

// benchPicture is a map picture of 100 KB, the largest part Sortie sends.
var benchPicture = bigPart("map.png", 100<<10)

// pictureMail is a report with the picture.
func pictureMail(i int) OutMail {
	m := benchMail(i)
	m.Kind = "report"
	m.Parts = []outmail.Part{benchPicture}
	return m
}

// BenchmarkOutboxPicture: mails with a 100 KB picture through the outbox, beside the same work done
// with bbolt directly in the same run:
//   - enqueue: one Enqueue per Update; raw: one Put of a record of the same size and one of the
//     picture, in one Update;
//   - send: the sender's loop, Pending(limit 50) then MarkSent for each; raw: the same 50 records and
//     pictures read (and the pictures copied) in one View, then per mail one Update that rewrites the
//     record and deletes a pending key.
func BenchmarkOutboxPicture(b *testing.B) {
	record := []byte(fmt.Sprintf("%0600d", 0))
	picture := benchPicture.Data
	rawDB := func(b *testing.B) *bolt.DB {
		bdb, err := bolt.Open(filepath.Join(b.TempDir(), "raw.db"), 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { bdb.Close() })
		if err := bdb.Update(func(btx *bolt.Tx) error {
			for _, name := range []string{"mail", "data", "pending"} {
				if _, err := btx.CreateBucketIfNotExists([]byte(name)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		return bdb
	}
	rawPut := func(bdb *bolt.DB, n int) error {
		return bdb.Update(func(btx *bolt.Tx) error {
			k := []byte(SeqKey(uint64(n)))
			if err := btx.Bucket([]byte("mail")).Put(k, record); err != nil {
				return err
			}
			if err := btx.Bucket([]byte("pending")).Put(k, nanos(time.Time{})); err != nil {
				return err
			}
			return btx.Bucket([]byte("data")).Put(partKey(string(k), 0), picture)
		})
	}
	b.Run("enqueue", func(b *testing.B) {
		db := openTemp(b)
		n := 0
		for b.Loop() {
			n++
			if err := db.Update(func(tx *Tx) error { _, err := tx.Enqueue(pictureMail(n)); return err }); err != nil {
				b.Fatal(err)
			}
		}
		reportOps(b, n)
	})
	b.Run("raw-enqueue", func(b *testing.B) {
		bdb := rawDB(b)
		n := 0
		for b.Loop() {
			n++
			if err := rawPut(bdb, n); err != nil {
				b.Fatal(err)
			}
		}
		reportOps(b, n)
	})
	b.Run("send", func(b *testing.B) {
		db := openTemp(b)
		n, sent := 0, 0
		now := time.Now()
		for b.Loop() {
			list, err := db.Pending(now, 50)
			if err != nil {
				b.Fatal(err)
			}
			if len(list) == 0 { // refill outside the measurement
				b.StopTimer()
				if err := db.Update(func(tx *Tx) error {
					for range 200 {
						n++
						if _, err := tx.Enqueue(pictureMail(n)); err != nil {
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
				if len(o.Parts) != 1 || len(o.Parts[0].Data) != len(picture) {
					b.Fatal("the picture did not come back")
				}
				if err := db.MarkSent(o.ID, now); err != nil {
					b.Fatal(err)
				}
				sent++
			}
		}
		reportOps(b, sent)
	})
	b.Run("raw-send", func(b *testing.B) {
		bdb := rawDB(b)
		n, sent := 0, 0
		for b.Loop() {
			var keys [][]byte
			if err := bdb.View(func(btx *bolt.Tx) error {
				c := btx.Bucket([]byte("pending")).Cursor()
				for k, _ := c.First(); k != nil && len(keys) < 50; k, _ = c.Next() {
					_ = append([]byte(nil), btx.Bucket([]byte("mail")).Get(k)...)
					_ = append([]byte(nil), btx.Bucket([]byte("data")).Get(partKey(string(k), 0))...)
					keys = append(keys, append([]byte(nil), k...))
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			if len(keys) == 0 {
				b.StopTimer()
				for range 200 {
					n++
					if err := rawPut(bdb, n); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				continue
			}
			for _, k := range keys {
				if err := bdb.Update(func(btx *bolt.Tx) error {
					if err := btx.Bucket([]byte("mail")).Put(k, record); err != nil {
						return err
					}
					return btx.Bucket([]byte("pending")).Delete(k)
				}); err != nil {
					b.Fatal(err)
				}
				sent++
			}
		}
		reportOps(b, sent)
	})
}
