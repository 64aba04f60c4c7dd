package tablebase

import (
	"context"
	"fmt"
	"math/bits"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/toguz/toguz"
)

// Progress receives the progress of a generation: the stage ("values", then
// "distances"), the layer being solved (stones on the board) and the work
// done on it out of total. It is called from the workers, one call at a
// time.
type Progress func(stage string, stones int, done, total int64)

// Options say what to solve.
type Options struct {
	// Rules is the ruleset: toguz.Standard(), toguz.Bestemshe() or
	// toguz.Seven() (the zero value means Standard). MaxStonesOf gives how
	// deep each may go.
	Rules toguz.Rules
	// Stones is the most stones on the board the tables cover, and
	// DistanceStones the most with distances to the end (−1 for none,
	// at most Stones).
	Stones, DistanceStones int
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS.
	Workers int
	// Progress, if not nil, receives the progress.
	Progress Progress
	// Checkpoints, if not empty, is a directory where each solved layer
	// is written as soon as it is done (atomically, with a checksum) and
	// read back instead of solved again: a generation that was stopped
	// resumes at the layer it was solving. See checkpoint.go.
	Checkpoints string
}

// MaxStonesOf returns the most stones on the board a table of rules may
// cover, and false when no tables exist for rules (only Standard, Bestemshe
// and Seven have them).
func MaxStonesOf(rules toguz.Rules) (int, bool) {
	g := geometryOf(rules)
	if g == nil {
		return 0, false
	}
	return g.limit, true
}

// Generate solves what o asks, using all CPUs unless o.Workers says
// otherwise, and writes the tables to dir/FileName(ruleset, o.Stones) (a
// temporary file renamed into place). It returns the path written. With
// o.Checkpoints set, the checkpoints are removed once the file is written.
func Generate(ctx context.Context, dir string, o Options) (string, error) {
	t, err := SolveWith(ctx, o)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName(t.lay.g.name, o.Stones))
	if err := t.WriteFile(path); err != nil {
		return "", err
	}
	if o.Checkpoints != "" {
		if err := removeCheckpoints(o.Checkpoints, t); err != nil {
			return path, err
		}
	}
	return path, nil
}

// FileName is the name Generate gives the table of the ruleset called
// ruleset ("standard", "bestemshe", "seven") of up to maxStones stones.
func FileName(ruleset string, maxStones int) string {
	return fmt.Sprintf("%s-%d.tgtb", ruleset, maxStones)
}

// RulesetName returns the name of rules in table files, and false when no
// tables exist for them.
func RulesetName(rules toguz.Rules) (string, bool) {
	g := geometryOf(rules)
	if g == nil {
		return "", false
	}
	return g.name, true
}

// Solve computes the tables of the standard game in memory with the given
// number of worker goroutines; progress may be nil. It is SolveWith for
// toguz.Standard().
func Solve(ctx context.Context, maxStones, dtmStones, workers int, progress Progress) (*Tables, error) {
	return SolveWith(ctx, Options{Rules: toguz.Standard(), Stones: maxStones, DistanceStones: dtmStones,
		Workers: max(workers, 1), Progress: progress})
}

