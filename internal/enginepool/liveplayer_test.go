package enginepool

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/tablebase"
)

// TestSchedulerTurns: with one engine busy, the searches waiting for it are
// served one per user in turn, each user's oldest first, a user who had
// none running first; a search whose ctx ends while it waits gives its
// place up.
func TestSchedulerTurns(t *testing.T) {
	e, err := engine.New(engine.Options{Threads: 1, HashMB: 1, Level: 1, MultiPV: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := newScheduler([]*engine.Engine{e})
	held, err := s.acquire(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 16)
	wait := func(user, tag string, ctx context.Context, n int) {
		go func() {
			e, err := s.acquire(ctx, user)
			if err != nil {
				got <- tag + " " + err.Error()
				return
			}
			got <- tag
			s.release(user, e)
		}()
		for s.waiting() < n {
			time.Sleep(time.Millisecond)
		}
	}
	wait("a", "a1", context.Background(), 1)
	wait("a", "a2", context.Background(), 2)
	gone, cancel := context.WithCancel(context.Background())
	wait("a", "a3", gone, 3)
	wait("b", "b1", context.Background(), 4)
	wait("c", "c1", context.Background(), 5)
	wait("b", "b2", context.Background(), 6)
	cancel()
	if m := <-got; m != "a3 "+context.Canceled.Error() {
		t.Fatalf("a cancelled search: %q", m)
	}
	// Released one at a time (each search releases before the next runs).
	s.release("a", held)
	var order []string
	for range 5 {
		order = append(order, <-got)
	}
	if want := []string{"b1", "c1", "a1", "b2", "a2"}; !slices.Equal(order, want) {
		t.Fatalf("served %v, want %v", order, want)
	}
	if n := s.waiting(); n != 0 || len(s.free) != 1 || len(s.users) != 0 || len(s.byID) != 0 || s.fresh != 0 {
		t.Fatalf("after all: %d waiting, %d free, %d users, %d fresh", n, len(s.free), len(s.users), s.fresh)
	}
}

// TestLiveSearchTime: a search never takes more than the level's time nor
// more than half the engine's clock, however large the increment (it used
// to spend half the increment with less than that on its clock, and lose
// on time), and reports its start.
func TestLiveSearchTime(t *testing.T) {
	ep, err := NewLivePlayerWith(LiveOptions{Searchers: 1, HashMB: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := toguz.StartPosition()
	for _, tc := range []struct {
		name  string
		req   game.EngineRequest
		limit time.Duration
	}{
		{"untimed", game.EngineRequest{Position: p, Level: engine.MaxLevel}, engine.LevelMoveTime(engine.MaxLevel)},
		{"big increment", game.EngineRequest{Position: p, Level: engine.MaxLevel, Time: [2]time.Duration{600 * time.Millisecond, time.Minute}, Inc: 10 * time.Second}, 300 * time.Millisecond},
		{"no time left", game.EngineRequest{Position: p, Level: engine.MaxLevel, Time: [2]time.Duration{0, time.Minute}, Inc: 2 * time.Second}, time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var started time.Time
			tc.req.Started = func(at time.Time) { started = at }
			mv, err := ep.Move(context.Background(), tc.req)
			took := time.Since(started)
			if err != nil || !p.LegalMoves().Has(mv) {
				t.Fatalf("move %v, %v", mv, err)
			}
			if started.IsZero() {
				t.Fatal("the search's start was not reported")
			}
			// The search's own clock stops it, searchGrace past it its ctx;
			// a loaded machine may add a little.
			if max := tc.limit + searchGrace + 50*time.Millisecond; took > max {
				t.Errorf("the search took %v, want at most %v", took, max)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ep.Move(ctx, game.EngineRequest{Position: p, Level: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled search: %v", err)
	}
}

// TestSearchesYield: the Yield of LiveOptions and AnalysisOptions reaches
// every search (the server gives runtime.Gosched there, so that a search
// never holds a CPU its games' goroutines are waiting for), and a
// caller's own Limits.Yield is kept. The searches are long enough in
// nodes that the main thread polls however loaded the machine: a 50 ms
// search could end after its first iterations, under a poll's 1024
// nodes, when a loaded machine descheduled it (it failed so in CI).
func TestSearchesYield(t *testing.T) {
	var yields atomic.Int64
	yield := func() { yields.Add(1) }
	ep, err := NewLivePlayerWith(LiveOptions{Searchers: 1, HashMB: 1, Yield: yield, MoveTime: func(int) time.Duration { return 500 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ep.Move(context.Background(), game.EngineRequest{Position: toguz.StartPosition(), Level: engine.MaxLevel}); err != nil {
		t.Fatal(err)
	}
	if yields.Load() == 0 {
		t.Error("a live game's search never yielded")
	}
	ap, err := NewAnalysisPool(AnalysisOptions{HashMB: 1, Yield: yield})
	if err != nil {
		t.Fatal(err)
	}
	yields.Store(0)
	if _, err := ap.Analyse(context.Background(), "u", toguz.StartPosition(), 1, engine.Limits{Depth: 8}, nil); err != nil {
		t.Fatal(err)
	}
	if yields.Load() == 0 {
		t.Error("an analysis never yielded")
	}
	var own atomic.Int64
	yields.Store(0)
	if _, err := ap.Analyse(context.Background(), "u", toguz.StartPosition(), 1, engine.Limits{Depth: 8, Yield: func() { own.Add(1) }}, nil); err != nil {
		t.Fatal(err)
	}
	if own.Load() == 0 || yields.Load() != 0 {
		t.Errorf("the caller's Yield called %d times, the pool's %d: want the caller's only", own.Load(), yields.Load())
	}
}

// TestLivePlayerTablebase: the engine's games search with the tables at
// full strength, each move a win the Bestemshe table confirms, and
// without them at a weaker level.
func TestLivePlayerTablebase(t *testing.T) {
	tb, err := tablebase.SolveWith(context.Background(), tablebase.Options{Rules: toguz.Bestemshe(), Stones: 6, DistanceStones: 6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	set, err := tablebase.NewSet(tb)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := NewLivePlayerWith(LiveOptions{Searchers: 1, HashMB: 1, Tablebase: set,
		MoveTime: func(int) time.Duration { return 20 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	searchedWith := func() engine.Tablebase {
		e, err := ep.sched.acquire(context.Background(), "test")
		if err != nil {
			t.Fatal(err)
		}
		defer ep.sched.release("test", e)
		return e.Options().Tablebase
	}
	// White to move, 25 in his kazan, one capture from the win:
	// White 0 0 0 2 1, Black 1 1 0 1 0 (kazans 25 and 19).
	p, err := toguz.Setup{Rules: toguz.Bestemshe(), Turn: toguz.White,
		Board: [2][]int{{0, 0, 0, 2, 1}, {1, 1, 0, 1, 0}}, Kazan: [2]int{25, 19}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	res, plies, ok := tb.ProbeDTM(p)
	if !ok || res != tablebase.Win {
		t.Fatalf("%s: the table says %v in %d (%v), want a win", p.FEN(), res, plies, ok)
	}
	for _, tc := range []struct {
		level int
		want  engine.Tablebase
	}{{engine.MaxLevel, set}, {3, nil}, {engine.MaxLevel, set}} {
		m, err := ep.Move(context.Background(), game.EngineRequest{Position: p, Level: tc.level, User: "u"})
		if err != nil {
			t.Fatal(err)
		}
		if got := searchedWith(); got != tc.want {
			t.Errorf("level %d: searched with tables %v, want %v", tc.level, got, tc.want)
		}
		after := p.After(m)
		if r, ok := tb.ProbeWDL(after); tc.level == engine.MaxLevel && !(after.IsOver() || ok && r == tablebase.Loss) {
			t.Errorf("level %d: move %d of a won position leaves the opponent %v", tc.level, m, r)
		}
	}
}
