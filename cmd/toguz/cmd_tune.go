package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
	"github.com/toguz/toguz/internal/engine/train"
)

func runTune(ctx context.Context, e env) error {
	fs := newFlags(e, "tune", "FILE...", "Fits the engine's evaluation weights by logistic regression on the games in\nFILEs (any record format, labelled by their results) and on self-play games\n(labelled by a blend of result and search score), and writes them in the format\nof internal/engine/eval/weights.txt (embedded at build time). With -neural it\ntrains the neural correction to the linear weights instead. The embedded files\nwere made with these (their headers say so too; -cache saves the 15 CPU minutes\nof self-play the second time):\n  toguz tune -cache /tmp/selfplay.txt -o internal/engine/eval/weights.txt ../shared/data/masters-2018.pgn ../shared/data/playok-2024-2025.pgn\n  toguz tune -neural -base internal/engine/eval/weights.txt -cache /tmp/selfplay.txt -o internal/engine/neural/network.txt ../shared/data/masters-2018.pgn ../shared/data/playok-2024-2025.pgn\n(the network corrects the weights of -base, which the first wrote)\n\nWith -ruleset it trains another ruleset's weights (FILEs optional, of that ruleset):\nits self-play starts from the embedded standard weights, and the engine plays\nthat ruleset with the file embedded as internal/engine/eval/weights-NAME.txt:\n  toguz tune -ruleset bestemshe -cache /tmp/selfplay-bestemshe.txt -o internal/engine/eval/weights-bestemshe.txt")
	def := train.DefaultConfig(nil)
	out := fs.String("o", "-", "write the weights to this file (- for standard output)")
	games := fs.Int("selfplay", def.SelfPlayGames, "self-play games to add")
	nodes := fs.Uint64("nodes", def.SelfPlayNodes, "nodes per move in self-play")
	epochs := fs.Int("epochs", def.Epochs, "passes of the optimiser over the data")
	seed := fs.Uint64("seed", def.Seed, "random seed of self-play openings and shuffling")
	l2 := fs.Float64("l2", def.L2, "weight decay (L2) on the standardised weights")
	blend := fs.Float64("blend", def.Blend, "share of the game result in a self-play position's label; the rest is its search score")
	nn := fs.Bool("neural", false, "train the neural correction (internal/engine/neural) over the linear weights instead,\nand write it in the format of internal/engine/neural/network.txt")
	base := fs.String("base", "", "with -neural: the linear weights file it corrects (default: the embedded weights)")
	ndef := neural.DefaultConfig(0)
	nepochs := fs.Int("nepochs", ndef.Epochs, "with -neural: passes over the data")
	nrate := fs.Float64("nrate", ndef.Rate, "with -neural: Adam's step")
	nl2 := fs.Float64("nl2", ndef.L2, "with -neural: weight decay of the first layer")
	cache := fs.String("cache", "", "keep the self-play positions in this file and reuse them when made with the same settings")
	ruleset := fs.String("ruleset", "standard", "the ruleset to train for (standard, bestemshe, seven, pre1949 or parameters)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	rules, err := toguz.ParseRules(*ruleset)
	if err != nil {
		return fmt.Errorf("-ruleset: %w", err)
	}
	cfg := train.DefaultConfig(fs.Args())
	cfg.SelfPlayGames, cfg.SelfPlayNodes, cfg.Epochs, cfg.Seed, cfg.L2 = *games, *nodes, *epochs, *seed, *l2
	cfg.Blend, cfg.Cache, cfg.Rules = *blend, *cache, rules
	made := fmt.Sprintf("-selfplay %d -nodes %d -epochs %d -seed %d -l2 %g -blend %g",
		cfg.SelfPlayGames, cfg.SelfPlayNodes, cfg.Epochs, cfg.Seed, cfg.L2, cfg.Blend)
	if rules != toguz.Standard() {
		made = "-ruleset " + rules.String() + " " + made
	}
	if *nn && rules != toguz.Standard() {
		// The network corrects the standard weights on the standard board;
		// the engine plays other rulesets with their own weights alone.
		return fmt.Errorf("-neural trains the standard game's network only, not one for %s", rules)
	}
	if *nn {
		if *base != "" {
			made = "-base " + *base + " " + made
		}
		return tuneNeural(ctx, e, cfg, train.NeuralConfig{Epochs: *nepochs, Rate: *nrate, L2: *nl2}, *base, *out,
			fmt.Sprintf("Made by: toguz tune -neural %s -nepochs %d -nrate %g -nl2 %g %s", made, *nepochs, *nrate, *nl2, strings.Join(fs.Args(), " ")))
	}
	w, rep, err := train.Run(ctx, cfg, e.stderr)
	if err != nil {
		return err
	}
	what := "Evaluation weights of the toguz engine"
	if rules != toguz.Standard() {
		what += " for the ruleset " + rules.String()
	}
	header := []string{
		what + ", in 1/256 hundredths of a stone per feature unit.",
		strings.TrimSpace(fmt.Sprintf("Made by: toguz tune %s %s", made, strings.Join(fs.Args(), " "))),
		fmt.Sprintf("%d positions, %d recorded games, %d self-play games; K = %.5f", rep.Positions, rep.Games, rep.SelfPlay, rep.K),
		fmt.Sprintf("validation cross-entropy: %.5f learned, %.5f kazan difference alone", rep.ValidLoss, rep.MaterialLoss),
	}
	return writeOut(e, *out, func(w2 io.Writer) error { return eval.WriteWeights(w2, w, header) })
}

// tuneNeural trains the neural correction of the linear weights in base
// (the embedded ones when empty) and writes it to out.
func tuneNeural(ctx context.Context, e env, cfg train.Config, ncfg train.NeuralConfig, base, out, made string) error {
	w := eval.Learned()
	if base != "" {
		f, err := os.Open(base)
		if err != nil {
			return err
		}
		w, err = eval.ParseWeights(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", base, err)
		}
	}
	d, err := train.Load(ctx, cfg, e.stderr)
	if err != nil {
		return err
	}
	nw, rep, err := train.TrainNeural(ctx, d, w, cfg, ncfg, e.stderr)
	if err != nil {
		return err
	}
	header := []string{
		"Neural correction to the linear evaluation of the toguz engine (internal/engine/neural).",
		made,
		fmt.Sprintf("%d positions of %d games (%d recorded)", len(d.Positions), d.Games, d.Recorded),
		fmt.Sprintf("validation cross-entropy: %.5f linear alone, %.5f with the network (%.5f before quantisation)", rep.BaseLoss, rep.QuantLoss, rep.FloatLoss),
	}
	return writeOut(e, out, func(w io.Writer) error { return neural.Write(w, nw, header) })
}

// writeOut writes with write to the file out, or to standard output for "-".
// The file is replaced atomically, so a failed run leaves the old weights
// whole.
func writeOut(e env, out string, write func(io.Writer) error) error {
	if out == "-" {
		return write(e.stdout)
	}
	return atomicfile.Write(out, write)
}
