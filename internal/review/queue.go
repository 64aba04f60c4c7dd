package review

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// Jobs is the stored queue (internal/store).
type Jobs interface {
	NextReview(ctx context.Context) (store.Review, bool, error)
	FinishReview(ctx context.Context, id, settings string, data []byte, failed bool) error
	ResumeReviews(ctx context.Context) (int, error)
	PendingReviews(ctx context.Context) (int, error)
}

// Games loads a game to review (store.LiveStore).
type Games interface {
	Game(ctx context.Context, id string) (game.Saved, error)
}

// Config configure a Queue.
type Config struct {
	Jobs  Jobs
	Games Games
	// Workers is the number of games reviewed at once, each by a search
	// of one thread; at most the number of CPUs (≤ 0: one).
	Workers int
	// Depth is the search of every ply (0: DefaultDepth).
	Depth int
	// Poll is how often an idle worker looks for a job queued without a
	// Notify (0: one second).
	Poll time.Duration
	// Analyzer returns each worker's analyzer: NewProcess for a server
	// (its searches in a process of their own), nil for NewLocal
	// (in this process, at the lowest priority unless Foreground).
	Analyzer   func() (Analyzer, error)
	Foreground bool
	Logger     *slog.Logger
	// Done, when set, is called after each job with its game and whether
	// it failed (tests wait on it).
	Done func(id string, failed bool)
	// FairPlay, when set, gets the fair-play evidence of every reviewed
	// game an account played (judgeFairPlay), computed by the same worker
	// right after the review with Model (zero: fairplay.Default()).
	FairPlay FairPlayStore
	Model    fairplay.Model
	// Now is the clock of the evidence's time (nil: time.Now).
	Now func() time.Time
}

// Stats are a queue's counters.
type Stats struct {
	Reviewed, Failed int64
	// Delay is the last review's time from its job's queueing to its end.
	Delay time.Duration
}

// Queue runs the review workers until Stop.
type Queue struct {
	cfg    Config
	log    *slog.Logger
	wake   chan struct{}
	cancel context.CancelFunc
	wg     sync.WaitGroup

	reviewed, failed atomic.Int64
	delay            atomic.Int64
}

