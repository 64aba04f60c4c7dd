package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/fairplay"
)

func runFairplay(ctx context.Context, e env) error {
	if len(e.args) > 0 {
		switch e.args[0] {
		case "fit":
			return runFairplayFit(ctx, e)
		case "measure":
			return runFairplayMeasure(ctx, e)
		}
	}
	fs := newFlags(e, "fairplay", "FILE | fit | measure", `Judges every game of a record file (any format the rules library reads) for
engine help, as a federation's arbiter would: one JSON line per game and side,
{"game": N, "side": "white"|"black", "moves": M, "score": S, "strength": T, "ipr": R, "flag": true|false},
where moves counts the judged moves (forced and book moves left out), score is
the z-score of the side's agreement with the engine and stones lost against
what the fair-play model expects at the player's rating (WhiteElo/BlackElo, or
-rating), strength the z-score of its test of "played like a stronger player",
ipr the intrinsic performance rating, and flag the model's verdict at the
threshold (score or strength reaching it). 'toguz fairplay fit' refits the model, 'toguz fairplay
measure' measures its error rates (docs/fairplay.md).`)
	def := fairplay.Default()
	threshold := fs.Float64("threshold", def.Threshold, "the z-score (of the score or the strength test) from which a side is flagged")
	rating := fs.Int("rating", 0, "the players' rating where a record has none (WhiteElo/BlackElo)")
	players := fs.Bool("players", false, `instead, one line per player (by name) over all the player's games of the file, the event's IPR:
{"player": NAME, "games": G, "moves": M, "score": S, "strength": T, "ipr": R, "flag": true|false}, judged at the player's mean rating`)
	deepFlag := fs.Bool("deep", true, fmt.Sprintf("search every ply to depth %d too, as the site's review does, for the deeper evidence (a few seconds a game); false: scored without it", fairplay.DeepDepth))
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	if *rating < 0 || *rating > fairplay.MaxRating {
		return fmt.Errorf("-rating %d: want 1..%d", *rating, fairplay.MaxRating)
	}
	if math.IsNaN(*threshold) {
		return fmt.Errorf("-threshold: not a number")
	}
	file := fs.Arg(0)
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	a, err := fairplay.NewAnalyzer()
	if err != nil {
		return err
	}
	var deep *fairplay.DeepSearcher
	if def.DeepWeight > 0 && *deepFlag {
		if deep, err = fairplay.NewDeepSearcher(); err != nil {
			return err
		}
	}
	type player struct {
		name            string
		games, ratedSum int
		moves           []fairplay.Move
	}
	var order []*player
	byName := map[string]*player{}
	i := 0
	for g, err := range toguz.NewGameReader(f, file, 0).All() {
		if err != nil {
			return err
		}
		i++
		rec, err := a.AnalyzeGame(ctx, file, i, g)
		if err != nil {
			return err
		}
		if deep != nil {
			// The site's evidence has the review's deeper search; so does
			// the arbiter's.
			start, err := g.StartPosition()
			if err == nil {
				err = deep.Deepen(ctx, start, rec.Moves)
			}
			if err != nil {
				return fmt.Errorf("%s: game %d: %w", file, i, err)
			}
		}
		for pl, side := range []string{"white", "black"} {
			r := rec.Ratings[pl]
			if r <= 0 {
				r = *rating
			}
			if r <= 0 {
				return fmt.Errorf("%s: game %d: no rating for %s (tag %sElo): give one with -rating", file, i, side, []string{"White", "Black"}[pl])
			}
			if *players {
				p := byName[rec.Names[pl]]
				if p == nil {
					p = &player{name: rec.Names[pl]}
					byName[p.name] = p
					order = append(order, p)
				}
				p.games++
				p.ratedSum += r
				p.moves = append(p.moves, rec.Side(toguz.Player(pl))...)
				continue
			}
			v := def.Judge(rec.Side(toguz.Player(pl)), float64(r), *threshold)
			// Written by hand for the spacing of the documented line.
			if _, err := fmt.Fprintf(e.stdout, `{"game": %d, "side": %q, "moves": %d, "score": %s, "strength": %s, "ipr": %d, "flag": %t}`+"\n",
				i, side, v.Moves, hundredths(v.Score), hundredths(v.Strength), v.IPR, v.Flag); err != nil {
				return err
			}
		}
	}
	for _, p := range order {
		v := def.Judge(p.moves, float64(p.ratedSum)/float64(p.games), *threshold)
		name, _ := json.Marshal(p.name)
		if _, err := fmt.Fprintf(e.stdout, `{"player": %s, "games": %d, "moves": %d, "score": %s, "strength": %s, "ipr": %d, "flag": %t}`+"\n",
			name, p.games, v.Moves, hundredths(v.Score), hundredths(v.Strength), v.IPR, v.Flag); err != nil {
			return err
		}
	}
	return nil
}

