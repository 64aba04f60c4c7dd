package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/store"
	"golang.org/x/sync/errgroup"
)

func runPuzzles(ctx context.Context, e env) error {
	if len(e.args) > 0 && (e.args[0] == "mine" || e.args[0] == "verify" || e.args[0] == "extend") {
		sub := e
		sub.args = e.args[1:]
		switch e.args[0] {
		case "verify":
			return runPuzzlesVerify(ctx, sub)
		case "extend":
			return runPuzzlesExtend(ctx, sub)
		}
		return runPuzzlesMine(ctx, sub)
	}
	fmt.Fprint(e.stderr, `Usage: toguz puzzles mine -o FILE [flags] [GAMEFILE...]   mine proven puzzles
       toguz puzzles verify [-drop] FILE                       replay them deeper (the soundness test)
       toguz puzzles extend [-max-moves N] FILE                lengthen them into lines of several moves

Run 'toguz puzzles mine -h' for the flags; docs/puzzles.md defines the puzzles.
`)
	if len(e.args) > 0 && (e.args[0] == "-h" || e.args[0] == "-help" || e.args[0] == "--help") {
		return flag.ErrHelp
	}
	return errUsage
}

func runPuzzlesMine(ctx context.Context, e env) error {
	o, err := parseMineFlags(e)
	if err != nil {
		return err
	}
	if o.maxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.maxTime)
		defer cancel()
	}
	if o.tbPath != "" {
		t, err := openTables(o.tbPath)
		if err != nil {
			return err
		}
		o.cfg.Tablebase = t
	}
	seen, have, err := readPuzzleFile(o.out)
	if err != nil {
		return err
	}
	done, err := readState(o.out + ".state")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(o.out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	m, err := puzzle.NewMiner(o.cfg)
	if err != nil {
		return err
	}
	now := time.Now()
	r := &puzzleMine{ctx: ctx, stderr: e.stderr, out: o.out, limit: o.limit, minPly: o.minPly,
		m: m, f: f, seen: seen, have: have, done: done, start: now, last: now}
	err = r.mineAll(o)
	r.report(true)
	return r.finish(err)
}

// mineOptions are the flags of 'toguz puzzles mine'.
type mineOptions struct {
	out, db, tbPath string
	selfplay        int
	seed            int64
	maxTime         time.Duration
	limit, minPly   int
	cfg             puzzle.Config
	files           []string
}

func parseMineFlags(e env) (mineOptions, error) {
	fs := flag.NewFlagSet("puzzles mine", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, `Usage: toguz puzzles mine -o FILE [flags] [GAMEFILE...]

Mines puzzles (docs/puzzles.md) from the positions of the game files (any
record format), of the finished games of a site's store (-store) and of
self-play games (-selfplay): a shallow search looks at every position, a deep
search proves the candidates it keeps. The puzzles found are appended to FILE
(internal/puzzle's line format); the positions already examined are counted in
FILE.state, so a run stopped by -max-time or ^C resumes where it stopped.

`)
		fs.PrintDefaults()
	}
	o := mineOptions{cfg: puzzle.DefaultConfig()}
	fs.StringVar(&o.out, "o", "", "puzzle file to append to (required)")
	fs.StringVar(&o.db, "store", "", "the site's store (an SQLite file or a PostgreSQL URL): mine its finished games too")
	fs.IntVar(&o.selfplay, "selfplay", 0, "self-play games to mine after the files")
	fs.Int64Var(&o.seed, "seed", 1, "random seed of the self-play")
	fs.DurationVar(&o.maxTime, "max-time", 0, "stop after this long (0: no limit)")
	fs.IntVar(&o.limit, "n", 0, "stop after this many puzzles in FILE (0: no limit)")
	fs.IntVar(&o.minPly, "min-ply", 6, "skip the first plies of every game (the openings)")
	fs.StringVar(&o.tbPath, "tablebase", "", "endgame tablebase file or folder (toguz tablebase): exact judgement where it holds the position")
	cfg := &o.cfg
	fs.IntVar(&cfg.Shallow, "shallow", cfg.Shallow, "depth of the first look")
	fs.IntVar(&cfg.Deep, "deep", cfg.Deep, "depth of the proof")
	fs.IntVar(&cfg.Stable, "stable", cfg.Stable, "how many of the deep search's last iterations must agree")
	fs.IntVar(&cfg.MarginStones, "margin", cfg.MarginStones, "least lead in stones of the goal 'stones'")
	fs.IntVar(&cfg.MaxMoves, "max-moves", cfg.MaxMoves, "most moves of the solver a puzzle judges (the line goes on while one move alone reaches the goal)")
	if err := fs.Parse(e.args); err != nil {
		return o, err
	}
	if !o.valid() {
		fs.Usage()
		return o, errUsage
	}
	o.files = fs.Args()
	return o, nil
}

