package train

import (
	"context"
	"fmt"
	"io"

	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
)

// NeuralConfig says how to train the network over the linear evaluation.
type NeuralConfig struct {
	Epochs int
	Rate   float64
	L2     float64
}

// TrainNeural trains a neural correction (package neural) to the linear
// weights w on d, labels as cfg.Blend says. The logistic scale is fitted
// to w's evaluation first, so the network's output is in its units.
func TrainNeural(ctx context.Context, d *Data, w *eval.Weights, cfg Config, ncfg NeuralConfig, log io.Writer) (*neural.Network, neural.Report, error) {
	ex := make([]neural.Example, len(d.Positions))
	for i := range d.Positions {
		l := &d.Positions[i]
		ex[i] = neural.Example{Pos: l.Pos, Base: w.Evaluate(&l.Pos), Target: float32(l.Target(cfg.Blend, d.K)), Hold: l.Hold}
	}
	k := fitScale(ex)
	fmt.Fprintf(log, "K = %.6f per hundredth of a stone for the linear evaluation\n", k)
	nc := neural.DefaultConfig(k)
	nc.Seed = cfg.Seed
	if ncfg.Epochs > 0 {
		nc.Epochs = ncfg.Epochs
	}
	if ncfg.Rate > 0 {
		nc.Rate = ncfg.Rate
	}
	if ncfg.L2 >= 0 {
		nc.L2 = ncfg.L2
	}
	return neural.Train(ctx, ex, nc, log)
}

// minimizeScale returns the scale of a logistic curve, in 1e-5..0.05 a
// centistone, at which lossAt is least, by golden-section search (lossAt
// has one minimum there).
func minimizeScale(lossAt func(k float64) float64) float64 {
	lo, hi := 1e-5, 0.05
	const phi = 0.6180339887498949
	for range 60 {
		a := hi - phi*(hi-lo)
		b := lo + phi*(hi-lo)
		if lossAt(a) < lossAt(b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// fitScale finds the logistic scale that best fits the examples' base
// evaluations to their targets on the training set, by golden-section
// search.
func fitScale(ex []neural.Example) float64 {
	lossAt := func(k float64) float64 {
		var sum float64
		for i := range ex {
			if !ex[i].Hold {
				sum += crossEntropy(sigmoid(k*float64(ex[i].Base)), float64(ex[i].Target))
			}
		}
		return sum
	}
	return minimizeScale(lossAt)
}
