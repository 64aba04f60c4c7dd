package neural

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/toguz/toguz"
)

// Example is one training position: the linear evaluation the network
// corrects and the label to predict.
type Example struct {
	Pos    toguz.Position
	Base   int32   // linear evaluation, hundredths of a stone, side to move's view
	Target float32 // probability that the side to move wins (a result or a blend)
	Hold   bool    // validation set
}

// Config says how to train.
type Config struct {
	K      float64 // logistic scale of the evaluation per hundredth of a stone
	Epochs int
	Batch  int
	Rate   float64 // Adam's step
	L2     float64 // weight decay of the first layer
	Seed   uint64  // initial weights and shuffling
}

// DefaultConfig returns the settings of the embedded network for scale k.
func DefaultConfig(k float64) Config {
	return Config{K: k, Epochs: 5, Batch: 1024, Rate: 1e-3, L2: 1e-6, Seed: 1}
}

// Report gives the validation cross-entropy of the linear evaluation alone
// and with the trained network (floating point, then quantised), and the
// same on the training set.
type Report struct {
	BaseLoss, FloatLoss, QuantLoss float64
	BaseTrainLoss, TrainLoss       float64
}

// float is the network in floating point during training.
type float struct {
	w1 []float64 // NumInputs × Hidden
	b1 [Hidden]float64
	w2 [Hidden]float64
	b2 float64
}

// forward returns the output (in logit units) and the hidden
// pre-activations.
func (f *float) forward(in []uint16, a *[Hidden]float64) float64 {
	*a = f.b1
	for _, i := range in {
		row := f.w1[int(i)*Hidden : int(i)*Hidden+Hidden]
		for j := range a {
			a[j] += row[j]
		}
	}
	o := f.b2
	for j, x := range a {
		o += f.w2[j] * min(max(x, 0), 1)
	}
	return o
}

type prepared struct {
	in     [maxActive]uint16
	n      uint8
	ex     int     // its example's index
	base   float64 // K · linear evaluation
	target float64
	hold   bool
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func crossEntropy(q, y float64) float64 {
	q = min(max(q, 1e-12), 1-1e-12)
	return -(y*math.Log(q) + (1-y)*math.Log(1-q))
}

// Train fits a network to ex, writing progress to log. It is deterministic
// for given ex and cfg.
func Train(ctx context.Context, ex []Example, cfg Config, log io.Writer) (*Network, Report, error) {
	var rep Report
	data := prepare(ex, cfg.K)
	if len(data) == 0 {
		return nil, rep, fmt.Errorf("neural: no positions on the standard board to train on")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6e657572))
	f := newFloat(rng)
	var order []int
	for i := range data {
		if !data[i].hold {
			order = append(order, i)
		}
	}
	opt := newAdam(f)
	var a [Hidden]float64
	floatOut := func(p *prepared) float64 { return f.forward(p.in[:p.n], &a) }
	rep.BaseLoss = lossOf(data, true, func(*prepared) float64 { return 0 })
	rep.BaseTrainLoss = lossOf(data, false, func(*prepared) float64 { return 0 })
	fmt.Fprintf(log, "neural: %d positions; linear evaluation alone: validation %.5f\n", len(data), rep.BaseLoss)
	for epoch := 1; epoch <= cfg.Epochs && ctx.Err() == nil; epoch++ {
		rng.Shuffle(len(order), func(x, y int) { order[x], order[y] = order[y], order[x] })
		for start := 0; start < len(order); start += cfg.Batch {
			end := min(start+cfg.Batch, len(order))
			clear(opt.grad)
			for _, i := range order[start:end] {
				f.backward(&data[i], opt.grad, &a)
			}
			opt.step(&cfg, 1/float64(end-start), len(f.w1))
		}
		fmt.Fprintf(log, "neural epoch %d: train %.5f, validation %.5f\n", epoch, lossOf(data, false, floatOut), lossOf(data, true, floatOut))
	}
	rep.TrainLoss = lossOf(data, false, floatOut)
	rep.FloatLoss = lossOf(data, true, floatOut)
	nw, err := quantise(f, cfg.K)
	if err != nil {
		return nil, rep, err
	}
	rep.QuantLoss = lossOf(data, true, func(p *prepared) float64 {
		return cfg.K * float64(nw.Evaluate(&ex[p.ex].Pos))
	})
	fmt.Fprintf(log, "neural: validation %.5f linear alone, %.5f with the network, %.5f quantised\n",
		rep.BaseLoss, rep.FloatLoss, rep.QuantLoss)
	return nw, rep, ctx.Err()
}

