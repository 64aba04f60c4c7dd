package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/engine"
)

func runBook(ctx context.Context, e env) error {
	if len(e.args) > 0 {
		sub := e
		sub.args = e.args[1:]
		switch e.args[0] {
		case "build":
			return runBookBuild(ctx, sub)
		case "show":
			return runBookShow(sub)
		}
	}
	help := len(e.args) > 0 && (e.args[0] == "-h" || e.args[0] == "-help" || e.args[0] == "--help")
	fmt.Fprint(e.stderr, `Usage: toguz book build -o FILE [flags]   build a book from game files and self-play
       toguz book show [flags] [FEN]       list a position's book moves (default: the start)

Run 'toguz book build -h' or 'toguz book show -h' for the flags.
`)
	if help {
		return flag.ErrHelp
	}
	return errUsage
}

// gameFiles is the repeatable --games flag: FILE or FILE@WEIGHT.
type gameFiles []gameFile

type gameFile struct {
	name   string
	weight uint32
}

func (g *gameFiles) String() string { return "" }

func (g *gameFiles) Set(s string) error {
	name, w := s, uint64(1)
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		var err error
		if w, err = strconv.ParseUint(s[i+1:], 10, 32); err != nil || w == 0 {
			return fmt.Errorf("weight %q: want a whole number from 1", s[i+1:])
		}
		name = s[:i]
	}
	*g = append(*g, gameFile{name, uint32(w)})
	return nil
}

const bookBuildSummary = `Builds an opening book from the first plies of games: the game FILEs (any
record format; FILE@W counts each game W times, to weigh masters above online
amateurs) and self-play games of the engine. A move stays when it was played
--min-count times; with --check-depth, moves that lost badly are dropped: those
the engine finds --check-margin hundredths of a stone worse than its best and
that scored 10 points below the position's mean in the games. The same
inputs and flags give the same file. With -ruleset, the book of another ruleset
(games of other rulesets are skipped). The embedded books were made with:
  toguz book build -o internal/book/default.book --games ../shared/data/masters-2018.pgn --check-depth 8
  toguz book build -ruleset bestemshe -o internal/book/bestemshe.book -selfplay 2000 -selfplay-level 9 -selfplay-depth 10 -check-depth 10
  toguz book build -ruleset seven -o internal/book/seven.book -selfplay 800 -selfplay-level 9 -selfplay-depth 10 -check-depth 10`

func runBookBuild(ctx context.Context, e env) error {
	fs := newFlags(e, "book build", "", bookBuildSummary)
	var f bookBuildFlags
	f.register(fs)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if err := f.check(fs); err != nil {
		return err
	}
	rules, err := toguz.ParseRules(f.rules)
	if err != nil {
		return err
	}
	start := time.Now()
	opts, err := f.options(rules)
	if err != nil {
		return err
	}
	b := book.NewBuilder(opts)
	if err := f.addFiles(e, b); err != nil {
		return err
	}
	if err := f.addSelfPlay(ctx, e, b, rules); err != nil {
		return err
	}
	bk, err := b.Build(ctx)
	if err != nil {
		return err
	}
	if err := bk.WriteFile(f.out); err != nil {
		return err
	}
	added, skipped := b.Counts()
	st, err := os.Stat(f.out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%s: %d positions, %d moves, %d bytes from %d games (%d skipped for their rules) in %.1fs\n",
		f.out, bk.Info().Positions, bk.Info().Moves, st.Size(), added, skipped, time.Since(start).Seconds())
	return nil
}

// bookBuildFlags are the flags of toguz book build.
type bookBuildFlags struct {
	out                        string
	files                      gameFiles
	maxPly                     int
	minCount                   uint
	checkDepth, checkMargin    int
	selfplay, spDepth, spLevel int
	spWeight                   uint
	seed                       int64
	rules                      string
}

