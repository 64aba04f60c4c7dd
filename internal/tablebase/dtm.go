package tablebase

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"
)

// The distance table gives, for each position of up to dtmStones stones and
// each split of the kazans where the game is not over, the plies to the end
// under best play: the winner ends the game as soon as he can, the loser
// holds out as long as he can. With k stones on the board the mover needs
// r = win − kazan ∈ 1..k+1 more stones (the opponent then needs k+2−r), so
// position i of layer k has k+1 bytes, byte r−1 for need r. A draw stores 0;
// whether a distance is a win or a loss comes from the value table.

// dtmLayout places the distances: dtmOff[k] is where layer k starts.
type dtmLayout struct {
	stones int // −1: no distances
	off    [maxLayers + 2]int64
}

func newDTMLayout(lay *layout, stones int) dtmLayout {
	d := dtmLayout{stones: stones}
	for k := 0; k <= stones; k++ {
		d.off[k+1] = d.off[k] + int64(k+1)*(lay.end(k)-lay.start(k))
	}
	return d
}

func (d *dtmLayout) size() int64 { return d.off[d.stones+1] }

// slot returns the byte of the distance of the position at table index i,
// with k stones, when its mover needs r stones.
func (t *Tables) slot(i int64, k, r int) int64 {
	return t.dtm.off[k] + (i-t.lay.off[k][0])*int64(k+1) + int64(r-1)
}

// dtw returns the plies to the end of the position at table index i, with k
// stones, when its mover needs r ≤ a(i) stones and wins; dtl the same when
// his opponent needs r ≤ d(i) and wins.
func (t *Tables) dtw(i int64, k, r int) int { return int(t.dist[t.slot(i, k, r)]) }
func (t *Tables) dtl(i int64, k, r int) int { return int(t.dist[t.slot(i, k, k+2-r)]) }

// maxDistance is the largest distance a byte holds; a longer one makes
// generation fail rather than store a wrong value.
const maxDistance = 255

// solveDistanceLayer computes the distances of layer k of t, whose values
// and the distances below must be solved. For each layer k and each need r, the positions
// where the mover can collect r (a ≥ r) and those where his opponent can
// (d ≥ r) are solved together, in increasing distance (a bucket queue, as
// in Dijkstra's algorithm): moves leaving the layer give their distance
// from the layers below; a winning position takes the smallest distance
// among its winning moves, and a losing one the largest among all its
// moves, once every quiet move's result is known, found by unplaying moves.
func solveDistanceLayer(ctx context.Context, t *Tables, k, workers int, progress Progress) error {
	n := t.lay.end(k) - t.lay.start(k)
	s := &distSolver{t: t, k: k, lo: t.lay.start(k), n: n,
		win: make([]uint16, n), loss: make([]uint16, n), quiet: make([]byte, n)}
	for r := 1; r <= k; r++ {
		if err := s.solve(ctx, r, workers); err != nil {
			return err
		}
		if progress != nil {
			progress("distances", k, int64(r), int64(k))
		}
	}
	return nil
}

// distSolver solves the distances of layer k for one need r at a time.
type distSolver struct {
	t     *Tables
	k     int
	lo, n int64
	// win[i] is the best distance found so far for position i when its
	// mover wins (a ≥ r), done when doneBit is set; loss[i] the largest
	// found so far when he loses (d ≥ r), done when quiet[i] reaches 0.
	win, loss []uint16
	quiet     []byte
}

const (
	noDistance uint16 = 0x7fff
	doneBit    uint16 = 0x8000
)

func (s *distSolver) value(i int64) (a, d int) { return s.t.value(s.lo + i) }

func (s *distSolver) solve(ctx context.Context, r, workers int) error {
	if err := s.allExits(ctx, r, workers); err != nil {
		return err
	}
	var q distQueue
	s.seed(&q, r)
	if err := s.drain(ctx, r, &q); err != nil {
		return err
	}
	return s.store(r)
}

// allExits runs exits over the whole layer in parallel, returning the first
// error any chunk met.
func (s *distSolver) allExits(ctx context.Context, r, workers int) error {
	var failed atomic.Pointer[error]
	err := parallel(ctx, workers, s.n, 1<<14, func(_ int, a, b int64) {
		if failed.Load() != nil {
			return // the rest of the chunks go by at once
		}
		if err := s.exits(a, b, r); err != nil {
			failed.Store(&err)
		}
	})
	if err != nil {
		return err
	}
	if err := failed.Load(); err != nil {
		return *err
	}
	return nil
}

// distQueue is a bucket queue by distance: entries are i<<1 for a win,
// i<<1|1 for a loss.
type distQueue struct{ buckets [][]uint32 }

func (q *distQueue) push(d uint16, e uint32) {
	for int(d) >= len(q.buckets) {
		q.buckets = append(q.buckets, nil)
	}
	q.buckets[d] = append(q.buckets[d], e)
}

