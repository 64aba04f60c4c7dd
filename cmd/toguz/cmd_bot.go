package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/botclient"
)

const botSummary = `Connects an engine to a toguz server as a bot, as lichess-bot does for lichess:
listens to the account's event stream, accepts the challenges the flags allow,
plays each game on its own, and reconnects with back-off when a stream breaks.

The account must be a bot (-upgrade makes it one, if it has played no game)
and the token have the bot:play scope (make one in the account's settings).
The engine is the built-in one at -level, or -engine, any program that speaks
the engine protocol (docs/protocol.md), one process per game.

Example:
  toguz bot -url https://toguz.example -token tgz_… -engine "./myengine --threads 1" -ladder`

func runBot(ctx context.Context, e env) error {
	fs := newFlags(e, "bot", "", botSummary)
	srv := fs.String("url", "http://127.0.0.1:8080", "the server")
	token := fs.String("token", os.Getenv("TOGUZ_BOT_TOKEN"), "the personal access token (default $TOGUZ_BOT_TOKEN)")
	engineCmd := fs.String("engine", "", `the engine program and its arguments ("": the built-in engine)`)
	level := fs.Int("level", 5, "the built-in engine's level (1-10)")
	games := fs.Int("games", 1, "games played at once; challenges beyond them are declined (later)")
	rated := fs.Bool("rated", true, "accept rated challenges")
	casual := fs.Bool("casual", true, "accept casual challenges")
	bots := fs.Bool("bots", true, "accept challenges from bots")
	people := fs.Bool("people", true, "accept challenges from people")
	minBase := fs.Duration("min-base", 0, "decline challenges with a shorter base time (tooFast)")
	maxBase := fs.Duration("max-base", 0, "decline challenges with a longer base time, and correspondence (tooSlow; 0: any)")
	unlimited := fs.Bool("unlimited", false, "accept games without a clock")
	rulesets := fs.String("rulesets", "standard", "the rulesets accepted, comma-separated")
	upgrade := fs.Bool("upgrade", false, "make the account a bot first")
	ladder := fs.Bool("ladder", false, "join the computer ladder (/bots): the server pairs the bot against other bots")
	var options engineOptions
	fs.Var(&options, "option", "an option of the -engine program, NAME=VALUE (setoption; repeat for more)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *token == "" {
		fs.Usage()
		return errUsage
	}
	var newEngine func(context.Context) (botclient.Engine, error)
	if argv := strings.Fields(*engineCmd); len(argv) > 0 {
		newEngine = botclient.Process(argv, options)
	} else {
		var err error
		if newEngine, err = botclient.Builtin(*level, *games); err != nil {
			return fmt.Errorf("-level: %w", err)
		}
	}
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	cfg := botclient.Config{URL: *srv, Token: *token, NewEngine: newEngine, MaxGames: *games, Logger: log,
		Policy: botclient.Policy{Rated: *rated, Casual: *casual, Bots: *bots, People: *people, MinBase: *minBase,
			MaxBase: *maxBase, Unlimited: *unlimited, Rulesets: strings.Split(*rulesets, ",")},
		OnGameOver: func(id, status string) { fmt.Fprintf(e.stdout, "game %s over: %s\n", id, status) }, Upgrade: *upgrade}
	b, err := botclient.New(ctx, cfg)
	if err != nil {
		return err
	}
	if *ladder {
		if err := b.SetLadder(ctx, true); err != nil {
			return fmt.Errorf("ladder: %w", err)
		}
	}
	fmt.Fprintf(e.stdout, "playing as %s on %s (%s)\n", b.Name(), *srv, time.Now().UTC().Format(time.RFC3339))
	if err := b.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// engineOptions is the repeatable -option NAME=VALUE flag.
type engineOptions [][2]string

func (o *engineOptions) String() string { return fmt.Sprint(*o) }

func (o *engineOptions) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q: want NAME=VALUE", v)
	}
	*o = append(*o, [2]string{name, value})
	return nil
}
