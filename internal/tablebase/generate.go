package tablebase

import (
	"context"
	"fmt"
	"math/bits"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// Progress receives the progress of a generation: the stage ("values", then
// "distances"), the layer being solved (stones on the board) and the work
// done on it out of total. It is called from the workers, one call at a
// time.
type Progress func(stage string, stones int, done, total int64)

// Generate solves every position with up to maxStones stones on the board,
// with distances to the end up to dtmStones stones (−1 for none), using all
// CPUs, and writes the tables to dir/FileName(maxStones) (a temporary file
// renamed into place). It returns the path written.
func Generate(ctx context.Context, dir string, maxStones, dtmStones int, progress Progress) (string, error) {
	t, err := Solve(ctx, maxStones, dtmStones, runtime.GOMAXPROCS(0), progress)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName(maxStones))
	if err := t.WriteFile(path); err != nil {
		return "", err
	}
	return path, nil
}

// FileName is the name Generate gives the table of up to maxStones stones.
func FileName(maxStones int) string { return fmt.Sprintf("standard-%d.tgtb", maxStones) }

// Solve computes the tables in memory with the given number of worker
// goroutines; progress may be nil. It stops early, with ctx's error, when ctx
// is cancelled.
//
// The layers are solved from 0 stones up: a move never adds stones to the
// board, so a layer depends only on itself and the layers below it. Within a
// layer, play by quiet moves (which capture nothing and sow into no tuzdik)
// can cycle, so a layer is solved as a reachability game, by attractors, for
// each threshold X from k down to 1 (see solveLayer).
func Solve(ctx context.Context, maxStones, dtmStones, workers int, progress Progress) (*Tables, error) {
	if maxStones < 0 || maxStones > MaxStones {
		return nil, fmt.Errorf("tablebase: %d stones: want 0..%d", maxStones, MaxStones)
	}
	if dtmStones < -1 || dtmStones > maxStones {
		return nil, fmt.Errorf("tablebase: distances up to %d stones: want −1..%d", dtmStones, maxStones)
	}
	if workers < 1 {
		workers = 1
	}
	lay := newLayout(maxStones)
	t := &Tables{lay: lay, data: make([]byte, lay.size())}
	for k := 0; k <= maxStones; k++ {
		if err := solveLayer(ctx, t, k, workers, progress); err != nil {
			return nil, err
		}
	}
	if err := solveDistances(ctx, t, dtmStones, workers, progress); err != nil {
		return nil, err
	}
	return t, nil
}

// layerSolver holds the work of solving one layer: k stones on the board,
// positions [lo, lo+n) of the table. Values are written into the table as
// they are found.
type layerSolver struct {
	t     *Tables
	k     int
	lo, n int64
	// exits[i] packs, like a value, what the moves that leave the layer
	// give: the mover's best (he can make sure of it), and the opponent's
	// worst (k when no move leaves the layer).
	exits []byte
	// quiet[i] counts the quiet moves of position i whose result is not yet
	// known to let its mover collect the current threshold.
	quiet []byte
}

