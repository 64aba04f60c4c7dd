package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/game"
)

// ReviewStatus is where a review job is.
type ReviewStatus string

const (
	ReviewPending ReviewStatus = "pending" // queued
	ReviewRunning ReviewStatus = "running" // a worker has it
	ReviewDone    ReviewStatus = "done"    // Review.Data holds the review
	ReviewFailed  ReviewStatus = "failed"  // Review.Data says why; not retried
)

// Review is a game's review job and, once done, the review.
type Review struct {
	GameID      string
	Status      ReviewStatus
	Imported    bool   // an imported game's, reviewed after every played game's
	RequestedBy string // who asked for an imported game's review
	Queued      time.Time
	Started     time.Time
	Done        time.Time
	Settings    string // the search of every ply, as the worker recorded it
	Data        []byte // the review (JSON) when done, the reason when failed
}

// DefaultMaxReviews is the pending review jobs the queue holds by default
// (Options.MaxReviews).
const DefaultMaxReviews = 10000

// The priorities of the queue: a played game's review before any imported
// game's.
const (
	priorityPlayed   = 0
	priorityImported = 1
)

// ErrReviewQueueFull is RequestReview's refusal when the queue holds only
// played games' reviews, which are never dropped for an imported game's.
var ErrReviewQueueFull = errors.New("store: the review queue is full of played games")

// ErrTooManyRequests is RequestReview's refusal of a requester who has
// MaxPendingPerRequester imported games' reviews waiting already.
var ErrTooManyRequests = errors.New("store: too many review requests waiting")

// MaxPendingPerRequester bounds the imported games' reviews one requester
// may have waiting at once.
const MaxPendingPerRequester = 3

// queueReview adds a pending job for game id in tx, first making room when
// the queue holds max pending jobs: the oldest imported game's job is
// dropped (a played game's never is). A played game's job always enters,
// so the bound can be passed only by played games, at most one job each.
func queueReview(ctx context.Context, tx *sql.Tx, id string, priority int, by string, now time.Time, max int) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM reviews WHERE game_id = $1`, id).Scan(&n); err != nil {
		return fmt.Errorf("store: review queue: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("review of %s: already queued or done: %w", id, ErrConflict)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM reviews WHERE status = 'pending'`).Scan(&n); err != nil {
		return fmt.Errorf("store: review queue: %w", err)
	}
	if max > 0 && n >= max {
		res, err := tx.ExecContext(ctx, `DELETE FROM reviews WHERE rowid = (SELECT rowid FROM reviews
			WHERE status = 'pending' AND priority = $1 ORDER BY queued_ms, rowid LIMIT 1)`, priorityImported)
		if err != nil {
			return fmt.Errorf("store: review queue: %w", err)
		}
		if d, _ := res.RowsAffected(); d == 0 && priority == priorityImported {
			return ErrReviewQueueFull
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO reviews (game_id, priority, status, requested_by, queued_ms)
		VALUES ($1, $2, 'pending', $3, $4)`, id, priority, by, ms(now))
	if unique, _ := constraint(err); unique {
		return fmt.Errorf("review of %s: already queued or done: %w", id, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("store: queue review of %s: %w", id, err)
	}
	return nil
}

// RequestReview queues the review of a finished imported game for
// requester by. It returns ErrConflict when the game has a review or a job
// already, ErrNotFound for an unknown game, an error for a game played here
// (the server queues those itself when they end) or not finished,
// ErrTooManyRequests when by has MaxPendingPerRequester requests waiting,
// and ErrReviewQueueFull when the queue is full of played games.
func (s *Store) RequestReview(ctx context.Context, id, by string) error {
	now := s.now().UTC()
	return s.write(ctx, func(tx *sql.Tx) error {
		var status, source string
		err := tx.QueryRowContext(ctx, `SELECT status, source FROM games WHERE id = $1`, id).Scan(&status, &source)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("game %q: %w", id, ErrNotFound)
		case err != nil:
			return fmt.Errorf("store: request review of %s: %w", id, err)
		case status != statusText(game.Ended):
			return fmt.Errorf("game %s is %s, not ended: %w", id, status, ErrConflict)
		case source != string(SourceImport):
			return fmt.Errorf("game %s was played here: its review is queued when it ends: %w", id, ErrConflict)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM reviews WHERE status = 'pending' AND requested_by = $1`, by).Scan(&n); err != nil {
			return fmt.Errorf("store: request review of %s: %w", id, err)
		}
		if n >= MaxPendingPerRequester {
			return ErrTooManyRequests
		}
		return queueReview(ctx, tx, id, priorityImported, by, now, s.maxReviews)
	})
}

// NextReview takes the next pending job (played games first, then the
// oldest) and marks it running; ok is false when none is pending.
func (s *Store) NextReview(ctx context.Context) (r Review, ok bool, err error) {
	now := s.now().UTC()
	err = s.write(ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `UPDATE reviews SET status = 'running', started_ms = $1
			WHERE rowid = (SELECT rowid FROM reviews WHERE status = 'pending' ORDER BY priority, queued_ms, rowid LIMIT 1)
			RETURNING `+reviewColumns, ms(now))
		r, err = scanReview(row)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		ok = err == nil
		return err
	})
	return r, ok, err
}

// FinishReview stores the review of a running job: data with settings
// (done), or why it failed (failed set). A job that is not running any
// more (dropped, or resumed by another start) gets ErrConflict.
func (s *Store) FinishReview(ctx context.Context, id, settings string, data []byte, failed bool) error {
	status := ReviewDone
	if failed {
		status = ReviewFailed
	}
	now := s.now().UTC()
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET status = $1, done_ms = $2, settings = $3, data = $4
			WHERE game_id = $5 AND status = 'running'`, string(status), ms(now), settings, string(data), id)
		if err != nil {
			return fmt.Errorf("store: finish review of %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("review of %s is not running: %w", id, ErrConflict)
		}
		return nil
	})
}

// ResumeReviews makes the jobs left running by a stopped server pending
// again, in their place in the queue, and returns how many. Only the
// review queue calls it, once, before its workers start.
func (s *Store) ResumeReviews(ctx context.Context) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET status = 'pending', started_ms = 0 WHERE status = 'running'`)
		if err != nil {
			return fmt.Errorf("store: resume reviews: %w", err)
		}
		n, _ = res.RowsAffected()
		return nil
	})
	return int(n), err
}

// Review returns game id's review job (ErrNotFound: it has none).
func (s *Store) Review(ctx context.Context, id string) (Review, error) {
	r, err := scanReview(s.r.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE game_id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, fmt.Errorf("review of %q: %w", id, ErrNotFound)
	}
	return r, err
}

// PendingReviews returns the number of pending jobs.
func (s *Store) PendingReviews(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM reviews WHERE status = 'pending'`).Scan(&n)
	return n, err
}

const reviewColumns = `game_id, status, priority, requested_by, queued_ms, started_ms, done_ms, settings, data`

func scanReview(row scanner) (Review, error) {
	var r Review
	var status, data string
	var priority int
	var queued, started, done int64
	if err := row.Scan(&r.GameID, &status, &priority, &r.RequestedBy, &queued, &started, &done, &r.Settings, &data); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return r, err
		}
		return r, fmt.Errorf("store: review: %w", err)
	}
	r.Status, r.Imported = ReviewStatus(status), priority == priorityImported
	r.Queued, r.Started, r.Done = fromMS(queued), fromMS(started), fromMS(done)
	if data != "" {
		r.Data = []byte(data)
	}
	return r, nil
}
