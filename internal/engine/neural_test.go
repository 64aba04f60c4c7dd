package engine

import (
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
)

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
		w := e.workers[0]
		w.eval, w.network = e.evalFor(p.Rules())
		if got := w.evaluate(&p); got != clampEval(tt.want) {
			t.Errorf("%s: evaluate %d, want %d", tt.name, got, tt.want)
		}
	}
	if neural.Embedded().Evaluate(&p) == 0 {
		t.Error("the network adds nothing to this position: the test checks too little")
	}
}
