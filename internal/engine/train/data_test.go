package train

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toguz/toguz"
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

// TestSelfPlayCache plays a few scored self-play games under each
// ruleset, writes them to a cache and reads them back; a cache made with
// other settings is not used.
func TestSelfPlayCache(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	for _, rules := range []toguz.Rules{toguz.Standard(), toguz.Bestemshe(), toguz.Seven()} {
		var log strings.Builder
		data, err := selfPlay(context.Background(), eval.Learned(), rules, games, 300, 1, 9, &log)
		if err != nil {
			t.Fatal(err)
		}
		if countGames(data) != games || len(data) < 10*games {
			t.Fatalf("%s: %d positions of %d games, want %d games", rules, len(data), countGames(data), games)
		}
		for i, l := range data {
			if !l.Scored || l.Pos.IsOver() || (l.Game == 9) != l.Hold || l.Pos.Rules() != rules {
				t.Fatalf("%s: position %d: %+v", rules, i, l)
			}
		}
		if games > 1 && !strings.Contains(log.String(), "self-play: 1 of 2 games") {
			t.Errorf("%s: no progress in the log %q", rules, log.String())
		}
		path := filepath.Join(t.TempDir(), "cache.txt")
		if err := writeData(path, "key", 0.0007, data); err != nil {
			t.Fatal(err)
		}
		back, k, ok, err := readData(path, "key", rules)
		if err != nil || !ok || k != 0.0007 || !reflect.DeepEqual(back, data) {
			t.Errorf("%s: read back %d positions, K %v, ok %v, err %v; want the %d written", rules, len(back), k, ok, err, len(data))
		}
		if _, _, ok, err := readData(path, "other key", rules); ok || err != nil {
			t.Errorf("%s: cache with another key: ok %v, err %v", rules, ok, err)
		}
		if _, _, ok, err := readData(filepath.Join(t.TempDir(), "none"), "key", rules); ok || err != nil {
			t.Errorf("%s: missing cache: ok %v, err %v", rules, ok, err)
		}
	}
}

// TestFitScoreK: the scale fitted to search scores is the one that made
// the results, within the noise of the sample.
func TestFitScoreK(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, want := range []float64{0.0005, 0.002, 0.008} {
		var data []Labelled
		for range 20000 {
			s := rng.IntN(2001) - 1000
			l := Labelled{Score: int32(s), Scored: true}
			if rng.Float64() < sigmoid(want*float64(s)) {
				l.Result = 1
			}
			data = append(data, l)
		}
		// A proven score says nothing of the scale: it is left out.
		data = append(data, Labelled{Score: int32(engine.MateScore - 3), Scored: true})
		if got := fitScoreK(data); math.Abs(got-want) > 0.15*want {
			t.Errorf("K %.5f fitted, want %.5f", got, want)
		}
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
