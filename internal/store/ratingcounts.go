package store

import (
	"context"
	"fmt"
	"math"

	"github.com/toguz/toguz/internal/rating"
)

// RatingCounts returns how many players of category cat with a rating of
// RD at most maxRD (the leaderboard's) fall into each band of width
// points: counts[i] players rated from lo+i·width to below lo+(i+1)·width.
// The bands run from the lowest player's to the highest's; none for no
// player. The ratings are read one by one and counted here, so that a band
// is the same on SQLite and PostgreSQL (whose casts round differently).
func (s *Store) RatingCounts(ctx context.Context, cat rating.Category, maxRD, width float64) (lo float64, counts []int, err error) {
	if width <= 0 {
		return 0, nil, fmt.Errorf("store: rating counts: band width %v", width)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT rating FROM ratings WHERE category = $1 AND rd <= $2`, cat.String(), maxRD)
	if err != nil {
		return 0, nil, fmt.Errorf("store: rating counts %v: %w", cat, err)
	}
	defer rows.Close()
	by := map[int]int{}
	first, last := math.MaxInt, math.MinInt
	for rows.Next() {
		var r float64
		if err := rows.Scan(&r); err != nil {
			return 0, nil, err
		}
		b := int(math.Floor(r / width))
		by[b]++
		first, last = min(first, b), max(last, b)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	if len(by) == 0 {
		return 0, nil, nil
	}
	counts = make([]int, last-first+1)
	for b, n := range by {
		counts[b-first] = n
	}
	return float64(first) * width, counts, nil
}
