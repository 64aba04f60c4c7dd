package store

import (
	"context"
	"database/sql"
	"fmt"
)

// MarkExercise records that user id solved exercise (lesson/exercise) of
// the course; solving it again keeps the first time. The caller checks
// that exercise is one of the course's (lessons.Valid), which bounds the
// rows of an account.
func (s *Store) MarkExercise(ctx context.Context, userID int64, exercise string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO lesson_progress (user_id, exercise, done_ms) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, exercise) DO NOTHING`, userID, exercise, ms(s.now()))
		if err != nil {
			return fmt.Errorf("store: mark exercise %s of user %d: %w", exercise, userID, err)
		}
		return nil
	})
}

// Exercises returns the exercises user id has solved, in the order he
// solved them.
func (s *Store) Exercises(ctx context.Context, userID int64) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT exercise FROM lesson_progress WHERE user_id = $1 ORDER BY done_ms, exercise`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: exercises of user %d: %w", userID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var x string
		if err := rows.Scan(&x); err != nil {
			return nil, fmt.Errorf("store: exercises of user %d: %w", userID, err)
		}
		out = append(out, x)
	}
	return out, rows.Err()
}
