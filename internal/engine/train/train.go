// Package train fits the weights of the engine's evaluation (package eval)
// by logistic regression, the method known from chess as Texel tuning, and
// trains its neural correction (package neural) on the same data:
//
//   - positions come from recorded games (any format toguz.ParseGames reads),
//     labelled with the game's result from the side to move's view (1, ½,
//     0), and from self-play games of the engine (Load), labelled with a
//     blend of the result and the logistic of the score of the search that
//     chose the move (Labelled.Target, Config.Blend); the self-play engine
//     uses weights fitted on the recorded games first, so the data depend on
//     the Config alone, and Config.Cache keeps them in a file between runs;
//   - first the scale K of the logistic curve is fitted for the plain kazan
//     difference, so that the learned evaluation keeps its units (a
//     hundredth of a stone);
//   - then all weights are fitted with Adam on the cross-entropy of
//     sigmoid(K·eval) against the labels, features standardised, a little
//     L2; every tenth game is held out to report the validation loss;
//   - TrainNeural fits the network to the residual of given linear weights.
//
// Run does the linear fit; `toguz tune` is its command line (-neural for
// the network). Everything is deterministic for a given Config (one thread
// for the self-play games).
package train

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
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
	// Blend is the share of the game result in the label of a self-play
	// position; the rest is the logistic of its search score. 1: results
	// only.
	Blend float64
	// Cache, when set, is a file that keeps the self-play positions: read
	// when it was made with the same settings, else written. The data do
	// not depend on it.
	Cache string
	// Rules is the ruleset trained for; the zero value is the standard
	// game. The recorded games must be of it. Another ruleset than the
	// standard may have no recorded games: its self-play engine then uses
	// the embedded standard weights, the ones it played with before it
	// had its own.
	Rules toguz.Rules
}

// rules returns cfg's ruleset, Standard for the zero value.
func (cfg *Config) rules() toguz.Rules {
	if cfg.Rules == (toguz.Rules{}) {
		return toguz.Standard()
	}
	return cfg.Rules
}

// DefaultConfig is the configuration the embedded weights were made with,
// given the three data files.
func DefaultConfig(files []string) Config {
	return Config{Files: files, SelfPlayGames: 1600, SelfPlayNodes: 5000, Epochs: 100, Seed: 1, SkipPlies: 4, L2: 1e-2, Blend: 0.5}
}

// sample is one labelled position as the linear model sees it: the base
// features and the indices of the hole×load indicators that are set.
type sample struct {
	base  [eval.Buckets]float32
	ind   [18]uint16
	nind  uint8
	label float32
	hold  bool
}

func newSample(p *toguz.Position, label float64, hold bool) sample {
	var f eval.Features
	eval.Extract(p, &f)
	s := sample{label: float32(label), hold: hold}
	for j := range eval.Buckets {
		s.base[j] = float32(f[j])
	}
	for j := eval.Buckets; j < eval.NumFeatures; j++ {
		if f[j] != 0 {
			s.ind[s.nind] = uint16(j)
			s.nind++
		}
	}
	return s
}

// dot returns the weighted sum of s's features.
func (s *sample) dot(w []float64) float64 {
	var e float64
	for j, x := range s.base {
		e += w[j] * float64(x)
	}
	for _, j := range s.ind[:s.nind] {
		e += w[j]
	}
	return e
}

// Report describes a training run.
type Report struct {
	Positions, Games, SelfPlay int
	K                          float64 // logistic scale per hundredth of a stone of the learned evaluation
	MaterialLoss               float64 // validation cross-entropy of the plain kazan difference
	TrainLoss, ValidLoss       float64 // of the learned weights
}

// Data are the labelled positions of a run: the recorded games' and the
// self-play games' with the logistic scale of the self-play engine.
type Data struct {
	Positions []Labelled
	Games     int     // recorded and self-play games
	Recorded  int     // recorded games
	K         float64 // scale of the self-play engine's evaluation (for Target)
}

