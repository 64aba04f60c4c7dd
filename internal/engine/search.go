package engine

import (
	"sync/atomic"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
)

// frame is one ply of a worker's search stack. Children are made into it by
// copy-make (toguz.Position.After), so a node allocates nothing.
type frame struct {
	pos   toguz.Position
	child [toguz.MaxHoles]toguz.Position
	move  [toguz.MaxHoles]toguz.Move
	gain  [toguz.MaxHoles]int32 // stones the move puts into the mover's kazan
	order [toguz.MaxHoles]int32 // move ordering key, highest first
	n     int
}

// rootMove is a legal move at the root with its last score.
type rootMove struct {
	move  toguz.Move
	score Score
	pv    [maxPly]toguz.Move
	pvLen int
}

// shared is the state of one Search call that all workers see.
type shared struct {
	stop      atomic.Bool
	start     time.Time
	hard      time.Duration // 0: none
	nodeLimit uint64        // 0: none
	yield     func()        // Limits.Yield
	workers   []*worker
	// busy, when not nil, is the table of the children being searched
	// (Options.SMPDefer with more than one worker).
	busy *busyTable
}

// totalNodes returns the nodes counted so far by all workers.
func (s *shared) totalNodes() uint64 {
	var n uint64
	for _, w := range s.workers {
		n += w.reported.Load()
	}
	return n
}

// worker is one search thread. Its big arrays are allocated once with the
// Engine and reused by every search.
type worker struct {
	id   int
	opts *Options
	tt   *table
	eval *eval.Weights
	// network, when not nil, corrects eval (Options.Neural).
	network *neural.Network
	sh      *shared
	nodes   uint64
	// reported is nodes as last published for the other threads.
	reported atomic.Uint64
	seldepth int
	stopped  bool
	// perturbing says this helper orders quiet moves its own way
	// (Options.SMPOrder; never the main worker).
	perturbing bool

	stack   [maxPly + 1]frame
	pv      [maxPly + 1][maxPly]toguz.Move
	pvLen   [maxPly + 1]int
	killers [maxPly + 1][2]toguz.Move
	history [2][toguz.MaxHoles + 1]int32

	root  [toguz.MaxHoles]rootMove
	nroot int
	// completed is the depth of the last finished iteration.
	completed int
}

// pollInterval is how many nodes a worker searches between looks at the
// clock, the node limit and the stop flag.
const pollInterval = 1024

func (w *worker) poll() {
	w.reported.Store(w.nodes)
	sh := w.sh
	if sh.yield != nil && w.id == 0 {
		sh.yield()
	}
	if sh.stop.Load() {
		w.stopped = true
		return
	}
	if (sh.hard > 0 && time.Since(sh.start) >= sh.hard) ||
		(sh.nodeLimit > 0 && sh.totalNodes() >= sh.nodeLimit) {
		sh.stop.Store(true)
		w.stopped = true
	}
}

// terminal returns the score of a finished game ply plies from the root.
func terminal(p *toguz.Position, ply int) Score {
	o := p.Outcome()
	switch o.Result {
	case toguz.WinFor(p.Turn()):
		return winIn(ply)
	case toguz.WinFor(p.Turn().Other()):
		return lossIn(ply)
	}
	return 0
}

func (w *worker) evaluate(p *toguz.Position) Score {
	s := w.eval.Evaluate(p)
	if w.network != nil {
		s += w.network.Evaluate(p)
	}
	return clampEval(s)
}

// maxEval bounds static evaluations well inside the proven scores.
const maxEval = 20000

func clampEval(s int32) Score { return Score(min(max(s, -maxEval), maxEval)) }

// evaluateCapture returns the static evaluation and the biggest capture
// (stones, a tuzdik counting 3) the side to move can make.
func (w *worker) evaluateCapture(p *toguz.Position) (Score, int32) {
	s, c := w.eval.EvaluateCapture(p)
	if w.network != nil {
		s += w.network.Evaluate(p)
	}
	return clampEval(s), c
}

// The bands of the move-ordering keys, highest first: the TT move, then
// captures (the biggest gain first: gain<<8 stays below the gap to orderTT
// for any of the 162 stones), then the two killers, then the other quiet
// moves by history, whose scores rewardQuiet keeps at most historyMax plus
// one reward, below orderKiller. Late move reductions spare every band
// above history (lateQuiet); TestMoveOrderBands checks both.
const (
	orderTT      int32 = 1 << 30
	orderCapture int32 = 1 << 28
	orderKiller  int32 = 1 << 27
	historyMax   int32 = 1 << 20
)

