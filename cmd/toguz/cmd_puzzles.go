package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
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
	out := fs.String("o", "", "puzzle file to append to (required)")
	db := fs.String("store", "", "the site's store (an SQLite file or a PostgreSQL URL): mine its finished games too")
	selfplay := fs.Int("selfplay", 0, "self-play games to mine after the files")
	seed := fs.Int64("seed", 1, "random seed of the self-play")
	maxTime := fs.Duration("max-time", 0, "stop after this long (0: no limit)")
	limit := fs.Int("n", 0, "stop after this many puzzles in FILE (0: no limit)")
	minPly := fs.Int("min-ply", 6, "skip the first plies of every game (the openings)")
	tbPath := fs.String("tablebase", "", "endgame tablebase file or folder (toguz tablebase): exact judgement where it holds the position")
	cfg := puzzle.DefaultConfig()
	fs.IntVar(&cfg.Shallow, "shallow", cfg.Shallow, "depth of the first look")
	fs.IntVar(&cfg.Deep, "deep", cfg.Deep, "depth of the proof")
	fs.IntVar(&cfg.Stable, "stable", cfg.Stable, "how many of the deep search's last iterations must agree")
	fs.IntVar(&cfg.MarginStones, "margin", cfg.MarginStones, "least lead in stones of the goal 'stones'")
	fs.IntVar(&cfg.MaxMoves, "max-moves", cfg.MaxMoves, "most moves of the solver a puzzle judges (the line goes on while one move alone reaches the goal)")
	if err := fs.Parse(e.args); err != nil {
		return err
	}
	if cfg.MaxMoves < 1 || cfg.MaxMoves > puzzle.MaxMoves {
		fs.Usage()
		return errUsage
	}
	if *out == "" || cfg.Shallow < 1 || cfg.Deep < cfg.Shallow || cfg.Deep > 30 || cfg.Stable < 1 || cfg.Stable > cfg.Deep || cfg.MarginStones < 1 || *selfplay < 0 {
		fs.Usage()
		return errUsage
	}
	if *maxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *maxTime)
		defer cancel()
	}
	if *tbPath != "" {
		t, err := openTables(*tbPath)
		if err != nil {
			return err
		}
		cfg.Tablebase = t
	}
	seen, have, err := readPuzzleFile(*out)
	if err != nil {
		return err
	}
	done, err := readState(*out + ".state")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	m, err := puzzle.NewMiner(cfg)
	if err != nil {
		return err
	}
	start := time.Now()
	index, found := 0, 0
	last := time.Now()
	report := func(final bool) {
		if final || time.Since(last) > 10*time.Second {
			last = time.Now()
			fmt.Fprintf(e.stderr, "%s: %d positions (%d examined now), %d puzzles (%d new) in %s\n",
				*out, index, m.Examined, have+found, found, time.Since(start).Round(time.Second))
		}
	}
	errStop := errors.New("stop")
	// visit offers one position; the positions before the state's count
	// were examined by an earlier run.
	visit := func(p toguz.Position, source string) error {
		if ctx.Err() != nil {
			return errStop
		}
		if *limit > 0 && have+found >= *limit {
			return errStop
		}
		index++
		if index <= done {
			return nil
		}
		if !seen[p.Key()] {
			if pz, ok := m.Mine(ctx, puzzle.Candidate{Pos: p, Source: source}); ok {
				seen[p.Key()] = true
				if _, err := fmt.Fprintln(f, pz.Format()); err != nil {
					return err
				}
				found++
			}
		}
		if ctx.Err() == nil && index%50 == 0 {
			if err := writeState(*out+".state", index); err != nil {
				return err
			}
		}
		report(false)
		return nil
	}
	game := func(start toguz.Position, moves []toguz.Move, source string) error {
		p := start
		for i, mv := range moves {
			if i >= *minPly {
				if err := visit(p, fmt.Sprintf("%s:%d", source, i+1)); err != nil {
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
	err = func() error {
		for _, name := range fs.Args() {
			src := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
			r, err := os.Open(name)
			if err != nil {
				return err
			}
			n := 0
			for g, err := range toguz.NewGameReader(r, name, 0).All() {
				if err != nil {
					r.Close()
					return err
				}
				n++
				sp, err := g.StartPosition()
				if err != nil {
					continue
				}
				if err := game(sp, g.Moves(), fmt.Sprintf("%s#%d", src, n)); err != nil {
					r.Close()
					return err
				}
			}
			r.Close()
		}
		if *db != "" {
			st, err := store.Open(ctx, *db, store.Options{Readers: 1})
			if err != nil {
				return err
			}
			defer st.Close()
			games, err := st.GamesByStatus(ctx, store.StatusEnded)
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
				ms, err := st.Moves(ctx, g.ID)
				if err != nil {
					return err
				}
				moves := make([]toguz.Move, len(ms))
				for i, x := range ms {
					moves[i] = x.Hole
				}
				if err := game(sp, moves, "site#"+g.ID); err != nil {
					return err
				}
			}
		}
		if *selfplay > 0 {
			pl, err := newSelfPlayer(6, 4, *seed)
			if err != nil {
				return err
			}
			for i := range *selfplay {
				// One game at a time, so that the puzzles of each come as it ends.
				pl.seed = *seed + int64(i)
				games, err := book.SelfPlay(ctx, toguz.StartPosition(), 1, 400, pl, nil)
				if err != nil || len(games) == 0 {
					return errStop
				}
				if err := game(games[0].Start, games[0].Moves, fmt.Sprintf("selfplay#%d", *seed+int64(i))); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	report(true)
	if errors.Is(err, errStop) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		err = nil
	}
	if err == nil && ctx.Err() == nil || index > done {
		// Only positions fully examined count: a cancelled one is done again.
		n := index
		if ctx.Err() != nil {
			n--
		}
		if werr := writeState(*out+".state", max(n, done)); werr != nil && err == nil {
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
				ext := m.Extend(gctx, pz)
				// Keep the new moves the deeper replay confirms.
				for k := pz.Moves; k < ext.Moves; k++ {
					one := ext
					one.Moves = k + 1
					if puzzle.Verify(gctx, s, one, puzzle.VerifyDepth, cfg) != nil {
						ext.Moves = k
						break
					}
				}
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
	lines := make([]string, len(out))
	for i, p := range out {
		lines[i] = p.Format()
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d puzzles, %d made longer, in %s\n", name, len(ps), longer, time.Since(start).Round(time.Second))
	return os.Rename(tmp, name)
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
