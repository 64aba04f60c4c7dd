// Package analysis annotates game records with an engine: the evaluation
// after every ply, the engine's best move, and marks for inaccuracies,
// mistakes and blunders.
//
// # How a ply is judged
//
// Every position of the game is searched once, with the same limits. For
// ply i, from the mover's view, v(i) is the score of the position before it
// and −v(i+1) the score after it, so the ply cost v(i) + v(i+1) (never less
// than 0; the best move costs nothing). A cost of at least
// Thresholds.Inaccuracy stones is an inaccuracy (?!), Thresholds.Mistake a
// mistake (?), Thresholds.Blunder a blunder (??). Throwing away a proven win,
// or walking into a proven loss from a position that was not lost, is always
// a blunder. The defaults are 3, 6 and 12 stones: a capture is worth 10 or
// more stones in the middle game, so 12 stones is a lost capture and more.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// Thresholds are the costs, in stones, that mark a ply.
type Thresholds struct {
	Inaccuracy, Mistake, Blunder float64
}

// DefaultThresholds are the thresholds of the package documentation.
var DefaultThresholds = Thresholds{Inaccuracy: 3, Mistake: 6, Blunder: 12}

// Mark is the judgement of a ply.
type Mark uint8

const (
	Good Mark = iota
	Inaccuracy
	Mistake
	Blunder
)

func (m Mark) String() string {
	return [...]string{"", "inaccuracy", "mistake", "blunder"}[m]
}

// Symbol is the mark's annotation symbol: ?!, ? or ??.
func (m Mark) Symbol() string {
	return [...]string{"", "?!", "?", "??"}[m]
}

// Ply is the analysis of one ply.
type Ply struct {
	Before    engine.Score // the mover's view of the position before the ply
	After     engine.Score // White's view of the position after it
	Best      toguz.Move   // the engine's choice in the position before the ply
	BestScore engine.Score // White's view of the best move (Before, seen from White)
	// Line is the engine's principal variation from the position before
	// the ply, Best first (as far as the search saw it).
	Line   []toguz.Move
	Forced bool    // the mover had one legal move: the ply counts for no accuracy
	Cost   float64 // in stones, 0 for the best move
	Mark   Mark
	// End is how the rules end the game after the ply (Termination
	// Unterminated while it goes on).
	End toguz.Outcome
}

// ErrUnboundedLimits is returned by Analyze for limits that would let a
// search run until cancelled: no depth, nodes, move time or clock.
var ErrUnboundedLimits = errors.New("limits without a depth, nodes, move time or clock: the search would never end")

// Analyze searches every position of the moves from start with lim and
// judges each ply. It returns ctx's error if cancelled, and
// ErrUnboundedLimits for limits that never stop a search by themselves.
func Analyze(ctx context.Context, eng *engine.Engine, start toguz.Position, moves []toguz.Move, lim engine.Limits, th Thresholds) ([]Ply, error) {
	if !bounded(lim) {
		return nil, fmt.Errorf("analysis: %+v: %w", lim, ErrUnboundedLimits)
	}
	ps := make([]toguz.Position, 1, len(moves)+1)
	ps[0] = start
	for i, m := range moves {
		next, err := ps[i].Play(m)
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
		ps = append(ps, next)
	}
	eng.NewGame()
	// v[i]: the score of position i from its mover's view, and the best move.
	v := make([]engine.Score, len(ps))
	best := make([]toguz.Move, len(ps))
	lines := make([][]toguz.Move, len(ps))
	for i, p := range ps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if p.IsOver() {
			v[i] = terminal(p)
			continue
		}
		r := eng.Search(ctx, p, lim, nil)
		v[i], best[i], lines[i] = r.Score, r.Best, r.PV
		if len(r.PV) == 0 || r.PV[0] != r.Best {
			lines[i] = []toguz.Move{r.Best} // a book or tablebase answer has no line
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]Ply, len(moves))
	for i := range moves {
		after := -v[i+1] // mover's view
		white, bestWhite := after, v[i]
		if ps[i].Turn() == toguz.Black {
			white, bestWhite = -after, -v[i]
		}
		pl := Ply{Before: v[i], After: white, Best: best[i], BestScore: bestWhite, Line: lines[i],
			Forced: ps[i].LegalMoves().Len() == 1, End: ps[i+1].Outcome()}
		pl.Cost, pl.Mark = judge(v[i], after, moves[i] == best[i], th)
		out[i] = pl
	}
	return out, nil
}