// Load reads the recorded games and plays (or reads from cfg.Cache) the
// self-play games. The self-play engine uses weights fitted on the
// recorded games first, so that the data depend on cfg alone.
func Load(ctx context.Context, cfg Config, log io.Writer) (*Data, error) {
	rules := cfg.rules()
	recorded, games, err := readGames(cfg.Files, rules, cfg.SkipPlies, log)
	if err != nil {
		return nil, err
	}
	d := &Data{Positions: recorded, Games: games, Recorded: games}
	if cfg.SelfPlayGames <= 0 {
		return d, nil
	}
	standard := rules == toguz.Standard()
	if len(recorded) == 0 && standard {
		return nil, fmt.Errorf("self-play needs recorded games to fit its first weights")
	}
	// The key names the settings and the game files (by base name, so
	// that a cache serves the same command run from another directory);
	// for another ruleset also the ruleset and, without recorded games,
	// the standard weights its self-play engine used.
	names := make([]string, len(cfg.Files))
	for i, f := range cfg.Files {
		names[i] = filepath.Base(f)
	}
	key := fmt.Sprintf("games %d nodes %d seed %d skip %d epochs %d l2 %g files %s",
		cfg.SelfPlayGames, cfg.SelfPlayNodes, cfg.Seed, cfg.SkipPlies, cfg.Epochs, cfg.L2, strings.Join(names, " "))
	if !standard {
		key += " rules " + rules.String()
		if len(recorded) == 0 {
			key += fmt.Sprintf(" standard weights %016x", weightsHash(eval.Learned()))
		}
	}
	if cfg.Cache != "" {
		data, k, ok, err := readData(cfg.Cache, key, rules)
		if err != nil {
			return nil, err
		}
		if ok {
			fmt.Fprintf(log, "self-play: %d positions read from %s\n", len(data), cfg.Cache)
			d.Positions = append(d.Positions, data...)
			d.K = k
			d.Games += countGames(data)
			return d, nil
		}
	}
	var first *eval.Weights
	var k float64
	if len(recorded) > 0 {
		samples := make([]sample, len(recorded))
		for i := range recorded {
			samples[i] = newSample(&recorded[i].Pos, float64(recorded[i].Result), recorded[i].Hold)
		}
		var w []float64
		w, k = fitWeights(ctx, samples, cfg, io.Discard)
		first = integer(w)
	} else {
		first = eval.Learned()
	}
	start := time.Now()
	data, err := selfPlay(ctx, first, rules, cfg.SelfPlayGames, cfg.SelfPlayNodes, cfg.Seed, games, log)
	if err != nil {
		return nil, err
	}
	if len(recorded) == 0 {
		// No fit gave the scale of the self-play engine's scores: fit it
		// to the results of its own games (a stone weighs more on a
		// smaller board).
		k = fitScoreK(data)
		fmt.Fprintf(log, "self-play: K = %.5f per hundredth of a stone for the search scores\n", k)
	}
	fmt.Fprintf(log, "self-play: %d positions of %d games at %d nodes a move in %v\n",
		len(data), cfg.SelfPlayGames, cfg.SelfPlayNodes, time.Since(start).Round(time.Second))
	if cfg.Cache != "" {
		if err := writeData(cfg.Cache, key, k, data); err != nil {
			return nil, err
		}
	}
	d.Positions = append(d.Positions, data...)
	d.K = k
	d.Games += countGames(data)
	return d, nil
}

// countGames returns the number of games of data.
func countGames(data []Labelled) int {
	n := 0
	for i := range data {
		if i == 0 || data[i].Game != data[i-1].Game {
			n++
		}
	}
	return n
}

// Run trains weights as cfg says, writing progress to log.
func Run(ctx context.Context, cfg Config, log io.Writer) (*eval.Weights, Report, error) {
	var rep Report
	d, err := Load(ctx, cfg, log)
	if err != nil {
		return nil, rep, err
	}
	w, rep, err := Fit(ctx, d, cfg, log)
	return w, rep, err
}

// Fit fits the linear weights on d.
func Fit(ctx context.Context, d *Data, cfg Config, log io.Writer) (*eval.Weights, Report, error) {
	rep := Report{Games: d.Recorded, SelfPlay: d.Games - d.Recorded, Positions: len(d.Positions)}
	if len(d.Positions) == 0 {
		return nil, rep, fmt.Errorf("no positions to train on")
	}
	samples := make([]sample, len(d.Positions))
	for i := range d.Positions {
		l := &d.Positions[i]
		samples[i] = newSample(&l.Pos, l.Target(cfg.Blend, d.K), l.Hold)
	}
	fmt.Fprintf(log, "%d positions from %d games\n", len(samples), d.Games)
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
	unit := w[eval.Kazan] + w[eval.KazanPhase]*float64(cfg.rules().Total()/2)/16
	if unit > 0 {
		for j := range w {
			w[j] *= 100 / unit
		}
		k *= unit / 100
	}
	return w, k
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// crossEntropy is the cross-entropy of the prediction q against label y.
func crossEntropy(q, y float64) float64 {
	q = min(max(q, 1e-12), 1-1e-12)
	return -(y*math.Log(q) + (1-y)*math.Log(1-q))
}

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
		sum += crossEntropy(sigmoid(k*s.dot(w)), float64(s.label))
		n++
	}
	return sum / float64(max(n, 1))
}

// fitK finds the scale of the logistic curve that best fits the plain
// kazan difference to the labels, by golden-section search.
func fitK(samples []sample) float64 {
	w := make([]float64, eval.NumFeatures)
	w[eval.Kazan] = 100
	return minimizeScale(func(k float64) float64 { return loss(samples, w, k, false) })
}

// fitScoreK finds the scale of the logistic curve that best fits the
// search scores of data to the game results, by golden-section search;
// proven scores are left out.
func fitScoreK(data []Labelled) float64 {
	lossAt := func(k float64) float64 {
		var sum float64
		for i := range data {
			l := &data[i]
			if s := engine.Score(l.Score); l.Scored && !s.IsMate() {
				sum += crossEntropy(sigmoid(k*float64(s)), float64(l.Result))
			}
		}
		return sum
	}
	return minimizeScale(lossAt)
}

// weightsHash returns the FNV-1a hash of w, which names the weights in a
// cache key (its weights in little-endian order).
func weightsHash(w *eval.Weights) uint64 {
	h := fnv.New64a()
	var b []byte
	for _, x := range w {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	h.Write(b)
	return h.Sum64()
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
		s := &samples[i]
		if s.hold {
			continue
		}
		n++
		for j, x := range s.base {
			scale[j] += float64(x) * float64(x)
		}
		for _, j := range s.ind[:s.nind] {
			scale[j]++
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
				// The arithmetic is that of the dense loop over every
				// feature (zeros add nothing), so old weights reproduce.
				s := &samples[i]
				var z float64
				for j, x := range s.base {
					z += v[j] * float64(x) / scale[j]
				}
				for _, j := range s.ind[:s.nind] {
					z += v[j] / scale[j]
				}
				d := sigmoid(z) - float64(s.label)
				for j, x := range s.base {
					grad[j] += d * float64(x) / scale[j]
				}
				for _, j := range s.ind[:s.nind] {
					grad[j] += d / scale[j]
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
