package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/match"
	"github.com/toguz/toguz/internal/openings"
	"github.com/toguz/toguz/internal/tablebase"
)

const matchSummary = `Plays two engines that speak the engine protocol against each other, like
cutechess-cli, and judges every game by the rules library.

  -engine name=NAME [cmd="PROGRAM ARGS"] [dir=DIR] [option.NAME=VALUE]... [TC]
  -each [TC] [option.NAME=VALUE]...   (applies to both engines)
  TC: tc=[MOVES/]SECONDS[+INC] | st=SECONDS (per move) | depth=N | nodes=N

Without cmd=, an engine is this program's own "toguz engine". Each opening
of the suite is played twice with colours swapped.

  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05   stop when the test decides
  -resign score=CP moves=N                   adjudicate when both engines agree

Example:
  toguz match -engine name=full -engine name=noLMR option.LMR=false \
    -each tc=10+0.1 -games 200 -concurrency 2 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`

func runMatch(ctx context.Context, e env) (err error) {
	fs := newFlags(e, "match", "-engine … -engine …", matchSummary)
	mf := newMatchFlags(fs)
	groups, rest, err := groupArgs(e.args, "-engine", "-each", "-sprt", "-resign")
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return errUsage
	}
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	cfg, err := mf.config(e, groups)
	if err != nil {
		return err
	}
	if *mf.pgnout != "" {
		f, ferr := os.OpenFile(*mf.pgnout, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if ferr != nil {
			return ferr
		}
		// The named result: a failed close of the games' file fails the match.
		defer closeInto(f, &err)
		cfg.Records = f
	}
	if f, ok := e.stderr.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		cfg.Progress = e.stderr
	}
	start := time.Now()
	rep, err := match.Run(ctx, cfg)
	printReport(e, cfg, rep, time.Since(start))
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// matchFlags are the flags of toguz match.
type matchFlags struct {
	games, rounds, conc, maxPlies, repetition *int
	openingsFile, pgnout, tbPath, ruleset     *string
	margin                                    *time.Duration
}

func newMatchFlags(fs *flag.FlagSet) matchFlags {
	var mf matchFlags
	mf.games = fs.Int("games", 2, "games to play (rounded up to pairs of games with colours swapped)")
	mf.rounds = fs.Int("rounds", 0, "rounds: pairs of games (overrides -games when set)")
	mf.conc = fs.Int("concurrency", 1, "games played at once")
	mf.openingsFile = fs.String("openings", "", "file of opening position strings, one per line (default: the built-in suite of\nbalanced positions from the 2018 championship games; for other rulesets, their start)")
	mf.pgnout = fs.String("pgnout", "", "append the record of every game to this file")
	mf.maxPlies = fs.Int("maxplies", 0, "adjudicate a draw after this many plies (0: never)")
	mf.repetition = fs.Int("repetition", 0, "an event's rule: draw when a position occurs for the Nth time (0: off)")
	mf.tbPath = fs.String("tb", "", "adjudicate positions in the tablebase at this path (file or directory)")
	mf.margin = fs.Duration("timemargin", 50*time.Millisecond, "how far past its clock an engine may go")
	mf.ruleset = fs.String("ruleset", "standard", "ruleset of the games")
	return mf
}

// config builds the match from the flags and the argument groups, all but
// the records and the progress bar.
func (mf matchFlags) config(e env, groups [][]string) (match.Config, error) {
	rules, err := toguz.ParseRules(*mf.ruleset)
	if err != nil {
		return match.Config{}, err
	}
	cfg := match.Config{Rules: rules, Games: *mf.games, Concurrency: *mf.conc, TimeMargin: *mf.margin}
	if *mf.rounds > 0 {
		cfg.Games = 2 * *mf.rounds
	}
	cfg.MaxPlies = *mf.maxPlies
	cfg.Repetition = *mf.repetition

	engines, err := matchGroups(&cfg, groups)
	if err != nil {
		return cfg, err
	}
	if len(engines) != 2 {
		fmt.Fprintln(e.stderr, "toguz match: give exactly two -engine")
		return cfg, errUsage
	}
	if err := engineSpecs(&cfg, engines); err != nil {
		return cfg, err
	}
	suite, err := openingSuite(rules, *mf.openingsFile)
	if err != nil {
		return cfg, err
	}
	if cfg.Openings, err = openings.Parse(strings.NewReader(suite), rules); err != nil {
		return cfg, err
	}
	if *mf.tbPath != "" {
		t, err := openTables(*mf.tbPath)
		if err != nil {
			return cfg, fmt.Errorf("-tb: %w", err)
		}
		cfg.Referee = tablebaseReferee{t}
	}
	return cfg, nil
}