// solveLayer solves layer k, whose moves lead into layers already solved or
// into itself. With a(B) the stones the side to move in B can make sure to
// collect and d(B) the same for his opponent, the values satisfy
//
//	a(B) = max over moves of gain_me + d(B'),  d(B) = min over moves of gain_opp + a(B')
//
// (a = 0, d = k when the mover has no move), and the value of the game is the
// least solution: stones must be collected in finite time, so a cycle of
// quiet moves collects nothing. The moves that leave the layer are
// evaluated first (in parallel), from the layers below. Then, for each
// threshold X from k down to 1, the positions with a(B) ≥ X and d(B) ≥ X are
// found as an attractor: B gets a ≥ X when a move leaving the layer gives X
// or a quiet move leads to a position with d ≥ X, and d ≥ X when the moves
// leaving the layer give X and every quiet move leads to a position with
// a ≥ X (counted down in quiet). Positions enter these sets from the highest
// threshold down, and each enters each set once, at its value; quiet moves
// are followed backwards by unplaying them (frame.parents). Positions that
// never enter a set have 0 there.
func solveLayer(ctx context.Context, t *Tables, k, workers int, progress Progress) error {
	lay := t.lay
	s := &layerSolver{t: t, k: k, lo: lay.off[k][0], n: lay.off[k][numConfigs] - lay.off[k][0]}
	s.exits = make([]byte, s.n)
	s.quiet = make([]byte, s.n)
	total := s.n * 2
	report := func(done int64) {
		if progress != nil {
			progress("values", k, done, total)
		}
	}

	// The moves that leave the layer, in parallel over chunks of positions.
	const chunk = 1 << 14
	var (
		next atomic.Int64
		mu   sync.Mutex
		done int64
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				a := (next.Add(1) - 1) * chunk
				if a >= s.n {
					return
				}
				b := min(s.n, a+chunk)
				s.evalExits(a, b)
				mu.Lock()
				done += b - a
				report(done)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}

	val := t.data[s.lo : s.lo+s.n]
	var queue []uint32
	for x := k; x >= 1; x-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The positions that reach x by leaving the layer.
		for i := range val {
			v, e := val[i], s.exits[i]
			if v&15 == 0 && int(e&15) == x {
				val[i] |= byte(x)
				queue = append(queue, uint32(i)<<1)
			}
			if v>>4 == 0 && s.quiet[i] == 0 && int(e>>4) == x {
				val[i] |= byte(x) << 4
				queue = append(queue, uint32(i)<<1|1)
			}
		}
		// Their consequences through quiet moves, at the same threshold.
		for len(queue) > 0 {
			e := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			var f frame
			lay.frame(&f, k, s.lo+int64(e>>1))
			if e&1 == 0 {
				// f's mover can collect x: one more quiet move of each
				// parent leads to a position where his opponent can.
				f.parents(func(p *frame) {
					j := lay.index(p, k) - s.lo
					s.quiet[j]--
					if s.quiet[j] == 0 && val[j]>>4 == 0 && int(s.exits[j]>>4) >= x {
						val[j] |= byte(x) << 4
						queue = append(queue, uint32(j)<<1|1)
					}
				})
			} else {
				// f's opponent can collect x: so can the mover of every
				// parent, by moving to f.
				f.parents(func(p *frame) {
					j := lay.index(p, k) - s.lo
					if val[j]&15 == 0 {
						val[j] |= byte(x)
						queue = append(queue, uint32(j)<<1)
					}
				})
			}
		}
		report(s.n + s.n*int64(k-x+1)/int64(k))
	}
	if k == 0 {
		report(total)
	}
	return nil
}

// frame sets f to the position at index i of the table, in layer k.
func (l *layout) frame(f *frame, k int, i int64) {
	off := &l.off[k]
	c := 0
	for off[c+1] <= i {
		c++
	}
	unrank(&f.b, i-off[c], k, &configs[c])
	f.t = configs[c].t
}

// evalExits evaluates the moves leaving the layer, and counts the quiet
// ones, of positions [a, b) of the layer.
func (s *layerSolver) evalExits(a, b int64) {
	var f frame
	for i := a; i < b; i++ {
		s.t.lay.frame(&f, s.k, s.lo+i)
		ms := f.moves()
		if ms == 0 {
			// Atsyrau: the opponent collects every stone left.
			s.exits[i] = pack(0, s.k)
			continue
		}
		best, worst, quiet := 0, s.k, 0
		for ms != 0 {
			m := bits.TrailingZeros16(ms)
			ms &= ms - 1
			child, gMe, gOpp := f.play(m)
			if gMe+gOpp == 0 {
				quiet++
				continue
			}
			v := s.t.data[s.t.lay.index(&child, s.k-gMe-gOpp)]
			best = max(best, gMe+int(v>>4))
			worst = min(worst, gOpp+int(v&15))
		}
		s.exits[i] = pack(best, worst)
		s.quiet[i] = byte(quiet)
	}
}

// index returns the place of f, with k stones on the board, in the table.
func (l *layout) index(f *frame, k int) int64 {
	c := configOf(f.t)
	return l.off[k][c] + rank(&f.b, &configs[c])
}

// pack makes a value from what the mover and the opponent can force.
func pack(mover, opponent int) uint8 { return uint8(mover | opponent<<4) }
