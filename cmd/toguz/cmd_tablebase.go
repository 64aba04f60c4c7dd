package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/tablebase"
)

func runTablebase(ctx context.Context, e env) error {
	if len(e.args) > 0 && e.args[0] == "generate" {
		e.args = e.args[1:]
		return runTablebaseGenerate(ctx, e)
	}
	fs := newFlags(e, "tablebase", "N | generate -ruleset R -stones N | -probe FEN FILE | -verify FILE",
		"Generates the endgame tablebase of the standard game: the result of every position\n"+
			"with up to N stones on the board (N at most "+strconv.Itoa(tablebase.MaxStones)+"), and the plies to the end up to\n"+
			"-dtm stones, written to DIR/standard-N.tgtb. `toguz tablebase generate` does the same\n"+
			"for every ruleset, resumably.\n"+
			"With -probe, looks a position up in the table FILE instead. With -verify, checks\n"+
			"FILE against a reference solver on every position reachable from -roots random\n"+
			"positions of -root-stones stones, or of its three largest layers (minutes and\n"+
			"gigabytes for 9 standard stones).")
	dir := fs.String("dir", ".", "directory to write the table to")
	dtm := fs.Int("dtm", 8, "distances to the end up to this many stones on the board (at most N; -1: none)")
	verbose := fs.Bool("v", false, "print the time of each stage and layer on stderr")
	probe := fs.String("probe", "", "look this position string up in the table FILE")
	verify := fs.Bool("verify", false, "check the table FILE against the reference solver")
	roots := fs.Int("roots", 24, "with -verify: random positions to explore from")
	rootStones := fs.Int("root-stones", 0, "with -verify: stones on the board of each root (0: the table's three largest layers)")
	seed := fs.Uint64("seed", 1, "with -verify: random seed of the positions")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	if *probe != "" {
		return probeTablebase(e, *probe, fs.Arg(0))
	}
	if *verify {
		return verifyTablebase(ctx, e, fs.Arg(0), tablebase.VerifyOptions{Roots: *roots, Stones: *rootStones, Seed: *seed})
	}
	n, err := strconv.Atoi(fs.Arg(0))
	if err != nil || n < 0 || n > tablebase.MaxStones {
		return fmt.Errorf("stone count %q: want a whole number from 0 to %d", fs.Arg(0), tablebase.MaxStones)
	}
	return generateTablebase(ctx, e, tablebase.Options{Rules: toguz.Standard(), Stones: n, DistanceStones: *dtm}, *dir, *verbose, tablebase.VerifyOptions{})
}

// runTablebaseGenerate is `toguz tablebase generate`: the tables of any
// ruleset that has them, with checkpoints so that a stopped generation
// resumes.
func runTablebaseGenerate(ctx context.Context, e env) error {
	fs := newFlags(e, "tablebase generate", "-ruleset R -stones N",
		"Generates the endgame tablebase of a ruleset (standard, bestemshe or seven): the result\n"+
			"of every position with up to -stones stones on the board, and the plies to the end up\n"+
			"to -dtm stones, written to DIR/RULESET-N.tgtb. Each layer is saved in -checkpoints as\n"+
			"soon as it is solved; stopped (Ctrl-C) and run again, it resumes at the layer it was\n"+
			"solving. The checkpoints are removed once the table is written. The table written is\n"+
			"then checked against a reference solver from -check random positions of -check-stones\n"+
			"stones (as `toguz tablebase -verify`).")
	ruleset := fs.String("ruleset", "standard", "the ruleset: standard, bestemshe or seven")
	stones := fs.Int("stones", -1, "the most stones on the board the table covers")
	dtm := fs.Int("dtm", 8, "distances to the end up to this many stones on the board (at most -stones; -1: none)")
	dir := fs.String("dir", ".", "directory to write the table to")
	checkpoints := fs.String("checkpoints", "", "directory of the checkpoints (default DIR/RULESET.partial)")
	verbose := fs.Bool("v", false, "print the time of each stage and layer on stderr")
	check := fs.Int("check", 4, "random positions to check the written table from (0: no check)")
	checkStones := fs.Int("check-stones", 8, "stones on the board of each position checked from (at most -stones)")
	seed := fs.Uint64("seed", 1, "random seed of the positions checked from")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	rules, err := toguz.ParseRules(*ruleset)
	if err != nil {
		return fmt.Errorf("-ruleset: %w", err)
	}
	limit, ok := tablebase.MaxStonesOf(rules)
	if !ok {
		return fmt.Errorf("-ruleset %s: no tables for it (standard, bestemshe or seven)", *ruleset)
	}
	if *stones < 0 || *stones > limit {
		return fmt.Errorf("-stones %d: want a whole number from 0 to %d for %s", *stones, limit, *ruleset)
	}
	if *check < 0 || *checkStones < 1 {
		return fmt.Errorf("-check %d -check-stones %d: want 0 or more positions of 1 or more stones", *check, *checkStones)
	}
	name, _ := tablebase.RulesetName(rules)
	cp := *checkpoints
	if cp == "" {
		cp = filepath.Join(*dir, name+".partial")
	}
	return generateTablebase(ctx, e, tablebase.Options{Rules: rules, Stones: *stones, DistanceStones: *dtm, Checkpoints: cp}, *dir, *verbose,
		tablebase.VerifyOptions{Roots: *check, Stones: min(*checkStones, *stones), Seed: *seed})
}

