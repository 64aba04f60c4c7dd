package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// ForumBounds bound what one author writes in the forum: posts in the
// last minute and the last day, topics in the last day (a topic's first
// post counts as a post); 0 leaves a bound out. They are counted in the
// write's own transaction, so that requests at once, or on several nodes,
// cannot each see room for one more.
type ForumBounds struct {
	PerMinute, PerDay, TopicsPerDay int
}

// ForumBoundError is a forum write past one of its author's bounds.
type ForumBoundError struct {
	Which string // "minute", "day" or "topics"
	Max   int
}

func (e *ForumBoundError) Error() string {
	return fmt.Sprintf("forum bound: %d a %s reached", e.Max, e.Which)
}

// check returns a *ForumBoundError when author may not write at now (a
// topic when topic).
func (b ForumBounds) check(ctx context.Context, tx *sql.Tx, author int64, now time.Time, topic bool) error {
	if b == (ForumBounds{}) {
		return nil
	}
	var minute, day, topics int
	if err := tx.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM forum_posts WHERE author_id = $1 AND created_ms >= $2),
		(SELECT count(*) FROM forum_posts WHERE author_id = $1 AND created_ms >= $3),
		(SELECT count(*) FROM forum_topics WHERE author_id = $1 AND created_ms >= $3)`,
		author, ms(now.Add(-time.Minute)), ms(now.Add(-24*time.Hour))).Scan(&minute, &day, &topics); err != nil {
		return err
	}
	switch {
	case b.PerMinute > 0 && minute >= b.PerMinute:
		return &ForumBoundError{Which: "minute", Max: b.PerMinute}
	case b.PerDay > 0 && day >= b.PerDay:
		return &ForumBoundError{Which: "day", Max: b.PerDay}
	case topic && b.TopicsPerDay > 0 && topics >= b.TopicsPerDay:
		return &ForumBoundError{Which: "topics", Max: b.TopicsPerDay}
	}
	return nil
}
