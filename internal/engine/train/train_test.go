package train

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine/eval"
)

func TestRunBeatsMaterial(t *testing.T) {
	cfg := Config{Files: []string{"testdata/masters-2018-first200.pgn"}, Epochs: 3, Seed: 1, SkipPlies: 4}
	if !testing.Short() {
		cfg.SelfPlayGames, cfg.SelfPlayNodes = 4, 500
	}
	w, rep, err := Run(context.Background(), cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 200 || rep.Positions < 10000 {
		t.Errorf("trained on %d games, %d positions; want the 200 games of the file", rep.Games, rep.Positions)
	}
	if !testing.Short() && rep.SelfPlay != 4 {
		t.Errorf("%d self-play games, want 4", rep.SelfPlay)
	}
	if rep.ValidLoss >= rep.MaterialLoss {
		t.Errorf("validation loss %.4f, not better than the kazan difference's %.4f", rep.ValidLoss, rep.MaterialLoss)
	}
	// The weights are rescaled so that a stone of kazan at mid-game is 100.
	mid := float64(w[eval.Kazan]) + float64(w[eval.KazanPhase])*81/16
	if mid < 99*(1<<eval.Shift) || mid > 101*(1<<eval.Shift) {
		t.Errorf("kazan weight at mid-game %.1f, want 100", mid/(1<<eval.Shift))
	}
}

// TestRunRuleset trains another ruleset's weights on self-play alone,
// twice: the same weights, features its board never sets left at zero,
// and a stone of kazan worth 100 at the middle of its game.
func TestRunRuleset(t *testing.T) {
	for _, tt := range []struct {
		rules toguz.Rules
		zero  []int // features the ruleset never sets
	}{
		{toguz.Bestemshe(), []int{eval.Tuzdik, eval.TuzdikHole, eval.MyTuzdikMove, eval.HisTuzdikMove, eval.Hole + 5, eval.Hole + 8, eval.MyNearWin, eval.Buckets}},
		{toguz.Seven(), []int{eval.TuzdikHole + 6, eval.Hole + 7, eval.Hole + 8, eval.Buckets}},
	} {
		cfg := Config{SelfPlayGames: 3, SelfPlayNodes: 300, Epochs: 3, Seed: 1, SkipPlies: 4, Blend: 0.5, Rules: tt.rules}
		var weights [2]*eval.Weights
		for i := range weights {
			var log strings.Builder
			w, rep, err := Run(context.Background(), cfg, &log)
			if err != nil {
				t.Fatalf("%s: %v", tt.rules, err)
			}
			if rep.SelfPlay != 3 || rep.Games != 0 || rep.Positions < 30 || !strings.Contains(log.String(), "K = ") {
				t.Errorf("%s: %d self-play games, %d recorded, %d positions; log %q", tt.rules, rep.SelfPlay, rep.Games, rep.Positions, log.String())
			}
			weights[i] = w
		}
		w := weights[0]
		if *weights[1] != *w {
			t.Errorf("%s: two runs of one configuration trained different weights", tt.rules)
		}
		for _, f := range tt.zero {
			if w[f] != 0 {
				t.Errorf("%s: feature %s has weight %d, want 0", tt.rules, eval.Names[f], w[f])
			}
		}
		mid := float64(w[eval.Kazan]) + float64(w[eval.KazanPhase])*float64(tt.rules.Total()/2)/16
		if mid < 99*(1<<eval.Shift) || mid > 101*(1<<eval.Shift) {
			t.Errorf("%s: kazan weight at mid-game %.1f, want 100", tt.rules, mid/(1<<eval.Shift))
		}
	}
}

func TestRunErrors(t *testing.T) {
	standardGames := "testdata/masters-2018-first200.pgn"
	for _, tt := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"missing file", Config{Files: []string{"no-such-file.pgn"}}, "no-such-file.pgn"},
		{"games of another ruleset", Config{Files: []string{standardGames}, Rules: toguz.Bestemshe()},
			standardGames + ": game 1 is played under standard, not the bestemshe being trained"},
		{"standard self-play without games", Config{SelfPlayGames: 1, SelfPlayNodes: 100}, "needs recorded games"},
	} {
		_, _, err := Run(context.Background(), tt.cfg, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one that says %q", tt.name, err, tt.want)
		}
	}
}
