package engine

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
)

// Info reports one completed iteration (one line of it with MultiPV).
type Info struct {
	Depth, SelDepth, MultiPV int
	Score                    Score
	Nodes                    uint64
	Time                     time.Duration
	PV                       []toguz.Move
}

// Result is the outcome of a search.
type Result struct {
	Best, Ponder toguz.Move
	Score        Score
	Depth        int
	Nodes        uint64
	PV           []toguz.Move
}

// Engine searches positions. Its methods must not be called concurrently;
// one Search uses Options.Threads goroutines.
type Engine struct {
	opts    Options
	tt      *table
	workers []*worker
	rng     *rand.Rand
	// busy is the deferral table of Options.SMPDefer, made when first
	// needed.
	busy *busyTable
}

// New returns an engine with opts.
func New(opts Options) (*Engine, error) {
	e := &Engine{}
	if err := e.SetOptions(opts); err != nil {
		return nil, err
	}
	return e, nil
}

// SetOptions changes the options between searches. A new hash size clears
// the table; a new Seed restarts the random source.
func (e *Engine) SetOptions(opts Options) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if e.tt == nil || opts.HashMB != e.opts.HashMB {
		e.tt = newTable(opts.HashMB)
	}
	if e.rng == nil || opts.Seed != e.opts.Seed {
		e.rng = rand.New(rand.NewPCG(uint64(opts.Seed), 0x746f67757a))
	}
	e.opts = opts
	for len(e.workers) < opts.Threads {
		e.workers = append(e.workers, &worker{id: len(e.workers)})
	}
	e.workers = e.workers[:opts.Threads]
	if opts.Threads > 1 && opts.SMPDefer && e.busy == nil {
		e.busy = new(busyTable)
	}
	// Search sets each position's evaluation (evalFor); until then the
	// workers have the standard game's.
	weights, network := e.evalFor(toguz.Standard())
	for _, w := range e.workers {
		w.opts = &e.opts
		w.tt = e.tt
		w.eval, w.network = weights, network
	}
	return nil
}

// material is the evaluation with LearnedEval off.
var material = eval.Material()

// evalFor returns the evaluation a position under r is searched with: the
// linear weights and the network (nil for none) that the options say.
func (e *Engine) evalFor(r toguz.Rules) (*eval.Weights, *neural.Network) {
	o := &e.opts
	if !o.LearnedEval {
		return material, nil
	}
	if o.Eval != nil {
		return o.Eval, e.network()
	}
	if w, ok := eval.ForRules(r); o.RulesetEval && ok && w != eval.Learned() {
		return w, nil // the network corrects the standard weights only
	}
	return eval.Learned(), e.network()
}

// network returns the network of the options, nil when Neural is off.
func (e *Engine) network() *neural.Network {
	if !e.opts.Neural {
		return nil
	}
	if e.opts.Network != nil {
		return e.opts.Network
	}
	return neural.Embedded()
}

// Options returns the current options.
func (e *Engine) Options() Options { return e.opts }

// NewGame forgets the previous game: it clears the transposition table and
// the move-ordering statistics.
func (e *Engine) NewGame() {
	e.tt.clear()
	for _, w := range e.workers {
		w.history = [2][toguz.MaxHoles + 1]int32{}
		w.killers = [maxPly + 1][2]toguz.Move{}
	}
}