// generateTablebase generates the tables o asks for into dir, with a
// progress bar on a terminal.
func generateTablebase(ctx context.Context, e env, o tablebase.Options, dir string, verbose bool, check tablebase.VerifyOptions) error {
	if o.DistanceStones < -1 {
		return fmt.Errorf("-dtm %d: want -1 or more", o.DistanceStones)
	}
	o.DistanceStones = min(o.DistanceStones, o.Stones)
	start := time.Now()
	rep := &genReport{w: e.stderr, verbose: verbose, start: start}
	if f, ok := e.stderr.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(f.Fd())) {
		rep.bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("pos"),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	o.Progress = rep.progress
	path, err := tablebase.Generate(ctx, dir, o)
	rep.finishLayer(time.Now())
	if err != nil {
		return err
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: up to %d stones, distances up to %d, %d bytes, %.1fs\n",
		path, o.Stones, o.DistanceStones, info.Size(), time.Since(start).Seconds())
	if check.Roots == 0 || o.Stones == 0 {
		return nil
	}
	// The generator's own result is not taken on trust: it is read back
	// from the file and checked against the reference solver.
	return verifyTablebase(ctx, e, path, check)
}

// genReport turns the generator's progress into a bar (on a terminal) and,
// with -v, a line per stage and layer.
type genReport struct {
	w          io.Writer
	verbose    bool
	bar        *progressbar.ProgressBar
	start      time.Time
	stage      string // "" before the first report
	layer      int
	layerStart time.Time
}

func (r *genReport) progress(stage string, stones int, done, total int64) {
	if stage != r.stage || stones != r.layer {
		now := time.Now()
		r.finishLayer(now)
		r.stage, r.layer, r.layerStart = stage, stones, now
		if r.bar != nil {
			r.bar.Reset()
			r.bar.ChangeMax64(total)
			r.bar.Describe(fmt.Sprintf("%s, %d stones", stage, stones))
		}
	}
	if r.bar != nil {
		r.bar.Set64(done)
	}
}

func (r *genReport) finishLayer(now time.Time) {
	if r.stage == "" {
		return
	}
	if r.bar != nil {
		r.bar.Clear()
	}
	if r.verbose {
		fmt.Fprintf(r.w, "%-9s %2d stones: %8.1fs (total %.1fs)\n",
			r.stage, r.layer, now.Sub(r.layerStart).Seconds(), now.Sub(r.start).Seconds())
	}
	r.stage = ""
}

func verifyTablebase(ctx context.Context, e env, path string, o tablebase.VerifyOptions) error {
	if o.Roots < 1 {
		return fmt.Errorf("-roots %d: want at least 1", o.Roots)
	}
	t, err := tablebase.Open(path)
	if err != nil {
		return err
	}
	start := time.Now()
	rep, err := tablebase.Verify(ctx, t, o)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	of := "of its largest layers"
	if o.Stones > 0 {
		of = fmt.Sprintf("of %d stones", o.Stones)
	}
	fmt.Fprintf(e.stdout, "%s: %d positions reached from %d roots %s: results all agree, distances of %d agree (%v)\n",
		path, rep.Positions, rep.Roots, of, rep.Distances, time.Since(start).Round(time.Millisecond))
	return nil
}

func probeTablebase(e env, fen, path string) error {
	t, err := tablebase.Open(path)
	if err != nil {
		return err
	}
	p, _, err := toguz.ParseFEN(fen, t.Rules())
	if err != nil {
		return fmt.Errorf("-probe: %w", err)
	}
	wdl, ok := t.ProbeWDL(p)
	if !ok {
		return fmt.Errorf("the position is not in %s (up to %d stones)", path, t.MaxStones())
	}
	mover, opp, _ := t.Value(p)
	fmt.Fprintf(e.stdout, "%s for %s to move", wdl, p.Turn())
	if _, plies, ok := t.ProbeDTM(p); ok && wdl != tablebase.Draw {
		fmt.Fprintf(e.stdout, " in %d plies", plies)
	}
	fmt.Fprintf(e.stdout, "; %s can make sure to collect %d more stones, %s %d\n",
		p.Turn(), mover, p.Turn().Other(), opp)
	return nil
}
