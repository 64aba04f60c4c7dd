package review

import (
	"context"
	"errors"
	"fmt"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/engine"
)

// Tolerance is the loss, in stones, under which an exercise's answer is
// as good as the engine's move: the searches of two moves to the same
// depth differ by about that much for moves of equal worth.
const Tolerance = 1.0

// Verdict is the judgement of an answer to an exercise.
type Verdict struct {
	Good bool    // at least as good as the engine's move (within Tolerance)
	Cost float64 // stones the answer loses against the engine's move
	Mark analysis.Mark
	Best toguz.Move // the engine's move
	Line []toguz.Move
}

// Judge searches the answers to the exercises of "learn from your
// mistakes", at most as many at once as it has engines (more are refused
// with ErrBusy, not queued). A search to depth−1 of one position takes
// milliseconds; it runs at the process's own priority, since a thread of
// the lowest priority inside the server's process delays its other work
// on a loaded machine (Process).
type Judge struct {
	engines chan *engine.Engine
	depth   int
}

// NewJudge returns a judge of n engines (at least one) that searches an
// answer's position to depth−1, as the review searched the position before
// it to depth.
func NewJudge(n, depth int) (*Judge, error) {
	j := &Judge{engines: make(chan *engine.Engine, max(n, 1)), depth: max(depth, 2)}
	for range cap(j.engines) {
		e, err := newEngine()
		if err != nil {
			return nil, err
		}
		j.engines <- e
	}
	return j, nil
}

// ErrIllegal is the judge's answer to a move the position does not allow.
var ErrIllegal = errors.New("review: not a legal move")

// Judge judges move m in position p (the position before the mistake of
// ply pl). The engine's move is good and the mistake is not without a
// search; another move is searched, or ErrBusy when every engine is.
func (j *Judge) Judge(ctx context.Context, p toguz.Position, pl Ply, m toguz.Move) (Verdict, error) {
	v := Verdict{Best: pl.Best, Line: pl.Line}
	if len(v.Line) == 0 && pl.Best != toguz.NoMove {
		v.Line = []toguz.Move{pl.Best}
	}
	after, err := p.Play(m)
	if err != nil {
		return v, fmt.Errorf("hole %d: %w", m, ErrIllegal)
	}
	switch m {
	case pl.Best:
		v.Good = true
		return v, nil
	case pl.Move:
		v.Cost, v.Mark = pl.Cost, pl.Mark
		return v, nil
	}
	var e *engine.Engine
	select {
	case e = <-j.engines:
	default:
		return v, ErrBusy
	}
	defer func() { j.engines <- e }()
	var score engine.Score
	e.NewGame()
	score = e.Search(ctx, after, engine.Limits{Depth: j.depth - 1}, nil).Score
	if err := ctx.Err(); err != nil {
		return v, err
	}
	best := pl.BestEval // White's view
	if p.Turn() == toguz.Black {
		best = -best
	}
	v.Cost, v.Mark = analysis.Judge(best, -score, analysis.DefaultThresholds)
	v.Good = v.Cost < Tolerance
	return v, nil
}

// Exercise is one of a player's mistakes or blunders, to be played again.
type Exercise struct {
	Ply    int            // its index in the game, from 0
	Before toguz.Position // the position before it
	Review Ply
}

// Exercises returns the plies of player pl marked a mistake or a blunder,
// in the game's order, with the position before each.
func Exercises(start toguz.Position, d Data, pl toguz.Player) ([]Exercise, error) {
	var out []Exercise
	p := start
	for i, r := range d.Plies {
		if p.Turn() == pl && r.Mark >= analysis.Mistake && !r.Forced {
			out = append(out, Exercise{Ply: i, Before: p, Review: r})
		}
		next, err := p.Play(r.Move)
		if err != nil {
			return nil, fmt.Errorf("review: ply %d: %w", i+1, err)
		}
		p = next
	}
	return out, nil
}
