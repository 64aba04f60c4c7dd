package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/fairplay"
)

func runFairplayMeasure(ctx context.Context, e env) error {
	fs := newFlags(e, "fairplay measure", "", `Measures the embedded fair-play model's error rates at its default threshold
(docs/fairplay.md): the share of human game sides and accounts flagged, on the
held-out PlayOK games and the master games (and with -db a server's own rated
games between people, the four in ten the fit never sees), and the share of simulated games
and accounts flagged where one side is the engine at each level on a share of
its moves. The games' analysis is cached in -cache; the simulation is CPU-heavy
(run it under nice).`)
	data := fs.String("data", "../shared/data", `the shared data directory ("": the server's games of -db alone, nothing simulated)`)
	db := fs.String("db", "", "also judge the held-out rated games between people of this server's database (an SQLite file or a PostgreSQL URL postgres://…) as human games and accounts")
	cache := fs.String("cache", "", "a directory caching the games' analysis (none: analyse again)")
	levels := fs.String("levels", "6,7,8,9,10", "the cheater's engine levels, comma-separated")
	shares := fs.String("shares", "1,0.333", "the shares of the cheater's moves the engine plays, comma-separated")
	accounts := fs.Int("accounts", 10, "simulated cheating accounts per level and share")
	games := fs.Int("games", 10, "games per simulated account")
	masters := fs.Int("masters-rating", 1750, "the rating the master games (which have none) are judged at")
	seed := fs.Uint64("seed", 1, "the simulation's random seed")
	workers := fs.Int("workers", 1, "simulations at once")
	sims := fs.String("sims", "", "a file of simulated games (JSON lines): the games already there are read, not simulated again, and new ones are appended")
	deepCache := fs.String("deep-cache", "", "a file caching the human games with the deeper evidence (JSON lines, appended as each is done)")
	humans := fs.Int("humans", 0, "judge the first N held-out PlayOK games only (0: all; with the deeper evidence each costs a few seconds the first time)")
	mastersGames := fs.Int("masters-games", -1, "judge the first N master games only (-1: all; with the deeper evidence each costs a few seconds the first time)")
	deepFlag := fs.Bool("deep", true, "score with the deeper evidence's term where the model has it; false: the same games scored by the depth-6 statistic alone, for comparison")
	savedOnly := fs.Bool("saved-only", false, "measure the games of -sims alone, simulating none (an account with a game missing is left out)")
	if err := parseFlags(fs, e.args[1:]); err != nil {
		return err
	}
	cfg := fairplay.MeasureConfig{Accounts: *accounts, AccountGames: *games, MastersRating: *masters, Seed: *seed, Workers: *workers}
	for f := range strings.SplitSeq(*levels, ",") {
		l, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || l < 1 || l > 10 {
			return fmt.Errorf("-levels %q: %q is not a level 1..10", *levels, f)
		}
		cfg.Levels = append(cfg.Levels, l)
	}
	for f := range strings.SplitSeq(*shares, ",") {
		s, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || s < 0 || s > 1 {
			return fmt.Errorf("-shares %q: %q is not a share 0..1", *shares, f)
		}
		cfg.Shares = append(cfg.Shares, s)
	}
	if *accounts < 0 || *games < 1 || *humans < 0 || *mastersGames < -1 {
		return fmt.Errorf("-accounts %d -games %d -humans %d -masters-games %d: want at least 0, 1, 0 and -1", *accounts, *games, *humans, *mastersGames)
	}
	if *savedOnly && *sims == "" {
		return fmt.Errorf("-saved-only: no -sims file")
	}
	if *data == "" && *db == "" {
		return fmt.Errorf(`-data "": no games to measure on without -db`)
	}
	var playok, mastersRecs []fairplay.Record
	var err error
	if *data != "" {
		if playok, mastersRecs, err = corpus(ctx, e, *data, *cache); err != nil {
			return err
		}
	} else {
		cfg.Accounts = 0 // the simulated games start from held-out PlayOK games
	}
	if *db != "" {
		if cfg.Site, err = siteCorpus(ctx, e, *db, *cache); err != nil {
			return err
		}
	}
	if *mastersGames >= 0 {
		mastersRecs = mastersRecs[:min(*mastersGames, len(mastersRecs))]
	}
	m := fairplay.Default()
	if !*deepFlag {
		m.DeepWeight = 0
	}
	if m.DeepWeight > 0 {
		// The human games get the deeper evidence the model expects, as the
		// site's review gives it.
		_, held := fairplay.Split(playok)
		if *humans > 0 {
			held = held[:min(*humans, len(held))]
		}
		if cfg.Judged, err = deepen(ctx, e, *deepCache, held); err != nil {
			return err
		}
		if mastersRecs, err = deepen(ctx, e, *deepCache, mastersRecs); err != nil {
			return err
		}
		_, siteHeld := fairplay.Split(cfg.Site) // the games Measure judges
		if cfg.Site, err = deepen(ctx, e, *deepCache, siteHeld); err != nil {
			return err
		}
	}
	if *sims != "" {
		f, err := os.OpenFile(*sims, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		if cfg.Games, err = fairplay.ReadSimulated(f); err != nil {
			return fmt.Errorf("-sims %s: %w", *sims, err)
		}
		cfg.Save, cfg.SavedOnly = f, *savedOnly
	}
	return fairplay.Measure(ctx, playok, mastersRecs, m, cfg, e.stdout)
}
