package train

import (
	"context"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/engine/eval"
)

func TestTarget(t *testing.T) {
	for _, tt := range []struct {
		name  string
		l     Labelled
		blend float64
		want  float64
	}{
		{"recorded", Labelled{Result: 1}, 0.5, 1},
		{"result only", Labelled{Result: 0, Score: 500, Scored: true}, 1, 0},
		{"score only", Labelled{Result: 1, Score: 0, Scored: true}, 0, 0.5},
		{"half and half", Labelled{Result: 1, Score: 0, Scored: true}, 0.5, 0.75},
		{"proven win", Labelled{Result: 0, Score: int32(engine.MateScore - 7), Scored: true}, 0.5, 0.5},
		{"proven loss", Labelled{Result: 0.5, Score: int32(-engine.MateScore + 3), Scored: true}, 0, 0},
		{"logistic", Labelled{Result: 0, Score: 1000, Scored: true}, 0, sigmoid(1)},
	} {
		if got := tt.l.Target(tt.blend, 0.001); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: target %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSelfPlayCache plays a few scored self-play games, writes them to a
// cache and reads them back; a cache made with other settings is not used.
func TestSelfPlayCache(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	data, err := selfPlay(context.Background(), eval.Learned(), games, 300, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	if countGames(data) != games || len(data) < 20*games {
		t.Fatalf("%d positions of %d games, want %d games", len(data), countGames(data), games)
	}
	for i, l := range data {
		if !l.Scored || l.Pos.IsOver() || (l.Game == 9) != l.Hold {
			t.Fatalf("position %d: %+v", i, l)
		}
	}
	path := filepath.Join(t.TempDir(), "cache.txt")
	if err := writeData(path, "key", 0.0007, data); err != nil {
		t.Fatal(err)
	}
	back, k, ok, err := readData(path, "key")
	if err != nil || !ok || k != 0.0007 || !reflect.DeepEqual(back, data) {
		t.Errorf("read back %d positions, K %v, ok %v, err %v; want the %d written", len(back), k, ok, err, len(data))
	}
	if _, _, ok, err := readData(path, "other key"); ok || err != nil {
		t.Errorf("cache with another key: ok %v, err %v", ok, err)
	}
	if _, _, ok, err := readData(filepath.Join(t.TempDir(), "none"), "key"); ok || err != nil {
		t.Errorf("missing cache: ok %v, err %v", ok, err)
	}
}

func TestTrainNeuralBeatsLinear(t *testing.T) {
	cfg := Config{Files: []string{"testdata/masters-2018-first200.pgn"}, Seed: 1, SkipPlies: 4, Blend: 1}
	d, err := Load(context.Background(), cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := TrainNeural(context.Background(), d, eval.Learned(), cfg, NeuralConfig{Epochs: 2, L2: -1}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// 200 games are too few to generalise (the validation loss is the
	// measure on the full data, docs/engine-testing.md); the fit itself
	// must improve on the linear evaluation.
	if rep.TrainLoss >= rep.BaseTrainLoss || math.Abs(rep.QuantLoss-rep.FloatLoss) > 0.002 {
		t.Errorf("training loss %.4f with the network, %.4f without; validation %.4f quantised, %.4f not",
			rep.TrainLoss, rep.BaseTrainLoss, rep.QuantLoss, rep.FloatLoss)
	}
}
