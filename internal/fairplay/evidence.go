package fairplay

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/engine"
)

// Depth is the fixed budget of the evidence: every legal move of every
// position is searched to this depth (MultiPV over all moves), the same for
// every game and player so that the model's expectations apply. At depth 6
// a game of 100 plies costs about 0.15 s on one core
// (BenchmarkEvidence; docs/fairplay.md).
const Depth = 6

// BookPlies are the first plies of a game that are never judged, book or
// not: the openings everybody knows by heart say nothing about help.
const BookPlies = 8

// MaxLoss caps the stones a move may lose in the model: past a lost
// capture more stones say nothing more about who chose the move, and a
// proven loss is not infinitely many stones.
const MaxLoss = 20.0

// Move is the evidence about one move of a game.
type Move struct {
	Ply    int          `json:"ply"` // 0-based ply of the game
	Mover  toguz.Player `json:"mover"`
	Played toguz.Move   `json:"played"`
	// Losses are the stones each legal move loses against the best (0 for
	// the best and any move as good), capped at MaxLoss, best first; the
	// played move's is Losses[Rank].
	Losses []float64 `json:"losses"`
	Rank   int       `json:"rank"` // the played move's place in Losses
	// Forced: the mover had one legal move, or one that does not lose by
	// force. Book: the move was within BookPlies or a book move of the
	// position. Neither is judged.
	Forced bool `json:"forced,omitempty"`
	Book   bool `json:"book,omitempty"`
	// Time is the time the mover spent, where the record has clocks
	// (0: unknown).
	Time time.Duration `json:"time,omitempty"`
	// Order is the legal moves in the order of Losses (best first), so that
	// a deeper search's choice can be placed among them (SetDeep).
	Order []toguz.Move `json:"order,omitempty"`
	// Deep is the best move of the deeper search of the position at
	// DeepDepth (the review's search of every ply), NoMove where unknown;
	// DeepRank is its place in Losses (the first of the moves as good as
	// it by the evidence's search).
	Deep     toguz.Move `json:"deep,omitempty"`
	DeepRank int        `json:"deepRank,omitempty"`
}

// DeepDepth is the depth of the second, deeper evidence: the best move of
// the review's search of every ply (review.DefaultDepth), which the site
// runs anyway. An engine that searches deeper than Depth often prefers
// what Depth ranks second or third; the deeper search sees those choices
// as its own.
const DeepDepth = 10

// SetDeep records best, the deeper search's best move of the position,
// where it is one of the judged move's legal moves.
func (m *Move) SetDeep(best toguz.Move) {
	i := slices.Index(m.Order, best)
	if !m.Judged() || i < 0 || len(m.Order) != len(m.Losses) {
		return
	}
	m.Deep, m.DeepRank = best, slices.Index(m.Losses, m.Losses[i])
}

// HasDeep reports whether the move has the deeper search's best move.
func (m Move) HasDeep() bool { return m.Deep != toguz.NoMove }

// DeepAgree reports whether the played move is the deeper search's best.
func (m Move) DeepAgree() bool { return m.HasDeep() && m.Played == m.Deep }

// Judged reports whether the move counts in the evidence.
func (m Move) Judged() bool { return !m.Forced && !m.Book && len(m.Losses) > 1 }

// Loss is the stones the played move lost against the best, capped.
func (m Move) Loss() float64 { return m.Losses[m.Rank] }

// Top1 reports whether the played move was as good as the engine's first.
func (m Move) Top1() bool { return m.Loss() == 0 }

// Top3 reports whether the played move was among the engine's first three
// (ties with the third counted in).
func (m Move) Top3() bool { return m.Loss() <= m.Losses[min(2, len(m.Losses)-1)] }

// Difficulty is how many legal moves keep the evaluation within one stone
// of the best: 1 is a position with one good move, more is easier to play
// well (the model weighs every alternative; this is for people reading the
// evidence).
func (m Move) Difficulty() int {
	n := 0
	for _, l := range m.Losses {
		if l <= 1 {
			n++
		}
	}
	return n
}

// Analyzer searches the positions of games for their evidence. It is not
// safe for concurrent use.
type Analyzer struct {
	eng   *engine.Engine
	books *book.Set
}

