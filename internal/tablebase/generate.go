package tablebase

import (
	"context"
	"fmt"
	"math/bits"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

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
	t := &Tables{lay: lay, w: w, data: make([]byte, lay.size()*w)}
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
	s := &layerSolver{t: t, k: k, lo: lay.start(k), n: lay.end(k) - lay.start(k)}
	s.exits = make([]byte, s.n*valueWidth(k))
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

	var queue []uint32
	for x := k; x >= 1; x-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The positions that reach x by leaving the layer.
		for i := range s.n {
			va, vd := t.value(s.lo + i)
			ea, ed := s.exit(i)
			if va == 0 && ea == x {
				t.setMover(s.lo+i, x)
				queue = append(queue, uint32(i)<<1)
			}
			if vd == 0 && s.quiet[i] == 0 && ed == x {
				t.setOpponent(s.lo+i, x)
				queue = append(queue, uint32(i)<<1|1)
			}
		}
		// Their consequences through quiet moves, at the same threshold.
		for pops := 0; len(queue) > 0; pops++ {
			if pops&(1<<16-1) == 0 && ctx.Err() != nil {
				return ctx.Err() // a pass of a large layer takes minutes
			}
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
					if _, vd := t.value(s.lo + j); s.quiet[j] == 0 && vd == 0 {
						if _, ed := s.exit(j); ed >= x {
							t.setOpponent(s.lo+j, x)
							queue = append(queue, uint32(j)<<1|1)
						}
					}
				})
			} else {
				// f's opponent can collect x: so can the mover of every
				// parent, by moving to f.
				f.parents(func(p *frame) {
					j := lay.index(p, k) - s.lo
					if va, _ := t.value(s.lo + j); va == 0 {
						t.setMover(s.lo+j, x)
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

// setMover and setOpponent store one of the two counts of table index i,
// whose count there is still 0.
func (t *Tables) setMover(i int64, x int) {
	if t.w == 1 {
		t.data[i] |= byte(x)
		return
	}
	t.data[2*i] = byte(x)
}

func (t *Tables) setOpponent(i int64, x int) {
	if t.w == 1 {
		t.data[i] |= byte(x) << 4
		return
	}
	t.data[2*i+1] = byte(x)
}
