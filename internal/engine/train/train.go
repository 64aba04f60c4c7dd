// Package train fits the weights of the engine's evaluation (package eval)
// by logistic regression on game results, the method known from chess as
// Texel tuning:
//
//   - positions come from recorded games (any format toguz.ParseGames reads)
//     and from short self-play games of the engine, each labelled with the
//     game's result from the side to move's view (1, ½, 0);
//   - first the scale K of the logistic curve is fitted for the plain kazan
//     difference, so that the learned evaluation keeps its units (a
//     hundredth of a stone);
//   - then all weights are fitted with Adam on the cross-entropy of
//     sigmoid(K·eval) against the labels, features standardised, a little
//     L2; every tenth game is held out to report the validation loss.
//
// Run does it all; `toguz tune` is its command line. It is deterministic
// for a given Config (one thread for the self-play games).
package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/engine/eval"
)

// Config says what to train on and how long.
type Config struct {
	Files         []string // game records
	SelfPlayGames int      // self-play games to add
	SelfPlayNodes uint64   // nodes per move in self-play
	Epochs        int      // passes of the optimiser over the data
	Seed          uint64   // random source of the self-play openings and shuffling
	SkipPlies     int      // plies from each game's start not used (book-like openings)
	L2            float64  // weight decay on the standardised weights
}

// DefaultConfig is the configuration the embedded weights were made with,
// given the three data files.
func DefaultConfig(files []string) Config {
	return Config{Files: files, SelfPlayGames: 200, SelfPlayNodes: 2000, Epochs: 100, Seed: 1, SkipPlies: 4, L2: 1e-2}
}

// sample is one labelled position.
type sample struct {
	f     [eval.NumFeatures]float64
	label float64 // 1 the side to move won, 0 lost, 0.5 draw
	hold  bool    // validation set
}

// Report describes a training run.
type Report struct {
	Positions, Games, SelfPlay int
	K                          float64 // logistic scale per hundredth of a stone of the learned evaluation
	MaterialLoss               float64 // validation cross-entropy of the plain kazan difference
	TrainLoss, ValidLoss       float64 // of the learned weights
}

// Run trains weights as cfg says, writing progress to log.
func Run(ctx context.Context, cfg Config, log io.Writer) (*eval.Weights, Report, error) {
	var rep Report
	var samples []sample
	game := 0
	for _, file := range cfg.Files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, rep, err
		}
		games, err := toguz.ParseGames(file, data, 0)
		if err != nil {
			return nil, rep, fmt.Errorf("reading games: %w", err)
		}
		used := 0
		for _, g := range games {
			ps, err := g.Positions()
			if err != nil {
				return nil, rep, fmt.Errorf("replaying games: %w", err)
			}
			res := g.Result
			if final := ps[len(ps)-1]; final.IsOver() {
				res = final.Outcome().Result
			}
			if res == toguz.NoResult {
				continue
			}
			samples = addGame(samples, ps, res, cfg.SkipPlies, game%10 == 9)
			game++
			used++
		}
		fmt.Fprintf(log, "%s: %d games, %d with a result\n", file, len(games), used)
	}
	rep.Games = game
	if cfg.SelfPlayGames > 0 {
		// The self-play engine uses weights fitted on the recorded games
		// first, so that a run depends on its inputs alone.
		if len(samples) == 0 {
			return nil, rep, fmt.Errorf("self-play needs recorded games to fit its first weights")
		}
		first, _ := fitWeights(ctx, samples, cfg, io.Discard)
		start := time.Now()
		var err error
		samples, err = selfPlay(ctx, samples, first, cfg, &game)
		if err != nil {
			return nil, rep, err
		}
		rep.SelfPlay = game - rep.Games
		fmt.Fprintf(log, "self-play: %d games at %d nodes a move in %v\n", rep.SelfPlay, cfg.SelfPlayNodes, time.Since(start).Round(time.Second))
	}
	rep.Positions = len(samples)
	if len(samples) == 0 {
		return nil, rep, fmt.Errorf("no positions to train on")
	}
	fmt.Fprintf(log, "%d positions from %d games\n", len(samples), game)

	var w []float64
	w, rep.K = fitWeights(ctx, samples, cfg, log)
	material := make([]float64, eval.NumFeatures)
	material[eval.Kazan] = 100
	rep.MaterialLoss = loss(samples, material, fitK(samples), true)
	rep.TrainLoss = loss(samples, w, rep.K, false)
	rep.ValidLoss = loss(samples, w, rep.K, true)
	fmt.Fprintf(log, "kazan difference alone: validation loss %.5f; learned: train loss %.5f, validation loss %.5f\n",
		rep.MaterialLoss, rep.TrainLoss, rep.ValidLoss)
	return integer(w), rep, ctx.Err()
}

