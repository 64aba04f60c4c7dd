package train

import (
	"context"
	"io"
	"testing"

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

func TestRunMissingFile(t *testing.T) {
	if _, _, err := Run(context.Background(), Config{Files: []string{"no-such-file.pgn"}}, io.Discard); err == nil {
		t.Error("no error for a missing file")
	}
}
