package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/train"
)

func runTune(ctx context.Context, e env) error {
	fs := newFlags(e, "tune", "FILE...", "Fits the engine's evaluation weights by logistic regression on the results of\nthe games in FILEs (any record format) and of self-play games, and writes them\nin the format of internal/engine/eval/weights.txt (embedded at build time).\nThe embedded weights were made with (their header says so too):\n  toguz tune -o internal/engine/eval/weights.txt ../shared/data/masters-2018.pgn ../shared/data/playok-2024-2025.pgn")
	def := train.DefaultConfig(nil)
	out := fs.String("o", "-", "write the weights to this file (- for standard output)")
	games := fs.Int("selfplay", def.SelfPlayGames, "self-play games to add")
	nodes := fs.Uint64("nodes", def.SelfPlayNodes, "nodes per move in self-play")
	epochs := fs.Int("epochs", def.Epochs, "passes of the optimiser over the data")
	seed := fs.Uint64("seed", def.Seed, "random seed of self-play openings and shuffling")
	l2 := fs.Float64("l2", def.L2, "weight decay (L2) on the standardised weights")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	cfg := train.DefaultConfig(fs.Args())
	cfg.SelfPlayGames, cfg.SelfPlayNodes, cfg.Epochs, cfg.Seed, cfg.L2 = *games, *nodes, *epochs, *seed, *l2
	w, rep, err := train.Run(ctx, cfg, e.stderr)
	if err != nil {
		return err
	}
	header := []string{
		"Evaluation weights of the toguz engine, in 1/256 hundredths of a stone per feature unit.",
		fmt.Sprintf("Made by: toguz tune -selfplay %d -nodes %d -epochs %d -seed %d -l2 %g %s",
			cfg.SelfPlayGames, cfg.SelfPlayNodes, cfg.Epochs, cfg.Seed, cfg.L2, strings.Join(fs.Args(), " ")),
		fmt.Sprintf("%d positions, %d recorded games, %d self-play games; K = %.5f", rep.Positions, rep.Games, rep.SelfPlay, rep.K),
		fmt.Sprintf("validation cross-entropy: %.5f learned, %.5f kazan difference alone", rep.ValidLoss, rep.MaterialLoss),
	}
	if *out == "-" {
		return eval.WriteWeights(e.stdout, w, header)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := eval.WriteWeights(f, w, header); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