// integer converts weights to the fixed point of eval.Weights.
func integer(w []float64) *eval.Weights {
	var out eval.Weights
	for i, x := range w {
		out[i] = int32(math.Round(x * (1 << eval.Shift)))
	}
	return &out
}

// fitWeights fits the weights on samples and returns them with the scale K
// of the logistic curve they go with.
func fitWeights(ctx context.Context, samples []sample, cfg Config, log io.Writer) ([]float64, float64) {
	k := fitK(samples)
	fmt.Fprintf(log, "K = %.5f per hundredth of a stone for the kazan difference\n", k)
	w := fit(ctx, samples, k, cfg, log)
	// Rescale so that a stone of kazan difference is worth 100 when half
	// of the stones are on the board: the search's margins are in those
	// units. The curve's scale K changes inversely, the loss not at all.
	unit := w[eval.Kazan] + w[eval.KazanPhase]*float64(toguz.Standard.Total()/2)/16
	if unit > 0 {
		for j := range w {
			w[j] *= 100 / unit
		}
		k *= unit / 100
	}
	return w, k
}

// addGame adds the positions of one game with result res.
func addGame(samples []sample, ps []toguz.Position, res toguz.Result, skip int, hold bool) []sample {
	var f eval.Features
	for i, p := range ps {
		if i < skip || p.IsOver() {
			continue
		}
		s := sample{label: 0.5, hold: hold}
		switch res {
		case toguz.WinFor(p.Turn()):
			s.label = 1
		case toguz.WinFor(p.Turn().Other()):
			s.label = 0
		}
		eval.Extract(&p, &f)
		for j, x := range f {
			s.f[j] = float64(x)
		}
		samples = append(samples, s)
	}
	return samples
}

// selfPlay plays cfg.SelfPlayGames games of the engine with weights w
// against itself, the first plies drawn at random for variety, and adds
// their positions.
func selfPlay(ctx context.Context, samples []sample, w []float64, cfg Config, game *int) ([]sample, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x73656c66))
	opts := engine.DefaultOptions()
	opts.HashMB = 16
	opts.Eval = integer(w)
	e, err := engine.New(opts)
	if err != nil {
		return nil, err
	}
	for range cfg.SelfPlayGames {
		if ctx.Err() != nil {
			return samples, ctx.Err()
		}
		e.NewGame()
		p := toguz.StartPosition()
		ps := []toguz.Position{p}
		random := 2 + rng.IntN(8)
		for ply := 0; !p.IsOver() && ply < 400; ply++ {
			var m toguz.Move
			if ply < random {
				ms := p.LegalMoves().Slice()
				m = ms[rng.IntN(len(ms))]
			} else {
				m = e.Search(ctx, p, engine.Limits{Nodes: cfg.SelfPlayNodes}, nil).Best
			}
			p = p.After(m)
			ps = append(ps, p)
		}
		if !p.IsOver() {
			continue
		}
		samples = addGame(samples, ps, p.Outcome().Result, random, *game%10 == 9)
		*game++
	}
	return samples, nil
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// loss returns the mean cross-entropy of the weights w (hundredths of a
// stone per feature unit) on the validation samples, or on the training
// samples.
func loss(samples []sample, w []float64, k float64, valid bool) float64 {
	var sum float64
	n := 0
	for i := range samples {
		s := &samples[i]
		if s.hold != valid {
			continue
		}
		var e float64
		for j, x := range s.f {
			e += w[j] * x
		}
		q := min(max(sigmoid(k*e), 1e-12), 1-1e-12)
		sum -= s.label*math.Log(q) + (1-s.label)*math.Log(1-q)
		n++
	}
	return sum / float64(max(n, 1))
}

