package store

import (
	"reflect"
	"strconv"
	"testing"
)

// TestReviewsOf: the reviews of several games in one query, those games
// without one left out, each as Review reads it alone.
func TestReviewsOf(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		now := t0
		s := reviewStore(t, be.db(t), 0, &now)
		ctx := t.Context()
		a := playedGame(t, s, now, 3)
		b := playedGame(t, s, now, 2)
		none := playedGame(t, s, now, 0) // no move played: no review
		if r, ok, err := s.NextReview(ctx); err != nil || !ok || r.GameID != a {
			t.Fatalf("NextReview = %+v, %v, %v", r, ok, err)
		}
		if err := s.FinishReview(ctx, a, "depth 1", []byte(`{"plies":[]}`), false); err != nil {
			t.Fatal(err)
		}
		got, err := s.ReviewsOf(ctx, []string{a, b, none, "nope"})
		if err != nil || len(got) != 2 || got[a].Status != ReviewDone || got[b].Status != ReviewPending {
			t.Fatalf("ReviewsOf = %+v, %v; want %s done and %s pending", got, err, a, b)
		}
		for _, id := range []string{a, b} {
			if alone, err := s.Review(ctx, id); err != nil || !reflect.DeepEqual(alone, got[id]) {
				t.Errorf("%s: %+v alone, %+v among others (%v)", id, alone, got[id], err)
			}
		}
		if got, err := s.ReviewsOf(ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("no games: %v, %v", got, err)
		}
		many := make([]string, MaxReviewsOf+1)
		for i := range many {
			many[i] = strconv.Itoa(i)
		}
		if _, err := s.ReviewsOf(ctx, many); err == nil {
			t.Error("more than MaxReviewsOf games read")
		}
	})
}
