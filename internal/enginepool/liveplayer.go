package enginepool

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// LivePlayer plays the engine's moves of the live games (it is a
// live.Engine) with a small pool of engines (one search per CPU at a
// time), each set to the game's level. The searches wait for an engine in
// turns across users (scheduler.go), so that one user's many games cannot
// starve another's, and each search is bounded by its level and its clock.
type LivePlayer struct {
	sched      *scheduler
	moveTime   func(level int) time.Duration
	background bool
	yield      func()
	tablebase  engine.Tablebase
}

var _ live.Engine = (*LivePlayer)(nil)

// LiveOptions configure a LivePlayer.
type LiveOptions struct {
	Searchers int // engines searching at once (≤ 0: one per CPU)
	HashMB    int // hash of each engine
	// MoveTime is the most time a search takes at a level, before the
	// clock's bound (nil: LevelMoveTime).
	MoveTime func(level int) time.Duration
	// Background runs each search on an OS thread of the lowest priority
	// (Linux; elsewhere at the usual one), so that the engine's games use
	// only the CPU time the server's other work leaves: a move between
	// people is never queued behind a search. A server that sets it should
	// give the Go runtime a P more per searcher (runtime.GOMAXPROCS), since
	// a search holds its P while the OS has its thread waiting.
	Background bool
	// Yield, when not nil, is every search's Limits.Yield. A server gives
	// runtime.Gosched: without it a search holds its P until the runtime
	// preempts it after 10 ms, and the server's goroutines that are ready
	// meanwhile queue behind it; with it they wait about a millisecond.
	Yield func()
	// Tablebase is the engines' endgame tables (Options.Tablebase; nil:
	// none), each position probed in its own ruleset's. Only full strength
	// (MaxLevel) searches with them: a weaker level keeps the mistakes of
	// its level in the endings too, which exact tables would take away.
	Tablebase engine.Tablebase
}

// NewLivePlayer returns an engine player with n engines (n ≤ 0: one per
// CPU) of hashMB MiB of hash each.
func NewLivePlayer(n, hashMB int) (*LivePlayer, error) {
	return NewLivePlayerWith(LiveOptions{Searchers: n, HashMB: hashMB})
}

// NewLivePlayerWith returns an engine player set up by o.
func NewLivePlayerWith(o LiveOptions) (*LivePlayer, error) {
	n := o.Searchers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	engines := make([]*engine.Engine, 0, n)
	for range n {
		opts := engine.DefaultOptions()
		opts.HashMB = o.HashMB
		e, err := engine.New(opts)
		if err != nil {
			return nil, err
		}
		engines = append(engines, e)
	}
	ep := &LivePlayer{sched: newScheduler(engines), moveTime: o.MoveTime, background: o.Background, yield: o.Yield, tablebase: o.Tablebase}
	if ep.moveTime == nil {
		ep.moveTime = engine.LevelMoveTime
	}
	return ep, nil
}

// searchGrace is how long past its time a search may run before its
// context stops it: the search's own clock stops it first (it looks every
// thousand nodes), this only bounds the worst case.
const searchGrace = 20 * time.Millisecond

// searchTime returns the most time a search of r takes at level (already
// within 1..MaxLevel): the level's time, and with a clock a share of the
// time left plus half the increment, never more than half the time left,
// so that a search cannot make the engine lose on time.
func (ep *LivePlayer) searchTime(level int, r game.EngineRequest) time.Duration {
	t := ep.moveTime(level)
	if r.Time != [2]time.Duration{} {
		left := r.Time[r.Position.Turn()]
		t = min(t, left/20+r.Inc/2+10*time.Millisecond, left/2)
	}
	// Never zero, which the engine's Limits read as "no limit".
	return max(t, time.Millisecond)
}

// Move searches r.Position at r.Level, once an engine is free and it is
// r.User's turn; it reports the search's start to r.Started.
func (ep *LivePlayer) Move(ctx context.Context, r game.EngineRequest) (toguz.Move, error) {
	e, err := ep.sched.acquire(ctx, r.User)
	if err != nil {
		return toguz.NoMove, err
	}
	defer ep.sched.release(r.User, e)
	if r.Started != nil {
		r.Started(time.Now())
	}
	opts := e.Options()
	opts.Level = min(max(r.Level, 1), engine.MaxLevel)
	opts.Seed = rand.Int64()
	opts.Tablebase = nil
	if opts.Level == engine.MaxLevel {
		opts.Tablebase = ep.tablebase
	}
	if err := e.SetOptions(opts); err != nil {
		return toguz.NoMove, err
	}
	e.NewGame()
	lim := engine.Limits{MoveTime: ep.searchTime(opts.Level, r)}
	lim.Yield = ep.yield
	sctx, cancel := context.WithTimeout(ctx, lim.MoveTime+searchGrace)
	defer cancel()
	var res engine.Result
	search := func() { res = e.Search(sctx, r.Position, lim, nil) }
	if ep.background {
		engine.InBackground(search)
	} else {
		search()
	}
	if err := ctx.Err(); err != nil {
		return toguz.NoMove, err
	}
	if res.Best == toguz.NoMove {
		return toguz.NoMove, errors.New("engine: no move")
	}
	return res.Best, nil
}

// Waiting returns the number of searches waiting for an engine.
func (ep *LivePlayer) Waiting() int { return ep.sched.waiting() }
