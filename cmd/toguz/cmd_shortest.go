package main

import (
	"context"
	"fmt"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/shortest"
)

func runShortest(ctx context.Context, e env) error {
	fs := newFlags(e, "shortest", "", `Finds the shortest game that ends in a win, both sides cooperating, by an
exhaustive iterative deepening search with admissible bounds (see package
internal/shortest), and prints it as a record. Every shorter length is
searched to the end first, which proves that none is shorter.`)
	maxPlies := fs.Int("max", 16, "give up after this many plies")
	rules := rulesetFlag(fs)
	fen := fs.String("fen", "", "start from this position string instead of the starting position")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	start, _, err := position(*rules, *fen, "-fen")
	if err != nil {
		return err
	}
	begin := time.Now()
	res, err := shortest.Find(ctx, start, *maxPlies, func(d int, nodes uint64, el time.Duration, found bool) {
		verdict := "none"
		if found {
			verdict = "found"
		}
		fmt.Fprintf(e.stderr, "%2d plies: %s (%d positions, %v)\n", d, verdict, nodes, el.Round(time.Millisecond))
	})
	if err != nil {
		return err
	}
	total := time.Since(begin).Round(time.Millisecond)
	if res.Moves == nil {
		return fmt.Errorf("no decisive game of %d plies or fewer (%v)", *maxPlies, total)
	}
	g, err := toguz.NewGame(start, res.Moves...)
	if err != nil {
		return err
	}
	g.SetTag("Event", "shortest decisive game")
	g.SetTag("PlyCount", fmt.Sprint(len(res.Moves)))
	g.Result, g.Termination = res.Outcome.Result, res.Outcome.Termination
	var nodes uint64
	for _, n := range res.Nodes {
		nodes += n
	}
	g.Comment = fmt.Sprintf("Final count %d-%d. No game of %d plies or fewer ends in a win: "+
		"exhaustive search, %d positions, %v (toguz shortest).", res.Outcome.Score[0], res.Outcome.Score[1], len(res.Moves)-1, nodes, total)
	return toguz.WriteGames(e.stdout, toguz.FormatToguz, g)
}