// generate makes every child of f.pos and its ordering key.
func (w *worker) generate(f *frame, ply int, ttMove toguz.Move) {
	p := &f.pos
	me := p.Turn()
	k0 := int32(p.Kazan(me))
	n := 0
	for m := range p.LegalMoves().All() {
		c := p.After(m)
		gain := int32(c.Kazan(me)) - k0
		f.child[n], f.move[n], f.gain[n] = c, m, gain
		var key int32
		switch {
		case m == ttMove:
			key = orderTT
		case gain > 0 && w.opts.CaptureSort:
			key = orderCapture + gain<<8
		case w.opts.Killers && m == w.killers[ply][0]:
			key = orderKiller + 1
		case w.opts.Killers && m == w.killers[ply][1]:
			key = orderKiller
		case w.opts.History:
			key = w.history[me][m]
		}
		if w.perturbing && key < orderKiller {
			key += w.perturb(m)
		}
		f.order[n] = key
		n++
	}
	f.n = n
}

// pick moves the best remaining move of f to index i.
func (f *frame) pick(i int) {
	// The best key kept beside its index, so that the comparison is a
	// conditional move, not a branch.
	best, key := i, f.order[i]
	for j := i + 1; j < f.n; j++ {
		if o := f.order[j]; o > key {
			best, key = j, o
		}
	}
	if best != i {
		f.child[i], f.child[best] = f.child[best], f.child[i]
		f.move[i], f.move[best] = f.move[best], f.move[i]
		f.gain[i], f.gain[best] = f.gain[best], f.gain[i]
		f.order[i], f.order[best] = f.order[best], f.order[i]
	}
}

// lateQuiet reports whether the i-th move of f may be reduced by late move
// reductions: a quiet move ordered by history alone, below the TT move,
// the captures and the killers.
func (f *frame) lateQuiet(i int) bool {
	return f.gain[i] == 0 && f.order[i] < orderKiller
}

// lmrReduction is the reduction of the i-th move (from 0) at depth.
func lmrReduction(depth, i int) int {
	switch {
	case depth < 3 || i < 3:
		return 0
	case i < 6 || depth < 6:
		return 1
	}
	return 2
}

// enter counts a node at ply, polls the clock now and then, and reports
// whether the node ends here: the search was stopped (score 0, discarded by
// the caller) or the game is over (its proven score).
func (w *worker) enter(ply int) (score Score, done bool) {
	w.nodes++
	if w.nodes%pollInterval == 0 {
		w.poll()
	}
	if w.stopped {
		return 0, true
	}
	if ply > w.seldepth {
		w.seldepth = ply
	}
	if p := &w.stack[ply].pos; p.IsOver() {
		return terminal(p, ply), true
	}
	return 0, false
}

// search is a fail-soft principal-variation alpha-beta search of
// w.stack[ply].pos to depth plies. It stays one function: it is the
// search's hot loop, where a call more per node costs nodes per second.
func (w *worker) search(ply, depth int, alpha, beta Score, pvNode bool) Score {
	w.pvLen[ply] = 0
	if depth <= 0 {
		return w.quiesce(ply, alpha, beta)
	}
	if score, done := w.enter(ply); done {
		return score
	}
	f := &w.stack[ply]
	p := &f.pos
	if ply >= maxPly-1 {
		return w.evaluate(p)
	}
	// Mate distance pruning: no line from here ends sooner than the next ply.
	alpha = max(alpha, lossIn(ply))
	beta = min(beta, winIn(ply+1))
	if alpha >= beta {
		return alpha
	}
	if tb := w.opts.Tablebase; tb != nil {
		if s, ok := TablebaseScore(tb, p); ok {
			return fromTT(s, ply)
		}
	}

	key := p.Key()
	ttMove := toguz.NoMove
	static, haveStatic := Score(0), false
	if w.opts.TT {
		if d, ok := w.tt.probe(key); ok {
			ttMove = d.move
			s := fromTT(d.score, ply)
			if !pvNode && d.depth >= depth &&
				(d.bound == boundExact || (d.bound == boundLower && s >= beta) || (d.bound == boundUpper && s <= alpha)) {
				return s
			}
			static, haveStatic = d.eval, d.hasEval
		}
	}
	// Reverse futility: far enough above beta near the leaves, a quiet
	// position is taken to hold.
	if w.opts.Futility && !pvNode && depth <= 3 && !beta.IsMate() {
		if !haveStatic {
			static, haveStatic = w.evaluate(p), true
		}
		if static-futilityMargin*Score(depth) >= beta {
			return static
		}
	}

	w.generate(f, ply, ttMove)
	alpha0 := alpha
	best, bestMove := -infinity, toguz.NoMove
	me := p.Turn()
	next := &w.stack[ply+1]
	// With SMPDefer the moves that another worker is searching are put off
	// (deferred holds their indexes) and searched after the others: the
	// loop runs on past f.n through them.
	busy := w.sh.busy
	if depth < deferDepth {
		busy = nil
	}
	var deferred [toguz.MaxHoles]uint8
	nd := 0
	for j := 0; j < f.n+nd; j++ {
		i := j
		if j >= f.n {
			i = int(deferred[j-f.n])
		} else {
			f.pick(i)
		}
		m := f.move[i]
		next.pos = f.child[i]
		var childKey uint64
		if busy != nil {
			childKey = next.pos.Key()
			if j < f.n && i > 0 && busy.searching(childKey) {
				deferred[nd] = uint8(i)
				nd++
				continue
			}
			busy.enter(childKey)
		}
		var s Score
		if i == 0 || !w.opts.PVS {
			s = -w.search(ply+1, depth-1, -beta, -alpha, pvNode)
		} else {
			r := 0
			if w.opts.LMR && f.lateQuiet(i) {
				r = lmrReduction(depth, i)
			}
			s = -w.search(ply+1, depth-1-r, -alpha-1, -alpha, false)
			if s > alpha && r > 0 {
				s = -w.search(ply+1, depth-1, -alpha-1, -alpha, false)
			}
			if s > alpha && s < beta && pvNode {
				s = -w.search(ply+1, depth-1, -beta, -alpha, true)
			}
		}
		if busy != nil {
			busy.leave(childKey)
		}
		if w.stopped {
			return 0
		}
		if s > best {
			best, bestMove = s, m
			if s > alpha {
				alpha = s
				w.updatePV(ply, m)
				if s >= beta {
					if f.gain[i] == 0 {
						w.rewardQuiet(ply, me, m, depth)
					}
					break
				}
			}
		}
	}
	if w.opts.TT {
		bound := uint8(boundUpper)
		switch {
		case best >= beta:
			bound = boundLower
		case best > alpha0:
			bound = boundExact
		}
		if bound == boundUpper {
			bestMove = toguz.NoMove // the best of a fail-low is noise
		}
		w.tt.store(key, ttData{move: bestMove, bound: bound, depth: depth, score: toTT(best, ply), eval: static, hasEval: haveStatic})
	}
	return best
}

