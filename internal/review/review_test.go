package review

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// shortest is the shortest decisive game (package shortest): Black hands
// White 82 stones in 11 plies.
var shortest = []toguz.Move{5, 1, 3, 5, 8, 3, 7, 4, 6, 5, 4}

const testDepth = 4

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(t.Context(), path, store.Options{Reviews: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// finished stores a game of moves between two guests, ended.
func finished(t *testing.T, s *store.Store, moves []toguz.Move) string {
	t.Helper()
	g, err := s.CreateGame(t.Context(), store.Game{Players: [2]game.Seat{{Name: "Guest-a"}, {Name: "Guest-b"}},
		Rules: toguz.Standard(), Status: game.Playing}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		if err := s.AppendMove(t.Context(), g.ID, store.Move{Ply: i + 1, Hole: m, Clock: -1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.FinishGame(t.Context(), g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan}); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// recorder collects the jobs a queue finished, in order.
type recorder struct {
	mu   sync.Mutex
	ids  []string
	done chan string
}

func newRecorder() *recorder { return &recorder{done: make(chan string, 100)} }

func (r *recorder) Done(id string, failed bool) {
	r.mu.Lock()
	r.ids = append(r.ids, id)
	r.mu.Unlock()
	r.done <- id
}

func (r *recorder) wait(t *testing.T, n int) []string {
	t.Helper()
	for range n {
		select {
		case <-r.done:
		case <-time.After(60 * time.Second):
			t.Fatalf("the queue finished %v, not %d jobs", r.ids, n)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ids...)
}

// TestQueueReviews: a finished game's review is stored with its marks and
// accuracies, a played game's before an import's requested earlier.
func TestQueueReviews(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "toguz.db"))
	ctx := t.Context()
	st, err := s.ImportGames(ctx, "a:x", 0, []store.Import{{Players: [2]string{"A", "B"}, Rules: toguz.Standard(),
		Moves: shortest[:4], Result: toguz.Draw, Termination: toguz.ByAgreement}})
	if err != nil {
		t.Fatal(err)
	}
	imported := st[0].ID
	if err := s.RequestReview(ctx, imported, "g:x"); err != nil {
		t.Fatal(err)
	}
	played := finished(t, s, shortest)
	rec := newRecorder()
	q, err := Start(ctx, Config{Jobs: s, Games: store.LiveStore{S: s}, Workers: 1, Depth: testDepth, Done: rec.Done, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Stop()
	if got := rec.wait(t, 2); got[0] != played || got[1] != imported {
		t.Errorf("reviewed %v, want the played game %s first, then the import %s", got, played, imported)
	}
	r, err := s.Review(ctx, played)
	if err != nil || r.Status != store.ReviewDone || r.Settings != "depth 4" {
		t.Fatalf("review: %+v, %v", r, err)
	}
	d, err := Decode(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Data), `"l":[`) {
		t.Errorf("the lines are not arrays of holes: %.300s", r.Data)
	}
	if len(d.Plies) != len(shortest) || d.Depth != testDepth {
		t.Fatalf("%d plies at depth %d, want %d at %d", len(d.Plies), d.Depth, len(shortest), testDepth)
	}
	if bad := d.Counts[toguz.Black][analysis.Mistake] + d.Counts[toguz.Black][analysis.Blunder]; bad == 0 {
		t.Errorf("no mistake of Black's: %v", d.Counts)
	}
	if !(d.Accuracy[toguz.Black] >= 0 && d.Accuracy[toguz.Black] < d.Accuracy[toguz.White]) {
		t.Errorf("accuracy White %v, Black %v: Black gave the game away", d.Accuracy[0], d.Accuracy[1])
	}
	for i, p := range d.Plies {
		if p.Move != shortest[i] {
			t.Errorf("ply %d: move %d, want %d", i+1, p.Move, shortest[i])
		}
		if p.Mark != analysis.Good && (len(p.Line) == 0 || p.Line[0] != p.Best) {
			t.Errorf("ply %d marked %v without the better line: %+v", i+1, p.Mark, p)
		}
	}
	if st := q.Stats(); st.Reviewed != 2 || st.Failed != 0 || st.Delay <= 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestQueueResumes: a queue stopped in the middle of a review leaves the
// job running; the next start on the reopened store reviews it.
func TestQueueResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "toguz.db")
	s := openStore(t, path)
	id := finished(t, s, shortest)
	// A worker takes the job and the server stops before it ends.
	if _, ok, err := s.NextReview(t.Context()); !ok || err != nil {
		t.Fatalf("NextReview: %v %v", ok, err)
	}
	s.Close()
	s = openStore(t, path)
	rec := newRecorder()
	q, err := Start(t.Context(), Config{Jobs: s, Games: store.LiveStore{S: s}, Depth: testDepth, Done: rec.Done, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Stop()
	if got := rec.wait(t, 1); got[0] != id {
		t.Errorf("reviewed %v, want %s", got, id)
	}
	if r, err := s.Review(t.Context(), id); err != nil || r.Status != store.ReviewDone {
		t.Errorf("after the resumed job: %+v, %v", r, err)
	}
}

// TestQueueStopLeavesJob: Stop during a review leaves it for the next start.
func TestQueueStopLeavesJob(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "toguz.db"))
	id := finished(t, s, shortest)
	// Deep enough that Stop comes in the middle.
	q, err := Start(t.Context(), Config{Jobs: s, Games: store.LiveStore{S: s}, Depth: 30, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, _ := s.Review(t.Context(), id)
		if r.Status == store.ReviewRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job never started: %+v", r)
		}
		time.Sleep(5 * time.Millisecond)
	}
	q.Stop()
	if r, _ := s.Review(t.Context(), id); r.Status != store.ReviewRunning {
		t.Errorf("after Stop: %s, want still running (resumed at the next start)", r.Status)
	}
}

// TestQueueWorkers: the workers are bounded by the CPUs, and with two
// workers (on a machine with two CPUs) two games are reviewed at once.
func TestQueueWorkers(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "toguz.db"))
	q, err := Start(t.Context(), Config{Jobs: s, Games: store.LiveStore{S: s}, Workers: 1000, Depth: testDepth})
	if err != nil {
		t.Fatal(err)
	}
	if q.cfg.Workers != runtime.NumCPU() {
		t.Errorf("1000 workers asked: %d, want the %d CPUs", q.cfg.Workers, runtime.NumCPU())
	}
	q.Stop()
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU")
	}
	// Two slow jobs; two workers take both before either ends.
	a, b := finished(t, s, shortest), finished(t, s, shortest[:10])
	q, err = Start(t.Context(), Config{Jobs: s, Games: store.LiveStore{S: s}, Workers: 2, Depth: 30, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Stop()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ra, _ := s.Review(t.Context(), a)
		rb, _ := s.Review(t.Context(), b)
		if ra.Status == store.ReviewRunning && rb.Status == store.ReviewRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not both running: %s %s", ra.Status, rb.Status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestJudge: the learn mode's answers, judged right and wrong.
func TestJudge(t *testing.T) {
	e, err := newEngine()
	if err != nil {
		t.Fatal(err)
	}
	start := toguz.StartPosition()
	d, err := Analyze(context.Background(), e, start, shortest, testDepth, true)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Exercises(start, d, toguz.Black)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) == 0 {
		t.Fatal("no exercise from Black's blunders")
	}
	if w, _ := Exercises(start, d, toguz.White); len(w) >= len(ex) {
		t.Errorf("White, the winner, has %d exercises, Black %d", len(w), len(ex))
	}
	j, err := NewJudge(1, testDepth)
	if err != nil {
		t.Fatal(err)
	}
	x := ex[len(ex)-1]
	if x.Before.Turn() != toguz.Black || x.Review.Move != shortest[x.Ply] {
		t.Fatalf("exercise %+v", x)
	}
	ctx := context.Background()
	// The engine's move is right, the mistake again is wrong.
	if v, err := j.Judge(ctx, x.Before, x.Review, x.Review.Best); err != nil || !v.Good {
		t.Errorf("the engine's move: %+v, %v", v, err)
	}
	if v, err := j.Judge(ctx, x.Before, x.Review, x.Review.Move); err != nil || v.Good || v.Mark < analysis.Mistake {
		t.Errorf("the mistake played again: %+v, %v", v, err)
	}
	// Every other legal move is searched: judged good exactly when it
	// loses under Tolerance against the engine's.
	for m := range x.Before.LegalMoves().All() {
		if m == x.Review.Best || m == x.Review.Move {
			continue
		}
		v, err := j.Judge(ctx, x.Before, x.Review, m)
		if err != nil {
			t.Fatal(err)
		}
		after, _ := x.Before.Play(m)
		s := -e.Search(ctx, after, engine.Limits{Depth: testDepth - 1}, nil).Score
		best := -x.Review.BestEval // Black's view
		cost, _ := analysis.Judge(best, s, analysis.DefaultThresholds)
		if v.Good != (cost < Tolerance) {
			t.Errorf("hole %d: good %v, cost %.1f (recomputed %.1f)", m, v.Good, v.Cost, cost)
		}
	}
	// A hole that is not a legal move.
	for m := toguz.Move(1); m <= 9; m++ {
		if !x.Before.LegalMoves().Has(m) {
			if _, err := j.Judge(ctx, x.Before, x.Review, m); !errors.Is(err, ErrIllegal) {
				t.Errorf("illegal hole %d: %v", m, err)
			}
			break
		}
	}
	// Busy: the one engine taken.
	e1 := <-j.engines
	other := toguz.NoMove
	for m := range x.Before.LegalMoves().All() {
		if m != x.Review.Best && m != x.Review.Move {
			other = m
		}
	}
	if other != toguz.NoMove {
		if _, err := j.Judge(ctx, x.Before, x.Review, other); !errors.Is(err, ErrBusy) {
			t.Errorf("with no engine free: %v, want ErrBusy", err)
		}
	}
	j.engines <- e1
}
