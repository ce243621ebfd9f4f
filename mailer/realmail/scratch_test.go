package realmail

import (
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	debugTimes = true
	t0 := time.Now()
	s, err := Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Log("start", time.Since(t0))
	t0 = time.Now()
	s.Stop()
	t.Log("stop", time.Since(t0))
}