func (f *bookBuildFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "o", "", "write the book to this file (required)")
	fs.Var(&f.files, "games", "a game file to read, FILE or FILE@WEIGHT (repeatable)")
	fs.IntVar(&f.maxPly, "max-ply", book.DefaultMaxPly, "record the positions before the first N plies of each game")
	fs.UintVar(&f.minCount, "min-count", book.DefaultMinCount, "keep a move played at least N times (weighted)")
	fs.IntVar(&f.checkDepth, "check-depth", 0, "engine check at this depth (0: none)")
	fs.IntVar(&f.checkMargin, "check-margin", book.DefaultCheckMargin, "a move this many hundredths of a stone worse than the engine's best lost badly")
	fs.IntVar(&f.selfplay, "selfplay", 0, "self-play games to add")
	fs.IntVar(&f.spDepth, "selfplay-depth", 6, "search depth of self-play moves")
	fs.IntVar(&f.spLevel, "selfplay-level", 8, fmt.Sprintf("engine level of self-play (below %d varies the moves)", engine.MaxLevel))
	fs.UintVar(&f.spWeight, "selfplay-weight", 1, "what each self-play game counts for")
	fs.Int64Var(&f.seed, "seed", 1, "random seed of self-play")
	fs.StringVar(&f.rules, "ruleset", "standard", "ruleset of the book")
}

// check says whether the flags and arguments make a build.
func (f *bookBuildFlags) check(fs *flag.FlagSet) error {
	if f.out == "" || fs.NArg() != 0 || (len(f.files) == 0 && f.selfplay == 0) {
		fs.Usage()
		return errUsage
	}
	if f.maxPly < 1 || f.maxPly > 0xffff || f.minCount < 1 || f.minCount > 1<<31 || f.selfplay < 0 || f.checkDepth < 0 {
		return fmt.Errorf("want --max-ply 1..65535, --min-count from 1, --selfplay and --check-depth from 0")
	}
	return nil
}

// options returns the builder's options, the description naming every
// input and setting so that the book tells how it was made.
func (f *bookBuildFlags) options(rules toguz.Rules) (book.Options, error) {
	var desc []string
	for _, g := range f.files {
		desc = append(desc, fmt.Sprintf("%s@%d", filepath.Base(g.name), g.weight))
	}
	opts := book.Options{Rules: rules, MaxPly: f.maxPly, MinCount: uint32(f.minCount), CheckMargin: f.checkMargin}
	if f.selfplay > 0 {
		desc = append(desc, fmt.Sprintf("selfplay %d@%d (depth %d, level %d, seed %d)", f.selfplay, f.spWeight, f.spDepth, f.spLevel, f.seed))
	}
	desc = append(desc, fmt.Sprintf("max-ply %d, min-count %d", f.maxPly, f.minCount))
	if f.checkDepth > 0 {
		check, err := newEngineCheck(f.checkDepth)
		if err != nil {
			return opts, err
		}
		opts.Check = check
		desc = append(desc, fmt.Sprintf("check depth %d margin %d", f.checkDepth, f.checkMargin))
	}
	opts.Description = strings.Join(desc, "; ")
	return opts, nil
}

// addFiles adds the games of the -games files.
func (f *bookBuildFlags) addFiles(e env, b *book.Builder) error {
	for _, g := range f.files {
		data, err := os.ReadFile(g.name)
		if err != nil {
			return err
		}
		games, err := toguz.ParseGames(g.name, data, 0)
		if err != nil {
			return err
		}
		if err := b.AddRecords(games, g.weight); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "%s: %d games\n", g.name, len(games))
	}
	return nil
}

// addSelfPlay plays and adds the -selfplay games, if any.
func (f *bookBuildFlags) addSelfPlay(ctx context.Context, e env, b *book.Builder, rules toguz.Rules) error {
	if f.selfplay <= 0 {
		return nil
	}
	pl, err := newSelfPlayer(f.spLevel, f.spDepth, f.seed)
	if err != nil {
		return err
	}
	startPos, err := toguz.NewPosition(rules)
	if err != nil {
		return err
	}
	games, err := book.SelfPlay(ctx, startPos, f.selfplay, 1000, pl, func(done int) {
		fmt.Fprintf(e.stderr, "\rself-play: %d/%d games", done, f.selfplay)
	})
	fmt.Fprintln(e.stderr)
	if err != nil {
		return err
	}
	for _, g := range games {
		g.Weight = uint32(f.spWeight)
		if err := b.AddGame(g); err != nil {
			return err
		}
	}
	return nil
}

