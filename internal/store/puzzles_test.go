package store

import (
	"context"
	"maps"
	"testing"

	"github.com/toguz/toguz/internal/rating"
)

// TestRecordPuzzle: a solve raises the player and lowers the puzzle, a
// miss does the opposite, and the counts add up.
func TestRecordPuzzle(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		ctx := context.Background()
		st, err := Open(ctx, be.db(t), Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		u, err := st.CreateUser(ctx, "solver", "x")
		if err != nil {
			t.Fatal(err)
		}
		initial := rating.Rating{Rating: 1600, RD: 300, Volatility: 0.09}
		a, err := st.RecordPuzzle(ctx, u.ID, "abc", true, initial)
		if err != nil {
			t.Fatal(err)
		}
		if a.PlayerAfter.Rating <= a.PlayerBefore.Rating || a.PuzzleAfter.Rating >= initial.Rating {
			t.Errorf("solve: player %v -> %v, puzzle %v -> %v", a.PlayerBefore, a.PlayerAfter, a.PuzzleBefore, a.PuzzleAfter)
		}
		again, err := st.RecordPuzzle(ctx, u.ID, "abc", true, initial)
		if err != nil || !again.Repeat || again.PlayerAfter != a.PlayerAfter {
			t.Errorf("a repeat is rated: %+v, %v", again, err)
		}
		b, err := st.RecordPuzzle(ctx, u.ID, "abd", false, initial)
		if err != nil {
			t.Fatal(err)
		}
		if b.PlayerBefore != a.PlayerAfter || b.PlayerAfter.Rating >= b.PlayerBefore.Rating || b.PuzzleAfter.Rating <= b.PuzzleBefore.Rating {
			t.Errorf("miss: %+v after %+v", b, a)
		}
		r, n, solved, err := st.PuzzleRating(ctx, u.ID)
		if err != nil || r != b.PlayerAfter || n != 2 || solved != 1 {
			t.Errorf("PuzzleRating = %v %d %d %v, want %v 2 1", r, n, solved, err, b.PlayerAfter)
		}
		stats, err := st.PuzzleStats(ctx)
		want := map[string]PuzzleStat{"abc": {a.PuzzleAfter, 1, 1}, "abd": {b.PuzzleAfter, 1, 0}}
		if err != nil || !maps.Equal(stats, want) {
			t.Errorf("PuzzleStats = %+v, %v, want %+v", stats, err, want)
		}
	})
}
