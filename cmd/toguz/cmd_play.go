package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/tui"
)

func runPlay(ctx context.Context, e env) error {
	fs := newFlags(e, "play", "", "Plays a game in the terminal against the engine or a second person at the same\nkeyboard. Type a hole number to move, u to undo, h for a hint, f to flip the\nboard, q to quit. The record is saved at the end.")
	var pf playFlags
	pf.vs = fs.String("vs", "engine", "opponent: engine, or human (two people at one keyboard)")
	pf.side = fs.String("side", "white", "your side against the engine: white or black")
	pf.level = fs.Int("level", 5, fmt.Sprintf("engine strength, 1 (beginner) to %d (full strength)", engine.MaxLevel))
	pf.moveTime = fs.Duration("movetime", time.Second, "engine thinking time per move (also for hints)")
	fen := fs.String("fen", "", "start from this position string instead of the starting position")
	rules := rulesetFlag(fs)
	out := fs.String("o", "", "file to save the record to (default game-DATE-TIME.tgn in the working directory)")
	colour := fs.String("color", "auto", "colours: auto (on a terminal, unless NO_COLOR is set), always or never")
	dots := fs.Bool("dots", false, "draw the stones as dots as well as numbers")
	pf.name = fs.String("name", "You", "your name in the record")
	hints := fs.Bool("hints", true, "answer h with the full-strength engine's move")
	lang := holeNamesFlag(fs)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	start, fullmove, err := position(*rules, *fen, "-fen")
	if err != nil {
		return err
	}
	tty := isTerminal(e.stdout)
	c := tui.Config{In: e.stdin, Out: e.stdout, Start: start, Fullmove: fullmove, White: "White", Black: "Black"}
	if c.Style.Colour, err = useColour(*colour, tty); err != nil {
		return err
	}
	c.Clear = c.Style.Colour && tty
	c.Style.Dots = *dots
	if c.Style.HoleNames, c.Style.HoleGlosses, err = holeNames(*lang, start.Holes()); err != nil {
		return err
	}
	if err := pf.opponent(&c); err != nil {
		return err
	}
	if *hints {
		opts := engine.DefaultOptions()
		hinter, err := engine.New(opts)
		if err != nil {
			return err
		}
		c.Hints = tui.Searcher{Engine: hinter, Limits: engine.Limits{MoveTime: *pf.moveTime}}
	}

	g, playErr := tui.Play(ctx, c)
	if playErr != nil && !errors.Is(playErr, tui.ErrQuit) && !errors.Is(playErr, context.Canceled) {
		return playErr
	}
	return keepRecord(e, *out, g, c.White, c.Black)
}

// keepRecord saves the record of g to out, or to a file named by the time
// when out is empty and a move was played.
func keepRecord(e env, out string, g tui.Game, white, black string) error {
	file := cmp.Or(out, "game-"+time.Now().Format("20060102-150405")+".tgn")
	if len(g.Plies) == 0 && out == "" {
		fmt.Fprintln(e.stdout, "No moves played; no record saved.")
		return nil
	}
	if err := saveRecord(file, g, white, black, time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Record saved to %s\n", file)
	return nil
}

// useColour reads -color: auto colours a terminal unless NO_COLOR is set or
// the terminal is dumb.
func useColour(colour string, tty bool) (bool, error) {
	switch colour {
	case "auto":
		return tty && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb", nil
	case "always":
		return true, nil
	case "never":
		return false, nil
	}
	return false, fmt.Errorf("-color %q: want auto, always or never", colour)
}

// playFlags are the flags of toguz play that choose the opponent.
type playFlags struct {
	vs, side, name *string
	level          *int
	moveTime       *time.Duration
}

// opponent sets c's opponent and the players' names: a second person, or
// the engine on the side the player does not take.
func (pf playFlags) opponent(c *tui.Config) error {
	switch *pf.vs {
	case "human":
		c.White, c.Black = "White", "Black"
		return nil
	case "engine":
	default:
		return fmt.Errorf("-vs %q: want engine or human", *pf.vs)
	}
	if *pf.level < 1 || *pf.level > engine.MaxLevel {
		return fmt.Errorf("-level %d: want 1..%d", *pf.level, engine.MaxLevel)
	}
	if *pf.moveTime <= 0 {
		return fmt.Errorf("-movetime %v: want a positive duration", *pf.moveTime)
	}
	opts := engine.DefaultOptions()
	opts.Level = *pf.level
	opts.Seed = time.Now().UnixNano()
	opponent, err := engine.New(opts)
	if err != nil {
		return err
	}
	c.Opponent = tui.Searcher{Engine: opponent, Limits: engine.Limits{MoveTime: *pf.moveTime}}
	engineName := fmt.Sprintf("toguz engine level %d", *pf.level)
	switch *pf.side {
	case "white":
		c.EngineSide, c.White, c.Black = toguz.Black, *pf.name, engineName
	case "black":
		c.EngineSide, c.White, c.Black = toguz.White, engineName, *pf.name
		c.Style.Flip = true // your row at the bottom
	default:
		return fmt.Errorf("-side %q: want white or black", *pf.side)
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// saveRecord writes the record of g to file in our record format.
func saveRecord(file string, g tui.Game, white, black string, date time.Time) error {
	rec, err := tui.Record(g, white, black, date)
	if err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := toguz.WriteGames(f, toguz.FormatToguz, rec); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return f.Close()
}