// newEngineCheck returns the book's engine check: a fixed-depth search on
// one thread from an empty table, so that a value depends only on the
// position.
func newEngineCheck(depth int) (func(context.Context, toguz.Position) int, error) {
	opts := engine.DefaultOptions()
	opts.HashMB = 4
	eng, err := engine.New(opts)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, p toguz.Position) int {
		eng.NewGame()
		return int(eng.Search(ctx, p, engine.Limits{Depth: depth}, nil).Score)
	}, nil
}

// selfPlayer is the engine as a book.Player: a weaker level varies its
// moves from its seed, which is the build's seed plus the game number.
type selfPlayer struct {
	eng   *engine.Engine
	opts  engine.Options
	depth int
	seed  int64
}

func newSelfPlayer(level, depth int, seed int64) (*selfPlayer, error) {
	opts := engine.DefaultOptions()
	opts.HashMB, opts.Level, opts.Seed = 16, level, seed
	eng, err := engine.New(opts)
	if err != nil {
		return nil, err
	}
	return &selfPlayer{eng: eng, opts: opts, depth: depth, seed: seed}, nil
}

func (s *selfPlayer) NewGame(game int) error {
	s.opts.Seed = s.seed + int64(game)
	if err := s.eng.SetOptions(s.opts); err != nil {
		return err
	}
	s.eng.NewGame()
	return nil
}

func (s *selfPlayer) Move(ctx context.Context, p toguz.Position) toguz.Move {
	return s.eng.Search(ctx, p, engine.Limits{Depth: s.depth}, nil).Best
}

func runBookShow(e env) error {
	fs := newFlags(e, "book show", "[FEN]", "Lists the book moves of a position (the starting position when no FEN is\ngiven): count, results for the mover, score and the engine check's value.")
	file := fs.String("book", "", "book file (default: the embedded book of the ruleset: standard, bestemshe or seven)")
	rulesName := fs.String("ruleset", "standard", "ruleset of the position")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return errUsage
	}
	rules, err := toguz.ParseRules(*rulesName)
	if err != nil {
		return err
	}
	var bk *book.Book
	if *file == "" {
		set, err := book.DefaultSet()
		if err != nil {
			return err
		}
		if bk = set.For(rules); bk == nil {
			return fmt.Errorf("no embedded book of the ruleset %s (give one with -book)", rules)
		}
	} else if bk, err = book.Open(*file); err != nil {
		return err
	}
	p, err := toguz.NewPosition(rules)
	if err != nil {
		return err
	}
	full := 1
	if fs.NArg() == 1 {
		if p, full, err = toguz.ParseFEN(fs.Arg(0), rules); err != nil {
			return err
		}
	}
	info := bk.Info()
	fmt.Fprintf(e.stdout, "book: %d positions, %d moves (%s)\nposition: %s\n", info.Positions, info.Moves, info.Description, toguz.FormatFEN(p, full))
	es := bk.Moves(p)
	if len(es) == 0 {
		fmt.Fprintln(e.stdout, "not in the book")
		return nil
	}
	best, _ := bk.Pick(p, nil, book.Best)
	fmt.Fprintln(e.stdout, "move  count   wins  draws losses  score   eval")
	for _, en := range es {
		ev := "     -"
		if en.Eval != book.NoEval {
			ev = fmt.Sprintf("%+6.2f", float64(en.Eval)/100)
		}
		mark := ""
		if en.Move == best {
			mark = "  best"
		}
		fmt.Fprintf(e.stdout, "%4d %6d %6d %6d %6d %5.1f%% %s%s\n", en.Move, en.Count, en.Wins, en.Draws, en.Losses, 100*en.Score(), ev, mark)
	}
	return nil
}
