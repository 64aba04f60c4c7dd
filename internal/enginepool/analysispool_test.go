package enginepool

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

func TestAnalysisPool(t *testing.T) {
	ap, err := NewAnalysisPool(AnalysisOptions{Searchers: 1, HashMB: 1, Wait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]int{}
	res, err := ap.Analyse(context.Background(), "u", toguz.StartPosition(), 2, engine.Limits{Depth: 3}, func(in engine.Info) { lines[in.Depth]++ })
	if err != nil || res.Best == toguz.NoMove || res.Depth != 3 {
		t.Fatalf("analyse: %v %+v", err, res)
	}
	for d := 1; d <= 3; d++ {
		if lines[d] != 2 {
			t.Errorf("depth %d: %d lines, want 2 (MultiPV)", d, lines[d])
		}
	}
	// The only engine busy: a second analysis waits, and gives up with
	// its context.
	started := make(chan struct{})
	actx, stopA := context.WithCancel(context.Background())
	doneA := make(chan struct{})
	defer func() { stopA(); <-doneA }()
	go func() {
		defer close(doneA)
		ap.Analyse(actx, "a", toguz.StartPosition(), 1, engine.Limits{Infinite: true, Yield: func() {
			select {
			case <-started:
			default:
				close(started)
			}
		}}, nil)
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := ap.Analyse(ctx, "b", toguz.StartPosition(), 1, engine.Limits{Depth: 1}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting analysis: %v", err)
	}
	// Past the pool's wait: busy.
	if _, err := ap.Analyse(context.Background(), "b", toguz.StartPosition(), 1, engine.Limits{Depth: 1}, nil); !errors.Is(err, ErrAnalysisBusy) {
		t.Errorf("analysis past the wait: %v", err)
	}
	if ap.Waiting() != 0 {
		t.Errorf("%d still waiting", ap.Waiting())
	}
}