// fitK finds the scale of the logistic curve that best fits the plain
// kazan difference to the results, by golden-section search.
func fitK(samples []sample) float64 {
	w := make([]float64, eval.NumFeatures)
	w[eval.Kazan] = 100
	lo, hi := 1e-5, 0.05
	const phi = 0.6180339887498949
	for range 60 {
		a := hi - phi*(hi-lo)
		b := lo + phi*(hi-lo)
		if loss(samples, w, a, false) < loss(samples, w, b, false) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// fit runs Adam over standardised features and returns the weights in
// hundredths of a stone per feature unit.
func fit(ctx context.Context, samples []sample, k float64, cfg Config, log io.Writer) []float64 {
	const (
		rate   = 0.01
		beta1  = 0.9
		beta2  = 0.999
		batch  = 4096
		eps    = 1e-8
		report = 50
	)
	nf := eval.NumFeatures
	// scale[j] standardises feature j (no centring, so that the weights map
	// back to integers without an offset).
	scale := make([]float64, nf)
	n := 0
	for i := range samples {
		if samples[i].hold {
			continue
		}
		n++
		for j, x := range samples[i].f {
			scale[j] += x * x
		}
	}
	for j := range scale {
		scale[j] = math.Sqrt(scale[j] / float64(n))
		if scale[j] == 0 {
			scale[j] = 1
		}
	}
	// v are the weights on the standardised features in logit units:
	// w[j] = v[j] / (k · scale[j]). Start from the kazan difference.
	v := make([]float64, nf)
	v[eval.Kazan] = 100 * k * scale[eval.Kazan]
	m1 := make([]float64, nf)
	m2 := make([]float64, nf)
	grad := make([]float64, nf)
	order := make([]int, 0, n)
	for i := range samples {
		if !samples[i].hold {
			order = append(order, i)
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x666974))
	toW := func() []float64 {
		w := make([]float64, nf)
		for j := range w {
			w[j] = v[j] / (k * scale[j])
		}
		return w
	}
	t := 0
	for epoch := 1; epoch <= cfg.Epochs && ctx.Err() == nil; epoch++ {
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for start := 0; start < len(order); start += batch {
			end := min(start+batch, len(order))
			clear(grad)
			for _, i := range order[start:end] {
				s := &samples[i]
				var z float64
				for j, x := range s.f {
					z += v[j] * x / scale[j]
				}
				d := sigmoid(z) - s.label
				for j, x := range s.f {
					grad[j] += d * x / scale[j]
				}
			}
			t++
			for j := range v {
				g := grad[j]/float64(end-start) + cfg.L2*v[j]
				m1[j] = beta1*m1[j] + (1-beta1)*g
				m2[j] = beta2*m2[j] + (1-beta2)*g*g
				mh := m1[j] / (1 - math.Pow(beta1, float64(t)))
				vh := m2[j] / (1 - math.Pow(beta2, float64(t)))
				v[j] -= rate * mh / (math.Sqrt(vh) + eps)
			}
		}
		if epoch%report == 0 || epoch == cfg.Epochs {
			w := toW()
			fmt.Fprintf(log, "epoch %d: train %.5f, validation %.5f\n", epoch, loss(samples, w, k, false), loss(samples, w, k, true))
		}
	}
	return toW()
}