// SolveWith computes the tables o asks for in memory. It stops early, with
// ctx's error, when ctx is cancelled.
//
// The layers are solved from 0 stones up: a move never adds stones to the
// board, so a layer depends only on itself and the layers below it. Within a
// layer, play by quiet moves (which capture nothing and sow into no tuzdik)
// can cycle, so a layer is solved as a reachability game, by attractors, for
// each threshold X from k down to 1 (see solveLayer).
func SolveWith(ctx context.Context, o Options) (*Tables, error) {
	if o.Rules == (toguz.Rules{}) {
		o.Rules = toguz.Standard()
	}
	g := geometryOf(o.Rules)
	if g == nil {
		return nil, fmt.Errorf("tablebase: no tables for the ruleset %s: only standard, bestemshe and seven", o.Rules)
	}
	if o.Stones < 0 || o.Stones > g.limit {
		return nil, fmt.Errorf("tablebase: %s, %d stones: want 0..%d", g.name, o.Stones, g.limit)
	}
	if o.DistanceStones < -1 || o.DistanceStones > o.Stones {
		return nil, fmt.Errorf("tablebase: distances up to %d stones: want −1..%d", o.DistanceStones, o.Stones)
	}
	workers := o.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	lay := newLayout(g, o.Stones)
	w := valueWidth(o.Stones)
	t := &Tables{lay: lay, w: w, data: alignedBytes(lay.size() * w)}
	cp := checkpointer{dir: o.Checkpoints, t: t}
	for k := 0; k <= o.Stones; k++ {
		if ok, err := cp.load(stageValues, k); err != nil || ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		if err := solveLayer(ctx, t, k, workers, o.Progress); err != nil {
			return nil, err
		}
		if err := cp.save(stageValues, k); err != nil {
			return nil, err
		}
	}
	t.dtm = newDTMLayout(t.lay, o.DistanceStones)
	t.dist = make([]byte, t.dtm.size())
	for k := 1; k <= o.DistanceStones; k++ {
		if ok, err := cp.load(stageDistances, k); err != nil || ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		if err := solveDistanceLayer(ctx, t, k, workers, o.Progress); err != nil {
			return nil, err
		}
		if err := cp.save(stageDistances, k); err != nil {
			return nil, err
		}
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
	// worst (k when no move leaves the layer); see exit and setExit.
	exits []byte
	// quiet[i] counts the quiet moves of position i whose result is not yet
	// known to let its mover collect the current threshold.
	quiet []byte
	// values and quietWords are t.data and quiet as words, for the atomic
	// updates of the parallel passes.
	values, quietWords []uint32
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
// evaluated first, from the layers below. Then, for each
// threshold X from k down to 1, the positions with a(B) ≥ X and d(B) ≥ X are
// found as an attractor: B gets a ≥ X when a move leaving the layer gives X
// or a quiet move leads to a position with d ≥ X, and d ≥ X when the moves
// leaving the layer give X and every quiet move leads to a position with
// a ≥ X (counted down in quiet). Positions enter these sets from the highest
// threshold down, and each enters each set once, at its value; quiet moves
// are followed backwards by unplaying them (frame.parents). Positions that
// never enter a set have 0 there. Every pass runs on all the workers.
func solveLayer(ctx context.Context, t *Tables, k, workers int, progress Progress) error {
	lay := t.lay
	s := &layerSolver{t: t, k: k, lo: lay.start(k), n: lay.end(k) - lay.start(k)}
	s.exits = make([]byte, s.n*valueWidth(k))
	s.quiet = alignedBytes(s.n)
	s.values, s.quietWords = wordsOf(t.data), wordsOf(s.quiet)
	total := s.n * 2
	report := func(done int64) {
		if progress != nil {
			progress("values", k, done, total)
		}
	}

	// The moves that leave the layer.
	var (
		mu   sync.Mutex
		done int64
	)
	err := parallel(ctx, workers, s.n, 1<<14, func(_ int, a, b int64) {
		s.evalExits(a, b)
		mu.Lock()
		done += b - a
		report(done)
		mu.Unlock()
	})
	if err != nil {
		return err
	}

	// For each threshold, the positions that reach it by leaving the layer,
	// then their consequences through quiet moves, a round at a time: round
	// r+1 follows back the positions that entered a set in round r. The
	// order in which positions enter changes nothing, as the attractor is
	// the least fixed point; the atomic claims make each enter once.
	found := make([][]uint32, workers)
	var frontier []uint32
	for x := k; x >= 1; x-- {
		err := parallel(ctx, workers, s.n, 1<<14, func(w int, a, b int64) {
			found[w] = s.reachByExits(found[w], x, a, b)
		})
		if err != nil {
			return err
		}
		for {
			frontier = frontier[:0]
			for w := range found {
				frontier = append(frontier, found[w]...)
				found[w] = found[w][:0]
			}
			if len(frontier) == 0 {
				break
			}
			err := parallel(ctx, workers, int64(len(frontier)), 1<<12, func(w int, a, b int64) {
				found[w] = s.follow(found[w], x, frontier[a:b])
			})
			if err != nil {
				return err
			}
		}
		report(s.n + s.n*int64(k-x+1)/int64(k))
	}
	if k == 0 {
		report(total)
	}
	return nil
}

// parallel calls f(w, a, b) on consecutive chunks [a, b) of [0, n) from
// workers goroutines (w is the goroutine's number) until every chunk is done
// or ctx is cancelled, and returns ctx's error.
func parallel(ctx context.Context, workers int, n, chunk int64, f func(w int, a, b int64)) error {
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for w := range min(int64(workers), (n+chunk-1)/chunk) {
		wg.Go(func() {
			for ctx.Err() == nil {
				a := (next.Add(1) - 1) * chunk
				if a >= n {
					return
				}
				f(int(w), a, min(n, a+chunk))
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// reachByExits places, at threshold x, the positions [a, b) of the layer
// that reach x by a move leaving it, and appends them to q as queue entries:
// i<<1 when the mover can collect x, i<<1|1 when his opponent can.
func (s *layerSolver) reachByExits(q []uint32, x int, a, b int64) []uint32 {
	for i := a; i < b; i++ {
		ea, ed := s.exit(i)
		if ea == x && s.claim(i, false, x) {
			q = append(q, uint32(i)<<1)
		}
		// quiet is read plainly: no goroutine changes it during this pass.
		if ed == x && s.quiet[i] == 0 && s.claim(i, true, x) {
			q = append(q, uint32(i)<<1|1)
		}
	}
	return q
}

// follow follows the queue entries es back through quiet moves at threshold
// x, and appends the parents that enter a set to q.
func (s *layerSolver) follow(q []uint32, x int, es []uint32) []uint32 {
	var f frame
	lay := s.t.lay
	for _, e := range es {
		lay.frame(&f, s.k, s.lo+int64(e>>1))
		if e&1 == 0 {
			// f's mover can collect x: one more quiet move of each parent
			// leads to a position where his opponent can.
			f.parents(func(p *frame) {
				j := lay.index(p, s.k) - s.lo
				if s.decQuiet(j) != 0 {
					return
				}
				if _, ed := s.exit(j); ed >= x && s.claim(j, true, x) {
					q = append(q, uint32(j)<<1|1)
				}
			})
			continue
		}
		// f's opponent can collect x: so can the mover of every parent, by
		// moving to f.
		f.parents(func(p *frame) {
			j := lay.index(p, s.k) - s.lo
			if s.claim(j, false, x) {
				q = append(q, uint32(j)<<1)
			}
		})
	}
	return q
}

// claim sets the mover's count (the opponent's when opponent is set) of
// layer position i to x if it is still 0, and says whether it did. The
// counts of neighbouring positions share a word, so the word is swapped
// whole.
func (s *layerSolver) claim(i int64, opponent bool, x int) bool {
	b, mask, v := s.lo+i, uint32(0x0f), uint32(x)
	if s.t.w == 1 {
		if opponent {
			mask, v = 0xf0, v<<4
		}
	} else {
		b, mask = 2*b, 0xff
		if opponent {
			b++
		}
	}
	sh := uint(b&3) * 8
	p := &s.values[b>>2]
	for {
		old := atomic.LoadUint32(p)
		if old&(mask<<sh) != 0 {
			return false
		}
		if atomic.CompareAndSwapUint32(p, old, old|v<<sh) {
			return true
		}
	}
}

// decQuiet counts down one quiet move of layer position j and returns the
// count left. It is never called on a count of 0 (a position has as many
// parents' moves leading to it as it has quiet moves), so the subtraction
// never borrows from the neighbouring byte.
func (s *layerSolver) decQuiet(j int64) byte {
	sh := uint(j&3) * 8
	return byte(atomic.AddUint32(&s.quietWords[j>>2], ^(uint32(1)<<sh-1)) >> sh)
}

// alignedBytes returns n zero bytes that start a whole number of 32-bit
// words, so that wordsOf can view them as words.
func alignedBytes(n int64) []byte {
	w := make([]uint32, (n+3)/4)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), n)
}

// wordsOf returns the words that hold b, which alignedBytes allocated.
func wordsOf(b []byte) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), (len(b)+3)/4)
}

// frame sets f to the position at index i of the table, in layer k.
func (l *layout) frame(f *frame, k int, i int64) {
	off := &l.off[k]
	c := 0
	for off[c+1] <= i {
		c++
	}
	g := l.g
	unrank(&f.b, i-off[c], k, &g.config[c])
	f.t = g.config[c].t
	f.h, f.tz = int8(g.holes), g.rules.Tuzdik
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
			s.setExit(i, 0, s.k)
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
			ca, cd := s.t.value(s.t.lay.index(&child, s.k-gMe-gOpp))
			best = max(best, gMe+cd)
			worst = min(worst, gOpp+ca)
		}
		s.setExit(i, best, worst)
		s.quiet[i] = byte(quiet)
	}
}

// index returns the place of f, with k stones on the board, in the table.
func (l *layout) index(f *frame, k int) int64 {
	c := l.g.configOf(f.t)
	return l.off[k][c] + rank(&f.b, &l.g.config[c])
}

// exit returns what the moves of layer position i that leave the layer
// give, and setExit stores it: in a byte up to 15 stones, like a value, in
// two bytes above.
func (s *layerSolver) exit(i int64) (best, worst int) {
	if s.k <= nibbleStones {
		e := s.exits[i]
		return int(e & 15), int(e >> 4)
	}
	return int(s.exits[2*i]), int(s.exits[2*i+1])
}

func (s *layerSolver) setExit(i int64, best, worst int) {
	if s.k <= nibbleStones {
		s.exits[i] = byte(best | worst<<4)
		return
	}
	s.exits[2*i], s.exits[2*i+1] = byte(best), byte(worst)
}
