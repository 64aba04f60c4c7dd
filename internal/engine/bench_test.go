package engine

import (
	"context"
	"fmt"
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

// BenchmarkDepthReached reports the depth reached from the start position
// in 1 s and 5 s of wall time on one and two threads and, since a shared
// machine's wall clock says little, in the nodes that 1 and 5 CPU seconds
// buy (measured by a 2 s search first, off the clock). One search per
// sub-benchmark is enough (about 20 s in all):
//
//	go test ./internal/engine -run '^$' -bench DepthReached -benchtime 1x
func BenchmarkDepthReached(b *testing.B) {
	newEngine := func(b *testing.B, threads int) *Engine {
		opts := DefaultOptions()
		opts.Threads = threads
		opts.HashMB = 128
		e, err := New(opts)
		if err != nil {
			b.Fatal(err)
		}
		return e
	}
	start := toguz.StartPosition()
	search := func(b *testing.B, e *Engine, lim Limits) {
		var depth int
		var nodes uint64
		for b.Loop() {
			b.StopTimer()
			e.NewGame() // touch the table's pages before the clock runs
			b.StartTimer()
			res := e.Search(context.Background(), start, lim, nil)
			depth += res.Depth
			nodes += res.Nodes
		}
		b.ReportMetric(float64(depth)/float64(b.N), "depth")
		b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	}
	for _, threads := range []int{1, 2} {
		for _, d := range []time.Duration{time.Second, 5 * time.Second} {
			b.Run(fmt.Sprintf("threads=%d/wall=%v", threads, d), func(b *testing.B) {
				search(b, newEngine(b, threads), Limits{MoveTime: d})
			})
		}
	}
	for _, d := range []int{1, 5} {
		b.Run(fmt.Sprintf("threads=1/cpu=%ds", d), func(b *testing.B) {
			e := newEngine(b, 1)
			e.NewGame()
			c := cputime.Process()
			res := e.Search(context.Background(), start, Limits{MoveTime: 2 * time.Second}, nil)
			perCPU := float64(res.Nodes) / (cputime.Process() - c).Seconds()
			search(b, e, Limits{Nodes: uint64(perCPU * float64(d))}) // b.Loop restarts the clock
			b.ReportMetric(perCPU, "nodes/cpu-s")
		})
	}
}
