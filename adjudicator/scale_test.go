package adjudicator

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"sortie/storage"
)

// scaleFixture is a database holding n running games: one created the ordinary way, the rest copies of
// it under their own ids and reply tokens, written a thousand to a transaction.
func scaleFixture(b *testing.B, n int) *fixture {
	b.Helper()
	f := newFixtureWith(b, 0, "") // b's temporary folder and cleanup: the database is closed and removed
	var g Game
	var state []byte
	f.db.View(func(tx *storage.Tx) error {
		gp, _ := getGame(tx, "g1")
		g = *gp
		state, _ = tx.Get(bucketState, "g1")
		return nil
	})
	for start := 1; start < n; start += 1000 {
		err := f.db.Update(func(tx *storage.Tx) error {
			for i := start; i < min(start+1000, n); i++ {
				c := g
				c.ID = fmt.Sprintf("g%05d", i)
				c.Seats = append([]Seat(nil), g.Seats...)
				for k := range c.Seats {
					c.Seats[k].Token = fmt.Sprintf("%05d%011d", i, k)
					if err := tx.Put(bucketTokens, c.Seats[k].Token, []byte(c.ID+"/"+c.Seats[k].Player)); err != nil {
						return err
					}
				}
				// Spread the deadlines over the next two days, as real games would be.
				c.Deadline = f.now.Add(time.Duration(1+i%47) * time.Hour)
				b, _ := json.Marshal(c)
				if err := tx.Put(bucketGames, c.ID, b); err != nil {
					return err
				}
				if err := tx.Put(bucketState, c.ID, state); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	// Nothing is due: the clock stands just after creation, before any reminder window.
	f.s.cfg.Reminders = []time.Duration{time.Minute}
	f.s.cfg.MaxMailsPerHour = 1 << 30 // two players sending hundreds of orders an hour is the point here
	return f
}

// rssMiB reads the process's resident set and its peak (VmRSS, VmHWM) from /proc, in MiB; 0 where the
// system has no /proc.
func rssMiB() (now, peak float64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(line, "VmRSS: %f kB", &kb); err == nil {
			now = kb / 1024
		}
		if _, err := fmt.Sscanf(line, "VmHWM: %f kB", &kb); err == nil {
			peak = kb / 1024
		}
	}
	return now, peak
}

// BenchmarkScale10kGames measures, with 10,000 running games in one database: the file size; one pass of
// the clock when nothing is due (finding due games), with the bytes it allocates, the live heap after a
// pass, and the process's resident set (of which the database's memory map is a part); and the turn
// latency from the last order's arrival to every report committed to the outbox, checking each time that
// the turn was resolved. The raw cost beside the pass is one read transaction decoding every game record,
// the floor of any scan.
func BenchmarkScale10kGames(b *testing.B) {
	const n = 10000
	f := scaleFixture(b, n)
	// The database's size is what a backup of it writes: the file itself has room to spare beyond it
	// (bbolt grows it ahead, by up to 16 MiB).
	dbSize, err := f.db.Backup(io.Discard)
	if err != nil {
		b.Fatal(err)
	}

	// The clock's first pass of the day (9:00, after the digest hour) queues the moderator's daily
	// digest: one moderator runs all 10,000 games here, so the digest reads every game's rules and
	// state. That is once a day, not every pass: it is timed here on its own, and the passes below
	// measure the clock with nothing due.
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	t0 := time.Now()
	if done, err := f.s.Tick(); err != nil || len(done) != 0 {
		b.Fatal(done, err)
	}
	digestPass := time.Since(t0)
	runtime.ReadMemStats(&ms1)
	if got := f.kindCount("mod@players.test", "digest"); got != 1 {
		b.Fatalf("the day's first pass queued %d digests for the moderator, want 1", got)
	}
	b.Run("tick-nothing-due", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if done, err := f.s.Tick(); err != nil || len(done) != 0 {
				b.Fatal(done, err)
			}
		}
		// The heap the service keeps once a pass is over (what it allocated for the pass is B/op).
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss, peak := rssMiB()
		b.ReportMetric(float64(dbSize)/(1<<20), "db-MiB")
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-after-MiB")
		b.ReportMetric(rss, "rss-MiB")
		b.ReportMetric(peak, "rss-peak-MiB")
		b.ReportMetric(float64(digestPass.Microseconds())/1e3, "digest-day-ms")
		b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/(1<<20), "digest-day-MB")
	})
	b.Run("raw-scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.db.View(func(tx *storage.Tx) error {
				return tx.ForEach(bucketGames, func(k string, v []byte) error {
					var g Game
					return json.Unmarshal(v, &g)
				})
			})
		}
	})
	i := 0 // outside the closure: the benchmark function runs more than once
	b.Run("turn-latency", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			id := fmt.Sprintf("g%05d", 1+i%(n-1)) // a fresh game each time: its turn 1 is still open
			i++
			if i > n-1 {
				b.Fatal("every game's turn 1 has been played: run fewer iterations")
			}
			f.s.Submit(Envelope{From: "alice@players.test", MessageID: fmt.Sprintf("a-%d", i), To: []string{"sortie@sortie.test"},
				Text: "GAME " + id + " TURN 1 SECRET lark-swift-0001\nRED1: 6\nRED2: 6\nEND"})
			b.StartTimer()
			o, err := f.s.Submit(Envelope{From: "bob@players.test", MessageID: fmt.Sprintf("b-%d", i), To: []string{"sortie@sortie.test"},
				Text: "GAME " + id + " TURN 1 SECRET kite-heron-0002\nKURT: 5\nHANS: 6\nEND"})
			b.StopTimer()
			if err != nil || o != Accepted {
				b.Fatalf("game %s: %s %v", id, o, err)
			}
			// The turn was resolved: the game asks for turn 2, and both players' reports are queued.
			if st, err := f.s.Status(id); err != nil || st.Round != 2 {
				b.Fatalf("game %s was not resolved by the last order: %+v %v", id, st, err)
			}
			b.StartTimer()
		}
	})
}
