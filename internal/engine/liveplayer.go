package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/live"
)

// LivePlayer plays the engine's moves of the live games (it is a
// live.Engine) with a small pool of engines (one search per CPU at a
// time), each set to the game's level.
type LivePlayer struct {
	pool chan *Engine
}

var _ live.Engine = (*LivePlayer)(nil)

// NewLivePlayer returns an engine player with n engines (n ≤ 0: one per
// CPU) of hashMB MiB of hash each.
func NewLivePlayer(n, hashMB int) (*LivePlayer, error) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	ep := &LivePlayer{pool: make(chan *Engine, n)}
	for range n {
		opts := DefaultOptions()
		opts.HashMB = hashMB
		e, err := New(opts)
		if err != nil {
			return nil, err
		}
		ep.pool <- e
	}
	return ep, nil
}

// LevelMoveTime is the most time the engine spends on a move at a level
// (the clock may allow less): quick at the low levels, a second at the top.
func LevelMoveTime(level int) time.Duration {
	return time.Duration(50+level*level*10) * time.Millisecond
}

// Move searches r.Position at r.Level.
func (ep *LivePlayer) Move(ctx context.Context, r live.EngineRequest) (toguz.Move, error) {
	var e *Engine
	select {
	case e = <-ep.pool:
	case <-ctx.Done():
		return toguz.NoMove, ctx.Err()
	}
	defer func() { ep.pool <- e }()
	opts := e.Options()
	opts.Level = min(max(r.Level, 1), MaxLevel)
	opts.Seed = rand.Int64()
	if err := e.SetOptions(opts); err != nil {
		return toguz.NoMove, err
	}
	e.NewGame()
	lim := Limits{MoveTime: LevelMoveTime(opts.Level)}
	if r.Time != [2]time.Duration{} {
		// Within the clock: the engine's own time management, capped by
		// the level's time.
		left := r.Time[r.Position.Turn()]
		lim.MoveTime = min(lim.MoveTime, left/20+r.Inc/2+10*time.Millisecond)
	}
	res := e.Search(ctx, r.Position, lim, nil)
	if err := ctx.Err(); err != nil {
		return toguz.NoMove, err
	}
	if res.Best == toguz.NoMove {
		return toguz.NoMove, errors.New("engine: no move")
	}
	return res.Best, nil
}