func (o *mineOptions) valid() bool {
	c := &o.cfg
	if c.MaxMoves < 1 || c.MaxMoves > puzzle.MaxMoves {
		return false
	}
	if c.Shallow < 1 || c.Deep < c.Shallow || c.Deep > 30 || c.Stable < 1 || c.Stable > c.Deep {
		return false
	}
	return o.out != "" && c.MarginStones >= 1 && o.selfplay >= 0
}

// errMineStop ends a mining run early (the time, ^C or -n reached, or the
// self-play failed); the run then ends without an error.
var errMineStop = errors.New("stop")

// puzzleMine is one run of 'toguz puzzles mine': the miner, the file it
// appends to and the counts that its state file and its reports tell.
type puzzleMine struct {
	ctx    context.Context
	stderr io.Writer
	out    string // the puzzle file; out+".state" counts the positions examined
	limit  int
	minPly int
	m      *puzzle.Miner
	f      *os.File
	seen   map[uint64]bool
	have   int // puzzles in the file before this run
	done   int // positions examined by earlier runs
	index  int // positions offered so far, the earlier runs' included
	found  int // puzzles found by this run

	start, last time.Time // of the run and of the last report
}

func (r *puzzleMine) report(final bool) {
	if final || time.Since(r.last) > 10*time.Second {
		r.last = time.Now()
		fmt.Fprintf(r.stderr, "%s: %d positions (%d examined now), %d puzzles (%d new) in %s\n",
			r.out, r.index, r.m.Examined, r.have+r.found, r.found, time.Since(r.start).Round(time.Second))
	}
}

// visit offers one position; the positions before the state's count
// were examined by an earlier run.
func (r *puzzleMine) visit(p toguz.Position, source string) error {
	if r.ctx.Err() != nil {
		return errMineStop
	}
	if r.limit > 0 && r.have+r.found >= r.limit {
		return errMineStop
	}
	r.index++
	if r.index <= r.done {
		return nil
	}
	if !r.seen[p.Key()] {
		if pz, ok := r.m.Mine(r.ctx, puzzle.Candidate{Pos: p, Source: source}); ok {
			r.seen[p.Key()] = true
			if _, err := fmt.Fprintln(r.f, pz.Format()); err != nil {
				return err
			}
			r.found++
		}
	}
	if r.ctx.Err() == nil && r.index%50 == 0 {
		if err := writeState(r.out+".state", r.index); err != nil {
			return err
		}
	}
	r.report(false)
	return nil
}

// game visits the positions of one game after its first -min-ply plies,
// up to its first illegal move.
func (r *puzzleMine) game(start toguz.Position, moves []toguz.Move, source string) error {
	p := start
	for i, mv := range moves {
		if i >= r.minPly {
			if err := r.visit(p, fmt.Sprintf("%s:%d", source, i+1)); err != nil {
				return err
			}
		}
		if p.CheckMove(mv) != nil {
			return nil
		}
		p = p.After(mv)
	}
	return nil
}

// mineAll mines the game files, then the store's games, then the self-play.
func (r *puzzleMine) mineAll(o mineOptions) error {
	for _, name := range o.files {
		if err := r.mineFile(name); err != nil {
			return err
		}
	}
	if o.db != "" {
		if err := r.mineStore(o.db); err != nil {
			return err
		}
	}
	if o.selfplay > 0 {
		return r.mineSelfPlay(o.selfplay, o.seed)
	}
	return nil
}

// mineFile mines the games of a record file; a game whose start position
// does not read is skipped.
func (r *puzzleMine) mineFile(name string) error {
	src := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	n := 0
	for g, err := range toguz.NewGameReader(f, name, 0).All() {
		if err != nil {
			return err
		}
		n++
		sp, err := g.StartPosition()
		if err != nil {
			continue
		}
		if err := r.game(sp, g.Moves(), fmt.Sprintf("%s#%d", src, n)); err != nil {
			return err
		}
	}
	return nil
}