// matchGroups reads the -sprt and -resign groups into cfg and returns the
// words of each -engine, those of every -each before its own so that its own
// settings win.
func matchGroups(cfg *match.Config, groups [][]string) ([][]string, error) {
	var each []string
	var engines [][]string
	for _, g := range groups {
		switch g[0] {
		case "-each":
			each = append(each, g[1:]...)
		case "-engine":
			engines = append(engines, g[1:])
		case "-sprt":
			kv, err := keyValues(g[1:], "elo0", "elo1", "alpha", "beta")
			if err != nil {
				return nil, fmt.Errorf("-sprt: %w", err)
			}
			cfg.SPRT = &match.SPRT{Elo0: kv["elo0"], Elo1: kv["elo1"], Alpha: kv["alpha"], Beta: kv["beta"]}
		case "-resign":
			kv, err := keyValues(g[1:], "score", "moves")
			if err != nil {
				return nil, fmt.Errorf("-resign: %w", err)
			}
			cfg.ResignScore, cfg.ResignMoves = int(kv["score"]), int(kv["moves"])
		}
	}
	for i, args := range engines {
		engines[i] = append(append([]string(nil), each...), args...)
	}
	return engines, nil
}

// engineSpecs sets cfg's two engines from their words; an engine without
// cmd= is this program's own.
func engineSpecs(cfg *match.Config, engines [][]string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	for i, words := range engines {
		spec := match.EngineSpec{Cmd: []string{self, "engine"}}
		if err := applyEngineArgs(&spec, words); err != nil {
			return fmt.Errorf("-engine %d: %w", i+1, err)
		}
		if spec.Name == "" {
			spec.Name = fmt.Sprintf("engine%d", i+1)
		}
		cfg.Engines[i] = spec
	}
	return nil
}

// openingSuite returns the text of the openings: the file's when one is
// given, else the built-in suite, or for other rulesets their start.
func openingSuite(rules toguz.Rules, file string) (string, error) {
	suite := openings.Default
	if rules != toguz.Standard() {
		// The built-in suite is of the standard game: other rulesets start
		// from their starting position unless -openings says otherwise.
		start, err := toguz.NewPosition(rules)
		if err != nil {
			return "", err
		}
		suite = start.FEN()
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		suite = string(b)
	}
	return suite, nil
}

// printReport writes the result of the match as cutechess-cli does.
func printReport(e env, cfg match.Config, rep match.Report, d time.Duration) {
	a, b := cfg.Engines[0].Name, cfg.Engines[1].Name
	w := e.stdout
	fmt.Fprintf(w, "Score of %s vs %s: %d - %d - %d  [%.3f] %d games in %v\n", a, b,
		rep.Wins, rep.Losses, rep.Draws, rep.Score(), rep.Games(), d.Round(time.Second))
	fmt.Fprintf(w, "Elo difference: %s (95%% interval %.1f .. %.1f)\n", rep.Elo, rep.Elo.Lower, rep.Elo.Upper)
	fmt.Fprintf(w, "Pairs (0, ½, 1, 1½, 2 points): %v\n", rep.Pairs)
	if cfg.SPRT != nil {
		printSPRT(w, *cfg.SPRT, rep.LLR)
	}
	var ts []string
	for t, n := range rep.Terminations {
		ts = append(ts, fmt.Sprintf("%s %d", t, n))
	}
	sort.Strings(ts)
	fmt.Fprintf(w, "Endings: %s\n", strings.Join(ts, ", "))
	for _, name := range []string{a, b} {
		if mt := rep.MoveTimes(name); mt.Moves > 0 {
			ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) }
			fmt.Fprintf(w, "Move times of %s: mean %s ms, median %s, p99 %s, max %s over %d answers; late within the margin %d, games lost on time %d\n",
				name, ms(mt.Mean), ms(mt.P50), ms(mt.P99), ms(mt.Max), mt.Moves, mt.Late, mt.LostOnTime)
		}
	}
}

