package tui

import (
	"context"
	"errors"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// Searcher is an Engine that searches with internal/engine under fixed
// limits (a time per move, a depth).
type Searcher struct {
	Engine *engine.Engine
	Limits engine.Limits
}

// BestMove searches p and returns the engine's move; it returns ctx's
// error when ctx was cancelled, even though the search still found a move.
func (s Searcher) BestMove(ctx context.Context, p toguz.Position) (toguz.Move, error) {
	r := s.Engine.Search(ctx, p, s.Limits, nil)
	if err := ctx.Err(); err != nil {
		return toguz.NoMove, err
	}
	if r.Best == toguz.NoMove {
		return toguz.NoMove, errors.New("the engine found no move")
	}
	return r.Best, nil
}
