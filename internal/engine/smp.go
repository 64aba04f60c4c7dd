package engine

import (
	"sync/atomic"

	"github.com/toguz/toguz"
)

// Lazy SMP: the workers search the same root and share the transposition
// table, which is what makes the helpers useful: their entries give the
// main worker cutoffs and moves. What keeps them from all searching the same
// tree, each switchable (Options.SMPSkip, SMPOrder, SMPDefer, SMPVote):
//   - depth skipping: helper i searches only the depths its row of the skip
//     tables allows, so the helpers spread over several depths;
//   - quiet move order: each helper tries the quiet moves in its own
//     rotation of the holes;
//   - deferral: a move that another worker is searching at a deep enough
//     node is put off until the node's other moves are searched;
//   - the vote: the answer is the line of the worker that completed the
//     deepest iteration.
//
// History and killers are each worker's own; the stop flag is shared.

// The skip tables of Stockfish (search.cpp, 2014–2020): helper i (from 1)
// uses row (i-1) mod 20 and skips depth d when ((d+phase)/size) is odd.
var (
	skipSize  = [20]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	skipPhase = [20]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
)

// skips reports whether helper w leaves out the iteration of depth.
func (w *worker) skips(depth int) bool {
	if w.id == 0 {
		return false
	}
	if !w.opts.SMPSkip {
		return depth == 1 && w.id%2 == 1 // odd helpers one ply ahead
	}
	i := (w.id - 1) % len(skipSize)
	return (depth+skipPhase[i])/skipSize[i]%2 != 0
}

// deferDepth is the least remaining depth at which SMPDefer marks and
// defers moves: below it a subtree is too small to be worth the bookkeeping.
const deferDepth = 3

// busySets × busyWays entries (1 MiB) hold the child positions being
// searched; a full set overwrites its first way, which only loses a hint.
const (
	busySets = 1 << 15
	busyWays = 4
)

// busyTable is the ABDADA-like record of the positions (the key of the
// child a move makes) that some worker is searching now.
type busyTable struct {
	sets [busySets][busyWays]atomic.Uint64
}

func (b *busyTable) set(key uint64) *[busyWays]atomic.Uint64 {
	return &b.sets[key&(busySets-1)]
}

// searching reports whether a worker is searching key now.
func (b *busyTable) searching(key uint64) bool {
	s := b.set(key)
	for i := range s {
		if s[i].Load() == key {
			return true
		}
	}
	return false
}

// enter records that a worker starts searching key.
func (b *busyTable) enter(key uint64) {
	s := b.set(key)
	for i := range s {
		switch s[i].Load() {
		case key:
			return
		case 0:
			if s[i].CompareAndSwap(0, key) {
				return
			}
		}
	}
	s[0].Store(key)
}

// leave records that the search of key is over (for every worker: a
// second worker on the same child loses only the hint).
func (b *busyTable) leave(key uint64) {
	s := b.set(key)
	for i := range s {
		s[i].CompareAndSwap(key, 0)
	}
}

// perturb returns a helper's ordering key of a quiet move m (SMPOrder): a
// rotation of the holes that differs between helpers, within the history
// band's lowest values so that history and killers still come first.
func (w *worker) perturb(m toguz.Move) int32 {
	return int32((int(m) + w.id) % (toguz.MaxHoles + 1))
}

// vote returns the worker whose answer the search gives (SMPVote): the one
// that completed the deepest iteration, the main worker on ties.
func vote(workers []*worker) *worker {
	best := workers[0]
	for _, w := range workers[1:] {
		if w.completed > best.completed && w.nroot > 0 && w.root[0].pvLen > 0 {
			best = w
		}
	}
	return best
}