// futilityMargin is the reverse futility margin per ply of depth.
const futilityMargin = 150

// rewardQuiet records a quiet move that failed high.
func (w *worker) rewardQuiet(ply int, me toguz.Player, m toguz.Move, depth int) {
	if w.opts.Killers && w.killers[ply][0] != m {
		w.killers[ply][1] = w.killers[ply][0]
		w.killers[ply][0] = m
	}
	if w.opts.History {
		h := &w.history[me][m]
		*h += int32(depth * depth)
		if *h > historyMax {
			for pl := range w.history {
				for j := range w.history[pl] {
					w.history[pl][j] /= 2
				}
			}
		}
	}
}

// updatePV makes m followed by the child's PV the PV of ply.
func (w *worker) updatePV(ply int, m toguz.Move) {
	w.pv[ply][0] = m
	n := copy(w.pv[ply][1:], w.pv[ply+1][:w.pvLen[ply+1]])
	w.pvLen[ply] = n + 1
}

// quiesce searches only the moves that capture until the position is
// quiet, standing pat on the static evaluation.
func (w *worker) quiesce(ply int, alpha, beta Score) Score {
	w.pvLen[ply] = 0
	if score, done := w.enter(ply); done {
		return score
	}
	f := &w.stack[ply]
	p := &f.pos
	stand, capture := w.evaluateCapture(p)
	if !w.opts.Quiescence || ply >= maxPly-1 || stand >= beta {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	// No capture, or none big enough to reach alpha: the position is quiet.
	if capture == 0 || stand+Score(capture)*100+deltaMargin <= alpha {
		return best
	}
	me := p.Turn()
	k0 := int32(p.Kazan(me))
	n := 0
	for m := range p.LegalMoves().All() {
		c := p.After(m)
		gain := int32(c.Kazan(me)) - k0
		// Delta pruning: a capture that cannot lift the score to alpha is skipped.
		if gain <= 0 || stand+Score(gain)*100+deltaMargin <= alpha {
			continue
		}
		f.child[n], f.move[n], f.gain[n], f.order[n] = c, m, gain, gain
		n++
	}
	f.n = n
	next := &w.stack[ply+1]
	for i := range n {
		f.pick(i)
		next.pos = f.child[i]
		s := -w.quiesce(ply+1, -beta, -alpha)
		if w.stopped {
			return 0
		}
		if s > best {
			best = s
			if s > alpha {
				alpha = s
				w.updatePV(ply, f.move[i])
				if s >= beta {
					break
				}
			}
		}
	}
	return best
}

// deltaMargin is what a quiet position may gain beyond a capture.
const deltaMargin = 200
