package store

import (
	"context"
	"fmt"
)

// PuzzleResult is one player's attempts at one puzzle.
type PuzzleResult struct {
	PuzzleID string
	Attempts int
	Solved   int // attempts that solved it
}

// PuzzleResults returns a player's attempts per puzzle he tried, in no
// order: one row per puzzle, so at most the shipped set's size. Only the
// first attempt at a puzzle is recorded (RecordPuzzle), so Solved says
// whether it was solved at the first try.
func (s *Store) PuzzleResults(ctx context.Context, userID int64) ([]PuzzleResult, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT puzzle_id, COUNT(*), SUM(solved) FROM puzzle_attempts WHERE user_id = $1 GROUP BY puzzle_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: puzzle results of %d: %w", userID, err)
	}
	defer rows.Close()
	var out []PuzzleResult
	for rows.Next() {
		var r PuzzleResult
		if err := rows.Scan(&r.PuzzleID, &r.Attempts, &r.Solved); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