// NewAnalyzer returns an analyzer with its own engine: full strength, one
// thread, no book (the book is looked up apart), every line reported.
func NewAnalyzer() (*Analyzer, error) {
	opts := engine.DefaultOptions()
	opts.Threads, opts.HashMB, opts.Book, opts.MultiPV = 1, 16, nil, engine.MaxMultiPV
	e, err := engine.New(opts)
	if err != nil {
		return nil, err
	}
	books, err := book.DefaultSet()
	if err != nil {
		return nil, err
	}
	return &Analyzer{eng: e, books: books}, nil
}

// ErrMoves is wrapped by Analyze's error for moves the rules refuse.
var ErrMoves = errors.New("fairplay: illegal move")

// Analyze returns the evidence about every ply of moves from start; times,
// when not nil, gives each ply's time (0 where unknown). It returns ctx's
// error when cancelled.
func (a *Analyzer) Analyze(ctx context.Context, start toguz.Position, moves []toguz.Move, times []time.Duration) ([]Move, error) {
	a.eng.NewGame()
	out := make([]Move, 0, len(moves))
	p := start
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !p.LegalMoves().Has(m) {
			return nil, fmt.Errorf("%w: ply %d, hole %d", ErrMoves, i+1, m)
		}
		mv := Move{Ply: i, Mover: p.Turn(), Played: m}
		if i < len(times) {
			mv.Time = times[i]
		}
		mv.Book = i < BookPlies || a.inBook(p, m)
		if p.LegalMoves().Len() == 1 {
			mv.Forced = true
		} else if !mv.Book {
			a.judge(ctx, p, &mv)
		}
		out = append(out, mv)
		p = p.After(m)
	}
	return out, ctx.Err()
}

func (a *Analyzer) inBook(p toguz.Position, m toguz.Move) bool {
	for _, e := range a.books.Moves(p) {
		if e.Move == m {
			return true
		}
	}
	return false
}

// judge searches every legal move of p to Depth and fills mv's losses,
// rank and forced.
func (a *Analyzer) judge(ctx context.Context, p toguz.Position, mv *Move) {
	moves, losses, forced := a.Lines(ctx, p)
	if moves == nil {
		return // cancelled: the caller sees ctx's error
	}
	mv.Losses, mv.Forced, mv.Order = losses, mv.Forced || forced, moves
	// The rank of the played move: the first of the moves as good as it,
	// so that a move tied with the best counts as the best.
	i := slices.Index(moves, mv.Played)
	mv.Rank = slices.Index(losses, losses[i])
}

// Lines searches every legal move of p to Depth and returns them best
// first with the stones each loses against the best (capped at MaxLoss),
// and whether the choice is forced: only one move does not lose by force,
// or every move does. Nil when ctx was cancelled.
func (a *Analyzer) Lines(ctx context.Context, p toguz.Position) (moves []toguz.Move, losses []float64, forced bool) {
	n := p.LegalMoves().Len()
	scores := make(map[toguz.Move]engine.Score, n)
	a.eng.Search(ctx, p, engine.Limits{Depth: Depth, Yield: runtime.Gosched}, func(in engine.Info) {
		if in.Depth == Depth && len(in.PV) > 0 {
			scores[in.PV[0]] = in.Score
		}
	})
	if len(scores) < n {
		if n == 1 {
			return []toguz.Move{p.LegalMoves().First()}, []float64{0}, true
		}
		return nil, nil, false
	}
	moves = make([]toguz.Move, 0, n)
	for m := range scores {
		moves = append(moves, m)
	}
	slices.SortFunc(moves, func(x, y toguz.Move) int {
		if c := int(scores[y] - scores[x]); c != 0 {
			return c
		}
		return int(x) - int(y)
	})
	best := scores[moves[0]]
	losses = make([]float64, n)
	notLosing := 0
	for i, m := range moves {
		s := scores[m]
		losses[i] = min(max(stones(best)-stones(s), 0), MaxLoss)
		if !(s.IsMate() && s < 0) {
			notLosing++
		}
	}
	forced = n == 1 || notLosing == 1 && !(best.IsMate() && best > 0) || best.IsMate() && best < 0
	return moves, losses, forced
}

// stones returns a score in stones, a proven result as ±100.
func stones(s engine.Score) float64 {
	switch {
	case s.IsMate() && s > 0:
		return 100
	case s.IsMate():
		return -100
	}
	return float64(s) / 100
}
