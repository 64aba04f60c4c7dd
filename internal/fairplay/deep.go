package fairplay

import (
	"context"
	"runtime"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/engine"
)

// DeepSearcher finds the deeper evidence of games the site has not
// reviewed (the record files, the simulated games) as the review finds it:
// one search of every position at DeepDepth by an engine of the review's
// options (one thread, 16 MB of hash, no book), its hash cleared at the
// start of each game. It is not safe for concurrent use.
type DeepSearcher struct {
	eng *engine.Engine
}

// NewDeepSearcher returns a searcher with its own engine.
func NewDeepSearcher() (*DeepSearcher, error) {
	opts := engine.DefaultOptions()
	opts.Threads, opts.HashMB, opts.Book = 1, 16, nil
	e, err := engine.New(opts)
	if err != nil {
		return nil, err
	}
	return &DeepSearcher{eng: e}, nil
}

// Best returns the best move of every ply's position of moves from start
// at DeepDepth.
func (d *DeepSearcher) Best(ctx context.Context, start toguz.Position, moves []toguz.Move) ([]toguz.Move, error) {
	plies, err := analysis.Analyze(ctx, d.eng, start, moves, engine.Limits{Depth: DeepDepth, Yield: runtime.Gosched}, analysis.DefaultThresholds)
	if err != nil {
		return nil, err
	}
	out := make([]toguz.Move, len(plies))
	for i, p := range plies {
		out[i] = p.Best
	}
	return out, nil
}

// Deepen sets the deeper evidence of ev, the evidence of moves from start.
func (d *DeepSearcher) Deepen(ctx context.Context, start toguz.Position, ev []Move) error {
	moves := make([]toguz.Move, len(ev))
	for i, m := range ev {
		moves[i] = m.Played
	}
	best, err := d.Best(ctx, start, moves)
	if err != nil {
		return err
	}
	SetDeep(ev, best)
	return nil
}

// SetDeep sets each judged move's deeper evidence from best, the deeper
// search's best move of each ply's position (NoMove where none).
func SetDeep(ev []Move, best []toguz.Move) {
	for i := range ev {
		if i < len(best) && best[i] != toguz.NoMove {
			ev[i].SetDeep(best[i])
		}
	}
}
