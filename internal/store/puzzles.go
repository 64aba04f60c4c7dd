package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/toguz/toguz/internal/rating"
)

// PuzzleAttempt is the outcome of RecordPuzzle: the player's and the
// puzzle's ratings before and after.
type PuzzleAttempt struct {
	PlayerBefore, PlayerAfter rating.Rating
	PuzzleBefore, PuzzleAfter rating.Rating
	// Repeat: the account had tried this puzzle before; a second attempt
	// is not rated (nothing changes), so that a known answer earns nothing.
	Repeat bool
}

// PuzzleRating returns an account's puzzle rating (rating.Default before
// its first attempt) and how many puzzles it tried and solved.
func (s *Store) PuzzleRating(ctx context.Context, userID int64) (r rating.Rating, attempts, solved int, err error) {
	r = rating.Default()
	err = s.r.QueryRowContext(ctx, `SELECT rating, rd, volatility, attempts, solved FROM puzzle_players WHERE user_id = $1`, userID).
		Scan(&r.Rating, &r.RD, &r.Volatility, &attempts, &solved)
	if errors.Is(err, sql.ErrNoRows) {
		return rating.Default(), 0, 0, nil
	}
	if err != nil {
		return r, 0, 0, fmt.Errorf("store: puzzle rating of user %d: %w", userID, err)
	}
	return r, attempts, solved, nil
}

// RecordPuzzle rates one attempt of an account at a puzzle, as a game the
// player wins when he solves it: both Glicko-2 ratings are read, updated
// and written in one transaction, so that attempts racing each other lose
// no update. initial is the puzzle's rating before its first attempt.
func (s *Store) RecordPuzzle(ctx context.Context, userID int64, puzzleID string, solved bool, initial rating.Rating) (PuzzleAttempt, error) {
	var a PuzzleAttempt
	now := s.now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		a.PlayerBefore, a.PuzzleBefore = rating.Default(), initial
		var lastMS int64
		err := tx.QueryRowContext(ctx, `SELECT rating, rd, volatility, last_ms FROM puzzle_players WHERE user_id = $1`, userID).
			Scan(&a.PlayerBefore.Rating, &a.PlayerBefore.RD, &a.PlayerBefore.Volatility, &lastMS)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT rating, rd, volatility FROM puzzle_ratings WHERE puzzle_id = $1`, puzzleID).
			Scan(&a.PuzzleBefore.Rating, &a.PuzzleBefore.RD, &a.PuzzleBefore.Volatility)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var tried int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2`, userID, puzzleID).Scan(&tried); err != nil {
			return err
		}
		if tried > 0 {
			a.Repeat, a.PlayerAfter, a.PuzzleAfter = true, a.PlayerBefore, a.PuzzleBefore
			return nil
		}
		score := 0.0
		if solved {
			score = 1
		}
		periods := [2]float64{0, 0}
		if lastMS > 0 {
			periods[0] = rating.Periods(fromMS(lastMS), now)
		}
		a.PlayerAfter, a.PuzzleAfter = rating.Lichess().Game(a.PlayerBefore, a.PuzzleBefore, score, periods)
		ok := boolInt(solved)
		if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_players (user_id, rating, rd, volatility, attempts, solved, last_ms)
			VALUES ($1, $2, $3, $4, 1, $5, $6)
			ON CONFLICT (user_id) DO UPDATE SET rating = $2, rd = $3, volatility = $4, attempts = puzzle_players.attempts + 1,
				solved = puzzle_players.solved + $5, last_ms = $6`,
			userID, a.PlayerAfter.Rating, a.PlayerAfter.RD, a.PlayerAfter.Volatility, ok, ms(now)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, attempts, solved)
			VALUES ($1, $2, $3, $4, 1, $5)
			ON CONFLICT (puzzle_id) DO UPDATE SET rating = $2, rd = $3, volatility = $4, attempts = puzzle_ratings.attempts + 1,
				solved = puzzle_ratings.solved + $5`,
			puzzleID, a.PuzzleAfter.Rating, a.PuzzleAfter.RD, a.PuzzleAfter.Volatility, ok); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, at_ms, rating_before, rating_after)
			VALUES ($1, $2, $3, $4, $5, $6)`, userID, puzzleID, ok, ms(now), a.PlayerBefore.Rating, a.PlayerAfter.Rating)
		return err
	})
	if err != nil {
		return PuzzleAttempt{}, fmt.Errorf("store: puzzle %s attempt of user %d: %w", puzzleID, userID, err)
	}
	return a, nil
}

// PuzzleStat is a puzzle's rating on the site and its rated attempts.
type PuzzleStat struct {
	Rating           rating.Rating
	Attempts, Solved int
}

// PuzzleStats returns the rating and attempts of every puzzle tried on
// the site, by puzzle id; a puzzle never tried has none.
func (s *Store) PuzzleStats(ctx context.Context) (map[string]PuzzleStat, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT puzzle_id, rating, rd, volatility, attempts, solved FROM puzzle_ratings`)
	if err != nil {
		return nil, fmt.Errorf("store: puzzle stats: %w", err)
	}
	defer rows.Close()
	out := map[string]PuzzleStat{}
	for rows.Next() {
		var id string
		var p PuzzleStat
		if err := rows.Scan(&id, &p.Rating.Rating, &p.Rating.RD, &p.Rating.Volatility, &p.Attempts, &p.Solved); err != nil {
			return nil, fmt.Errorf("store: puzzle stats: %w", err)
		}
		out[id] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: puzzle stats: %w", err)
	}
	return out, nil
}