// Start makes the jobs a stopped server left running pending again and
// starts the workers.
func Start(ctx context.Context, cfg Config) (*Queue, error) {
	cfg.Workers = min(max(cfg.Workers, 1), runtime.NumCPU())
	cfg.Depth = cmp.Or(cfg.Depth, DefaultDepth)
	cfg.Poll = cmp.Or(cfg.Poll, time.Second)
	if cfg.Model == (fairplay.Model{}) {
		cfg.Model = fairplay.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	q := &Queue{cfg: cfg, log: cfg.Logger, wake: make(chan struct{}, cfg.Workers)}
	if q.log == nil {
		q.log = slog.New(slog.DiscardHandler)
	}
	n, err := cfg.Jobs.ResumeReviews(ctx)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		q.log.Info("review jobs resumed", "jobs", n)
	}
	if cfg.Analyzer == nil {
		cfg.Analyzer = func() (Analyzer, error) { return NewLocal(cfg.Foreground) }
	}
	analyzers := make([]Analyzer, cfg.Workers)
	for i := range analyzers {
		if analyzers[i], err = cfg.Analyzer(); err != nil {
			return nil, err
		}
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	q.cancel = cancel
	for _, a := range analyzers {
		q.wg.Go(func() {
			defer a.Close()
			q.work(wctx, a)
		})
	}
	return q, nil
}

// newEngine returns a review engine: full strength, one thread (so that
// its search stays on the background thread), no book (every ply is
// searched), a small hash.
func newEngine() (*engine.Engine, error) {
	opts := engine.DefaultOptions()
	opts.Threads, opts.HashMB, opts.Book = 1, 16, nil
	return engine.New(opts)
}

// Notify wakes an idle worker: a job was queued.
func (q *Queue) Notify() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Stop stops the workers and waits for them; a review in progress is
// left running in the store and resumed at the next Start.
func (q *Queue) Stop() {
	q.cancel()
	q.wg.Wait()
}

// Stats returns the queue's counters.
func (q *Queue) Stats() Stats {
	return Stats{Reviewed: q.reviewed.Load(), Failed: q.failed.Load(), Delay: time.Duration(q.delay.Load())}
}

// Depth is the search of every ply.
func (q *Queue) Depth() int { return q.cfg.Depth }

func (q *Queue) work(ctx context.Context, a Analyzer) {
	t := time.NewTicker(q.cfg.Poll)
	defer t.Stop()
	for {
		for q.next(ctx, a) {
		}
		select {
		case <-ctx.Done():
			return
		case <-q.wake:
		case <-t.C:
		}
	}
}

// next reviews the next pending job, and reports whether there was one.
func (q *Queue) next(ctx context.Context, a Analyzer) bool {
	if ctx.Err() != nil {
		return false
	}
	// A read first: an idle queue costs the one writer nothing.
	if n, err := q.cfg.Jobs.PendingReviews(ctx); err != nil || n == 0 {
		return false
	}
	job, ok, err := q.cfg.Jobs.NextReview(ctx)
	if err != nil {
		if ctx.Err() == nil {
			q.log.Error("review queue", "err", err)
		}
		return false
	}
	if !ok {
		return false
	}
	g, data, err := q.review(ctx, a, job.GameID)
	if ctx.Err() != nil {
		return false // stopped: the job stays running, resumed at the next start
	}
	failed := err != nil
	if failed {
		q.log.Warn("review failed", "game", job.GameID, "err", err)
		data = []byte(err.Error())
	}
	if err := q.cfg.Jobs.FinishReview(ctx, job.GameID, Settings(q.cfg.Depth), data, failed); err != nil {
		q.log.Error("review: store", "game", job.GameID, "err", err)
		return true
	}
	if failed {
		q.failed.Add(1)
	} else {
		q.reviewed.Add(1)
		q.delay.Store(int64(time.Since(job.Queued)))
		if q.cfg.FairPlay != nil {
			if err := q.judgeFairPlay(ctx, a, g, data); err != nil && ctx.Err() == nil {
				q.log.Warn("fair-play evidence failed", "game", job.GameID, "err", err)
			}
		}
	}
	if q.cfg.Done != nil {
		q.cfg.Done(job.GameID, failed)
	}
	return true
}

// review analyses game id and returns the game and its review encoded.
func (q *Queue) review(ctx context.Context, a Analyzer, id string) (game.Saved, []byte, error) {
	g, err := q.cfg.Games.Game(ctx, id)
	if err != nil {
		return g, nil, err
	}
	start, _, err := g.Spec.Start()
	if err != nil {
		return g, nil, err
	}
	if len(g.Moves) > MaxPlies {
		return g, nil, fmt.Errorf("review: %d plies, more than %d", len(g.Moves), MaxPlies)
	}
	moves := make([]toguz.Move, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.Hole
	}
	d, err := a.Analyze(ctx, start, moves, q.cfg.Depth)
	if err != nil {
		return g, nil, err
	}
	b, err := json.Marshal(d)
	return g, b, err
}

func (q *Queue) now() time.Time { return q.cfg.Now() }

// Analyze reviews moves from start with e at depth, the searches at the
// lowest priority of the OS when background is set. The searches give the
// Go scheduler a turn every thousand nodes (enginepool.LiveOptions.Yield): a
// review is never in a hurry, and a live game's goroutine that is ready
// should not wait for the runtime to preempt it.
func Analyze(ctx context.Context, e *engine.Engine, start toguz.Position, moves []toguz.Move, depth int, background bool) (Data, error) {
	var plies []analysis.Ply
	var err error
	run := func() {
		lim := engine.Limits{Depth: depth, Yield: runtime.Gosched}
		plies, err = analysis.Analyze(ctx, e, start, moves, lim, analysis.DefaultThresholds)
	}
	if background {
		engine.InBackground(run)
	} else {
		run()
	}
	if err != nil {
		return Data{}, err
	}
	return Build(start, moves, plies, depth), nil
}

// ErrBusy is the judge's answer when it is judging as many answers as it
// may at once.
var ErrBusy = errors.New("review: the judge is busy")
