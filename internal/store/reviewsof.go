package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// MaxReviewsOf is the most games ReviewsOf reads the reviews of at once.
const MaxReviewsOf = 500

// ReviewsOf returns the reviews of those of the games ids that have one,
// by game id, in one query (at most MaxReviewsOf ids).
func (s *Store) ReviewsOf(ctx context.Context, ids []string) (map[string]Review, error) {
	out := make(map[string]Review, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	if len(ids) > MaxReviewsOf {
		return nil, fmt.Errorf("store: the reviews of %d games at once, at most %d", len(ids), MaxReviewsOf)
	}
	var q strings.Builder
	q.WriteString(`SELECT ` + reviewColumns + ` FROM reviews WHERE game_id IN (`)
	args := make([]any, len(ids))
	for i, id := range ids {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("$" + strconv.Itoa(i+1))
		args[i] = id
	}
	q.WriteString(")")
	rows, err := s.r.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("store: reviews of %d games: %w", len(ids), err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanReview(rows)
		if err != nil {
			return nil, err
		}
		out[r.GameID] = r
	}
	return out, rows.Err()
}