// bounded reports whether lim stops a search without ctx being cancelled.
func bounded(lim engine.Limits) bool {
	if lim.Infinite {
		return false
	}
	return lim.Depth > 0 || lim.Nodes > 0 || lim.MoveTime > 0 ||
		lim.Time[0] > 0 || lim.Time[1] > 0 || lim.Inc[0] > 0 || lim.Inc[1] > 0
}

// terminal returns the score of a finished game from the mover's view: a
// proven win or loss now, or 0 for a draw.
func terminal(p toguz.Position) engine.Score {
	o := p.Outcome()
	switch o.Result {
	case toguz.WinFor(p.Turn()):
		return engine.MateScore
	case toguz.WinFor(p.Turn().Other()):
		return -engine.MateScore
	}
	return 0
}

// Judge returns the cost in stones and the mark of a move whose position
// scores after (the mover's view) where the best move scores before: the
// judgement of every ply of Analyze, for a move searched apart (the
// exercises of the game review).
func Judge(before, after engine.Score, th Thresholds) (float64, Mark) {
	return judge(before, after, false, th)
}

// judge returns the cost of a ply in stones and its mark, from the scores
// before (best play) and after (the ply played), both the mover's view.
func judge(before, after engine.Score, isBest bool, th Thresholds) (float64, Mark) {
	if isBest {
		return 0, Good
	}
	wonBefore := before.IsMate() && before > 0
	wonAfter := after.IsMate() && after > 0
	lostBefore := before.IsMate() && before < 0
	lostAfter := after.IsMate() && after < 0
	switch {
	case wonBefore && !wonAfter, !lostBefore && lostAfter:
		return stones(before) - stones(after), Blunder
	case before.IsMate() || after.IsMate():
		return 0, Good // a longer road to the same proven end
	}
	cost := max(stones(before)-stones(after), 0)
	switch {
	case cost >= th.Blunder:
		return cost, Blunder
	case cost >= th.Mistake:
		return cost, Mistake
	case cost >= th.Inaccuracy:
		return cost, Inaccuracy
	}
	return cost, Good
}

// stones returns a score in stones; a proven result counts as 100 stones.
func stones(s engine.Score) float64 {
	switch {
	case s.IsMate() && s > 0:
		return 100
	case s.IsMate():
		return -100
	}
	return float64(s) / 100
}

// Comment returns the annotation of a ply: White's evaluation after it (or
// how the game ended), and, when the ply cost something, the mark with its
// cost and the engine's move with its evaluation (White's view too).
func (p Ply) Comment() string {
	var b strings.Builder
	if p.End.Termination != toguz.Unterminated {
		fmt.Fprintf(&b, "%s by %s, %d–%d", p.End.Result, p.End.Termination, p.End.Score[0], p.End.Score[1])
	} else {
		b.WriteString(p.After.String())
	}
	if p.Mark != Good {
		fmt.Fprintf(&b, " %s %s, %.1f stones", p.Mark.Symbol(), p.Mark, p.Cost)
	}
	if p.Best != toguz.NoMove && p.Cost > 0 {
		fmt.Fprintf(&b, "; best %d (%s)", p.Best, p.BestScore)
	}
	return b.String()
}

// Summary counts the marks of each player: Summary()[pl][mark].
func Summary(start toguz.Position, plies []Ply) [2][4]int {
	var n [2][4]int
	turn := start.Turn()
	for _, p := range plies {
		n[turn][p.Mark]++
		turn = turn.Other()
	}
	return n
}
