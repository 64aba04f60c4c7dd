package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/systems"
)

// errCheckDiffers is the checker's answer when a round is paired otherwise
// than the file has it: the exit status is then non-zero.
var errCheckDiffers = errors.New("the pairing differs from the file")

func tnCheck(_ context.Context, e env) error {
	fs := newFlags(e, "tournament check", "FILE.trf", "Pairs every round of the file again from the rounds before it (FIDE's Free\nPairings Checker) and reports each round paired otherwise, colours and the\nbye included. Exit status 1 when a round differs. In each round the players\npaired are those the file pairs (a game, forfeited or not, or the bye);\nthe others are left out as requested byes are.")
	system := fs.String("system", "", "pairing system to check with; default the file's XXY, else dutch")
	quiet := fs.Bool("q", false, "print only the rounds that differ and the summary")
	file, _, err := oneFile(fs, e.args, 0)
	if err != nil {
		return err
	}
	ev, err := loadEvent(file)
	if err != nil {
		return err
	}
	sys := ev.System
	if *system != "" {
		if sys, err = tournament.ParseSystem(*system); err != nil {
			return err
		}
	}
	if sys == "" {
		sys = tournament.Dutch
	}
	ev.System = sys // the Swiss pairer pairs by the event's system
	p, err := tournament.PairerFor(sys, systems.Swiss())
	if err != nil {
		return err
	}
	res, err := tournament.Check(ev, p)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	differ := writeCheck(e.stdout, res, *quiet)
	fmt.Fprintf(e.stdout, "%d of %d rounds paired as the file has them (%s)\n", len(res)-differ, len(res), sys)
	if differ > 0 {
		return fmt.Errorf("%s: %d rounds: %w", file, differ, errCheckDiffers)
	}
	return nil
}

// writeCheck reports each round and returns how many differ: for those,
// the pairs only the file has and the pairs only the checker has.
func writeCheck(w io.Writer, res []tournament.RoundCheck, quiet bool) int {
	differ := 0
	for _, c := range res {
		if c.Same() {
			if !quiet {
				fmt.Fprintf(w, "round %d: the same\n", c.Round)
			}
			continue
		}
		differ++
		if c.Err != nil {
			fmt.Fprintf(w, "round %d: cannot be paired again: %v\n", c.Round, c.Err)
			continue
		}
		fmt.Fprintf(w, "round %d differs\n", c.Round)
		fmt.Fprintf(w, "  file:    %s\n", tournament.PairsText(only(c.File, c.Ours)))
		fmt.Fprintf(w, "  checker: %s\n", tournament.PairsText(only(c.Ours, c.File)))
	}
	return differ
}

// only returns the pairs of a that b does not have.
func only(a, b []tournament.Pair) []tournament.Pair {
	var out []tournament.Pair
	for _, p := range a {
		if !slices.Contains(b, p) {
			out = append(out, p)
		}
	}
	return out
}

func tnGenerate(_ context.Context, e env) error {
	fs := newFlags(e, "tournament generate", "", "Makes a random tournament (FIDE's Random Tournament Generator), paired round by\nround with the system and every result entered, and writes it as TRF-16. The same\nflags and seed give the same file.")
	players := fs.Int("players", 40, "players")
	rounds := fs.Int("rounds", 7, "rounds (doubleswiss: matches, two rounds of the file each)")
	system := fs.String("system", "dutch", "pairing system")
	draws := fs.Float64("draws", 0.3, "draw rate of a game between equal players, 0 to 1")
	forfeits := fs.Float64("forfeits", 0.02, "forfeit rate of a game, 0 to 1")
	byes := fs.Float64("byes", 0.02, "rate of requested byes (H, Z, F) a player's round, 0 to 1")
	withdraw := fs.Float64("withdrawals", 0.005, "rate of withdrawals a player's round, 0 to 1")
	late := fs.Float64("late", 0.05, "share of the players entering late (before rounds 2 to 4), 0 to 1")
	high := fs.Int("highest", 2600, "highest rating")
	low := fs.Int("lowest", 1400, "lowest rating")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("o", "", "write to this file instead of stdout")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	sys, err := tournament.ParseSystem(*system)
	if err != nil {
		return err
	}
	p, err := tournament.PairerFor(sys, systems.Swiss())
	if err != nil {
		return err
	}
	if sys == tournament.DoubleSwiss {
		*rounds *= 2 // the file has two rounds a match
	}
	ev, err := tournament.Generate(tournament.GenerateConfig{
		Players: *players, Rounds: *rounds, System: sys,
		DrawRate: *draws, ForfeitRate: *forfeits, ByeRate: *byes, WithdrawRate: *withdraw, LateRate: *late,
		HighestRating: *high, LowestRating: *low, Seed: *seed,
	}, p)
	if err != nil {
		return err
	}
	if *out != "" {
		return atomicfile.Write(*out, ev.WriteTRF)
	}
	return ev.WriteTRF(e.stdout)
}