// Search searches p until a limit is reached or ctx is cancelled (that is
// `stop`), and always returns a legal move when p has one. info, if not nil,
// is called after each completed iteration, once per line with MultiPV, from
// the goroutine that called Search.
func (e *Engine) Search(ctx context.Context, p toguz.Position, lim Limits, info func(Info)) Result {
	if p.IsOver() {
		return Result{Score: terminal(&p, 0)}
	}
	if e.opts.Book != nil && !lim.Infinite && e.opts.MultiPV == 1 {
		if m, ok := e.opts.Book.Pick(p, e.rng, book.Varied); ok {
			return Result{Best: m, PV: []toguz.Move{m}}
		}
	}
	multiPV := min(e.opts.MultiPV, p.LegalMoves().Len())
	weak := e.opts.Level < MaxLevel
	if weak {
		// A weaker level searches every root move to a shallow depth and
		// picks among the near-best (see choose).
		lim.Depth = levelDepth(e.opts.Level, lim.Depth)
		multiPV = p.LegalMoves().Len()
	}
	soft, hard := budget(lim, p.Turn())
	sh := &shared{start: time.Now(), hard: hard, nodeLimit: lim.Nodes, yield: lim.Yield}
	workers := e.workers
	if weak {
		workers = workers[:1]
	}
	sh.workers = workers
	if len(workers) > 1 && e.opts.SMPDefer {
		sh.busy = e.busy
	}
	stopWatch := context.AfterFunc(ctx, func() { sh.stop.Store(true) })
	defer stopWatch()
	e.tt.gen++

	weights, network := e.evalFor(p.Rules())
	for _, w := range workers {
		w.eval, w.network = weights, network
		w.start(sh, p)
	}
	var wg sync.WaitGroup
	for _, w := range workers[1:] {
		wg.Go(func() { w.iterate(lim.Depth, 1) })
	}
	main := workers[0]
	main.iterateMain(lim, soft, multiPV, info)
	if lim.Infinite && !sh.stop.Load() {
		// The depth ran out before stop, which an infinite search waits for.
		<-ctx.Done()
	}
	sh.stop.Store(true)
	wg.Wait()
	for _, w := range workers {
		w.reported.Store(w.nodes) // the final counts, whichever worker answers
	}

	answer := main
	if e.opts.SMPVote && multiPV == 1 {
		answer = vote(workers)
	}
	res := answer.result(sh)
	if weak {
		res = e.choose(main, res)
	}
	return res
}

// start prepares w for a search of p.
func (w *worker) start(sh *shared, p toguz.Position) {
	w.sh = sh
	w.nodes = 0
	w.reported.Store(0)
	w.seldepth = 0
	w.stopped = false
	w.completed = 0
	w.perturbing = w.id > 0 && w.opts.SMPOrder
	w.stack[0].pos = p
	w.nroot = 0
	for m := range p.LegalMoves().All() {
		w.root[w.nroot] = rootMove{move: m, score: -infinity}
		w.nroot++
	}
	for i := range w.killers {
		w.killers[i] = [2]toguz.Move{}
	}
}

// iterate is the iterative deepening of a helper thread: it fills the
// shared table until stopped, leaving out the depths that skips says, so
// that the threads do not all search the same tree (smp.go).
func (w *worker) iterate(maxDepth int, multiPV int) {
	for depth := 1; depth < maxPly && (maxDepth == 0 || depth <= maxDepth); depth++ {
		if w.skips(depth) {
			continue
		}
		w.iteration(depth, multiPV)
		if w.stopped {
			return
		}
		w.completed = depth
	}
}

