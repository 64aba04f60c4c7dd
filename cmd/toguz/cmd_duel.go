package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/engine/duel"
	"github.com/toguz/toguz/internal/engine/eval"
)

func runDuel(ctx context.Context, e env) error {
	fs := newFlags(e, "duel", "-off FEATURE | -levels A,B | -weights FILE", `Plays engine A (the default options) against engine B in this process, one
thread each: random openings (-open-plies plies from the start), each played
with both colours, the same limit per move for both, and prints A's score and
Elo difference (package internal/engine/duel). It is the development loop of
docs/engine-testing.md; 'toguz match' plays protocol engines with clocks and
an SPRT. Exactly one of:
  -off FEATURE   B has this search feature (engine.Features, any case) off;
                 'none' plays the default against itself
  -levels A,B    A and B play at these strength levels
  -weights FILE  A evaluates with these weights (as 'toguz tune' writes them)`)
	off := fs.String("off", "", "the feature B plays without, or none")
	levels := fs.String("levels", "", "the levels of A and B, \"A,B\"")
	weights := fs.String("weights", "", "evaluation weights file for A")
	openings := fs.Int("openings", 50, "openings, two games each")
	openPlies := fs.Int("open-plies", 6, "random plies of each opening")
	nodes := fs.Uint64("nodes", 0, "nodes per move")
	depth := fs.Int("depth", 0, "depth per move")
	movetime := fs.Duration("movetime", 0, "time per move")
	hash := fs.Int("hash", 16, "transposition table MiB of each engine")
	seed := fs.Uint64("seed", 7, "random seed of the openings")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	given := 0
	for _, s := range []string{*off, *levels, *weights} {
		if s != "" {
			given++
		}
	}
	if given != 1 || fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	// Without a limit each search would run for ever.
	if *nodes == 0 && *depth <= 0 && *movetime <= 0 {
		return errors.New("no limit per move: give -nodes, -depth or -movetime")
	}
	if *openings < 1 || *openPlies < 0 {
		return fmt.Errorf("-openings %d, -open-plies %d: want at least 1 and 0", *openings, *openPlies)
	}
	a, b := engine.DefaultOptions(), engine.DefaultOptions()
	a.HashMB, b.HashMB = *hash, *hash
	switch {
	case *weights != "":
		w, err := readWeights(*weights)
		if err != nil {
			return err
		}
		a.Eval = w
	case *levels != "":
		if _, err := fmt.Sscanf(*levels, "%d,%d", &a.Level, &b.Level); err != nil {
			return fmt.Errorf("-levels %q: want A,B: %w", *levels, err)
		}
	case *off != "none":
		f, ok := featureNamed(*off)
		if !ok {
			return fmt.Errorf("-off %q: no such feature; want none or one of %s", *off, featureList())
		}
		*f.Field(&b) = false
	}
	cfg := duel.Config{A: a, B: b, Openings: *openings, OpenPlies: *openPlies, Seed: *seed,
		Limits: engine.Limits{Nodes: *nodes, Depth: max(*depth, 0), MoveTime: max(*movetime, 0)}}
	start := time.Now()
	res, err := duel.Play(ctx, cfg, func(r duel.Result) {
		if r.Games()%20 == 0 {
			fmt.Fprintf(e.stderr, "%d games: %v\n", r.Games(), r)
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "A vs B (off %q, levels %q, weights %q), limits %+v: %v in %v\n",
		*off, *levels, *weights, cfg.Limits, res, time.Since(start).Round(time.Second))
	return nil
}

// readWeights reads an evaluation weights file.
func readWeights(name string) (*eval.Weights, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close() // read only
	w, err := eval.ParseWeights(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return w, nil
}

// featureNamed returns the search feature of that name, in any case.
func featureNamed(name string) (engine.Feature, bool) {
	for _, f := range engine.Features() {
		if strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return engine.Feature{}, false
}

// featureList returns the names of the search features.
func featureList() string {
	var names []string
	for _, f := range engine.Features() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