// seed queues every position whose distance the exits already settle.
func (s *distSolver) seed(q *distQueue, r int) {
	for i := range s.n {
		a, d := s.value(i)
		if a >= r && s.win[i] != noDistance {
			q.push(s.win[i], uint32(i)<<1)
		}
		if d >= r && s.quiet[i] == 0 {
			q.push(s.loss[i], uint32(i)<<1|1)
		}
	}
}

// drain settles the queued positions in order of distance, queueing the
// parents each one settles in turn.
func (s *distSolver) drain(ctx context.Context, r int, q *distQueue) error {
	var f frame
	for dist := 0; dist < len(q.buckets); dist++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		for n, e := range q.buckets[dist] {
			if n&(1<<16-1) == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			i := int64(e >> 1)
			if e&1 == 0 {
				s.settleWin(&f, q, i, dist, r)
			} else {
				s.settleLoss(&f, q, i, dist, r)
			}
		}
		q.buckets[dist] = nil
	}
	return nil
}

// settleWin fixes a win in dist plies for position i, unless already done.
func (s *distSolver) settleWin(f *frame, q *distQueue, i int64, dist, r int) {
	if s.win[i]&doneBit != 0 {
		return
	}
	s.win[i] = uint16(dist) | doneBit
	// One more quiet move of each losing parent is known.
	s.t.lay.frame(f, s.k, s.lo+i)
	f.parents(func(p *frame) {
		j := s.t.lay.index(p, s.k) - s.lo
		if _, d := s.value(j); d < r {
			return
		}
		s.loss[j] = max(s.loss[j], uint16(dist+1))
		if s.quiet[j]--; s.quiet[j] == 0 {
			q.push(s.loss[j], uint32(j)<<1|1)
		}
	})
}

// settleLoss takes a loss in dist plies for position i: each winning parent
// can move here.
func (s *distSolver) settleLoss(f *frame, q *distQueue, i int64, dist, r int) {
	s.t.lay.frame(f, s.k, s.lo+i)
	f.parents(func(p *frame) {
		j := s.t.lay.index(p, s.k) - s.lo
		if a, _ := s.value(j); a < r || s.win[j]&doneBit != 0 || s.win[j] <= uint16(dist+1) {
			return
		}
		s.win[j] = uint16(dist + 1)
		q.push(uint16(dist+1), uint32(j)<<1)
	})
}

// store writes the distances for need r, checking that every position got
// its distance.
func (s *distSolver) store(r int) error {
	k := s.k
	for i := range s.n {
		a, d := s.value(i)
		if a >= r {
			w := s.win[i]
			if w&doneBit == 0 || w&^doneBit > maxDistance {
				return fmt.Errorf("tablebase: %d stones, need %d: position %d has win distance %#x", k, r, i, w)
			}
			s.t.dist[s.t.slot(s.lo+i, k, r)] = byte(w &^ doneBit)
		}
		if d >= r {
			if s.quiet[i] != 0 || s.loss[i] > maxDistance {
				return fmt.Errorf("tablebase: %d stones, need %d: position %d has loss distance %d (%d quiet moves unknown)",
					k, r, i, s.loss[i], s.quiet[i])
			}
			s.t.dist[s.t.slot(s.lo+i, k, k+2-r)] = byte(s.loss[i])
		}
	}
	return nil
}

// exits sets, for positions [a, b) of the layer and need r, the distance the
// moves leaving the layer give and the number of quiet moves.
func (s *distSolver) exits(a, b int64, r int) error {
	var f frame
	t := s.t
	for i := a; i < b; i++ {
		s.win[i], s.loss[i], s.quiet[i] = noDistance, 0, 0
		va, vd := s.value(i)
		if va < r && vd < r {
			continue
		}
		t.lay.frame(&f, s.k, s.lo+i)
		ms := f.moves()
		quiet := 0
		for ms != 0 {
			m := bits.TrailingZeros16(ms)
			ms &= ms - 1
			child, gMe, gOpp := f.play(m)
			if gMe+gOpp == 0 {
				quiet++
				continue
			}
			kc := s.k - gMe - gOpp
			ci := t.lay.index(&child, kc)
			ca, cd := t.value(ci)
			if va >= r {
				switch {
				case gMe >= r:
					s.win[i] = 1
				case cd >= r-gMe:
					s.win[i] = min(s.win[i], uint16(1+t.dtl(ci, kc, r-gMe)))
				}
			}
			if vd >= r {
				switch {
				case gOpp >= r:
					s.loss[i] = max(s.loss[i], 1)
				case ca >= r-gOpp:
					s.loss[i] = max(s.loss[i], uint16(1+t.dtw(ci, kc, r-gOpp)))
				default:
					return fmt.Errorf("tablebase: %d stones, need %d: losing position %d has a move that does not lose", s.k, r, i)
				}
			}
		}
		if vd >= r {
			s.quiet[i] = byte(quiet)
		}
	}
	return nil
}
