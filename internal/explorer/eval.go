package explorer

import (
	"context"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/engine"
)

// evalBudget bounds the time one request spends searching values it has
// not cached; the moves left get none (shown as a dash).
const evalBudget = 150 * time.Millisecond

// evalDepth and evalTime bound one search: a quick, stable value, not
// analysis.
const (
	evalDepth    = 8
	evalTime     = 40 * time.Millisecond
	evalCacheMax = 50_000
)

// evaluator gives the value of a position after a move: the opening book's
// (its engine check, depth 8) or a short search, cached. One search at a
// time: a request that finds the engine busy leaves the value out rather
// than wait.
type evaluator struct {
	book *book.Book
	mu   sync.Mutex // guards eng
	// eng is made at the first search: a server whose explorer is never
	// asked keeps no hash table.
	eng  *engine.Engine
	fail bool // the engine could not be made

	cmu   sync.Mutex
	cache map[uint64]int // key of the position after the move → value for White
}

func newEvaluator(bk *book.Book) *evaluator {
	return &evaluator{book: bk, cache: map[uint64]int{}}
}

// forWhite turns v, a value for mover, into White's.
func forWhite(v int, mover toguz.Player) int {
	if mover == toguz.Black {
		return -v
	}
	return v
}

// value returns the value for White of p after m, and where it came from.
func (e *evaluator) value(ctx context.Context, p toguz.Position, m toguz.Move) (int, string, bool) {
	if e.book != nil {
		for _, en := range e.book.Moves(p) {
			if en.Move == m && en.Eval != book.NoEval {
				return forWhite(int(en.Eval), p.Turn()), "book", true
			}
		}
	}
	after := p.After(m)
	k := after.Key()
	e.cmu.Lock()
	v, ok := e.cache[k]
	e.cmu.Unlock()
	if ok {
		return v, "search", true
	}
	if v, ok = e.search(ctx, after); !ok {
		return 0, "", false
	}
	e.cmu.Lock()
	if len(e.cache) >= evalCacheMax {
		clear(e.cache) // bounded: a full cache starts again
	}
	e.cache[k] = v
	e.cmu.Unlock()
	return v, "search", true
}

// search returns the value for White of after by a short search; false
// when the engine is busy or missing, or found no value in time.
func (e *evaluator) search(ctx context.Context, after toguz.Position) (int, bool) {
	if after.IsOver() || ctx.Err() != nil || !e.mu.TryLock() {
		return 0, false
	}
	if e.eng == nil && !e.fail {
		o := engine.DefaultOptions()
		o.HashMB = 8
		var err error
		e.eng, err = engine.New(o)
		e.fail = err != nil
	}
	if e.eng == nil {
		e.mu.Unlock()
		return 0, false
	}
	res := e.eng.Search(ctx, after, engine.Limits{Depth: evalDepth, MoveTime: evalTime}, nil)
	e.mu.Unlock()
	if ctx.Err() != nil || res.Depth == 0 || res.Score.IsMate() {
		return 0, false
	}
	// The search's score is for the player to move after m.
	return forWhite(int(res.Score), after.Turn()), true
}
