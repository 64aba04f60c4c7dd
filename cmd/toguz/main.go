// Command toguz is the one binary of the toguz system: the rules tools,
// the engine, the match runner and the server. Run `toguz help` for the list
// of subcommands and `toguz CMD -h` for one of them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/server"
)

// env is what a subcommand gets from the process: its arguments and
// standard streams. Subcommands never touch os.Stdin/os.Stdout directly, so
// tests run them in-process.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// lookupEnv reads the environment (os.LookupEnv; nil in tests: an
	// empty one), for the commands whose flags it can set (flagsFromEnv).
	lookupEnv func(string) (string, bool)
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e env) error
}

// commands lists the subcommands in the order `toguz help` shows them.
// Each is implemented in cmd_<name>.go.
var commands = []command{
	{"perft", "count move paths from a position (move generator check)", runPerft},
	{"replay", "replay game files, checking every move and annotation", runReplay},
	{"convert", "convert game files between record formats", runConvert},
	{"show", "print the board diagram of a position string, a record's ply or a diagram", runShow},
	{"key", "calculate on the board as seed 000's key does: + - * / in bases 2..10, step by step", runKey},
	{"render", "draw a position string, a record's ply or a diagram as SVG", runRender},
	{"tablebase", "generate, probe or verify the endgame tablebase", runTablebase},
	{"engine", "speak the engine protocol on stdin/stdout (docs/protocol.md)", runEngine},
	{"bench", "time to depth and depth in time of the search with 1, 2, 4… threads", runBench},
	{"sprt", "the SPRT of pair counts, several runs summed (as match computes it)", runSPRT},
	{"openings", "build an opening suite for match from game files", runOpenings},
	{"match", "play engines against each other: Elo, SPRT, records (like cutechess-cli)", runMatch},
	{"duel", "play two engine configurations in this process: a feature off, two levels, new weights", runDuel},
	{"shortest", "find and prove the shortest game that ends in a win", runShortest},
	{"analyze", "annotate game records: evaluations, best moves, mistakes", runAnalyze},
	{"fairplay", "judge game records for engine help (z-score, IPR, flag); fit and measure the model", runFairplay},
	{"levels", "place the engine's levels on the online rating scale from rated games (the level table of docs/engine.md)", runLevels},
	{"tune", "fit the engine's evaluation weights (or, with -neural, its network) on games and self-play", runTune},
	{"book", "build or query the opening book", runBook},
	{"puzzles", "mine proven puzzles from games and self-play", runPuzzles},
	{"serve", "serve the web interface and the live-game API (docs/api.md)", runServe},
	{"nats", "run a NATS server for several serve nodes to share their live games over", runNats},
	{"worker", "review games for servers over NATS (serve -nats … -review-remote), as lichess's fishnet", runWorker},
	{"play", "play a game in the terminal against the engine or a person", runPlay},
	{"bot", "connect an engine to a server as a bot (the bot API, like lichess-bot)", runBot},
	{"loadtest", "simulated players against a server: games/s, move round trip, errors", runLoadtest},
	{"attack", "the abuse attacks at a server's bounds, to run beside loadtest: answers counted", runAttack},
	{"reports", "list the reported chat messages of a server's database (for its administrators)", runReports},
	{"account", "the operator's help with accounts: reset-link NAME makes a password-reset link", runAccount},
	{"mod", "grant or revoke the moderator role of an account, or list the moderators", runMod},
	{"federation", "the federations' register: the federations, their officers, their rating lists (import, publish, export)", runFederation},
	{"tournament", "run an event at the arbiter's table: players, pairings, results, standings, TRF", runTournament},
	{"review-worker", "review games sent on stdin, a JSON line each (serve runs it for its game reviews)", runReviewWorker},
	{"export-db", "write the open database: every rated game with its review, one compressed record file a month, and the puzzles", runExportDB},
	{"copy-db", "copy a server's SQLite database to a new PostgreSQL database (the move to several nodes)", runCopyDB},
	{"backup", "back a server's SQLite database up while it serves (on PostgreSQL: pg_dump)", runBackup},
}

// errUsage is returned when the arguments are wrong; the flag set has
// already printed what was expected.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, env{args: os.Args[1:], stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, lookupEnv: os.LookupEnv})
	stop()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the exit code.
