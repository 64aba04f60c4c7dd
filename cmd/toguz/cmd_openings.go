package main

import (
	"context"
	"fmt"
	"os"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/match"
)

const openingsSummary = `Builds an opening suite for 'toguz match -openings' from game FILEs (any record
format of the standard game): the distinct positions after -min to -max plies
whose kazans differ by at most -gap stones, in the order they first occur, one
position string per line. The built-in suite of 'toguz match' is
  toguz openings ../shared/data/masters-2018.pgn`

func runOpenings(ctx context.Context, e env) error {
	fs := newFlags(e, "openings", "FILE...", openingsSummary)
	minPly := fs.Int("min", match.OpeningsMinPly, "fewest plies played")
	maxPly := fs.Int("max", match.OpeningsMaxPly, "most plies played")
	gap := fs.Int("gap", match.OpeningsMaxKazanGap, "largest kazan difference in stones")
	if err := fs.Parse(e.args); err != nil {
		return errUsage
	}
	if fs.NArg() == 0 || *minPly < 1 || *maxPly < *minPly || *gap < 0 {
		fs.Usage()
		return errUsage
	}
	var games [][]toguz.Move
	for _, name := range fs.Args() {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		g, err := match.ReadGames(name, data)
		if err != nil {
			return err
		}
		games = append(games, g...)
	}
	suite := match.BuildOpenings(games, *minPly, *maxPly, *gap)
	if len(suite) == 0 {
		return fmt.Errorf("no position of %d games passes the filter", len(games))
	}
	fmt.Fprintf(e.stderr, "%d openings from %d games\n", len(suite), len(games))
	return match.FormatOpenings(e.stdout, suite)
}