// mineStore mines the ended games of a site's store.
func (r *puzzleMine) mineStore(db string) error {
	st, err := store.Open(r.ctx, db, store.Options{Readers: 1})
	if err != nil {
		return err
	}
	defer st.Close()
	games, err := st.GamesByStatus(r.ctx, game.Ended)
	if err != nil {
		return err
	}
	for _, g := range games {
		sp, err := toguz.NewPosition(g.Rules)
		if g.StartFEN != "" {
			sp, _, err = toguz.ParseFEN(g.StartFEN, g.Rules)
		}
		if err != nil {
			continue
		}
		ms, err := st.Moves(r.ctx, g.ID)
		if err != nil {
			return err
		}
		moves := make([]toguz.Move, len(ms))
		for i, x := range ms {
			moves[i] = x.Hole
		}
		if err := r.game(sp, moves, "site#"+g.ID); err != nil {
			return err
		}
	}
	return nil
}

// mineSelfPlay mines n self-play games of seeds seed, seed+1, ...
func (r *puzzleMine) mineSelfPlay(n int, seed int64) error {
	pl, err := newSelfPlayer(6, 4, seed)
	if err != nil {
		return err
	}
	for i := range n {
		// One game at a time, so that the puzzles of each come as it ends.
		pl.seed = seed + int64(i)
		games, err := book.SelfPlay(r.ctx, toguz.StartPosition(), 1, 400, pl, nil)
		if err != nil || len(games) == 0 {
			return errMineStop
		}
		if err := r.game(games[0].Start, games[0].Moves, fmt.Sprintf("selfplay#%d", seed+int64(i))); err != nil {
			return err
		}
	}
	return nil
}

// finish writes the state file at the run's end; a run stopped early
// ends without an error.
func (r *puzzleMine) finish(err error) error {
	if errors.Is(err, errMineStop) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		err = nil
	}
	if err == nil && r.ctx.Err() == nil || r.index > r.done {
		// Only positions fully examined count: a cancelled one is done again.
		n := r.index
		if r.ctx.Err() != nil {
			n--
		}
		if werr := writeState(r.out+".state", max(n, r.done)); werr != nil && err == nil {
			err = werr
		}
	}
	return err
}

// readPuzzleFile reads the puzzles already in path (none when it does not
// exist): their positions' keys and their count.
func readPuzzleFile(path string) (map[uint64]bool, int, error) {
	seen := map[uint64]bool{}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return seen, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	ps, err := puzzle.Read(bufio.NewReader(f))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	for _, p := range ps {
		seen[p.Start.Key()] = true
	}
	return seen, len(ps), nil
}