func run(ctx context.Context, e env) int {
	if len(e.args) == 0 || e.args[0] == "help" || e.args[0] == "-h" || e.args[0] == "--help" {
		usage(e.stdout)
		if len(e.args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == e.args[0] {
			sub := e
			sub.args = e.args[1:]
			err := c.run(ctx, sub)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			}
			fmt.Fprintf(e.stderr, "toguz %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(e.stderr, "toguz: unknown command %q\n", e.args[0])
	usage(e.stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "toguz: the Toguz Kumalak system\n\nUsage: toguz COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'toguz COMMAND -h' for the flags of a command.")
}

// newFlags returns a flag set for a subcommand that writes its usage to
// e.stderr and returns errors instead of exiting.
func newFlags(e env, name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n%s\n\nFlags:\n", strings.TrimSpace("toguz "+name+" [flags] "+args), summary)
		fs.PrintDefaults()
	}
	return fs
}

// closeInto closes a file that was written and keeps the error of Close in
// *err unless an earlier error is there: data the system held back can
// fail to reach the disk only then. It is deferred with a named result.
func closeInto(c io.Closer, err *error) {
	if cerr := c.Close(); cerr != nil && *err == nil {
		*err = cerr
	}
}

// rulesetFlag registers the -ruleset flag of the commands that read
// positions.
func rulesetFlag(fs *flag.FlagSet) *string {
	return fs.String("ruleset", "standard", "ruleset name (standard, bestemshe, seven, pre1949, or parameters)")
}

// position returns the position that a -ruleset value and a position string
// name, with its move number: the ruleset's start when fen is empty. An
// error in the position string is prefixed with label (a flag name) if any.
func position(rules, fen, label string) (toguz.Position, int, error) {
	r, err := toguz.ParseRules(rules)
	if err != nil {
		return toguz.Position{}, 0, err
	}
	if fen == "" {
		p, err := toguz.NewPosition(r)
		return p, 1, err
	}
	p, full, err := toguz.ParseFEN(fen, r)
	if err != nil && label != "" {
		err = fmt.Errorf("%s: %w", label, err)
	}
	return p, full, err
}

// board is the one position of show and render, with the move that led to
// it when it comes from a record.
type board struct {
	pos    toguz.Position
	before toguz.Position // the position before last
	last   toguz.Move     // the last move, 0 when unknown
}

// positionFromArgs registers the flags that say where the one position of
// a command comes from, parses args and returns the position: a position
// string as the arguments (quoted or as separate fields, under -ruleset),
// a game record (-record FILE, -game N, -ply N) or a text diagram as the
// seeds draw it (-diagram FILE, "-" for stdin, under -ruleset).
func positionFromArgs(fs *flag.FlagSet, e env, rules *string) (board, error) {
	record := fs.String("record", "", "take the position from this game record (any format)")
	game := fs.Int("game", 1, "with -record: the game, 1 for the file's first")
	ply := fs.Int("ply", -1, "with -record: the position after this many plies, 0 for the start, -1 for the last")
	diagram := fs.String("diagram", "", "take the position from this text diagram (docs/rules.md §5, as show prints it; - for stdin)")
	if err := parseFlags(fs, e.args); err != nil {
		return board{}, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	sources := 0
	for _, given := range []bool{fs.NArg() > 0, *record != "", *diagram != ""} {
		sources += b2i(given)
	}
	switch {
	case sources == 0:
		fs.Usage()
		return board{}, errUsage
	case sources > 1:
		return board{}, errors.New("give one position: a position string, -record or -diagram")
	case *record == "" && (set["game"] || set["ply"]):
		return board{}, errors.New("-game and -ply need -record")
	case *record != "" && set["ruleset"]:
		return board{}, errors.New("-ruleset: a record names its own ruleset")
	case *record != "":
		return recordPosition(*record, *game, *ply)
	case *diagram != "":
		r, err := toguz.ParseRules(*rules)
		if err != nil {
			return board{}, err
		}
		var text []byte
		if *diagram == "-" {
			text, err = io.ReadAll(e.stdin)
		} else {
			text, err = os.ReadFile(*diagram)
		}
		if err != nil {
			return board{}, err
		}
		p, err := toguz.ParseDiagram(string(text), r)
		if err != nil {
			return board{}, fmt.Errorf("-diagram %s: %w", *diagram, err)
		}
		return board{pos: p}, nil
	}
	p, _, err := position(*rules, strings.Join(fs.Args(), " "), "")
	return board{pos: p}, err
}

// recordPosition returns the position after ply plies (all when negative)
// of the game-th game of a record file, replayed and checked.
func recordPosition(file string, game, ply int) (board, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return board{}, err
	}
	games, err := toguz.ParseGames(file, data, 0)
	if err != nil {
		return board{}, err
	}
	if game < 1 || game > len(games) {
		return board{}, fmt.Errorf("-game %d: %s holds %d games", game, file, len(games))
	}
	g := games[game-1]
	ps, err := g.Positions()
	if err != nil {
		return board{}, err
	}
	n := len(g.Plies)
	if ply > n {
		return board{}, fmt.Errorf("-ply %d: game %d of %s has %d plies", ply, game, file, n)
	}
	if ply >= 0 {
		n = ply
	}
	b := board{pos: ps[n]}
	if n > 0 {
		b.before, b.last = ps[n-1], g.Plies[n-1].Move
	}
	return b, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parseFlags parses args and maps a parse failure to errUsage.
// flagsFromEnv sets each flag of fs that the command line did not from
// the environment variable of its name: TOGUZ_ and the name in capitals
// with '-' as '_' (-first-move: TOGUZ_FIRST_MOVE), so that a service
// manager or a container configures `toguz serve` as its flags do. A flag
// given on the command line wins; a value the flag refuses is an error
// that names the variable. A nil lookup is an empty environment.
func flagsFromEnv(fs *flag.FlagSet, lookup func(string) (string, bool)) error {
	if lookup == nil {
		return nil
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || given[f.Name] {
			return
		}
		name := envName(f.Name)
		v, ok := lookup(name)
		if !ok {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = fmt.Errorf("environment %s=%q: invalid value for -%s: %w", name, v, f.Name, serr)
		}
	})
	return err
}

// envName is the environment variable of flag name.
func envName(name string) string { return server.EnvName(name) }

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return nil
}
