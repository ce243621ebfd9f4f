package mailer

import "testing"

// TestPreparers: a stream is prepared on one goroutine fewer than the cores, at least one and at most
// four, and never on more goroutines than it has messages (docs/performance.md, "One preparer on two
// cores").
func TestPreparers(t *testing.T) {
	for _, c := range []struct{ procs, n, want int }{
		{1, 500, 1},
		{2, 500, 1}, // the reader and the server keep the other core
		{3, 500, 2},
		{4, 500, 3},
		{8, 500, 4},
		{64, 500, 4},
		{8, 2, 2},
		{8, 1, 1},
		{2, 0, 0},
	} {
		if got := preparers(c.procs, c.n); got != c.want {
			t.Errorf("preparers(%d cores, %d messages) = %d, want %d", c.procs, c.n, got, c.want)
		}
	}
}
