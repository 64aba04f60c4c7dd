package auth

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// ErrBusy is returned when every password-hashing slot stayed taken for the
// whole wait ([Config.HashWait]): the client should try again shortly.
var ErrBusy = errors.New("auth: too many password checks at once; try again shortly")

// DefaultHashWait is how long a login or sign-up waits for a hashing slot
// before ErrBusy.
const DefaultHashWait = 2 * time.Second

// hashMemoryBudget is the memory the hashes in flight may hold together
// when no GOMEMLIMIT says otherwise.
const hashMemoryBudget = 256 << 20

// DefaultMaxHashes is the default bound on the argon2 hashes that run at
// once with parameters p: one per two CPUs (GOMAXPROCS/2), and no more than
// a memory budget allows (a quarter of GOMEMLIMIT when set, else 256 MiB:
// 13 hashes of DefaultParams' 19 MiB); at least 1.
//
// Half the CPUs, not all: a hash holds its CPU for 25 ms, and logins come
// in bursts (ten a client address at once). With every CPU hashing, the
// live games' moves wait for the scheduler to preempt a hash: on 2 CPUs, 8
// addresses trying passwords at their limits beside 2,000 games raised the
// games' move p99 from 8.5 ms to 29–43 ms with 2 hashes at once, and to
// 14–19 ms with 1 (docs/architecture.md), and no login was refused busy.
func DefaultMaxHashes(p Params) int {
	p = p.withDefaults()
	budget := int64(hashMemoryBudget)
	if lim := debug.SetMemoryLimit(-1); lim != math.MaxInt64 {
		budget = lim / 4
	}
	return int(max(1, min(int64(runtime.GOMAXPROCS(0)/2), budget/(int64(p.Memory)<<10))))
}

// HashStats are the counters of the hashing bound and the lock-outs.
type HashStats struct {
	MaxHashes int   // the bound on hashes at once
	Hashed    int64 // logins and sign-ups that got a slot
	Busy      int64 // refused with ErrBusy
	Locked    int64 // refused because their (account, address) was locked out
}

// hashBound bounds the argon2 hashes that run at once. Each holds
// Params.Memory (19 MiB by default) and a CPU for tens of milliseconds:
// unbounded, 500 concurrent logins took a server to 9 GB.
type hashBound struct {
	sem          *semaphore.Weighted
	max          int
	wait         time.Duration
	hashed, busy atomic.Int64
	log          *slog.Logger
	logBusy      rate.Sometimes // a line per 10 s at most, under attack
}

func newHashBound(max int, wait time.Duration, log *slog.Logger) *hashBound {
	return &hashBound{sem: semaphore.NewWeighted(int64(max)), max: max, wait: wait, log: log,
		logBusy: rate.Sometimes{Interval: 10 * time.Second}}
}

// acquire waits at most b.wait for a slot; the caller must call release
// when its hashing is done. It returns ErrBusy when the wait ran out, and
// ctx's error when ctx ended first.
func (b *hashBound) acquire(ctx context.Context) (release func(), err error) {
	wctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	if err := b.sem.Acquire(wctx, 1); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n := b.busy.Add(1)
		b.logBusy.Do(func() { b.log.Warn("password hashing full: refused", "max", b.max, "busy_total", n) })
		return nil, ErrBusy
	}
	b.hashed.Add(1)
	return func() { b.sem.Release(1) }, nil
}
