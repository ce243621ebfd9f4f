package daemon

import (
	"os"
	"strings"
	"sync"
	"time"
)

// The end-to-end tests run the real daemon for weeks of game time in a few seconds: SORTIE_CLOCK_FILE names
// a file holding a duration (Go syntax, e.g. "240h") by which the daemon's clock runs ahead of the real one.
// The file is read again at most every 50 ms, so a test moves the clock by rewriting it. Like SORTIE_CRASH
// it is a test hook, not configuration: a daemon started without it uses the real clock.

// clockFromEnv returns the skewed clock SORTIE_CLOCK_FILE asks for, or nil.
func clockFromEnv() func() time.Time {
	path := os.Getenv("SORTIE_CLOCK_FILE")
	if path == "" {
		return nil
	}
	var (
		mu     sync.Mutex
		read   time.Time
		offset time.Duration
	)
	return func() time.Time {
		now := time.Now()
		mu.Lock()
		defer mu.Unlock()
		if now.Sub(read) > 50*time.Millisecond {
			read = now
			if b, err := os.ReadFile(path); err == nil {
				if d, err := time.ParseDuration(strings.TrimSpace(string(b))); err == nil {
					offset = d
				}
			}
		}
		return now.Add(offset)
	}
}
