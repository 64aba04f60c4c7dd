package puzzle

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestShippedSound replays the shipped puzzles by a search deeper than the
// miner's proof (VerifyDepth against DefaultConfig().Deep): each judged
// move of each solution must still be the only move reaching its goal. The whole set takes
// minutes, so it runs when TOGUZ_PUZZLE_TEST=1 (a .ci/run step); otherwise
// a fixed random sample, smaller under -short. TOGUZ_PUZZLE_FILE replays
// another file (a miner's output before it is shipped).
func TestShippedSound(t *testing.T) {
	ps, err := Shipped()
	if f := os.Getenv("TOGUZ_PUZZLE_FILE"); f != "" {
		var r *os.File
		if r, err = os.Open(f); err == nil {
			ps, err = Read(r)
			r.Close()
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if VerifyDepth <= DefaultConfig().Deep {
		t.Fatalf("the soundness depth %d is not deeper than the miner's %d", VerifyDepth, DefaultConfig().Deep)
	}
	sample := ps
	if os.Getenv("TOGUZ_PUZZLE_TEST") != "1" {
		n := 40
		if testing.Short() {
			n = 8
		}
		rng := rand.New(rand.NewPCG(9, uint64(time.Now().UnixNano()>>30))) // a fresh sample every half minute
		sample = nil
		for _, i := range rng.Perm(len(ps))[:min(n, len(ps))] {
			sample = append(sample, ps[i])
		}
	}
	// One searcher per CPU (at most 4), each replaying every n-th puzzle:
	// a search depends only on its position and depth (one thread, the
	// table cleared), so the verdicts are the same as one after the other.
	workers := max(1, min(runtime.GOMAXPROCS(0), 4))
	start := time.Now()
	verdicts := make([]error, len(sample))
	var wg sync.WaitGroup
	for w := range workers {
		s, err := NewSearcher(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(sample); i += workers {
				verdicts[i] = Verify(context.Background(), s, sample[i], VerifyDepth, DefaultConfig())
			}
		}()
	}
	wg.Wait()
	var bad []string
	moves := 0
	for i, err := range verdicts {
		moves += max(sample[i].Moves, 1)
		if err != nil {
			bad = append(bad, sample[i].ID)
			t.Error(err)
		}
	}
	t.Logf("%d puzzles (%d judged moves) replayed at depth %d by %d searchers in %v; unsound: %s", len(sample), moves, VerifyDepth, workers,
		time.Since(start).Round(time.Millisecond), strings.Join(bad, " "))
}
