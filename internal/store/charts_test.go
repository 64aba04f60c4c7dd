package store

import (
	"testing"

	"github.com/toguz/toguz/internal/rating"
)

// TestRatingCounts: the stable ratings of a category in bands from the
// lowest player's, the same bands on both databases; none for none.
func TestRatingCounts(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		if lo, counts, err := s.RatingCounts(ctx, rating.Blitz, rating.RankableRD, 50); err != nil || lo != 0 || counts != nil {
			t.Fatalf("no player: %v %v %v", lo, counts, err)
		}
		for i, r := range []struct {
			rating, rd float64
			cat        string
		}{{1449.6, 60, "blitz"}, {1450, 60, "blitz"}, {1512, 70, "blitz"}, {1620, 200, "blitz"}, {1400, 60, "rapid"}} {
			u := mustUser(t, s, string(rune('a'+i))+"player")
			if _, err := s.w.ExecContext(ctx, `INSERT INTO ratings (user_id, category, rating, rd, volatility, games, updated_ms) VALUES ($1, $2, $3, $4, 0.06, 20, 0)`,
				u.ID, r.cat, r.rating, r.rd); err != nil {
				t.Fatal(err)
			}
		}
		lo, counts, err := s.RatingCounts(ctx, rating.Blitz, rating.RankableRD, 50)
		if err != nil || lo != 1400 || len(counts) != 3 || counts[0] != 1 || counts[1] != 1 || counts[2] != 1 {
			t.Errorf("blitz in bands of 50: from %v %v %v, want from 1400 [1 1 1] (the provisional 1620 left out)", lo, counts, err)
		}
		if _, _, err := s.RatingCounts(ctx, rating.Blitz, rating.RankableRD, 0); err == nil {
			t.Error("a band of width 0")
		}
	})
}

// TestPuzzleResults: a player's attempts and solves per puzzle (a repeat
// is not recorded: RecordPuzzle keeps the first attempt).
func TestPuzzleResults(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		u := mustUser(t, s, "solver")
		for _, a := range []struct {
			id     string
			solved bool
		}{{"p1", true}, {"p1", false}, {"p2", false}} {
			if _, err := s.RecordPuzzle(ctx, u.ID, a.id, a.solved, rating.Rating{Rating: 1500, RD: 350, Volatility: 0.06}); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.PuzzleResults(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]PuzzleResult{}
		for _, r := range res {
			got[r.PuzzleID] = r
		}
		if len(res) != 2 || got["p1"] != (PuzzleResult{"p1", 1, 1}) || got["p2"] != (PuzzleResult{"p2", 1, 0}) {
			t.Errorf("results %+v", res)
		}
	})
}
