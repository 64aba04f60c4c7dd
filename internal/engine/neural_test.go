package engine

import (
	"context"
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

// TestRulesetEval checks that a position is evaluated with its ruleset's
// own embedded weights (without the network, which corrects the standard
// weights), and with the standard weights and the network when
// RulesetEval is off or the ruleset has none; and that a search plays
// with them.
func TestRulesetEval(t *testing.T) {
	own, ok := eval.ForRules(toguz.Bestemshe())
	seven, ok7 := eval.ForRules(toguz.Seven())
	if !ok || !ok7 || own == eval.Learned() || seven == eval.Learned() || own == seven {
		t.Fatal("Bestemshe and the 2×7 board have no weights of their own embedded")
	}
	playout := toguz.Bestemshe()
	playout.PlayOut = true
	for _, tt := range []struct {
		name        string
		rules       toguz.Rules
		rulesetEval bool
		want        *eval.Weights
		network     bool
	}{
		{"standard", toguz.Standard(), true, eval.Learned(), true},
		{"bestemshe", toguz.Bestemshe(), true, own, false},
		{"bestemshe with play-out", playout, true, own, false},
		{"bestemshe, RulesetEval off", toguz.Bestemshe(), false, eval.Learned(), true},
		{"seven", toguz.Seven(), true, seven, false},
		{"seven, RulesetEval off", toguz.Seven(), false, eval.Learned(), true},
		{"pre1949 (no weights of its own)", toguz.Pre1949(), true, eval.Learned(), true},
	} {
		o := DefaultOptions()
		o.RulesetEval = tt.rulesetEval
		e, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		w, network := e.evalFor(tt.rules)
		if w != tt.want || (network != nil) != tt.network {
			t.Errorf("%s: weights %p with network %v, want %p with %v", tt.name, w, network != nil, tt.want, tt.network)
		}
	}

	// A search of a Bestemshe position scores it as an engine given those
	// weights does, and otherwise than with the standard ones.
	p, _ := toguz.NewPosition(toguz.Bestemshe())
	p = p.After(3).After(2).After(5)
	if own.Evaluate(&p) == eval.Learned().Evaluate(&p) {
		t.Fatal("the two weights evaluate the test position alike: the test checks too little")
	}
	search := func(f func(*Options)) Score {
		o := DefaultOptions()
		f(&o)
		e, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		return e.Search(context.Background(), p, Limits{Depth: 6}, nil).Score
	}
	byRules := search(func(*Options) {})
	given := search(func(o *Options) { o.Eval, o.Neural = own, false })
	standard := search(func(o *Options) { o.RulesetEval = false })
	if byRules != given || byRules == standard {
		t.Errorf("depth-6 scores: %d by the ruleset's weights, %d given them, %d with the standard weights", byRules, given, standard)
	}
}