// groupArgs takes out of args each of the flags named and the KEY=VALUE
// words that follow it (cutechess-cli style); it returns the groups, each
// led by its flag, and the other arguments.
func groupArgs(args []string, names ...string) (groups [][]string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		grouped := false
		for _, n := range names {
			if a == n || a == "-"+n {
				grouped = true
			}
		}
		if !grouped {
			rest = append(rest, a)
			continue
		}
		g := []string{strings.TrimPrefix(a, "-")}
		g[0] = "-" + strings.TrimPrefix(g[0], "-")
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			if !strings.Contains(args[i], "=") {
				return nil, nil, fmt.Errorf("%s: %q is not KEY=VALUE", a, args[i])
			}
			g = append(g, args[i])
		}
		groups = append(groups, g)
	}
	return groups, rest, nil
}

// keyValues reads KEY=NUMBER words, all of keys required.
func keyValues(words []string, keys ...string) (map[string]float64, error) {
	kv := make(map[string]float64)
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", k, v)
		}
		kv[k] = x
	}
	for _, k := range keys {
		if _, ok := kv[k]; !ok {
			return nil, fmt.Errorf("%s= is missing", k)
		}
	}
	if len(kv) != len(keys) {
		return nil, fmt.Errorf("want exactly %s", strings.Join(keys, "=, ")+"=")
	}
	return kv, nil
}

// applyEngineArgs reads an engine's KEY=VALUE words into spec; a later word
// overrides an earlier one.
func applyEngineArgs(spec *match.EngineSpec, words []string) error {
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		var err error
		switch {
		case k == "name":
			spec.Name = v
		case k == "cmd":
			if spec.Cmd = strings.Fields(v); len(spec.Cmd) == 0 {
				return errors.New("cmd= is empty")
			}
		case k == "dir":
			spec.Dir = v
		case k == "tc":
			spec.TC, err = match.ParseTimeControl(v)
		case k == "st", k == "depth", k == "nodes":
			spec.TC, err = fixedLimit(k, v)
		case strings.HasPrefix(k, "option."):
			setOption(spec, strings.TrimPrefix(k, "option."), v)
		default:
			return fmt.Errorf("unknown setting %q", k)
		}
		if err != nil {
			return fmt.Errorf("%s=%s: %w", k, v, err)
		}
	}
	return nil
}

// fixedLimit reads st=, depth= or nodes=: a limit per move rather than a
// clock.
func fixedLimit(k, v string) (match.TimeControl, error) {
	var err error
	switch k {
	case "st":
		var s float64
		if s, err = strconv.ParseFloat(v, 64); err == nil && s <= 0 {
			err = errors.New("want a positive number of seconds")
		}
		return match.TimeControl{MoveTime: time.Duration(s * float64(time.Second))}, err
	case "depth":
		var n int
		if n, err = strconv.Atoi(v); err == nil && n < 1 {
			err = errors.New("want a depth from 1")
		}
		return match.TimeControl{Depth: n}, err
	default: // nodes
		var n uint64
		n, err = strconv.ParseUint(v, 10, 64)
		return match.TimeControl{Nodes: n}, err
	}
}

// setOption sets an engine option, replacing an earlier value of it.
func setOption(spec *match.EngineSpec, name, v string) {
	replaced := false
	for i := range spec.Options {
		if spec.Options[i][0] == name {
			spec.Options[i][1], replaced = v, true
		}
	}
	if !replaced {
		spec.Options = append(spec.Options, [2]string{name, v})
	}
}

// tablebaseReferee adjudicates the positions the tables of their own
// ruleset hold.
type tablebaseReferee struct{ t *tablebase.Set }

func (r tablebaseReferee) Adjudicate(p toguz.Position) (toguz.Result, bool) {
	wdl, ok := r.t.ProbeWDL(p)
	if !ok {
		return toguz.NoResult, false
	}
	switch wdl {
	case tablebase.Win:
		return toguz.WinFor(p.Turn()), true
	case tablebase.Loss:
		return toguz.WinFor(p.Turn().Other()), true
	}
	return toguz.Draw, true
}
