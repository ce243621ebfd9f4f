package templates

import (
	"runtime"
	"testing"
	"time"
)

// benchRender times Render (the compiled form) and, in the same run and on the same data, the render
// through text/template (Execute of the subject and the body, the same trimming), which is what Render
// did for every template before they were compiled: us/op and raw-us/op. The allocations of each are
// counted over 200 renders after the timing: allocs/op and B/op (which replace -benchmem's columns,
// so that every column without raw- is Render's alone, ns/op too), raw-allocs/op and raw-B/op.
func benchRender(b *testing.B, name string, d any) {
	s, err := New("")
	if err != nil {
		b.Fatal(err)
	}
	e := s.t[name]
	if _, _, ok := e.renderCompiled(d); !ok {
		b.Fatalf("%s is not rendered by its compiled form", name)
	}
	var tFast, tRaw time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		subject, body, err := s.Render(name, d)
		t1 := time.Now()
		rs, rb, rerr := e.renderText(name, d)
		t2 := time.Now()
		if err != nil || rerr != nil || subject != rs || body != rb {
			b.Fatalf("%s: the two renders differ (%v, %v)", name, err, rerr)
		}
		tFast += t1.Sub(t0)
		tRaw += t2.Sub(t1)
		n++
	}
	b.ReportMetric(float64(tFast.Nanoseconds())/float64(n), "ns/op")
	b.ReportMetric(float64(tFast.Nanoseconds())/1e3/float64(n), "us/op")
	b.ReportMetric(float64(tRaw.Nanoseconds())/1e3/float64(n), "raw-us/op")
	allocs := func(f func()) (count, bytes float64) {
		const runs = 200
		f()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range runs {
			f()
		}
		runtime.ReadMemStats(&m1)
		return float64(m1.Mallocs-m0.Mallocs) / runs, float64(m1.TotalAlloc-m0.TotalAlloc) / runs
	}
	fc, fb := allocs(func() { s.Render(name, d) })
	rc, rb := allocs(func() { e.renderText(name, d) })
	b.ReportMetric(fc, "allocs/op")
	b.ReportMetric(rc, "raw-allocs/op")
	b.ReportMetric(fb, "B/op")
	b.ReportMetric(rb, "raw-B/op")
}

// BenchmarkRenderReceipt: the receipt of an order mail with two orders (one stored, with its forecast,
// one refused), what is on file, and who is missing.
//
//	go test ./templates -run '^$' -bench Render -benchmem
func BenchmarkRenderReceipt(b *testing.B) {
	benchRender(b, "receipt", receiptData(1<<3|1<<4|1<<5|1<<6|1<<7|1<<8|1<<9))
}

// BenchmarkRenderReport: a turn's report with events, units of both sides, the map, the dice and the
// order block.
func BenchmarkRenderReport(b *testing.B) {
	benchRender(b, "report", reportData("report", 1<<2|1<<3|1<<4|1<<5|1<<6|1<<7|1<<10))
}
