package enginepool

import (
	"context"
	"errors"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// AnalysisPool runs the analyses the server makes for its users (the
// fallback of the browser's engine) on engines of its own: an analysis
// never takes one of a LivePlayer's engines, so a live game's move never
// waits behind one, and on Linux it may search at the lowest priority of
// the OS, below the live games' searches and the server. The analyses wait
// for an engine in turns across users (scheduler.go), so that one user's
// many requests cannot starve another's.
type AnalysisPool struct {
	sched *scheduler
	o     AnalysisOptions
}

// AnalysisOptions configure an AnalysisPool.
type AnalysisOptions struct {
	Searchers int // engines (at least one)
	HashMB    int // hash of each engine (0: 16)
	// Background runs the searches at the lowest priority
	// (LiveOptions.Background).
	Background bool
	// Yield is the searches' Limits.Yield where the caller's Limits have
	// none (LiveOptions.Yield).
	Yield func()
	// Wait bounds the wait for an engine (0: none but the context's):
	// beyond it Analyse answers ErrAnalysisBusy.
	Wait time.Duration
	// Tablebase is the engines' endgame tables (Options.Tablebase; nil:
	// none).
	Tablebase engine.Tablebase
}

// ErrAnalysisBusy is Analyse's answer when no engine came free within
// AnalysisOptions.Wait.
var ErrAnalysisBusy = errors.New("engine: every analysis engine is busy")

// NewAnalysisPool returns a pool set up by o.
func NewAnalysisPool(o AnalysisOptions) (*AnalysisPool, error) {
	o.Searchers = max(o.Searchers, 1)
	if o.HashMB == 0 {
		o.HashMB = 16
	}
	engines := make([]*engine.Engine, 0, o.Searchers)
	for range o.Searchers {
		opts := engine.DefaultOptions()
		opts.HashMB = o.HashMB
		opts.Tablebase = o.Tablebase
		e, err := engine.New(opts)
		if err != nil {
			return nil, err
		}
		engines = append(engines, e)
	}
	return &AnalysisPool{sched: newScheduler(engines), o: o}, nil
}

// Analyse searches p with multiPV lines within lim for user, once an engine
// is free and it is user's turn; it returns ctx's error if ctx ends while
// it waits, ErrAnalysisBusy after AnalysisOptions.Wait. A ctx that ends
// during the search stops it, with the best line so far. lim must bound the search (a depth or a time): the pool does
// not.
func (ap *AnalysisPool) Analyse(ctx context.Context, user string, p toguz.Position, multiPV int, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	wctx := ctx
	if ap.o.Wait > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, ap.o.Wait)
		defer cancel()
	}
	e, err := ap.sched.acquire(wctx, user)
	if err != nil {
		if ctx.Err() == nil {
			return engine.Result{}, ErrAnalysisBusy
		}
		return engine.Result{}, err
	}
	defer ap.sched.release(user, e)
	opts := e.Options()
	opts.MultiPV = multiPV
	if err := e.SetOptions(opts); err != nil {
		return engine.Result{}, err
	}
	// A new game each time: one user's analysis leaves nothing in the
	// table for the next user's.
	e.NewGame()
	if lim.Yield == nil {
		lim.Yield = ap.o.Yield
	}
	var res engine.Result
	search := func() { res = e.Search(ctx, p, lim, info) }
	if ap.o.Background {
		engine.InBackground(search)
	} else {
		search()
	}
	return res, nil
}

// Waiting returns the number of analyses waiting for an engine.
func (ap *AnalysisPool) Waiting() int { return ap.sched.waiting() }
