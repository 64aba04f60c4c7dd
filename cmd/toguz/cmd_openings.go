package main

import (
	"context"
	"fmt"
	"math"
	"os"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/openings"
)

const openingsSummary = `Builds an opening suite for 'toguz match -openings' from game FILEs (any record
format of the standard game): the distinct positions after -min to -max plies
whose kazans differ by at most -gap stones, in the order they first occur, one
position string per line. With -depth, a search of that depth by the engine
(full strength, one thread) must also score the position within -max-score
stones of level: an opening that one side wins anyway is played the same way
with both colours and tells a match nothing. The built-in suite of 'toguz
match' is
  toguz openings ../shared/data/masters-2018.pgn
With -ruleset and no FILE, the positions are those reached from that ruleset's
start by every sequence of -min to -max moves (breadth first), for a ruleset
that has no recorded games; Bestemshe's suite of docs/engine-testing.md is
  toguz openings -ruleset bestemshe -min 5 -max 5 -gap 4`

func runOpenings(ctx context.Context, e env) error {
	fs := newFlags(e, "openings", "FILE...", openingsSummary)
	minPly := fs.Int("min", openings.MinPly, "fewest plies played")
	maxPly := fs.Int("max", openings.MaxPly, "most plies played")
	gap := fs.Int("gap", openings.MaxKazanGap, "largest kazan difference in stones")
	depth := fs.Int("depth", 0, "keep only positions that a search of this depth scores level (0: no search)")
	maxScore := fs.Float64("max-score", 3, "with -depth: largest score, in stones, of a level position")
	ruleset := fs.String("ruleset", "", "with no FILE: every position of this ruleset after -min to -max plies from its start")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if (fs.NArg() == 0) == (*ruleset == "") || *minPly < 1 || *maxPly < *minPly || *gap < 0 || *depth < 0 || *maxScore < 0 {
		fs.Usage()
		return errUsage
	}
	var games [][]toguz.Move
	for _, name := range fs.Args() {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		g, err := openings.ReadGames(name, data)
		if err != nil {
			return err
		}
		games = append(games, g...)
	}
	suite := openings.Build(games, *minPly, *maxPly, *gap)
	from := fmt.Sprintf("%d games", len(games))
	if *ruleset != "" {
		rules, err := toguz.ParseRules(*ruleset)
		if err != nil {
			return fmt.Errorf("-ruleset: %w", err)
		}
		if suite, err = openings.Tree(rules, *minPly, *maxPly, *gap); err != nil {
			return err
		}
		from = "the start of " + rules.String()
	}
	if *depth > 0 {
		eng, err := engine.New(engine.DefaultOptions())
		if err != nil {
			return err
		}
		level := suite[:0]
		for _, o := range suite {
			eng.NewGame()
			r := eng.Search(ctx, o.Position, engine.Limits{Depth: *depth}, nil)
			if err := ctx.Err(); err != nil {
				return err
			}
			if !r.Score.IsMate() && math.Abs(float64(r.Score)) <= *maxScore*100 {
				level = append(level, o)
			}
		}
		suite = level
	}
	if len(suite) == 0 {
		return fmt.Errorf("no position of %s passes the filter", from)
	}
	fmt.Fprintf(e.stderr, "%d openings from %s\n", len(suite), from)
	return openings.Format(e.stdout, suite)
}
