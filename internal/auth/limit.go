package auth

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter is a set of token buckets, one per key (an IP, an account). It is
// safe for concurrent use.
type Limiter struct {
	limit rate.Limit
	burst int
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// maxBuckets bounds a limiter's memory: beyond it, full buckets (which
// behave as new ones) are dropped.
const maxBuckets = 10000

// NewLimiter returns a limiter allowing limit events per second with bursts
// of burst per key; now is the time source (time.Now in production). A limit
// of rate.Inf allows everything.
func NewLimiter(limit rate.Limit, burst int, now func() time.Time) *Limiter {
	return &Limiter{limit: limit, burst: burst, now: now, buckets: make(map[string]*rate.Limiter)}
}

// Allow reports whether one more event for key is allowed now, and counts it if so.
func (l *Limiter) Allow(key string) bool {
	if l.limit == rate.Inf {
		return true
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			l.prune(now)
		}
		b = rate.NewLimiter(l.limit, l.burst)
		l.buckets[key] = b
	}
	return b.AllowN(now, 1)
}

// prune drops the buckets that have refilled.
func (l *Limiter) prune(now time.Time) {
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.buckets, k)
		}
	}
}

// Len returns the number of keys tracked.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
