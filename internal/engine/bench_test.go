package engine

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/cputime"
)

// BenchmarkSearch searches the start position to a fixed depth with an
// empty table and reports nodes per second.
func BenchmarkSearch(b *testing.B) { benchmarkSearch(b, DefaultOptions()) }

// BenchmarkSearchLinear is BenchmarkSearch without the neural correction.
func BenchmarkSearchLinear(b *testing.B) { benchmarkSearch(b, linearOptions()) }

// BenchmarkEvaluate measures the default evaluation alone (learned weights
// and neural correction).
func BenchmarkEvaluate(b *testing.B) { benchmarkEvaluate(b, DefaultOptions()) }

// BenchmarkEvaluateLinear is BenchmarkEvaluate without the neural
// correction.
func BenchmarkEvaluateLinear(b *testing.B) { benchmarkEvaluate(b, linearOptions()) }

// linearOptions are the defaults without the neural correction, the
// evaluation before it, for the benchmarks' comparison.
func linearOptions() Options {
	o := DefaultOptions()
	o.Neural = false
	return o
}

func benchmarkSearch(b *testing.B, opts Options) {
	e, err := New(opts)
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
	// On a loaded machine wall time overstates the cost: nodes per second
	// of this process's CPU time is the engine's own speed.
	b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func benchmarkEvaluate(b *testing.B, opts Options) {
	e, err := New(opts)
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

// TestDepthReached reports the depth reached from the start position in 1 s
// and 5 s on one and two threads, and, since a shared machine's wall clock
// says little, also the depth reached with the nodes one CPU second buys
// (measured first). It takes about 15 s, so it runs only with
// TOGUZ_DEPTH_BENCH=1:
//
//	TOGUZ_DEPTH_BENCH=1 go test ./internal/engine -run DepthReached -v
func TestDepthReached(t *testing.T) {
	if os.Getenv("TOGUZ_DEPTH_BENCH") == "" {
		t.Skip("set TOGUZ_DEPTH_BENCH=1 to measure")
	}
	newEngine := func(threads int) *Engine {
		opts := DefaultOptions()
		opts.Threads = threads
		opts.HashMB = 128
		e, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		e.NewGame() // touch the table's pages before the clock runs
		return e
	}
	start := toguz.StartPosition()
	e := newEngine(1)
	c := cputime.Process()
	res := e.Search(context.Background(), start, Limits{MoveTime: 2 * time.Second}, nil)
	perCPU := float64(res.Nodes) / (cputime.Process() - c).Seconds()
	t.Logf("speed: %.0f nodes per CPU second (1 thread)", perCPU)
	for _, threads := range []int{1, 2} {
		for _, d := range []time.Duration{time.Second, 5 * time.Second} {
			e := newEngine(threads)
			begin := time.Now()
			res := e.Search(context.Background(), start, Limits{MoveTime: d}, nil)
			el := time.Since(begin)
			t.Logf("threads %d, %v of wall time: depth %d, %d nodes, %.0f nodes/s, best %v score %v",
				threads, d, res.Depth, res.Nodes, float64(res.Nodes)/el.Seconds(), res.Best, res.Score)
		}
	}
	for _, d := range []int{1, 5} {
		e := newEngine(1)
		res := e.Search(context.Background(), start, Limits{Nodes: uint64(perCPU * float64(d))}, nil)
		t.Logf("1 thread, the nodes of %d CPU second(s) (%d): depth %d, best %v score %v", d, res.Nodes, res.Depth, res.Best, res.Score)
	}
}
