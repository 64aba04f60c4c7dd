package engine

import (
	"context"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/cputime"
	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
)

// linearOptions are the defaults without the neural correction, the
// evaluation before it, for the benchmarks' comparison.
func linearOptions() Options {
	o := DefaultOptions()
	o.Neural = false
	return o
}

// TestNeuralEvaluation checks that Options.Neural adds the network to the
// learned evaluation, and only with LearnedEval on.
func TestNeuralEvaluation(t *testing.T) {
	p := toguz.StartPosition().After(7).After(3).After(5)
	lin := eval.Learned().Evaluate(&p)
	for _, tt := range []struct {
		name string
		opts func(*Options)
		want int32
	}{
		{"default", func(*Options) {}, lin + neural.Embedded().Evaluate(&p)},
		{"off", func(o *Options) { o.Neural = false }, lin},
		{"kazan only", func(o *Options) { o.LearnedEval = false }, eval.Material().Evaluate(&p)},
	} {
		o := DefaultOptions()
		tt.opts(&o)
		e, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.workers[0].evaluate(&p); got != clampEval(tt.want) {
			t.Errorf("%s: evaluate %d, want %d", tt.name, got, tt.want)
		}
	}
	if neural.Embedded().Evaluate(&p) == 0 {
		t.Error("the network adds nothing to this position: the test checks too little")
	}
}

// BenchmarkSearchLinear is BenchmarkSearch without the neural correction.
func BenchmarkSearchLinear(b *testing.B) {
	e, err := New(linearOptions())
	if err != nil {
		b.Fatal(err)
	}
	p := toguz.StartPosition()
	var nodes uint64
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		e.NewGame()
		b.StartTimer()
		c := cputime.Process()
		nodes += e.Search(context.Background(), p, Limits{Depth: 12}, nil).Nodes
		cpu += cputime.Process() - c
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkEvaluateLinear is BenchmarkEvaluate without the neural
// correction.
func BenchmarkEvaluateLinear(b *testing.B) {
	e, err := New(linearOptions())
	if err != nil {
		b.Fatal(err)
	}
	w := e.workers[0]
	p := toguz.StartPosition().After(7).After(3).After(5)
	var s Score
	b.ReportAllocs()
	for b.Loop() {
		s += w.evaluate(&p)
	}
}