func readState(path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var n int
	if _, err := fmt.Sscan(string(b), &n); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

func writeState(path string, n int) error {
	return os.WriteFile(path, []byte(fmt.Sprintln(n)), 0o644)
}

// runPuzzlesVerify replays a puzzle file by puzzle.Verify at
// puzzle.VerifyDepth, deeper than the miner's proof, as TestShippedSound
// does; with -drop it rewrites the file without the puzzles it rejects
// (the step between mining and shipping, docs/puzzles.md).
func runPuzzlesVerify(ctx context.Context, e env) error {
	fs := flag.NewFlagSet("puzzles verify", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	drop := fs.Bool("drop", false, "rewrite FILE without the puzzles the replay rejects")
	depth := fs.Int("depth", puzzle.VerifyDepth, "depth of the replay")
	if err := fs.Parse(e.args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *depth < 1 || *depth > 30 {
		fmt.Fprintln(e.stderr, "Usage: toguz puzzles verify [-drop] [-depth N] FILE")
		return errUsage
	}
	name := fs.Arg(0)
	ps, err := readPuzzles(name)
	if err != nil {
		return err
	}
	cfg := puzzle.DefaultConfig()
	s, err := puzzle.NewSearcher(cfg)
	if err != nil {
		return err
	}
	start := time.Now()
	var kept []string
	bad := 0
	for i, p := range ps {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := puzzle.Verify(ctx, s, p, *depth, cfg); err != nil {
			bad++
			fmt.Fprintln(e.stderr, err)
			continue
		}
		kept = append(kept, p.Format())
		if (i+1)%500 == 0 {
			fmt.Fprintf(e.stderr, "%s: %d/%d replayed, %d rejected, %s\n", name, i+1, len(ps), bad, time.Since(start).Round(time.Second))
		}
	}
	fmt.Fprintf(e.stdout, "%s: %d puzzles replayed at depth %d in %s: %d sound, %d rejected\n",
		name, len(ps), *depth, time.Since(start).Round(time.Second), len(kept), bad)
	if *drop && bad > 0 {
		tmp := name + ".tmp"
		if err := os.WriteFile(tmp, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, name)
	}
	if bad > 0 {
		return fmt.Errorf("%d unsound puzzles", bad)
	}
	return nil
}

// runPuzzlesExtend lengthens the puzzles of a file (puzzle.Miner.Extend):
// after the solver's move and the opponent's best reply, a next move alone
// in reaching the goal, proven as a mined one, is judged too. Each new move
// is then replayed at puzzle.VerifyDepth, as TestShippedSound will, and
// the line is cut before the first that fails. The file is rewritten.
func runPuzzlesExtend(ctx context.Context, e env) error {
	fs := flag.NewFlagSet("puzzles extend", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg := puzzle.DefaultConfig()
	fs.IntVar(&cfg.MaxMoves, "max-moves", cfg.MaxMoves, "most moves of the solver a puzzle judges")
	workers := fs.Int("j", 1, "puzzles extended at once, each on one thread")
	if err := fs.Parse(e.args); err != nil {
		return err
	}
	if fs.NArg() != 1 || cfg.MaxMoves < 2 || cfg.MaxMoves > puzzle.MaxMoves || *workers < 1 || *workers > 64 {
		fmt.Fprintln(e.stderr, "Usage: toguz puzzles extend [-max-moves N] [-j N] FILE")
		return errUsage
	}
	name := fs.Arg(0)
	ps, err := readPuzzles(name)
	if err != nil {
		return err
	}
	start := time.Now()
	out := make([]puzzle.Puzzle, len(ps))
	var mu sync.Mutex
	done, longer := 0, 0
	next := make(chan int)
	g, gctx := errgroup.WithContext(ctx)
	for range *workers {
		m, err := puzzle.NewMiner(cfg)
		if err != nil {
			return err
		}
		s, err := puzzle.NewSearcher(cfg)
		if err != nil {
			return err
		}
		g.Go(func() error {
			for i := range next {
				pz := ps[i]
				ext := extendVerified(gctx, m, s, pz, cfg)
				if gctx.Err() != nil {
					return gctx.Err()
				}
				mu.Lock()
				out[i] = ext
				done++
				if ext.Moves > pz.Moves {
					longer++
				}
				if done%500 == 0 {
					fmt.Fprintf(e.stderr, "%s: %d/%d, %d longer, %s\n", name, done, len(ps), longer, time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
			return nil
		})
	}
	g.Go(func() error {
		defer close(next)
		for i := range ps {
			select {
			case next <- i:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return err
	}
	tmp := name + ".tmp"
	if err := writePuzzles(tmp, out); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d puzzles, %d made longer, in %s\n", name, len(ps), longer, time.Since(start).Round(time.Second))
	return os.Rename(tmp, name)
}

// extendVerified lengthens pz (puzzle.Miner.Extend) and keeps the new
// moves up to the first that the deeper replay at puzzle.VerifyDepth does
// not confirm.
func extendVerified(ctx context.Context, m *puzzle.Miner, s *puzzle.Searcher, pz puzzle.Puzzle, cfg puzzle.Config) puzzle.Puzzle {
	ext := m.Extend(ctx, pz)
	for k := pz.Moves; k < ext.Moves; k++ {
		one := ext
		one.Moves = k + 1
		if puzzle.Verify(ctx, s, one, puzzle.VerifyDepth, cfg) != nil {
			ext.Moves = k
			break
		}
	}
	return ext
}

// writePuzzles writes the puzzles to path, a line each.
func writePuzzles(path string, ps []puzzle.Puzzle) error {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Format()
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// readPuzzles reads the puzzles of the file name.
func readPuzzles(name string) ([]puzzle.Puzzle, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, err := puzzle.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ps, nil
}
