package templates

import "testing"

// benchRender times Render of one template on the same data, over and over.
func benchRender(b *testing.B, name string, d any) {
	s, err := New("")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Render(name, d); err != nil {
			b.Fatal(err)
		}
	}
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
