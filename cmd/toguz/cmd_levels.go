package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/levels"
)

func runLevels(ctx context.Context, e env) error {
	fs := newFlags(e, "levels", "FILE...", `Places the engine's levels 1–10 on the scale of online ratings (package
internal/levels). From the rated games of FILEs (WhiteElo/BlackElo tags) it
samples positions by rating band, searches every legal move of each to a
fixed depth (the deep search), and measures, for each band and for each
level's own choice, how often the move is the deep search's and how many
stones it loses against it; each level is placed at the rating where its
loss matches the bands' (interpolated). It prints the level table of docs/engine.md;
-o writes the table the site reads, -doc replaces the table in a Markdown file. The
committed ones were made with:
  toguz levels -j 2 -per-band 200 -cache /tmp/levels-cache.jsonl -reference ../shared/data/masters-2018.pgn -reference-name "Kazakhstan 2018 championships" -o internal/levels/table.json -doc docs/engine.md ../shared/data/playok-2024-2025.pgn`)
	perBand := fs.Int("per-band", 100, "positions sampled per rating band")
	depth := fs.Int("depth", 14, "depth of the deep search (every move searched to it)")
	nps := fs.Uint64("nps", 1_000_000, "nodes per second that turn a level's live move time into its node budget")
	maxNodes := fs.Uint64("max-nodes", 200_000, "cap on a level's node budget (level 10's live second is dearer than the sample allows)")
	clamp := fs.Float64("cap", 20, "scores are clamped to ± this many stones before losses are taken")
	minPly := fs.Int("min-ply", 6, "skip the first plies of each game (the opening players learnt)")
	seed := fs.Uint64("seed", 1, "seed of the sample and of the levels' choices")
	jobs := fs.Int("j", 1, "positions searched at once (one CPU each)")
	cache := fs.String("cache", "", "keep the deep searches in this file and reuse them")
	out := fs.String("o", "", "write the table (JSON) to this file")
	doc := fs.String("doc", "", "replace the level table between the markers of this Markdown file (docs/engine.md)")
	reference := fs.String("reference", "", "unrated games of strong players, measured as one more group beside the bands (off the rating scale)")
	refName := fs.String("reference-name", "masters", "the name of the -reference group in the table")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	cfg := levels.Config{
		ReferenceName: *refName, Command: shellLine("toguz levels", e.args),
		Bands: levels.DefaultBands(), PerBand: *perBand, Seed: *seed, MinPly: *minPly, RefDepth: *depth,
		NPS: *nps, MaxNodes: *maxNodes, Cap: *clamp, Jobs: *jobs, Cache: *cache, Progress: e.stderr,
	}
	if err := checkLevelsConfig(&cfg); err != nil {
		return err
	}
	games, names, err := readGameFiles(fs.Args())
	if err != nil {
		return err
	}
	cfg.Games = games
	cfg.Source = fmt.Sprintf("%d games of %s", len(games), strings.Join(names, ", "))
	if *reference != "" {
		if cfg.Reference, err = readGameFile(*reference); err != nil {
			return err
		}
	}
	t, err := levels.Calibrate(ctx, cfg)
	if err != nil {
		return err
	}
	md := t.Markdown()
	if *out != "" {
		if err := writeLevelsJSON(*out, t); err != nil {
			return err
		}
	}
	if *doc != "" {
		if err := replaceLevelsDoc(*doc, md); err != nil {
			return err
		}
	}
	_, err = io.WriteString(e.stdout, md)
	return err
}

// checkLevelsConfig checks the settings the flags give.
func checkLevelsConfig(cfg *levels.Config) error {
	switch {
	case cfg.PerBand < 1:
		return fmt.Errorf("-per-band %d: want at least 1", cfg.PerBand)
	case cfg.RefDepth < 1 || cfg.RefDepth > 40:
		return fmt.Errorf("-depth %d: want 1..40", cfg.RefDepth)
	case cfg.NPS < 1:
		return fmt.Errorf("-nps %d: want at least 1", cfg.NPS)
	case cfg.Cap <= 0:
		return fmt.Errorf("-cap %g: want more than 0", cfg.Cap)
	case cfg.Jobs < 1 || cfg.Jobs > 256:
		return fmt.Errorf("-j %d: want 1..256", cfg.Jobs)
	}
	return nil
}

// readGameFiles reads the games of files, and returns them with the files'
// base names.
func readGameFiles(files []string) (games []*toguz.Game, names []string, err error) {
	for _, file := range files {
		gs, err := readGameFile(file)
		if err != nil {
			return nil, nil, err
		}
		games = append(games, gs...)
		names = append(names, filepath.Base(file))
	}
	return games, names, nil
}

// readGameFile reads the games of a file in any record format.
func readGameFile(file string) ([]*toguz.Game, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return toguz.ParseGames(file, data, 0)
}

// shellLine returns the command line, quoting the arguments a shell would
// not read back as they are.
func shellLine(cmd string, args []string) string {
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$\\") {
			a = strconv.Quote(a) // as a shell reads it again
		}
		cmd += " " + a
	}
	return cmd
}

// writeLevelsJSON writes the table the site reads.
func writeLevelsJSON(file string, t levels.Table) error {
	return atomicfile.Write(file, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	})
}

// replaceLevelsDoc replaces the level table between the markers of a
// Markdown file with md.
func replaceLevelsDoc(doc, md string) error {
	old, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	text, ok := levels.Replace(string(old), md)
	if !ok {
		return fmt.Errorf("%s: no level table markers (%q … %q)", doc, levels.BeginMarker, levels.EndMarker)
	}
	return atomicfile.Write(doc, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
}