// hundredths writes z to the hundredth, as JSON.
func hundredths(z float64) string { return strconv.FormatFloat(math.Round(z*100)/100, 'f', -1, 64) }

// corpus returns the analysed records of the shared data's rated PlayOK
// games and master games, from the cache when it has them.
func corpus(ctx context.Context, e env, data, cache string) (playok, masters []fairplay.Record, err error) {
	a, err := fairplay.NewAnalyzer()
	if err != nil {
		return nil, nil, err
	}
	progress := func(name string) func(int, int) {
		return func(done, total int) {
			if done%100 == 0 || done == total {
				fmt.Fprintf(e.stderr, "%s: %d/%d games analysed\n", name, done, total)
			}
		}
	}
	if playok, err = a.AnalyzeFile(ctx, filepath.Join(data, "playok-2024-2025.pgn"), cache, progress("playok")); err != nil {
		return nil, nil, err
	}
	if masters, err = a.AnalyzeFile(ctx, filepath.Join(data, "masters-2018.pgn"), cache, progress("masters")); err != nil {
		return nil, nil, err
	}
	return playok, masters, nil
}

// deepen returns recs with the deeper evidence, cached in the file cache.
func deepen(ctx context.Context, e env, cache string, recs []fairplay.Record) ([]fairplay.Record, error) {
	dp, closer, err := fairplay.NewDeepener(cache)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	out := make([]fairplay.Record, len(recs))
	for i, r := range recs {
		if out[i], err = dp.Deepen(ctx, r); err != nil {
			return nil, err
		}
		if (i+1)%100 == 0 || i+1 == len(recs) {
			fmt.Fprintf(e.stderr, "%d/%d games with the deeper evidence\n", i+1, len(recs))
		}
	}
	return out, nil
}

func runFairplayFit(ctx context.Context, e env) error {
	fs := newFlags(e, "fairplay fit", "", `Fits the fair-play model on the rated PlayOK games of the shared data (the six
games in ten that are not held out) and, with -db, on the rated games between
people of a server's database (six in ten of them likewise), and writes its
parameters, with the default threshold chosen on them, as JSON
(internal/fairplay/model.json is made so). The analysis of the games is cached
in -cache.`)
	data := fs.String("data", "../shared/data", `the shared data directory ("": fit on the server's games alone)`)
	db := fs.String("db", "", "also fit on the rated games between people of this server's database: an SQLite file or a PostgreSQL URL postgres://… (games of marked accounts, voided games and bots' games left out)")
	cache := fs.String("cache", "", "a directory caching the games' analysis (none: analyse again)")
	out := fs.String("o", "", "write to this file instead of standard output")
	weight := fs.Float64("deep-weight", 0, "the weight of the deeper evidence's term (0: none); its spread is measured on the fit's games searched again at the deeper depth")
	deepCache := fs.String("deep-cache", "", "a file caching the games with the deeper evidence (JSON lines, appended as each is done)")
	deepGames := fs.Int("deep-games", 0, "measure the deeper term's spread on the first N of the fit's games only (0: all; each costs a few seconds)")
	if err := parseFlags(fs, e.args[1:]); err != nil {
		return err
	}
	if *weight < 0 || math.IsNaN(*weight) || *deepGames < 0 {
		return fmt.Errorf("-deep-weight %g -deep-games %d: want at least 0", *weight, *deepGames)
	}
	if *data == "" && *db == "" {
		return fmt.Errorf(`-data "": no games to fit on without -db`)
	}
	var recs []fairplay.Record
	if *data != "" {
		playok, _, err := corpus(ctx, e, *data, *cache)
		if err != nil {
			return err
		}
		recs = playok
	}
	if *db != "" {
		site, err := siteCorpus(ctx, e, *db, *cache)
		if err != nil {
			return err
		}
		recs = append(recs, site...)
	}
	m, err := fairplay.FitCorpus(recs, e.stderr)
	if err != nil {
		return err
	}
	if *weight > 0 {
		fit, _ := fairplay.Split(recs)
		if *deepGames > 0 {
			fit = fit[:min(*deepGames, len(fit))]
		}
		if fit, err = deepen(ctx, e, *deepCache, fit); err != nil {
			return err
		}
		if m, err = fairplay.CalibrateDeep(m, fit, *weight, e.stderr); err != nil {
			return err
		}
	}
	write := func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	if *out != "" {
		return atomicfile.Write(*out, write)
	}
	return write(e.stdout)
}