// iterateMain is the iterative deepening of the main thread, which owns the
// limits and the reports.
func (w *worker) iterateMain(lim Limits, soft time.Duration, multiPV int, info func(Info)) {
	sh := w.sh
	for depth := 1; depth < maxPly && (lim.Depth == 0 || depth <= lim.Depth); depth++ {
		w.iteration(depth, multiPV)
		if w.stopped {
			return
		}
		w.completed = depth
		elapsed := time.Since(sh.start)
		if info != nil {
			nodes := w.nodes + sh.totalNodes() - w.reported.Load()
			for i := range multiPV {
				rm := &w.root[i]
				info(Info{
					Depth: depth, SelDepth: w.seldepth, MultiPV: i + 1, Score: rm.score,
					Nodes: nodes, Time: elapsed, PV: append([]toguz.Move(nil), rm.pv[:rm.pvLen]...),
				})
			}
		}
		if lim.Infinite {
			continue
		}
		if soft > 0 && elapsed >= soft*6/10 {
			return
		}
		if w.nroot == 1 && (soft > 0 || lim.Depth == 0 && lim.Nodes == 0) {
			return // an only move needs no thought
		}
		// A proven result found at this depth will not change.
		if s := w.root[0].score; s.IsMate() && s.MatePlies() != 0 && abs(s.MatePlies()) <= depth && multiPV == 1 {
			return
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// aspirationWindow is the first half-width of an aspiration window.
const aspirationWindow = 40

// iteration searches the root to depth, once per MultiPV line.
func (w *worker) iteration(depth, multiPV int) {
	for pvIdx := range min(multiPV, w.nroot) {
		prev := w.root[pvIdx].score
		alpha, beta := -infinity, infinity
		delta := Score(aspirationWindow)
		if w.opts.Aspiration && depth >= 4 && !prev.IsMate() && prev > -infinity {
			alpha, beta = prev-delta, prev+delta
		}
		for {
			s := w.searchRoot(depth, pvIdx, alpha, beta)
			if w.stopped {
				return
			}
			switch {
			case s <= alpha && alpha > -infinity:
				beta = (alpha + beta) / 2
				alpha = max(s-delta, -infinity)
			case s >= beta && beta < infinity:
				beta = min(s+delta, infinity)
			default:
				w.sortRoot(pvIdx)
				goto next
			}
			delta *= 2
		}
	next:
	}
}

// sortRoot orders the root moves from pvIdx on by score, best first; the
// sort is stable so that equal scores keep the earlier, better-searched
// move first.
func (w *worker) sortRoot(pvIdx int) {
	for i := pvIdx + 1; i < w.nroot; i++ {
		for j := i; j > pvIdx && w.root[j].score > w.root[j-1].score; j-- {
			w.root[j], w.root[j-1] = w.root[j-1], w.root[j]
		}
	}
}

// searchRoot searches the root moves from pvIdx on (the earlier ones are
// the lines already reported with MultiPV) and returns the best score.
// Moves that do not beat alpha get score -infinity so that they sort last.
func (w *worker) searchRoot(depth, pvIdx int, alpha, beta Score) Score {
	root := &w.stack[0]
	best := -infinity
	next := &w.stack[1]
	w.nodes++
	for i := pvIdx; i < w.nroot; i++ {
		rm := &w.root[i]
		next.pos = root.pos.After(rm.move)
		var s Score
		if i == pvIdx || !w.opts.PVS {
			s = -w.search(1, depth-1, -beta, -alpha, true)
		} else {
			s = -w.search(1, depth-1, -alpha-1, -alpha, false)
			if s > alpha && s < beta {
				s = -w.search(1, depth-1, -beta, -alpha, true)
			}
		}
		if w.stopped {
			return best
		}
		if s > best {
			best = s
		}
		if s > alpha || i == pvIdx {
			rm.score = s
			rm.pv[0] = rm.move
			rm.pvLen = 1 + copy(rm.pv[1:], w.pv[1][:w.pvLen[1]])
			if s > alpha {
				alpha = s
				// Move the new best line to the front of the remaining moves.
				for j := i; j > pvIdx; j-- {
					w.root[j], w.root[j-1] = w.root[j-1], w.root[j]
				}
			}
			if s >= beta {
				return s
			}
		} else {
			rm.score = -infinity
		}
	}
	return best
}

// result returns the main worker's answer: the best line of the last
// completed iteration, or the first ordered legal move if none completed.
func (w *worker) result(sh *shared) Result {
	w.reported.Store(w.nodes)
	res := Result{Depth: w.completed, Nodes: sh.totalNodes()}
	if w.nroot == 0 {
		return res
	}
	rm := &w.root[0]
	res.Best, res.Score = rm.move, rm.score
	if w.completed == 0 || rm.pvLen == 0 {
		res.Score = 0
		res.PV = []toguz.Move{rm.move}
		return res
	}
	res.PV = append([]toguz.Move(nil), rm.pv[:rm.pvLen]...)
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	return res
}