// prepare keeps the examples on the standard board, with their active
// inputs and the linear evaluation at scale k.
func prepare(ex []Example, k float64) []prepared {
	data := make([]prepared, 0, len(ex))
	for i := range ex {
		e := &ex[i]
		var p prepared
		n, ok := active(&e.Pos, &p.in)
		if !ok {
			continue
		}
		p.n = uint8(n)
		p.ex = i
		p.base = k * float64(e.Base)
		p.target = float64(e.Target)
		p.hold = e.Hold
		data = append(data, p)
	}
	return data
}

// newFloat returns the untrained network: small random first-layer
// weights, biases that start every hidden unit in its linear range.
func newFloat(rng *rand.Rand) *float {
	f := &float{w1: make([]float64, NumInputs*Hidden)}
	for i := range f.w1 {
		f.w1[i] = (rng.Float64()*2 - 1) * 0.05
	}
	for j := range f.b1 {
		f.b1[j] = 0.5
	}
	return f
}

// lossOf returns the mean cross-entropy of the validation positions
// (valid) or the training ones, the network's output given by out.
func lossOf(data []prepared, valid bool, out func(p *prepared) float64) float64 {
	var sum float64
	n := 0
	for i := range data {
		p := &data[i]
		if p.hold != valid {
			continue
		}
		sum += crossEntropy(sigmoid(p.base+out(p)), p.target)
		n++
	}
	return sum / float64(max(n, 1))
}

// backward adds to grad, in the order of adam's params, the gradient of
// p's cross-entropy; a is scratch for the hidden layer.
func (f *float) backward(p *prepared, grad []float64, a *[Hidden]float64) {
	b1Off, w2Off := len(f.w1), len(f.w1)+Hidden
	o := f.forward(p.in[:p.n], a)
	d := sigmoid(p.base+o) - p.target
	grad[len(grad)-1] += d
	for j, x := range a {
		if x <= 0 || x >= 1 {
			if x >= 1 {
				grad[w2Off+j] += d
			}
			continue
		}
		grad[w2Off+j] += d * x
		g := d * f.w2[j]
		grad[b1Off+j] += g
		for _, in := range p.in[:p.n] {
			grad[int(in)*Hidden+j] += g
		}
	}
}

// adam is the optimiser's state.
type adam struct {
	// params addresses every parameter in the order of grad, m1 and m2.
	params       []*float64
	m1, m2, grad []float64
	t            int
}

func newAdam(f *float) *adam {
	nParams := len(f.w1) + 2*Hidden + 1
	o := &adam{
		m1:     make([]float64, nParams),
		m2:     make([]float64, nParams),
		grad:   make([]float64, nParams),
		params: make([]*float64, 0, nParams),
	}
	for i := range f.w1 {
		o.params = append(o.params, &f.w1[i])
	}
	for j := range Hidden {
		o.params = append(o.params, &f.b1[j])
	}
	for j := range Hidden {
		o.params = append(o.params, &f.w2[j])
	}
	o.params = append(o.params, &f.b2)
	return o
}

// step moves the parameters by the gradient times scale; the first nDecay
// (the first layer's weights) also decay.
func (o *adam) step(cfg *Config, scale float64, nDecay int) {
	const (
		beta1 = 0.9
		beta2 = 0.999
		eps   = 1e-8
	)
	o.t++
	c1 := 1 - math.Pow(beta1, float64(o.t))
	c2 := 1 - math.Pow(beta2, float64(o.t))
	for k, w := range o.params {
		g := o.grad[k] * scale
		if k < nDecay {
			g += cfg.L2 * *w
		}
		o.m1[k] = beta1*o.m1[k] + (1-beta1)*g
		o.m2[k] = beta2*o.m2[k] + (1-beta2)*g*g
		*w -= cfg.Rate * (o.m1[k] / c1) / (math.Sqrt(o.m2[k]/c2) + eps)
	}
}

// quantise converts f, whose output is in logit units, to a Network in
// hundredths of a stone at scale k. First-layer weights are clipped to
// ±maxW1/QA and biases to ±maxB1/QA, the bounds of the packed layer.
func quantise(f *float, k float64) (*Network, error) {
	nw := new(Network)
	q16 := func(x, m float64) int16 { return int16(min(max(math.Round(x), -m), m)) }
	for i := range nw.W1 {
		for j := range Hidden {
			nw.W1[i][j] = q16(f.w1[i*Hidden+j]*QA, maxW1)
		}
	}
	for j := range Hidden {
		nw.B1[j] = q16(f.b1[j]*QA, maxB1)
		nw.W2[j] = int32(math.Round(f.w2[j] / k * QB))
	}
	nw.B2 = int32(math.Round(f.b2 / k))
	return nw, nw.pack()
}
