package store

import (
	"context"
	"fmt"
	"time"
)

// RatedGames returns a page of the rated games that ended with a result and
// were played in [from, to), in the order they were played, after the
// game (afterMS, afterID) of the previous page ("" for the first): the
// open database's monthly files (internal/opendb) read a month this way,
// page by page, with the games_archive index.
func (s *Store) RatedGames(ctx context.Context, from, to time.Time, afterMS int64, afterID string, limit int) ([]Game, error) {
	if limit < 1 || limit > 1000 {
		return nil, fmt.Errorf("store: rated games: limit %d out of 1..1000", limit)
	}
	return s.queryGames(ctx, `WHERE g.status = 'ended' AND g.rated = 1 AND g.result != '*'
		AND g.date_ms >= $1 AND g.date_ms < $2 AND (g.date_ms > $3 OR (g.date_ms = $3 AND g.id > $4))
		ORDER BY g.date_ms, g.id LIMIT $5`, ms(from), ms(to), max(afterMS, ms(from)-1), afterID, limit)
}

// RatedSpan returns when the first and the last rated game with a result
// were played; ok is false when there is none.
func (s *Store) RatedSpan(ctx context.Context) (first, last time.Time, ok bool, err error) {
	var lo, hi *int64
	err = s.r.QueryRowContext(ctx, `SELECT MIN(date_ms), MAX(date_ms) FROM games WHERE status = 'ended' AND rated = 1 AND result != '*'`).Scan(&lo, &hi)
	if err != nil {
		return first, last, false, fmt.Errorf("store: rated span: %w", err)
	}
	if lo == nil || hi == nil {
		return first, last, false, nil
	}
	return fromMS(*lo), fromMS(*hi), true, nil
}
