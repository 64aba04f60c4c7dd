package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/toguz/toguz"
)

func runPerft(ctx context.Context, e env) error {
	fs := newFlags(e, "perft", "DEPTH", "Counts the move paths of DEPTH plies from a position; a finished game\ncounts as a leaf. The count is the last line of output.")
	fen := fs.String("fen", "", "start from this position string instead of the starting position")
	rules := rulesetFlag(fs)
	bulk := fs.Bool("bulk", false, "count the last ply's moves without making them")
	verbose := fs.Bool("v", false, "print the count per first move and nodes per second on stdout")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 0 {
		return fmt.Errorf("depth %q: want a whole number from 0", fs.Arg(0))
	}
	p, _, err := position(*rules, *fen, "--fen")
	if err != nil {
		return err
	}
	count := toguz.Perft
	if *bulk {
		count = toguz.PerftBulk
	}
	start := time.Now()
	var n uint64
	if *verbose && depth > 0 && !p.IsOver() {
		for m := range p.LegalMoves().All() {
			k := count(p.After(m), depth-1)
			fmt.Fprintf(e.stdout, "%d: %d\n", m, k)
			n += k
		}
	} else {
		n = count(p, depth)
	}
	elapsed := time.Since(start)
	stats := e.stderr
	if *verbose {
		stats = e.stdout
	}
	fmt.Fprintf(stats, "%.3fs, %.0f leaves/s\n", elapsed.Seconds(), float64(n)/elapsed.Seconds())
	fmt.Fprintln(e.stdout, n)
	return nil
}
