package store

import (
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// reviewStore opens a store that queues reviews, its clock advanced by
// hand, with at most max pending jobs.
func reviewStore(t *testing.T, path string, max int, now *time.Time) *Store {
	t.Helper()
	s, err := Open(t.Context(), path, Options{Now: func() time.Time { return *now }, Reviews: true, MaxReviews: max})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// playedGame stores a game of the given moves and ends it at now.
func playedGame(t *testing.T, s *Store, now time.Time, moves int) string {
	t.Helper()
	g := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "Guest-a"}, {Name: "Guest-b"}}, Rules: toguz.Standard(), Status: game.Playing})
	for k, m := range legalMoves(t, []toguz.Move{7, 3, 2, 5}[:moves]...) {
		if err := s.AppendMove(t.Context(), g.ID, Move{Ply: k + 1, Hole: m}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.FinishGame(t.Context(), g.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation, At: now}); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

func importedGames(t *testing.T, s *Store, n int) []string {
	t.Helper()
	var ims []Import
	for i := range n {
		ims = append(ims, Import{Players: [2]string{"A", "B"}, Rules: toguz.Standard(), Moves: legalMoves(t, toguz.Move(i%9+1), 3),
			Result: toguz.Draw, Termination: toguz.ByKazan, Date: time.Date(2018, 1, 1+i, 0, 0, 0, 0, time.UTC)})
	}
	st, err := s.ImportGames(t.Context(), "a:x", 0, ims)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range st {
		ids = append(ids, g.ID)
	}
	return ids
}

// TestReviewJobsResume: a finished game's job is queued with its ending, a
// job taken but not finished is pending again after a restart, and the
// review stored survives reopening.
func TestReviewJobsResume(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		path := be.db(t)
		now := t0
		s := reviewStore(t, path, 0, &now)
		ctx := t.Context()
		a := playedGame(t, s, now, 3)
		now = now.Add(time.Second)
		b := playedGame(t, s, now, 2)
		playedGame(t, s, now, 0) // no move played: nothing to review
		ab := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "x"}, {Name: "y"}}, Rules: toguz.Standard(), Status: game.Playing})
		if _, err := s.FinishGame(ctx, ab.ID, Finish{Status: game.Aborted}); err != nil {
			t.Fatal(err)
		}
		if n, err := s.PendingReviews(ctx); err != nil || n != 2 {
			t.Fatalf("PendingReviews = %d, %v; want 2 (the aborted and the empty games have none)", n, err)
		}
		r, ok, err := s.NextReview(ctx)
		if err != nil || !ok || r.GameID != a || r.Status != ReviewRunning || r.Imported || !r.Queued.Equal(t0) {
			t.Fatalf("NextReview = %+v, %v, %v; want game %s running", r, ok, err, a)
		}
		s.Close()

		// The server stopped with a running: it resumes first (the oldest).
		s = reviewStore(t, path, 0, &now)
		if n, err := s.ResumeReviews(ctx); err != nil || n != 1 {
			t.Fatalf("ResumeReviews = %d, %v; want 1", n, err)
		}
		if err := s.FinishReview(ctx, a, "depth 1", []byte(`{}`), false); !errors.Is(err, ErrConflict) {
			t.Errorf("finishing a job no worker holds: %v, want ErrConflict", err)
		}
		for _, want := range []string{a, b} {
			r, ok, err := s.NextReview(ctx)
			if err != nil || !ok || r.GameID != want {
				t.Fatalf("NextReview = %+v, %v, %v; want %s", r, ok, err, want)
			}
			if err := s.FinishReview(ctx, want, "depth 1", []byte(`{"plies":[]}`), false); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok, err := s.NextReview(ctx); ok || err != nil {
			t.Errorf("NextReview on an empty queue: %v, %v", ok, err)
		}
		s.Close()
		s = reviewStore(t, path, 0, &now)
		r, err = s.Review(ctx, a)
		if err != nil || r.Status != ReviewDone || r.Settings != "depth 1" || string(r.Data) != `{"plies":[]}` {
			t.Errorf("after reopening: %+v, %v", r, err)
		}
		if _, err := s.Review(ctx, "nothing"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Review of no game: %v", err)
		}
	})
}

// TestReviewQueueBound: played games' jobs go first; a full queue drops
// the oldest imported game's job, never a played game's; requests are
// bounded per requester.
func TestReviewQueueBound(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		now := t0
		s := reviewStore(t, be.db(t), 3, &now)
		ctx := t.Context()
		imp := importedGames(t, s, 6)
		for i, id := range imp[:3] {
			now = now.Add(time.Second)
			if err := s.RequestReview(ctx, id, []string{"g:a", "g:b", "g:c"}[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RequestReview(ctx, imp[0], "g:z"); !errors.Is(err, ErrConflict) {
			t.Errorf("a second request of one game: %v, want ErrConflict", err)
		}
		// Full: a played game's job drops the oldest import's.
		now = now.Add(time.Second)
		p1 := playedGame(t, s, now, 2)
		if _, err := s.Review(ctx, imp[0]); !errors.Is(err, ErrNotFound) {
			t.Errorf("the oldest import's job is still there: %v", err)
		}
		if err := s.RequestReview(ctx, p1, "g:a"); !errors.Is(err, ErrConflict) {
			t.Errorf("requesting a played game's review: %v, want ErrConflict", err)
		}
		// A new request drops the next oldest import.
		now = now.Add(time.Second)
		if err := s.RequestReview(ctx, imp[3], "g:d"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Review(ctx, imp[1]); !errors.Is(err, ErrNotFound) {
			t.Errorf("the next oldest import's job is still there: %v", err)
		}
		// Played games fill it; they pass the bound rather than being dropped.
		p2 := playedGame(t, s, now, 3)
		p3 := playedGame(t, s, now, 4)
		p4 := playedGame(t, s, now, 1)
		if n, _ := s.PendingReviews(ctx); n != 4 {
			t.Errorf("pending %d, want the 4 played games'", n)
		}
		if err := s.RequestReview(ctx, imp[4], "g:e"); !errors.Is(err, ErrReviewQueueFull) {
			t.Errorf("a request when only played games wait: %v, want ErrReviewQueueFull", err)
		}
		// The played games come out in the order they ended.
		for _, want := range []string{p1, p2, p3, p4} {
			if r, ok, err := s.NextReview(ctx); err != nil || !ok || r.GameID != want {
				t.Fatalf("NextReview = %+v, %v, %v; want %s", r, ok, err, want)
			}
		}
		// One requester has at most MaxPendingPerRequester waiting.
		for i := range MaxPendingPerRequester {
			if err := s.RequestReview(ctx, imp[[]int{1, 4, 5}[i]], "g:greedy"); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RequestReview(ctx, imp[0], "g:greedy"); !errors.Is(err, ErrTooManyRequests) {
			t.Errorf("request beyond the bound: %v, want ErrTooManyRequests", err)
		}
		// Played before imported, whatever the order of queueing.
		now = now.Add(time.Second)
		p5 := playedGame(t, s, now, 2)
		if r, _, _ := s.NextReview(ctx); r.GameID != p5 || r.Imported {
			t.Errorf("next: %+v, want the played game %s before the imports", r, p5)
		}
		if r, _, _ := s.NextReview(ctx); !r.Imported || r.RequestedBy == "" {
			t.Errorf("then: %+v, want an import", r)
		}
	})
}
