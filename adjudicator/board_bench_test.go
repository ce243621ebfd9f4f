package adjudicator

import (
	"testing"
	"time"
)

// BenchmarkTryOrder: one plot tried on the plotting board (TryOrder: a read transaction, the game record
// and state decoded, the order checked), per try. Raw, alternated with it in the same run: the same
// CheckOrder on a game decoded once, the least a try costs.
//
//	go test ./adjudicator -run '^$' -bench TryOrder -benchtime 2000x
func BenchmarkTryOrder(b *testing.B) {
	f := newFixtureWith(b, 24*time.Hour, "")
	rg := f.rules()
	const text = "1 TL 4 FIRE KURT"
	var tTry, tRaw time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		if _, ok, err := f.s.TryOrder("g1", "alice", "RED1", text); err != nil || !ok {
			b.Fatalf("TryOrder: %v %v", ok, err)
		}
		t1 := time.Now()
		if chk := rg.CheckOrder("alice", "RED1", text); !chk.OK() {
			b.Fatalf("the plot is not legal: %+v", chk)
		}
		tTry, tRaw = tTry+t1.Sub(t0), tRaw+time.Since(t1)
		n++
	}
	b.ReportMetric(float64(tTry.Nanoseconds())/1e3/float64(n), "us/try")
	b.ReportMetric(float64(tRaw.Nanoseconds())/1e3/float64(n), "raw-check-us/try")
}
