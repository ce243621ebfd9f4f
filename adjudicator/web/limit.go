package web

import (
	"sync"
	"time"
)

// The plotting board's rate limit: every try (a forecast, a map with the plots drawn, a form sent back)
// costs a token from its link's bucket, which refills at a steady rate up to its size. A player typing
// never meets it; a program hammering one link gets a clear "too fast" answer instead of the server's
// processor time.

const (
	// tryBurst is how many tries a link may make at once (a bucket's size).
	tryBurst = 120
	// tryRate is how many tries a second a link's bucket gets back.
	tryRate = 10
	// maxBuckets bounds the links tracked; past it the full buckets are forgotten (a full bucket is
	// what a new one would be), and if that is not enough, all of them.
	maxBuckets = 4096
)

// limiter holds one token bucket per link. It belongs to its Server.
type limiter struct {
	now func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, buckets: map[string]*bucket{}}
}

// take spends one token of key's bucket, and says whether there was one.
func (l *limiter) take(key string) bool {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.forgetFull(now)
		}
		b = &bucket{tokens: tryBurst, at: now}
		l.buckets[key] = b
	}
	b.refill(now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (b *bucket) refill(now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(tryBurst, b.tokens+d.Seconds()*tryRate)
		b.at = now
	}
}

// forgetFull drops the buckets that have filled up again, and all of them if none has.
func (l *limiter) forgetFull(now time.Time) {
	for k, b := range l.buckets {
		b.refill(now)
		if b.tokens >= tryBurst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxBuckets {
		l.buckets = map[string]*bucket{}
	}
}
