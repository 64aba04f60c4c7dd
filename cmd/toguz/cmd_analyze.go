package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/engine"
)

func runAnalyze(ctx context.Context, e env) error {
	fs := newFlags(e, "analyze", "FILE", `Annotates every game of a record file (any format the rules library reads):
after each ply a comment with White's evaluation in stones (or a proven
"win N"/"loss N" in plies), and for a ply that was not the engine's choice
its mark and cost and the best move. Marks: ?! inaccuracy, ? mistake,
?? blunder, by the cost in stones (see package internal/analysis). Writes
the games in the toguz record format.`)
	depth := fs.Int("depth", 10, "search depth per position, at least 1")
	movetime := fs.Duration("movetime", 0, "search time per position instead of a depth (e.g. 500ms)")
	threads := fs.Int("threads", 1, "search threads")
	hash := fs.Int("hash", 64, "transposition table MiB")
	inacc := fs.Float64("inaccuracy", analysis.DefaultThresholds.Inaccuracy, "stones lost that make an inaccuracy")
	mistake := fs.Float64("mistake", analysis.DefaultThresholds.Mistake, "stones lost that make a mistake")
	blunder := fs.Float64("blunder", analysis.DefaultThresholds.Blunder, "stones lost that make a blunder")
	outPath := fs.String("o", "", "write to this file instead of standard output")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	th := analysis.Thresholds{Inaccuracy: *inacc, Mistake: *mistake, Blunder: *blunder}
	if !(0 < th.Inaccuracy && th.Inaccuracy <= th.Mistake && th.Mistake <= th.Blunder) {
		return fmt.Errorf("thresholds %g, %g, %g: want 0 < inaccuracy ≤ mistake ≤ blunder", th.Inaccuracy, th.Mistake, th.Blunder)
	}
	// A search without a bound never returns, so depth 0 is refused
	// rather than read as "no limit" the way engine.Limits reads it.
	if *movetime < 0 {
		return fmt.Errorf("-movetime %v: want a positive duration", *movetime)
	}
	if *movetime == 0 && *depth < 1 {
		return fmt.Errorf("-depth %d: want at least 1 (or a -movetime)", *depth)
	}
	lim := engine.Limits{Depth: *depth}
	annotator := fmt.Sprintf("toguz analyze depth=%d", *depth)
	if *movetime > 0 {
		lim = engine.Limits{MoveTime: *movetime}
		annotator = "toguz analyze movetime=" + movetime.String()
	}
	file := fs.Arg(0)
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	games, err := toguz.ParseGames(file, data, 0)
	if err != nil {
		return err
	}
	opts := engine.DefaultOptions()
	opts.Threads, opts.HashMB = *threads, *hash
	eng, err := engine.New(opts)
	if err != nil {
		return err
	}
	for i, g := range games {
		start, err := g.StartPosition()
		if err != nil {
			return err
		}
		if _, err := g.Final(); err != nil {
			return err
		}
		begin := time.Now()
		plies, err := analysis.Analyze(ctx, eng, start, g.Moves(), lim, th)
		if err != nil {
			return fmt.Errorf("%s: game %d: %w", file, i+1, err)
		}
		for j, p := range plies {
			g.Plies[j].Comment = joinText(g.Plies[j].Comment, p.Comment())
		}
		sum := analysis.Summary(start, plies)
		g.Comment = joinText(g.Comment, fmt.Sprintf("%s. White: %d inaccuracies, %d mistakes, %d blunders; Black: %d, %d, %d.",
			annotator, sum[0][analysis.Inaccuracy], sum[0][analysis.Mistake], sum[0][analysis.Blunder],
			sum[1][analysis.Inaccuracy], sum[1][analysis.Mistake], sum[1][analysis.Blunder]))
		g.SetTag("Annotator", annotator)
		fmt.Fprintf(e.stderr, "game %d/%d: %d plies in %v\n", i+1, len(games), len(plies), time.Since(begin).Round(time.Millisecond))
	}
	write := func(w io.Writer) error { return toguz.WriteGames(w, toguz.FormatToguz, games...) }
	if *outPath != "" {
		// Replaced whole or not at all: hours of analysis are not lost
		// to a half-written file over the old one.
		return atomicfile.Write(*outPath, write)
	}
	return write(e.stdout)
}

// joinText joins two comments with a space.
func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}
